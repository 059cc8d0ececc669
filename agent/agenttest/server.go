// Package agenttest is a scripted OpenAI-compatible model server for tests: real loopback HTTP, replies in order, requests recorded.
package agenttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/openai"
)

// ChatRequest is the request body the server receives.
type ChatRequest = openai.ChatRequest

// Call is one scripted tool call.
type Call struct {
	// ID is the call id; empty gives "call_<turn>_<index>". NoID sends none,
	// as some servers do.
	ID   string
	NoID bool
	Name string
	// Arguments is the arguments' text, sent as a JSON string (OpenAI,
	// vLLM) and so free to be invalid JSON; AsObject sends it as a JSON
	// object instead (Ollama), in which case it must be valid JSON.
	Arguments string
	AsObject  bool
}

// Turn is one scripted answer: a reply (Content, Reasoning, Calls) or a
// fault (Status, Body, Hang, Truncate).
type Turn struct {
	Content   string
	Reasoning string
	Calls     []Call
	// FinishReason defaults to "tool_calls" with calls, else "stop".
	FinishReason string
	// Usage defaults to 10 prompt and 5 completion tokens.
	Usage *agent.Usage

	// Status is the HTTP status (default 200). With a non-2xx status and no
	// Body, an OpenAI-style error body is sent.
	Status int
	// Body, when set, is sent verbatim instead of a built reply: malformed
	// JSON, the array-of-parts content form, legacy function_call, ….
	Body string
	// RetryAfter is sent as the Retry-After header.
	RetryAfter string
	Header     http.Header
	// Hang never answers: the handler waits until the client gives up.
	Hang bool
	// Truncate announces the full body's length, sends half of it and drops the connection.
	Truncate bool

	// Check verifies the request; an error fails the test and the client gets a 400.
	Check func(req ChatRequest) error
	// Reply, when set, computes the turn answered from the request, for
	// arguments that depend on earlier tool results; the returned turn's
	// own Check and Reply are ignored. An error fails the test and the
	// client gets a 400.
	Reply func(req ChatRequest) (Turn, error)
}

// Text is a turn answering with text.
func Text(content string) Turn { return Turn{Content: content} }

// Tool is a turn making one tool call with arguments given as JSON text.
func Tool(name, arguments string) Turn {
	return Turn{Calls: []Call{{Name: name, Arguments: arguments}}}
}

// Tools is a turn making several tool calls.
func Tools(calls ...Call) Turn { return Turn{Calls: calls} }

// Fail is a turn answering status with an OpenAI-style error body carrying message.
func Fail(status int, message string) Turn {
	return Turn{Status: status, Body: errorBody(status, message)}
}

// Raw is a turn answering status with body verbatim.
func Raw(status int, body string) Turn { return Turn{Status: status, Body: body} }

// Received is one request as the server saw it.
type Received struct {
	Request ChatRequest
	Body    []byte
	Header  http.Header
}

// Server is a scripted model server. Its URL ends in /v1, ready for an
// openai.Config.BaseURL. A request beyond the script, a failed Check, or a
// scripted turn never requested fails the test.
type Server struct {
	t       testing.TB
	srv     *httptest.Server
	closing chan struct{}

	// policy, when set, answers every request instead of a script (see NewPolicyServer).
	policy func(ChatRequest) (Turn, error)

	mu          sync.Mutex
	script      []Turn
	next        int
	received    []Received
	allowUnused bool
}

// NewServer starts a server answering the script in order and stops it when the test ends.
func NewServer(t testing.TB, script ...Turn) *Server {
	t.Helper()
	return start(t, &Server{script: script})
}

// NewPolicyServer starts a server that answers every request with the turn
// policy computes from it, for as many requests as come: a model that
// follows a fixed strategy. Requests are counted (Count), not kept.
func NewPolicyServer(t testing.TB, policy func(ChatRequest) (Turn, error)) *Server {
	t.Helper()
	return start(t, &Server{policy: policy})
}

// start serves s on loopback until the test ends, when a script must have
// been used up (unless AllowUnused).
func start(t testing.TB, s *Server) *Server {
	s.t, s.closing = t, make(chan struct{})
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(func() {
		close(s.closing)
		s.srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.policy == nil && !s.allowUnused && s.next < len(s.script) {
			t.Errorf("agenttest: %d of %d scripted turns were never requested", len(s.script)-s.next, len(s.script))
		}
	})
	return s
}

// Count is the number of requests received so far.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

// URL is the API root, "http://127.0.0.1:<port>/v1".
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// AllowUnused lets the test end with scripted turns left over.
func (s *Server) AllowUnused() {
	s.mu.Lock()
	s.allowUnused = true
	s.mu.Unlock()
}

// Requests returns the decoded requests received so far, in order.
func (s *Server) Requests() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ChatRequest, len(s.received))
	for i, r := range s.received {
		out[i] = r.Request
	}
	return out
}

// Received returns the requests received so far with their raw bodies and headers.
func (s *Server) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		s.t.Errorf("agenttest: unexpected %s %s", r.Method, r.URL.Path)
		writeError(w, http.StatusNotFound, "no such endpoint")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("agenttest: read request: %v", err)
		return
	}
	var req ChatRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		s.t.Errorf("agenttest: request body is not a chat request: %v\n%s", err, body)
		writeError(w, http.StatusBadRequest, "bad request body: "+err.Error())
		return
	}

	s.mu.Lock()
	n := s.next
	if s.policy != nil {
		// A policy server may answer thousands of requests: count them, keep none.
		s.next++
		s.mu.Unlock()
		s.answer(w, r, n, req, Turn{Reply: s.policy})
		return
	}
	s.received = append(s.received, Received{Request: req, Body: body, Header: r.Header.Clone()})
	if n >= len(s.script) {
		s.mu.Unlock()
		s.t.Errorf("agenttest: unexpected request %d: the script has %d turns", n+1, len(s.script))
		writeError(w, http.StatusBadRequest, "unexpected request beyond the script")
		return
	}
	turn := s.script[n]
	s.next++
	s.mu.Unlock()
	s.answer(w, r, n, req, turn)
}

// answer writes turn n of the conversation as the reply to req.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, n int, req ChatRequest, turn Turn) {
	var err error
	if turn.Check != nil {
		if err := turn.Check(req); err != nil {
			s.t.Errorf("agenttest: turn %d: request check failed: %v", n+1, err)
			writeError(w, http.StatusBadRequest, "request check failed: "+err.Error())
			return
		}
	}
	if turn.Reply != nil {
		t, err := turn.Reply(req)
		if err != nil {
			s.t.Errorf("agenttest: turn %d: reply: %v", n+1, err)
			writeError(w, http.StatusBadRequest, "reply failed: "+err.Error())
			return
		}
		t.Check, t.Reply = nil, nil
		turn = t
	}
	if turn.Hang {
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return
	}

	status := turn.Status
	if status == 0 {
		status = http.StatusOK
	}
	out := []byte(turn.Body)
	switch {
	case turn.Body != "":
	case status < 200 || status > 299:
		out = []byte(errorBody(status, http.StatusText(status)))
	default:
		out, err = buildReply(n, req.Model, turn)
		if err != nil {
			s.t.Errorf("agenttest: turn %d: %v", n+1, err)
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
	}

	for k, vs := range turn.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	if turn.RetryAfter != "" {
		w.Header().Set("Retry-After", turn.RetryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(status)
	if turn.Truncate {
		w.Write(out[:len(out)/2])
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		// Drop the connection with the body short of its Content-Length.
		panic(http.ErrAbortHandler)
	}
	w.Write(out)
}

func writeError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, errorBody(status, message))
}

func errorBody(status int, message string) string {
	typ := "invalid_request_error"
	switch {
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case status >= 500:
		typ = "server_error"
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": typ, "code": nil}})
	return string(b)
}

// Wire shapes of a chat-completions reply, in OpenAI's field order.
type reply struct {
	ID      string      `json:"id"`
	Object  string      `json:"object"`
	Created int64       `json:"created"`
	Model   string      `json:"model"`
	Choices []choice    `json:"choices"`
	Usage   agent.Usage `json:"usage"`
}

type choice struct {
	Index        int     `json:"index"`
	Message      message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}

type message struct {
	Role             string          `json:"role"`
	Content          json.RawMessage `json:"content"`
	ReasoningContent string          `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCall      `json:"tool_calls,omitempty"`
}

type toolCall struct {
	ID       string   `json:"id,omitempty"`
	Type     string   `json:"type"`
	Function function `json:"function"`
}

type function struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func buildReply(turn int, model string, t Turn) ([]byte, error) {
	m := message{Role: "assistant", ReasoningContent: t.Reasoning, Content: json.RawMessage("null")}
	if t.Content != "" || len(t.Calls) == 0 {
		c, _ := json.Marshal(t.Content)
		m.Content = c
	}
	for i, c := range t.Calls {
		tc := toolCall{ID: c.ID, Type: "function", Function: function{Name: c.Name}}
		if tc.ID == "" && !c.NoID {
			tc.ID = fmt.Sprintf("call_%d_%d", turn+1, i)
		}
		if c.AsObject {
			if !json.Valid([]byte(c.Arguments)) {
				return nil, fmt.Errorf("call %d: AsObject arguments are not valid JSON: %s", i, c.Arguments)
			}
			tc.Function.Arguments = json.RawMessage(c.Arguments)
		} else {
			a, _ := json.Marshal(c.Arguments)
			tc.Function.Arguments = a
		}
		m.ToolCalls = append(m.ToolCalls, tc)
	}
	finish := t.FinishReason
	if finish == "" {
		finish = "stop"
		if len(t.Calls) > 0 {
			finish = "tool_calls"
		}
	}
	usage := agent.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}
	if t.Usage != nil {
		usage = *t.Usage
	}
	return json.Marshal(reply{
		ID:      fmt.Sprintf("chatcmpl-scripted-%d", turn+1),
		Object:  "chat.completion",
		Model:   model,
		Choices: []choice{{Index: 0, Message: m, FinishReason: finish}},
		Usage:   usage,
	})
}
