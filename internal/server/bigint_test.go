package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// bigIDsTool takes 64-bit order IDs, as real APIs do (tweet IDs, Unix
// nanoseconds): an integer in the query of a GET and in the body of a POST.
const bigIDsTool = `{
  "tool_name": "Big IDs",
  "tool_description": "Orders keyed by 64-bit IDs.",
  "title": "Big IDs",
  "host": "big-ids.p.rapidapi.com",
  "api_list": [
    {"name": "order", "url": "https://big-ids.p.rapidapi.com/order", "method": "GET", "description": "An order.",
     "required_parameters": [{"name": "order_id", "type": "INTEGER", "description": "The order", "x-minimum": 1}],
     "optional_parameters": [], "x-example-response": {"ok": true}},
    {"name": "cancel", "url": "https://big-ids.p.rapidapi.com/cancel", "method": "POST", "description": "Cancels an order.",
     "required_parameters": [{"name": "order_id", "type": "INTEGER", "description": "The order", "x-minimum": 1}],
     "optional_parameters": [], "x-example-response": {"ok": true}}
  ]
}`

// The integers the issue names: 2^53+1 and 2^53, one float64 apart from
// nothing (float64 rounds the first to the second).
const (
	idAbove = "9007199254740993"
	idAt    = "9007199254740992"
)

// TestLargeIntegersKeepTheirRecordings records two calls that differ only
// in an integer above 2^53, then sends each, spelt several ways, through
// every transport: each must validate and be answered by its own
// recording. Were the integer rounded anywhere between the request body and
// the cache key, the two would share one recording (or one would reach the
// upstream again).
func TestLargeIntegersKeepTheirRecordings(t *testing.T) {
	var hits atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		// The upstream echoes what it was sent, so a recording says which call made it.
		b, _ := json.Marshal(map[string]string{"path": r.URL.Path, "query": r.URL.RawQuery, "body": string(body)})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	}))
	t.Cleanup(up.Close)

	dir := filepath.Join(t.TempDir(), "tools", "Commerce")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big_ids.json"), []byte(bigIDsTool), 0o644))
	c, err := loader.Load([]string{filepath.Dir(dir)}, false)
	require.NoError(t, err)
	ts, st := newServer(t, assemble.Config{
		Catalog: c, Mode: sandbox.ModeRecord, CacheDir: t.TempDir(),
		Upstream: sandbox.NewRapidAPI(up.URL, sandbox.RemoteOptions{Retries: -1, PerSecond: 1000, Sleep: func(context.Context, time.Duration) error { return nil }}),
	})
	const host = "big-ids.p.rapidapi.com"

	// Each transport sends {"order_id": <lit>} to api and returns the
	// API's answer and where it came from ("" when the transport does not say).
	type send func(t *testing.T, api, lit string) (response, source string)
	transports := []struct {
		name      string
		send      send
		exactOnly bool // takes only a plain integer (a query string, where "…e15" is not an integer)
		bodyOnly  bool // reaches only the POST API (a JSON body on the wire)
		queryOnly bool // reaches only the GET API
	}{
		{name: "native /v1/call", send: func(t *testing.T, api, lit string) (string, string) {
			code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json",
				`{"tool":"big_ids","api":"`+api+`","arguments":{"order_id":`+lit+`}}`, nil)
			require.Equal(t, 200, code, string(body))
			var res struct {
				Response json.RawMessage `json:"response"`
				Source   string          `json:"source"`
			}
			require.NoError(t, json.Unmarshal(body, &res))
			return string(res.Response), res.Source
		}},
		{name: "/virtual", send: toolbenchSend(ts.URL + "/virtual")},
		{name: "/rapidapi", send: toolbenchSend(ts.URL + "/rapidapi")},
		{name: "RapidAPI wire query", exactOnly: true, queryOnly: true, send: func(t *testing.T, api, lit string) (string, string) {
			code, hdr, body := do(t, "GET", ts.URL+"/order?order_id="+url.QueryEscape(lit), "", "", map[string]string{"X-RapidAPI-Host": host})
			require.Equal(t, 200, code, string(body))
			return string(body), hdr.Get("X-Understudy-Source")
		}},
		{name: "RapidAPI wire body", bodyOnly: true, send: func(t *testing.T, api, lit string) (string, string) {
			code, hdr, body := do(t, "POST", ts.URL+"/cancel", "application/json", `{"order_id": `+lit+`}`, map[string]string{"X-RapidAPI-Host": host})
			require.Equal(t, 200, code, string(body))
			return string(body), hdr.Get("X-Understudy-Source")
		}},
		{name: "MCP", send: func(t *testing.T, api, lit string) (string, string) {
			res, err := mcpClient(t, ts.URL+"/mcp").CallTool(context.Background(), &mcp.CallToolParams{
				Name:      toolset.ExportName(c.API("big_ids", api), toolset.NameToolBench),
				Arguments: json.RawMessage(`{"order_id": ` + lit + `}`),
			})
			require.NoError(t, err)
			require.False(t, res.IsError, "%v", res.Content)
			return res.Content[0].(*mcp.TextContent).Text, ""
		}},
	}

	// What the upstream saw for each API and integer, as its echo says.
	echoed := func(api, id string) func(t *testing.T, response string) {
		return func(t *testing.T, response string) {
			t.Helper()
			var e struct{ Path, Query, Body string }
			require.NoError(t, json.Unmarshal([]byte(response), &e), response)
			if api == "order" {
				require.Equal(t, "order_id="+id, e.Query, "the upstream got the integer's digits")
			} else {
				require.JSONEq(t, `{"order_id":`+id+`}`, e.Body, "the upstream got the integer's digits")
				require.Equal(t, `{"order_id":`+id+`}`, e.Body, "exactly")
			}
		}
	}

	// Record: two calls per API, differing only in the integer, both reach
	// the upstream and both are recorded.
	for _, api := range []string{"order", "cancel"} {
		for _, id := range []string{idAbove, idAt} {
			resp, source := transports[0].send(t, api, id)
			require.Equal(t, sandbox.SourceRemote, source, "%s %s: a first call is recorded", api, id)
			echoed(api, id)(t, resp)
		}
	}
	require.EqualValues(t, 4, hits.Load())
	require.Equal(t, 4, storedEntries(t, st), "two integers a float64 cannot tell apart make two recordings")

	// Replay through every transport, the integer spelt every way JSON
	// allows: each call is answered by its own integer's recording.
	spellings := map[string][]string{
		idAbove: {idAbove, idAbove + ".0", "9.007199254740993e15", "9007199254740993e0"},
		idAt:    {idAt, idAt + ".000", "9.007199254740992E15"},
	}
	for _, tr := range transports {
		for _, api := range []string{"order", "cancel"} {
			if (tr.bodyOnly && api != "cancel") || (tr.queryOnly && api != "order") {
				continue
			}
			for _, id := range []string{idAbove, idAt} {
				for i, lit := range spellings[id] {
					if tr.exactOnly && i > 0 {
						continue
					}
					t.Run(tr.name+"/"+api+"/"+lit, func(t *testing.T) {
						resp, source := tr.send(t, api, lit)
						if source != "" {
							require.Equal(t, sandbox.SourceCache, source)
						}
						echoed(api, id)(t, resp)
						calls, ok := st.Engine.Session(sessionOf(tr.name))
						if ok && len(calls.Calls) > 0 {
							last := calls.Calls[len(calls.Calls)-1]
							require.Equal(t, `{"order_id":`+id+`}`, string(last.Arguments), "the trace keeps the digits")
						}
					})
				}
			}
		}
	}
	require.EqualValues(t, 4, hits.Load(), "every replayed call was answered from the recordings")
	require.Equal(t, 4, storedEntries(t, st))
}

// storedEntries counts the recordings on disk.
func storedEntries(t *testing.T, st *assemble.Stack) int {
	t.Helper()
	n := 0
	require.NoError(t, st.Store.Walk(func(cache.Key, cache.Entry) error { n++; return nil }))
	return n
}

// sessionOf is the session a transport's calls are traced under (they send
// no session, so all but MCP share "").
func sessionOf(transport string) string {
	if transport == "MCP" {
		return "\x00" // MCP sessions carry a generated ID: skip the trace check
	}
	return ""
}

func toolbenchSend(endpoint string) func(t *testing.T, api, lit string) (string, string) {
	return func(t *testing.T, api, lit string) (string, string) {
		input, err := json.Marshal(`{"order_id": ` + lit + `}`) // tool_input as a JSON string, the way ToolBench clients send it
		require.NoError(t, err)
		code, _, body := do(t, "POST", endpoint, "application/json",
			`{"category":"Commerce","tool_name":"big_ids","api_name":"`+api+`","tool_input":`+string(input)+`}`, nil)
		require.Equal(t, 200, code, string(body))
		var tb struct {
			Error    string          `json:"error"`
			Response json.RawMessage `json:"response"`
		}
		require.NoError(t, json.Unmarshal(body, &tb))
		require.Empty(t, tb.Error)
		return string(tb.Response), ""
	}
}
