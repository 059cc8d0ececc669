package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/internal/retry"
	"github.com/understudy/understudy/toolset"
)

func TestDecodeChatResponse(t *testing.T) {
	tests := []struct {
		name string
		body string
		want agent.Reply
	}{
		{
			name: "text",
			body: `{"choices":[{"message":{"role":"assistant","content":"Hello."},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`,
			want: agent.Reply{Content: "Hello.", Usage: agent.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}},
		},
		{
			name: "null content with tool call, arguments as string",
			body: `{"choices":[{"message":{"content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"Paris\", \"days\": 3}"}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris","days":3}`)}}},
		},
		{
			name: "arguments as object (Ollama)",
			body: `{"choices":[{"message":{"content":"","tool_calls":[{"id":"x","function":{"name":"f","arguments":{"b": [1, 2], "a": "<&>"}}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "x", Name: "f", Arguments: json.RawMessage(`{"b":[1,2],"a":"<&>"}`)}}},
		},
		{
			name: "empty, null and missing arguments mean none",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":""}},{"id":"b","function":{"name":"g","arguments":null}},{"id":"c","function":{"name":"h"}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{
				{ID: "a", Name: "f", Arguments: json.RawMessage(`{}`)},
				{ID: "b", Name: "g", Arguments: json.RawMessage(`{}`)},
				{ID: "c", Name: "h", Arguments: json.RawMessage(`{}`)},
			}},
		},
		{
			name: "arguments that are not JSON are kept with the reason",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{city: Paris"}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "a", Name: "f", RawArguments: "{city: Paris", ArgumentsError: "arguments are not valid JSON: invalid character 'c' looking for beginning of object key string"}}},
		},
		{
			name: "arguments cut off at the token limit",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"q\": \"long"}}]},"finish_reason":"length"}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "a", Name: "f", RawArguments: `{"q": "long`, ArgumentsError: "arguments are not valid JSON: truncated (the reply was cut off at the token limit)"}}},
		},
		{
			name: "arguments a JSON array",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"[1,2]"}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "a", Name: "f", RawArguments: "[1,2]", ArgumentsError: "arguments are a JSON array, want an object"}}},
		},
		{
			name: "arguments a bare number",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":42}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "a", Name: "f", RawArguments: "42", ArgumentsError: "arguments are a JSON number, want an object or a string holding one"}}},
		},
		{
			name: "arguments with trailing text",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"a\":1} thanks"}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "a", Name: "f", RawArguments: `{"a":1} thanks`, ArgumentsError: "arguments are not valid JSON: trailing data after offset 7"}}},
		},
		{
			name: "content as an array of parts",
			body: `{"choices":[{"message":{"content":[{"type":"text","text":"Hel"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"lo"}]}}]}`,
			want: agent.Reply{Content: "Hello"},
		},
		{
			name: "legacy function_call",
			body: `{"choices":[{"message":{"content":null,"function_call":{"name":"lookup","arguments":"{\"id\":7}"}}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "call_e3ac4b1a8b6364bd8839c8bb", Name: "lookup", Arguments: json.RawMessage(`{"id":7}`)}}},
		},
		{
			name: "reasoning_content",
			body: `{"choices":[{"message":{"content":"4","reasoning_content":"2+2 is 4"}}]}`,
			want: agent.Reply{Content: "4", Reasoning: "2+2 is 4"},
		},
		{
			name: "reasoning (Ollama, OpenRouter)",
			body: `{"choices":[{"message":{"content":"4","reasoning":"adding"}}]}`,
			want: agent.Reply{Content: "4", Reasoning: "adding"},
		},
		{
			name: "reasoning that is not text is ignored",
			body: `{"choices":[{"message":{"content":"4","reasoning":{"effort":"low"}}}]}`,
			want: agent.Reply{Content: "4"},
		},
		{
			name: "refusal",
			body: `{"choices":[{"message":{"content":null,"refusal":"I can't help with that."}}]}`,
			want: agent.Reply{Content: "I can't help with that."},
		},
		{
			name: "invented tool name passes through",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"name":"book_moon_trip","arguments":"{}"}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "a", Name: "book_moon_trip", Arguments: json.RawMessage(`{}`)}}},
		},
		{
			name: "tool call without a name",
			body: `{"choices":[{"message":{"tool_calls":[{"id":"a","function":{"arguments":"{}"}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{{ID: "a", Arguments: json.RawMessage(`{}`)}}, ParseError: "tool_calls[0] has no function name"},
		},
		{
			name: "missing ids get stable ones",
			body: `{"choices":[{"message":{"tool_calls":[{"function":{"name":"f","arguments":"{}"}},{"function":{"name":"f","arguments":"{}"}}]}}]}`,
			want: agent.Reply{ToolCalls: []agent.ToolCall{
				{ID: "call_de3c2d8b9a2e4fe12ea4ad08", Name: "f", Arguments: json.RawMessage(`{}`)},
				{ID: "call_c8b4c8b8f1b4cfc52a8da1d7", Name: "f", Arguments: json.RawMessage(`{}`)},
			}},
		},
		{
			name: "extra fields and choices are ignored",
			body: `{"id":"c","object":"chat.completion","created":1,"model":"m","system_fingerprint":"fp","choices":[{"index":0,"message":{"role":"assistant","content":"a"},"logprobs":null,"finish_reason":"stop"},{"index":1,"message":{"content":"b"}}]}`,
			want: agent.Reply{Content: "a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeChatResponse([]byte(tt.body))
			require.NoError(t, err)
			if strings.HasPrefix(tt.name, "missing ids") || tt.name == "legacy function_call" {
				// The ids are hashes; check their shape and stability, then compare the rest.
				again, _ := DecodeChatResponse([]byte(tt.body))
				require.Equal(t, got, again)
				for i := range got.ToolCalls {
					require.Regexp(t, `^call_[0-9a-f]{24}$`, got.ToolCalls[i].ID)
					tt.want.ToolCalls[i].ID = got.ToolCalls[i].ID
				}
				if len(got.ToolCalls) == 2 {
					require.NotEqual(t, got.ToolCalls[0].ID, got.ToolCalls[1].ID)
				}
			}
			require.Equal(t, tt.want, got)
		})
	}
}

func TestDecodeChatResponseErrors(t *testing.T) {
	tests := []struct {
		name, body string
		want       string // substring of the error
		api        bool   // an *APIError rather than a *DecodeError
	}{
		{name: "empty", body: "", want: "empty body"},
		{name: "truncated", body: `{"choices":[{"message":{"content":"Hel`, want: "truncated JSON: body ends after 38 bytes"},
		{name: "malformed", body: `{"choices":[{"message":{"content":"x"}}],}`, want: "malformed JSON at offset"},
		{name: "HTML", body: `<html><body>502 Bad Gateway</body></html>`, want: `malformed JSON at offset 1: invalid character '<'`},
		{name: "trailing data", body: `{"choices":[]} {"x":1}`, want: "trailing data after the JSON value"},
		{name: "no choices", body: `{"choices":[]}`, want: "response has no choices"},
		{name: "top-level array", body: `[1]`, want: "the response is a JSON array, want an object"},
		{name: "wrong field type", body: `{"choices":[{"message":{"tool_calls":{"a":1}}}]}`, want: "choices.message.tool_calls is a JSON object"},
		{name: "content a number", body: `{"choices":[{"message":{"content":5}}]}`, want: "choices[0].message.content: is a JSON number, want a string, null or an array of parts"},
		{name: "error body with status 200", body: `{"error":{"message":"model overloaded","type":"server_error"}}`, want: "model overloaded", api: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeChatResponse([]byte(tt.body))
			require.Error(t, err)
			require.Contains(t, err.Error(), tt.want)
			if tt.api {
				var ae *APIError
				require.ErrorAs(t, err, &ae)
			} else {
				var de *DecodeError
				require.ErrorAs(t, err, &de)
				require.False(t, de.Truncated, "a whole body that is bad JSON is not retried")
			}
		})
	}
}

// TestDecodeChatResponseMalformedReply: a choice without a message is no
// answer at all; taking it as an empty one would score a Task-1 negative
// as correctly answered.
func TestDecodeChatResponseMalformedReply(t *testing.T) {
	for _, body := range []string{
		`{"choices":[{"finish_reason":"stop"}]}`,
		`{"choices":[{"index":0,"message":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":3}}`,
	} {
		_, err := DecodeChatResponse([]byte(body))
		var me *MalformedReplyError
		require.ErrorAs(t, err, &me, body)
		require.Contains(t, err.Error(), "choices[0] has no message")
	}
	// An empty message is the model's (empty) answer, not a malformed reply.
	r, err := DecodeChatResponse([]byte(`{"choices":[{"message":{},"finish_reason":"stop"}]}`))
	require.NoError(t, err)
	require.Equal(t, agent.Reply{}, r)
}

// TestDecodeChatResponseUsageIsInformational: usage numbers a server gets
// wrong are read as 0 and never discard the reply.
func TestDecodeChatResponseUsageIsInformational(t *testing.T) {
	tests := []struct {
		usage string
		want  agent.Usage
	}{
		{`{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}`, agent.Usage{PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5}},
		{`{"prompt_tokens":3.0,"completion_tokens":1e1,"total_tokens":"13"}`, agent.Usage{PromptTokens: 3, CompletionTokens: 10, TotalTokens: 13}},
		{`{"prompt_tokens":-1,"completion_tokens":2.5,"total_tokens":99999999999999999999999}`, agent.Usage{}},
		{`{"prompt_tokens":null,"completion_tokens":[1],"total_tokens":{"n":1}}`, agent.Usage{}},
		{`"lots"`, agent.Usage{}},
		{`[1,2,3]`, agent.Usage{}},
		{`null`, agent.Usage{}},
	}
	for _, tt := range tests {
		body := `{"choices":[{"message":{"content":"Hello."},"finish_reason":"stop"}],"usage":` + tt.usage + `}`
		r, err := DecodeChatResponse([]byte(body))
		require.NoError(t, err, tt.usage)
		require.Equal(t, "Hello.", r.Content, tt.usage)
		require.Equal(t, tt.want, r.Usage, tt.usage)
	}
}

func TestParseAPIError(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   APIError
	}{
		{"OpenAI", 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			APIError{Status: 401, Type: "invalid_request_error", Code: "invalid_api_key", Message: "Incorrect API key provided"}},
		{"vLLM top level", 400, `{"object":"error","message":"max_tokens too large","type":"BadRequestError","param":null,"code":400}`,
			APIError{Status: 400, Type: "BadRequestError", Code: "400", Message: "max_tokens too large"}},
		{"Ollama", 404, `{"error":"model \"llama9\" not found"}`,
			APIError{Status: 404, Message: `model "llama9" not found`}},
		{"FastAPI detail", 422, `{"detail":[{"loc":["body","messages"],"msg":"field required"}]}`,
			APIError{Status: 422, Message: `[{"loc":["body","messages"],"msg":"field required"}]`}},
		{"plain text", 502, "Bad Gateway\n", APIError{Status: 502, Message: "Bad Gateway"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, &tt.want, parseAPIError(tt.status, []byte(tt.body)))
		})
	}
	long := parseAPIError(500, bytes.Repeat([]byte("é"), 600))
	require.LessOrEqual(t, len(long.Message), maxErrorText+len("…"))
	require.True(t, strings.HasSuffix(long.Message, "…"))
	require.Equal(t, `agent: model server answered 429 Too Many Requests (rate_limit_error): slow down`,
		(&APIError{Status: 429, Type: "rate_limit_error", Message: "slow down"}).Error())
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{"HTTP-date", map[string]string{"Retry-After": "Mon, 02 Jun 2025 09:00:30 GMT"}, 30 * time.Second},
		{"HTTP-date in the past", map[string]string{"Retry-After": "Mon, 02 Jun 2025 08:00:00 GMT"}, 0},
		{"negative", map[string]string{"Retry-After": "-3"}, 0},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0},
		{"retry-after-ms wins", map[string]string{"Retry-After": "7", "Retry-After-Ms": "250"}, 250 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			require.Equal(t, tt.want, retry.After(h, now))
		})
	}
}

func TestBackoffIsSeededAndBounded(t *testing.T) {
	mk := func(seed uint64) *Client {
		c, err := NewClient(Config{BaseURL: "http://127.0.0.1:1/v1", Model: "m", JitterSeed: seed, MaxBackoff: 4 * time.Second})
		require.NoError(t, err)
		return c
	}
	a, b, other := mk(1), mk(1), mk(2)
	var seqA, seqB, seqO []time.Duration
	for i := 0; i < 8; i++ {
		seqA = append(seqA, a.backoff(i))
		seqB = append(seqB, b.backoff(i))
		seqO = append(seqO, other.backoff(i))
	}
	require.Equal(t, seqA, seqB, "same seed, same waits")
	require.NotEqual(t, seqA, seqO)
	for i, d := range seqA {
		ceiling := min(DefaultInitialBackoff<<i, 4*time.Second)
		require.GreaterOrEqual(t, d, ceiling/2, "attempt %d", i)
		require.LessOrEqual(t, d, ceiling, "attempt %d", i)
	}
}

func TestNewOpenAIClientConfig(t *testing.T) {
	env := func(k string) string {
		if k == "SET_KEY" {
			return "sk-secret"
		}
		return ""
	}
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no model", Config{BaseURL: "http://x/v1"}, "Model: empty"},
		{"bad URL", Config{BaseURL: "127.0.0.1:8000", Model: "m"}, "is not an http(s) URL"},
		{"credentials in URL", Config{BaseURL: "http://u:p@x/v1", Model: "m"}, "credentials in the URL"},
		{"unset key variable", Config{BaseURL: "http://x/v1", Model: "m", APIKeyEnv: "NOPE", Getenv: env}, "environment variable NOPE is empty or unset"},
		{"bad protocol", Config{BaseURL: "http://x/v1", Model: "m", Protocol: "xml"}, `"xml" is neither`},
		{"negative retries", Config{BaseURL: "http://x/v1", Model: "m", MaxRetries: -1}, "MaxRetries: negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewClient(tt.cfg)
			var ce *ConfigError
			require.ErrorAs(t, err, &ce)
			require.Contains(t, err.Error(), tt.want)
		})
	}
	c, err := NewClient(Config{BaseURL: "http://x/v1/", Model: "m", APIKeyEnv: "SET_KEY", Getenv: env})
	require.NoError(t, err)
	require.Equal(t, "http://x/v1/chat/completions", c.endpoint)
	for _, s := range []string{c.String(), fmt.Sprintf("%v", c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c)} {
		require.NotContains(t, s, "sk-secret")
	}
	c2, err := NewClient(Config{BaseURL: "http://x/v1/chat/completions", Model: "m"})
	require.NoError(t, err)
	require.Equal(t, "http://x/v1/chat/completions", c2.endpoint)
}

// twentyTools is a request-sized catalog slice for encoding tests and benchmarks.
func twentyTools() []toolset.OpenAITool {
	var tools []toolset.OpenAITool
	for i := 0; i < 20; i++ {
		tools = append(tools, toolset.OpenAITool{Type: "function", Function: toolset.OpenAIFunction{
			Name:        fmt.Sprintf("tool_%02d_for_api_%02d", i, i),
			Description: fmt.Sprintf("Looks up record %d. Returns <json> & more.", i),
			Parameters: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"query":  map[string]any{"type": "string", "description": "what to look for"},
					"limit":  map[string]any{"type": "integer", "default": 10, "minimum": 1},
					"format": map[string]any{"type": "string", "enum": []any{"json", "xml"}},
					"when":   map[string]any{"type": "string", "format": "date"},
				},
				"required": []any{"query"},
			},
		}})
	}
	return tools
}

func sampleConversation() []agent.Message {
	return []agent.Message{
		{Role: agent.RoleSystem, Content: "You answer questions using tools."},
		{Role: agent.RoleUser, Content: "What is the weather in Paris on 2025-06-02?"},
		{Role: agent.RoleAssistant, Content: "I will look it up.", ToolCalls: []agent.ToolCall{{ID: "call_1", Name: "tool_00_for_api_00", Arguments: json.RawMessage(`{"query":"Paris","when":"2025-06-02"}`)}}},
		{Role: agent.RoleTool, ToolCallID: "call_1", Name: "tool_00_for_api_00", Content: `{"temp_c":21,"sky":"clear"}`},
	}
}

func TestRequestEncodingGolden(t *testing.T) {
	yes := true
	seed := 7
	for _, tc := range []struct {
		file string
		cfg  Config
	}{
		{"request_native.golden.json", Config{Model: "qwen2.5-7b-instruct", MaxTokens: 512, ToolChoice: "auto", ParallelToolCalls: &yes, Seed: &seed}},
		{"request_forced_tool.golden.json", Config{Model: "m", ToolChoice: "tool_01_for_api_01"}},
		{"request_text.golden.json", Config{Model: "llama-3-8b", Protocol: ProtocolText}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tc.cfg.BaseURL = "http://127.0.0.1:8000/v1"
			c, err := NewClient(tc.cfg)
			require.NoError(t, err)
			tools := twentyTools()[:3]
			req, err := c.BuildRequest(sampleConversation(), tools)
			require.NoError(t, err)
			body, err := EncodeRequest(req)
			require.NoError(t, err)
			for i := 0; i < 5; i++ {
				again, _ := c.BuildRequest(sampleConversation(), twentyTools()[:3])
				b2, _ := EncodeRequest(again)
				require.Equal(t, body, b2, "request bytes must not vary")
			}
			var pretty bytes.Buffer
			require.NoError(t, json.Indent(&pretty, body, "", "  "))
			pretty.WriteByte('\n')
			golden.Check(t, filepath.Join("testdata", tc.file), pretty.Bytes())
		})
	}
}

func TestBuildRequestRejects(t *testing.T) {
	c, err := NewClient(Config{BaseURL: "http://x/v1", Model: "m"})
	require.NoError(t, err)
	_, err = c.BuildRequest(nil, nil)
	var me *MessageError
	require.ErrorAs(t, err, &me)
	_, err = c.BuildRequest([]agent.Message{{Role: "robot", Content: "x"}}, nil)
	require.EqualError(t, err, `agent: bad conversation: messages[0]: unknown role "robot"`)
	_, err = c.BuildRequest([]agent.Message{{Role: agent.RoleUser}}, []toolset.OpenAITool{{Type: "function"}})
	require.ErrorContains(t, err, "tools[0] has no function name")
	// Without tools, tool_choice and parallel_tool_calls stay out of the request.
	yes := true
	c2, _ := NewClient(Config{BaseURL: "http://x/v1", Model: "m", ToolChoice: "required", ParallelToolCalls: &yes})
	req, err := c2.BuildRequest([]agent.Message{{Role: agent.RoleUser, Content: "hi"}}, nil)
	require.NoError(t, err)
	body, _ := EncodeRequest(req)
	require.Equal(t, `{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":0}`, string(body))
}

func TestErrorsNeverPanicOnNil(t *testing.T) {
	// Errors print sensibly from their zero values.
	for _, err := range []error{&APIError{}, &TimeoutError{}, &DecodeError{}, &ConfigError{}, &MessageError{}, &MissError{}} {
		require.NotEmpty(t, err.Error())
	}
	require.True(t, errors.Is(&ConnectionError{Err: os.ErrDeadlineExceeded}, os.ErrDeadlineExceeded))
}

func FuzzDecodeChatResponse(f *testing.F) {
	for _, s := range []string{
		`{"choices":[{"message":{"content":"hi"}}]}`,
		`{"choices":[{"message":{"content":null,"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{\"x\":1}"}}]}}]}`,
		`{"choices":[{"message":{"tool_calls":[{"function":{"name":"f","arguments":{"x":[1,{"y":null}]}}}]},"finish_reason":"length"}],"usage":{"prompt_tokens":1}}`,
		`{"choices":[{"message":{"content":[{"type":"text","text":"a"},"b",{"type":"refusal","refusal":"c"}]}}]}`,
		`{"choices":[{"message":{"function_call":{"name":"f","arguments":"not json"},"reasoning_content":"r"}}]}`,
		`{"error":{"message":"x","code":429}}`,
		`{"choices":[{"message":{"content":"x"}}]`,
		`[]`, ``, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		reply, err := DecodeChatResponse(body)
		if err != nil {
			var de *DecodeError
			var ae *APIError
			if !errors.As(err, &de) && !errors.As(err, &ae) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			return
		}
		for _, tc := range reply.ToolCalls {
			if tc.ID == "" {
				t.Fatalf("tool call without id: %+v", tc)
			}
			switch {
			case tc.ArgumentsError != "":
				if len(tc.Arguments) != 0 {
					t.Fatalf("arguments error with arguments: %+v", tc)
				}
			default:
				var obj map[string]any
				if err := json.Unmarshal(tc.Arguments, &obj); err != nil || obj == nil {
					t.Fatalf("arguments not an object: %q (%v)", tc.Arguments, err)
				}
			}
		}
		// Decoding is a pure function of the body.
		again, err := DecodeChatResponse(body)
		if err != nil {
			t.Fatalf("second decode failed: %v", err)
		}
		a, _ := json.Marshal(reply)
		b, _ := json.Marshal(again)
		if !bytes.Equal(a, b) {
			t.Fatalf("decode not deterministic:\n%s\n%s", a, b)
		}
	})
}

func BenchmarkEncodeDecode20Tools(b *testing.B) {
	c, err := NewClient(Config{BaseURL: "http://127.0.0.1:8000/v1", Model: "m", ToolChoice: "auto"})
	if err != nil {
		b.Fatal(err)
	}
	tools := twentyTools()
	msgs := sampleConversation()
	resp := []byte(`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_a","type":"function","function":{"name":"tool_03_for_api_03","arguments":"{\"query\": \"Paris\", \"limit\": 5}"}},{"id":"call_b","type":"function","function":{"name":"tool_07_for_api_07","arguments":"{\"query\": \"Lyon\", \"format\": \"json\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":1200,"completion_tokens":40,"total_tokens":1240}}`)
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			req, err := c.BuildRequest(msgs, tools)
			if err != nil {
				b.Fatal(err)
			}
			body, err := EncodeRequest(req)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(body)))
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(resp)))
		for b.Loop() {
			if _, _, err := decodeChatResponse(resp, "salt"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("key", func(b *testing.B) {
		b.ReportAllocs()
		req, _ := c.BuildRequest(msgs, tools)
		for b.Loop() {
			if _, _, err := RequestKey(req); err != nil {
				b.Fatal(err)
			}
		}
	})
}
