// Package tbtest scripts models for ToolBench-suite tests: a sensible one that solves the shipped queries with their annotated calls, and degenerate ones that must score at the floor.
package tbtest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/toolset"
)

// Policy answers one chat request, as agenttest.NewPolicyServer takes it.
type Policy = func(agenttest.ChatRequest) (agenttest.Turn, error)

// query finds the request's query among qs by the user's first message.
func query(req agenttest.ChatRequest, qs []toolbench.Query) (*toolbench.Query, error) {
	for _, m := range req.Messages {
		if m.Role != agent.RoleUser {
			continue
		}
		for i := range qs {
			if qs[i].Text == m.Content {
				return &qs[i], nil
			}
		}
		return nil, fmt.Errorf("no query %q", m.Content)
	}
	return nil, fmt.Errorf("no user message")
}

// observations are the tool results of a request, oldest first.
func observations(req agenttest.ChatRequest) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == agent.RoleTool {
			out = append(out, m.Content)
		}
	}
	return out
}

// Finish is a turn calling Finish.
func Finish(returnType, answer string) agenttest.Turn {
	b, _ := json.Marshal(map[string]string{"return_type": returnType, "final_answer": answer})
	return agenttest.Tool(agent.FinishName, string(b))
}

// Solver makes each query's annotated calls in order, in ToolBench's
// function naming, then answers with what they returned: a few values
// of each response, as a model summarising its results would.
func Solver(c *toolset.Catalog, qs []toolbench.Query) Policy {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		q, err := query(req, qs)
		if err != nil {
			return agenttest.Turn{}, err
		}
		obs := observations(req)
		if n := len(obs); n < len(q.Calls) {
			call := q.Calls[n]
			a := c.API(call.Tool, call.API)
			if a == nil {
				for _, t := range c.Tools() {
					if t.Name == call.Tool {
						a = t.API(call.API)
					}
				}
			}
			if a == nil {
				return agenttest.Turn{}, fmt.Errorf("query %s: no API %s/%s", q.ID, call.Tool, call.API)
			}
			args, _ := json.Marshal(call.Arguments)
			return agenttest.Tool(toolset.ExportName(a, toolset.NameToolBench), string(args)), nil
		}
		var parts []string
		for _, o := range obs {
			var env struct {
				Response json.RawMessage `json:"response"`
			}
			if err := json.Unmarshal([]byte(o), &env); err != nil {
				return agenttest.Turn{}, err
			}
			vals := textmatch.ReadToolData(string(env.Response)).Values
			parts = append(parts, strings.Join(vals[:min(len(vals), 6)], ", "))
		}
		return Finish(solve.ReturnGiveAnswer, "Here is what I found: "+strings.Join(parts, "; ")+"."), nil
	}
}

// GiveUp gives up at once, every time.
func GiveUp(agenttest.ChatRequest) (agenttest.Turn, error) {
	return Finish(solve.ReturnGiveUp, "I cannot do this."), nil
}

// Echo finishes at once with the query as its answer.
func Echo(qs []toolbench.Query) Policy {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		q, err := query(req, qs)
		if err != nil {
			return agenttest.Turn{}, err
		}
		return Finish(solve.ReturnGiveAnswer, q.Text), nil
	}
}

// NoCalls answers in plain text without calling anything.
func NoCalls(agenttest.ChatRequest) (agenttest.Turn, error) {
	return agenttest.Text("The answer is 42, and the weather is sunny at 23 degrees."), nil
}

// CallsThenEcho makes the right calls but answers with the query echoed:
// it called everything and states nothing it found.
func CallsThenEcho(c *toolset.Catalog, qs []toolbench.Query) Policy {
	solver := Solver(c, qs)
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		t, err := solver(req)
		if err != nil || len(t.Calls) == 0 || t.Calls[0].Name != agent.FinishName {
			return t, err
		}
		q, _ := query(req, qs)
		return Finish(solve.ReturnGiveAnswer, q.Text), nil
	}
}
