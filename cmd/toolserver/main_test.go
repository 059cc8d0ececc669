package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

func TestListFlags(t *testing.T) {
	const tb, pet = "../../toolset/testdata/toolbench", "../../toolset/testdata/openapi/petstore.yaml"
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string
		err  string
	}{
		{"summary", []string{"-list", "-no-builtin", "-catalog", tb, "-catalog", pet}, 0, "Catalog: 4 tools, 11 APIs", ""},
		{"json", []string{"-list", "-json", "-no-builtin", "-catalog", tb}, 0, `"standardized_name": "fare_finder"`, ""},
		{"bad path", []string{"-list", "-catalog", "nope.json"}, 1, "", "nope.json"},
		{"bad flag", []string{"-lst"}, 2, "", "flag provided but not defined: -lst\ndid you mean -list?"},
		{"help", []string{"-h"}, 0, "usage: toolserver [flags]", ""},
		{"stray argument", []string{"serve"}, 2, "", `unexpected argument "serve" (toolserver takes flags only`},
		{"bad mode", []string{"-mode", "offline"}, 2, "", "unknown mode"},
		{"record needs a key", []string{"-mode", "record", "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY"}, 2, "", "UNDERSTUDY_TEST_NO_SUCH_KEY"},
		{"bad limit", []string{"-limit", "x"}, 2, "", "-limit"},
		{"bad now", []string{"-now", "yesterday"}, 2, "", "-now"},
		{"deps json", []string{"-deps", "json"}, 0, `"pairs"`, ""},
		{"deps dot", []string{"-deps", "dot"}, 0, "digraph deps {", ""},
		{"deps bad", []string{"-deps", "svg"}, 2, "", "json or dot"},
		{"import needs cache", []string{"-import-stabletoolbench", "x"}, 2, "", "-cache"},
		// A mistyped replay folder is an error naming it, not created.
		{"replay needs its folder", []string{"-mode", "replay", "-cache", "testdata/no-such-recordings", "-deps", "json"}, 1, "", `recordings folder "testdata/no-such-recordings": no such file or directory`},
		// The -failures example of -h and docs/toolserver.md.
		{"documented failures", []string{"-failures", "latency=50ms,error_rate=0.05,seed=7;skyscanner80:rate_limit_rate=0.1", "-deps", "json"}, 0, `"pairs"`, ""},
		{"bad failures", []string{"-failures", "seed=7;skyscanner80:rate_limit_rate=0.1,latency=1s"}, 2, "", "-failures"},
		// A ToolBench-compatible server on this machine needs no key.
		{"local upstream needs no key", []string{"-mode", "record", "-upstream", "http://127.0.0.1:9/virtual", "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY", "-deps", "json"}, 0, `"pairs"`, ""},
		{"localhost upstream needs no key", []string{"-mode", "live", "-upstream", "http://localhost:9/virtual", "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY", "-deps", "json"}, 0, `"pairs"`, ""},
		{"ipv6 loopback upstream needs no key", []string{"-mode", "live", "-upstream", "http://[::1]:9/virtual", "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY", "-deps", "json"}, 0, `"pairs"`, ""},
		{"remote upstream needs a key", []string{"-mode", "live", "-upstream", "https://toolbench.example/virtual", "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY"}, 2, "", "UNDERSTUDY_TEST_NO_SUCH_KEY"},
		{"bad upstream", []string{"-mode", "live", "-upstream", "ftp://127.0.0.1/x"}, 2, "", "-upstream"},
		{"bad upstream retries", []string{"-mode", "record", "-upstream", "http://127.0.0.1:9/", "-upstream-retries", "-1"}, 2, "", "-upstream-retries"},
		{"bad upstream rate", []string{"-mode", "record", "-upstream", "http://127.0.0.1:9/", "-upstream-rate", "0"}, 2, "", "-upstream-rate"},
		// A messy ToolBench tree loads what is valid and -list says what it skipped and why.
		{"skipped files", []string{"-list", "-no-builtin", "-catalog", "../../toolset/testdata/toolbench_messy"}, 0, "Skipped tool files: 4", ""},
		{"skipped reason", []string{"-list", "-no-builtin", "-catalog", "../../toolset/testdata/toolbench_messy"}, 0, "pokemontcg copy.json: tool_name: duplicate tool", ""},
		{"serving warns of skipped files", []string{"-no-builtin", "-catalog", "../../toolset/testdata/toolbench_messy", "-deps", "json"}, 0, `"pairs"`, "skipped 4 tool files"},
		// Two APIs whose names standardize alike both load; -list says how each is called.
		{"load notes", []string{"-list", "-no-builtin", "-catalog", "../../toolset/testdata/toolbench_messy"}, 0, `dup_api: API "search" standardizes like "Search" (search): "search" calls "Search", "search_2" calls "search"`, ""},
		{"bad validation", []string{"-validation", "loose"}, 2, "", `-validation: unknown validation mode "loose"`},
		{"validation", []string{"-validation", "lenient", "-deps", "json"}, 0, `"pairs"`, ""},
		{"simulate needs a model", []string{"-simulate", "http://127.0.0.1:9/v1"}, 2, "", "-simulate-model"},
		{"simulate needs a URL", []string{"-simulate-model", "m"}, 2, "", "go together"},
		{"simulate bad URL", []string{"-simulate", "ftp://x", "-simulate-model", "m"}, 2, "", "-simulate"},
		{"simulate is not for replay", []string{"-simulate", "http://127.0.0.1:9/v1", "-simulate-model", "m", "-mode", "replay"}, 2, "", "never asks a stand-in"},
		{"simulate", []string{"-simulate", "http://127.0.0.1:9/v1", "-simulate-model", "m", "-deps", "json"}, 0, `"pairs"`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, tc.code, run(tc.args, &stdout, &stderr), stderr.String())
			require.Contains(t, stdout.String(), tc.out)
			require.Contains(t, stderr.String(), tc.err)
		})
	}
	var stdout bytes.Buffer
	require.Equal(t, 0, run([]string{"-list", "-json", "-no-builtin", "-catalog", pet}, &stdout, &bytes.Buffer{}))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &doc))
	require.EqualValues(t, 6, doc["apis"])
}

// TestServe runs the command on a real loopback port, calls it, and stops it
// the way a signal would.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		done <- runWith([]string{"-addr", "127.0.0.1:0", "-now", "2025-06-02T09:00:00Z"}, io.Discard, &stderr,
			flags{ctx: ctx, ready: func(a string) { addrc <- a }})
	}()
	var addr string
	select {
	case addr = <-addrc:
	case code := <-done:
		t.Fatalf("exited with %d: %s", code, stderr.String())
	case <-time.After(bounded.Timeout):
		t.Fatalf("not serving after %s: %s", bounded.Timeout, stderr.String())
	}
	resp, err := bounded.Client.Post("http://"+addr+"/v1/call", "application/json",
		strings.NewReader(`{"tool":"calculator","api":"calculate","arguments":{"expression":"2*(3+4)"}}`))
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, string(body))
	require.Contains(t, string(body), "14")
	cancel()
	require.Equal(t, 0, bounded.Recv(t, done, "the server to stop"), stderr.String())
}

// TestStdio speaks MCP to the command over its standard input and output.
func TestStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- runWith([]string{"-stdio"}, outW, io.Discard, flags{ctx: ctx, stdin: inR})
		outW.Close()
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := c.Connect(bounded.Context(t), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err)
	res, err := cs.CallTool(bounded.Context(t), &mcp.CallToolParams{Name: "calculate_for_calculator", Arguments: map[string]any{"expression": "6*7"}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.Contains(t, res.Content[0].(*mcp.TextContent).Text, "42")
	require.NoError(t, cs.Close())
	cancel()
	require.Equal(t, 0, bounded.Recv(t, done, "the stdio server to stop"))
}

// TestMain lets the test binary stand in for the command, so that tests can
// run it as a real subprocess with real standard input and output.
func TestMain(m *testing.M) {
	if os.Getenv("UNDERSTUDY_TOOLSERVER_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestStdioSubprocess pipes a whole session into `toolserver -stdio` and
// closes its input at once, as `printf ... | toolserver -stdio` does: bad
// lines are answered with JSON-RPC errors, every request is answered, and
// the process exits 0.
func TestStdioSubprocess(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	const (
		initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		call       = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calculate_for_calculator","arguments":{"expression":"6*7"}}}`
	)
	input := strings.Join([]string{`{"jsonrpc":"1.0","id":0,"method":"ping"}`, initialize, "garbage", "[]", "null", call}, "\n") + "\n"
	cmd := exec.Command(os.Args[0], "-stdio")
	cmd.Env = append(os.Environ(), "UNDERSTUDY_TOOLSERVER_MAIN=1")
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), stderr.String())

	var results, errs []string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var msg struct {
			ID     json.RawMessage
			Result json.RawMessage
			Error  *struct{ Code int }
		}
		require.NoError(t, json.Unmarshal([]byte(line), &msg), line)
		if msg.Error != nil {
			errs = append(errs, string(msg.ID)+":"+strconv.Itoa(msg.Error.Code))
			continue
		}
		results = append(results, string(msg.ID))
		if string(msg.ID) == "2" {
			require.Contains(t, string(msg.Result), "42")
		}
	}
	require.ElementsMatch(t, []string{"1", "2"}, results)
	require.Equal(t, []string{"0:-32600", "null:-32700", "null:-32600", "null:-32600"}, errs)
}

// syncBuffer is a bytes.Buffer the server's goroutines may write while a
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// started is a toolserver running on a loopback port.
type started struct {
	addr   string
	stderr *syncBuffer
	stop   func() int // ends it the way a signal would; the exit code
}

func start(t testing.TB, args []string, f flags) *started {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan int, 1)
	s := &started{stderr: &syncBuffer{}}
	f.ctx, f.ready = ctx, func(a string) { addrc <- a }
	go func() { done <- runWith(append([]string{"-addr", "127.0.0.1:0"}, args...), io.Discard, s.stderr, f) }()
	select {
	case s.addr = <-addrc:
	case code := <-done:
		cancel()
		t.Fatalf("exited with %d: %s", code, s.stderr.String())
	case <-time.After(bounded.Timeout):
		cancel()
		t.Fatalf("not serving after %s: %s", bounded.Timeout, s.stderr.String())
	}
	stopped := false
	s.stop = func() int {
		stopped = true
		cancel()
		return bounded.Recv(t, done, "the server to stop")
	}
	t.Cleanup(func() {
		if !stopped {
			s.stop()
		}
	})
	return s
}

// toolbenchUpstream is a loopback ToolBench-compatible server (the shape
// of StableToolBench's /virtual) answering calculator calls with answer.
func toolbenchUpstream(t *testing.T, answer func(w http.ResponseWriter, expression string)) *httptest.Server {
	t.Helper()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ToolInput string `json:"tool_input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var in struct {
			Expression string `json:"expression"`
		}
		_ = json.Unmarshal([]byte(req.ToolInput), &in)
		answer(w, in.Expression)
	}))
	t.Cleanup(up.Close)
	return up
}

func writeEnvelope(w http.ResponseWriter, status int, errText string, response any) {
	text, _ := json.Marshal(response)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": errText, "response": string(text)})
}

// TestShutdownAnswersEveryCall stops a record-mode server while 64 calls
// wait on a slow upstream and on the upstream's rate (5/s, so most of
// them cannot get their turn before the 4 s deadline). Every call must get
// an HTTP answer, either the upstream's or a 503 naming the shutdown, and
// the command must exit 0. The upstream's answers are recorded.
func TestShutdownAnswersEveryCall(t *testing.T) {
	release := make(chan struct{})
	up := toolbenchUpstream(t, func(w http.ResponseWriter, expression string) {
		<-release
		writeEnvelope(w, http.StatusOK, "", map[string]any{"result": expression})
	})
	// The upstream's Close waits for its handlers: release them first
	// (cleanups run last registered first) should the test fail before.
	var released sync.Once
	t.Cleanup(func() { released.Do(func() { close(release) }) })
	var inFlight atomic.Int64
	dir := t.TempDir()
	s := start(t, []string{"-mode", "record", "-upstream", up.URL, "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY", "-upstream-rate", "5", "-cache", dir},
		flags{shutdownWithin: 4 * time.Second, inFlight: &inFlight})

	const n = 64
	type outcome struct {
		status int
		body   string
		err    error
	}
	outcomes := make(chan outcome, n)
	for i := range n {
		go func() {
			body := fmt.Sprintf(`{"tool":"calculator","api":"calculate","arguments":{"expression":"%d+1"}}`, i)
			resp, err := bounded.Client.Post("http://"+s.addr+"/v1/call", "application/json", strings.NewReader(body))
			if err != nil {
				outcomes <- outcome{err: err}
				return
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			outcomes <- outcome{status: resp.StatusCode, body: string(b), err: err}
		}()
	}
	require.Eventually(t, func() bool { return inFlight.Load() == n }, time.Minute, time.Millisecond, "all calls reach the server")
	released.Do(func() { close(release) })
	require.Equal(t, 0, s.stop(), s.stderr.String())

	byStatus := map[int]int{}
	for range n {
		o := bounded.Recv(t, outcomes, "every call's answer")
		require.NoError(t, o.err, "a call was cut off")
		byStatus[o.status]++
		switch o.status {
		case http.StatusOK:
			require.Contains(t, o.body, `"source":"remote"`)
		case http.StatusServiceUnavailable:
			require.Contains(t, o.body, "shutting down")
		default:
			t.Fatalf("unexpected answer %d: %s", o.status, o.body)
		}
	}
	t.Logf("answers by status: %v", byStatus)
	require.Positive(t, byStatus[http.StatusOK], "calls that could finish did")
	require.Positive(t, byStatus[http.StatusServiceUnavailable], "calls that could not were answered")
	require.Contains(t, s.stderr.String(), "64 requests in flight")
	require.NotContains(t, s.stderr.String(), "recording failed")
	index, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	require.NoError(t, err)
	require.Equal(t, byStatus[http.StatusOK], bytes.Count(index, []byte("\n")), "every upstream answer was recorded")
}

// TestSimulatedRateLimitSendsRetryAfter checks that a 429 of -failures
// carries Retry-After where the API's status is the HTTP status (the
// RapidAPI wire) and in the answer of /v1/call.
func TestSimulatedRateLimitSendsRetryAfter(t *testing.T) {
	s := start(t, []string{"-failures", "seed=7;calculator:rate_limit_rate=1,calculator:retry_after=2500ms"}, flags{})
	req, err := http.NewRequest(http.MethodGet, "http://"+s.addr+"/calculate?expression=6*7", nil)
	require.NoError(t, err)
	req.Header.Set("X-RapidAPI-Host", "calculator.understudy.test")
	resp, err := bounded.Client.Do(req)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode, string(body))
	require.Equal(t, "3", resp.Header.Get("Retry-After"))

	resp, err = bounded.Client.Post("http://"+s.addr+"/v1/call", "application/json",
		strings.NewReader(`{"tool":"calculator","api":"calculate","arguments":{"expression":"6*7"}}`))
	require.NoError(t, err)
	var res struct {
		Status int                 `json:"status"`
		Header map[string][]string `json:"header"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&res))
	resp.Body.Close()
	require.Equal(t, http.StatusTooManyRequests, res.Status)
	require.Equal(t, []string{"3"}, res.Header["Retry-After"])
}

// leakKey has the characters on which a key's encodings differ.
const leakKey = "tb-Key/9f8e+7d6c<&>5b4a3"

// keyForms are the forms of the key that must not come out anywhere.
func keyForms() []string {
	goJSON, _ := json.Marshal(leakKey)
	return []string{
		leakKey,
		url.QueryEscape(leakKey),
		url.PathEscape(leakKey),
		base64.StdEncoding.EncodeToString([]byte(leakKey)),
		base64.StdEncoding.EncodeToString([]byte("user:" + leakKey)),
		strings.Trim(string(goJSON), `"`),
	}
}

func requireNoKey(t *testing.T, where, text string) {
	t.Helper()
	for _, f := range keyForms() {
		require.NotContains(t, text, f, where)
	}
	// Decoded JSON strings, nested as text up to ToolBench's two levels.
	for range 2 {
		var s string
		if json.Unmarshal([]byte(text), &s) != nil {
			break
		}
		text = s
		require.NotContains(t, text, leakKey, where)
	}
}

// TestKeyNeverLeaksOnAnyTransport runs the command in record and live
// modes against a loopback ToolBench-compatible upstream that echoes the
// key (as sent, as a Bearer and a Basic credential, URL-encoded) in 200,
// 429 and 500 answers and in its error field, and calls it over all four
// transports: /v1/call, /virtual and /rapidapi, the RapidAPI wire and MCP.
// No answer, no recording on disk and no log line may show the key.
func TestKeyNeverLeaksOnAnyTransport(t *testing.T) {
	t.Setenv("UNDERSTUDY_TEST_LEAK_KEY", leakKey)
	echo := map[string]any{
		"result":  "ok",
		"headers": map[string]any{"Authorization": "Bearer " + leakKey, "Proxy-Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+leakKey))},
		"url":     "http://api.example/?key=" + url.QueryEscape(leakKey),
	}
	up := toolbenchUpstream(t, func(w http.ResponseWriter, expression string) {
		switch {
		case strings.HasPrefix(expression, "1+"):
			writeEnvelope(w, http.StatusOK, "", echo)
		case strings.HasPrefix(expression, "2+"):
			writeEnvelope(w, http.StatusOK, "invalid toolbench_key "+leakKey, "")
		case strings.HasPrefix(expression, "3+"):
			w.Header().Set("Retry-After", "1")
			writeEnvelope(w, http.StatusTooManyRequests, "rate limit for key "+leakKey, echo)
		default:
			writeEnvelope(w, http.StatusInternalServerError, "upstream broke with key "+leakKey, echo)
		}
	})
	type transport func(t *testing.T, addr, expression string) string
	post := func(path, body string) transport {
		return func(t *testing.T, addr, expression string) string {
			resp, err := bounded.Client.Post("http://"+addr+path, "application/json", strings.NewReader(fmt.Sprintf(body, expression)))
			require.NoError(t, err)
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			return resp.Header.Get("Retry-After") + " " + string(b)
		}
	}
	transports := map[string]transport{
		"v1":       post("/v1/call", `{"tool":"calculator","api":"calculate","arguments":{"expression":%q}}`),
		"virtual":  post("/virtual", `{"tool_name":"calculator","api_name":"calculate","tool_input":{"expression":%q}}`),
		"rapidapi": post("/rapidapi", `{"tool_name":"calculator","api_name":"calculate","tool_input":{"expression":%q}}`),
		"wire": func(t *testing.T, addr, expression string) string {
			req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/calculate?expression="+url.QueryEscape(expression), nil)
			require.NoError(t, err)
			req.Header.Set("X-RapidAPI-Host", "calculator.understudy.test")
			resp, err := bounded.Client.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			return string(b)
		},
		"mcp": func(t *testing.T, addr, expression string) string {
			c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
			require.NoError(t, err)
			defer cs.Close()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "calculate_for_calculator", Arguments: map[string]any{"expression": expression}})
			if err != nil {
				return err.Error()
			}
			b, err := json.Marshal(res)
			require.NoError(t, err)
			return string(b)
		},
	}
	for _, mode := range []string{"record", "live"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			s := start(t, []string{"-mode", mode, "-cache", dir, "-upstream", up.URL, "-key-env", "UNDERSTUDY_TEST_LEAK_KEY", "-upstream-rate", "1000", "-upstream-retries", "0"}, flags{})
			i := 0
			for name, call := range transports {
				for _, kind := range []string{"1", "2", "3", "4"} {
					i++
					// A fresh expression each time, so that record mode asks the upstream.
					answer := call(t, s.addr, fmt.Sprintf("%s+%d", kind, i))
					requireNoKey(t, name+" "+kind+" answer", answer)
					if kind == "1" {
						require.Contains(t, answer, "REDACTED", "%s: the echo was scrubbed, not dropped: %s", name, answer)
					}
				}
			}
			require.Equal(t, 0, s.stop())
			requireNoKey(t, "log", s.stderr.String())
			recorded := 0
			require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
				require.NoError(t, err)
				if info.IsDir() {
					return nil
				}
				data, err := os.ReadFile(p)
				require.NoError(t, err)
				requireNoKey(t, p, string(data))
				if filepath.Ext(p) == ".json" {
					recorded++
				}
				return nil
			}))
			if mode == "record" {
				require.Equal(t, len(transports), recorded, "the one 200 echo per transport was recorded")
			}
		})
	}
}

// TestShutdownEndsIdleEventStreams stops a server while an MCP client holds
// its event stream (GET /mcp) open with no call running: the stream must
// end when shutdown starts, not hold it up to the deadline.
func TestShutdownEndsIdleEventStreams(t *testing.T) {
	s := start(t, nil, flags{shutdownWithin: time.Minute})
	mcpPost := func(sid, body string) string {
		req, err := http.NewRequest(http.MethodPost, "http://"+s.addr+"/mcp", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		resp, err := bounded.Client.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		require.Less(t, resp.StatusCode, 300)
		return resp.Header.Get("Mcp-Session-Id")
	}
	sid := mcpPost("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	require.NotEmpty(t, sid)
	mcpPost(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	req, err := http.NewRequest(http.MethodGet, "http://"+s.addr+"/mcp", nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	resp, err := bounded.Client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	streamEnded := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, resp.Body); streamEnded <- err }()

	code := make(chan int, 1)
	go func() { code <- s.stop() }()
	select {
	case c := <-code:
		require.Equal(t, 0, c, s.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("an idle event stream held shutdown up")
	}
	require.NoError(t, bounded.Recv(t, streamEnded, "the event stream to end"), "the stream ended cleanly")
	require.Contains(t, s.stderr.String(), "0 requests in flight")
}

// TestUnknownDependencySource: a catalog whose x-depends names an API it
// lacks does not start, and the error says so and what to do; with
// -deps-policy off the annotation is left out and the catalog serves.
func TestUnknownDependencySource(t *testing.T) {
	dir := t.TempDir()
	tool := `{"tool_name": "Orphan", "tool_description": "d", "api_list": [{"name": "detail", "url": "https://orphan.p.rapidapi.com/detail", "method": "GET", "description": "d",
		"required_parameters": [{"name": "id", "type": "STRING", "description": "an id", "x-depends": {"api": "search", "path": "id"}}], "optional_parameters": []}]}`
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "Data"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "Data", "orphan.json"), []byte(tool), 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 1, run([]string{"-no-builtin", "-catalog", dir, "-deps", "json"}, &stdout, &stderr))
	require.Contains(t, stderr.String(), "toolserver: cannot start, nothing served: dependency graph: orphan.detail: parameter id: x-depends[0] names orphan.search, which is not in the catalog (load the tool that has it with another -catalog, correct or remove the annotation, or run with -deps-policy off")
	stdout.Reset()
	stderr.Reset()
	require.Equal(t, 0, run([]string{"-no-builtin", "-catalog", dir, "-deps-policy", "off", "-deps", "json"}, &stdout, &stderr), stderr.String())
	require.Contains(t, stdout.String(), `"edges"`)
}
