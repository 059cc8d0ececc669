package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/server"
)

// newMCPSessionServer serves the whole HTTP handler, MCP at /mcp with the
// given session bounds, on loopback.
func newMCPSessionServer(t testing.TB, opts server.MCPOptions) *httptest.Server {
	t.Helper()
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	h, err := server.New(st.Engine, server.Options{MCP: server.MCPHandlerWith(server.MCPServer(st.Engine, "test"), opts)})
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

// sdkClient connects the SDK's own client over streamable HTTP.
func sdkClient(t testing.TB, url string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + "/mcp", DisableStandaloneSSE: true}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func calc(cs *mcp.ClientSession) (string, error) {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "calculate_for_calculator", Arguments: map[string]any{"expression": "6*7"}})
	if err != nil {
		return "", err
	}
	return res.Content[0].(*mcp.TextContent).Text, nil
}

// metric reads one sample of GET /metrics.
func metric(t testing.TB, url, name string) int64 {
	t.Helper()
	_, _, body := do(t, "GET", url+"/metrics", "", "", nil)
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + ` (\d+)$`).FindStringSubmatch(string(body))
	require.NotNil(t, m, "%s in /metrics:\n%s", name, body)
	n, err := strconv.ParseInt(m[1], 10, 64)
	require.NoError(t, err)
	return n
}

// TestMCPSessionsBounded: more initialize calls than the bound, none
// deleted, keep the bound; the least recently used session is the one
// closed, its client (the SDK's) is told it was evicted and to
// initialize again, and a client in use keeps working throughout.
func TestMCPSessionsBounded(t *testing.T) {
	const max = 8
	ts := newMCPSessionServer(t, server.MCPOptions{MaxSessions: max})
	old := sdkClient(t, ts.URL)
	live := sdkClient(t, ts.URL)
	for i := range 5 * max {
		code, session := mcpPost(t, ts.URL+"/mcp", "", stdioInit)
		require.Equal(t, http.StatusOK, code)
		require.NotEmpty(t, session)
		out, err := calc(live) // in use: never the least recently used
		require.NoError(t, err, "call %d", i)
		require.Contains(t, out, "42")
		require.LessOrEqual(t, metric(t, ts.URL, "understudy_mcp_sessions"), int64(max))
	}
	require.Equal(t, int64(max), metric(t, ts.URL, "understudy_mcp_sessions"))
	require.Equal(t, int64(5*max+2-max), metric(t, ts.URL, `understudy_mcp_sessions_closed_total{reason="evicted"}`))

	_, err := calc(old)
	require.Error(t, err)
	require.Contains(t, err.Error(), "was evicted")
	require.Contains(t, err.Error(), "initialize a new session")

	// Over plain HTTP: 404, as the MCP spec asks, with a JSON-RPC error
	// that says why.
	code, h, body := do(t, "POST", ts.URL+"/mcp", "application/json", stdioList, map[string]string{
		"Accept": "application/json, text/event-stream", "Mcp-Session-Id": old.ID(), "Mcp-Protocol-Version": "2025-06-18"})
	require.Equal(t, http.StatusNotFound, code)
	require.Equal(t, "application/json", h.Get("Content-Type"))
	require.Contains(t, string(body), `"id":3,`)
	require.Contains(t, string(body), `"code":-32001`)
	require.Contains(t, string(body), `was evicted`)
	require.Contains(t, string(body), `"type":"/problems/mcp-session-gone"`)

	// An ID never handed out is unknown, not evicted.
	code, _, body = do(t, "GET", ts.URL+"/mcp", "", "", map[string]string{"Accept": "text/event-stream", "Mcp-Session-Id": "NOPE"})
	require.Equal(t, http.StatusNotFound, code)
	require.Contains(t, string(body), `unknown MCP session \"NOPE\"`)

	out, err := calc(live)
	require.NoError(t, err)
	require.Contains(t, out, "42")
}

// TestMCPSessionsBoundedByBytes: big initialize requests (clientInfo the
// session keeps) are bounded by bytes before the count bound is reached.
func TestMCPSessionsBoundedByBytes(t *testing.T) {
	const limit = 200 << 10
	ts := newMCPSessionServer(t, server.MCPOptions{MaxSessionBytes: limit})
	big := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":%q,"version":"1"}}}`, strings.Repeat("x", 30<<10))
	for range 20 {
		code, _ := mcpPost(t, ts.URL+"/mcp", "", big)
		require.Equal(t, http.StatusOK, code)
		require.LessOrEqual(t, metric(t, ts.URL, "understudy_mcp_session_bytes"), int64(limit))
	}
	n := metric(t, ts.URL, "understudy_mcp_sessions")
	require.Less(t, n, int64(20))
	require.Positive(t, n)
	require.Equal(t, 20-n, metric(t, ts.URL, `understudy_mcp_sessions_closed_total{reason="evicted"}`))
}

// TestMCPSessionDeleted: a session its client deleted is no longer
// counted, and a request naming it is told so.
func TestMCPSessionDeleted(t *testing.T) {
	ts := newMCPSessionServer(t, server.MCPOptions{})
	code, session := mcpPost(t, ts.URL+"/mcp", "", stdioInit)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, int64(1), metric(t, ts.URL, "understudy_mcp_sessions"))
	code, _, _ = do(t, "DELETE", ts.URL+"/mcp", "", "", map[string]string{"Mcp-Session-Id": session})
	require.Equal(t, http.StatusNoContent, code)
	require.Equal(t, int64(0), metric(t, ts.URL, "understudy_mcp_sessions"))
	code, _, body := do(t, "POST", ts.URL+"/mcp", "application/json", stdioList, map[string]string{
		"Accept": "application/json, text/event-stream", "Mcp-Session-Id": session})
	require.Equal(t, http.StatusNotFound, code)
	require.Contains(t, string(body), "was deleted by its client")
}

// TestMCPSessionMemoryBounded: many more sessions than the bound hold
// memory of the bound, not of how many were opened (unbounded, each kept
// about 11 KB).
func TestMCPSessionMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 1,500 sessions")
	}
	const max, opened = 50, 1500
	ts := newMCPSessionServer(t, server.MCPOptions{MaxSessions: max})
	for range 20 { // warm up: the MCP server is built on the first request
		mcpPost(t, ts.URL+"/mcp", "", stdioInit)
	}
	before := heapInUse()
	for range opened {
		code, _ := mcpPost(t, ts.URL+"/mcp", "", stdioInit)
		require.Equal(t, http.StatusOK, code)
	}
	grown := int64(heapInUse()) - int64(before)
	t.Logf("%d sessions opened, %d kept: heap grew %d KB (%.0f bytes a session opened)", opened, max, grown>>10, float64(grown)/opened)
	// Unbounded, 1,500 sessions held over 16 MB; bounded, the 50 kept
	// and the IDs of those closed (remembered to say why) stay far under.
	require.Less(t, grown, int64(4<<20))
}

// heapInUse is the heap and goroutine stacks in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}

// BenchmarkMCPSessionBytes reports the heap and stacks one MCP session over HTTP
// holds, unbounded (what mcpSessionBase estimates) and under a bound of
// 100 sessions:
//
//	go test ./internal/server -run '^$' -bench MCPSessionBytes -benchtime 2000x
func BenchmarkMCPSessionBytes(b *testing.B) {
	for _, bc := range []struct {
		name string
		max  int
	}{{"unbounded", -1}, {"max100", 100}} {
		b.Run(bc.name, func(b *testing.B) {
			ts := newMCPSessionServer(b, server.MCPOptions{MaxSessions: bc.max})
			post := func() {
				req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(stdioInit))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				resp, err := bounded.Client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			post()
			before := heapInUse()
			b.ResetTimer()
			for range b.N {
				post()
			}
			b.StopTimer()
			b.ReportMetric(float64(int64(heapInUse())-int64(before))/float64(b.N), "bytes/session")
		})
	}
}
