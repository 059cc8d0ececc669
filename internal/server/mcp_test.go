package server_test

import (
	"encoding/json"
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

// TestMCPOverHTTPAnswersIDsAsWritten: over streamable HTTP too, ids come
// back exactly as written (the SDK turned 1e308 into
// -9223372036854775808 and 9007199254740993 into 9007199254740992), in an
// event stream and in a JSON error alike.
func TestMCPOverHTTPAnswersIDsAsWritten(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	hdr := map[string]string{"Accept": "application/json, text/event-stream"}
	code, h, body := do(t, "POST", ts.URL+"/mcp", "application/json",
		`{"jsonrpc":"2.0","id":1e308,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, hdr)
	require.Equal(t, http.StatusOK, code, string(body))
	require.Contains(t, string(body), `"id":1e308,`)
	hdr["Mcp-Session-Id"] = h.Get("Mcp-Session-Id")
	require.NotEmpty(t, hdr["Mcp-Session-Id"])
	do(t, "POST", ts.URL+"/mcp", "application/json", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, hdr)
	for _, id := range []string{`9007199254740993`, `1.5`, `-0`, `"understudy-id:7"`, `12`} {
		code, _, body = do(t, "POST", ts.URL+"/mcp", "application/json", `{"jsonrpc":"2.0","id":`+id+`,"method":"tools/call","params":{"name":"calculate_for_calculator","arguments":{"expression":"6*7"}}}`, hdr)
		require.Equal(t, http.StatusOK, code, string(body))
		var data string
		for line := range strings.Lines(string(body)) {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				data = d
			}
		}
		var msg map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(data), &msg), string(body))
		require.Equal(t, id, string(msg["id"]))
		require.Contains(t, string(msg["result"]), "42")
	}
}
