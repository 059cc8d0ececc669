package retrieve

import (
	"math"
	"sort"
	"strings"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/search"
)

// Hierarchical is AnyTool's hierarchical API retriever without a model:
// where AnyTool's meta-agent picks categories, category agents pick tools
// and tool agents add APIs to a candidate pool, each level here ranks its
// children by BM25 over their documentation (a category by its tools'
// names and descriptions, a tool by its own and its APIs'), and the pool is
// the APIs of the chosen tools that match the query. Self-reflection
// replaces AnyTool's "check_if_request_solvable": when the pool explains
// too little of the query (the IDF-weighted share of the query's terms
// that some pooled API's documentation contains is under Coverage), the
// search widens step by step rather than all at once, as AnyTool's
// default strategy does: the next category, and one more tool in each
// chosen category.
type Hierarchical struct {
	apis       *search.Index
	categories *search.Index
	tools      *search.Index
	corpus     []*toolset.API
	// The hierarchy by position in the indexes: a category's tools, a
	// tool's APIs, each tool's ID.
	catPos   map[string]int
	catTools [][]int
	toolAPIs [][]int
	toolIDs  []string
	maxTools int
	// Categories and Tools are how many categories, and tools per
	// category, the first round chooses (defaults 1 and 2).
	Categories, Tools int
	// Coverage is the share of the query the pool must explain to stop
	// (default 0.75); Reflections bounds the widening rounds (default 4,
	// within the 4-6 rounds after which AnyTool's pass rate levels off).
	Coverage    float64
	Reflections int
}

// NewHierarchical indexes the catalog's categories and tools.
func NewHierarchical(c *toolset.Catalog) *Hierarchical { return newHierarchical(CatalogCorpus(c)) }

// newHierarchical indexes the categories and tools of a corpus, each
// tool with the corpus' APIs of it. Everything is built in one pass over
// the corpus, and a search reads scores by position, so that a search
// costs time linear in the corpus, whatever its size.
func newHierarchical(co Corpus) *Hierarchical {
	h := &Hierarchical{apis: co.Index, corpus: co.APIs, catPos: map[string]int{}, Categories: 1, Tools: 2, Coverage: 0.75, Reflections: 4}
	// Categories and tools are indexed as documents of their own: each is
	// given to the BM25 index as a stand-in API whose name is its key and
	// whose description is its documentation.
	var catDocs []*strings.Builder
	var toolDocs []*strings.Builder
	toolPos := map[*toolset.Tool]int{}
	for i, a := range co.APIs {
		t := a.Tool
		if t == nil {
			t = &toolset.Tool{}
		}
		tp, ok := toolPos[t]
		if !ok {
			cp, ok := h.catPos[t.Category]
			if !ok {
				cp = len(h.catTools)
				h.catPos[t.Category] = cp
				h.catTools = append(h.catTools, nil)
				catDocs = append(catDocs, &strings.Builder{})
			}
			tp = len(h.toolIDs)
			toolPos[t] = tp
			h.toolIDs = append(h.toolIDs, t.StandardizedName)
			h.toolAPIs = append(h.toolAPIs, nil)
			h.catTools[cp] = append(h.catTools[cp], tp)
			h.maxTools = max(h.maxTools, len(h.catTools[cp]))
			catDocs[cp].WriteString(t.Name + " " + t.Title + " " + t.Description + " ")
			td := &strings.Builder{}
			td.WriteString(t.Title + " " + t.Description + " ")
			toolDocs = append(toolDocs, td)
		}
		h.toolAPIs[tp] = append(h.toolAPIs[tp], i)
		toolDocs[tp].WriteString(a.Name + " " + a.Description + " ")
	}
	cats := make([]*toolset.API, len(catDocs))
	for name, cp := range h.catPos {
		cats[cp] = &toolset.API{Name: name, Description: catDocs[cp].String()}
	}
	tools := make([]*toolset.API, len(toolDocs))
	for tp, td := range toolDocs {
		tools[tp] = &toolset.API{Name: h.toolIDs[tp], Description: td.String()}
	}
	h.categories, h.tools = search.NewIndex(cats), search.NewIndex(tools)
	// A search reads only the stand-ins' positions and names: their
	// documentation, the whole text of every tool, goes once indexed.
	for _, a := range append(cats, tools...) {
		a.Description = ""
	}
	return h
}

// Name is "hierarchical".
func (*Hierarchical) Name() string { return NameHierarchical }

// Retrieve returns the k best APIs of the final pool.
func (h *Hierarchical) Retrieve(query string, k int) []Hit {
	hs, _ := h.Search(query, k)
	return hs
}

// Search is Retrieve that also says how many self-reflection rounds
// widened the search.
func (h *Hierarchical) Search(query string, k int) ([]Hit, int) {
	if k <= 0 {
		return nil, 0
	}
	catRank := h.categories.Search(query, h.categories.Len())
	if len(catRank) == 0 {
		return nil, 0
	}
	toolScore := h.tools.Scores(query)
	apiScore := h.apis.Scores(query)
	terms := h.queryTerms(query)

	nCats, nTools := max(h.Categories, 1), max(h.Tools, 1)
	var pool []Hit
	var pooled []int // positions of the pool's APIs in the corpus
	rounds := 0
	for ; ; rounds++ {
		pool, pooled = pool[:0], pooled[:0]
		for _, c := range catRank[:min(nCats, len(catRank))] {
			for _, tp := range h.rankTools(h.catPos[c.ID], toolScore, nTools) {
				for _, ap := range h.toolAPIs[tp] {
					if s := apiScore[ap]; s > 0 {
						pool = append(pool, Hit{ID: h.corpus[ap].ID(), Score: s})
						pooled = append(pooled, ap)
					}
				}
			}
		}
		wider := nCats < len(catRank) || nTools < h.maxTools
		if rounds >= h.Reflections || !wider || h.coverage(terms, pooled) >= h.Coverage {
			break
		}
		nCats++
		nTools++
	}
	return sortHits(pool, k), rounds
}

// rankTools returns the positions of a category's n best tools that
// match the query, best first, ties by tool ID.
func (h *Hierarchical) rankTools(category int, score []float64, n int) []int {
	var ts []int
	for _, tp := range h.catTools[category] {
		if score[tp] > 0 {
			ts = append(ts, tp)
		}
	}
	sort.Slice(ts, func(i, j int) bool {
		a, b := ts[i], ts[j]
		if score[a] != score[b] {
			return score[a] > score[b]
		}
		return h.toolIDs[a] < h.toolIDs[b]
	})
	return ts[:min(n, len(ts))]
}

// term is a query term the corpus knows, with its weight (IDF).
type term struct {
	token  string
	weight float64
}

// queryTerms are the distinct query terms some API's documentation holds.
func (h *Hierarchical) queryTerms(query string) []term {
	var out []term
	seen := map[string]bool{}
	n := float64(h.apis.Len())
	for _, tok := range search.Tokenize(query) {
		if seen[tok] {
			continue
		}
		seen[tok] = true
		df := h.apis.DocFreq(tok)
		if df == 0 {
			continue // a word no documentation uses says nothing about the APIs
		}
		out = append(out, term{token: tok, weight: math.Log(1 + n/float64(df))})
	}
	return out
}

// coverage is the weighted share of the terms some pooled API holds.
func (h *Hierarchical) coverage(terms []term, pooled []int) float64 {
	total, covered := 0.0, 0.0
	for _, t := range terms {
		total += t.weight
		for _, p := range pooled {
			if h.apis.Holds(p, t.token) {
				covered += t.weight
				break
			}
		}
	}
	if total == 0 {
		return 1
	}
	return covered / total
}
