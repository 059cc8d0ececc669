// Package search is Okapi BM25 over the catalog's API documentation, and the "did you mean" suggestions built on it.
package search

import (
	"github.com/understudy/understudy/toolset"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// BM25 parameters, as rank_bm25's BM25Okapi defaults.
const (
	bm25K1      = 1.5
	bm25B       = 0.75
	bm25Epsilon = 0.25
)

// Tokenize splits text into search terms: it splits on every character
// that is not a letter or digit, and inside words at camelCase humps
// ("getUserProfile" → get, user, profile; "HTTPServer" → http, server) and
// at letter/digit boundaries ("iso3166" → iso, 3166); snake_case and
// kebab-case split on their separators. Terms are lowercased. Nothing is
// stemmed or dropped, so scores match rank_bm25 fed the same tokens.
func Tokenize(text string) []string {
	return appendTokens(nil, text)
}

func appendTokens(out []string, text string) []string {
	const (
		other = iota
		lower
		upper
		digit
	)
	class := func(r rune) int {
		switch {
		case unicode.IsDigit(r):
			return digit
		case unicode.IsUpper(r):
			return upper
		case unicode.IsLetter(r):
			return lower
		}
		return other
	}
	start := -1
	prev, prevPrev := other, other
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(text[start:end]))
		}
		start = -1
	}
	for i, r := range text {
		c := class(r)
		if c == other {
			flush(i)
			prev, prevPrev = other, other
			continue
		}
		if start >= 0 {
			switch {
			case (prev == digit) != (c == digit):
				flush(i) // letter/digit boundary
			case prev == lower && c == upper:
				flush(i) // camelCase hump
			case prev == upper && c == lower && prevPrev == upper:
				// "HTTPServer": the last capital starts the next word.
				_, size := utf8.DecodeLastRuneInString(text[:i])
				flush(i - size)
				start = i - size
			}
		}
		if start < 0 {
			start = i
		}
		prevPrev, prev = prev, c
	}
	flush(len(text))
	return out
}

// apiTokens is the searchable text of an API: its name and description, its
// tool's name, title and description, and its parameters' names and
// descriptions.
func apiTokens(a *toolset.API) []string {
	var toks []string
	toks = appendTokens(toks, a.Name)
	toks = appendTokens(toks, a.Description)
	if a.Tool != nil {
		toks = appendTokens(toks, a.Tool.Name)
		if a.Tool.Title != a.Tool.Name {
			toks = appendTokens(toks, a.Tool.Title)
		}
		toks = appendTokens(toks, a.Tool.Description)
	}
	for _, p := range a.Params {
		toks = appendTokens(toks, p.Name)
		toks = appendTokens(toks, p.Description)
	}
	return toks
}

// Index is an Okapi BM25 index over APIs (k1 = 1.5, b = 0.75, ε = 0.25).
// Its scores equal those of Python's rank_bm25.BM25Okapi built over the
// same token lists, to the last bit: IDF is log(N-n+0.5) - log(n+0.5),
// computed as that difference; a negative IDF becomes ε times the average
// IDF (averaged in first-appearance order, as rank_bm25's dict does); and
// every product is rounded as numpy rounds it. It is safe for concurrent use.
type Index struct {
	apis []*toolset.API
	ids  []string
	// terms finds a term's statistics; each term's postings are one run
	// of post, in document order. One flat slice and cloned term strings
	// keep the index small and let the documents' text go once indexed.
	terms map[string]int32
	stats []termStats
	post  []posting
	// norm[d] is k1·(1 − b + b·|d|/avgdl), the document-length part of the
	// denominator, computed once in rank_bm25's operation order.
	norm    []float64
	scratch sync.Pool
}

// termStats are a term's IDF and its run of Index.post.
type termStats struct {
	idf        float64
	start, end int32
}

type posting struct {
	doc int32
	tf  int32
}

// Hit is one search result.
type Hit struct {
	API   *toolset.API
	ID    string // the API's ID, "tool.api"
	Score float64
}

// NewIndex indexes apis for Search; their order does not affect scores or ties.
func NewIndex(apis []*toolset.API) *Index {
	docs := make([][]string, len(apis))
	for i, a := range apis {
		docs[i] = apiTokens(a)
	}
	ix := newIndexTokens(docs)
	ix.apis = apis
	ix.ids = make([]string, len(apis))
	for i, a := range apis {
		ix.ids[i] = a.ID()
	}
	return ix
}

// newIndexTokens builds the BM25 statistics over pre-tokenized documents.
func newIndexTokens(docs [][]string) *Index {
	ix := &Index{terms: map[string]int32{}, norm: make([]float64, len(docs))}
	postings := map[string][]posting{} // while building
	n := len(docs)
	var order []string // terms in first-appearance order, as rank_bm25's nd dict
	total := 0
	freq := map[string]int32{}
	var seen []string
	for d, doc := range docs {
		total += len(doc)
		clear(freq)
		seen = seen[:0]
		for _, t := range doc {
			if freq[t] == 0 {
				seen = append(seen, t)
			}
			freq[t]++
		}
		for _, t := range seen {
			ps, ok := postings[t]
			if !ok {
				// A term may be a substring of a long document: its own
				// copy keeps the document from being held by the index.
				t = strings.Clone(t)
				order = append(order, t)
			}
			postings[t] = append(ps, posting{doc: int32(d), tf: freq[t]})
		}
	}
	ix.stats = make([]termStats, len(order))
	size := 0
	for _, ps := range postings {
		size += len(ps)
	}
	ix.post = make([]posting, 0, size)
	for i, t := range order {
		ix.terms[t] = int32(i)
		ix.stats[i] = termStats{start: int32(len(ix.post))}
		ix.post = append(ix.post, postings[t]...)
		ix.stats[i].end = int32(len(ix.post))
	}
	if n == 0 {
		return ix
	}
	avgdl := float64(total) / float64(n)
	for d, doc := range docs {
		// numpy: k1 * (1 - b + b * doc_len / avgdl), left to right.
		bdl := float64(bm25B * float64(len(doc)))
		ix.norm[d] = float64(bm25K1 * float64(float64(1-bm25B)+float64(bdl/avgdl)))
	}
	idfSum := 0.0
	var negative []int
	for i := range order {
		df := float64(ix.stats[i].end - ix.stats[i].start)
		idf := math.Log(float64(n)-df+0.5) - math.Log(df+0.5)
		ix.stats[i].idf = idf
		idfSum += idf
		if idf < 0 {
			negative = append(negative, i)
		}
	}
	if len(order) > 0 {
		eps := float64(bm25Epsilon * float64(idfSum/float64(len(order))))
		for _, i := range negative {
			ix.stats[i].idf = eps
		}
	}
	return ix
}

// Len is the number of indexed APIs.
func (ix *Index) Len() int { return len(ix.norm) }

// scratch is the per-query working memory, pooled.
type scratch struct {
	score   []float64
	hit     []bool
	touched []int32
}

// scores accumulates the BM25 score of every document holding a query
// token, summed over query tokens in order (a repeated token counts again,
// as in rank_bm25); other documents' scores stay exactly 0 and are not
// touched.
func (ix *Index) scores(query []string, sc *scratch) {
	for _, q := range query {
		i, ok := ix.terms[q]
		if !ok {
			continue
		}
		st := ix.stats[i]
		idf := st.idf
		for _, p := range ix.post[st.start:st.end] {
			tf := float64(p.tf)
			num := float64(tf * (bm25K1 + 1))
			frac := float64(num / float64(tf+ix.norm[p.doc]))
			if !sc.hit[p.doc] {
				sc.hit[p.doc] = true
				sc.touched = append(sc.touched, p.doc)
			}
			sc.score[p.doc] += float64(idf * frac)
		}
	}
}

// Scores returns the BM25 score of every indexed API for the query, in
// index order, as rank_bm25's get_scores does.
func (ix *Index) Scores(query string) []float64 {
	sc := &scratch{score: make([]float64, len(ix.norm)), hit: make([]bool, len(ix.norm))}
	ix.scores(Tokenize(query), sc)
	return sc.score
}

// Search returns the k best APIs for a free-text query, best first; ties
// are broken by API ID. APIs holding no query term are not returned.
func (ix *Index) Search(query string, k int) []Hit {
	if ix == nil || k <= 0 || len(ix.norm) == 0 {
		return nil
	}
	sc, _ := ix.scratch.Get().(*scratch)
	if sc == nil {
		sc = &scratch{score: make([]float64, len(ix.norm)), hit: make([]bool, len(ix.norm))}
	}
	defer func() {
		for _, d := range sc.touched {
			sc.score[d], sc.hit[d] = 0, false
		}
		sc.touched = sc.touched[:0]
		ix.scratch.Put(sc)
	}()
	ix.scores(Tokenize(query), sc)
	s := sc.score
	better := func(i, j int32) bool {
		if s[i] != s[j] {
			return s[i] > s[j]
		}
		return ix.ids[i] < ix.ids[j]
	}
	var top []int32
	if k > smallK && len(sc.touched) > smallK {
		// A long ranking (a retriever ranking every tool or API) is
		// sorted once: inserting into a sorted slice would cost the
		// square of the matches.
		top = append(top, sc.touched...)
		sort.Slice(top, func(i, j int) bool { return better(top[i], top[j]) })
		top = top[:min(k, len(top))]
	} else {
		// Keep the k best in a small sorted slice: k is small (5-10).
		top = make([]int32, 0, k+1)
		for _, d := range sc.touched {
			if len(top) == k && !better(d, top[k-1]) {
				continue
			}
			pos := sort.Search(len(top), func(i int) bool { return better(d, top[i]) })
			top = append(top, 0)
			copy(top[pos+1:], top[pos:])
			top[pos] = d
			if len(top) > k {
				top = top[:k]
			}
		}
	}
	hits := make([]Hit, len(top))
	for i, d := range top {
		hits[i] = Hit{API: ix.apis[d], ID: ix.ids[d], Score: s[d]}
	}
	return hits
}

// smallK is the longest ranking Search keeps by insertion; longer ones
// are sorted.
const smallK = 64

// DocFreq is the number of indexed APIs whose documentation holds token,
// a term as Tokenize writes it.
func (ix *Index) DocFreq(token string) int {
	if ix == nil {
		return 0
	}
	return len(ix.postings(token))
}

// postings are the documents holding token, in document order.
func (ix *Index) postings(token string) []posting {
	i, ok := ix.terms[token]
	if !ok {
		return nil
	}
	st := ix.stats[i]
	return ix.post[st.start:st.end]
}

// Holds tells whether the documentation of the i-th indexed API (in the
// order given to NewIndex, the order of Scores) holds token, a term as
// Tokenize writes it.
func (ix *Index) Holds(i int, token string) bool {
	if ix == nil {
		return false
	}
	ps := ix.postings(token)
	j := sort.Search(len(ps), func(n int) bool { return int(ps[n].doc) >= i })
	return j < len(ps) && int(ps[j].doc) == i
}

// indexKey is the key of a catalog's BM25 index in Catalog.Derived.
type indexKey struct{}

// Of returns the BM25 index over every API of the catalog, in catalog
// order (Catalog.APIs), built on first use and kept with the catalog.
func Of(c *toolset.Catalog) *Index {
	if c == nil {
		return nil
	}
	return c.Derived(indexKey{}, func() any { return NewIndex(c.APIs()) }).(*Index)
}
