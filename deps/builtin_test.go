package deps_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
)

// TestBuiltinPairs checks the built-in toolset's dependency pairs: the 38
// annotated (the paper's 28 and more; toolset's TestBuiltinCatalog counts
// the same), every source with a documented example response.
func TestBuiltinPairs(t *testing.T) {
	c, err := toolset.Builtin()
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
	c, err := toolset.Builtin()
	require.NoError(t, err)
	annotated, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	type edge struct{ from, to, param string }
	want := map[edge]bool{}
	for _, e := range annotated.Edges() {
		want[edge{e.From, e.To, e.Param}] = true
	}

	stripped, err := toolset.Builtin()
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
// examples.
func TestEveryBuiltinChainExecutes(t *testing.T) {
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	defer st.Close()
	g, err := deps.Build(st.Catalog, deps.Options{Annotations: true})
	require.NoError(t, err)
	dependent := g.Dependent()
	require.NotEmpty(t, dependent)
	for _, id := range dependent {
		t.Run(id, func(t *testing.T) {
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
			steps, err := g.Run(context.Background(), st.Engine, ch, fmt.Sprintf("chain-%s", id), args)
			require.NoError(t, err)
			require.Len(t, steps, len(ch.Steps))
			trace, ok := st.Engine.Session(fmt.Sprintf("chain-%s", id))
			require.True(t, ok)
			require.Zero(t, trace.Violations, "a computed chain must satisfy provenance: %+v", trace.Calls)
		})
	}
}
