package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// newServer starts the full stack on a real loopback listener.
func newServer(t testing.TB, cfg assemble.Config) (*httptest.Server, *assemble.Stack) {
	t.Helper()
	st, err := assemble.Build(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	mcpSrv := server.MCPServer(st.Engine, "test")
	h, err := server.New(st.Engine, server.Options{Deps: st.Graph, MCP: server.MCPHandler(mcpSrv), MaxBody: 64 << 10})
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts, st
}

// noRedirects shows a redirect as it is answered.
var noRedirects = &http.Client{Timeout: bounded.Timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func do(t testing.TB, method, url, contentType, body string, hdr map[string]string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := noRedirects.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, b
}

const imageURL = "https://images.understudy.test/product_laptop.jpg"

// TestTransportsAgree sends the same call through the native endpoint,
// StableToolBench's /virtual, ToolBench's /rapidapi, the RapidAPI wire and
// MCP, and requires the same payload from each.
func TestTransportsAgree(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})

	code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json",
		`{"tool":"image_file_processing","api":"resize_image","arguments":{"image_url":"`+imageURL+`","width":160}}`, nil)
	require.Equal(t, 200, code, string(body))
	var native struct {
		Response json.RawMessage `json:"response"`
		Source   string          `json:"source"`
		Status   int             `json:"status"`
	}
	require.NoError(t, json.Unmarshal(body, &native))
	require.Equal(t, "mock", native.Source)
	require.Equal(t, 200, native.Status)
	require.Contains(t, string(native.Response), "output_url")

	for _, path := range []string{"/virtual", "/rapidapi"} {
		// tool_input as a JSON string with the number as a string, the way ToolBench clients send it.
		code, _, body = do(t, "POST", ts.URL+path, "application/json",
			`{"category":"Media","tool_name":"image_file_processing","api_name":"resize_image","tool_input":"{\"image_url\": \"`+imageURL+`\", \"width\": \"160\"}","strip":"","toolbench_key":"k"}`, nil)
		require.Equal(t, 200, code)
		var tb struct {
			Error    string          `json:"error"`
			Response json.RawMessage `json:"response"`
		}
		require.NoError(t, json.Unmarshal(body, &tb))
		require.Empty(t, tb.Error)
		require.JSONEq(t, string(native.Response), string(tb.Response), path)
	}

	code, hdr, body := do(t, "GET", ts.URL+"/v1/resize?image_url="+imageURL+"&width=160", "", "",
		map[string]string{"X-RapidAPI-Host": "image-file-processing.understudy.test", "X-RapidAPI-Key": "k"})
	require.Equal(t, 200, code, string(body))
	require.Equal(t, "mock", hdr.Get("X-Understudy-Source"))
	require.JSONEq(t, string(native.Response), string(body))

	cs := mcpClient(t, ts.URL+"/mcp")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name:      toolset.ExportName(apiOf(t, "image_file_processing", "resize_image"), toolset.NameToolBench),
		Arguments: map[string]any{"image_url": imageURL, "width": 160},
	})
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.JSONEq(t, string(native.Response), res.Content[0].(*mcp.TextContent).Text)

	// Wrong types. MCP clients were handed the inputSchema, so a number
	// for a string is a validation error there, worded as the native
	// endpoint words a type it refuses; the ToolBench-wire leniencies (5
	// for a string, "160" for a number) are for ToolBench's clients.
	calc := toolset.ExportName(apiOf(t, "calculator", "calculate"), toolset.NameToolBench)
	for _, tc := range []struct {
		name   string
		args   map[string]any
		native string // the same arguments on /v1/call
		want   string
	}{
		{"a number for a string", map[string]any{"expression": 42}, `{"expression":[42]}`, `expression: expected a string, got a number`},
		{"a boolean for a string", map[string]any{"expression": true}, `{"expression":{"a":1}}`, `expression: expected a string, got a boolean`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: calc, Arguments: tc.args})
			require.NoError(t, err)
			require.True(t, res.IsError, "%v", res.Content)
			text := res.Content[0].(*mcp.TextContent).Text
			require.Contains(t, text, tc.want)
			require.Contains(t, text, "calculator.calculate")

			code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json", `{"tool":"calculator","api":"calculate","arguments":`+tc.native+`}`, nil)
			require.Equal(t, http.StatusBadRequest, code, string(body))
			var p struct{ Detail string }
			require.NoError(t, json.Unmarshal(body, &p))
			require.Contains(t, p.Detail, strings.SplitN(tc.want, ", got", 2)[0], "the same wording")
		})
	}
}

// TestTransportsAgreeOnLenientCalls sends a call with an undocumented
// argument and a placeholder through every transport: in lenient mode
// each answers what the clean call gets and carries the same warnings (the
// native envelope's "warnings" and X-Understudy-Warning on HTTP, _meta on
// MCP); in strict mode each refuses it.
func TestTransportsAgreeOnLenientCalls(t *testing.T) {
	want := []string{
		`placeholder height: the string "" is not a number: taken as not given`,
		`undocumented note: argument "note" is not documented and is ignored; the API takes: image_url, width, height, keep_aspect`,
	}
	mcpName := toolset.ExportName(apiOf(t, "image_file_processing", "resize_image"), toolset.NameToolBench)
	wire := map[string]string{"X-RapidAPI-Host": "image-file-processing.understudy.test", "X-RapidAPI-Key": "k"}
	for _, mode := range []toolset.ValidationMode{toolset.Lenient, toolset.Strict} {
		t.Run(string(mode), func(t *testing.T) {
			ts, _ := newServer(t, assemble.Config{Validation: mode})
			// The clean call's answer, in either mode.
			code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json",
				`{"tool":"image_file_processing","api":"resize_image","arguments":{"image_url":"`+imageURL+`","width":160}}`, nil)
			require.Equal(t, 200, code, string(body))
			var clean struct {
				Response json.RawMessage `json:"response"`
			}
			require.NoError(t, json.Unmarshal(body, &clean))

			code, hdr, body := do(t, "POST", ts.URL+"/v1/call", "application/json",
				`{"tool":"image_file_processing","api":"resize_image","arguments":{"image_url":"`+imageURL+`","width":160,"height":"","note":"hi"}}`, nil)
			if mode == toolset.Strict {
				require.Equal(t, 400, code, string(body))
				require.Contains(t, string(body), `"unknown"`)
			} else {
				require.Equal(t, 200, code, string(body))
				var native struct {
					Response json.RawMessage     `json:"response"`
					Warnings []toolset.Violation `json:"warnings"`
				}
				require.NoError(t, json.Unmarshal(body, &native))
				require.JSONEq(t, string(clean.Response), string(native.Response))
				require.Len(t, native.Warnings, 2)
				require.Equal(t, want, hdr.Values(server.WarningHeader))
			}

			for _, path := range []string{"/virtual", "/rapidapi"} {
				code, hdr, body = do(t, "POST", ts.URL+path, "application/json",
					`{"category":"Media","tool_name":"image_file_processing","api_name":"resize_image","tool_input":"{\"image_url\": \"`+imageURL+`\", \"width\": \"160\", \"height\": \"\", \"note\": \"hi\"}"}`, nil)
				require.Equal(t, 200, code)
				var tb struct {
					Error    string          `json:"error"`
					Response json.RawMessage `json:"response"`
				}
				require.NoError(t, json.Unmarshal(body, &tb))
				if mode == toolset.Strict {
					require.Contains(t, tb.Error, "note", path)
					continue
				}
				require.Empty(t, tb.Error, path)
				require.JSONEq(t, string(clean.Response), string(tb.Response), path)
				require.Equal(t, want, hdr.Values(server.WarningHeader), path)
			}

			code, hdr, body = do(t, "GET", ts.URL+"/v1/resize?image_url="+imageURL+"&width=160&height=&note=hi", "", "", wire)
			if mode == toolset.Strict {
				require.Equal(t, 400, code, string(body))
			} else {
				require.Equal(t, 200, code, string(body))
				require.JSONEq(t, string(clean.Response), string(body))
				require.Equal(t, want, hdr.Values(server.WarningHeader))
			}

			cs := mcpClient(t, ts.URL+"/mcp")
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpName,
				Arguments: map[string]any{"image_url": imageURL, "width": 160, "height": "", "note": "hi"}})
			require.NoError(t, err)
			if mode == toolset.Strict {
				require.True(t, res.IsError)
				require.Contains(t, res.Content[0].(*mcp.TextContent).Text, "note")
				return
			}
			require.False(t, res.IsError, res.Content[0].(*mcp.TextContent).Text)
			require.JSONEq(t, string(clean.Response), res.Content[0].(*mcp.TextContent).Text)
			meta, err := json.Marshal(res.Meta[server.MCPWarningsKey])
			require.NoError(t, err)
			var ws []toolset.Violation
			require.NoError(t, json.Unmarshal(meta, &ws))
			var got []string
			for _, w := range ws {
				got = append(got, w.Code+" "+strings.Join(w.Location, ".")+": "+w.Message)
			}
			require.Equal(t, want, got)
		})
	}
}

func apiOf(t testing.TB, tool, api string) *toolset.API {
	c, err := loader.Builtin()
	require.NoError(t, err)
	a := c.API(tool, api)
	require.NotNil(t, a)
	return a
}

func mcpClient(t testing.TB, endpoint string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func TestMCPListsToolsAndReportsErrors(t *testing.T) {
	ts, st := newServer(t, assemble.Config{})
	cs := mcpClient(t, ts.URL+"/mcp")
	n := 0
	for tool, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		require.NotNil(t, tool.InputSchema)
		n++
	}
	require.Equal(t, len(st.Catalog.APIs()), n)

	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name:      toolset.ExportName(apiOf(t, "image_file_processing", "resize_image"), toolset.NameToolBench),
		Arguments: map[string]any{"image_url": imageURL, "width": "wide"},
	})
	require.NoError(t, err)
	require.True(t, res.IsError)
	require.Contains(t, res.Content[0].(*mcp.TextContent).Text, "width")
}

func TestProblems(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	cases := []struct {
		name, method, path, ctype, body string
		hdr                             map[string]string
		status                          int
		contains                        []string
	}{
		{"malformed json", "POST", "/v1/call", "application/json", `{"tool": "calculator",`, nil, 400, []string{"malformed-json"}},
		{"trailing data", "POST", "/v1/call", "application/json", `{"api":"x"} {}`, nil, 400, []string{"unexpected data"}},
		{"wrong content type", "POST", "/v1/call", "multipart/form-data; boundary=x", `{}`, nil, 415, []string{"unsupported-media-type"}},
		{"unparsable content type", "POST", "/v1/call", "application/json; =", `{}`, nil, 415, []string{"unsupported-media-type"}},
		// Default types of clients whose caller named none: the body decides.
		{"curl -d default type, not json", "POST", "/v1/call", "application/x-www-form-urlencoded", `api=x&tool=y`, nil, 400, []string{"malformed-json"}},
		{"text/plain, not json", "POST", "/v1/call", "text/plain", `hello`, nil, 400, []string{"malformed-json"}},
		// Router refusals are problems like the rest.
		{"no route", "GET", "/v2/nothing", "", "", nil, 404, []string{"/problems/no-route", "/v2/nothing"}},
		{"wrong method", "GET", "/v1/call", "", "", nil, 405, []string{"/problems/method-not-allowed", "allowed: POST"}},
		{"dot-dot redirect", "GET", "/v1/../healthz", "", "", nil, 307, []string{"/problems/moved", "/healthz"}},
		{"double slash redirect", "POST", "//v1/call", "application/json", `{}`, nil, 307, []string{"/problems/moved", "/v1/call"}},
		// Names and IDs are bounded before any lookup, and not echoed whole.
		{"huge api name", "POST", "/v1/call", "application/json", `{"tool":"image_file_processing","api":"` + strings.Repeat("resize_imag", 4000) + `"}`, nil, 400, []string{"/problems/too-long", "44000 bytes long (at most 256)"}},
		{"huge tool name", "POST", "/v1/call", "application/json", `{"tool":"` + strings.Repeat("t", 300) + `","api":"x"}`, nil, 400, []string{"/problems/too-long", `\"tool\" is 300 bytes`}},
		{"huge session field", "POST", "/v1/call", "application/json", `{"api":"calculate_for_calculator","session":"` + strings.Repeat("s", 257) + `"}`, nil, 400, []string{"/problems/too-long", "session ID is 257 bytes"}},
		{"huge session header", "POST", "/v1/call", "application/json", `{"api":"calculate_for_calculator"}`, map[string]string{"X-Session-Id": strings.Repeat("s", 5000)}, 400, []string{"X-Session-Id header is 5000 bytes"}},
		{"huge session header on the wire", "GET", "/countries/PT", "", "", map[string]string{"X-RapidAPI-Host": "iso-codes.understudy.test", "X-Session-Id": strings.Repeat("s", 300)}, 400, []string{"/problems/too-long"}},
		{"huge mcp session header", "POST", "/mcp", "application/json", `{}`, map[string]string{"Mcp-Session-Id": strings.Repeat("s", 300)}, 400, []string{"/problems/too-long"}},
		{"huge mcp tool name", "POST", "/mcp", "application/json", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + strings.Repeat("n", 5000) + `","arguments":{}}}`, nil, 400, []string{"/problems/too-long", "tool name is 5000 bytes"}},
		{"huge session path", "GET", "/v1/sessions/" + strings.Repeat("s", 300), "", "", nil, 400, []string{"/problems/too-long"}},
		{"huge headers", "GET", "/healthz", "", "", map[string]string{"X-Padding": strings.Repeat("p", 70<<10)}, 431, []string{"/problems/headers-too-large"}},
		// Browsers of other sites are refused on every transport.
		{"cross-origin form post", "POST", "/virtual", "text/plain", `{"tool_name":"calculator","api_name":"calculate","tool_input":{"expression":"1+1"}}`, map[string]string{"Origin": "https://evil.example"}, 403, []string{"/problems/cross-origin"}},
		{"cross-site fetch without origin", "POST", "/v1/call", "text/plain", `{"api":"calculate_for_calculator"}`, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, []string{"/problems/cross-origin"}},
		{"cross-origin on the wire", "POST", "/run", "text/plain", `{"code":"1"}`, map[string]string{"Origin": "http://localhost:3000", "X-RapidAPI-Host": "python-interpreter.understudy.test"}, 403, []string{"/problems/cross-origin"}},
		{"cross-origin on mcp", "POST", "/mcp", "application/json", `{}`, map[string]string{"Origin": "null"}, 403, []string{"/problems/cross-origin"}},
		{"foreign host", "GET", "/healthz", "", "", map[string]string{"Host": "rebound.example:80"}, 403, []string{"/problems/foreign-host", "rebound.example"}},
		{"oversized body", "POST", "/v1/call", "application/json", `{"api":"` + strings.Repeat("x", 70<<10) + `"}`, nil, 413, []string{"body-too-large"}},
		{"missing api", "POST", "/v1/call", "application/json", `{"tool":"image_file_processing"}`, nil, 400, []string{`\"api\" is required`}},
		{"arguments not an object", "POST", "/v1/call", "application/json", `{"tool":"image_file_processing","api":"image_info","arguments":[1]}`, nil, 400, []string{"JSON object"}},
		{"unknown api", "POST", "/v1/call", "application/json", `{"tool":"image_file_processing","api":"resize_imgae","arguments":{}}`, nil, 404, []string{"unknown-api", "image_file_processing.resize_image"}},
		{"path traversal name", "POST", "/v1/call", "application/json", `{"tool":"../../etc/passwd","api":"x","arguments":{}}`, nil, 404, []string{"unknown-api"}},
		{"invalid arguments", "POST", "/v1/call", "application/json", `{"tool":"image_file_processing","api":"resize_image","arguments":{"width":"wide","bogus":1}}`, nil, 400,
			[]string{`"validation"`, `"required"`, `"unknown"`, `"image_url"`, `"width"`}},
		{"unknown session", "GET", "/v1/sessions/nope", "", "", nil, 404, []string{"unknown-session"}},
		{"unknown tools format", "GET", "/v1/tools?format=yaml", "", "", nil, 400, []string{"bad-format"}},
		{"unknown rapidapi host", "GET", "/anything", "", "", map[string]string{"X-RapidAPI-Host": "nope.p.rapidapi.com"}, 404, []string{"unknown-host"}},
		{"rapidapi wire refused in the engine's words", "GET", "/v1/resize?width=wide", "", "", map[string]string{"X-RapidAPI-Host": "image-file-processing.understudy.test"}, 400,
			[]string{`"validation"`, `required argument \"image_url\" is missing`, `width: expected a number, got the string \"wide\"`}},
		{"unknown rapidapi path", "GET", "/v1/nothing", "", "", map[string]string{"X-RapidAPI-Host": "image-file-processing.understudy.test"}, 404, []string{"unknown-endpoint"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, hdr, body := do(t, tc.method, ts.URL+tc.path, tc.ctype, tc.body, tc.hdr)
			require.Equal(t, tc.status, code, string(body))
			require.Equal(t, "application/problem+json", hdr.Get("Content-Type"))
			var p map[string]any
			require.NoError(t, json.Unmarshal(body, &p))
			require.EqualValues(t, tc.status, p["status"])
			require.NotEmpty(t, p["detail"])
			for _, s := range tc.contains {
				require.Contains(t, string(body), s)
			}
		})
	}
}

func TestToolBenchErrorsKeepTheirShape(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	cases := []struct{ body, want string }{
		{`{"category":"Media","tool_name":"image_file_processing","api_name":"resize_image","tool_input":"{\"width\": \"wide\"}"}`, "invalid arguments for image_file_processing.resize_image: "},
		{`{"category":"Media","tool_name":"no_tool","api_name":"resize_image","tool_input":""}`, "Unknown API"},
		{`{"category":"Media","tool_name":"image_file_processing","api_name":"image_info","tool_input":"{not json"}`, "arguments"},
		{`not json at all`, "Malformed"},
	}
	for _, tc := range cases {
		code, _, body := do(t, "POST", ts.URL+"/virtual", "application/json", tc.body, nil)
		require.Equal(t, 200, code)
		var tb map[string]any
		require.NoError(t, json.Unmarshal(body, &tb))
		require.Len(t, tb, 2, string(body))
		require.Contains(t, tb["error"], tc.want)
	}
	// strip=truncate cuts long answers to 2048 characters, as ToolBench does.
	code, _, body := do(t, "POST", ts.URL+"/virtual", "application/json",
		`{"category":"Media","tool_name":"web_search","api_name":"image_search","tool_input":{"q":"street sign","num":10},"strip":"truncate"}`, nil)
	require.Equal(t, 200, code)
	var tb struct {
		Response any `json:"response"`
	}
	require.NoError(t, json.Unmarshal(body, &tb))
	if s, ok := tb.Response.(string); ok {
		require.LessOrEqual(t, len([]rune(s)), 2048)
	}
}

func TestReadEndpoints(t *testing.T) {
	ts, st := newServer(t, assemble.Config{})
	code, _, body := do(t, "GET", ts.URL+"/healthz", "", "", nil)
	require.Equal(t, 200, code)
	require.Contains(t, string(body), `"status":"ok"`)

	code, _, body = do(t, "GET", ts.URL+"/v1/catalog", "", "", nil)
	require.Equal(t, 200, code)
	require.True(t, json.Valid(body))
	require.Contains(t, string(body), "image_file_processing")

	code, _, body = do(t, "GET", ts.URL+"/v1/tools?format=openai&naming=toolbench", "", "", nil)
	require.Equal(t, 200, code)
	var tools []toolset.OpenAITool
	require.NoError(t, json.Unmarshal(body, &tools))
	require.Len(t, tools, len(st.Catalog.APIs()))
	require.Contains(t, string(body), "resize_image_for_image_file_processing")

	code, _, body = do(t, "GET", ts.URL+"/v1/deps", "", "", nil)
	require.Equal(t, 200, code)
	require.Contains(t, string(body), `"pairs"`)
	code, hdr, body := do(t, "GET", ts.URL+"/v1/deps?format=dot", "", "", nil)
	require.Equal(t, 200, code)
	require.Contains(t, hdr.Get("Content-Type"), "graphviz")
	require.True(t, bytes.HasPrefix(body, []byte("digraph deps {")))

	do(t, "POST", ts.URL+"/v1/call", "application/json", `{"tool":"image_file_processing","api":"image_info","arguments":{"image_url":"`+imageURL+`"},"session":"trace-me"}`, nil)
	code, _, body = do(t, "GET", ts.URL+"/v1/sessions/trace-me", "", "", nil)
	require.Equal(t, 200, code)
	require.Contains(t, string(body), `"api":"image_info"`)

	code, _, body = do(t, "GET", ts.URL+"/metrics", "", "", nil)
	require.Equal(t, 200, code)
	require.Contains(t, string(body), `understudy_calls_total{tool="image_file_processing",api="image_info",outcome="mock"} 1`)
}

// TestRateLimitedProblem: a used-up allowance is a 429 problem that says
// when to retry, in the header and the body.
func TestRateLimitedProblem(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{Limits: map[string]sandbox.Limit{"*": {PerSecond: 0.001, Burst: 1}}})
	call := func() (int, http.Header, []byte) {
		return do(t, "POST", ts.URL+"/v1/call", "application/json", `{"tool":"calculator","api":"calculate","arguments":{"expression":"1+1"}}`, nil)
	}
	code, _, body := call()
	require.Equal(t, 200, code, string(body))
	code, hdr, body := call()
	require.Equal(t, 429, code, string(body))
	require.Equal(t, "application/problem+json", hdr.Get("Content-Type"))
	secs, err := strconv.Atoi(hdr.Get("Retry-After"))
	require.NoError(t, err)
	require.Greater(t, secs, 100)
	var p struct {
		Type       string `json:"type"`
		RetryAfter int    `json:"retry_after"`
	}
	require.NoError(t, json.Unmarshal(body, &p))
	require.True(t, strings.HasSuffix(p.Type, "/problems/rate-limited"), p.Type)
	require.Equal(t, secs, p.RetryAfter)
}

// TestOneContentTypeRule: a body declared as JSON, not declared, or sent
// with a client's default type (curl -d's form type, fetch's text/plain) is
// read as JSON alike on /v1/call, /virtual and /rapidapi; any other
// declared type is refused by each in its way.
func TestOneContentTypeRule(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	const native = `{"tool":"calculator","api":"calculate","arguments":{"expression":"6*7"}}`
	const toolbench = `{"tool_name":"calculator","api_name":"calculate","tool_input":{"expression":"6*7"}}`
	for _, tc := range []struct {
		ctype    string
		accepted bool
	}{
		{"", true},
		{"application/json", true},
		{"application/json; charset=utf-8", true},
		{"application/vnd.api+json", true},
		{"application/x-www-form-urlencoded", true},
		{"text/plain;charset=UTF-8", true},
		{"multipart/form-data; boundary=x", false},
		{"application/xml", false},
		{"text/html", false},
		{"not a media type", false},
	} {
		t.Run(tc.ctype, func(t *testing.T) {
			code, _, body := do(t, "POST", ts.URL+"/v1/call", tc.ctype, native, nil)
			var tb struct{ Error string }
			if tc.accepted {
				require.Equal(t, 200, code, string(body))
				require.Contains(t, string(body), `"result":42`)
			} else {
				require.Equal(t, 415, code, string(body))
				require.Contains(t, string(body), "/problems/unsupported-media-type")
			}
			for _, path := range []string{"/virtual", "/rapidapi"} {
				code, _, body = do(t, "POST", ts.URL+path, tc.ctype, toolbench, nil)
				require.Equal(t, 200, code, "ToolBench's servers always answer 200")
				require.NoError(t, json.Unmarshal(body, &tb))
				if tc.accepted {
					require.Empty(t, tb.Error, string(body))
					require.Contains(t, string(body), `"result":42`)
				} else {
					require.Contains(t, tb.Error, "is not JSON", string(body))
				}
			}
		})
	}
}

// TestStatusPassthrough: /v1/call answers an API's refusal with HTTP 200
// and the API's status inside; X-Understudy-Status: passthrough makes that
// status the HTTP status, with the same body.
func TestStatusPassthrough(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	for _, tc := range []struct {
		name, body, header string
		http, inside       int
	}{
		{"refusal, default", `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"ZZ"}}`, "", 200, 404},
		{"refusal, passthrough", `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"ZZ"}}`, "passthrough", 404, 404},
		{"refusal, passthrough any case", `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"ZZ"}}`, " PassThrough ", 404, 404},
		{"refusal, unknown value", `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"ZZ"}}`, "wrapped", 200, 404},
		{"success, passthrough", `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"PT"}}`, "passthrough", 200, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tc.header != "" {
				hdr[server.StatusHeader] = tc.header
			}
			code, h, body := do(t, "POST", ts.URL+"/v1/call", "application/json", tc.body, hdr)
			require.Equal(t, tc.http, code, string(body))
			require.Equal(t, "application/json", h.Get("Content-Type"))
			var res sandbox.Result
			require.NoError(t, json.Unmarshal(body, &res))
			require.Equal(t, tc.inside, res.Status)
		})
	}
	// An engine refusal is a problem with its own status either way.
	code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json", `{"tool":"nope","api":"x"}`, map[string]string{server.StatusHeader: "passthrough"})
	require.Equal(t, 404, code, string(body))
	require.Contains(t, string(body), "/problems/unknown-api")
}

// TestRefusalsAgreeAcrossTransports: a call with an ID the session never
// saw gets the API's own refusal, the same on every transport; what the
// dependency check found (which call emitted what, where the value should
// come from) is in the native envelope's violations and the session trace
// only, never in what an agent reads as the API's answer. An ID the
// session saw in locations_search is served everywhere.
func TestRefusalsAgreeAcrossTransports(t *testing.T) {
	ts, st := newServer(t, assemble.Config{})
	const want = `{"errors":[{"code":"404","message":"Unknown location_id 999999123"}]}`
	leaks := []string{"locations_search", "attractions_list", "never returned", "call #", "comes from", "understudy_hint"}
	noLeak := func(t *testing.T, where string, body []byte) {
		t.Helper()
		for _, l := range leaks {
			require.NotContains(t, string(body), l, where)
		}
	}
	session := map[string]string{"X-Session-Id": "refusals"}

	code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json",
		`{"tool":"travel_advisor","api":"reviews_list","arguments":{"location_id":"999999123"},"session":"refusals"}`, nil)
	require.Equal(t, 200, code, string(body))
	var native struct {
		Response   json.RawMessage     `json:"response"`
		Status     int                 `json:"status"`
		Violations []sandbox.Violation `json:"violations"`
	}
	require.NoError(t, json.Unmarshal(body, &native))
	require.Equal(t, 404, native.Status)
	require.JSONEq(t, want, string(native.Response))
	noLeak(t, "native response", native.Response)
	require.Len(t, native.Violations, 1, "the native envelope names the violation")
	require.Contains(t, native.Violations[0].Message, "location_id=999999123")

	for _, path := range []string{"/virtual", "/rapidapi"} {
		code, _, body = do(t, "POST", ts.URL+path, "application/json",
			`{"category":"Travel","tool_name":"travel_advisor","api_name":"reviews_list","tool_input":{"location_id":"999999123"}}`, session)
		require.Equal(t, 200, code)
		var tb struct {
			Error    string          `json:"error"`
			Response json.RawMessage `json:"response"`
		}
		require.NoError(t, json.Unmarshal(body, &tb))
		require.Equal(t, "API returned status 404", tb.Error, path)
		require.JSONEq(t, want, string(tb.Response), path)
		noLeak(t, path, body)
	}

	wire := map[string]string{"X-RapidAPI-Host": "travel-advisor.p.rapidapi.com", "X-RapidAPI-Key": "k", "X-Session-Id": "refusals"}
	code, _, body = do(t, "GET", ts.URL+"/reviews/list?location_id=999999123", "", "", wire)
	require.Equal(t, 404, code, string(body))
	require.JSONEq(t, want, string(body))
	noLeak(t, "the RapidAPI wire", body)

	cs := mcpClient(t, ts.URL+"/mcp")
	name := toolset.ExportName(apiOf(t, "travel_advisor", "reviews_list"), toolset.NameToolBench)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{"location_id": "999999123"}})
	require.NoError(t, err)
	require.True(t, res.IsError)
	text := res.Content[0].(*mcp.TextContent).Text
	require.JSONEq(t, want, text)
	noLeak(t, "MCP", []byte(text))

	tr, ok := st.Engine.Session("refusals")
	require.True(t, ok)
	for _, c := range tr.Calls {
		require.True(t, c.Rejected)
		require.Equal(t, "before_dependency", c.Violations[0].Kind, "the trace says why")
	}

	// Seen in locations_search, valid for reviews_list on every transport.
	code, _, body = do(t, "GET", ts.URL+"/locations/search?query=Lisbon", "", "", wire)
	require.Equal(t, 200, code, string(body))
	code, _, body = do(t, "GET", ts.URL+"/reviews/list?location_id=195283", "", "", wire)
	require.Equal(t, 200, code, string(body))
	code, _, body = do(t, "POST", ts.URL+"/virtual", "application/json",
		`{"category":"Travel","tool_name":"travel_advisor","api_name":"reviews_list","tool_input":{"location_id":"195283"}}`, session)
	require.Equal(t, 200, code)
	require.NotContains(t, string(body), "API returned status")
}

// TestManyViolationsMakeABoundedAnswer: a call with 20,000 unknown
// arguments is refused with the first 50 violations and the count of the
// rest, on every transport, in an answer smaller than the request (each
// violation once listed every name the API takes: 60,000 made 13.8 MB).
func TestManyViolationsMakeABoundedAnswer(t *testing.T) {
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	h, err := server.New(st.Engine, server.Options{MCP: server.MCPHandler(server.MCPServer(st.Engine, "test"))})
	require.NoError(t, err)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)

	args := map[string]any{"expression": "1+1"}
	for i := range 20000 {
		args["k"+strconv.Itoa(i)] = 1
	}
	argsJSON, err := json.Marshal(args)
	require.NoError(t, err)
	native := `{"tool":"calculator","api":"calculate","arguments":` + string(argsJSON) + `}`
	code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json", native, nil)
	require.Equal(t, http.StatusBadRequest, code)
	require.Less(t, len(body), len(native), "the answer is smaller than the request")
	var p struct {
		Detail         string
		Validation     []toolset.Violation
		MoreViolations int `json:"more_violations"`
	}
	require.NoError(t, json.Unmarshal(body, &p))
	require.Len(t, p.Validation, toolset.MaxListedViolations)
	require.Equal(t, 20000-toolset.MaxListedViolations, p.MoreViolations)
	require.True(t, strings.HasSuffix(p.Detail, "… and 19950 more"), p.Detail[max(0, len(p.Detail)-80):])

	virtual, err := json.Marshal(map[string]any{"category": "Tools", "tool_name": "calculator", "api_name": "calculate", "tool_input": string(argsJSON)})
	require.NoError(t, err)
	code, _, body = do(t, "POST", ts.URL+"/virtual", "application/json", string(virtual), nil)
	require.Equal(t, http.StatusOK, code)
	require.Less(t, len(body), len(virtual))
	require.Contains(t, string(body), "… and 19950 more")
}
