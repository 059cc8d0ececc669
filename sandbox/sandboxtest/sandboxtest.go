// Package sandboxtest starts the whole sandbox on a loopback port for a Go test, as net/http/httptest does for a handler, and asserts what the agent did with typed expectations (Server.Expect).
package sandboxtest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/sandbox/expect"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// Option configures a Server.
type Option func(*config) error

// config is what the options set: the flags of cmd/toolserver that make
// sense in a test, turned into the stack's configuration.
type config struct {
	catalogs        []string
	noBuiltin       bool
	enforceSecurity bool
	stack           assemble.Config
}

// WithCatalog adds tools from paths, as toolserver's -catalog flag takes
// them: a ToolBench folder (<Category>/<tool>.json), a single ToolBench
// tool file, or an OpenAPI 3 document. The built-in tools stay unless
// WithoutBuiltin is given too. Repeatable.
func WithCatalog(paths ...string) Option {
	return func(c *config) error {
		c.catalogs = append(c.catalogs, paths...)
		return nil
	}
}

// WithoutBuiltin leaves out the built-in tools, so that only the
// WithCatalog paths are served (toolserver's -no-builtin).
func WithoutBuiltin() Option {
	return func(c *config) error {
		c.noBuiltin = true
		return nil
	}
}

// WithValidation reads every call's arguments in one mode, as
// toolserver's -validation flag does; without it each tool's own mode
// applies (toolset.Tool.Validation: lenient for ToolBench files of the
// test's, strict for the built-in tools and OpenAPI documents).
func WithValidation(m toolset.ValidationMode) Option {
	return func(c *config) error {
		switch m {
		case toolset.Strict, toolset.Lenient:
			c.stack.Validation = m
			return nil
		}
		return fmt.Errorf("WithValidation: unknown mode %q", m)
	}
}

// WithMode sets where answers come from (default sandbox.ModeFake, the
// stand-ins, offline). sandbox.ModeReplay answers from WithRecordings and
// then the built-in recordings, a miss being a 404 problem that names the
// key; sandbox.ModeRecord and sandbox.ModeLive need WithUpstream.
func WithMode(m sandbox.Mode) Option {
	return func(c *config) error {
		switch m {
		case sandbox.ModeFake, sandbox.ModeReplay, sandbox.ModeRecord, sandbox.ModeLive:
			c.stack.Mode = m
			return nil
		}
		return fmt.Errorf("WithMode: unknown mode %q", m)
	}
}

// WithRecordings sets the recordings directory (toolserver's -cache):
// replay mode reads it before the built-in recordings (a folder that does
// not exist is an error naming it, never created), record mode writes to
// it (creating it). A test usually passes t.TempDir() or a fixture folder of its own.
func WithRecordings(dir string) Option {
	return func(c *config) error {
		if dir == "" {
			return errors.New("WithRecordings: empty directory")
		}
		c.stack.CacheDir = dir
		return nil
	}
}

// WithNow freezes the sandbox clock at t, the instant every stand-in reads
// as "now" (toolserver's -now). The default is the sandbox's own frozen
// instant, Monday 2 June 2025 09:00 UTC, so answers are the same on every
// run; a test that depends on the date should still say which it wants.
func WithNow(t time.Time) Option {
	return func(c *config) error {
		if t.IsZero() {
			return errors.New("WithNow: zero time")
		}
		c.stack.Clock = clock.Fixed(t)
		return nil
	}
}

// WithDepsPolicy sets the dependency policy of every tool
// (toolserver's -deps-policy): deps.Enforce refuses an ID no earlier call
// of the session returned, the way the real API refuses it; deps.Warn
// serves it and records the violation in the session trace; deps.Off
// checks nothing. The default enforces for built-in tools and warns for
// imported ones.
func WithDepsPolicy(p deps.Policy) Option {
	return func(c *config) error {
		switch p {
		case deps.Enforce, deps.Warn, deps.Off:
			c.stack.DepsPolicy = p
			return nil
		}
		return fmt.Errorf("WithDepsPolicy: unknown policy %q", p)
	}
}

// WithExplain adds what the dependency check found (which call emitted a
// refused value, where it should come from) to the body of a refused call,
// under deps.HintField (toolserver's -explain): for a test that debugs an
// agent. The real API gives no such hint, so an evaluation never sets it.
func WithExplain() Option {
	return func(c *config) error {
		c.stack.Explain = true
		return nil
	}
}

// WithLimits sets rate limits and quotas in toolserver's -limit syntax,
// e.g. "*=20/s;skyscanner80=2/s,burst=4,500/day"; a call over the limit is
// a 429 problem with Retry-After.
func WithLimits(spec string) Option {
	return func(c *config) error {
		l, err := sandbox.ParseLimits(spec)
		if err != nil {
			return fmt.Errorf("WithLimits: %w", err)
		}
		c.stack.Limits = l
		return nil
	}
}

// WithFailures injects failures into the stand-ins in toolserver's
// -failures syntax, e.g. "error_rate=0.2,seed=7"; with a seed the same
// calls fail on every run.
func WithFailures(spec string) Option {
	return func(c *config) error {
		p, err := assemble.ParseFailures(spec)
		if err != nil {
			return fmt.Errorf("WithFailures: %w", err)
		}
		c.stack.Failures = p
		return nil
	}
}

// WithUpstream sets the real API of record and live modes, usually
// sandbox.NewRapidAPI or sandbox.NewToolBenchServer (or an httptest server
// of the test's own behind one of them).
func WithUpstream(u sandbox.Upstream) Option {
	return func(c *config) error {
		c.stack.Upstream = u
		return nil
	}
}

// WithEnforceSecurity answers 401 on the RapidAPI wire, in fake mode, to
// a request without the apiKey or Bearer credentials its API's OpenAPI
// source declares (toolserver's -enforce-security).
func WithEnforceSecurity() Option {
	return func(c *config) error {
		c.enforceSecurity = true
		return nil
	}
}

// WithLogger sends the engine's log (a response store it cannot read, a
// recording it could not write) to l. NewServer's default writes warnings
// to the test's output; Start's default discards them.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		c.stack.Logger = l
		return nil
	}
}

// Server is the sandbox serving on a loopback port: every endpoint of
// cmd/toolserver (/v1/call, /virtual, /rapidapi, the RapidAPI wire, /mcp)
// over one engine.
type Server struct {
	// URL is the base URL, http://127.0.0.1:<port>, with no trailing slash.
	URL string
	// Engine is the engine behind every endpoint.
	Engine *sandbox.Engine

	http      *httptest.Server
	stack     *assemble.Stack
	end       context.CancelCauseFunc
	closeOnce sync.Once
	closeErr  error
}

// NewServer starts a Server for the test and closes it in tb's cleanup.
// A bad option or a catalog that does not load fails the test.
func NewServer(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	logger := slog.New(slog.NewTextHandler(tb.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	s, err := Start(append([]Option{WithLogger(logger)}, opts...)...)
	if err != nil {
		tb.Fatalf("sandboxtest: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("sandboxtest: closing the server: %v", err)
		}
	})
	return s
}

// Start starts a Server outside a test (in TestMain, to share one between
// tests, or in an example); the caller must Close it.
func Start(opts ...Option) (*Server, error) {
	var c config
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	if c.noBuiltin && len(c.catalogs) == 0 {
		return nil, errors.New("WithoutBuiltin leaves no tools: add some WithCatalog")
	}
	cat, err := loader.Load(c.catalogs, !c.noBuiltin)
	if err != nil {
		return nil, err
	}
	c.stack.Catalog = cat
	st, err := assemble.Build(c.stack)
	if err != nil {
		return nil, err
	}
	mcp := server.MCPHandler(server.MCPServer(st.Engine, "sandboxtest"))
	h, err := server.New(st.Engine, server.Options{Deps: st.Graph, MCP: mcp, Logger: c.stack.Logger, EnforceSecurity: c.enforceSecurity})
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	ts := httptest.NewUnstartedServer(h)
	// The same http.Server settings as the binary's: header deadline,
	// idle connections closed.
	ts.Config = server.NewHTTPServer(h, 0)
	requests, end := context.WithCancelCause(context.Background())
	ts.Config.BaseContext = func(net.Listener) context.Context { return requests }
	ts.Start()
	return &Server{URL: ts.URL, Engine: st.Engine, http: ts, stack: st, end: end}, nil
}

// ErrClosed is the cause of the context of every request still running
// when the Server is closed. It wraps context.Canceled, so a call it ends
// is answered as a cancelled call (503).
var ErrClosed = fmt.Errorf("sandboxtest: server closed: %w", context.Canceled)

// Close stops serving and releases the recordings directory. Requests
// still running — an MCP event stream the agent left open, a call waiting
// on the upstream — are ended (their context's cause is ErrClosed) and
// waited for, so that a test's cleanup never hangs on them. NewServer's
// cleanup calls Close; calling it again returns the first call's error.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.end(ErrClosed)
		s.http.Close()
		s.closeErr = s.stack.Close()
	})
	return s.closeErr
}

// Session returns the trace of a session — its calls in order, which
// earlier call provided each dependent value, and every violation — as
// GET /v1/sessions/{id} serves it. A session with no calls has an empty
// trace.
func (s *Server) Session(id string) sandbox.SessionTrace {
	t, ok := s.Engine.Session(id)
	if !ok {
		return sandbox.SessionTrace{ID: id, Calls: []sandbox.CallRecord{}}
	}
	return t
}

// Expect asserts what the agent did in a session: it checks e against the
// session's trace, as POST /v1/sessions/{id}/expect does, and fails tb with
// the verdict's diff, one finding a line, when e does not hold (or is not
// valid for the catalog: an unknown API, an argument the API does not
// take). The test goes on; the verdict is returned for more checks.
//
//	srv.Expect(t, "case-1", expect.Expectation{
//		Calls: []expect.Call{{API: "skyscanner80.flights_auto_complete",
//			Arguments: map[string]expect.Acceptable{"query": expect.OneOf("Lisbon", "Lisboa")}}},
//		NoViolations: true,
//		MaxCalls:     expect.At(3),
//	})
func (s *Server) Expect(tb testing.TB, session string, e expect.Expectation) expect.Verdict {
	tb.Helper()
	v, err := s.Check(session, e)
	if err != nil {
		tb.Errorf("sandboxtest: %v", err)
		return v
	}
	if !v.Pass {
		tb.Errorf("sandboxtest: session %q: the expectation does not hold:\n\t%s", session, strings.Join(v.Diff, "\n\t"))
	}
	return v
}

// Check answers e on a session's trace without failing anything: the
// verdict POST /v1/sessions/{id}/expect answers, or an *expect.Error when
// e is not valid for the catalog. A session with no calls has an empty
// trace.
func (s *Server) Check(session string, e expect.Expectation) (expect.Verdict, error) {
	cat := s.Engine.Catalog()
	if err := e.Validate(cat); err != nil {
		return expect.Verdict{Diff: []string{err.Error()}}, err
	}
	return e.Check(cat, s.Session(session)), nil
}

// Client returns a client that calls the engine in-process, skipping HTTP,
// for tests that make many calls. Unlike httptest.Server.Client it is not
// an *http.Client: use http.DefaultClient with URL for the HTTP endpoints.
func (s *Server) Client() *Client { return &Client{engine: s.Engine} }

// Client calls a Server's engine directly. It is safe for concurrent use.
type Client struct{ engine *sandbox.Engine }

// Call makes one call through the engine's pipeline, the one POST /v1/call
// runs: the Result is what /v1/call answers (as JSON, the same bytes), and
// an error is the typed error /v1/call turns into a problem
// (*sandbox.NotFoundError, *toolset.ValidationError, *sandbox.RateLimitError,
// *sandbox.ReplayMissError…; sandbox.KindOf classifies it). The API is
// named by its tool and name, or as "<api>_for_<tool>" with tool "".
// For rate limits (WithLimits) in-process calls are one client, apart
// from the HTTP callers (each counted by address, as the binary counts
// them).
func (c *Client) Call(ctx context.Context, tool, api string, args map[string]any, session string) (*sandbox.Result, error) {
	if args == nil {
		args = map[string]any{}
	}
	return c.engine.Call(ctx, sandbox.Request{Tool: tool, API: api, Arguments: args, Session: session})
}
