package coherence

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// stack is the sandbox every test here calls, built once the way every
// command builds it: built-in catalog, stand-ins, dependency graph with
// provenance enforced, fake mode, the frozen clock.
var stack = sync.OnceValues(func() (*assemble.Stack, error) {
	return assemble.Build(assemble.Config{Mode: sandbox.ModeFake})
})

// harness calls APIs through the engine for one test.
type harness struct {
	t     testing.TB
	st    *assemble.Stack
	world *world.World
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	st, err := stack()
	require.NoError(t, err)
	return &harness{t: t, st: st, world: st.Mocker.World()}
}

// answer is the outcome of one call: the API's status and its body.
type answer struct {
	API    string
	Args   map[string]any
	Status int
	Raw    []byte
	Doc    any // decoded with exact integers
}

func (a answer) ok() bool { return a.Status >= 200 && a.Status < 300 }

func (a answer) String() string {
	args, _ := canon.JSON(a.Args)
	body := string(a.Raw)
	if len(body) > 400 {
		body = body[:400] + "…"
	}
	return fmt.Sprintf("%s%s → %d %s", a.API, args, a.Status, body)
}

// api is the catalog's API of an ID ("tool.api").
func (h *harness) api(id string) *toolset.API {
	h.t.Helper()
	a := h.st.Graph.API(id)
	require.NotNil(h.t, a, "no API %s", id)
	return a
}

// call makes one call in a session. A refusal of the API is an answer; an
// error of the engine (invalid arguments, a defect) fails the test.
func (h *harness) call(session, id string, args map[string]any) answer {
	h.t.Helper()
	a := h.api(id)
	res, err := h.st.Engine.Call(context.Background(), sandbox.Request{Tool: a.Tool.StandardizedName, API: a.Name, Arguments: args, Session: session})
	require.NoError(h.t, err, "%s(%v)", id, args)
	doc, err := canon.Decode(res.Response)
	require.NoError(h.t, err, id)
	return answer{API: id, Args: args, Status: res.Status, Raw: res.Response, Doc: doc}
}

// ok is call for a call that must succeed.
func (h *harness) ok(session, id string, args map[string]any) answer {
	h.t.Helper()
	a := h.call(session, id, args)
	require.True(h.t, a.ok(), "%s", a)
	return a
}

// userArgs are the values a user would give each API of a chain, beyond
// its documented examples of required parameters: the n-th call of an
// API in one chain takes the n-th entry (the last one repeats). Two
// auto-completes feeding one search name two different places.
var userArgs = map[string][]map[string]any{
	"skyscanner80.flights_auto_complete": {{"query": "New York"}, {"query": "London"}},
}

// documented is the call an API's documentation suggests: the examples
// given as its required parameters' defaults.
func documented(a *toolset.API) map[string]any {
	out := map[string]any{}
	for _, p := range a.Params {
		if p.Required && p.Default != nil {
			out[p.Name] = p.Default
		}
	}
	return out
}

// prepared is an API's call ready to make in a session whose earlier calls
// minted what it needs.
type prepared struct {
	Args  map[string]any
	Steps []answer // the calls of the chain before it
}

// prepare makes, in session, the calls of id's dependency chain that come
// before it (the graph's chain, with each step's documented and user
// values, polling steps until they hold) and returns id's own arguments:
// its documented values with the chain's bindings.
func (h *harness) prepare(session, id string) prepared {
	h.t.Helper()
	ch, err := h.st.Graph.ChainFor(id)
	require.NoError(h.t, err)
	var out prepared
	seen := map[string]int{}
	docs := make([]any, 0, len(ch.Steps))
	for i, st := range ch.Steps {
		args := documented(h.api(st.API))
		if u := userArgs[st.API]; len(u) > 0 {
			maps.Copy(args, u[min(seen[st.API], len(u)-1)])
		}
		seen[st.API]++
		for param, b := range st.Bindings {
			if b.Path == "" {
				// An inferred "see listquotes" reference: the source lists
				// the values, the user picks one (the documented example).
				continue
			}
			vals := deps.Values(docs[b.Step], b.Path)
			require.NotEmpty(h.t, vals, "chain of %s: nothing at %s of step %d (%s)", id, b.Path, b.Step, ch.Steps[b.Step].API)
			args[param] = vals[0]
		}
		if i == len(ch.Steps)-1 {
			out.Args = args
			break
		}
		var a answer
		for n := 0; n < deps.MaxPolls; n++ {
			a = h.ok(session, st.API, args)
			if !st.Repeat || deps.UntilHolds(a.Doc, st.Until) {
				break
			}
		}
		docs = append(docs, a.Doc)
		out.Steps = append(out.Steps, a)
	}
	return out
}

// values is deps.Values, with "" the answer itself (a bare number).
func values(doc any, path string) []any {
	if path == "" {
		return []any{doc}
	}
	return deps.Values(doc, path)
}

// first is the first value at path, failing the test when there is none.
func first(t testing.TB, doc any, path string) any {
	t.Helper()
	v := values(doc, path)
	require.NotEmpty(t, v, "nothing at %s", path)
	return v[0]
}

// str is a scalar as text.
func str(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if k, ok := deps.ScalarKey(v); ok {
		return k
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// num is a JSON number (or numeric string) as a float64.
func num(t testing.TB, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return x
	case json.Number:
		f, err := x.Float64()
		require.NoError(t, err)
		return f
	case string:
		var f float64
		_, err := fmt.Sscan(x, &f)
		require.NoError(t, err, "%q is not a number", x)
		return f
	}
	require.Failf(t, "not a number", "%T %v", v, v)
	return 0
}

// canonical is v's canonical JSON, to compare items.
func canonical(v any) string {
	b, err := canon.JSON(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
