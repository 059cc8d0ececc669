package chainscore

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// GoldResult is one executed gold step: its API, the arguments it was
// called with (literal and bound), and its last response, as answered and
// decoded.
type GoldResult struct {
	API      *toolset.API
	Args     map[string]any
	Response []byte
	Doc      any
}

// RunGold executes gold steps in a session of the engine, literal
// arguments plus values bound from earlier steps' responses, polling
// repeatable steps, and returns each step's last decoded response.
func RunGold(ctx context.Context, engine *sandbox.Engine, cat *toolset.Catalog, steps []dataset.GoldStep, session string) ([]any, error) {
	calls, err := RunGoldCalls(ctx, engine, cat, steps, session)
	if err != nil {
		return nil, err
	}
	docs := make([]any, len(calls))
	for i, c := range calls {
		docs[i] = c.Doc
	}
	return docs, nil
}

// RunGoldCalls is RunGold, returning each step's call and response.
func RunGoldCalls(ctx context.Context, engine *sandbox.Engine, cat *toolset.Catalog, steps []dataset.GoldStep, session string) ([]GoldResult, error) {
	out := make([]GoldResult, 0, len(steps))
	for i, st := range steps {
		api := dataset.ResolveAPI(cat, st.API)
		if api == nil {
			return nil, fmt.Errorf("step %d: API %q is not in the catalog", i+1, st.API)
		}
		args := map[string]any{}
		for k, v := range st.Arguments {
			args[k] = v
		}
		for _, param := range slices.Sorted(maps.Keys(st.Bindings)) {
			b := st.Bindings[param]
			if b.Step < 0 || b.Step >= i {
				return nil, fmt.Errorf("step %d: binding of %s refers to step %d, not an earlier one", i+1, param, b.Step)
			}
			vals := deps.Values(out[b.Step].Doc, b.Path)
			if len(vals) == 0 {
				return nil, fmt.Errorf("step %d: no value at %s in the response of step %d for %s", i+1, b.Path, b.Step, param)
			}
			args[param] = vals[0]
		}
		call := GoldResult{API: api, Args: args}
		for calls := 1; ; calls++ {
			res, err := engine.CallAPI(ctx, api, args, session)
			if err != nil {
				return nil, fmt.Errorf("step %d (%s): %w", i+1, api.ID(), err)
			}
			if res.Status < 200 || res.Status >= 300 {
				return nil, fmt.Errorf("step %d (%s) %w", i+1, api.ID(), &AnswerError{Status: res.Status, Body: res.Response})
			}
			// Exact: an ID above 2^53 a later step binds keeps its digits.
			call.Response = res.Response
			call.Doc, _ = canon.Decode(res.Response)
			if !st.Repeat || deps.UntilHolds(call.Doc, st.Until) || calls >= deps.MaxPolls {
				break
			}
		}
		out = append(out, call)
	}
	return out, nil
}

// AnswerError reports a gold call the API answered with an error status:
// the record, not the agent, is at fault.
type AnswerError struct {
	Status int
	Body   []byte
}

// answerExcerpt bounds the response quoted in an AnswerError.
const answerExcerpt = 200

func (e *AnswerError) Error() string {
	body := string(e.Body)
	if len(body) > answerExcerpt {
		body = body[:answerExcerpt] + "…"
	}
	return fmt.Sprintf("answered %d: %s", e.Status, body)
}
