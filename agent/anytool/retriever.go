package anytool

import (
	"context"
	"errors"
	"strings"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/retrieve"
)

// NameRetriever names AnyTool's search as a retriever.
const NameRetriever = "anytool"

// Retriever is AnyTool's hierarchical search alone, as a retriever: the
// pool the agents fill for a query before any solver runs, in the order
// they added it. It searches the whole catalog of its AnyTool.
type Retriever struct{ AnyTool *AnyTool }

var _ retrieve.ContextRetriever = Retriever{}

// Name is "anytool".
func (Retriever) Name() string { return NameRetriever }

// Retrieve is RetrieveContext without a deadline; a fault gives no hits.
func (r Retriever) Retrieve(query string, k int) []retrieve.Hit {
	hs, _ := r.RetrieveContext(context.Background(), query, k)
	return hs
}

// ModelFaultError is a search the model server failed.
type ModelFaultError struct{ Reason string }

func (e *ModelFaultError) Error() string { return "anytool: the search stopped on " + e.Reason }

// RetrieveContext searches and returns the pool, at most k (all for k <= 0).
func (r Retriever) RetrieveContext(ctx context.Context, query string, k int) ([]retrieve.Hit, error) {
	st, err := r.AnyTool.Search(ctx, query)
	if err != nil {
		return nil, err
	}
	var out []retrieve.Hit
	for i, id := range st.Pool {
		if k > 0 && i == k {
			break
		}
		out = append(out, retrieve.Hit{ID: id, Score: float64(len(st.Pool) - i)})
	}
	return out, nil
}

// Search runs the agents' first search for a query, without a solver.
func (t *AnyTool) Search(ctx context.Context, query string) (*Stats, error) {
	if t.Agent == nil || t.Catalog == nil {
		return nil, errors.New("anytool: needs an agent and a catalog")
	}
	t.init()
	s := &search{t: t, query: query, inPool: map[*toolset.API]bool{}, removed: map[*toolset.API]bool{},
		stats: &Stats{Functions: map[string]int{}, Pool: []string{}}}
	s.round = &Round{}
	s.round.Created.add(levelMeta)
	s.converse(ctx, []job{{a: s.newAgent(levelMeta, "", nil)}})
	s.round.Pool = len(s.pool)
	s.round.Solvable = s.solvable.Load()
	s.stats.Rounds = append(s.stats.Rounds, *s.round)
	st := s.finish()
	if err := ctx.Err(); err != nil {
		return st, err
	}
	if strings.HasPrefix(st.Stopped, "a model fault") {
		return st, &ModelFaultError{Reason: st.Stopped}
	}
	return st, nil
}
