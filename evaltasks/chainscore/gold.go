package chainscore

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// RunGold executes gold steps in a session of the engine, literal
// arguments plus values bound from earlier steps' responses, polling
// repeatable steps, and returns each step's last decoded response.
func RunGold(ctx context.Context, engine *sandbox.Engine, cat *toolset.Catalog, steps []dataset.GoldStep, session string) ([]any, error) {
	docs := make([]any, 0, len(steps))
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
			vals := deps.Values(docs[b.Step], b.Path)
			if len(vals) == 0 {
				return nil, fmt.Errorf("step %d: no value at %s in the response of step %d for %s", i+1, b.Path, b.Step, param)
			}
			args[param] = vals[0]
		}
		var doc any
		for calls := 1; ; calls++ {
			res, err := engine.CallAPI(ctx, api, args, session)
			if err != nil {
				return nil, fmt.Errorf("step %d (%s): %w", i+1, api.ID(), err)
			}
			if res.Status < 200 || res.Status >= 300 {
				return nil, fmt.Errorf("step %d (%s) %w", i+1, api.ID(), &AnswerError{Status: res.Status, Body: res.Response})
			}
			doc = nil
			_ = json.Unmarshal(res.Response, &doc)
			if !st.Repeat || deps.UntilHolds(doc, st.Until) || calls >= deps.MaxPolls {
				break
			}
		}
		docs = append(docs, doc)
	}
	return docs, nil
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
