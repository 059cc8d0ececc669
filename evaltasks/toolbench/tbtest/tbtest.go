// Package tbtest scripts models for ToolBench-suite tests: a sensible one that solves the shipped queries with their annotated calls, and degenerate ones that must score at the floor.
package tbtest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/deps"
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
			return agenttest.Tool(cmp.Or(FunctionName(req, c, q, a), toolset.ExportName(a, toolset.NameToolBench)), string(args)), nil
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

// Step is one call a scripted agent makes: a function as the request
// offers it and its arguments.
type Step struct {
	Function  string
	Arguments map[string]any
}

// Seen is a call the agent made and what it saw come back.
type Seen struct {
	Step
	// Error is the observation's error text; Response its response.
	Error    string
	Response json.RawMessage
}

// Caller picks the agent's next call for a query from what it has seen;
// nil when it has made every call it means to.
type Caller func(q *toolbench.Query, req agenttest.ChatRequest, seen []Seen) (*Step, error)

// Answerer writes the final answer from what the agent saw; "" gives up.
type Answerer func(q *toolbench.Query, seen []Seen) string

// Agent is a scripted agent for the ToolBench suite: it makes the calls
// call picks, one per turn, then finishes with answer's answer (giving up
// when that is empty).
func Agent(qs []toolbench.Query, call Caller, answer Answerer) Policy {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		q, err := query(req, qs)
		if err != nil {
			return agenttest.Turn{}, err
		}
		seen, err := seenCalls(req)
		if err != nil {
			return agenttest.Turn{}, err
		}
		step, err := call(q, req, seen)
		if err != nil {
			return agenttest.Turn{}, err
		}
		if step != nil {
			args, err := json.Marshal(step.Arguments)
			if err != nil {
				return agenttest.Turn{}, err
			}
			return agenttest.Tool(step.Function, string(args)), nil
		}
		if a := answer(q, seen); a != "" {
			return Finish(solve.ReturnGiveAnswer, a), nil
		}
		return Finish(solve.ReturnGiveUp, "I could not find anything worth reporting."), nil
	}
}

// seenCalls pairs the request's tool calls with their observations.
func seenCalls(req agenttest.ChatRequest) ([]Seen, error) {
	byID := map[string]Step{}
	var out []Seen
	for _, m := range req.Messages {
		for _, tc := range m.ToolCalls {
			var args map[string]any
			if err := json.Unmarshal([]byte(tc.Function.Arguments), &args); err != nil {
				return nil, err
			}
			byID[tc.ID] = Step{Function: tc.Function.Name, Arguments: args}
		}
		if m.Role != agent.RoleTool {
			continue
		}
		var env struct {
			Error    string          `json:"error"`
			Response json.RawMessage `json:"response"`
		}
		if err := json.Unmarshal([]byte(m.Content), &env); err != nil {
			return nil, fmt.Errorf("observation %q: %w", m.Content, err)
		}
		out = append(out, Seen{Step: byID[m.ToolCallID], Error: env.Error, Response: env.Response})
	}
	return out, nil
}

// TruthCall is a call that solves part of a generated query (tbgen's
// manifest): the values the query names, and the parameters that take a
// value found at a path of an earlier call's response (From: parameter →
// "<api>: <path>", the deps path syntax).
type TruthCall struct {
	Category, Tool, API string
	Arguments           map[string]any
	From                map[string]string
}

// TruthCalls makes each query's truth calls in order (truth by query
// key), taking bound values from the responses seen: the calls a careful
// agent makes. A call whose API the request does not offer is left out.
func TruthCalls(c *toolset.Catalog, truth map[string][]TruthCall) Caller {
	return func(q *toolbench.Query, req agenttest.ChatRequest, seen []Seen) (*Step, error) {
		var steps []TruthCall
		for _, tc := range truth[q.Key()] {
			if offered(req, c, q, tc) != "" {
				steps = append(steps, tc)
			}
		}
		if len(seen) >= len(steps) {
			return nil, nil
		}
		tc := steps[len(seen)]
		st := &Step{Function: offered(req, c, q, tc), Arguments: map[string]any{}}
		for k, v := range tc.Arguments {
			st.Arguments[k] = v
		}
		for param, from := range tc.From {
			api, path, _ := strings.Cut(from, ": ")
			for i, s := range seen {
				if i < len(steps) && steps[i].API == api && s.Error == "" {
					var doc any
					if json.Unmarshal(s.Response, &doc) == nil {
						if vs := deps.Values(doc, path); len(vs) > 0 {
							st.Arguments[param] = vs[0]
						}
					}
				}
			}
		}
		return st, nil
	}
}

// offered is the function name under which the request offers a truth
// call's API, "" when it does not.
func offered(req agenttest.ChatRequest, c *toolset.Catalog, q *toolbench.Query, tc TruthCall) string {
	a := c.ToolBenchAPI(tc.Category, tc.Tool, tc.API)
	if a == nil {
		return ""
	}
	return FunctionName(req, c, q, a)
}

// resolverKey keeps a catalog's resolver in Catalog.Derived.
type resolverKey struct{}

// resolver is the catalog's resolver, built once.
func resolver(c *toolset.Catalog) *toolbench.Resolver {
	return c.Derived(resolverKey{}, func() any { return toolbench.NewResolver(c) }).(*toolbench.Resolver)
}

// FunctionName is the name under which the request offers a, "" when it
// does not: the name ToolBench gives it among the query's own APIs
// (toolset.ToolBenchNames over what the query resolves to), else its
// ToolBench name or its catalog name, whichever the request offers.
func FunctionName(req agenttest.ChatRequest, c *toolset.Catalog, q *toolbench.Query, a *toolset.API) string {
	has := func(name string) bool {
		return slices.ContainsFunc(req.Tools, func(t toolset.OpenAITool) bool { return t.Function.Name == name })
	}
	if r, _ := resolver(c).Resolve(q); r != nil {
		for i, name := range toolset.ToolBenchNames(r.Offered) {
			if r.Offered[i] == a && has(name) {
				return name
			}
		}
	}
	for _, name := range []string{toolset.ToolBenchFunctionName(a), toolset.ExportName(a, toolset.NameToolBench)} {
		if has(name) {
			return name
		}
	}
	return ""
}

// AnnotatedCalls makes each query's annotated calls (x-calls) in order.
func AnnotatedCalls(c *toolset.Catalog) Caller {
	return func(q *toolbench.Query, req agenttest.ChatRequest, seen []Seen) (*Step, error) {
		if len(seen) >= len(q.Calls) {
			return nil, nil
		}
		call := q.Calls[len(seen)]
		api, err := toolbench.NewResolver(c).Find(toolbench.APIRef{Tool: call.Tool, API: call.API})
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", q.ID, err)
		}
		return &Step{Function: cmp.Or(FunctionName(req, c, q, api), toolset.ExportName(api, toolset.NameToolBench)), Arguments: maps.Clone(call.Arguments)}, nil
	}
}

// Inventing adds the agent's own values to every call another caller
// makes: each optional parameter the offered function documents, and the
// request does not fill, gets "test" (a plain string), 100 (a number
// without bounds) or true (a boolean), the values of the echoing agents
// the rule verdict once credited.
func Inventing(next Caller) Caller {
	return func(q *toolbench.Query, req agenttest.ChatRequest, seen []Seen) (*Step, error) {
		st, err := next(q, req, seen)
		if st == nil || err != nil {
			return st, err
		}
		for _, t := range req.Tools {
			if t.Function.Name != st.Function {
				continue
			}
			var schema struct {
				Properties map[string]map[string]any `json:"properties"`
				Required   []string                  `json:"required"`
			}
			b, _ := json.Marshal(t.Function.Parameters)
			if json.Unmarshal(b, &schema) != nil {
				continue
			}
			for name, p := range schema.Properties {
				if _, set := st.Arguments[name]; set || slices.Contains(schema.Required, name) {
					continue
				}
				if v, ok := invented(p); ok {
					st.Arguments[name] = v
				}
			}
		}
		return st, nil
	}
}

// invented is the agent's own value for a parameter schema, when the
// schema leaves room for one.
func invented(p map[string]any) (any, bool) {
	for _, k := range []string{"enum", "format", "pattern", "minimum", "maximum", "minLength", "maxLength", "exclusiveMinimum", "exclusiveMaximum"} {
		if _, ok := p[k]; ok {
			return nil, false
		}
	}
	switch p["type"] {
	case "string":
		return "test", true
	case "integer", "number":
		return 100, true
	case "boolean":
		return true, true
	}
	return nil, false
}

// QuoteFields answers with values the responses hold that are not the
// call's own arguments: what a model reading its results reports. It
// gives up when no response holds one, or a call failed.
func QuoteFields(q *toolbench.Query, seen []Seen) string {
	var parts []string
	for _, s := range seen {
		if s.Error != "" {
			return ""
		}
		var vals []string
		for _, v := range textmatch.ReadToolData(string(s.Response)).Values {
			if len(vals) == 4 || textmatch.IsStatusLiteral(v) || isArgument(s.Arguments, v) || strings.Contains(q.Text, v) {
				continue
			}
			if f, err := strconv.ParseFloat(v, 64); err == nil && f == float64(int64(f)) && f > -10 && f < 10 {
				continue
			}
			vals = append(vals, v)
		}
		if len(vals) > 0 {
			parts = append(parts, strings.Join(vals, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Here is what I found: " + strings.Join(parts, "; ") + "."
}

// QuoteEchoes answers with what the responses handed back of the agent's
// own arguments (those no earlier response gave it) and the status words
// they carry: "Here is what I found: test; success; true; 200".
func QuoteEchoes(_ *toolbench.Query, seen []Seen) string {
	var parts []string
	have := map[string]bool{}
	add := func(v string) {
		if !have[v] {
			have[v] = true
			parts = append(parts, v)
		}
	}
	var earlier []string // values of the responses seen so far
	own := func(arg any) bool {
		for _, v := range earlier {
			if isArgument(map[string]any{"": arg}, v) {
				return false
			}
		}
		return true
	}
	var mine []any
	for _, s := range seen {
		vals := textmatch.ReadToolData(string(s.Response)).Values
		for _, v := range vals {
			if textmatch.IsStatusLiteral(v) {
				add(v)
			}
		}
		for _, arg := range s.Arguments {
			if !own(arg) {
				continue
			}
			mine = append(mine, arg)
			for _, v := range vals {
				if isArgument(map[string]any{"": arg}, v) {
					add(v)
				}
			}
		}
		earlier = append(earlier, vals...)
	}
	if len(parts) == 0 {
		for _, arg := range mine {
			add(fmt.Sprint(arg))
		}
	}
	slices.Sort(parts)
	return "Here is what I found: " + strings.Join(append(parts, "success", "true", "200"), "; ") + "."
}

// StatusOnly answers every query "Request processed successfully.", as a
// model that made the calls and read nothing of their answers.
func StatusOnly(*toolbench.Query, []Seen) string { return "Request processed successfully." }

// QuoteEnvelope answers with the envelope fields around the responses'
// data (status, code, message, success, error and their spellings, at any
// depth of an object that also holds the payload under data, result,
// results, response or items) as "field: value": what a fake answer says
// around what it found.
func QuoteEnvelope(_ *toolbench.Query, seen []Seen) string {
	var parts []string
	have := map[string]bool{}
	add := func(key string, v any) {
		if p := fmt.Sprintf("%s: %v", key, v); !have[p] {
			have[p] = true
			parts = append(parts, p)
		}
	}
	var leaves func(v any, key string)
	leaves = func(v any, key string) {
		switch t := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(t)) {
				leaves(t[k], k)
			}
		case []any:
			for _, e := range t {
				leaves(e, key)
			}
		case nil:
		default:
			add(key, t)
		}
	}
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			wraps := false
			for k := range t {
				wraps = wraps || payloadField[strings.ToLower(k)]
			}
			for _, k := range slices.Sorted(maps.Keys(t)) {
				if wraps && envelopeField[strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(k))] {
					leaves(t[k], k)
				} else {
					walk(t[k])
				}
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	for _, s := range seen {
		var doc any
		if json.Unmarshal(s.Response, &doc) == nil {
			walk(doc)
		}
	}
	return "Done. " + strings.Join(append(parts, "status: success", "code: 200"), "; ") + "."
}

var (
	envelopeField = map[string]bool{"status": true, "code": true, "message": true, "msg": true, "success": true, "error": true, "errors": true, "statuscode": true}
	payloadField  = map[string]bool{"data": true, "result": true, "results": true, "response": true, "items": true}
)

// WrapQuery answers with the query's own words wrapped in status words:
// "Request processed successfully. Results found for: <query>".
func WrapQuery(q *toolbench.Query, _ []Seen) string {
	return "Request processed successfully. Results found for: " + q.Text
}

// isArgument tells whether v is one of the arguments' values.
func isArgument(args map[string]any, v string) bool {
	for _, a := range args {
		s := fmt.Sprint(a)
		if strings.EqualFold(strings.TrimSpace(s), strings.TrimSpace(v)) {
			return true
		}
		fa, ea := strconv.ParseFloat(s, 64)
		fv, ev := strconv.ParseFloat(v, 64)
		if ea == nil && ev == nil && fa == fv {
			return true
		}
	}
	return false
}
