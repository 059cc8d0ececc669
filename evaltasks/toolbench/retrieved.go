package toolbench

import (
	"context"
	"strings"

	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/retrieve"
)

// DefaultRetrieveK is how many retrieved APIs a solver is offered when a
// retriever is the API source (Self-Assist's k).
const DefaultRetrieveK = 5

// offerRetrieved replaces the query's api_list with what the run's
// retriever finds for its text. A retriever's model fault is the
// query's agent error: the solver does not run on a ranking nobody made.
func offerRetrieved(ctx context.Context, cfg Config, c *toolset.Catalog, q *Query, res *Result) ([]*toolset.API, bool) {
	k := cfg.RetrieveK
	if k <= 0 {
		k = DefaultRetrieveK
	}
	hs, err := retrieve.RetrieveWith(ctx, cfg.Retriever, q.Text, k)
	if err != nil {
		res.Outcome, res.Error, res.ErrorKind = OutcomeError, "retriever "+cfg.Retriever.Name()+": "+err.Error(), evaltasks.AgentErrorKind(err)
		return nil, false
	}
	var out []*toolset.API
	res.Offered = nil
	for _, h := range hs {
		if a := apiByID(c, h.ID); a != nil {
			out = append(out, a)
			res.Offered = append(res.Offered, h.ID)
		}
	}
	return out, true
}

// apiByID finds an API by its catalog ID, "<tool>.<api>" (a standardized
// tool name holds no '.'), nil when the catalog has none.
func apiByID(c *toolset.Catalog, id string) *toolset.API {
	tool, name, ok := strings.Cut(id, ".")
	if !ok {
		return nil
	}
	if a := c.API(tool, name); a != nil && a.ID() == id {
		return a
	}
	return nil
}
