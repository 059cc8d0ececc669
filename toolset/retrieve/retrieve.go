// Package retrieve finds the APIs a query needs: BM25 over the catalog, AnyTool's hierarchical category → tool → API search with self-reflection, Self-Assist's deliberate selection, and NDCG to score their rankings.
package retrieve

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/search"
)

// Hit is one retrieved API, best first.
type Hit struct {
	// ID is the API's catalog ID, "tool.api".
	ID    string  `json:"id"`
	Score float64 `json:"score"`
}

// Retriever ranks the catalog's APIs for a free-text query.
type Retriever interface {
	// Name names the retriever in reports and on the wire.
	Name() string
	// Retrieve returns at most k APIs, best first, ties by ID; an API
	// the query does not match at all is not returned.
	Retrieve(query string, k int) []Hit
}

// Names of the built-in retrievers.
const (
	NameBM25         = "bm25"
	NameHierarchical = "hierarchical"
	NameDeliberate   = "deliberate"
)

// Names lists the built-in retrievers, in the order reports show them.
func Names() []string { return []string{NameBM25, NameHierarchical, NameDeliberate} }

// UnknownError names a retriever that does not exist.
type UnknownError struct{ Name string }

func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown retriever %q (known: %s)", e.Name, strings.Join(Names(), ", "))
}

// New builds a built-in retriever over a catalog by name.
func New(name string, c *toolset.Catalog) (Retriever, error) {
	return CatalogCorpus(c).New(name)
}

// Corpus is what retrievers rank: a catalog's APIs in catalog order
// (category, tool, documentation order), or a pool of them, with the
// BM25 index over exactly those APIs (so that term statistics are the
// pool's, as a retriever built over that pool would see them).
type Corpus struct {
	APIs  []*toolset.API
	Index *search.Index
}

// CatalogCorpus is every API of the catalog, with its own index.
func CatalogCorpus(c *toolset.Catalog) Corpus { return Corpus{APIs: c.APIs(), Index: search.Of(c)} }

// PoolCorpus is the catalog's APIs that keep accepts, in catalog order,
// indexed on their own.
func PoolCorpus(c *toolset.Catalog, keep func(*toolset.API) bool) Corpus {
	var apis []*toolset.API
	for _, a := range c.APIs() {
		if keep(a) {
			apis = append(apis, a)
		}
	}
	return Corpus{APIs: apis, Index: search.NewIndex(apis)}
}

// New builds a built-in retriever over the corpus by name.
func (co Corpus) New(name string) (Retriever, error) {
	switch name {
	case NameBM25, "":
		return &BM25{index: co.Index}, nil
	case NameHierarchical:
		return newHierarchical(co), nil
	case NameDeliberate:
		return &Deliberate{index: co.Index, PerNeed: 3, Keep: 0.5}, nil
	}
	return nil, &UnknownError{Name: name}
}

// BM25 is the flat baseline of ToolLLM's retrieval table: Okapi BM25 over
// every API's documentation (the catalog's own search index).
type BM25 struct{ index *search.Index }

var (
	_ Retriever = (*BM25)(nil)
	_ Retriever = (*Hierarchical)(nil)
	_ Retriever = (*Deliberate)(nil)
)

// NewBM25 searches the catalog's BM25 index.
func NewBM25(c *toolset.Catalog) *BM25 { return &BM25{index: search.Of(c)} }

// Name is "bm25".
func (*BM25) Name() string { return NameBM25 }

// Retrieve returns the k best APIs by BM25.
func (b *BM25) Retrieve(query string, k int) []Hit { return hits(b.index.Search(query, k)) }

func hits(hs []search.Hit) []Hit {
	out := make([]Hit, len(hs))
	for i, h := range hs {
		out[i] = Hit{ID: h.ID, Score: h.Score}
	}
	return out
}

// NDCG is the normalised discounted cumulative gain at k of a ranking
// against a set of relevant IDs, with binary relevance as in ToolLLM's
// retriever evaluation: DCG = Σ rel_i / log2(i+1) over the first k ranks,
// divided by the DCG of an ideal ranking (every relevant ID first). With
// no relevant IDs it is 0.
func NDCG(ranked []string, relevant []string, k int) float64 {
	rel := map[string]bool{}
	for _, r := range relevant {
		rel[r] = true
	}
	if len(rel) == 0 || k <= 0 {
		return 0
	}
	dcg := 0.0
	seen := map[string]bool{}
	for i, id := range ranked {
		if i >= k {
			break
		}
		if rel[id] && !seen[id] {
			dcg += 1 / math.Log2(float64(i+2))
		}
		seen[id] = true
	}
	idcg := 0.0
	for i := 0; i < min(len(rel), k); i++ {
		idcg += 1 / math.Log2(float64(i+2))
	}
	return dcg / idcg
}

// IDs lists the hits' IDs in order.
func IDs(hs []Hit) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.ID
	}
	return out
}

// sortHits orders hits best first, ties by ID, and keeps k.
func sortHits(hs []Hit, k int) []Hit {
	sort.Slice(hs, func(i, j int) bool {
		if hs[i].Score != hs[j].Score {
			return hs[i].Score > hs[j].Score
		}
		return hs[i].ID < hs[j].ID
	})
	if len(hs) > k {
		hs = hs[:k]
	}
	return hs
}
