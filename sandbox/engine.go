// Package sandbox is the engine: the one call pipeline (resolve, validate, dependency check, rate limit, cache, dispatch, record) behind every transport.
package sandbox

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/understudy/understudy/toolset/search"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/toolset"
)

// Mode says where responses come from.
type Mode string

// The dispatch modes: where an answer comes from, from fully offline to
// always the real API.
const (
	// ModeFake answers from the stand-ins only, offline.
	ModeFake Mode = "fake"
	// ModeReplay answers from recordings only; a miss is an error naming the key.
	ModeReplay Mode = "replay"
	// ModeRecord answers from recordings, calls the real API on a miss and
	// records its answer; the stand-in answers when the upstream fails.
	ModeRecord Mode = "record"
	// ModeLive calls the real API every time (still validated and rate-limited).
	ModeLive Mode = "live"
)

// ParseMode reads a -mode flag value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.ToLower(strings.TrimSpace(s))); m {
	case ModeFake, ModeReplay, ModeRecord, ModeLive:
		return m, nil
	case "":
		return ModeFake, nil
	}
	return "", fmt.Errorf("unknown mode %q: want fake, replay, record or live", s)
}

// Sources of a response, as reported in Result.Source.
const (
	SourceMock    = "mock"
	SourceCache   = "cache"
	SourceRemote  = "remote"
	SourceSandbox = "sandbox" // the engine itself refused the call (dependency check)
)

// StandIn answers calls without a real API (the mocks package).
type StandIn interface {
	Call(ctx context.Context, api *toolset.API, args map[string]any, session string) (json.RawMessage, error)
}

// SessionForgetter is a StandIn that keeps state per session (search
// sessions, bookings): Engine.Reset makes it forget one.
type SessionForgetter interface {
	Forget(session string)
}

// Recording is a stored answer of an API.
type Recording struct {
	Status   int
	Response json.RawMessage
}

// Recordings is the response store (the cache package, adapted).
type Recordings interface {
	// Key is the canonical cache key of a validated call.
	Key(tool, api string, args map[string]any) string
	Get(ctx context.Context, key string) (Recording, bool, error)
	Put(ctx context.Context, key, tool, api string, args map[string]any, rec Recording) error
}

// RecordedCall is one recorded call of an API: its key and the canonical
// JSON of its arguments.
type RecordedCall struct {
	Key       string          `json:"key"`
	Arguments json.RawMessage `json:"arguments"`
}

// RecordingIndex is a Recordings that lists the recorded calls of an API.
// Replay uses it on a miss: a recorded call whose arguments have the same
// replay form (toolset.API.ReplayForm) answers, and otherwise the miss
// names the nearest recorded calls.
type RecordingIndex interface {
	Recorded(ctx context.Context, tool, api string) ([]RecordedCall, error)
}

// CanonicalRecordings is a Recordings that keys a call from the canonical
// JSON of its validated arguments (canon.JSON), which the engine computes
// once per call anyway: Key would encode them again.
type CanonicalRecordings interface {
	Recordings
	// KeyCanonical is Key(tool, api, args) given canon.JSON(args).
	KeyCanonical(tool, api string, canonicalArgs []byte) string
}

// Request is one call, as every transport hands it to the engine.
type Request struct {
	Tool      string         `json:"tool"`
	API       string         `json:"api"`
	Arguments map[string]any `json:"arguments"`
	Session   string         `json:"session,omitempty"`
	// Client identifies the caller for rate limiting (an API key or
	// address); empty means the one WithClient put in the context, if any.
	Client string `json:"-"`
}

// Result is the engine's answer to a call that reached dispatch (or was
// refused the way the real API would refuse it).
type Result struct {
	Tool     string          `json:"tool"`
	API      string          `json:"api"`
	Response json.RawMessage `json:"response"`
	// Status is the HTTP status the real API answers with (200 on success).
	Status int    `json:"status"`
	Source string `json:"source"`
	// Key is the cache key, when a response store is configured.
	Key     string `json:"key,omitempty"`
	Session string `json:"session"`
	Seq     int    `json:"seq"`
	// UpstreamError notes why the real API was not used (record mode fallback).
	UpstreamError string      `json:"upstream_error,omitempty"`
	Violations    []Violation `json:"violations,omitempty"`
	// Warnings are what lenient validation let through (an undocumented
	// argument ignored, a placeholder taken as not given); see
	// toolset.API.ValidateIn.
	Warnings []toolset.Violation `json:"warnings,omitempty"`
	// Header holds the response headers the API answered with that a
	// client acts on, such as Retry-After on a 429 (simulated or real);
	// transports that pass the API's status through send them too.
	Header http.Header `json:"header,omitempty"`
}

// Options configures an Engine.
type Options struct {
	Catalog    *toolset.Catalog
	StandIns   StandIn
	Mode       Mode
	Recordings Recordings // needed by replay and record modes
	Upstream   Upstream   // needed by record and live modes
	Provenance Provenance // nil: no dependency checks
	// Limits by standardized tool name ("*" for all tools).
	Limits map[string]Limit
	// Limiter enforces them; nil keeps the buckets in this process
	// (NewLimiter). A Redis limiter shares them between replicas.
	Limiter Limiter
	// LimitClock drives rate limits, quotas and the forgetting of idle
	// sessions (default: the system clock); never what answers say.
	LimitClock clock.Clock
	// MaxSessions bounds the traced sessions (default 10,000), and
	// MaxSessionTraceBytes the approximate memory of each trace (default
	// 1 MiB): a session keeps its newest calls, however many it makes.
	MaxSessions          int
	MaxSessionTraceBytes int64
	// MaxTraceBytes bounds the approximate memory of all traces together
	// (default 64 MiB): past it the least recently used sessions are
	// forgotten, so that a few clients with huge IDs or arguments cannot
	// grow the process without bound.
	MaxTraceBytes int64
	// SessionIdle forgets a session no call began in for that long, its
	// trace and its dependency memory (default DefaultSessionIdle, 24 h).
	SessionIdle time.Duration
	// Traces keeps the traces; nil keeps them in this process within the
	// bounds above. A Redis one shares them between replicas.
	Traces Traces
	// LooksLikeError keeps error-looking upstream answers out of recordings.
	LooksLikeError func(body []byte) (reason string, bad bool)
	// Validation is how every call's arguments are read; "" decides per
	// tool by where it was loaded from (toolset.Tool.Validation): lenient
	// for ToolBench files of the user's, strict for the built-in tools and
	// OpenAPI documents.
	Validation toolset.ValidationMode
	Logger     *slog.Logger
}

// Engine runs the call pipeline. It is safe for concurrent use.
type Engine struct {
	opts     Options
	catalog  *toolset.Catalog
	sessions Traces
	limiter  Limiter
	flights  flights
	metrics  *Metrics
	log      *slog.Logger
}

// New checks the options and builds an engine.
func New(opts Options) (*Engine, error) {
	if opts.Catalog == nil {
		return nil, &ConfigError{Field: "catalog", Err: errors.New("no catalog")}
	}
	if opts.Mode == "" {
		opts.Mode = ModeFake
	}
	switch opts.Mode {
	case ModeFake:
		if opts.StandIns == nil {
			return nil, &ConfigError{Field: "mode", Err: errors.New("fake mode needs the stand-ins")}
		}
	case ModeReplay:
		if opts.Recordings == nil {
			return nil, &ConfigError{Field: "mode", Err: errors.New("replay mode needs a response store (-cache DIR)")}
		}
	case ModeRecord:
		if opts.Recordings == nil || opts.Upstream == nil || opts.StandIns == nil {
			return nil, &ConfigError{Field: "mode", Err: errors.New("record mode needs a response store, an upstream and the stand-ins")}
		}
	case ModeLive:
		if opts.Upstream == nil {
			return nil, &ConfigError{Field: "mode", Err: errors.New("live mode needs an upstream")}
		}
	default:
		return nil, &ConfigError{Field: "mode", Err: fmt.Errorf("unknown mode %q", opts.Mode)}
	}
	if opts.LimitClock == nil {
		opts.LimitClock = clock.Real{}
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = 10000
	}
	if opts.MaxSessionTraceBytes <= 0 {
		opts.MaxSessionTraceBytes = DefaultMaxSessionTraceBytes
	}
	if opts.MaxTraceBytes <= 0 {
		opts.MaxTraceBytes = 64 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	// Unknown names are answered with suggestions from an index of the
	// catalog's names: built now, so that no call pays for it.
	search.PrepareSuggest(opts.Catalog)
	e := &Engine{opts: opts, catalog: opts.Catalog, log: opts.Logger, metrics: newMetrics()}
	e.sessions = opts.Traces
	if e.sessions == nil {
		e.sessions = newSessions(opts.MaxSessions, opts.MaxSessionTraceBytes, opts.MaxTraceBytes, opts.SessionIdle, opts.LimitClock, func(id string) {
			if opts.Provenance != nil {
				opts.Provenance.Forget(id)
			}
		})
	}
	e.limiter = opts.Limiter
	if e.limiter == nil {
		e.limiter = newLimiter(opts.Limits, opts.LimitClock, 100000)
	}
	return e, nil
}

// RateLimited reports whether calls of the API count against a rate limit
// or quota, so that a transport names the caller (WithClient) only when
// it matters.
func (e *Engine) RateLimited(api *toolset.API) bool {
	if api == nil || api.Tool == nil {
		return true
	}
	_, ok := LimitFor(e.opts.Limits, api.Tool.StandardizedName)
	return ok
}

// Catalog is the catalog the engine serves.
func (e *Engine) Catalog() *toolset.Catalog { return e.catalog }

// Mode is the engine's dispatch mode.
func (e *Engine) Mode() Mode { return e.opts.Mode }

// Metrics returns the engine's counters.
func (e *Engine) Metrics() *Metrics { return e.metrics }

// Session returns the trace of a session.
func (e *Engine) Session(id string) (SessionTrace, bool) {
	t, ok, err := e.SessionContext(context.Background(), id)
	if err != nil {
		e.log.Warn("session trace unavailable", "err", err)
	}
	return t, ok
}

// SessionContext returns the trace of a session, or why the traces could
// not be read (*UnavailableError when they are shared and Redis is down).
func (e *Engine) SessionContext(ctx context.Context, id string) (SessionTrace, bool, error) {
	return e.sessions.Trace(ctx, SessionKey(id), id)
}

// Reset forgets a session: its trace, what the dependency check learnt in
// it, and the stand-ins' state, so that a test suite can reuse one ID for
// each test case and start from nothing. Calls of the session still
// running are not traced. It reports whether the session was known.
func (e *Engine) Reset(id string) bool {
	key := SessionKey(id)
	known, err := e.sessions.Remove(context.Background(), key) // forgets the provenance too (on eviction)
	if err != nil {
		e.log.Warn("session not reset in the shared traces", "err", err)
	}
	if p := e.opts.Provenance; p != nil && !known {
		p.Forget(key) // a call still running may have taught it something
	}
	if f, ok := e.opts.StandIns.(SessionForgetter); ok {
		f.Forget(key)
	}
	return known
}

// Resolve finds the API a request names. The API may be given by name
// (raw or standardized) with its tool, or as ToolBench's function name
// "<api>_for_<tool>" with no tool.
func (e *Engine) Resolve(tool, api string) (*toolset.API, error) {
	if a := e.catalog.API(tool, api); a != nil {
		return a, nil
	}
	if tool == "" {
		if a := e.catalog.APIByFunction(api); a != nil {
			return a, nil
		}
	}
	nf := &NotFoundError{Tool: tool, API: api, ToolKnown: e.catalog.Tool(tool) != nil}
	nf.Suggestions = search.Suggest(e.catalog, tool, api, 3)
	return nil, nf
}

// Call runs one call through the pipeline: resolve → validate → dependency
// check → rate limit → cache → dispatch by mode → record → provenance → trace.
// Errors are typed: *NotFoundError, *toolset.ValidationError,
// *RateLimitError, *ReplayMissError, *UpstreamError; KindOf classifies
// them. A refusal the real API would give (a fabricated ID, an API-level
// error) is a Result with its status.
func (e *Engine) Call(ctx context.Context, req Request) (*Result, error) {
	api, err := e.Resolve(req.Tool, req.API)
	if err != nil {
		e.metrics.count(e.toolLabel(req.Tool), "", "not_found")
		return nil, err
	}
	client := req.Client
	if client == "" {
		client = clientOf(ctx)
	}
	return e.call(ctx, api, req.Arguments, req.Session, client)
}

// CallAPI is Call for a caller that resolved the API already (from this
// engine's catalog): the pipeline from validation on. The rate-limit
// client is the one WithClient put in ctx, if any.
func (e *Engine) CallAPI(ctx context.Context, api *toolset.API, args map[string]any, session string) (*Result, error) {
	if err := e.ours(api); err != nil {
		return nil, err
	}
	return e.call(ctx, api, args, session, clientOf(ctx))
}

// ours refuses an API that is not this engine's, as a call of an unknown
// API is refused.
func (e *Engine) ours(api *toolset.API) error {
	if api == nil || api.Tool == nil || e.catalog.API(api.Tool.StandardizedName, api.Name) != api {
		nf := &NotFoundError{}
		if api != nil && api.Tool != nil {
			nf.Tool, nf.API, nf.ToolKnown = api.Tool.StandardizedName, api.Name, e.catalog.Tool(api.Tool.StandardizedName) != nil
		}
		e.metrics.count(e.toolLabel(nf.Tool), "", "not_found")
		return nf
	}
	return nil
}

// Validated is a call's arguments as its API's schema accepted them
// (Engine.Validate), ready for CallValidated.
type Validated struct {
	api      *toolset.API
	args     map[string]any
	warnings []toolset.Violation
}

// Warnings are what lenient validation let through (see Result.Warnings).
func (v Validated) Warnings() []toolset.Violation { return v.warnings }

// ValidationMode is the mode the engine validates arguments in; "" is
// each tool's own (toolset.Tool.Validation).
func (e *Engine) ValidationMode() toolset.ValidationMode { return e.opts.Validation }

// Validate checks arguments for an API without calling it (nothing is
// counted or traced). A transport that words a refusal its own way
// validates first and then calls CallValidated, so that the arguments
// are validated once.
func (e *Engine) Validate(api *toolset.API, args map[string]any) (Validated, error) {
	v, warnings, err := api.ValidateIn(args, e.opts.Validation)
	if err != nil {
		return Validated{}, err
	}
	return Validated{api: api, args: v, warnings: warnings}, nil
}

// CallValidated is CallAPI for arguments Validate accepted: the pipeline
// from the dependency check on.
func (e *Engine) CallValidated(ctx context.Context, v Validated, session string) (*Result, error) {
	if v.api == nil {
		return nil, errors.New("sandbox: CallValidated needs the result of Validate")
	}
	if err := e.ours(v.api); err != nil {
		return nil, err
	}
	return e.callValidated(ctx, v.api, v.args, v.warnings, session, clientOf(ctx))
}

// unknownTool is the metrics label of every tool name the catalog does not
// have: labelling each would let callers grow /metrics without bound.
const unknownTool = "unknown"

func (e *Engine) toolLabel(name string) string {
	if t := e.catalog.Tool(name); t != nil {
		return t.StandardizedName
	}
	return unknownTool
}

type clientKey struct{}

// WithClient names the caller for rate limiting (a hashed API key or an
// address) for the calls made with the returned context.
func WithClient(ctx context.Context, client string) context.Context {
	return context.WithValue(ctx, clientKey{}, client)
}

func clientOf(ctx context.Context) string {
	c, _ := ctx.Value(clientKey{}).(string)
	return c
}

func (e *Engine) call(ctx context.Context, api *toolset.API, arguments map[string]any, id, client string) (*Result, error) {
	tool := api.Tool.StandardizedName
	args, warnings, err := api.ValidateIn(arguments, e.opts.Validation)
	if err != nil {
		e.metrics.count(tool, api.Name, "invalid")
		return nil, err
	}
	return e.callValidated(ctx, api, args, warnings, id, client)
}

func (e *Engine) callValidated(ctx context.Context, api *toolset.API, args map[string]any, warnings []toolset.Violation, id, client string) (*Result, error) {
	tool := api.Tool.StandardizedName
	// Everything kept per session (trace, dependency memory, stand-in
	// state) is kept under the bounded key; the answer names the ID given.
	session := SessionKey(id)
	ss, err := e.sessions.Begin(ctx, session)
	if err != nil {
		e.metrics.count(tool, api.Name, "error")
		return nil, err // shared traces down: nothing of the call happened
	}
	seq := ss.Seq
	// The canonical arguments serve the trace, the cache key and a replay
	// miss's message: encoded once.
	canonArgs := canon.MustJSON(args)
	rec := CallRecord{Seq: seq, Tool: tool, API: api.Name, Arguments: canonArgs}
	res := &Result{Tool: tool, API: api.Name, Session: id, Seq: seq, Warnings: warnings}

	if p := e.opts.Provenance; p != nil {
		chk := p.Check(session, api, args)
		rec.Provided, rec.Violations = chk.Provided, chk.Violations
		res.Violations = chk.Violations
		if chk.Reject != nil {
			body, err := canon.JSON(chk.Reject.Body)
			if err != nil {
				return nil, err
			}
			res.Status, res.Response, res.Source = chk.Reject.Status, body, SourceSandbox
			rec.Status, rec.Source, rec.Rejected = res.Status, res.Source, true
			e.traceCall(ctx, ss, rec)
			e.metrics.count(tool, api.Name, "rejected")
			return res, nil
		}
	}

	if err := e.limiter.Allow(ctx, tool, client); err != nil {
		rec.Error = err.Error()
		e.traceCall(ctx, ss, rec)
		e.metrics.count(tool, api.Name, "rate_limited")
		return nil, err
	}

	if err := e.dispatch(ctx, api, args, canonArgs, session, res); err != nil {
		rec.Error = err.Error()
		e.traceCall(ctx, ss, rec)
		e.metrics.count(tool, api.Name, "error")
		return nil, err
	}

	if p := e.opts.Provenance; p != nil && res.Status >= 200 && res.Status < 300 {
		p.Observe(session, seq, api, args, res.Response)
	}
	rec.Status, rec.Source = res.Status, res.Source
	e.traceCall(ctx, ss, rec)
	e.metrics.count(tool, api.Name, res.Source)
	return res, nil
}

// traceCall adds a finished call to its session's trace, even when the
// caller has gone meanwhile.
func (e *Engine) traceCall(ctx context.Context, ss TraceSlot, rec CallRecord) {
	if err := e.sessions.Append(context.WithoutCancel(ctx), ss, rec); err != nil {
		e.log.Warn("call not traced", "seq", rec.Seq, "err", err)
	}
}

func (e *Engine) dispatch(ctx context.Context, api *toolset.API, args map[string]any, canonArgs []byte, session string, res *Result) error {
	tool := api.Tool.StandardizedName
	var key string
	if e.opts.Recordings != nil && e.opts.Mode != ModeFake {
		if cr, ok := e.opts.Recordings.(CanonicalRecordings); ok {
			key = cr.KeyCanonical(tool, api.Name, canonArgs)
		} else {
			key = e.opts.Recordings.Key(tool, api.Name, args)
		}
		res.Key = key
	}
	switch e.opts.Mode {
	case ModeFake:
		return e.standIn(ctx, api, args, session, res)
	case ModeReplay, ModeRecord:
		got, ok, err := e.opts.Recordings.Get(ctx, key)
		if err != nil {
			if KindOf(err) == KindUnavailable {
				return err // a miss would not be true: the store did not answer
			}
			// A broken entry is reported and treated as a miss; it never
			// poisons the call.
			e.log.Warn("response store read failed", "key", key, "err", err)
		}
		if ok {
			res.Status, res.Response, res.Source = got.Status, got.Response, SourceCache
			if res.Status == 0 {
				res.Status = http.StatusOK
			}
			return nil
		}
		if e.opts.Mode == ModeReplay {
			return e.replayMiss(ctx, api, args, key, canonArgs, res)
		}
		// Concurrent misses of one key, here and in the replicas sharing
		// the store, wait for one upstream call (flight.go).
		f, err := e.fill(ctx, api, args, key)
		if err != nil {
			return err
		}
		up, err := f.up, f.err
		if f.cached { // another replica recorded it meanwhile
			res.Status, res.Response, res.Source = cmp.Or(up.Status, http.StatusOK), up.Body, SourceCache
			return nil
		}
		if err == nil && up.Status >= 200 && up.Status < 300 {
			res.Status, res.Response, res.Source, res.UpstreamError = up.Status, up.Body, SourceRemote, f.note
			return nil
		}
		if ctx.Err() != nil {
			// The call was abandoned (the caller left, or the server is
			// shutting down): no stand-in answer pretends the API was asked.
			return fmt.Errorf("%s.%s not answered: %w", tool, api.Name, context.Cause(ctx))
		}
		note := upstreamNote(up, err)
		if serr := e.standIn(ctx, api, args, session, res); serr != nil {
			return serr
		}
		res.UpstreamError = note
		return nil
	case ModeLive:
		up, err := e.opts.Upstream.Do(ctx, api, args)
		if err != nil && up.Status == 0 {
			return &UpstreamError{Tool: tool, API: api.Name, Err: err}
		}
		res.Status, res.Response, res.Source, res.Header = up.Status, up.Body, SourceRemote, up.Header
		return nil
	}
	return fmt.Errorf("unknown mode %q", e.opts.Mode)
}

func (e *Engine) standIn(ctx context.Context, api *toolset.API, args map[string]any, session string, res *Result) error {
	body, err := e.opts.StandIns.Call(ctx, api, args, session)
	var apiErr *Rejection
	switch {
	case errors.As(err, &apiErr):
		b, merr := canon.JSON(apiErr.Body)
		if merr != nil {
			return merr
		}
		res.Status, res.Response, res.Source = apiErr.Status, b, SourceMock
		if len(apiErr.Header) > 0 {
			res.Header = apiErr.Header.Clone()
		}
		return nil
	case err != nil:
		return err
	}
	res.Status, res.Response, res.Source = http.StatusOK, body, SourceMock
	return nil
}

func (e *Engine) looksLikeError(body []byte) (string, bool) {
	if e.opts.LooksLikeError == nil {
		return "", false
	}
	return e.opts.LooksLikeError(body)
}

func upstreamNote(up UpstreamResponse, err error) string {
	switch {
	case err != nil && up.Status != 0:
		return fmt.Sprintf("upstream answered %d (%v); the stand-in answered instead", up.Status, err)
	case err != nil:
		return fmt.Sprintf("upstream failed (%v); the stand-in answered instead", err)
	default:
		return fmt.Sprintf("upstream answered %d; the stand-in answered instead", up.Status)
	}
}
