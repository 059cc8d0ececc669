package retrieve

import (
	"math"
	"strings"

	"github.com/understudy/understudy/toolset"
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
	apis       *toolset.Index
	categories *toolset.Index
	tools      *toolset.Index
	catalog    *toolset.Catalog
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
func NewHierarchical(c *toolset.Catalog) *Hierarchical {
	// Categories and tools are indexed as documents of their own: each is
	// given to the BM25 index as a stand-in API whose name is its key and
	// whose description is its documentation.
	var cats, tools []*toolset.API
	for _, cat := range c.Categories {
		var doc strings.Builder
		for _, t := range cat.Tools {
			doc.WriteString(t.Name + " " + t.Title + " " + t.Description + " ")
		}
		cats = append(cats, &toolset.API{Name: cat.Name, Description: doc.String()})
		for _, t := range cat.Tools {
			var td strings.Builder
			td.WriteString(t.Title + " " + t.Description + " ")
			for _, a := range t.APIs {
				td.WriteString(a.Name + " " + a.Description + " ")
			}
			tools = append(tools, &toolset.API{Name: t.StandardizedName, Description: td.String()})
		}
	}
	return &Hierarchical{apis: c.Index(), categories: toolset.NewIndex(cats), tools: toolset.NewIndex(tools), catalog: c,
		Categories: 1, Tools: 2, Coverage: 0.75, Reflections: 4}
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
	catRank := h.categories.Search(query, len(h.catalog.Categories))
	if len(catRank) == 0 {
		return nil, 0
	}
	toolScore := map[string]float64{}
	for _, t := range h.tools.Search(query, h.tools.Len()) {
		toolScore[t.ID] = t.Score
	}
	apiScore := map[string]float64{}
	for _, a := range h.apis.Search(query, h.apis.Len()) {
		apiScore[a.ID] = a.Score
	}
	terms := h.queryTerms(query)

	nCats, nTools := max(h.Categories, 1), max(h.Tools, 1)
	var pool []Hit
	rounds := 0
	for ; ; rounds++ {
		pool = pool[:0]
		for _, c := range catRank[:min(nCats, len(catRank))] {
			for _, t := range h.rankTools(c.ID, toolScore, nTools) {
				for _, a := range t.APIs {
					if s := apiScore[a.ID()]; s > 0 {
						pool = append(pool, Hit{ID: a.ID(), Score: s})
					}
				}
			}
		}
		wider := nCats < len(catRank) || nTools < h.maxTools()
		if rounds >= h.Reflections || !wider || coverage(terms, pool) >= h.Coverage {
			break
		}
		nCats++
		nTools++
	}
	return sortHits(pool, k), rounds
}

// rankTools returns a category's n best tools that match the query.
func (h *Hierarchical) rankTools(category string, score map[string]float64, n int) []*toolset.Tool {
	var cat *toolset.Category
	for _, c := range h.catalog.Categories {
		if c.Name == category {
			cat = c
		}
	}
	if cat == nil {
		return nil
	}
	var ts []Hit
	for _, t := range cat.Tools {
		if s := score[t.StandardizedName]; s > 0 {
			ts = append(ts, Hit{ID: t.StandardizedName, Score: s})
		}
	}
	var out []*toolset.Tool
	for _, t := range sortHits(ts, n) {
		out = append(out, h.catalog.Tool(t.ID))
	}
	return out
}

func (h *Hierarchical) maxTools() int {
	n := 0
	for _, c := range h.catalog.Categories {
		n = max(n, len(c.Tools))
	}
	return n
}

// term is a query term the catalog knows, with its weight (IDF) and the
// APIs whose documentation holds it.
type term struct {
	weight float64
	in     map[string]bool
}

// queryTerms reads which APIs hold each distinct query term, from the
// catalog's own index (an API holds a term when the term alone scores it).
func (h *Hierarchical) queryTerms(query string) []term {
	var out []term
	seen := map[string]bool{}
	n := float64(h.apis.Len())
	for _, tok := range toolset.Tokenize(query) {
		if seen[tok] {
			continue
		}
		seen[tok] = true
		in := map[string]bool{}
		for _, hit := range h.apis.Search(tok, h.apis.Len()) {
			in[hit.ID] = true
		}
		if len(in) == 0 {
			continue // a word no documentation uses says nothing about the APIs
		}
		out = append(out, term{weight: math.Log(1 + n/float64(len(in))), in: in})
	}
	return out
}

// coverage is the weighted share of the terms some pooled API holds.
func coverage(terms []term, pool []Hit) float64 {
	total, covered := 0.0, 0.0
	for _, t := range terms {
		total += t.weight
		for _, p := range pool {
			if t.in[p.ID] {
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
