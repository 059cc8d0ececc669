// Command toolserver serves the tool catalog to agents over HTTP (native, StableToolBench, RapidAPI wire) and MCP; -list describes the catalog and exits.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/understudy/understudy/toolset/tbfile"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/atomicfile"
	"github.com/understudy/understudy/internal/cli"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/mocks/failures"
	"github.com/understudy/understudy/mocks/simulate"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

const version = "0.1.0"

// pathList is a repeatable -catalog flag.
type pathList []string

func (p *pathList) String() string     { return strings.Join(*p, ",") }
func (p *pathList) Set(v string) error { *p = append(*p, v); return nil }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

type flags struct {
	catalogs        pathList
	queries         pathList
	list, asJSON    bool
	search          string
	retriever       string
	searchK         int
	noBuiltin       bool
	addr            string
	mode            string
	cacheDir        string
	now             string
	limits          string
	failures        string
	depsPolicy      string
	validation      string
	printDeps       string
	stdio           bool
	upstream        string
	keyEnv          string
	timeout         time.Duration
	upstreamRate    float64
	retries         int
	importSTB       string
	recordExamples  string
	verifyRecs      string
	maxBody         int64
	mcpIdle         time.Duration
	mcpMaxSessions  int
	mcpMaxBytes     int64
	apiCacheBytes   int64
	schemaBytes     int64
	noInfer         bool
	explain         bool
	dependencyHints bool
	simulate        string
	simulateModel   string
	readTimeout     time.Duration
	idleTimeout     time.Duration
	maxConns        int
	allowOrigins    []string
	enforceSecurity bool
	readyFile       string
	pprofAddr       string
	replicas        replicaFlags      // -redis and its companions (replicas.go)
	ready           func(addr string) // tests learn the bound address
	inFlight        *atomic.Int64     // counts the HTTP requests being served; tests read it
	stdin           io.Reader
	ctx             context.Context
	shutdownWithin  time.Duration
}

// toolserverUsage is toolserver -h: what it does, then its flags.
func toolserverUsage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintln(w, "usage: toolserver [flags]            serve the catalog on HTTP (-addr) and MCP at /mcp")
	fmt.Fprintln(w, "       toolserver -stdio [flags]     serve MCP over standard input and output")
	fmt.Fprintln(w, "       toolserver -list [-json]      describe the catalog and exit (-deps json|dot: the dependency graph)")
	fmt.Fprintln(w, "\nflags:")
	fs.PrintDefaults()
}

func run(args []string, stdout, stderr io.Writer) int {
	return runWith(args, stdout, stderr, flags{})
}

func runWith(args []string, stdout, stderr io.Writer, f flags) int {
	fs := flag.NewFlagSet("toolserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&f.list, "list", false, "print a summary of the catalog and exit")
	fs.BoolVar(&f.asJSON, "json", false, "with -list, print the catalog document (as served at GET /v1/catalog) instead; with -search, the answer of GET /v1/search")
	fs.StringVar(&f.search, "search", "", "print the APIs that best match a free-text query (as GET /v1/search answers) and exit")
	fs.StringVar(&f.retriever, "retriever", "bm25", "with -search: bm25, hierarchical or deliberate")
	fs.IntVar(&f.searchK, "k", 5, "with -search: how many APIs to print (1-100)")
	fs.BoolVar(&f.noBuiltin, "no-builtin", false, "leave out the built-in tools; only -catalog paths are loaded")
	fs.Var(&f.catalogs, "catalog", "a ToolBench folder (<Category>/<tool>.json), a ToolBench tool file or an OpenAPI 3 document to add; repeatable")
	fs.Var(&f.queries, "queries", "a ToolBench query file or a folder of them (StableToolBench's solvable_queries): the template_response of each API they name shapes its fake answers; repeatable")
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to serve HTTP on")
	fs.StringVar(&f.mode, "mode", "fake", "where answers come from: fake (stand-ins), replay (recordings only), record (real API on a miss, then stored), live (real API every time)")
	fs.StringVar(&f.cacheDir, "cache", "", "response store directory for recordings (replay/record/live); empty keeps them in memory")
	fs.StringVar(&f.now, "now", "", `sandbox clock: RFC 3339 time or YYYY-MM-DD, or "real" (default: frozen at 2025-06-02T09:00:00Z)`)
	fs.StringVar(&f.limits, "limit", "", `rate limits and daily quotas, e.g. "*=20/s;skyscanner80=2/s,burst=4,500/day"`)
	fs.StringVar(&f.failures, "failures", "", `opt-in failure modes of the stand-ins, e.g. "latency=50ms,error_rate=0.05,seed=7;skyscanner80:rate_limit_rate=0.1"`)
	fs.StringVar(&f.depsPolicy, "deps-policy", "", "dependency checks: enforce, warn or off (default: enforce for built-in tools, warn for imported ones)")
	fs.StringVar(&f.validation, "validation", "", "how call arguments are read: strict (the documentation's rules) or lenient (also undocumented arguments and placeholders, with a warning); default: lenient for -catalog ToolBench files, strict for the built-in tools and OpenAPI documents")
	fs.BoolVar(&f.enforceSecurity, "enforce-security", false, "in fake mode, answer 401 on the RapidAPI wire to a request without the apiKey or Bearer credentials its API's OpenAPI source declares (any value is accepted), as the real API and Prism do")
	fs.BoolVar(&f.dependencyHints, "dependency-hints", true, "serve the documentation's sentences that say where a value comes from (\"can be retrieved from X (data->id)\") and the x-depends annotations; false removes them from every description and schema, keeping the dependency graph and its enforcement, so that an agent must infer the chains")
	fs.BoolVar(&f.explain, "explain", false, "add what the dependency check found (which call emitted a refused ID, where it should come from) to the API's refusal, under \"understudy_hint\": for debugging an agent; the real API says no such thing, so never in an evaluation")
	fs.BoolVar(&f.noInfer, "no-infer", false, "do not infer dependencies of imported tools from their documentation")
	fs.StringVar(&f.simulate, "simulate", "", "URL of an OpenAI-compatible server (http://127.0.0.1:8000/v1) whose model answers imported tools' calls no recording has; answers are recorded in -cache and replayed (key from $OPENAI_API_KEY when set)")
	fs.StringVar(&f.simulateModel, "simulate-model", "", "the model -simulate asks")
	fs.StringVar(&f.printDeps, "deps", "", "print the dependency graph (json or dot) and exit")
	fs.BoolVar(&f.stdio, "stdio", false, "serve MCP over standard input and output instead of HTTP")
	fs.StringVar(&f.upstream, "upstream", "rapidapi", `real API for record/live modes: "rapidapi" (https://<host><path>) or the URL of a ToolBench-compatible server (one on localhost needs no key)`)
	fs.StringVar(&f.keyEnv, "key-env", "RAPIDAPI_KEY", "name of the environment variable holding the RapidAPI or ToolBench key")
	fs.DurationVar(&f.timeout, "upstream-timeout", 15*time.Second, "timeout of one upstream attempt")
	fs.IntVar(&f.retries, "upstream-retries", 2, "how many times an upstream 429, 5xx or connection failure is retried")
	fs.Float64Var(&f.upstreamRate, "upstream-rate", 5, "most requests per second sent to the real API (calls beyond it wait their turn)")
	fs.StringVar(&f.importSTB, "import-stabletoolbench", "", "import a StableToolBench tool_response_cache folder into -cache and exit")
	fs.StringVar(&f.recordExamples, "record-examples", "", "record every built-in API's documented example from the stand-ins into DIR (how fixtures/recordings is made) and exit")
	fs.StringVar(&f.verifyRecs, "verify-recordings", "", "check every recording in DIR (parses, checksum, key of its canonical call, no secrets) and exit non-zero listing the problems")
	fs.Int64Var(&f.maxBody, "max-body", server.DefaultMaxBody, "largest request body accepted, in bytes")
	fs.DurationVar(&f.mcpIdle, "mcp-session-idle", server.DefaultMCPSessionIdle, "close an MCP session over HTTP after this long without a request (0 or less: never)")
	fs.IntVar(&f.mcpMaxSessions, "mcp-max-sessions", server.DefaultMCPMaxSessions, "MCP sessions over HTTP kept at once; a new one beyond closes the least recently used one not serving a request, whose client is told to initialize again (0 or less: no bound)")
	fs.Int64Var(&f.mcpMaxBytes, "mcp-max-session-bytes", server.DefaultMCPMaxSessionBytes, "estimated memory of the MCP sessions over HTTP kept at once, in bytes (about 12 KiB a session plus its initialize request); beyond it the least recently used are closed (0 or less: no bound)")
	fs.Int64Var(&f.apiCacheBytes, "api-cache-bytes", server.DefaultAPICacheBytes, "estimated bytes of what is built per API on its first call and kept (the RapidAPI wire's routes, by tool); beyond it the least recently used are dropped and built again when called (0 or less: no bound)")
	fs.Int64Var(&f.schemaBytes, "api-schema-cache-bytes", toolset.DefaultCacheBytes, "estimated bytes of what is built per API on its first use and kept (compiled argument checks, parsed response schemas, the faker's answer plans); beyond it the least recently used are dropped and built again when used (0 or less: no bound)")
	fs.DurationVar(&f.readTimeout, "read-timeout", server.DefaultReadTimeout, "time a client has to send a request's header, and then its body")
	fs.DurationVar(&f.idleTimeout, "idle-timeout", server.DefaultIdleTimeout, "close a keep-alive connection after this long without a request (idle connections are also the first closed at -max-conns)")
	fs.IntVar(&f.maxConns, "max-conns", server.DefaultMaxConns, "connections open at once; at the cap the longest-waiting connection without a running call is closed")
	fs.StringVar(&f.pprofAddr, "pprof", "", "serve net/http/pprof's profiles at http://ADDR/debug/pprof/ on a listener of their own (e.g. 127.0.0.1:6060); empty: none")
	fs.StringVar(&f.readyFile, "ready-file", "", "once serving, write the server's URL (http://127.0.0.1:PORT) to this file, atomically; the URL is also the first line on stdout")
	f.replicas.register(fs)
	fs.Func("allow-origin", `a browser origin allowed to call the server besides its own, e.g. "http://localhost:3000"; repeatable`, func(v string) error {
		if err := server.CheckOrigin(v); err != nil {
			return err
		}
		f.allowOrigins = append(f.allowOrigins, v)
		return nil
	})
	if code, ok := cli.Parse(fs, args, func(w io.Writer) { toolserverUsage(fs, w) }, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "toolserver: unexpected argument %q (toolserver takes flags only; run 'toolserver -h')\n", fs.Arg(0))
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	}
	go warmWorld() // loads while the catalog does
	cat, err := loader.Load(f.catalogs, !f.noBuiltin)
	if err != nil {
		return fail(err)
	}
	if len(f.queries) > 0 {
		rep, err := tbfile.AddQueryTemplates(cat, f.queries...)
		if err != nil {
			fmt.Fprintf(stderr, "toolserver: -queries: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "toolserver: -queries: %d templates read from %d files, %d APIs given one (%d entries name APIs the catalog lacks)\n", rep.Entries, rep.Files, rep.Attached, rep.Unresolved)
	}
	if f.search != "" {
		return search(cat, f, stdout, stderr)
	}
	if f.list {
		return list(cat, f.asJSON, stdout, stderr)
	}
	if n := len(cat.Skipped()); n > 0 {
		fmt.Fprintf(stderr, "toolserver: skipped %d tool files that do not load (toolserver -list shows why)\n", n)
	}
	if f.importSTB != "" {
		return importSTB(cat, f, stdout, stderr)
	}
	if f.recordExamples != "" {
		return recordExamples(f.recordExamples, stdout, stderr)
	}
	if f.verifyRecs != "" {
		return verifyRecordings(cat, f.verifyRecs, f.keyEnv, stdout, stderr)
	}
	if f.replicas.copying() {
		return copyRecordings(f.replicas, stdout, stderr)
	}

	cfg, err := config(cat, f, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 2
	}
	st, err := assemble.Build(cfg)
	if err != nil {
		return fail(fmt.Errorf("cannot start, nothing served: %w", err))
	}
	defer st.Close()

	switch f.printDeps {
	case "":
	case "json":
		if err := st.Graph.WriteJSON(stdout); err != nil {
			return fail(err)
		}
		return 0
	case "dot":
		if err := st.Graph.WriteDOT(stdout); err != nil {
			return fail(err)
		}
		return 0
	default:
		fmt.Fprintf(stderr, "toolserver: -deps takes json or dot, not %q\n", f.printDeps)
		return 2
	}

	sizeGC()
	ctx := f.ctx
	if ctx == nil {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
	}
	if f.stdio {
		st.Engine.Catalog().SetCacheBytes(noBound(f.schemaBytes))
		mcpSrv := server.MCPServer(st.Engine, version)
		// Bad lines are answered and requests in flight at the end of
		// input are finished (see server.StdioTransport).
		t := &server.StdioTransport{Reader: os.Stdin, Writer: stdout}
		if f.stdin != nil {
			t.Reader = f.stdin
		}
		if err := mcpSrv.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
			return fail(err)
		}
		return 0
	}
	if f.pprofAddr != "" {
		stop, err := servePprof(f.pprofAddr, stderr)
		if err != nil {
			return fail(err)
		}
		defer stop()
	}
	// Over HTTP the MCP server is built on the first MCP request.
	mcpSrv := func() *mcp.Server { return server.MCPServer(st.Engine, version) }
	h, err := server.New(st.Engine, server.Options{Deps: st.Graph, MCP: server.MCPHandlerOf(mcpSrv, server.MCPOptions{SessionIdle: mcpIdle(f.mcpIdle), MaxSessions: noBound(f.mcpMaxSessions), MaxSessionBytes: noBound(f.mcpMaxBytes)}), MaxBody: f.maxBody, Logger: cfg.Logger, APICacheBytes: noBound(f.apiCacheBytes), SchemaCacheBytes: noBound(f.schemaBytes),
		ReadTimeout: f.readTimeout, AllowOrigins: f.allowOrigins, EnforceSecurity: f.enforceSecurity, Health: sharedHealth(st), Metrics: metricsOf(st)})
	if err != nil {
		return fail(err)
	}
	return serve(ctx, h, f, stdout, stderr)
}

// metricsOf is the stack's metric families besides the engine's calls.
func metricsOf(st *assemble.Stack) []server.MetricsWriter {
	var out []server.MetricsWriter
	for _, m := range st.Metrics() {
		out = append(out, m)
	}
	return out
}

// mcpIdle maps the flag, where 0 means never, to MCPOptions, where 0
// means the default.
func mcpIdle(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

// noBound maps a bound's flag, where 0 or less means none, to the
// options, where 0 means the default and a negative value none.
func noBound[N int | int64](n N) N {
	if n <= 0 {
		return -1
	}
	return n
}

// config turns flags into the stack's configuration. The log goes to
// stderr, like every other message of the command.
func config(cat *toolset.Catalog, f flags, stderr io.Writer) (assemble.Config, error) {
	cfg := assemble.Config{Catalog: cat, CacheDir: f.cacheDir, NoInference: f.noInfer, Explain: f.explain,
		NoDependencyHints: !f.dependencyHints,
		Logger:            slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	var err error
	if cfg.Mode, err = sandbox.ParseMode(f.mode); err != nil {
		return cfg, err
	}
	if cfg.Clock, err = clock.Parse(f.now); err != nil {
		return cfg, fmt.Errorf("-now: %w", err)
	}
	if f.limits != "" {
		if cfg.Limits, err = sandbox.ParseLimits(f.limits); err != nil {
			return cfg, fmt.Errorf("-limit: %w", err)
		}
	}
	if f.failures != "" {
		if cfg.Failures, err = failures.Parse(f.failures); err != nil {
			return cfg, fmt.Errorf("-failures: %w", err)
		}
	}
	if cfg.Validation, err = toolset.ParseValidationMode(f.validation); err != nil {
		return cfg, fmt.Errorf("-validation: %w", err)
	}
	if f.depsPolicy != "" {
		if cfg.DepsPolicy, err = deps.ParsePolicy(f.depsPolicy); err != nil {
			return cfg, fmt.Errorf("-deps-policy: %w", err)
		}
	}
	if err := f.replicas.configure(&cfg); err != nil {
		return cfg, err
	}
	if cfg.Mode == sandbox.ModeRecord || cfg.Mode == sandbox.ModeLive {
		if cfg.Upstream, err = upstream(f); err != nil {
			return cfg, err
		}
	}
	if cfg.Simulate, err = simulator(f, cfg.Mode); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// simulator is the model of -simulate, nil without it.
func simulator(f flags, mode sandbox.Mode) (simulate.Model, error) {
	switch {
	case f.simulate == "" && f.simulateModel == "":
		return nil, nil
	case f.simulate == "" || f.simulateModel == "":
		return nil, errors.New("-simulate URL and -simulate-model NAME go together")
	case mode == sandbox.ModeReplay || mode == sandbox.ModeLive:
		return nil, fmt.Errorf("-simulate answers what no recording has; -mode %s never asks a stand-in", mode)
	}
	cfg := openai.Config{BaseURL: f.simulate, Model: f.simulateModel}
	if os.Getenv("OPENAI_API_KEY") != "" {
		cfg.APIKeyEnv = "OPENAI_API_KEY"
	}
	c, err := openai.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("-simulate: %w", err)
	}
	return c, nil
}

// upstream is the real API of record and live modes. RapidAPI, and a
// ToolBench-compatible server elsewhere, need the key; one on this machine
// (a StableToolBench server run for a test, say) is called without one
// when none is set.
func upstream(f flags) (sandbox.Upstream, error) {
	if !(f.upstreamRate > 0) || math.IsInf(f.upstreamRate, 0) {
		return nil, fmt.Errorf("-upstream-rate: want a positive number of requests per second, not %v", f.upstreamRate)
	}
	local := false
	if f.upstream != "rapidapi" {
		u, err := url.Parse(f.upstream)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf(`-upstream: want "rapidapi" or the http(s) URL of a ToolBench-compatible server, not %q`, f.upstream)
		}
		local = isLoopback(u.Hostname())
	}
	key := os.Getenv(f.keyEnv)
	if key == "" && !local {
		return nil, fmt.Errorf("-mode %s calls the real API: set the key in the environment variable %s (or name another with -key-env)", f.mode, f.keyEnv)
	}
	if f.retries < 0 {
		return nil, fmt.Errorf("-upstream-retries: want 0 or more, not %d", f.retries)
	}
	retries := f.retries
	if retries == 0 {
		retries = -1 // RemoteOptions' "none"
	}
	opts := sandbox.RemoteOptions{Key: key, Timeout: f.timeout, PerSecond: f.upstreamRate, Retries: retries}
	if f.upstream == "rapidapi" {
		return sandbox.NewRapidAPI("", opts), nil
	}
	return sandbox.NewToolBenchServer(f.upstream, opts), nil
}

// isLoopback reports whether host names this machine: localhost or a
// loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// answerGrace is how long before the shutdown deadline the calls still
// running are told to stop: the time to answer them and for Shutdown,
// which looks for finished connections every 500 ms at most, to notice.
// It is a fifth of the time, at least 1 s (half the time when that is
// shorter) and at most 2 s.
func answerGrace(within time.Duration) time.Duration {
	return min(max(within/5, min(within/2, time.Second)), 2*time.Second)
}

// errShuttingDown is why calls still running near the shutdown deadline end.
var errShuttingDown = fmt.Errorf("the server is shutting down: %w", context.Canceled)

// serve runs the HTTP server until ctx ends, then shuts it down: it stops
// accepting, ends event streams, lets in-flight calls finish, and shortly
// before the deadline ends the ones still waiting (on the upstream's rate,
// say) so that each is answered, with a 503 naming the shutdown, rather
// than cut off.
//
// Once serving, it prints the server's URL as the first line on stdout and
// writes it to -ready-file, so that a test suite in any language can start
// `toolserver -addr 127.0.0.1:0` and learn the port without guessing one
// or polling.
func serve(ctx context.Context, h http.Handler, f flags, stdout, stderr io.Writer) int {
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	}
	ln = server.LimitListener(ln, f.maxConns)
	calls, endCalls := context.WithCancelCause(context.Background())
	defer endCalls(nil)
	inFlight := f.inFlight
	if inFlight == nil {
		inFlight = new(atomic.Int64)
	}
	// Event streams (MCP's GET /mcp) carry no call: they end as soon as
	// shutdown starts, so that an idle client does not hold it up.
	streams, endStreams := context.WithCancelCause(calls)
	defer endStreams(nil)
	srv := server.NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			ctx, cancel := context.WithCancelCause(r.Context())
			defer cancel(nil)
			defer context.AfterFunc(streams, func() { cancel(context.Cause(streams)) })()
			h.ServeHTTP(w, r.WithContext(ctx))
			return
		}
		inFlight.Add(1)
		defer inFlight.Add(-1)
		h.ServeHTTP(w, r)
	}), f.readTimeout)
	srv.BaseContext = func(net.Listener) context.Context { return calls }
	if f.idleTimeout > 0 {
		srv.IdleTimeout = f.idleTimeout
	}
	fmt.Fprintf(stderr, "toolserver: serving %s mode on http://%s (native /v1/call, /virtual, /rapidapi, RapidAPI wire, MCP at /mcp)\n", f.mode, ln.Addr())
	if f.ready != nil {
		f.ready(ln.Addr().String())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	// The listener already queues connections, and Serve takes them from
	// here on: a client given the URL now is served.
	if err := announce(ln.Addr(), f.readyFile, stdout); err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		_ = srv.Close()
		return 1
	}
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	within := f.shutdownWithin
	if within <= 0 {
		within = 10 * time.Second
	}
	fmt.Fprintf(stderr, "toolserver: shutting down: %d requests in flight, answered within %s\n", inFlight.Load(), within)
	endStreams(errShuttingDown)
	sctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	stop := time.AfterFunc(within-answerGrace(within), func() { endCalls(errShuttingDown) })
	defer stop.Stop()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
		fmt.Fprintf(stderr, "toolserver: shutdown: %v (%d requests cut)\n", err, inFlight.Load())
		return 1
	}
	return 0
}

// ReadyFileError is a failure to write -ready-file.
type ReadyFileError struct {
	Path string
	Err  error
}

func (e *ReadyFileError) Error() string { return fmt.Sprintf("-ready-file %s: %v", e.Path, e.Err) }
func (e *ReadyFileError) Unwrap() error { return e.Err }

// serverURL is the base URL of a server listening on addr.
func serverURL(addr net.Addr) string {
	return (&url.URL{Scheme: "http", Host: addr.String()}).String()
}

// announce tells whoever started the server where it serves: the URL as
// one line on stdout (os.Stdout does not buffer, so the line is out at
// once), and in readyFile when set, written whole and renamed into place
// (a reader polling for the file never sees half a URL).
func announce(addr net.Addr, readyFile string, stdout io.Writer) error {
	u := serverURL(addr)
	if readyFile != "" {
		if err := atomicfile.WriteFile(readyFile, []byte(u+"\n"), 0o644); err != nil {
			return &ReadyFileError{Path: readyFile, Err: err}
		}
	}
	if _, err := fmt.Fprintln(stdout, u); err != nil {
		return fmt.Errorf("printing the URL: %w", err)
	}
	return nil
}

func list(cat *toolset.Catalog, asJSON bool, stdout, stderr io.Writer) int {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(toolset.CatalogDocument(cat)); err != nil {
			fmt.Fprintf(stderr, "toolserver: %v\n", err)
			return 1
		}
		return 0
	}
	if err := toolset.WriteSummary(stdout, cat); err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	}
	return 0
}

// importSTB imports a StableToolBench cache into -cache, keying entries
// the way the engine looks them up (validated arguments, defaults applied).
func importSTB(cat *toolset.Catalog, f flags, stdout, stderr io.Writer) int {
	if f.cacheDir == "" {
		fmt.Fprintln(stderr, "toolserver: -import-stabletoolbench needs -cache DIR to import into")
		return 2
	}
	store, err := cache.Open(f.cacheDir, cache.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	}
	defer store.Close()
	rep, err := cache.ImportStableToolBenchWith(f.importSTB, cache.ImportOptions{
		Resolve: func(category, toolDir, apiFile string) (string, string, bool) {
			// The folder is "<tool>_for_<category>"; the tool is found by
			// category, as StableToolBench names it.
			a := cat.ToolBenchAPI(category, toolDir, strings.TrimSuffix(apiFile, ".json"))
			if a == nil {
				return "", "", false
			}
			return a.Tool.StandardizedName, a.Name, true
		},
		Normalize: func(tool, api string, args map[string]any) (map[string]any, error) {
			return cat.API(tool, api).Validate(args)
		},
	}, store)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(rep)
	if err != nil {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return 1
	}
	return 0
}
