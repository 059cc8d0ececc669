package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/server"
)

// mcpPost sends one JSON-RPC message to an MCP endpoint and returns the
// status and session ID.
func mcpPost(t *testing.T, url, session, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := bounded.Client.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
}

// TestMCPSessionsExpire: an MCP session over HTTP that stays idle is
// closed (its memory freed) and later requests with its ID get 404.
func TestMCPSessionsExpire(t *testing.T) {
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	const idle = 50 * time.Millisecond
	ts := httptest.NewServer(server.MCPHandlerWith(server.MCPServer(st.Engine, "test"), server.MCPOptions{SessionIdle: idle}))
	t.Cleanup(ts.Close)

	code, session := mcpPost(t, ts.URL, "", stdioInit)
	require.Equal(t, http.StatusOK, code)
	require.NotEmpty(t, session)
	code, _ = mcpPost(t, ts.URL, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(t, http.StatusAccepted, code)
	// Polling, not sleeping a fixed time: the session must end at some
	// point after the idle time, however slow the machine.
	require.Eventually(t, func() bool {
		code, _ := mcpPost(t, ts.URL, session, stdioList)
		return code == http.StatusNotFound
	}, 10*time.Second, 4*idle, "an idle session is closed")
}
