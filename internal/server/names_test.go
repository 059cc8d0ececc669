package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/mocks/failures"
)

// TestControlCharacterInNameRefused: a tool or API name holding a control
// character is refused with a problem on every transport; the catalog's
// folding lookup took "calculator\u0000" for "calculator" and ran the call.
func TestControlCharacterInNameRefused(t *testing.T) {
	ts, st := newServer(t, assemble.Config{})
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
	}{
		{"native tool NUL", "POST", "/v1/call", `{"tool":"calculator\u0000","api":"calculate","arguments":{"expression":"6*7"}}`, http.StatusBadRequest},
		{"native api BEL", "POST", "/v1/call", `{"tool":"calculator","api":"calculate\u0007","arguments":{"expression":"6*7"}}`, http.StatusBadRequest},
		{"native function name", "POST", "/v1/call", `{"api":"calculate_for_calculator\u0000","arguments":{"expression":"6*7"}}`, http.StatusBadRequest},
		{"native session newline", "POST", "/v1/call", `{"tool":"calculator","api":"calculate","arguments":{"expression":"6*7"},"session":"a\nb"}`, http.StatusBadRequest},
		{"virtual", "POST", "/virtual", `{"tool_name":"calculator\u0000","api_name":"calculate","tool_input":{"expression":"6*7"}}`, http.StatusOK},
		{"rapidapi", "POST", "/rapidapi", `{"tool_name":"calculator","api_name":"calculate\u007f","tool_input":{"expression":"6*7"}}`, http.StatusOK},
		{"wire by exported path", "GET", "/calculator%00/calculate?expression=6*7", ``, http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, body := do(t, tc.method, ts.URL+tc.path, "application/json", tc.body, nil)
			require.Equal(t, tc.status, code, string(body))
			require.Contains(t, string(body), "control character")
			require.NotContains(t, string(body), `"result":42`)
		})
	}
	require.Zero(t, st.Engine.Metrics().Get("calculator", "calculate", "mock"), "no call ran")

	// MCP over HTTP.
	hdr := map[string]string{"Accept": "application/json, text/event-stream"}
	code, h, _ := do(t, "POST", ts.URL+"/mcp", "application/json", stdioInit, hdr)
	require.Equal(t, http.StatusOK, code)
	hdr["Mcp-Session-Id"] = h.Get("Mcp-Session-Id")
	code, _, body := do(t, "POST", ts.URL+"/mcp", "application/json",
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calculate_for_calculator\u0000","arguments":{"expression":"6*7"}}}`, hdr)
	require.Equal(t, http.StatusBadRequest, code, string(body))
	require.Contains(t, string(body), "/problems/bad-name")

	// MCP over stdio.
	answers := runStdio(t, stdioInit+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calculate_for_calculator\u0000","arguments":{"expression":"6*7"}}}`+"\n", 0)
	require.Len(t, answers, 2)
	// The filter answers the refusal as it reads it, maybe before the
	// SDK answers initialize.
	i := slices.IndexFunc(answers, func(a map[string]any) bool { return a["id"] == float64(2) })
	require.GreaterOrEqual(t, i, 0, "%v", answers)
	e := answers[i]["error"].(map[string]any)
	require.Equal(t, float64(-32602), e["code"])
	require.Contains(t, e["message"], "control character U+0000")
}

// TestStdioCancelledNotAnswered: a request the client cancels while it
// runs gets no answer, as the MCP spec asks of the receiver; requests
// after it are answered and the session still ends with the input.
func TestStdioCancelledNotAnswered(t *testing.T) {
	slow, err := failures.Parse("calculator:latency=2s")
	require.NoError(t, err)
	for _, id := range []string{`5`, `"five"`, `1e308`} {
		t.Run(id, func(t *testing.T) {
			in := stdioInit + "\n" +
				`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
				`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"calculate_for_calculator","arguments":{"expression":"6*7"}}}` + "\n" +
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"user"}}` + "\n" +
				`{"jsonrpc":"2.0","id":6,"method":"ping"}` + "\n"
			out := serveStdio(t, assemble.Config{Failures: slow}, in, 0)
			var ids []string
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var m map[string]json.RawMessage
				require.NoError(t, json.Unmarshal([]byte(line), &m), line)
				ids = append(ids, string(m["id"]))
			}
			require.Equal(t, []string{"1", "6"}, ids, out)
		})
	}
}

// TestTraceAndConnectAre405: TRACE and CONNECT, which no endpoint takes,
// are 405 problems with Allow wherever they are sent (they were 404 on a
// path that is no endpoint), CONNECT's authority form included.
func TestTraceAndConnectAre405(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	for _, tc := range []struct {
		name, method, path string
		hdr                map[string]string
		allow              string
	}{
		{"TRACE unknown path", "TRACE", "/nope", nil, "GET, HEAD, POST, PUT, PATCH, DELETE"},
		{"CONNECT unknown path", "CONNECT", "/nope", nil, "GET, HEAD, POST, PUT, PATCH, DELETE"},
		{"TRACE endpoint", "TRACE", "/healthz", nil, "GET, HEAD"},
		{"TRACE wire unknown path", "TRACE", "/nope", map[string]string{"X-RapidAPI-Host": "iso-codes.understudy.test"}, "GET, HEAD, POST, PUT, PATCH, DELETE"},
		{"TRACE wire unknown host", "TRACE", "/nope", map[string]string{"X-RapidAPI-Host": "nope.example"}, "GET, HEAD, POST, PUT, PATCH, DELETE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, h, body := do(t, tc.method, ts.URL+tc.path, "", "", tc.hdr)
			require.Equal(t, http.StatusMethodNotAllowed, code, string(body))
			require.Equal(t, tc.allow, h.Get("Allow"))
			require.Equal(t, "application/problem+json", h.Get("Content-Type"))
			require.Contains(t, string(body), "/problems/method-not-allowed")
		})
	}
	t.Run("CONNECT authority form", func(t *testing.T) {
		addr := strings.TrimPrefix(ts.URL, "http://")
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		defer conn.Close()
		require.NoError(t, conn.SetDeadline(time.Now().Add(bounded.Timeout)))
		_, err = fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", addr, addr)
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: "CONNECT"})
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, string(body))
		require.Equal(t, "GET, HEAD, POST, PUT, PATCH, DELETE", resp.Header.Get("Allow"))
		require.Contains(t, string(body), "CONNECT is not served")
	})
}
