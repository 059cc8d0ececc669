package deps_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/recgen"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// TestBuiltinPairs checks the built-in toolset's dependency pairs: the 38
// annotated (the paper's 28 and more; toolset's TestBuiltinCatalog counts
// the same), every source with a documented example response.
func TestBuiltinPairs(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	g, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	require.Len(t, g.Pairs(), 38, "the graph has exactly the annotated pairs")
	for _, e := range g.Edges() {
		src := g.API(e.From)
		require.NotNil(t, src, e.From)
		require.NotEmpty(t, src.ExampleResponse, "%s has no example response", e.From)
	}
}

// TestInferenceRecoversBuiltinAnnotations strips every x-depends from the
// built-in toolset and infers the graph from documentation alone.
func TestInferenceRecoversBuiltinAnnotations(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	annotated, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	type edge struct{ from, to, param string }
	want := map[edge]bool{}
	for _, e := range annotated.Edges() {
		want[edge{e.From, e.To, e.Param}] = true
	}

	stripped, err := loader.Builtin()
	require.NoError(t, err)
	for _, a := range stripped.APIs() {
		for _, p := range a.Params {
			p.Depends = nil
		}
	}
	inferred, err := deps.Build(stripped, deps.Options{Infer: true})
	require.NoError(t, err)
	got := map[edge]bool{}
	for _, e := range inferred.Edges() {
		got[edge{e.From, e.To, e.Param}] = true
	}
	tp := 0
	for e := range got {
		if want[e] {
			tp++
		}
	}
	precision := float64(tp) / float64(len(got))
	recall := float64(tp) / float64(len(want))
	t.Logf("inference on the built-in toolset: %d annotated edges, %d inferred, %d correct: precision %.3f, recall %.3f", len(want), len(got), tp, precision, recall)
	for e := range want {
		if !got[e] {
			t.Logf("missed: %s.%s ← %s", e.to, e.param, e.from)
		}
	}
	for e := range got {
		if !want[e] {
			t.Logf("extra: %s.%s ← %s", e.to, e.param, e.from)
		}
	}
	require.GreaterOrEqual(t, precision, 0.9)
	require.GreaterOrEqual(t, recall, 0.9)
}

// alternates give a second call of the same API a different user value, so
// that a chain needing two places (fromId, toId) asks for two places.
var alternates = []string{"London", "Paris", "Tokyo"}

// TestEveryBuiltinChainExecutes computes the chain of every dependent
// built-in API and runs it end to end on the stand-ins, in one session with
// dependency enforcement on, taking user-known values from the documented
// examples: on the annotated graph, and on the graph with inferred edges
// too, every one of which says where in its source's answer the value is
// (currency_exchange.exchange's from and to, "see listquotes", had none).
func TestEveryBuiltinChainExecutes(t *testing.T) {
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	defer st.Close()
	for _, opts := range []deps.Options{{Annotations: true}, {Annotations: true, Infer: true}} {
		g, err := deps.Build(st.Catalog, opts)
		require.NoError(t, err)
		for _, e := range g.Edges() {
			ex, err := canon.Decode(g.API(e.From).ExampleResponse)
			require.NoError(t, err, e.From)
			require.NotEmpty(t, deps.Values(ex, e.Path), "%s.%s ← %s: no value at %q in the source's example", e.To, e.Param, e.From, e.Path)
		}
		runEveryChain(t, st, g, opts.Infer)
	}
}

func runEveryChain(t *testing.T, st *assemble.Stack, g *deps.Graph, inferred bool) {
	dependent := g.Dependent()
	require.NotEmpty(t, dependent)
	for _, id := range dependent {
		t.Run(fmt.Sprintf("inferred=%v/%s", inferred, id), func(t *testing.T) {
			ch, err := g.ChainFor(id)
			require.NoError(t, err)
			require.Equal(t, id, ch.Steps[len(ch.Steps)-1].API)
			seen := map[string]int{}
			args := func(i int, a *toolset.API) map[string]any {
				out := map[string]any{}
				n := seen[a.ID()]
				seen[a.ID()]++
				for _, p := range a.Params {
					if !p.Required || p.Default == nil || ch.Steps[i].Bindings[p.Name] != (deps.Binding{}) {
						continue
					}
					out[p.Name] = p.Default
					if _, isString := p.Default.(string); isString && n > 0 && p.Kind == toolset.KindString && len(p.Enum) == 0 && p.Format == "" {
						out[p.Name] = alternates[(n-1)%len(alternates)]
					}
				}
				return out
			}
			session := fmt.Sprintf("chain-%v-%s", inferred, id)
			steps, err := g.Run(context.Background(), st.Engine, ch, session, args)
			require.NoError(t, err)
			require.Len(t, steps, len(ch.Steps))
			trace, ok := st.Engine.Session(session)
			require.True(t, ok)
			require.Zero(t, trace.Violations, "a computed chain must satisfy provenance: %+v", trace.Calls)
		})
	}
}

// TestAnIDIsValidWhereverItsEntityIsExpected: locations_search lists
// Lisbon's attractions with their location_ids, so reviews_list takes one
// of them straight away, as the real API does (issue: "location_id=195283
// was emitted by call #2 (travel_advisor.locations_search), which is not
// where location_id comes from"); an ID no answer carried is still refused.
func TestAnIDIsValidWhereverItsEntityIsExpected(t *testing.T) {
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	defer st.Close()
	ctx := context.Background()
	call := func(api string, args map[string]any) *sandbox.Result {
		t.Helper()
		res, err := st.Engine.Call(ctx, sandbox.Request{Tool: "travel_advisor", API: api, Arguments: args, Session: "lisbon"})
		require.NoError(t, err)
		return res
	}
	res := call("locations_search", map[string]any{"query": "Lisbon"})
	require.Equal(t, 200, res.Status)
	require.Contains(t, string(res.Response), `"195283"`, "Belém Tower is among the results")

	for _, api := range []string{"reviews_list", "photos_list", "attractions_get_details"} {
		res = call(api, map[string]any{"location_id": "195283"})
		require.Equal(t, 200, res.Status, "%s: %s", api, res.Response)
		require.Empty(t, res.Violations)
	}
	tr, ok := st.Engine.Session("lisbon")
	require.True(t, ok)
	require.Equal(t, map[string]int{"location_id": 1}, tr.Calls[1].Provided, "provided by locations_search")

	res = call("reviews_list", map[string]any{"location_id": "999999123"})
	require.Equal(t, 404, res.Status)
	require.JSONEq(t, `{"errors":[{"code":"404","message":"Unknown location_id 999999123"}]}`, string(res.Response))
	require.Len(t, res.Violations, 1)
	require.Equal(t, "fabricated", res.Violations[0].Kind)
	require.Equal(t, []string{"travel_advisor.attractions_list", "travel_advisor.attractions_get_details", "travel_advisor.locations_search", "travel_advisor.reviews_list"}, res.Violations[0].Sources)
}

// TestRefusalsReadLikeTheRealAPI: for every opaque dependent parameter of
// the built-in tools, a value the session never saw is refused with the
// answer the stand-in itself gives for an unknown ID (the same status and
// shape of body), naming no other API; the detail goes to the trace and
// the violations only, and -explain adds it to the body under
// deps.HintField.
func TestRefusalsReadLikeTheRealAPI(t *testing.T) {
	enforced, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	defer enforced.Close()
	explained, err := assemble.Build(assemble.Config{Explain: true})
	require.NoError(t, err)
	defer explained.Close()
	off, err := assemble.Build(assemble.Config{DepsPolicy: deps.Off})
	require.NoError(t, err)
	defer off.Close()
	examples, err := recgen.Examples(enforced.Catalog)
	require.NoError(t, err)
	documented := map[string]map[string]any{}
	for _, ex := range examples {
		if id := ex.Tool + "." + ex.API; documented[id] == nil {
			documented[id] = ex.Arguments
		}
	}
	var names []string // every API's name, as an answer could spell it
	for _, a := range enforced.Catalog.APIs() {
		names = append(names, a.Name, strings.ReplaceAll(a.Name, "_", "-"), strings.ReplaceAll(a.Name, "_", "/"))
	}
	ctx := context.Background()
	tested := map[string]bool{}
	for _, e := range enforced.Graph.Edges() {
		api := enforced.Graph.API(e.To)
		if !e.Opaque || api.Param(e.Param) == nil || !api.Param(e.Param).Opaque || tested[e.To+"."+e.Param] {
			continue
		}
		tested[e.To+"."+e.Param] = true
		t.Run(e.To+"."+e.Param, func(t *testing.T) {
			args := maps.Clone(documented[e.To])
			args[e.Param] = "999999123"
			session := "refusal-" + e.To + "-" + e.Param
			got, err := enforced.Engine.CallAPI(ctx, api, args, session)
			require.NoError(t, err)
			want, err := off.Engine.CallAPI(ctx, off.Catalog.API(api.Tool.StandardizedName, api.Name), args, session)
			require.NoError(t, err)
			require.GreaterOrEqual(t, want.Status, 400, "the stand-in refuses an unknown ID: %s", want.Response)
			require.Equal(t, want.Status, got.Status, "%s", got.Response)
			require.Equal(t, shape(t, want.Response), shape(t, got.Response), "want %s\ngot  %s", want.Response, got.Response)
			for _, n := range names {
				if n != api.Name && len(n) > 4 {
					require.NotContains(t, string(got.Response), n, "the refusal names another API")
				}
			}
			require.NotContains(t, string(got.Response), "call #")
			require.Equal(t, "sandbox", got.Source)
			require.NotEmpty(t, got.Violations)
			tr, ok := enforced.Engine.Session(session)
			require.True(t, ok)
			require.True(t, tr.Calls[0].Rejected)
			var messages []string
			for _, v := range tr.Calls[0].Violations {
				messages = append(messages, v.Message)
			}
			require.Contains(t, strings.Join(messages, "\n"), e.Param+"=999999123", "the trace says what was wrong")

			hinted, err := explained.Engine.CallAPI(ctx, explained.Catalog.API(api.Tool.StandardizedName, api.Name), args, session)
			require.NoError(t, err)
			require.Equal(t, got.Status, hinted.Status)
			var body map[string]any
			require.NoError(t, json.Unmarshal(hinted.Response, &body))
			require.Contains(t, body[deps.HintField], e.Param+"=999999123")
			delete(body, deps.HintField)
			require.Equal(t, shape(t, got.Response), shapeOf(body))
		})
	}
	require.Len(t, tested, 22, "every opaque dependent parameter of the built-in tools")
}

// shape is a JSON document with every string, number and boolean
// replaced by its type: what two answers of one API share.
func shape(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	return shapeOf(v)
}

func shapeOf(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = shapeOf(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = shapeOf(e)
		}
		return out
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	}
	return v
}

// TestRunWithAnUnknownPath: demo_weather's station_id is "as returned by
// `current`", whose answers hold no station: the inferred edge has no
// path, the dependency check still looks for the value in current's
// answers, and a chain runs with the station the user gives (it failed
// with "no value at \"\"") or says what it lacks.
func TestRunWithAnUnknownPath(t *testing.T) {
	cat, err := loader.Load([]string{"../sandbox/testdata/tools"}, true)
	require.NoError(t, err)
	st, err := assemble.Build(assemble.Config{Catalog: cat})
	require.NoError(t, err)
	defer st.Close()
	ch, err := st.Graph.ChainFor("demo_weather.station")
	require.NoError(t, err)
	require.Len(t, ch.Steps, 2)
	require.Equal(t, deps.Binding{Step: 0, Path: ""}, ch.Steps[1].Bindings["station_id"])

	steps, err := st.Graph.Run(context.Background(), st.Engine, ch, "unknown-path", func(_ int, a *toolset.API) map[string]any {
		if a.Name == "station" {
			return map[string]any{"station_id": "ST-1"}
		}
		return map[string]any{"city": "Lisbon"}
	})
	require.NoError(t, err)
	require.Len(t, steps, 2)
	require.Equal(t, "ST-1", steps[1].Arguments["station_id"])

	_, err = st.Graph.Run(context.Background(), st.Engine, ch, "unknown-path-2", func(int, *toolset.API) map[string]any {
		return map[string]any{"city": "Lisbon"}
	})
	var ee *deps.ExecError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 1, ee.Step)
	require.ErrorContains(t, err, "station_id")
}
