package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/mocks/failures"
)

const (
	stdioInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	stdioCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calculate_for_calculator","arguments":{"expression":"6*7"}}}`
	stdioList = `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`
)

// syncBuffer is an output both the SDK and the filter write to.
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

// runStdio serves input through the real SDK until the input ends and
// returns the answers, one JSON document per line.
func runStdio(t *testing.T, input string, maxLine int) []map[string]any {
	t.Helper()
	return decodeAnswers(t, serveStdio(t, assemble.Config{}, input, maxLine))
}

// serveStdio serves input over stdio with the stack cfg builds, until the
// input ends, and returns the output as written.
func serveStdio(t *testing.T, cfg assemble.Config, input string, maxLine int) string {
	t.Helper()
	st, err := assemble.Build(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	out := &syncBuffer{}
	tr := &server.StdioTransport{Reader: strings.NewReader(input), Writer: out, MaxLineLength: maxLine}
	// The session ends when the input does: a context that ends is only
	// the test's bound, and it failing the test says the session hung.
	err = server.MCPServer(st.Engine, "test").Run(bounded.Context(t), tr)
	if err != nil {
		require.ErrorIs(t, err, io.EOF)
	}
	return out.String()
}

func decodeAnswers(t *testing.T, output string) []map[string]any {
	t.Helper()
	var answers []map[string]any
	sc := bufio.NewScanner(strings.NewReader(output))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var doc any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &doc), sc.Text())
		switch d := doc.(type) {
		case map[string]any:
			answers = append(answers, d)
		case []any:
			for _, e := range d {
				answers = append(answers, e.(map[string]any))
			}
		}
	}
	return answers
}

func byID(answers []map[string]any) map[string]map[string]any {
	m := map[string]map[string]any{}
	for _, a := range answers {
		if id, ok := a["id"]; ok && id != nil {
			b, _ := json.Marshal(id)
			m[string(b)] = a
		}
	}
	return m
}

// TestStdioBadLines: every bad line gets its JSON-RPC error and the session
// goes on; the requests read before the end of input are all answered.
func TestStdioBadLines(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		code       float64
		id         any // nil: "id": null
	}{
		{"not JSON", `not json`, jsonrpc.CodeParseError, nil},
		{"truncated object", `{"jsonrpc":"2.0","id":5,"method":`, jsonrpc.CodeParseError, nil},
		{"two values on a line", `{"a":1} {"b":2}`, jsonrpc.CodeParseError, nil},
		{"empty batch", `[]`, jsonrpc.CodeInvalidRequest, nil},
		{"null", `null`, jsonrpc.CodeInvalidRequest, nil},
		{"string", `"initialize"`, jsonrpc.CodeInvalidRequest, nil},
		{"number", `42`, jsonrpc.CodeInvalidRequest, nil},
		{"version 1.0", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, jsonrpc.CodeInvalidRequest, float64(7)},
		{"no version", `{"id":"x","method":"ping"}`, jsonrpc.CodeInvalidRequest, "x"},
		{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, jsonrpc.CodeInvalidRequest, nil},
		{"batch", `[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, float64(8)},
		{"empty object", `{}`, jsonrpc.CodeInvalidRequest, nil},
		{"invalid UTF-8 outside strings", "{\"jsonrpc\":\"2.0\",\xff}", jsonrpc.CodeParseError, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The bad line comes first, between initialize and the calls, and
			// the input ends right after the last call.
			answers := runStdio(t, tc.line+"\n"+stdioInit+"\n\n"+tc.line+"\r\n"+stdioCall+"\n"+stdioList, 0)
			var bad []map[string]any
			for _, a := range answers {
				if e, ok := a["error"].(map[string]any); ok {
					require.Equal(t, "2.0", a["jsonrpc"])
					require.Contains(t, a, "id", "an error answer always carries an id, null when unknown")
					require.Equal(t, tc.code, e["code"], a)
					require.Equal(t, tc.id, a["id"])
					bad = append(bad, a)
				}
			}
			require.Len(t, bad, 2, "both copies of the bad line are answered")
			got := byID(answers)
			require.Contains(t, got, "1", "initialize")
			require.Contains(t, got["2"]["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"], "42")
			require.NotEmpty(t, got["3"]["result"].(map[string]any)["tools"])
		})
	}
}

// TestStdioDrainsAtEOF: requests still running when the input ends are
// answered before the session ends (printf 'init\ncall\n' | toolserver -stdio).
func TestStdioDrainsAtEOF(t *testing.T) {
	var in strings.Builder
	in.WriteString(stdioInit + "\n")
	for i := 10; i < 40; i++ {
		in.WriteString(`{"jsonrpc":"2.0","id":` + string(rune('0'+i/10)) + string(rune('0'+i%10)) + `,"method":"tools/call","params":{"name":"calculate_for_calculator","arguments":{"expression":"6*7"}}}` + "\n")
	}
	got := byID(runStdio(t, in.String(), 0))
	require.Len(t, got, 31)
	for id, a := range got {
		require.NotContains(t, a, "error", id)
	}
}

// TestStdioLongLine: a line over the bound is dropped and answered, and
// the next line is served.
func TestStdioLongLine(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":99,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 4000) + `"}}`
	answers := runStdio(t, stdioInit+"\n"+long+"\n"+stdioList+"\n", 1024)
	got := byID(answers)
	require.Contains(t, got, "1")
	require.Contains(t, got, "3")
	require.NotContains(t, got, "99", "the long line never reached the server")
	var errs int
	for _, a := range answers {
		if e, ok := a["error"].(map[string]any); ok {
			errs++
			require.Equal(t, float64(jsonrpc.CodeInvalidRequest), e["code"])
			require.Contains(t, e["message"], "longer than 1024 bytes")
		}
	}
	require.Equal(t, 1, errs)
}

// FuzzCheckStdioLine: a line is either passed on as one JSON-RPC message
// the SDK decodes, or answered by one well-formed JSON-RPC error line.
func FuzzCheckStdioLine(f *testing.F) {
	for _, s := range []string{stdioInit, stdioCall, "[]", "null", `{"jsonrpc":"1.0","id":1,"method":"x"}`, `[{"jsonrpc":"2.0","id":"a","method":"x"},{"jsonrpc":"2.0","method":"n"}]`,
		`{"jsonrpc":"2.0","id":1e300,"method":"x"}`, `{"jsonrpc":"2.0","id":9007199254740993,"method":"x"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`, "\xff", `{"a":1}{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || bytes.IndexByte(line, '\n') >= 0 {
			return // the reader never hands these over
		}
		ok, ans := server.CheckStdioLine(line)
		if ok {
			require.Nil(t, ans)
			require.True(t, json.Valid(line))
			require.Equal(t, byte('{'), line[0])
			_, err := jsonrpc.DecodeMessage(line)
			require.NoError(t, err)
			return
		}
		if ans == nil {
			require.Equal(t, byte('['), line[0], "only a batch of notifications goes unanswered")
			return
		}
		require.True(t, bytes.HasSuffix(ans, []byte("\n")))
		require.Equal(t, 1, bytes.Count(ans, []byte("\n")), "one answer line")
		var docs []map[string]json.RawMessage
		if ans[0] == '[' {
			require.NoError(t, json.Unmarshal(ans, &docs))
		} else {
			var d map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(ans, &d))
			docs = append(docs, d)
		}
		for _, d := range docs {
			require.JSONEq(t, `"2.0"`, string(d["jsonrpc"]))
			require.Contains(t, d, "id")
			var e struct{ Code int64 }
			require.NoError(t, json.Unmarshal(d["error"], &e))
			require.Contains(t, []int64{jsonrpc.CodeParseError, jsonrpc.CodeInvalidRequest}, e.Code)
		}
	})
}

// TestStdioDuplicateID: a request whose id is in flight is answered with
// -32600 carrying that id, as over HTTP; the first request is answered;
// and the session ends with the input. (The SDK answered the duplicate
// with a null id, the first request's answer then seemed owed twice, and
// the session never ended.)
func TestStdioDuplicateID(t *testing.T) {
	slow, err := failures.Parse("calculator:latency=300ms")
	require.NoError(t, err)
	call := func(id, expr string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"calculate_for_calculator","arguments":{"expression":"` + expr + `"}}}` + "\n"
	}
	for _, id := range []string{`5`, `"five"`, `1e308`} {
		t.Run(id, func(t *testing.T) {
			out := serveStdio(t, assemble.Config{Failures: slow}, stdioInit+"\n"+call(id, "6*7")+call(id, "1+1"), 0)
			var mine []map[string]json.RawMessage
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var m map[string]json.RawMessage
				require.NoError(t, json.Unmarshal([]byte(line), &m), line)
				if string(m["id"]) == id {
					mine = append(mine, m)
				}
			}
			require.Len(t, mine, 2, out)
			var results, dups int
			for _, m := range mine {
				if m["error"] != nil {
					var e struct {
						Code    int64
						Message string
					}
					require.NoError(t, json.Unmarshal(m["error"], &e))
					require.Equal(t, int64(jsonrpc.CodeInvalidRequest), e.Code)
					require.Contains(t, e.Message, "duplicate in-flight request ID")
					dups++
				} else {
					require.Contains(t, string(m["result"]), "42", "the first request is answered")
					results++
				}
			}
			require.Equal(t, 1, results)
			require.Equal(t, 1, dups)
		})
	}
}

// TestStdioIDsAsWritten: every id comes back as the client wrote it, the
// numbers the SDK would turn into an int64 (1e308 came back as
// -9223372036854775808) and string ids that look like the stand-ins.
func TestStdioIDsAsWritten(t *testing.T) {
	ids := []string{`1e308`, `9007199254740993`, `-9223372036854775809`, `1.5`, `-0`, `1E2`, `2`, `-7`, `9007199254740992`,
		`"understudy-id:1"`, `"a"`, `"\u0041b"`}
	var in strings.Builder
	in.WriteString(stdioInit + "\n")
	for _, id := range ids {
		in.WriteString(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` + "\n")
	}
	// A bad request's error echoes its id as written too.
	in.WriteString(`{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":5}` + "\n")
	out := serveStdio(t, assemble.Config{}, in.String(), 0)
	got := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		got[string(m["id"])] = true
	}
	for _, id := range ids {
		if id == `"\u0041b"` {
			id = `"Ab"` // the same string
		}
		require.True(t, got[id], "id %s answered as written in:\n%s", id, out)
	}
	require.True(t, got[`123456789012345678901234567890`], out)
	require.Len(t, got, len(ids)+2, "initialize, the pings and the bad request, nothing else:\n%s", out)
}
