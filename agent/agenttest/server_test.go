package agenttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// recordingTB is a testing.TB whose failures are collected instead of
// failing the test, and whose cleanups run when the test says so.
type recordingTB struct {
	testing.TB
	mu       sync.Mutex
	errors   []string
	cleanups []func()
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) Cleanup(f func()) { r.cleanups = append(r.cleanups, f) }

func (r *recordingTB) finish() []string {
	for i := len(r.cleanups) - 1; i >= 0; i-- {
		r.cleanups[i]()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errors
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := bounded.Client.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

const minimal = `{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":0}`

func TestServerRepliesInOrder(t *testing.T) {
	s := NewServer(t, Text("one"), Tool("f", `{"a":1}`), Tools(Call{Name: "g", Arguments: `{"b":2}`, AsObject: true, ID: "fixed"}))
	_, b1 := post(t, s.URL(), minimal)
	_, b2 := post(t, s.URL(), minimal)
	_, b3 := post(t, s.URL(), minimal)
	require.JSONEq(t, `{"id":"chatcmpl-scripted-1","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"one"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, b1)
	require.JSONEq(t, `{"id":"chatcmpl-scripted-2","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_2_0","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, b2)
	var r3 struct {
		Choices []struct {
			Message struct {
				ToolCalls []struct {
					ID       string
					Function struct{ Arguments json.RawMessage }
				} `json:"tool_calls"`
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(b3), &r3))
	require.Equal(t, "fixed", r3.Choices[0].Message.ToolCalls[0].ID)
	require.JSONEq(t, `{"b":2}`, string(r3.Choices[0].Message.ToolCalls[0].Function.Arguments))
	require.Len(t, s.Requests(), 3)
	require.Equal(t, "hi", s.Requests()[0].Messages[0].Content)
}

func TestServerFailsTestOnMisuse(t *testing.T) {
	tests := []struct {
		name    string
		script  []Turn
		bodies  []string
		status  []int
		failure string
	}{
		{"extra request", []Turn{Text("only")}, []string{minimal, minimal}, []int{200, 400}, "unexpected request 2: the script has 1 turns"},
		{"check fails", []Turn{{Content: "x", Check: func(ChatRequest) error { return errors.New("want tools") }}}, []string{minimal}, []int{400}, "turn 1: request check failed: want tools"},
		{"unused turns", []Turn{Text("a"), Text("b")}, []string{minimal}, []int{200}, "1 of 2 scripted turns were never requested"},
		{"unknown request field", []Turn{Text("a")}, []string{`{"model":"m","messages":[],"temperature":0,"stream":true}`}, []int{400}, `unknown field "stream"`},
		{"bad object arguments", []Turn{Tools(Call{Name: "f", Arguments: "{", AsObject: true})}, []string{minimal}, []int{500}, "AsObject arguments are not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := &recordingTB{TB: t}
			s := NewServer(rt, tt.script...)
			if tt.name == "unknown request field" {
				s.AllowUnused()
			}
			for i, b := range tt.bodies {
				status, _ := post(t, s.URL(), b)
				require.Equal(t, tt.status[i], status, "request %d", i+1)
			}
			errs := rt.finish()
			require.Len(t, errs, 1, "%q", errs)
			require.Contains(t, errs[0], tt.failure)
		})
	}
}

func TestServerFaults(t *testing.T) {
	s := NewServer(t,
		Fail(429, "slow down"),
		Turn{Status: 503, RetryAfter: "2", Header: http.Header{"X-Request-Id": {"r1"}}},
		Raw(200, `{"choices":`),
	)
	resp, err := bounded.Client.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(minimal))
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 429, resp.StatusCode)
	require.JSONEq(t, `{"error":{"message":"slow down","type":"rate_limit_error","code":null}}`, string(b))

	resp, err = bounded.Client.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(minimal))
	require.NoError(t, err)
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 503, resp.StatusCode)
	require.Equal(t, "2", resp.Header.Get("Retry-After"))
	require.Equal(t, "r1", resp.Header.Get("X-Request-Id"))
	require.Contains(t, string(b), "server_error")

	status, body := post(t, s.URL(), minimal)
	require.Equal(t, 200, status)
	require.Equal(t, `{"choices":`, body)
}

func TestPolicyServerAnswersEveryRequestFromItsPolicy(t *testing.T) {
	s := NewPolicyServer(t, func(req ChatRequest) (Turn, error) {
		last := req.Messages[len(req.Messages)-1].Content
		if last == "fail" {
			return Fail(400, "context too long"), nil
		}
		return Text("echo: " + last), nil
	})
	for i := 0; i < 3; i++ {
		status, body := post(t, s.URL(), minimal)
		require.Equal(t, 200, status)
		require.Contains(t, body, `"content":"echo: hi"`)
	}
	status, body := post(t, s.URL(), `{"model":"m","messages":[{"role":"user","content":"fail"}],"temperature":0}`)
	require.Equal(t, 400, status)
	require.Contains(t, body, "context too long")
	require.Equal(t, 4, s.Count())
	require.Empty(t, s.Requests(), "a policy server keeps no requests")
}
