package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/toolset"
)

const testKey = "sk-test-0123456789abcdef"

// sleeper stands in for time.Sleep: it records each wait and returns at once.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
	err   error
}

func (s *sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	if s.err != nil {
		return s.err
	}
	return ctx.Err()
}

func (s *sleeper) Waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.waits...)
}

func newClient(t *testing.T, baseURL string, mod func(*openai.Config)) (*openai.Client, *sleeper) {
	t.Helper()
	sl := &sleeper{}
	cfg := openai.Config{
		BaseURL:   baseURL,
		Model:     "test-model",
		APIKeyEnv: "UNDERSTUDY_TEST_KEY",
		Getenv: func(name string) string {
			if name == "UNDERSTUDY_TEST_KEY" {
				return testKey
			}
			return ""
		},
		Timeout:    5 * time.Second,
		JitterSeed: 1,
		Sleep:      sl.Sleep,
		Clock:      clock.Frozen(),
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := openai.NewClient(cfg)
	require.NoError(t, err)
	return c, sl
}

func weatherTools() []toolset.OpenAITool {
	mk := func(name, desc string) toolset.OpenAITool {
		return toolset.OpenAITool{Type: "function", Function: toolset.OpenAIFunction{
			Name: name, Description: desc,
			Parameters: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []any{"city"}},
		}}
	}
	return []toolset.OpenAITool{mk("get_weather", "Current weather for a city."), mk("get_forecast", "Forecast for a city."), mk("Finish", "End the task.")}
}

func ask(q string) []agent.Message {
	return []agent.Message{{Role: agent.RoleSystem, Content: "Use tools."}, {Role: agent.RoleUser, Content: q}}
}

func TestClientNativeConversation(t *testing.T) {
	yes := true
	srv := agenttest.NewServer(t,
		agenttest.Turn{
			Content: "Looking it up.",
			Calls:   []agenttest.Call{{Name: "get_weather", Arguments: `{"city": "Paris"}`}},
			Usage:   &agent.Usage{PromptTokens: 120, CompletionTokens: 12, TotalTokens: 132},
			Check: func(req agenttest.ChatRequest) error {
				if req.Model != "test-model" || len(req.Tools) != 3 || req.Tools[2].Function.Name != "Finish" {
					return fmt.Errorf("model %q, %d tools", req.Model, len(req.Tools))
				}
				if string(req.ToolChoice) != `"auto"` || req.ParallelToolCalls == nil || !*req.ParallelToolCalls {
					return fmt.Errorf("tool_choice %s, parallel %v", req.ToolChoice, req.ParallelToolCalls)
				}
				return nil
			},
		},
		agenttest.Turn{
			Content: "It is sunny in Paris.",
			Check: func(req agenttest.ChatRequest) error {
				last := req.Messages[len(req.Messages)-1]
				if last.Role != agent.RoleTool || last.ToolCallID != "call_1_0" || last.Content != "sunny" {
					return fmt.Errorf("last message %+v", last)
				}
				if got := req.Messages[2].ToolCalls[0].Function.Arguments; got != `{"city":"Paris"}` {
					return fmt.Errorf("echoed arguments %s", got)
				}
				return nil
			},
		},
	)
	c, sl := newClient(t, srv.URL(), func(cfg *openai.Config) { cfg.ToolChoice = "auto"; cfg.ParallelToolCalls = &yes })
	msgs := ask("Weather in Paris?")
	r1, err := c.Respond(context.Background(), msgs, weatherTools())
	require.NoError(t, err)
	require.Equal(t, agent.Reply{
		Content:   "Looking it up.",
		ToolCalls: []agent.ToolCall{{ID: "call_1_0", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}},
		Usage:     agent.Usage{PromptTokens: 120, CompletionTokens: 12, TotalTokens: 132},
	}, r1)

	msgs = append(msgs, agent.Message{Role: agent.RoleAssistant, Content: r1.Content, ToolCalls: r1.ToolCalls},
		agent.Message{Role: agent.RoleTool, ToolCallID: r1.ToolCalls[0].ID, Name: "get_weather", Content: "sunny"})
	r2, err := c.Respond(context.Background(), msgs, weatherTools())
	require.NoError(t, err)
	require.Equal(t, "It is sunny in Paris.", r2.Content)
	require.Empty(t, r2.ToolCalls)
	require.Empty(t, sl.Waits())

	got := srv.Received()
	require.Len(t, got, 2)
	for _, r := range got {
		require.Equal(t, "Bearer "+testKey, r.Header.Get("Authorization"))
		require.Equal(t, "application/json", r.Header.Get("Content-Type"))
		require.NotContains(t, string(r.Body), testKey, "the key travels only in the header")
	}
}

func TestClientWithoutKeySendsNoAuthorization(t *testing.T) {
	srv := agenttest.NewServer(t, agenttest.Text("hi"))
	c, _ := newClient(t, srv.URL(), func(cfg *openai.Config) { cfg.APIKeyEnv = "" })
	_, err := c.Respond(context.Background(), ask("hi"), nil)
	require.NoError(t, err)
	require.Empty(t, srv.Received()[0].Header.Get("Authorization"))
	require.Empty(t, srv.Requests()[0].Tools)
}

func TestClientArgumentShapes(t *testing.T) {
	srv := agenttest.NewServer(t,
		agenttest.Tools(
			agenttest.Call{Name: "get_weather", Arguments: `{"city": "Oslo"}`, AsObject: true},
			agenttest.Call{Name: "get_forecast", Arguments: `{"city": "Oslo", "days":`},
			agenttest.Call{Name: "teleport", Arguments: `{"to": "Mars"}`, NoID: true},
		),
	)
	c, _ := newClient(t, srv.URL(), nil)
	r, err := c.Respond(context.Background(), ask("Oslo"), weatherTools())
	require.NoError(t, err)
	require.Len(t, r.ToolCalls, 3)
	require.Equal(t, `{"city":"Oslo"}`, string(r.ToolCalls[0].Arguments), "object arguments (Ollama) normalised")
	require.Empty(t, r.ToolCalls[0].ArgumentsError)

	bad := r.ToolCalls[1]
	require.Equal(t, "get_forecast", bad.Name)
	require.Empty(t, bad.Arguments)
	require.Equal(t, `{"city": "Oslo", "days":`, bad.RawArguments, "invalid arguments kept verbatim")
	require.Equal(t, "arguments are not valid JSON: truncated", bad.ArgumentsError)

	invented := r.ToolCalls[2]
	require.Equal(t, "teleport", invented.Name, "an invented tool name passes through for the caller to judge")
	require.Regexp(t, `^call_[0-9a-f]{24}$`, invented.ID, "a missing id gets a stable one")
	require.Empty(t, r.ParseError)

	// The same exchange again gives the same generated id.
	srv2 := agenttest.NewServer(t, agenttest.Tools(agenttest.Call{Name: "teleport", Arguments: `{"to": "Mars"}`, NoID: true}))
	c2, _ := newClient(t, srv2.URL(), nil)
	r2, err := c2.Respond(context.Background(), ask("Oslo"), weatherTools())
	require.NoError(t, err)
	require.NotEqual(t, invented.ID, r2.ToolCalls[0].ID, "index differs")
	srv3 := agenttest.NewServer(t, agenttest.Tools(agenttest.Call{Name: "teleport", Arguments: `{"to": "Mars"}`, NoID: true}))
	c3, _ := newClient(t, srv3.URL(), nil)
	r3, err := c3.Respond(context.Background(), ask("Oslo"), weatherTools())
	require.NoError(t, err)
	require.Equal(t, r2.ToolCalls[0].ID, r3.ToolCalls[0].ID)
}

func TestClientRawBodies(t *testing.T) {
	srv := agenttest.NewServer(t,
		agenttest.Raw(200, `{"choices":[{"message":{"content":[{"type":"text","text":"part one, "},{"type":"text","text":"part two"}]}}]}`),
		agenttest.Raw(200, `{"choices":[{"message":{"content":null,"function_call":{"name":"get_weather","arguments":"{\"city\":\"Rome\"}"}}}]}`),
		agenttest.Raw(200, `{"choices":[{"message":{"content":"42","reasoning_content":"6 times 7"}}],"usage":{"prompt_tokens":5,"completion_tokens":9,"total_tokens":14}}`),
	)
	c, _ := newClient(t, srv.URL(), nil)
	r, err := c.Respond(context.Background(), ask("a"), nil)
	require.NoError(t, err)
	require.Equal(t, "part one, part two", r.Content)
	r, err = c.Respond(context.Background(), ask("b"), weatherTools())
	require.NoError(t, err)
	require.Equal(t, "get_weather", r.ToolCalls[0].Name)
	require.Equal(t, `{"city":"Rome"}`, string(r.ToolCalls[0].Arguments))
	r, err = c.Respond(context.Background(), ask("c"), nil)
	require.NoError(t, err)
	require.Equal(t, agent.Reply{Content: "42", Reasoning: "6 times 7", Usage: agent.Usage{PromptTokens: 5, CompletionTokens: 9, TotalTokens: 14}}, r)
}

func TestClientTextProtocol(t *testing.T) {
	srv := agenttest.NewServer(t,
		agenttest.Turn{
			Content: "Thought: I should check.\nAction: get_weather\nAction Input: ```json\n{\"city\": \"Lyon\"}\n```",
			Check: func(req agenttest.ChatRequest) error {
				if len(req.Tools) != 0 || len(req.ToolChoice) != 0 {
					return errors.New("text protocol must not send native tools")
				}
				if !strings.Contains(req.Messages[0].Content, "Action: the tool to use, exactly one of [get_weather, get_forecast, Finish]") {
					return fmt.Errorf("system prompt lacks the tool list: %q", req.Messages[0].Content)
				}
				if len(req.Stop) != 1 || req.Stop[0] != "\nObservation:" {
					return fmt.Errorf("stop %q", req.Stop)
				}
				return nil
			},
		},
		agenttest.Turn{
			Content:   "Thought: done\nAction: Finish\nAction Input: {'return_type': 'give_answer', 'final_answer': 'Sunny in Lyon'}",
			Reasoning: "server-side reasoning",
			Check: func(req agenttest.ChatRequest) error {
				for _, m := range req.Messages {
					if m.Role == agent.RoleTool || len(m.ToolCalls) > 0 {
						return fmt.Errorf("native tool message in text protocol: %+v", m)
					}
				}
				if last := req.Messages[len(req.Messages)-1]; last.Role != agent.RoleUser || last.Content != "Observation: sunny" {
					return fmt.Errorf("last message %+v", last)
				}
				return nil
			},
		},
		agenttest.Text("I think it is sunny."),
	)
	c, _ := newClient(t, srv.URL(), func(cfg *openai.Config) { cfg.Protocol = openai.ProtocolText })
	msgs := ask("Weather in Lyon?")
	r, err := c.Respond(context.Background(), msgs, weatherTools())
	require.NoError(t, err)
	require.Empty(t, r.ParseError)
	require.Equal(t, "I should check.", r.Content)
	require.Len(t, r.ToolCalls, 1)
	require.Equal(t, `{"city":"Lyon"}`, string(r.ToolCalls[0].Arguments))
	require.Equal(t, agent.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}, r.Usage)

	msgs = append(msgs, agent.Message{Role: agent.RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls},
		agent.Message{Role: agent.RoleTool, ToolCallID: r.ToolCalls[0].ID, Content: "sunny"})
	r, err = c.Respond(context.Background(), msgs, weatherTools())
	require.NoError(t, err)
	require.Equal(t, "Finish", r.ToolCalls[0].Name)
	require.JSONEq(t, `{"return_type":"give_answer","final_answer":"Sunny in Lyon"}`, string(r.ToolCalls[0].Arguments))
	require.Equal(t, "server-side reasoning", r.Reasoning)

	// Prose without the format is a parse error, never a silent "no call".
	r, err = c.Respond(context.Background(), ask("again"), weatherTools())
	require.NoError(t, err)
	require.Equal(t, "no Action or Final Answer found", r.ParseError)
	require.Equal(t, "I think it is sunny.", r.Content)
}

func TestClientFaults(t *testing.T) {
	type want struct {
		err       func(t *testing.T, err error) // nil means success
		waits     []time.Duration               // exact waits, when set
		waitCount int                           // number of waits otherwise
	}
	isAPI := func(status int) func(*testing.T, error) {
		return func(t *testing.T, err error) {
			var ae *openai.APIError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, status, ae.Status)
		}
	}
	tests := []struct {
		name    string
		script  []agenttest.Turn
		retries int
		mod     func(*openai.Config)
		want    want
	}{
		{
			name:   "timeout",
			script: []agenttest.Turn{{Hang: true}},
			mod:    func(c *openai.Config) { c.Timeout = 50 * time.Millisecond },
			want: want{err: func(t *testing.T, err error) {
				var te *openai.TimeoutError
				require.ErrorAs(t, err, &te)
				require.Equal(t, 50*time.Millisecond, te.After)
				require.EqualError(t, err, "agent: model server did not answer within 50ms")
			}},
		},
		{
			name:    "timeout then success",
			script:  []agenttest.Turn{{Hang: true}, agenttest.Text("ok")},
			retries: 1,
			mod:     func(c *openai.Config) { c.Timeout = 50 * time.Millisecond },
			want:    want{waitCount: 1},
		},
		{
			name:    "429 with Retry-After seconds",
			script:  []agenttest.Turn{{Status: 429, RetryAfter: "3"}, agenttest.Text("ok")},
			retries: 2,
			want:    want{waits: []time.Duration{3 * time.Second}},
		},
		{
			name:    "429 with Retry-After HTTP-date",
			script:  []agenttest.Turn{{Status: 429, RetryAfter: clock.Default.Add(5 * time.Second).Format(http.TimeFormat)}, agenttest.Text("ok")},
			retries: 2,
			want:    want{waits: []time.Duration{5 * time.Second}},
		},
		{
			name:    "429 Retry-After beyond the cap waits the cap",
			script:  []agenttest.Turn{{Status: 429, RetryAfter: "3600"}, agenttest.Text("ok")},
			retries: 1,
			mod:     func(c *openai.Config) { c.MaxRetryWait = 10 * time.Second },
			want:    want{waits: []time.Duration{10 * time.Second}},
		},
		{
			name:    "429 retries exhausted",
			script:  []agenttest.Turn{{Status: 429, RetryAfter: "1"}, {Status: 429, RetryAfter: "2"}},
			retries: 1,
			want: want{waits: []time.Duration{time.Second}, err: func(t *testing.T, err error) {
				isAPI(429)(t, err)
				require.ErrorContains(t, err, "failed after 2 attempts")
				var ae *openai.APIError
				errors.As(err, &ae)
				require.Equal(t, 2*time.Second, ae.RetryAfter)
				require.Equal(t, "rate_limit_error", ae.Type)
			}},
		},
		{
			name:    "500 then success",
			script:  []agenttest.Turn{agenttest.Fail(500, "boom"), agenttest.Fail(503, "busy"), agenttest.Text("ok")},
			retries: 3,
			want:    want{waitCount: 2},
		},
		{
			name:   "400 is not retried",
			script: []agenttest.Turn{agenttest.Fail(400, "bad tools")}, retries: 3,
			want: want{err: func(t *testing.T, err error) {
				isAPI(400)(t, err)
				require.EqualError(t, err, "agent: model server answered 400 Bad Request (invalid_request_error): bad tools")
			}},
		},
		{
			name:   "malformed JSON is not retried",
			script: []agenttest.Turn{agenttest.Raw(200, `{"choices":[{"message":{"content":"x"}}]]`)}, retries: 3,
			want: want{err: func(t *testing.T, err error) {
				var de *openai.DecodeError
				require.ErrorAs(t, err, &de)
				require.False(t, de.Truncated)
				require.ErrorContains(t, err, "malformed JSON at offset 41")
			}},
		},
		{
			name:   "truncated body",
			script: []agenttest.Turn{{Content: "a long enough reply to cut in half", Truncate: true}},
			want: want{err: func(t *testing.T, err error) {
				var de *openai.DecodeError
				require.ErrorAs(t, err, &de)
				require.True(t, de.Truncated)
				require.Regexp(t, `response body truncated after \d+ bytes of \d+ announced by Content-Length`, err.Error())
			}},
		},
		{
			name:    "truncated body then success",
			script:  []agenttest.Turn{{Content: "cut", Truncate: true}, agenttest.Text("ok")},
			retries: 1,
			want:    want{waitCount: 1},
		},
		{
			name:   "truncated JSON sent whole",
			script: []agenttest.Turn{agenttest.Raw(200, `{"choices":[{"message":{"content":"x`)}, retries: 2,
			want: want{err: func(t *testing.T, err error) {
				require.ErrorContains(t, err, "truncated JSON: body ends after 36 bytes")
			}},
		},
		{
			name:   "oversized body",
			script: []agenttest.Turn{agenttest.Text("a reply longer than the limit")}, retries: 2,
			mod: func(c *openai.Config) { c.MaxResponseBytes = 64 },
			want: want{err: func(t *testing.T, err error) {
				var de *openai.DecodeError
				require.ErrorAs(t, err, &de)
				require.EqualError(t, err, "agent: cannot decode model response: response body exceeds 64 bytes")
			}},
		},
		{
			name:   "error body echoing the key is redacted",
			script: []agenttest.Turn{agenttest.Fail(401, "Incorrect API key provided: "+testKey)},
			want: want{err: func(t *testing.T, err error) {
				isAPI(401)(t, err)
				require.NotContains(t, err.Error(), testKey)
				require.Contains(t, err.Error(), "Incorrect API key provided: [redacted]")
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := agenttest.NewServer(t, tt.script...)
			c, sl := newClient(t, srv.URL(), func(cfg *openai.Config) {
				cfg.MaxRetries = tt.retries
				if tt.mod != nil {
					tt.mod(cfg)
				}
			})
			r, err := c.Respond(context.Background(), ask("q"), weatherTools())
			if tt.want.err == nil {
				require.NoError(t, err)
				require.Equal(t, "ok", r.Content)
			} else {
				require.Error(t, err)
				tt.want.err(t, err)
				require.NotContains(t, err.Error(), testKey)
			}
			if tt.want.waits != nil {
				require.Equal(t, tt.want.waits, sl.Waits())
			} else {
				require.Len(t, sl.Waits(), tt.want.waitCount)
			}
			for i, w := range sl.Waits() {
				require.Greater(t, w, time.Duration(0), "wait %d", i)
				require.LessOrEqual(t, w, openai.DefaultMaxRetryWait, "wait %d", i)
			}
		})
	}
}

func TestClientBackoffWaitsAreSeeded(t *testing.T) {
	run := func() []time.Duration {
		srv := agenttest.NewServer(t, agenttest.Fail(502, "a"), agenttest.Fail(502, "b"), agenttest.Fail(502, "c"), agenttest.Text("ok"))
		c, sl := newClient(t, srv.URL(), func(cfg *openai.Config) { cfg.MaxRetries = 3; cfg.JitterSeed = 42 })
		_, err := c.Respond(context.Background(), ask("q"), nil)
		require.NoError(t, err)
		return sl.Waits()
	}
	first := run()
	require.Equal(t, first, run())
	require.Len(t, first, 3)
	for i, w := range first {
		ceiling := openai.DefaultInitialBackoff << i
		require.GreaterOrEqual(t, w, ceiling/2)
		require.LessOrEqual(t, w, ceiling)
	}
}

func TestClientContextCancellation(t *testing.T) {
	t.Run("while waiting for the server", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		srv := agenttest.NewServer(t, agenttest.Turn{Hang: true, Check: func(agenttest.ChatRequest) error { cancel(); return nil }})
		c, sl := newClient(t, srv.URL(), func(cfg *openai.Config) { cfg.MaxRetries = 3 })
		_, err := c.Respond(ctx, ask("q"), nil)
		require.ErrorIs(t, err, context.Canceled)
		require.Empty(t, sl.Waits(), "a cancelled call is not retried")
	})
	t.Run("while waiting to retry", func(t *testing.T) {
		srv := agenttest.NewServer(t, agenttest.Fail(503, "busy"))
		c, sl := newClient(t, srv.URL(), func(cfg *openai.Config) { cfg.MaxRetries = 3 })
		sl.err = context.Canceled
		_, err := c.Respond(context.Background(), ask("q"), nil)
		require.ErrorIs(t, err, context.Canceled)
		require.ErrorContains(t, err, "waiting")
		require.Len(t, sl.Waits(), 1)
	})
	t.Run("already cancelled", func(t *testing.T) {
		srv := agenttest.NewServer(t)
		c, _ := newClient(t, srv.URL(), nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := c.Respond(ctx, ask("q"), nil)
		require.ErrorIs(t, err, context.Canceled)
		require.Empty(t, srv.Requests())
	})
}

func TestClientConnectionRefused(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL + "/v1"
	dead.Close()
	c, sl := newClient(t, url, func(cfg *openai.Config) { cfg.MaxRetries = 2 })
	_, err := c.Respond(context.Background(), ask("q"), nil)
	var ce *openai.ConnectionError
	require.ErrorAs(t, err, &ce)
	require.ErrorContains(t, err, "failed after 3 attempts")
	require.Len(t, sl.Waits(), 2)
}

// countingTransport records the most requests it saw in flight at once.
type countingTransport struct {
	now, max atomic.Int32
	base     http.RoundTripper
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	n := c.now.Add(1)
	defer c.now.Add(-1)
	for {
		m := c.max.Load()
		if n <= m || c.max.CompareAndSwap(m, n) {
			break
		}
	}
	return c.base.RoundTrip(r)
}

func TestClientConcurrencyLimit(t *testing.T) {
	const calls = 6
	var script []agenttest.Turn
	release := make(chan struct{})
	var arrived atomic.Int32
	for i := 0; i < calls; i++ {
		script = append(script, agenttest.Turn{Content: "ok", Check: func(agenttest.ChatRequest) error {
			arrived.Add(1)
			<-release
			return nil
		}})
	}
	srv := agenttest.NewServer(t, script...)
	tr := &countingTransport{base: http.DefaultTransport}
	c, _ := newClient(t, srv.URL(), func(cfg *openai.Config) {
		cfg.MaxConcurrent = 2
		cfg.HTTPClient = &http.Client{Transport: tr, Timeout: bounded.Timeout}
	})
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for i := 0; i < calls; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Respond(context.Background(), ask("q"), nil)
			errs <- err
		}()
	}
	// Once two requests are held inside the server the limit is reached;
	// then let them through one at a time.
	require.Eventually(t, func() bool { return arrived.Load() >= 2 }, bounded.Timeout, time.Millisecond)
	for i := 0; i < calls; i++ {
		select {
		case release <- struct{}{}:
		case <-time.After(bounded.Timeout):
			t.Fatalf("request %d of %d never reached the server", i+1, calls)
		}
	}
	bounded.Wait(t, &wg, "the limited calls")
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, int32(calls), arrived.Load())
	require.LessOrEqual(t, tr.max.Load(), int32(2))
	require.Equal(t, int32(2), tr.max.Load(), "the limit is reached, not just respected")
}
