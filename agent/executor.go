package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/understudy/understudy/toolset/search"

	"github.com/understudy/understudy/agent/internal/clip"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Error kinds of a call that failed: a CallError's Kind, and a solver's
// record of the call (budget and unreadable replies are the solver's own).
const (
	ErrUnknownFunction  = "unknown_function"
	ErrInvalidArguments = "invalid_arguments"
	ErrAPI              = "api_error" // the API answered with a 4xx/5xx status (including dependency refusals)
	ErrRateLimited      = "rate_limited"
	ErrNoRecording      = "no_recording"
	ErrUpstream         = "upstream"
	ErrTransport        = "transport" // the tool server could not be reached
	ErrBudget           = "budget_exhausted"
	ErrUnreadable       = "unreadable_reply"
)

// Executor runs one tool call by its exported function name in a session.
// A call the API refused (4xx/5xx) is an Execution with that status; a
// call that never reached the API is a *CallError; a context error is
// returned as it is.
type Executor interface {
	Execute(ctx context.Context, session, function string, args json.RawMessage) (*Execution, error)
}

// Execution is a call that reached the API.
type Execution struct {
	API        string              `json:"api"` // "tool.api"
	Status     int                 `json:"status"`
	Response   json.RawMessage     `json:"response"`
	Source     string              `json:"source,omitempty"`
	Seq        int                 `json:"seq,omitempty"`
	Violations []sandbox.Violation `json:"violations,omitempty"`
}

// CallError is a call that did not reach the API: an unknown function,
// invalid arguments, a rate limit, a replay miss, a failed upstream or an
// unreachable tool server.
type CallError struct {
	Kind     string
	Function string
	Message  string
	// Status is the HTTP status the tool server answered; in-process, the
	// one it would answer (sandbox.StatusOf).
	Status      int
	Validation  []toolset.Violation
	Suggestions []string
	Err         error
}

func (e *CallError) Error() string {
	return fmt.Sprintf("agent: call %s: %s: %s", e.Function, e.Kind, e.Message)
}

func (e *CallError) Unwrap() error { return e.Err }

// DefaultMaxResponseBytes bounds the tool server's answer an HTTPExecutor reads.
const DefaultMaxResponseBytes = 32 << 20

// EngineExecutor runs calls in-process on a sandbox engine. Function names
// are mapped back to APIs with Catalog.APIByExportName (either naming
// style) or as ToolBench's "<api>_for_<tool>".
type EngineExecutor struct {
	Engine *sandbox.Engine
	// Client identifies the caller for the engine's rate limits.
	Client string
}

var (
	_ Executor = (*EngineExecutor)(nil)
	_ Executor = (*HTTPExecutor)(nil)
)

// Execute runs one call through the engine's pipeline.
func (x *EngineExecutor) Execute(ctx context.Context, session, function string, args json.RawMessage) (*Execution, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := x.Engine.Catalog()
	api := c.APIByExportName(function)
	if api == nil {
		api = c.APIByFunction(function)
	}
	if api == nil {
		tool, name := splitFunction(function)
		return nil, &CallError{Kind: ErrUnknownFunction, Function: function, Status: sandbox.KindUnknownAPI.Status(),
			Message:     fmt.Sprintf("there is no function %q", function) + suggestText(search.Suggest(c, tool, name, 3)),
			Suggestions: search.Suggest(c, tool, name, 3)}
	}
	m, err := decodeArgs(function, args)
	if err != nil {
		return nil, err
	}
	cctx := ctx
	if x.Client != "" {
		// An empty Client leaves the caller's own WithClient in effect.
		cctx = sandbox.WithClient(ctx, x.Client)
	}
	res, err := x.Engine.CallAPI(cctx, api, m, session)
	if err != nil {
		return nil, engineCallError(ctx, function, err)
	}
	return &Execution{API: api.ID(), Status: res.Status, Response: res.Response, Source: res.Source, Seq: res.Seq, Violations: res.Violations}, nil
}

// splitFunction reads a dotted export name "<tool>-<api>" (standardized
// tool names never hold '-'); other names are given as the API alone.
func splitFunction(name string) (tool, api string) {
	if t, a, ok := strings.Cut(name, "-"); ok {
		return t, a
	}
	return "", name
}

func suggestText(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(s, ", ") + "?"
}

func decodeArgs(function string, args json.RawMessage) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil || m == nil {
		reason := "arguments must be a JSON object"
		if err != nil {
			reason += ": " + err.Error()
		}
		return nil, &CallError{Kind: ErrInvalidArguments, Function: function, Message: reason, Err: err}
	}
	return m, nil
}

// callErrorKinds names, for each kind of engine error, the CallError kind
// an agent sees. Both executors read it: in-process from the error's
// sandbox.KindOf, over HTTP from the problem type the server answered.
var callErrorKinds = map[sandbox.Kind]string{
	sandbox.KindUnknownAPI:       ErrUnknownFunction,
	sandbox.KindInvalidArguments: ErrInvalidArguments,
	sandbox.KindRateLimited:      ErrRateLimited,
	sandbox.KindNoRecording:      ErrNoRecording,
	sandbox.KindUpstreamFailed:   ErrUpstream,
}

// engineCallError turns an engine error into a CallError, with the status
// a tool server would answer for it, or returns the caller's context error.
func engineCallError(ctx context.Context, function string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	ce := &CallError{Function: function, Status: sandbox.StatusOf(err), Message: err.Error(), Err: err}
	kind, ok := callErrorKinds[sandbox.KindOf(err)]
	if !ok {
		// An internal error, or a timeout of the engine's own while the
		// caller still waits: the API gave no answer.
		kind = ErrUpstream
	}
	ce.Kind = kind
	var (
		nf *sandbox.NotFoundError
		ve *toolset.ValidationError
	)
	switch kind {
	case ErrUnknownFunction:
		if errors.As(err, &nf) {
			ce.Suggestions = nf.Suggestions
		}
	case ErrInvalidArguments:
		if errors.As(err, &ve) {
			ce.Validation = ve.Violations
		}
	}
	return ce
}

// HTTPExecutor runs calls against a running tool server (POST /v1/call).
type HTTPExecutor struct {
	// BaseURL is the server root, e.g. "http://127.0.0.1:8080".
	BaseURL string
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Catalog, when set, maps function names to tool and API exactly; else
	// dotted names are split at the first '-' and other names are sent as
	// ToolBench function names for the server to resolve.
	Catalog *toolset.Catalog
	// MaxResponseBytes bounds a response (default 32 MiB).
	MaxResponseBytes int64
}

// callResult is the part of POST /v1/call's answer the executor reads.
type callResult struct {
	Tool       string              `json:"tool"`
	API        string              `json:"api"`
	Response   json.RawMessage     `json:"response"`
	Status     int                 `json:"status"`
	Source     string              `json:"source"`
	Seq        int                 `json:"seq"`
	Violations []sandbox.Violation `json:"violations"`
}

// problemBody is the part of a problem+json answer the executor reads.
type problemBody struct {
	Type        string              `json:"type"`
	Title       string              `json:"title"`
	Status      int                 `json:"status"`
	Detail      string              `json:"detail"`
	Validation  []toolset.Violation `json:"validation"`
	Suggestions []string            `json:"suggestions"`
}

// Execute posts one call to the tool server.
func (x *HTTPExecutor) Execute(ctx context.Context, session, function string, args json.RawMessage) (*Execution, error) {
	tool, api := splitFunction(function)
	if x.Catalog != nil {
		if a := x.Catalog.APIByExportName(function); a != nil {
			tool, api = a.Tool.StandardizedName, a.Name
		}
	}
	if _, err := decodeArgs(function, args); err != nil {
		return nil, err
	}
	body, err := json.Marshal(struct {
		Tool      string          `json:"tool,omitempty"`
		API       string          `json:"api"`
		Arguments json.RawMessage `json:"arguments"`
		Session   string          `json:"session,omitempty"`
	}{tool, api, args, session})
	if err != nil {
		return nil, &CallError{Kind: ErrInvalidArguments, Function: function, Message: err.Error(), Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(x.BaseURL, "/")+"/v1/call", bytes.NewReader(body))
	if err != nil {
		return nil, &CallError{Kind: ErrTransport, Function: function, Message: err.Error(), Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	hc := x.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &CallError{Kind: ErrTransport, Function: function, Message: "cannot reach the tool server: " + err.Error(), Err: err}
	}
	defer resp.Body.Close()
	limit := x.MaxResponseBytes
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &CallError{Kind: ErrTransport, Function: function, Status: resp.StatusCode, Message: "reading the tool server's answer: " + err.Error(), Err: err}
	}
	if int64(len(data)) > limit {
		return nil, &CallError{Kind: ErrTransport, Function: function, Status: resp.StatusCode, Message: fmt.Sprintf("the tool server's answer exceeds %d bytes", limit)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, problemError(function, resp.StatusCode, data)
	}
	var r callResult
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &CallError{Kind: ErrTransport, Function: function, Status: resp.StatusCode, Message: "the tool server's answer is not a call result: " + err.Error(), Err: err}
	}
	id := r.API
	if r.Tool != "" {
		id = r.Tool + "." + r.API
	}
	return &Execution{API: id, Status: r.Status, Response: r.Response, Source: r.Source, Seq: r.Seq, Violations: r.Violations}, nil
}

// problemError reads a problem+json answer into a CallError.
func problemError(function string, status int, data []byte) *CallError {
	var p problemBody
	_ = json.Unmarshal(data, &p)
	msg := p.Detail
	for _, alt := range []string{p.Title, clip.Text(strings.TrimSpace(string(data)), 300), http.StatusText(status)} {
		if msg == "" {
			msg = alt
		}
	}
	ce := &CallError{Function: function, Status: status, Message: msg, Validation: p.Validation, Suggestions: p.Suggestions}
	kind := p.Type
	if i := strings.LastIndex(kind, "/problems/"); i >= 0 { // the server's problem pages
		kind = kind[i+len("/problems/"):]
	} else if i := strings.LastIndex(kind, "#problem-"); i >= 0 {
		kind = kind[i+len("#problem-"):]
	}
	switch k, ok := callErrorKinds[sandbox.Kind(kind)]; {
	case ok:
		ce.Kind = k
	case kind == "malformed-json": // the server's own: the body was not JSON
		ce.Kind = ErrInvalidArguments
	case status == http.StatusTooManyRequests:
		ce.Kind = ErrRateLimited
	default:
		ce.Kind = ErrTransport
	}
	return ce
}

// RenamedExecutor runs calls made under the names a problem offered its
// functions under: a function in Names is run as the name it maps to,
// any other as it is. ToolBench offers a query's functions under names
// of its own (a tool two categories hold under its one name), which need
// not be the catalog's; the call's error names the function the model
// called.
type RenamedExecutor struct {
	Executor Executor
	Names    map[string]string
}

var _ Executor = (*RenamedExecutor)(nil)

// Execute runs the call under the catalog's name of its function.
func (x *RenamedExecutor) Execute(ctx context.Context, session, function string, args json.RawMessage) (*Execution, error) {
	name, ok := x.Names[function]
	if !ok {
		return x.Executor.Execute(ctx, session, function, args)
	}
	ex, err := x.Executor.Execute(ctx, session, name, args)
	var ce *CallError
	if errors.As(err, &ce) {
		ce.Function = function
	}
	return ex, err
}
