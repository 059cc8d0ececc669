// Package fuzzy finds the names nearest a misspelt one without comparing it with every name: a trigram index for candidates, edit distance to rank them.
package fuzzy

import (
	"slices"
	"sync"
)

// Index finds, among a fixed list of names, those sharing the most
// trigrams with a query. It is safe for concurrent use; a lookup allocates
// only its answer (its working memory is pooled).
type Index struct {
	names    []string
	postings map[trigram][]int32
	grams    []int32 // distinct trigrams of each name, for the Dice score
	scratch  sync.Pool
}

// trigram is three bytes of a name padded with '\x00' at both ends, so
// that a name's first and last letters count as much as its middle ones.
type trigram [3]byte

// New indexes names; lookups answer their positions in this list.
func New(names []string) *Index {
	ix := &Index{names: names, postings: map[trigram][]int32{}, grams: make([]int32, len(names))}
	var seen []trigram
	for i, n := range names {
		seen = trigrams(n, seen[:0])
		ix.grams[i] = int32(len(seen))
		for _, g := range seen {
			ix.postings[g] = append(ix.postings[g], int32(i))
		}
	}
	return ix
}

// trigrams appends the distinct trigrams of s to out.
func trigrams(s string, out []trigram) []trigram {
	if s == "" {
		return out
	}
	at := func(i int) byte {
		if i < 0 || i >= len(s) {
			return 0
		}
		return s[i]
	}
	for i := -1; i < len(s)-1; i++ {
		g := trigram{at(i), at(i + 1), at(i + 2)}
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// Len is the number of indexed names.
func (ix *Index) Len() int { return len(ix.names) }

// Name is the name at position i.
func (ix *Index) Name(i int) string { return ix.names[i] }

type scratch struct {
	shared  []int32 // trigrams shared with the query, by name
	touched []int32
	grams   []trigram
}

// Nearest appends to out the positions of up to n names sharing at least
// one trigram with query, most similar first by the Dice coefficient of
// their trigram sets (ties to the earlier position).
func (ix *Index) Nearest(query string, n int, out []int) []int {
	if n <= 0 || len(ix.names) == 0 {
		return out
	}
	sc, _ := ix.scratch.Get().(*scratch)
	if sc == nil {
		sc = &scratch{shared: make([]int32, len(ix.names))}
	}
	defer func() {
		for _, d := range sc.touched {
			sc.shared[d] = 0
		}
		sc.touched = sc.touched[:0]
		ix.scratch.Put(sc)
	}()
	sc.grams = trigrams(query, sc.grams[:0])
	for _, g := range sc.grams {
		for _, d := range ix.postings[g] {
			if sc.shared[d] == 0 {
				sc.touched = append(sc.touched, d)
			}
			sc.shared[d]++
		}
	}
	q := int32(len(sc.grams))
	// dice compares 2·shared/(|q|+|name|) without dividing.
	better := func(a, b int32) bool {
		l, r := int64(sc.shared[a])*int64(q+ix.grams[b]), int64(sc.shared[b])*int64(q+ix.grams[a])
		if l != r {
			return l > r
		}
		return a < b
	}
	start := len(out)
	for _, d := range sc.touched {
		top := out[start:]
		if len(top) == n && !better(d, int32(top[n-1])) {
			continue
		}
		pos := len(top)
		for pos > 0 && better(d, int32(top[pos-1])) {
			pos--
		}
		if len(top) < n {
			out = append(out, 0)
			top = out[start:]
		}
		copy(top[pos+1:], top[pos:len(top)-1])
		top[pos] = int(d)
	}
	return out
}

// Similarity is 1 − edit distance / the longer length, in [0, 1]: 1 for
// equal strings (two empty ones too), 0 for nothing in common.
func Similarity(a, b string) float64 {
	if a == "" && b == "" {
		return 1
	}
	n := max(len(a), len(b))
	return 1 - float64(Levenshtein(a, b))/float64(n)
}

// Levenshtein is the edit distance between two strings, by bytes.
func Levenshtein(a, b string) int {
	if a == b {
		return 0
	}
	var buf [2 * 64]int
	var prev, cur []int
	if len(b)+1 <= len(buf)/2 {
		prev, cur = buf[:len(b)+1], buf[len(b)+1:2*(len(b)+1)]
	} else {
		prev, cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
