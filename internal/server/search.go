package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/retrieve"
)

// Bounds of GET /v1/search's k.
const (
	defaultSearchK = 5
	maxSearchK     = 100
)

// SearchResult is the answer of GET /v1/search.
type SearchResult struct {
	Query     string      `json:"query"`
	Retriever string      `json:"retriever"`
	K         int         `json:"k"`
	Hits      []SearchHit `json:"hits"`
}

// SearchHit is one API found, with what a client needs to call it.
type SearchHit struct {
	ID       string  `json:"id"` // "tool.api"
	Category string  `json:"category"`
	Tool     string  `json:"tool"`
	API      string  `json:"api"`
	Function string  `json:"function"` // ToolBench's "<api>_for_<tool>"
	Score    float64 `json:"score"`
	// Description is the API's, cut to 300 bytes.
	Description string `json:"description,omitempty"`
}

// Search runs a retriever over the catalog and describes its hits.
func Search(c *toolset.Catalog, retriever, query string, k int) (*SearchResult, error) {
	r, err := retrieverFor(c, retriever)
	if err != nil {
		return nil, err
	}
	out := &SearchResult{Query: query, Retriever: r.Name(), K: k, Hits: []SearchHit{}}
	for _, h := range r.Retrieve(query, k) {
		hit := SearchHit{ID: h.ID, Score: h.Score}
		tool, api, _ := strings.Cut(h.ID, ".")
		if a := c.API(tool, api); a != nil {
			hit.Category, hit.Tool, hit.API, hit.Function = a.Tool.Category, a.Tool.Name, a.Name, a.FunctionName()
			hit.Description = prefix(a.Description, 300)
		}
		out.Hits = append(out.Hits, hit)
	}
	return out, nil
}

// retrievers caches each catalog's retrievers: the hierarchical one
// indexes categories and tools once.
var retrievers sync.Map // retrieverKey → retrieve.Retriever

type retrieverKey struct {
	c    *toolset.Catalog
	name string
}

func retrieverFor(c *toolset.Catalog, name string) (retrieve.Retriever, error) {
	if name == "" {
		name = retrieve.NameBM25
	}
	key := retrieverKey{c, name}
	if r, ok := retrievers.Load(key); ok {
		return r.(retrieve.Retriever), nil
	}
	r, err := retrieve.New(name, c)
	if err != nil {
		return nil, err
	}
	got, _ := retrievers.LoadOrStore(key, r)
	return got.(retrieve.Retriever), nil
}

// search serves GET /v1/search?q=...&k=...&retriever=bm25|hierarchical|deliberate:
// the k APIs (default 5, at most 100) that best match the query, best first.
func (s *Server) search(r *http.Request) (any, error) {
	q := r.URL.Query()
	query := strings.TrimSpace(q.Get("q"))
	if query == "" {
		return nil, newProblem(http.StatusBadRequest, "bad-search", "No query", "q is required: GET /v1/search?q=weather+forecast&k=5")
	}
	k := defaultSearchK
	if v := q.Get("k"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxSearchK {
			return nil, newProblem(http.StatusBadRequest, "bad-search", "Bad k", fmt.Sprintf("k %q: want a whole number from 1 to %d", prefix(v, 32), maxSearchK))
		}
		k = n
	}
	res, err := Search(s.engine.Catalog(), q.Get("retriever"), query, k)
	if err != nil {
		return nil, newProblem(http.StatusBadRequest, "bad-search", "Unknown retriever", err.Error())
	}
	return res, nil
}
