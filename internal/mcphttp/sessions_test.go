package mcphttp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func post(t *testing.T, h http.Handler, session, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestIdleSessionsExpire: on a clock that moves on, a session idle for
// the idle time is closed, in the SDK too, counted as expired and its
// client told so; one used meanwhile stays.
func TestIdleSessionsExpire(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	m := New(sdk, Options{Idle: time.Hour, ProblemBase: "/problems/"})
	now := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return now }

	idle := post(t, m, "", initialize).Header().Get("Mcp-Session-Id")
	used := post(t, m, "", initialize).Header().Get("Mcp-Session-Id")
	require.NotEmpty(t, idle)
	require.Equal(t, int64(2), m.Stats().Live)

	now = now.Add(40 * time.Minute)
	require.Equal(t, http.StatusOK, post(t, m, used, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).Code)
	now = now.Add(30 * time.Minute)
	m.expire()
	st := m.Stats()
	require.Equal(t, Stats{Live: 1, Expired: 1, Bytes: st.Bytes}, st)

	rec := post(t, m, idle, `{"jsonrpc":"2.0","id":"x","method":"ping"}`)
	require.Equal(t, http.StatusNotFound, rec.Code)
	require.Contains(t, rec.Body.String(), `"id":"x"`)
	require.Contains(t, rec.Body.String(), "was closed after 1h0m0s without a request")
	require.Equal(t, 1, countSessions(srv), "the SDK closed it too")
	require.Equal(t, http.StatusOK, post(t, m, used, `{"jsonrpc":"2.0","id":3,"method":"ping"}`).Code)
}

func countSessions(s *mcp.Server) int {
	n := 0
	for range s.Sessions() {
		n++
	}
	return n
}

func TestRequestID(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"ping"}`, `7`},
		{` {"jsonrpc":"2.0","id":"a","method":"ping"}`, `"a"`},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ``},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, ``},
		{`{"jsonrpc":"2.0","id":1}`, ``},
		{`not json`, ``},
	} {
		require.Equal(t, tc.want, string(requestID([]byte(tc.body))), tc.body)
	}
}
