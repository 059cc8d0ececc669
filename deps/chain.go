package deps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Binding says that a step's parameter takes the value at Path of the
// response of an earlier step.
type Binding struct {
	Step int    `json:"step"` // index into Chain.Steps
	Path string `json:"path"`
}

// Step is one call of a chain.
type Step struct {
	API      string             `json:"api"` // ID "tool.api"
	Bindings map[string]Binding `json:"bindings,omitempty"`
	// Repeat marks a polling step: call it again until Until holds.
	Repeat bool   `json:"repeat,omitempty"`
	Until  string `json:"until,omitempty"` // e.g. "data.context.status == complete"
}

// Chain is the minimal ordered list of calls that satisfies an API's
// dependencies; its last step is the API itself.
type Chain struct {
	Target string `json:"target"`
	Steps  []Step `json:"steps"`
}

// CycleError reports a dependency cycle met while building a chain.
type CycleError struct{ Path []string }

func (e *CycleError) Error() string {
	return "dependency cycle: " + strings.Join(e.Path, " → ")
}

// untilRE finds polling instructions in API descriptions: "until ...
// status is complete (data->context->status=complete)".
var untilRE = regexp.MustCompile(`(?i)until[^.]*?\(?([A-Za-z_][A-Za-z0-9_]*(?:(?:->|\.)[A-Za-z_][A-Za-z0-9_]*)+)\s*=\s*([A-Za-z0-9_]+)\)?`)

var pollingHint = regexp.MustCompile(`(?i)call (?:the|this) (?:api|endpoint) (?:multiple times|repeatedly|again)|must call .{0,20}(?:multiple times|repeatedly)|poll(?:ing)? (?:this|the) (?:api|endpoint)`)

// pollingCondition tells whether an API must be called repeatedly, and until what.
func pollingCondition(a *toolset.API) (string, bool) {
	// Only the API that asks to be called again is the polling step; the
	// search that tells you to go and poll another endpoint is not.
	d := a.Description
	if !pollingHint.MatchString(d) {
		return "", false
	}
	m := untilRE.FindStringSubmatch(d)
	if m == nil {
		return "", false
	}
	return strings.ReplaceAll(m[1], "->", ".") + " == " + m[2], true
}

// ChainFor computes the minimal chain for an API: every required parameter
// with dependencies is bound to the source whose own chain is shortest
// (ties: same tool first, then by ID), sources come before their
// dependents, and shared sources are called once. A polling API is marked
// as a repeatable step.
func (g *Graph) ChainFor(apiID string) (Chain, error) {
	if g.apis[apiID] == nil {
		return Chain{}, fmt.Errorf("unknown API %q", apiID)
	}
	memo := map[string][]string{}
	order, err := g.plan(apiID, nil, memo)
	if err != nil {
		return Chain{}, err
	}
	index := map[string]int{}
	ch := Chain{Target: apiID}
	for _, id := range order {
		st := Step{API: id}
		used := map[Binding]bool{}
		for _, e := range g.chosenEdges(id, memo) {
			if st.Bindings == nil {
				st.Bindings = map[string]Binding{}
			}
			b := Binding{Step: index[e.From], Path: e.Path}
			if used[b] {
				// Two parameters from the same place (fromId and toId from
				// auto-complete) need two calls of the source, not one value twice.
				src := ch.Steps[b.Step]
				src.Bindings = copyBindings(src.Bindings)
				b.Step = len(ch.Steps)
				ch.Steps = append(ch.Steps, src)
			}
			used[b] = true
			st.Bindings[e.Param] = b
		}
		index[id] = len(ch.Steps)
		if until, ok := pollingCondition(g.apis[id]); ok {
			st.Repeat, st.Until = true, until
		}
		ch.Steps = append(ch.Steps, st)
	}
	return ch, nil
}

func copyBindings(m map[string]Binding) map[string]Binding {
	if m == nil {
		return nil
	}
	out := make(map[string]Binding, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// plan returns the call order (sources first, target last) for an API.
func (g *Graph) plan(id string, stack []string, memo map[string][]string) ([]string, error) {
	if p, ok := memo[id]; ok {
		return p, nil
	}
	for i, s := range stack {
		if s == id {
			return nil, &CycleError{Path: append(append([]string(nil), stack[i:]...), id)}
		}
	}
	stack = append(stack, id)
	var order []string
	add := func(ids []string) {
		for _, x := range ids {
			if !contains(order, x) {
				order = append(order, x)
			}
		}
	}
	for _, param := range g.requiredDependentParams(id) {
		var best []string
		var bestFrom string
		var cycle error
		for _, e := range g.into[id] {
			if e.Param != param || e.From == id {
				continue
			}
			p, err := g.plan(e.From, stack, memo)
			if err != nil {
				var ce *CycleError
				if errors.As(err, &ce) {
					if cycle == nil {
						cycle = err
					}
					continue // another source may avoid the cycle
				}
				return nil, err
			}
			if best == nil || len(p) < len(best) || len(p) == len(best) && g.preferSource(id, e.From, bestFrom) {
				best, bestFrom = p, e.From
			}
		}
		if best == nil {
			if cycle != nil {
				return nil, cycle
			}
			return nil, &CycleError{Path: append(append([]string(nil), stack...), id)}
		}
		add(best)
	}
	add([]string{id})
	memo[id] = order
	return order, nil
}

// preferSource breaks ties between two sources of equal chain length.
func (g *Graph) preferSource(target, a, b string) bool {
	tool, _, _ := strings.Cut(target, ".")
	sameA, sameB := strings.HasPrefix(a, tool+"."), strings.HasPrefix(b, tool+".")
	if sameA != sameB {
		return sameA
	}
	return a < b
}

// requiredDependentParams lists the required parameters of an API that
// have dependencies, sorted. Optional parameters are never forced into a chain.
func (g *Graph) requiredDependentParams(id string) []string {
	a := g.apis[id]
	seen := map[string]bool{}
	var out []string
	for _, e := range g.into[id] {
		if p := a.Param(e.Param); p != nil && p.Required && !seen[e.Param] {
			seen[e.Param] = true
			out = append(out, e.Param)
		}
	}
	sort.Strings(out)
	return out
}

// chosenEdges returns, for each required dependent parameter of id, the
// edge from the source that plan chose (the source present in id's plan).
func (g *Graph) chosenEdges(id string, memo map[string][]string) []Edge {
	order := memo[id]
	var out []Edge
	for _, param := range g.requiredDependentParams(id) {
		var pick *Edge
		for i, e := range g.into[id] {
			if e.Param != param || !contains(order, e.From) {
				continue
			}
			if pick == nil || len(memo[e.From]) < len(memo[pick.From]) || len(memo[e.From]) == len(memo[pick.From]) && g.preferSource(id, e.From, pick.From) {
				pick = &g.into[id][i]
			}
		}
		if pick != nil {
			out = append(out, *pick)
		}
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Caller runs calls: the sandbox engine, in-process.
type Caller interface {
	Call(ctx context.Context, req sandbox.Request) (*sandbox.Result, error)
}

// StepResult is one executed step.
type StepResult struct {
	API       string          `json:"api"`
	Arguments map[string]any  `json:"arguments"`
	Status    int             `json:"status"`
	Response  json.RawMessage `json:"response"`
	Calls     int             `json:"calls"` // more than 1 for a polling step
}

// ExecError reports a chain step that failed.
type ExecError struct {
	Step int
	API  string
	Err  error
}

func (e *ExecError) Error() string { return fmt.Sprintf("step %d (%s): %v", e.Step+1, e.API, e.Err) }
func (e *ExecError) Unwrap() error { return e.Err }

// MaxPolls bounds the calls of one polling step.
const MaxPolls = 10

// Run executes a chain in one session. args gives the values of
// parameters that no binding fills (user-known values such as a city or a
// date) for step i; bound parameters take the first value at their path in
// the earlier step's response, but for an inferred binding whose path the
// documentation does not give, which takes the value args gives.
func (g *Graph) Run(ctx context.Context, c Caller, ch Chain, session string, args func(i int, api *toolset.API) map[string]any) ([]StepResult, error) {
	var out []StepResult
	var docs []any
	for i, st := range ch.Steps {
		api := g.apis[st.API]
		if api == nil {
			return out, &ExecError{Step: i, API: st.API, Err: errors.New("not in the catalog")}
		}
		a := map[string]any{}
		if args != nil {
			for k, v := range args(i, api) {
				a[k] = v
			}
		}
		for param, b := range st.Bindings {
			if b.Step >= i {
				return out, &ExecError{Step: i, API: st.API, Err: fmt.Errorf("binding of %s refers to a later step", param)}
			}
			if _, given := a[param]; given && b.Path == "" {
				// The documentation names the source but not where in
				// its answer the value is: the user's value stands.
				continue
			}
			vals := Values(docs[b.Step], b.Path)
			if len(vals) == 0 {
				return out, &ExecError{Step: i, API: st.API, Err: fmt.Errorf("no value at %s in the response of step %d (%s) for %s", b.Path, b.Step+1, ch.Steps[b.Step].API, param)}
			}
			a[param] = vals[0]
		}
		sr := StepResult{API: st.API, Arguments: a}
		var doc any
		for {
			res, err := c.Call(ctx, sandbox.Request{Tool: api.Tool.StandardizedName, API: api.Name, Arguments: a, Session: session})
			if err != nil {
				return out, &ExecError{Step: i, API: st.API, Err: err}
			}
			sr.Calls++
			sr.Status, sr.Response = res.Status, res.Response
			if res.Status >= 400 {
				return append(out, sr), &ExecError{Step: i, API: st.API, Err: fmt.Errorf("status %d: %s", res.Status, truncate(string(res.Response), 200))}
			}
			// Exact integers: a 64-bit ID handed to the next step stays itself.
			doc, _ = canon.Decode(res.Response)
			if !st.Repeat || UntilHolds(doc, st.Until) {
				break
			}
			if sr.Calls >= MaxPolls {
				return append(out, sr), &ExecError{Step: i, API: st.API, Err: fmt.Errorf("still not %s after %d calls", st.Until, MaxPolls)}
			}
		}
		docs = append(docs, doc)
		out = append(out, sr)
	}
	return out, nil
}

// UntilHolds tells whether a polling condition "path == value" holds in a
// decoded response (a condition without "==" always holds).
func UntilHolds(doc any, until string) bool {
	path, want, ok := strings.Cut(until, "==")
	if !ok {
		return true
	}
	path, want = strings.TrimSpace(path), strings.TrimSpace(want)
	for _, v := range Values(doc, path) {
		if k, ok := ScalarKey(v); ok && k == want {
			return true
		}
	}
	// The path may cross arrays the description does not mark.
	found := false
	leaves(doc, maxLeavesScanned, func(p string, v any) {
		if strings.ReplaceAll(p, "[]", "") == path {
			if k, ok := ScalarKey(v); ok && k == want {
				found = true
			}
		}
	})
	return found
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
