// Package openai is the agent behind any OpenAI-compatible chat-completions endpoint: the client, the text protocol for models without native tool calls, and transcripts that record and replay its requests.
package openai

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/internal/clip"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/internal/retry"
	"github.com/understudy/understudy/toolset"
)

// Protocol says how tools reach the model.
type Protocol string

const (
	// ProtocolNative sends tools in the request's "tools" field and reads
	// the reply's "tool_calls" (OpenAI, vLLM with a tool parser, Ollama).
	ProtocolNative Protocol = "native"
	// ProtocolText describes tools in the system prompt and reads
	// Thought / Action / Action Input text back, for models served without
	// native tool calling.
	ProtocolText Protocol = "text"
)

// Defaults for Config fields left zero.
const (
	DefaultTimeout          = 60 * time.Second
	DefaultMaxConcurrent    = 4
	DefaultInitialBackoff   = 500 * time.Millisecond
	DefaultMaxBackoff       = 20 * time.Second
	DefaultMaxRetryWait     = 60 * time.Second
	DefaultMaxResponseBytes = 32 << 20
	// DefaultMaxRetries is a sensible value for command-line flags; the
	// config's zero value means no retries.
	DefaultMaxRetries = 3
)

// Config configures an Client. Only BaseURL and Model are required.
type Config struct {
	// BaseURL is the API root, for example "http://127.0.0.1:8000/v1";
	// "/chat/completions" is appended unless already present.
	BaseURL string
	Model   string
	// APIKeyEnv is the NAME of the environment variable holding the API key
	// (for example "OPENAI_API_KEY"). Empty means no Authorization header,
	// as local servers need. The key itself never appears in requests
	// recorded by this package, in errors, or in logs.
	APIKeyEnv string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string

	// Protocol selects native tool calling (default) or the text protocol.
	Protocol Protocol

	Temperature float64 // always sent; the zero value means greedy decoding
	MaxTokens   int     // 0 leaves the server default
	// Seed is sent as the request's "seed" when set.
	Seed *int
	// ToolChoice is "auto", "none", "required", or a function name to force;
	// empty leaves it unset. Sent only when there are tools.
	ToolChoice string
	// ParallelToolCalls is sent only when set and there are tools.
	ParallelToolCalls *bool

	// Timeout bounds one HTTP attempt (default 60 s).
	Timeout time.Duration
	// MaxRetries is how many times a failed attempt (429, 408, 5xx,
	// connection error, timeout, truncated body) is retried; 0 means none.
	MaxRetries int
	// InitialBackoff and MaxBackoff shape the exponential backoff used when
	// the server gives no Retry-After (defaults 500 ms and 20 s).
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
	// MaxRetryWait caps any single wait, including one asked for by Retry-After (default 60 s).
	MaxRetryWait time.Duration
	// JitterSeed seeds the backoff jitter so waits are reproducible.
	JitterSeed uint64
	// MaxConcurrent limits requests in flight through this client (default 4).
	MaxConcurrent int
	// MaxResponseBytes bounds a response body (default 32 MiB).
	MaxResponseBytes int64

	// HTTPClient sends the requests; nil means a client with no overall
	// timeout (Timeout applies per attempt through the context).
	HTTPClient *http.Client
	// Sleep waits between attempts; nil means a timer that honours ctx.
	// Tests inject one that records the durations and returns at once.
	Sleep func(ctx context.Context, d time.Duration) error
	// Clock reads the time for Retry-After HTTP-dates; nil means the system
	// clock, since the date is the server's wall-clock time.
	Clock clock.Clock
}

// Client is an Agent backed by an OpenAI-compatible chat-completions endpoint.
type Client struct {
	cfg      Config
	endpoint string
	key      string
	http     *http.Client
	sleep    func(context.Context, time.Duration) error
	clock    clock.Clock
	sem      chan struct{}

	mu  sync.Mutex
	rng *rand.Rand
}

var (
	_ agent.Agent    = (*Client)(nil)
	_ RequestBuilder = (*Client)(nil)
)

// ConfigError reports an unusable Config.
type ConfigError struct {
	Field  string
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("agent: bad OpenAI config: %s: %s", e.Field, e.Reason)
}

// NewClient checks cfg, reads the API key from the named environment
// variable and returns a client ready to use.
func NewClient(cfg Config) (*Client, error) {
	if cfg.Model == "" {
		return nil, &ConfigError{Field: "Model", Reason: "empty"}
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &ConfigError{Field: "BaseURL", Reason: fmt.Sprintf("%q is not an http(s) URL", cfg.BaseURL)}
	}
	if u.User != nil {
		return nil, &ConfigError{Field: "BaseURL", Reason: "credentials in the URL are not accepted; name an environment variable in APIKeyEnv"}
	}
	switch cfg.Protocol {
	case "":
		cfg.Protocol = ProtocolNative
	case ProtocolNative, ProtocolText:
	default:
		return nil, &ConfigError{Field: "Protocol", Reason: fmt.Sprintf("%q is neither %q nor %q", cfg.Protocol, ProtocolNative, ProtocolText)}
	}
	if cfg.MaxRetries < 0 {
		return nil, &ConfigError{Field: "MaxRetries", Reason: "negative"}
	}
	if cfg.MaxTokens < 0 {
		return nil, &ConfigError{Field: "MaxTokens", Reason: "negative"}
	}
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var key string
	if cfg.APIKeyEnv != "" {
		key = strings.TrimSpace(getenv(cfg.APIKeyEnv))
		if key == "" {
			return nil, &ConfigError{Field: "APIKeyEnv", Reason: fmt.Sprintf("environment variable %s is empty or unset", cfg.APIKeyEnv)}
		}
	}
	setDefault(&cfg.Timeout, DefaultTimeout)
	setDefault(&cfg.InitialBackoff, DefaultInitialBackoff)
	setDefault(&cfg.MaxBackoff, DefaultMaxBackoff)
	setDefault(&cfg.MaxRetryWait, DefaultMaxRetryWait)
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = DefaultMaxConcurrent
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	c := &Client{
		cfg:      cfg,
		endpoint: chatEndpoint(cfg.BaseURL),
		key:      key,
		http:     cfg.HTTPClient,
		sleep:    cfg.Sleep,
		clock:    cfg.Clock,
		sem:      make(chan struct{}, cfg.MaxConcurrent),
		rng:      rand.New(rand.NewPCG(cfg.JitterSeed, cfg.JitterSeed^0x9e3779b97f4a7c15)),
	}
	if c.http == nil {
		c.http = &http.Client{}
	}
	if c.sleep == nil {
		c.sleep = retry.Sleep
	}
	if c.clock == nil {
		c.clock = clock.Real{}
	}
	return c, nil
}

func setDefault(d *time.Duration, v time.Duration) {
	if *d <= 0 {
		*d = v
	}
}

func chatEndpoint(base string) string {
	base = strings.TrimRight(base, "/")
	if strings.HasSuffix(base, "/chat/completions") {
		return base
	}
	return base + "/chat/completions"
}

// String describes the client without its key, so printing it is safe.
func (c *Client) String() string {
	return fmt.Sprintf("Client{endpoint=%s model=%s protocol=%s}", c.endpoint, c.cfg.Model, c.cfg.Protocol)
}

// GoString is String, so %#v cannot print the key either.
func (c *Client) GoString() string { return c.String() }

// Model is the model name sent in every request.
func (c *Client) Model() string { return c.cfg.Model }

// ChatRequest is the chat-completions request body. Field order is the
// wire order; with tools kept in the given order and parameter schemas
// encoded with sorted keys, equal requests encode to equal bytes.
type ChatRequest struct {
	Model             string               `json:"model"`
	Messages          []ChatMessage        `json:"messages"`
	Tools             []toolset.OpenAITool `json:"tools,omitempty"`
	ToolChoice        json.RawMessage      `json:"tool_choice,omitempty"`
	ParallelToolCalls *bool                `json:"parallel_tool_calls,omitempty"`
	Temperature       float64              `json:"temperature"`
	MaxTokens         int                  `json:"max_tokens,omitempty"`
	Seed              *int                 `json:"seed,omitempty"`
	Stop              []string             `json:"stop,omitempty"`
}

// ChatMessage is one message on the wire.
type ChatMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	ToolCalls  []ChatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	Name       string         `json:"name,omitempty"`
}

// ChatToolCall is one tool call in an assistant message on the wire.
type ChatToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function ChatFunctionCall `json:"function"`
}

// ChatFunctionCall names the function and carries its arguments as a JSON string.
type ChatFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// RequestBuilder is an Agent that can show the exact request a conversation
// becomes; transcripts key on it.
type RequestBuilder interface {
	BuildRequest(messages []agent.Message, tools []toolset.OpenAITool) (*ChatRequest, error)
}

// MessageError reports a conversation that cannot be sent.
type MessageError struct {
	Index  int // -1 for the conversation as a whole
	Reason string
}

func (e *MessageError) Error() string {
	if e.Index < 0 {
		return "agent: bad conversation: " + e.Reason
	}
	return fmt.Sprintf("agent: bad conversation: messages[%d]: %s", e.Index, e.Reason)
}

// BuildRequest turns a conversation into the request the client would send.
func (c *Client) BuildRequest(messages []agent.Message, tools []toolset.OpenAITool) (*ChatRequest, error) {
	if len(messages) == 0 {
		return nil, &MessageError{Index: -1, Reason: "no messages"}
	}
	for i, m := range messages {
		switch m.Role {
		case agent.RoleSystem, agent.RoleUser, agent.RoleAssistant, agent.RoleTool:
		default:
			return nil, &MessageError{Index: i, Reason: fmt.Sprintf("unknown role %q", m.Role)}
		}
	}
	for i, t := range tools {
		if t.Function.Name == "" {
			return nil, &MessageError{Index: -1, Reason: fmt.Sprintf("tools[%d] has no function name", i)}
		}
	}
	req := &ChatRequest{
		Model:       c.cfg.Model,
		Temperature: c.cfg.Temperature,
		MaxTokens:   c.cfg.MaxTokens,
		Seed:        c.cfg.Seed,
	}
	if c.cfg.Protocol == ProtocolText {
		req.Messages = wireMessages(TextMessages(messages, tools))
		req.Stop = []string{textStop}
		return req, nil
	}
	req.Messages = wireMessages(messages)
	if len(tools) > 0 {
		req.Tools = tools
		req.ToolChoice = toolChoice(c.cfg.ToolChoice)
		req.ParallelToolCalls = c.cfg.ParallelToolCalls
	}
	return req, nil
}

func toolChoice(s string) json.RawMessage {
	switch s {
	case "":
		return nil
	case "auto", "none", "required":
		b, _ := json.Marshal(s)
		return b
	}
	b, _ := json.Marshal(struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}{Type: "function", Function: struct {
		Name string `json:"name"`
	}{Name: s}})
	return b
}

func wireMessages(messages []agent.Message) []ChatMessage {
	out := make([]ChatMessage, len(messages))
	for i, m := range messages {
		w := ChatMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name}
		for _, tc := range m.ToolCalls {
			w.ToolCalls = append(w.ToolCalls, ChatToolCall{
				ID:       tc.ID,
				Type:     "function",
				Function: ChatFunctionCall{Name: tc.Name, Arguments: argumentsText(tc)},
			})
		}
		out[i] = w
	}
	return out
}

// argumentsText is what a call's arguments looked like on the wire: the
// JSON object, or the model's invalid text verbatim.
func argumentsText(tc agent.ToolCall) string {
	switch {
	case len(tc.Arguments) > 0:
		return string(tc.Arguments)
	case tc.RawArguments != "":
		return tc.RawArguments
	}
	return "{}"
}

// EncodeRequest returns the request body bytes: deterministic, with <, >
// and & left unescaped.
func EncodeRequest(req *ChatRequest) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return nil, fmt.Errorf("agent: encode request: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// Respond sends the conversation and returns the model's reply.
func (c *Client) Respond(ctx context.Context, messages []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	req, err := c.BuildRequest(messages, tools)
	if err != nil {
		return agent.Reply{}, err
	}
	body, err := EncodeRequest(req)
	if err != nil {
		return agent.Reply{}, err
	}
	data, err := c.send(ctx, body)
	if err != nil {
		return agent.Reply{}, err
	}
	salt := requestSalt(body)
	reply, finish, err := decodeChatResponse(data, salt)
	if err != nil {
		var de *DecodeError
		if errors.As(err, &de) {
			de.Snippet = c.redact(de.Snippet)
		}
		var me *MalformedReplyError
		if errors.As(err, &me) {
			me.Snippet = c.redact(me.Snippet)
		}
		var ae *APIError
		if errors.As(err, &ae) {
			ae.Message = c.redact(ae.Message)
		}
		return agent.Reply{}, err
	}
	if c.cfg.Protocol == ProtocolText && len(reply.ToolCalls) == 0 && reply.ParseError == "" {
		parsed := parseText(reply.Content, tools, salt)
		if finish == "length" && parsed.ParseError != "" {
			parsed.ParseError += " (the reply was cut off at the token limit)"
		}
		parsed.Usage = reply.Usage
		parsed.Reasoning = joinText("\n", reply.Reasoning, parsed.Reasoning)
		reply = parsed
	}
	return reply, nil
}

func requestSalt(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:8])
}

// send posts body, retrying what is worth retrying.
func (c *Client) send(ctx context.Context, body []byte) ([]byte, error) {
	var (
		data      []byte
		cancelled error
	)
	attempts, err := retry.Do(ctx, retry.Policy{Retries: c.cfg.MaxRetries, Sleep: c.sleep}, func(n int) (time.Duration, bool, error) {
		var err error
		if data, err = c.attempt(ctx, body); err == nil {
			return 0, false, nil
		}
		if cancelled = ctx.Err(); cancelled != nil {
			return 0, false, err
		}
		// The wait is worked out even for the last attempt: it draws from
		// the jitter source, and every later wait depends on those draws.
		wait, again := c.retryWait(err, n)
		return wait, again, err
	})
	var we *retry.WaitError
	switch {
	case err == nil:
		return data, nil
	case cancelled != nil:
		return nil, fmt.Errorf("agent: chat completion: %w", cancelled)
	case errors.As(err, &we):
		return nil, fmt.Errorf("agent: chat completion: %w", err)
	case attempts > 1:
		return nil, fmt.Errorf("agent: chat completion failed after %d attempts: %w", attempts, err)
	}
	return nil, err
}

// attempt is one HTTP exchange under the concurrency limit and the per-attempt timeout.
func (c *Client) attempt(ctx context.Context, body []byte) ([]byte, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()

	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("agent: build HTTP request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, c.transportError(ctx, actx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxResponseBytes+1))
	if err != nil {
		if terr := c.transportError(ctx, actx, err); !isConnection(terr) {
			return nil, terr
		}
		reason := fmt.Sprintf("response body truncated after %d bytes", len(data))
		if resp.ContentLength > 0 {
			reason += fmt.Sprintf(" of %d announced by Content-Length", resp.ContentLength)
		}
		return nil, &DecodeError{Status: resp.StatusCode, Reason: reason, Truncated: true, Err: err}
	}
	if int64(len(data)) > c.cfg.MaxResponseBytes {
		return nil, &DecodeError{Status: resp.StatusCode, Reason: fmt.Sprintf("response body exceeds %d bytes", c.cfg.MaxResponseBytes)}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := parseAPIError(resp.StatusCode, data)
		e.Message = c.redact(e.Message)
		e.RetryAfter = retry.After(resp.Header, c.clock.Now())
		return nil, e
	}
	return data, nil
}

func isConnection(err error) bool {
	var ce *ConnectionError
	return errors.As(err, &ce)
}

// transportError classifies a failed exchange: the caller's cancellation,
// this attempt's timeout, or a connection problem.
func (c *Client) transportError(ctx, actx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ne net.Error
	if errors.Is(actx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &TimeoutError{After: c.cfg.Timeout}
	}
	return &ConnectionError{Err: c.redactError(err)}
}

// retryWait says whether err is worth another attempt and how long to wait first.
func (c *Client) retryWait(err error, attempt int) (time.Duration, bool) {
	var (
		ae *APIError
		te *TimeoutError
		ce *ConnectionError
		de *DecodeError
	)
	switch {
	case errors.As(err, &ae):
		if ae.Status != http.StatusTooManyRequests && ae.Status != http.StatusRequestTimeout && ae.Status < 500 {
			return 0, false
		}
		if ae.RetryAfter > 0 {
			return min(ae.RetryAfter, c.cfg.MaxRetryWait), true
		}
	case errors.As(err, &te), errors.As(err, &ce):
	case errors.As(err, &de):
		if !de.Truncated {
			return 0, false
		}
	default:
		return 0, false
	}
	return c.backoff(attempt), true
}

// backoff is InitialBackoff doubled per attempt, capped, with the upper
// half jittered from the seeded source.
func (c *Client) backoff(attempt int) time.Duration {
	return retry.Backoff(c.cfg.InitialBackoff, min(c.cfg.MaxBackoff, c.cfg.MaxRetryWait), attempt, c.jitter)
}

// jitter draws from the seeded source, which concurrent calls share.
func (c *Client) jitter(n int64) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rng.Int64N(n)
}

// redact removes the API key from text that came from elsewhere (a server
// may echo what it was sent).
func (c *Client) redact(s string) string {
	if c.key == "" || s == "" {
		return s
	}
	return strings.ReplaceAll(s, c.key, "[redacted]")
}

func (c *Client) redactError(err error) error {
	if c.key == "" || !strings.Contains(err.Error(), c.key) {
		return err
	}
	return errors.New(c.redact(err.Error()))
}

// APIError is an error answer from the model server, read from the OpenAI
// error body ({"error": {"message", "type", "code"}}) or the variants vLLM
// and Ollama send.
type APIError struct {
	Status  int
	Type    string
	Code    string
	Message string
	// RetryAfter is the wait the server asked for, 0 if none.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent: model server answered %d", e.Status)
	if t := http.StatusText(e.Status); t != "" {
		b.WriteString(" " + t)
	}
	if e.Type != "" || e.Code != "" {
		b.WriteString(" (" + joinText(", ", e.Type, e.Code) + ")")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// TimeoutError reports an attempt that got no complete answer in time.
type TimeoutError struct {
	After time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("agent: model server did not answer within %v", e.After)
}

// Timeout marks the error as a timeout for net.Error-style checks.
func (e *TimeoutError) Timeout() bool { return true }

// ConnectionError reports a failure to reach the model server or a broken connection.
type ConnectionError struct {
	Err error
}

func (e *ConnectionError) Error() string {
	return "agent: cannot reach model server: " + e.Err.Error()
}

func (e *ConnectionError) Unwrap() error { return e.Err }

// DecodeError reports a response the client could not understand.
type DecodeError struct {
	Status int
	Reason string
	// Snippet is the start of the body, for the reader of the error.
	Snippet string
	// Truncated is set when the body ended early; such attempts are retried.
	Truncated bool
	Err       error
}

func (e *DecodeError) Error() string {
	s := "agent: cannot decode model response: " + e.Reason
	if e.Snippet != "" {
		s += fmt.Sprintf(" (body starts %q)", e.Snippet)
	}
	return s
}

func (e *DecodeError) Unwrap() error { return e.Err }

// MalformedReplyError reports a response whose choice carries no message:
// nothing the model said can be read, and an empty answer must not stand
// in for it (a Task-1 negative would count as correctly answered). It is
// not retried: the server answered, and would answer the same.
type MalformedReplyError struct {
	Reason string
	// Snippet is the start of the body, for the reader of the error.
	Snippet string
}

func (e *MalformedReplyError) Error() string {
	s := "agent: malformed model reply: " + e.Reason
	if e.Snippet != "" {
		s += fmt.Sprintf(" (body starts %q)", e.Snippet)
	}
	return s
}

const maxErrorText = 500

func parseAPIError(status int, body []byte) *APIError {
	e := &APIError{Status: status}
	var w struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Type    json.RawMessage `json:"type"`
		Code    json.RawMessage `json:"code"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &w) == nil {
		var inner struct {
			Message json.RawMessage `json:"message"`
			Type    json.RawMessage `json:"type"`
			Code    json.RawMessage `json:"code"`
		}
		switch {
		case len(w.Error) > 0 && w.Error[0] == '{' && json.Unmarshal(w.Error, &inner) == nil:
			e.Message, e.Type, e.Code = jsonText(inner.Message), jsonText(inner.Type), jsonText(inner.Code)
		case len(w.Error) > 0 && w.Error[0] == '"':
			e.Message = jsonText(w.Error)
		case len(w.Message) > 0:
			e.Message, e.Type, e.Code = jsonText(w.Message), jsonText(w.Type), jsonText(w.Code)
		case len(w.Detail) > 0:
			e.Message = jsonText(w.Detail)
		}
	}
	if e.Message == "" {
		e.Message = strings.TrimSpace(string(body))
	}
	e.Message = clip.Text(e.Message, maxErrorText)
	return e
}

// jsonText renders a JSON value as text: strings unquoted, null empty, others compact.
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return string(raw)
}

func joinText(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

// Response decoding.

type wireResponse struct {
	Choices []wireChoice `json:"choices"`
	// Usage is read leniently (usageOf): it is informational, and a
	// server's odd numbers never cost a reply.
	Usage json.RawMessage `json:"usage"`
	Error json.RawMessage `json:"error"`
}

type wireChoice struct {
	// Message is nil when the choice has none (or null): a reply that
	// says nothing readable, not an empty answer.
	Message      *wireMessage `json:"message"`
	FinishReason string       `json:"finish_reason"`
}

type wireMessage struct {
	Content          json.RawMessage `json:"content"`
	Refusal          json.RawMessage `json:"refusal"`
	ToolCalls        []wireToolCall  `json:"tool_calls"`
	FunctionCall     *wireFunction   `json:"function_call"`
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	Reasoning        json.RawMessage `json:"reasoning"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// DecodeChatResponse turns a chat-completions response body into a Reply.
// It never panics: a body it cannot read gives a *DecodeError, an error
// body sent with status 200 an *APIError.
func DecodeChatResponse(body []byte) (agent.Reply, error) {
	r, _, err := decodeChatResponse(body, "")
	return r, err
}

func decodeChatResponse(body []byte, salt string) (agent.Reply, string, error) {
	var w wireResponse
	if err := strictUnmarshal(body, &w); err != nil {
		return agent.Reply{}, "", err
	}
	if len(w.Choices) == 0 {
		if len(w.Error) > 0 && string(w.Error) != "null" {
			return agent.Reply{}, "", parseAPIError(http.StatusOK, body)
		}
		return agent.Reply{}, "", &DecodeError{Status: http.StatusOK, Reason: "response has no choices", Snippet: clip.Text(string(body), 120)}
	}
	ch := w.Choices[0]
	if ch.Message == nil {
		return agent.Reply{}, "", &MalformedReplyError{Reason: "choices[0] has no message", Snippet: clip.Text(string(body), 120)}
	}
	m := *ch.Message
	reply := agent.Reply{Usage: usageOf(w.Usage)}
	content, err := decodeContent(m.Content)
	if err != nil {
		return agent.Reply{}, "", &DecodeError{Status: http.StatusOK, Reason: "choices[0].message.content: " + err.Error()}
	}
	if content == "" {
		content = textOnly(m.Refusal)
	}
	reply.Content = content
	reply.Reasoning = textOnly(m.ReasoningContent)
	if reply.Reasoning == "" {
		reply.Reasoning = textOnly(m.Reasoning)
	}
	calls := m.ToolCalls
	if len(calls) == 0 && m.FunctionCall != nil {
		calls = []wireToolCall{{Function: *m.FunctionCall}}
	}
	var problems []string
	for i, wc := range calls {
		tc := agent.ToolCall{ID: wc.ID, Name: wc.Function.Name}
		tc.Arguments, tc.RawArguments, tc.ArgumentsError = normaliseArguments(wc.Function.Arguments)
		if tc.ArgumentsError != "" && ch.FinishReason == "length" {
			tc.ArgumentsError += " (the reply was cut off at the token limit)"
		}
		if tc.Name == "" {
			problems = append(problems, fmt.Sprintf("tool_calls[%d] has no function name", i))
		}
		if tc.ID == "" {
			tc.ID = callID(salt, i, tc.Name, argumentsText(tc))
		}
		reply.ToolCalls = append(reply.ToolCalls, tc)
	}
	reply.ParseError = strings.Join(problems, "; ")
	return reply, ch.FinishReason, nil
}

// usageOf reads the usage object leniently: each count that is a whole,
// non-negative number within int32 range (or a string holding one) is
// kept; anything else (a fraction, a negative or overflowing number,
// another JSON type, a missing object) counts as 0. Usage only informs
// the report.
func usageOf(raw json.RawMessage) agent.Usage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return agent.Usage{}
	}
	count := func(name string) int {
		var n json.Number
		if json.Unmarshal(fields[name], &n) != nil {
			return 0
		}
		i, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			f, ferr := n.Float64()
			if ferr != nil || f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
				return 0
			}
			i = int64(f)
		}
		if i < 0 || i > math.MaxInt32 {
			return 0
		}
		return int(i)
	}
	return agent.Usage{PromptTokens: count("prompt_tokens"), CompletionTokens: count("completion_tokens"), TotalTokens: count("total_tokens")}
}

// strictUnmarshal decodes one JSON value and names what is wrong when it cannot.
func strictUnmarshal(body []byte, v any) error {
	snippet := clip.Text(string(body), 120)
	dec := json.NewDecoder(bytes.NewReader(body))
	err := dec.Decode(v)
	var (
		se *json.SyntaxError
		te *json.UnmarshalTypeError
	)
	switch {
	case err == nil:
		end := dec.InputOffset()
		if _, err := dec.Token(); err != io.EOF {
			return &DecodeError{Status: http.StatusOK, Reason: fmt.Sprintf("trailing data after the JSON value at offset %d", end), Snippet: snippet}
		}
		return nil
	case errors.Is(err, io.EOF) && len(bytes.TrimSpace(body)) == 0:
		return &DecodeError{Status: http.StatusOK, Reason: "empty body", Err: err}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &DecodeError{Status: http.StatusOK, Reason: fmt.Sprintf("truncated JSON: body ends after %d bytes inside a value", len(body)), Snippet: snippet, Err: err}
	case errors.As(err, &se):
		return &DecodeError{Status: http.StatusOK, Reason: fmt.Sprintf("malformed JSON at offset %d: %v", se.Offset, se), Snippet: snippet, Err: err}
	case errors.As(err, &te):
		if te.Field == "" {
			return &DecodeError{Status: http.StatusOK, Reason: fmt.Sprintf("the response is a JSON %s, want an object", te.Value), Snippet: snippet, Err: err}
		}
		return &DecodeError{Status: http.StatusOK, Reason: fmt.Sprintf("%s is a JSON %s, want %s", te.Field, te.Value, te.Type), Snippet: snippet, Err: err}
	}
	return &DecodeError{Status: http.StatusOK, Reason: err.Error(), Snippet: snippet, Err: err}
}

// decodeContent reads message.content: a string, null, or an array of
// parts whose text parts are joined.
func decodeContent(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	case '[':
		var parts []json.RawMessage
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", err
		}
		var b strings.Builder
		for _, p := range parts {
			p = bytes.TrimSpace(p)
			if len(p) > 0 && p[0] == '"' {
				b.WriteString(jsonText(p))
				continue
			}
			var part struct {
				Type    string          `json:"type"`
				Text    json.RawMessage `json:"text"`
				Refusal json.RawMessage `json:"refusal"`
			}
			if json.Unmarshal(p, &part) != nil {
				continue
			}
			switch {
			case len(part.Text) > 0:
				b.WriteString(textOnly(part.Text))
			case part.Type == "refusal":
				b.WriteString(textOnly(part.Refusal))
			}
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("is a JSON %s, want a string, null or an array of parts", jsonKind(raw))
}

// textOnly is the string in raw, or "" when raw is not a JSON string.
func textOnly(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// normaliseArguments accepts arguments as a JSON string holding an object
// (OpenAI, vLLM) or as an object (Ollama). Missing, null or blank arguments
// mean no arguments. Anything else is kept verbatim with the reason.
func normaliseArguments(raw json.RawMessage) (args json.RawMessage, rawText, problem string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}"), "", ""
	}
	text := raw
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, string(raw), "arguments string cannot be read: " + err.Error()
		}
		if strings.TrimSpace(s) == "" {
			return json.RawMessage("{}"), "", ""
		}
		text = []byte(s)
		if p := objectProblem(text); p != "" {
			return nil, s, p
		}
	} else if raw[0] != '{' {
		return nil, string(raw), fmt.Sprintf("arguments are a JSON %s, want an object or a string holding one", jsonKind(raw))
	}
	var b bytes.Buffer
	if err := json.Compact(&b, text); err != nil {
		return nil, string(text), "arguments are not valid JSON: " + err.Error()
	}
	return json.RawMessage(b.Bytes()), "", ""
}

// objectProblem says why text is not one JSON object, or "" if it is.
func objectProblem(text []byte) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return "arguments are not valid JSON: truncated"
		}
		return "arguments are not valid JSON: " + err.Error()
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Sprintf("arguments are not valid JSON: trailing data after offset %d", end)
	}
	if _, ok := v.(map[string]any); !ok {
		return fmt.Sprintf("arguments are a JSON %s, want an object", jsonKind(text))
	}
	return ""
}

// callID gives a tool call the server left without an id a stable one,
// derived from the request and the call's place and content.
func callID(salt string, i int, name, args string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00%s\x00%s", salt, i, name, args)
	return "call_" + hex.EncodeToString(h.Sum(nil))[:24]
}
