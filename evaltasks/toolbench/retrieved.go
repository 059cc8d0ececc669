package toolbench

import (
	"context"

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
func offerRetrieved(ctx context.Context, cfg Config, tools map[string]toolset.OpenAITool, q *Query, res *Result) ([]toolset.OpenAITool, bool) {
	k := cfg.RetrieveK
	if k <= 0 {
		k = DefaultRetrieveK
	}
	hs, err := retrieve.RetrieveWith(ctx, cfg.Retriever, q.Text, k)
	if err != nil {
		res.Outcome, res.Error, res.ErrorKind = OutcomeError, "retriever "+cfg.Retriever.Name()+": "+err.Error(), evaltasks.AgentErrorKind(err)
		return nil, false
	}
	var out []toolset.OpenAITool
	res.Offered = nil
	for _, h := range hs {
		if f, ok := tools[h.ID]; ok {
			out = append(out, f)
			res.Offered = append(res.Offered, h.ID)
		}
	}
	return out, true
}
