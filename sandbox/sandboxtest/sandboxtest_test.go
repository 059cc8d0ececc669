package sandboxtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/sandbox/sandboxtest"
)

const orderDesk = "testdata/tools/Commerce/order_desk.json"

// call posts one call to /v1/call and returns the HTTP status, the
// Content-Type and the body.
func call(t *testing.T, base, tool, api string, args map[string]any, session string) (int, string, []byte) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"tool": tool, "api": api, "arguments": args, "session": session})
	require.NoError(t, err)
	return do(t, http.MethodPost, base+"/v1/call", body)
}

func do(t *testing.T, method, u string, body []byte) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, u, bytes.NewReader(body))
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := bounded.Client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// encode is the server's JSON encoding of an answer (HTML not escaped,
// one trailing newline).
func encode(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return buf.Bytes()
}

func TestHTTPAndInProcessAnswerTheSameBytes(t *testing.T) {
	type callCase struct {
		name, tool, api string
		args            map[string]any
		wantStatus      int // status inside the answer
	}
	cases := []callCase{
		{"country", "iso_codes", "country_by_code", map[string]any{"code": "PT"}, http.StatusOK},
		{"refusal of the API", "iso_codes", "country_by_code", map[string]any{"code": "ZZ"}, http.StatusNotFound},
		{"clock", "agent_clock", "get_current_time", map[string]any{"timezone": "Asia/Tokyo", "format": "iso"}, http.StatusOK},
		{"function name", "", "flights_auto_complete_for_skyscanner80", map[string]any{"query": "Lisbon"}, http.StatusOK},
		{"defaults applied", "agent_clock", "get_current_time", nil, http.StatusOK},
	}
	// Two servers, so that each transport makes call 1 of the same session.
	overHTTP, inProcess := sandboxtest.NewServer(t), sandboxtest.NewServer(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			session := "same-" + strings.ReplaceAll(tc.name, " ", "-")
			status, ctype, body := call(t, overHTTP.URL, tc.tool, tc.api, tc.args, session)
			require.Equal(t, http.StatusOK, status, "%s", body)
			require.Equal(t, "application/json", ctype)

			res, err := inProcess.Client().Call(t.Context(), tc.tool, tc.api, tc.args, session)
			require.NoError(t, err)
			require.Equal(t, tc.wantStatus, res.Status)
			require.Equal(t, string(body), string(encode(t, res)))
		})
	}

	t.Run("errors keep their status", func(t *testing.T) {
		for _, tc := range []callCase{
			{"unknown API", "iso_codes", "no_such_api", nil, http.StatusNotFound},
			{"missing argument", "iso_codes", "country_by_code", nil, http.StatusBadRequest},
		} {
			status, ctype, body := call(t, overHTTP.URL, tc.tool, tc.api, tc.args, "errors")
			require.Equal(t, tc.wantStatus, status, "%s: %s", tc.name, body)
			require.Equal(t, "application/problem+json", ctype, tc.name)
			_, err := inProcess.Client().Call(t.Context(), tc.tool, tc.api, tc.args, "errors")
			require.Error(t, err, tc.name)
			require.Equal(t, tc.wantStatus, sandbox.StatusOf(err), tc.name)
		}
	})
}

func TestEveryTransportIsServed(t *testing.T) {
	srv := sandboxtest.NewServer(t)
	cases := []struct {
		name, method, path string
		header             map[string]string
		body               string
		want               string // in the body
	}{
		{"health", http.MethodGet, "/healthz", nil, "", `"status":"ok"`},
		{"OpenAI tools", http.MethodGet, "/v1/tools?format=openai", nil, "", `"iso_codes-country_by_code"`},
		{"dependency graph", http.MethodGet, "/v1/deps", nil, "", `skyscanner80`},
		{"StableToolBench", http.MethodPost, "/virtual", map[string]string{"Content-Type": "application/json"},
			`{"category":"Data","tool_name":"iso_codes","api_name":"country_by_code","tool_input":"{\"code\": \"PT\"}"}`, `"Portugal"`},
		{"RapidAPI wire", http.MethodGet, "/api/v1/flights/auto-complete?query=Lisbon",
			map[string]string{"X-RapidAPI-Host": "skyscanner80.p.rapidapi.com"}, "", `Lisbon`},
		{"MCP", http.MethodPost, "/mcp", map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, `"understudy"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
			require.NoError(t, err)
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := bounded.Client.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
			require.Contains(t, string(b), tc.want)
		})
	}
}

func TestSessionIsTheTraceTheEndpointServes(t *testing.T) {
	srv := sandboxtest.NewServer(t)
	for _, code := range []string{"PT", "ZZ", "JP"} {
		status, _, body := call(t, srv.URL, "iso_codes", "country_by_code", map[string]any{"code": code}, "trace")
		require.Equal(t, http.StatusOK, status, "%s", body)
	}
	_, err := srv.Client().Call(t.Context(), "skyscanner80", "flights_search_one_way",
		map[string]any{"fromId": "FABRICATED", "toId": "ALSO", "departDate": "2025-06-20"}, "trace")
	require.NoError(t, err)

	tr := srv.Session("trace")
	require.Equal(t, "trace", tr.ID)
	require.Len(t, tr.Calls, 4)
	for i, c := range tr.Calls {
		require.Equal(t, i+1, c.Seq)
	}
	require.JSONEq(t, `{"code":"ZZ"}`, string(tr.Calls[1].Arguments))
	require.Equal(t, http.StatusNotFound, tr.Calls[1].Status)
	require.True(t, tr.Calls[3].Rejected, "built-in tools enforce their dependencies by default")
	require.Positive(t, tr.Violations)

	status, _, body := do(t, http.MethodGet, srv.URL+"/v1/sessions/trace", nil)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, string(body), string(encode(t, tr)))

	empty := srv.Session("never-used")
	require.Equal(t, "never-used", empty.ID)
	require.Empty(t, empty.Calls)
}

func TestReplayMode(t *testing.T) {
	// An upstream of the test's own, so that what record mode stores can
	// be told from anything a stand-in would say.
	var upstreamCalls atomic.Int32
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		upstreamCalls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"error":"","response":{"recorded_by":"the test upstream"}}`)
	}))
	t.Cleanup(upstream.Close)
	dir := t.TempDir()
	args := map[string]any{"code": "AQ"}

	t.Run("a miss is a 404 problem naming the key", func(t *testing.T) {
		srv := sandboxtest.NewServer(t, sandboxtest.WithMode(sandbox.ModeReplay), sandboxtest.WithRecordings(dir))
		status, ctype, body := call(t, srv.URL, "iso_codes", "country_by_code", args, "r")
		require.Equal(t, http.StatusNotFound, status, "%s", body)
		require.Equal(t, "application/problem+json", ctype)
		var p struct{ Type, Key string }
		require.NoError(t, json.Unmarshal(body, &p))
		require.True(t, strings.HasSuffix(p.Type, "/problems/no-recording"), p.Type)
		require.NotEmpty(t, p.Key)

		_, err := srv.Client().Call(t.Context(), "iso_codes", "country_by_code", args, "r")
		var miss *sandbox.ReplayMissError
		require.ErrorAs(t, err, &miss)
		require.Equal(t, p.Key, miss.Key)
	})
	t.Run("record mode stores into the directory", func(t *testing.T) {
		srv := sandboxtest.NewServer(t, sandboxtest.WithMode(sandbox.ModeRecord), sandboxtest.WithRecordings(dir),
			sandboxtest.WithUpstream(sandbox.NewToolBenchServer(upstream.URL, sandbox.RemoteOptions{Retries: -1})))
		res, err := srv.Client().Call(t.Context(), "iso_codes", "country_by_code", args, "r")
		require.NoError(t, err)
		require.Equal(t, sandbox.SourceRemote, res.Source, res.UpstreamError)
		require.EqualValues(t, 1, upstreamCalls.Load())
	})
	t.Run("replay answers from the directory", func(t *testing.T) {
		srv := sandboxtest.NewServer(t, sandboxtest.WithMode(sandbox.ModeReplay), sandboxtest.WithRecordings(dir))
		status, _, body := call(t, srv.URL, "iso_codes", "country_by_code", args, "r")
		require.Equal(t, http.StatusOK, status, "%s", body)
		var res sandbox.Result
		require.NoError(t, json.Unmarshal(body, &res))
		require.Equal(t, sandbox.SourceCache, res.Source)
		require.JSONEq(t, `{"recorded_by":"the test upstream"}`, string(res.Response))
		require.EqualValues(t, 1, upstreamCalls.Load(), "replay never calls the upstream")
	})
}

func TestFrozenClock(t *testing.T) {
	now := func(t *testing.T, opts ...sandboxtest.Option) []byte {
		t.Helper()
		srv := sandboxtest.NewServer(t, opts...)
		status, _, body := call(t, srv.URL, "agent_clock", "get_current_time", map[string]any{"timezone": "UTC", "format": "iso"}, "clock")
		require.Equal(t, http.StatusOK, status, "%s", body)
		return body
	}
	newYear := time.Date(2031, time.January, 1, 12, 30, 0, 0, time.UTC)
	cases := []struct {
		name     string
		opts     []sandboxtest.Option
		wantDate string
	}{
		{"default", nil, "2025-06-02T09:00:00"},
		{"WithNow", []sandboxtest.Option{sandboxtest.WithNow(newYear)}, "2031-01-01T12:30:00"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			first, second := now(t, tc.opts...), now(t, tc.opts...)
			require.Equal(t, string(first), string(second), "the same clock gives the same bytes")
			require.Contains(t, string(first), tc.wantDate)
		})
	}
}

func TestCustomCatalog(t *testing.T) {
	cases := []struct {
		name        string
		opts        []sandboxtest.Option
		wantBuiltin bool
	}{
		{"added to the built-in tools", []sandboxtest.Option{sandboxtest.WithCatalog(orderDesk)}, true},
		{"alone", []sandboxtest.Option{sandboxtest.WithCatalog(orderDesk), sandboxtest.WithoutBuiltin()}, false},
		{"as a folder", []sandboxtest.Option{sandboxtest.WithCatalog("testdata/tools"), sandboxtest.WithoutBuiltin()}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := sandboxtest.NewServer(t, tc.opts...)
			status, _, body := call(t, srv.URL, "order_desk", "list_orders", map[string]any{"customer": "bo@example.com"}, "c")
			require.Equal(t, http.StatusOK, status, "%s", body)
			var res sandbox.Result
			require.NoError(t, json.Unmarshal(body, &res))
			var orders struct {
				Orders []struct {
					OrderID string `json:"order_id"`
				} `json:"orders"`
			}
			require.NoError(t, json.Unmarshal(res.Response, &orders))
			require.NotEmpty(t, orders.Orders)
			require.NotEmpty(t, orders.Orders[0].OrderID)

			status, _, body = do(t, http.MethodGet, srv.URL+"/v1/catalog", nil)
			require.Equal(t, http.StatusOK, status)
			require.Contains(t, string(body), `"order_desk"`)
			require.Equal(t, tc.wantBuiltin, strings.Contains(string(body), `"iso_codes"`))
		})
	}
}

func TestDepsPolicy(t *testing.T) {
	fabricated := map[string]any{"order_id": "ORD-NEVER-LISTED"}
	cases := []struct {
		name           string
		opts           []sandboxtest.Option
		wantStatus     int
		wantViolations int
		wantBody       string
	}{
		{"imported tools warn by default", nil, http.StatusOK, 1, ""},
		{"enforce", []sandboxtest.Option{sandboxtest.WithDepsPolicy(deps.Enforce)}, http.StatusBadRequest, 1,
			`{"message":"Invalid order_id"}`},
		{"enforce, explained", []sandboxtest.Option{sandboxtest.WithDepsPolicy(deps.Enforce), sandboxtest.WithExplain()}, http.StatusBadRequest, 1,
			`{"message":"Invalid order_id","understudy_hint":"order_id=ORD-NEVER-LISTED was used before calling order_desk.list_orders or order_desk.get_order, which provide it"}`},
		{"off", []sandboxtest.Option{sandboxtest.WithDepsPolicy(deps.Off)}, http.StatusOK, 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := sandboxtest.NewServer(t, append([]sandboxtest.Option{sandboxtest.WithCatalog(orderDesk)}, tc.opts...)...)
			res, err := srv.Client().Call(t.Context(), "order_desk", "get_order", fabricated, "p")
			require.NoError(t, err)
			require.Equal(t, tc.wantStatus, res.Status, "%s", res.Response)
			require.Equal(t, tc.wantViolations, srv.Session("p").Violations)
			if tc.wantBody != "" {
				require.JSONEq(t, tc.wantBody, string(res.Response), "the API's own refusal; the hint only when asked")
			}
		})
	}
}

func TestLimitsAndFailures(t *testing.T) {
	pt := map[string]any{"code": "PT"}
	t.Run("a call over the limit is a 429 problem", func(t *testing.T) {
		// One call, then one every 1000 s: the second call is refused
		// however fast or slow the machine.
		srv := sandboxtest.NewServer(t, sandboxtest.WithLimits("iso_codes=0.001/s,burst=1"))
		status, _, body := call(t, srv.URL, "iso_codes", "country_by_code", pt, "l")
		require.Equal(t, http.StatusOK, status, "%s", body)
		status, ctype, body := call(t, srv.URL, "iso_codes", "country_by_code", pt, "l")
		require.Equal(t, http.StatusTooManyRequests, status, "%s", body)
		require.Equal(t, "application/problem+json", ctype)
		// In-process calls are a client of their own, with their own bucket.
		_, err := srv.Client().Call(t.Context(), "iso_codes", "country_by_code", pt, "l")
		require.NoError(t, err)
		_, err = srv.Client().Call(t.Context(), "iso_codes", "country_by_code", pt, "l")
		var rl *sandbox.RateLimitError
		require.ErrorAs(t, err, &rl)
	})
	t.Run("injected failures are the API's own errors", func(t *testing.T) {
		srv := sandboxtest.NewServer(t, sandboxtest.WithFailures("iso_codes:error_rate=1"))
		res, err := srv.Client().Call(t.Context(), "iso_codes", "country_by_code", pt, "f")
		require.NoError(t, err)
		require.GreaterOrEqual(t, res.Status, 500, "%s", res.Response)
		res, err = srv.Client().Call(t.Context(), "agent_clock", "get_current_time", nil, "f")
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.Status, "other tools are untouched")
	})
}

func TestBadOptionsAreErrors(t *testing.T) {
	cases := []struct {
		name string
		opts []sandboxtest.Option
		want string
	}{
		{"mode", []sandboxtest.Option{sandboxtest.WithMode("rehearse")}, `unknown mode "rehearse"`},
		{"record without upstream", []sandboxtest.Option{sandboxtest.WithMode(sandbox.ModeRecord), sandboxtest.WithRecordings(t.TempDir())}, "record mode needs"},
		{"policy", []sandboxtest.Option{sandboxtest.WithDepsPolicy("strict")}, `unknown policy "strict"`},
		{"limits", []sandboxtest.Option{sandboxtest.WithLimits("*=fast")}, "WithLimits"},
		{"failures", []sandboxtest.Option{sandboxtest.WithFailures("error_rate=2")}, "WithFailures"},
		{"recordings", []sandboxtest.Option{sandboxtest.WithRecordings("")}, "empty directory"},
		// A mistyped replay folder is never created silently.
		{"missing replay folder", []sandboxtest.Option{sandboxtest.WithMode(sandbox.ModeReplay), sandboxtest.WithRecordings("testdata/recordngs")},
			`replay mode: recordings folder "testdata/recordngs": no such file or directory; replay never creates it`},
		{"now", []sandboxtest.Option{sandboxtest.WithNow(time.Time{})}, "zero time"},
		{"no tools", []sandboxtest.Option{sandboxtest.WithoutBuiltin()}, "leaves no tools"},
		{"missing catalog", []sandboxtest.Option{sandboxtest.WithCatalog("testdata/no_such_tool.json")}, "no_such_tool.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := sandboxtest.Start(tc.opts...)
			if srv != nil {
				require.NoError(t, srv.Close())
			}
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestCleanupClosesTheServer(t *testing.T) {
	var addr string
	t.Run("serving", func(t *testing.T) {
		srv := sandboxtest.NewServer(t)
		u, err := url.Parse(srv.URL)
		require.NoError(t, err)
		require.Equal(t, "127.0.0.1", u.Hostname())
		addr = u.Host
		status, _, body := do(t, http.MethodGet, srv.URL+"/healthz", nil)
		require.Equal(t, http.StatusOK, status, "%s", body)
	})
	// The subtest's cleanup has run: the port refuses connections.
	var d net.Dialer
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err == nil {
		conn.Close()
	}
	require.Error(t, err, "the server still accepts connections after its test's cleanup")
}

func TestCloseTwice(t *testing.T) {
	srv, err := sandboxtest.Start()
	require.NoError(t, err)
	require.NoError(t, srv.Close())
	require.NoError(t, srv.Close())
}

func TestCloseEndsRequestsStillRunning(t *testing.T) {
	// An upstream that never answers: the call waits on it until the
	// server is closed.
	arrived, release := make(chan struct{}), make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(upstream.Close)
	t.Cleanup(func() { close(release) })
	srv, err := sandboxtest.Start(sandboxtest.WithMode(sandbox.ModeRecord), sandboxtest.WithRecordings(t.TempDir()),
		sandboxtest.WithUpstream(sandbox.NewToolBenchServer(upstream.URL, sandbox.RemoteOptions{Retries: -1})))
	require.NoError(t, err)

	type answer struct {
		status int
		body   []byte
		err    error
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := bounded.Client.Post(srv.URL+"/v1/call", "application/json", strings.NewReader(`{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"NO"}}`))
		if err != nil {
			done <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		done <- answer{resp.StatusCode, b, err}
	}()
	select {
	case <-arrived:
	case <-time.After(bounded.Timeout):
		t.Fatal("the call reached neither the upstream nor an answer")
	case got := <-done:
		// A recorded call never reaches the upstream (the shipped
		// recordings answer documented examples).
		t.Fatalf("the call was answered without the upstream: %d %s %v", got.status, got.body, got.err)
	}
	require.NoError(t, srv.Close())
	got := bounded.Recv(t, done, "the answer of the call cut by Close")
	require.NoError(t, got.err)
	require.Equal(t, http.StatusServiceUnavailable, got.status, "%s", got.body)
	require.Contains(t, string(got.body), "server closed")
}
