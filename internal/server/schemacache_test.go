package server_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// schemaTree serves a generated ToolBench tree with the given bound on
// the catalog's per-API cache (validators, response schemas, plans).
func schemaTree(tb testing.TB, dir string, bound int64) (*server.Server, *toolset.Catalog) {
	return treeServer(tb, dir, server.Options{SchemaCacheBytes: bound})
}

// treeServer builds a server over a generated ToolBench tree in dir, with
// the built-in tools left out.
func treeServer(tb testing.TB, dir string, opts server.Options) (*server.Server, *toolset.Catalog) {
	tb.Helper()
	cat, err := loader.Load([]string{dir}, false)
	require.NoError(tb, err)
	st, err := assemble.Build(assemble.Config{Catalog: cat})
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = st.Close() })
	h, err := server.New(st.Engine, opts)
	require.NoError(tb, err)
	return h, cat
}

// callBodies are /v1/call bodies for an API: one valid, and ones each
// validation refuses differently (wrong types, nothing given, strict).
func callBodies(tb testing.TB, a *toolset.API) map[string]string {
	tb.Helper()
	good, bad := map[string]any{}, map[string]any{"zz_not_documented": 1}
	for _, p := range a.Params {
		switch p.Kind {
		case toolset.KindNumber, toolset.KindInteger:
			good[p.Name], bad[p.Name] = 5, "five"
		case toolset.KindBoolean:
			good[p.Name], bad[p.Name] = true, "maybe"
		case toolset.KindArray, toolset.KindObject:
			bad[p.Name] = 7
		default:
			if len(p.Enum) > 0 {
				good[p.Name] = p.Enum[0]
			} else {
				good[p.Name] = "paris"
			}
			bad[p.Name] = []any{1}
		}
	}
	out := map[string]string{}
	for name, args := range map[string]map[string]any{"good": good, "bad": bad, "none": {}} {
		b, err := json.Marshal(map[string]any{"tool": a.Tool.StandardizedName, "api": a.Name, "arguments": args})
		require.NoError(tb, err)
		out[name] = string(b)
	}
	return out
}

// TestSchemaCacheBounded: calling more distinct APIs than the catalog's
// per-API cache holds, over loopback, keeps it within its bytes (shown in
// /metrics), evicts the least recently used, and every answer and every
// validation problem, first and after its API's validator, schema and
// plan were evicted and built again, is byte for byte what a server
// keeping everything answers.
func TestSchemaCacheBounded(t *testing.T) {
	dir, _ := tbgen.WriteTB(t, tbgen.Options{Tools: 80, Queries: make([]int, len(tbgen.Groups))})
	tests := []struct {
		name  string
		bound int64
	}{
		{"32KiB", 32 << 10},
		{"one-entry", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hs, cat := schemaTree(t, dir, tc.bound)
			hu, _ := schemaTree(t, dir, -1)
			small, unbounded := httptest.NewServer(hs), httptest.NewServer(hu)
			t.Cleanup(small.Close)
			t.Cleanup(unbounded.Close)
			apis := cat.APIs()
			require.Greater(t, len(apis), 150)
			refused, answered := 0, 0
			for round := range 2 {
				for _, a := range apis {
					for name, body := range callBodies(t, a) {
						codeS, _, bodyS := do(t, "POST", small.URL+"/v1/call", "application/json", body, nil)
						codeU, _, bodyU := do(t, "POST", unbounded.URL+"/v1/call", "application/json", body, nil)
						require.Equal(t, codeU, codeS, "round %d %s %s", round, a.FunctionName(), name)
						require.Equal(t, string(bodyU), string(bodyS), "round %d %s %s", round, a.FunctionName(), name)
						switch {
						case codeS == 200:
							answered++
						case strings.Contains(string(bodyS), "invalid-arguments"):
							refused++
						}
					}
					if tc.bound > 1 {
						require.LessOrEqual(t, metric(t, small.URL, "understudy_api_schema_cache_bytes"), tc.bound)
					} else {
						require.Equal(t, int64(1), metric(t, small.URL, "understudy_api_schema_cache_entries"), "the newest entry always stays")
					}
				}
			}
			require.Greater(t, answered, len(apis), "answers compared")
			require.Greater(t, refused, len(apis), "validation problems compared too")
			require.Positive(t, metric(t, small.URL, "understudy_api_schema_cache_entries"))
			require.Greater(t, metric(t, small.URL, "understudy_api_schema_cache_evicted_total"), int64(len(apis)))
			require.Zero(t, metric(t, unbounded.URL, "understudy_api_schema_cache_evicted_total"))
			require.Greater(t, metric(t, unbounded.URL, "understudy_api_schema_cache_entries"), int64(len(apis)), "validators and plans")
			require.Greater(t, metric(t, unbounded.URL, "understudy_api_schema_cache_bytes"), tc.bound)
		})
	}
}

// BenchmarkSchemaCacheBytes calls every API of a generated tree once
// through /v1/call and reports the heap grown per API after a GC, with
// the catalog's per-API cache unbounded and bounded, in one run (the rest
// of what a call keeps, such as its recorded answer, is alike in both):
//
//	go test ./internal/server -run '^$' -bench SchemaCacheBytes -benchtime 1x
func BenchmarkSchemaCacheBytes(b *testing.B) {
	dir, _ := tbgen.WriteTB(b, tbgen.Options{Tools: 1000, Queries: make([]int, len(tbgen.Groups))})
	for _, bc := range []struct {
		name  string
		bound int64
	}{
		{"unbounded", -1},
		{"default-16MiB", 0},
		{"bound-1MiB", 1 << 20},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				h, cat := schemaTree(b, dir, bc.bound)
				apis := cat.APIs()
				bodies := make([]string, len(apis))
				for i, a := range apis {
					bodies[i] = callBodies(b, a)["good"]
				}
				before := heapInUse()
				for _, body := range bodies {
					req := httptest.NewRequest("POST", "/v1/call", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					h.ServeHTTP(httptest.NewRecorder(), req)
				}
				grown := float64(int64(heapInUse()) - int64(before))
				b.ReportMetric(grown/float64(len(apis)), "heap-bytes/API")
				b.ReportMetric(float64(cat.CacheStats().Bytes)/float64(len(apis)), "estimate-bytes/API")
			}
		})
	}
}
