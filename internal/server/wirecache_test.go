package server_test

import (
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// wireTree serves a generated ToolBench tree with the given bound on the
// wire's per-tool routes, on loopback.
func wireTree(t *testing.T, dir string, bound int64) (*httptest.Server, *toolset.Catalog) {
	h, cat := treeServer(t, dir, server.Options{APICacheBytes: bound})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts, cat
}

// TestAPICacheBounded: calling more distinct tools over the RapidAPI wire
// than the per-API cache holds keeps it within its bytes (the least
// recently used evicted), and every answer, first and after its tool's
// routes were evicted and built again, is byte for byte what an unbounded
// server answers.
func TestAPICacheBounded(t *testing.T) {
	dir, _ := tbgen.WriteTB(t, tbgen.Options{Tools: 150, Queries: make([]int, len(tbgen.Groups))})
	const bound = 24 << 10
	small, cat := wireTree(t, dir, bound)
	unbounded, _ := wireTree(t, dir, -1)
	param := regexp.MustCompile(`\{[^}]*\}`)
	var calls [][2]string // host, path
	hosts := map[string]bool{}
	for _, a := range cat.APIs() {
		if a.Tool.Host == "" || a.Path == "" || a.Method != "GET" {
			continue
		}
		calls = append(calls, [2]string{a.Tool.Host, param.ReplaceAllString(a.Path, "1")})
		hosts[a.Tool.Host] = true
	}
	require.Greater(t, len(hosts), 60, "enough tools to go past the bound")
	for round := range 2 {
		for _, c := range calls {
			hdr := map[string]string{"X-RapidAPI-Host": c[0], "X-RapidAPI-Key": "k"}
			codeS, _, bodyS := do(t, "GET", small.URL+c[1], "", "", hdr)
			codeU, _, bodyU := do(t, "GET", unbounded.URL+c[1], "", "", hdr)
			require.Equal(t, codeU, codeS, "round %d %s %s", round, c[0], c[1])
			require.Equal(t, string(bodyU), string(bodyS), "round %d %s %s", round, c[0], c[1])
			require.LessOrEqual(t, metric(t, small.URL, "understudy_api_cache_bytes"), int64(bound))
		}
	}
	entries := metric(t, small.URL, "understudy_api_cache_entries")
	require.Less(t, entries, int64(len(hosts)))
	require.Positive(t, entries)
	require.Greater(t, metric(t, small.URL, "understudy_api_cache_evicted_total"), int64(len(hosts)))
	require.Equal(t, int64(len(hosts)), metric(t, unbounded.URL, "understudy_api_cache_entries"))
	require.Zero(t, metric(t, unbounded.URL, "understudy_api_cache_evicted_total"))
	require.Greater(t, metric(t, unbounded.URL, "understudy_api_cache_bytes"), int64(bound))
}

// BenchmarkWireRouteBytes measures the heap the wire's routes of a tool
// take, against the estimate the per-API cache counts, by building every
// host of a generated tree (a request at a path no API has builds them and
// runs no call):
//
//	go test ./internal/server -run '^$' -bench WireRouteBytes -benchtime 1x
func BenchmarkWireRouteBytes(b *testing.B) {
	dir, _ := tbgen.WriteTB(b, tbgen.Options{Tools: 1000, Queries: make([]int, len(tbgen.Groups))})
	cat, err := loader.Load([]string{dir}, false)
	require.NoError(b, err)
	st, err := assemble.Build(assemble.Config{Catalog: cat})
	require.NoError(b, err)
	b.Cleanup(func() { _ = st.Close() })
	var hosts []string
	seen := map[string]bool{}
	for _, tool := range cat.Tools() {
		if tool.Host != "" && !seen[tool.Host] {
			seen[tool.Host] = true
			hosts = append(hosts, tool.Host)
		}
	}
	for range b.N {
		h, err := server.New(st.Engine, server.Options{APICacheBytes: -1})
		require.NoError(b, err)
		before := heapInUse()
		for _, host := range hosts {
			req := httptest.NewRequest("GET", "/understudy-no-such-path", nil)
			req.Header.Set("X-RapidAPI-Host", host)
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
		grown := float64(int64(heapInUse()) - int64(before))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		est := regexp.MustCompile(`(?m)^understudy_api_cache_bytes (\d+)$`).FindStringSubmatch(rec.Body.String())
		require.NotNil(b, est)
		b.ReportMetric(grown/float64(len(hosts)), "heap-bytes/tool")
		b.ReportMetric(grown/parseFloat(b, est[1]), "heap/estimate")
	}
}

func parseFloat(tb testing.TB, s string) float64 {
	tb.Helper()
	f, err := strconv.ParseFloat(s, 64)
	require.NoError(tb, err)
	return f
}
