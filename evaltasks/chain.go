package evaltasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// DefaultCallBudget bounds the calls an agent may execute in one Task-7 instance.
const DefaultCallBudget = 12

// ExecutedCall is one call an agent made in Task 7, as the sandbox answered it.
type ExecutedCall struct {
	Name      string          `json:"name"`
	API       string          `json:"api,omitempty"` // "tool.api" when the name resolved
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Status    int             `json:"status"`
	Error     string          `json:"error,omitempty"`
}

func (c ExecutedCall) ok() bool { return c.Status >= 200 && c.Status < 300 }

// session is the sandbox session of an instance, fresh for every instance.
func (ev *evaluator) session(inst Instance) string { return "evalrun/" + inst.Key() }

// runChain is Task 7: the agent's calls are executed in the sandbox, step
// by step, their results fed back as tool messages, until the agent
// answers in text, its output cannot be parsed, or the call budget is spent.
func (ev *evaluator) runChain(ctx context.Context, a agent.Agent, inst Instance, v view, res *Result) error {
	msgs := append([]agent.Message(nil), v.messages...)
	offered := map[string]bool{}
	for _, id := range v.offered {
		offered[id] = true
	}
	var calls []ExecutedCall
	res.Outcome = ""
loop:
	for turn := 0; turn <= ev.budget; turn++ {
		r, err := a.Respond(ctx, msgs, v.tools)
		if err != nil {
			res.Messages = msgs
			return err
		}
		res.addUsage(r.Usage)
		msgs = append(msgs, agent.Message{Role: agent.RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls})
		rr := r
		res.Reply = &rr
		if r.ParseError != "" {
			res.Detail = r.ParseError
			res.ParseErrors++
			break
		}
		if len(r.ToolCalls) == 0 {
			break
		}
		for i, tc := range r.ToolCalls {
			if len(calls) >= ev.budget {
				res.Detail = fmt.Sprintf("call budget of %d spent", ev.budget)
				break loop
			}
			if tc.ID == "" {
				tc.ID = "call_" + strconv.Itoa(turn+1) + "_" + strconv.Itoa(i+1)
				msgs[len(msgs)-1].ToolCalls[i].ID = tc.ID
			}
			c, content := ev.execute(ctx, inst, offered, tc)
			if ctx.Err() != nil {
				res.Messages = msgs
				return ctx.Err()
			}
			if tc.ArgumentsError != "" {
				res.ParseErrors++
			}
			calls = append(calls, c)
			msgs = append(msgs, agent.Message{Role: agent.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Content: content})
		}
	}
	res.Messages = msgs
	res.Calls = calls
	matched := chainProgress(ev.cat, inst.In.Chain, calls)
	res.Matched = matched
	res.Score = float64(matched) / float64(len(inst.In.Chain))
	switch {
	case matched == len(inst.In.Chain):
		res.Outcome, res.Pass = OutcomeComplete, true
	case matched > 0:
		res.Outcome = OutcomePartial
	case res.ParseErrors > 0:
		res.Outcome = OutcomeParseError
	default:
		res.Outcome = OutcomeNoProgress
	}
	return nil
}

// execute runs one call through the engine and returns what the agent
// reads back: the response, or an error the way an API reports one.
func (ev *evaluator) execute(ctx context.Context, inst Instance, offered map[string]bool, tc agent.ToolCall) (ExecutedCall, string) {
	c := ExecutedCall{Name: tc.Name, Arguments: tc.Arguments}
	fail := func(status int, msg string) (ExecutedCall, string) {
		c.Status, c.Error = status, msg
		b, _ := json.Marshal(map[string]string{"error": msg})
		return c, string(b)
	}
	api := ev.cat.APIByExportName(tc.Name)
	if api == nil || !offered[api.ID()] {
		return fail(http.StatusNotFound, fmt.Sprintf("no function named %q is available", tc.Name))
	}
	c.API = api.ID()
	args, err := decodeArguments(tc)
	if err != nil {
		return fail(http.StatusBadRequest, err.Error())
	}
	out, err := ev.engine.Call(ctx, sandbox.Request{Tool: api.Tool.StandardizedName, API: api.Name, Arguments: plainJSON(args), Session: ev.session(inst)})
	if err != nil {
		status := http.StatusBadRequest
		var nf *sandbox.NotFoundError
		var rl *sandbox.RateLimitError
		var ve *toolset.ValidationError
		switch {
		case errors.As(err, &nf):
			status = http.StatusNotFound
		case errors.As(err, &rl):
			status = http.StatusTooManyRequests
		case errors.As(err, &ve):
			status = http.StatusBadRequest
		default:
			status = http.StatusBadGateway
		}
		return fail(status, err.Error())
	}
	c.Status = out.Status
	if !c.ok() {
		c.Error = truncate(string(out.Response), 300)
	}
	return c, string(out.Response)
}

// plainJSON turns json.Number values into float64, the form the engine's
// validation expects from decoded JSON.
func plainJSON(v map[string]any) map[string]any {
	out := make(map[string]any, len(v))
	for k, x := range v {
		out[k] = plainValue(x)
	}
	return out
}

func plainValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	case map[string]any:
		return plainJSON(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainValue(e)
		}
		return out
	}
	return v
}

// chainProgress is the length of the longest prefix of the gold chain
// matched, in order, by successful calls: other calls in between are
// ignored, and repeated calls of one API (polling) match one step.
func chainProgress(cat *toolset.Catalog, chain []GoldStep, calls []ExecutedCall) int {
	want := make([]string, len(chain))
	for i, st := range chain {
		if a := ResolveAPI(cat, st.API); a != nil {
			want[i] = a.ID()
		} else {
			want[i] = st.API
		}
	}
	j := 0
	for _, c := range calls {
		if j < len(want) && c.ok() && c.API == want[j] {
			j++
		}
	}
	return j
}

// runSteps executes gold steps in a session: literal arguments plus values
// bound from earlier steps' responses, polling repeatable steps.
func (ev *evaluator) runSteps(ctx context.Context, steps []GoldStep, session string) error {
	docs := make([]any, 0, len(steps))
	for i, st := range steps {
		api := ResolveAPI(ev.cat, st.API)
		if api == nil {
			return fmt.Errorf("step %d: API %q is not in the catalog", i+1, st.API)
		}
		args := map[string]any{}
		for k, v := range st.Arguments {
			args[k] = v
		}
		for _, param := range sortedKeys(st.Bindings) {
			b := st.Bindings[param]
			if b.Step < 0 || b.Step >= i {
				return fmt.Errorf("step %d: binding of %s refers to step %d, not an earlier one", i+1, param, b.Step)
			}
			vals := deps.Values(docs[b.Step], b.Path)
			if len(vals) == 0 {
				return fmt.Errorf("step %d: no value at %s in the response of step %d for %s", i+1, b.Path, b.Step, param)
			}
			args[param] = vals[0]
		}
		var doc any
		for calls := 1; ; calls++ {
			res, err := ev.engine.Call(ctx, sandbox.Request{Tool: api.Tool.StandardizedName, API: api.Name, Arguments: args, Session: session})
			if err != nil {
				return fmt.Errorf("step %d (%s): %w", i+1, api.ID(), err)
			}
			if res.Status < 200 || res.Status >= 300 {
				return fmt.Errorf("step %d (%s) answered %d: %s", i+1, api.ID(), res.Status, truncate(string(res.Response), 200))
			}
			doc = nil
			_ = json.Unmarshal(res.Response, &doc)
			if !st.Repeat || deps.UntilHolds(doc, st.Until) || calls >= deps.MaxPolls {
				break
			}
		}
		docs = append(docs, doc)
	}
	return nil
}
