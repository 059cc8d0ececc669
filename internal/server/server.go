// Package server is the HTTP face of the engine: native /v1 endpoints, StableToolBench/ToolBench and RapidAPI wires, and MCP, all thin over sandbox.Engine.Call.
package server

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/openapi"
)

// DefaultMaxBody bounds a request body (1 MiB).
const DefaultMaxBody = 1 << 20

// DepsView renders the dependency graph (the deps package provides it).
type DepsView interface {
	WriteJSON(w io.Writer) error
	WriteDOT(w io.Writer) error
}

// MetricsWriter writes metric families in Prometheus's text format.
type MetricsWriter interface {
	WritePrometheus(w io.Writer) error
}

// Options configures the HTTP handler.
type Options struct {
	MaxBody int64
	Deps    DepsView
	// MCP, when set, is mounted at /mcp.
	MCP    http.Handler
	Logger *slog.Logger
	// ReadTimeout bounds reading one request body (0 means
	// DefaultReadTimeout); NewHTTPServer bounds the header.
	ReadTimeout time.Duration
	// AllowOrigins lists the browser origins ("http://localhost:3000")
	// allowed besides the server's own; see siteGuard.
	AllowOrigins []string
	// Metrics are more metric families for GET /metrics, written after
	// the engine's calls (the simulator's fallbacks, say).
	Metrics []MetricsWriter
	// Health, when set, describes the state shared between replicas
	// (Redis) under "shared" in GET /healthz; healthy false makes it a 503
	// with status "unavailable", so that a load balancer takes notice.
	Health func(ctx context.Context) (detail map[string]any, healthy bool)
	// EnforceSecurity answers 401 on the RapidAPI wire, in fake mode, to a
	// request without the credentials its API's source declares
	// (toolset.API.Security); any value is taken. Replay and record
	// answer what was recorded, and live is the real API's to refuse.
	EnforceSecurity bool
	// APICacheBytes bounds the estimated bytes of what is built per API on
	// its first call and kept: the RapidAPI wire's routes, by tool (0:
	// DefaultAPICacheBytes; negative: no bound). GET /metrics shows them
	// as understudy_api_cache_*.
	APICacheBytes int64
	// SchemaCacheBytes, when not 0, bounds the estimated bytes of what
	// the catalog builds per API on its first use and keeps: compiled
	// argument validators, parsed response schemas, the faker's answer
	// plans (toolset.Catalog.SetCacheBytes; negative: no bound). 0 leaves
	// the catalog's bound (toolset.DefaultCacheBytes unless set). GET
	// /metrics shows them as understudy_api_schema_cache_*.
	SchemaCacheBytes int64
}

// Server routes HTTP requests to the engine.
type Server struct {
	engine  *sandbox.Engine
	opts    Options
	handler http.Handler
	catalog func() ([]byte, error) // GET /v1/catalog, rendered once
	// openAPIDoc is GET /v1/tools?format=openapi's document, built once.
	openAPIDoc func() *openapi3.T
	log        *slog.Logger
}

// New builds the handler for an engine.
func New(e *sandbox.Engine, opts Options) (*Server, error) {
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = DefaultReadTimeout
	}
	guard, err := newSiteGuard(opts.AllowOrigins)
	if err != nil {
		return nil, err
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if m, ok := opts.MCP.(MetricsWriter); ok {
		// The MCP sessions' counts (MCPHandlerOf).
		opts.Metrics = append(slices.Clone(opts.Metrics), m)
	}
	s := &Server{engine: e, opts: opts, log: opts.Logger}
	// The catalog document is rendered on its first request: it holds every
	// response schema, which the catalog parses only when asked for, and
	// rendering it at start was most of the catalog's share of the start.
	s.catalog = sync.OnceValues(func() ([]byte, error) {
		doc, err := marshal(toolset.CatalogDocument(e.Catalog()))
		if err != nil {
			return nil, fmt.Errorf("rendering the catalog: %w", err)
		}
		return doc, nil
	})
	s.openAPIDoc = sync.OnceValue(func() *openapi3.T { return openapi.Document(e.Catalog()) })
	wire := s.newRapidWire()
	if opts.SchemaCacheBytes != 0 {
		e.Catalog().SetCacheBytes(opts.SchemaCacheBytes)
	}
	s.opts.Metrics = append(slices.Clone(s.opts.Metrics), wire.hosts, schemaCache{e.Catalog()})
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", route{wrap(s.healthz)})
	mux.Handle("GET /v1/catalog", route{wrap(s.getCatalog)})
	mux.Handle("GET /v1/tools", route{wrap(s.tools)})
	mux.Handle("GET /v1/search", route{wrap(s.search)})
	mux.Handle("GET /v1/deps", route{wrap(s.deps)})
	mux.Handle("GET /v1/sessions/{id}", route{wrap(s.session)})
	mux.Handle("DELETE /v1/sessions/{id}", route{wrap(s.resetSession)})
	// POST is the documented method; GET with the same body is taken
	// for clients that insist on GET for a read.
	mux.Handle("POST /v1/sessions/{id}/expect", route{wrap(s.expect)})
	mux.Handle("GET /v1/sessions/{id}/expect", route{wrap(s.expect)})
	mux.Handle("GET /metrics", route{wrap(s.metrics)})
	mux.Handle("GET /problems", route{wrap(s.problemIndex)})
	mux.Handle("GET "+ProblemPath+"{name}", route{wrap(s.problemDoc)})
	mux.Handle("POST /v1/call", route{wrap(s.call)})
	mux.Handle("POST /virtual", route{wrap(s.toolbench)})
	mux.Handle("POST /rapidapi", route{wrap(s.toolbench)})
	if opts.MCP != nil {
		mux.Handle("/mcp", route{limitMCPNames(exactMCPIDs(opts.MCP))})
	}
	// Outermost first: the body's read deadline is set; a panic anywhere
	// is answered; browsers of other sites are refused; headers, then the
	// body, are bounded in size and the body in time; then the RapidAPI
	// wire or the routes above, whose own refusals (404, 405, redirects)
	// are problems too. A refusal before the body is read is answered at
	// once and closes the connection (refuse).
	s.handler = bodyDeadline(opts.ReadTimeout)(recoverPanics(s.log)(guard.wrap(limitHeaders(limitBody(opts.MaxBody)(readBody(
		rapidAPIHost(wire)(routerProblems(mux, wire))))))))
	return s, nil
}

// ServeHTTP serves RapidAPI-wire requests (those carrying X-RapidAPI-Host)
// by the API's real path, and everything else by the routes above.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// recoverPanics answers a handler's panic with a problem and keeps the
// server serving; http.ErrAbortHandler keeps its meaning (abort quietly).
func recoverPanics(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					log.Error("handler panic", "panic", v, "stack", string(debug.Stack()))
					writeProblem(w, newProblem(http.StatusInternalServerError, "internal", "Internal error", "the server failed while handling this request"))
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// limitBody bounds every request body; reading past the limit fails with
// *http.MaxBytesError, which problemOf answers with 413. A body whose
// Content-Length is already over the limit is not read at all: it fails
// so at once, and the connection ends with the answer.
func limitBody(limit int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.Body == http.NoBody: // a request without a body has nothing to bound, or to read
			case r.ContentLength > limit:
				endConnection(w)
				r.Body = io.NopCloser(errReader{&http.MaxBytesError{Limit: limit}})
			default:
				r.Body = http.MaxBytesReader(w, r.Body, limit)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// rapidAPIHost sends requests carrying X-RapidAPI-Host to the wire and the
// rest on. RapidAPI clients always send the header and our own clients
// never do, so the header alone decides (real APIs have /v1/ paths too).
func rapidAPIHost(wire http.Handler) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("X-RapidAPI-Host") != "" {
				wire.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// handlerFunc is a route: it returns a result or an error and writes
// nothing itself (Prometheus web/api/v1 style). wrap turns the result into
// JSON (a *rawBody is sent as is) and the error into
// problem+json.
type handlerFunc func(r *http.Request) (any, error)

// rawBody is a result sent as it is rather than encoded as JSON: a document
// rendered once, another media type, or an API's own status and bytes.
type rawBody struct {
	status      int
	contentType string
	// source, when set, is sent as X-Understudy-Source (mock, cache,
	// remote, sandbox): where the API's answer came from.
	source string
	header http.Header // more headers to send
	body   []byte
}

// jsonContentType is the Content-Type of JSON answers, shared like
// sourceHeaders.
var jsonContentType = []string{"application/json"}[:1:1]

func contentTypeHeader(ct string) []string {
	if ct == "application/json" {
		return jsonContentType
	}
	return []string{ct}
}

// sourceHeaders are the X-Understudy-Source values, shared by every
// answer: a header value slice is only read by net/http, and one of
// length and capacity 1 is copied by anything that appends to it.
var sourceHeaders = func() map[string][]string {
	m := map[string][]string{}
	for _, s := range []string{sandbox.SourceMock, sandbox.SourceCache, sandbox.SourceRemote, sandbox.SourceSandbox} {
		m[s] = []string{s}[:1:1]
	}
	return m
}()

func wrap(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := h(r)
		if err != nil {
			writeProblem(w, problemOf(err))
			return
		}
		switch v := v.(type) {
		case *rawBody:
			v.write(w)
		default:
			writeJSON(w, http.StatusOK, v)
		}
	})
}

func (b *rawBody) write(w http.ResponseWriter) {
	h := w.Header()
	if b.contentType != "" { // a 204 has no body to type
		h["Content-Type"] = contentTypeHeader(b.contentType)
	}
	if b.source != "" {
		if vs, ok := sourceHeaders[b.source]; ok {
			h["X-Understudy-Source"] = vs
		} else {
			h["X-Understudy-Source"] = []string{b.source}
		}
	}
	for k, vs := range b.header {
		h[k] = vs
	}
	w.WriteHeader(cmp.Or(b.status, http.StatusOK))
	_, _ = w.Write(b.body)
}

func (s *Server) healthz(r *http.Request) (any, error) {
	out := map[string]any{"status": "ok", "mode": s.engine.Mode(), "apis": len(s.engine.Catalog().APIs())}
	if s.opts.Health == nil {
		return out, nil
	}
	detail, healthy := s.opts.Health(r.Context())
	out["shared"] = detail
	if w, ok := detail["warning"]; ok {
		out["warning"] = w // where recordings live only in memory, say
	}
	if _, local := detail["serving"]; local {
		out["status"] = "degraded"
	}
	if healthy {
		return out, nil
	}
	out["status"] = "unavailable"
	body, err := marshal(out)
	if err != nil {
		return nil, err
	}
	return &rawBody{status: http.StatusServiceUnavailable, contentType: "application/json", body: body}, nil
}

func (s *Server) getCatalog(*http.Request) (any, error) {
	doc, err := s.catalog()
	if err != nil {
		return nil, err
	}
	return &rawBody{contentType: "application/json", body: doc}, nil
}

func (s *Server) tools(r *http.Request) (any, error) {
	switch f := r.URL.Query().Get("format"); f {
	case "", "openai":
	case "openapi":
		return s.openAPI(r)
	default:
		return nil, newProblem(http.StatusBadRequest, "bad-format", "Unknown format", fmt.Sprintf("format %q is not supported; use format=openai or format=openapi", f))
	}
	opts := toolset.ExportOptions{}
	switch n := r.URL.Query().Get("naming"); n {
	case "", "native":
	case "toolbench":
		opts.Style = toolset.NameToolBench
	default:
		return nil, newProblem(http.StatusBadRequest, "bad-naming", "Unknown naming", fmt.Sprintf("naming %q is not supported; use native or toolbench", n))
	}
	return toolset.OpenAITools(s.engine.Catalog(), opts), nil
}

// openAPI answers GET /v1/tools?format=openapi: the catalog as one
// OpenAPI 3.0 document (openapi.Document), its servers entry the
// address the request was made to.
func (s *Server) openAPI(r *http.Request) (any, error) {
	doc := *s.openAPIDoc()
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	doc.Servers = openapi3.Servers{{URL: scheme + "://" + r.Host, Description: "this tool server"}}
	body, err := marshal(&doc)
	if err != nil {
		return nil, fmt.Errorf("rendering the OpenAPI document: %w", err)
	}
	return &rawBody{contentType: "application/json", body: body}, nil
}

func (s *Server) deps(r *http.Request) (any, error) {
	if s.opts.Deps == nil {
		return nil, newProblem(http.StatusNotFound, "no-deps", "No dependency graph", "this server was started without a dependency graph")
	}
	out := &rawBody{}
	var buf bytes.Buffer
	var err error
	switch f := r.URL.Query().Get("format"); f {
	case "", "json":
		out.contentType = "application/json"
		err = s.opts.Deps.WriteJSON(&buf)
	case "dot":
		out.contentType = "text/vnd.graphviz; charset=utf-8"
		err = s.opts.Deps.WriteDOT(&buf)
	default:
		return nil, newProblem(http.StatusBadRequest, "bad-format", "Unknown format", fmt.Sprintf("format %q is not supported; use json or dot", f))
	}
	if err != nil {
		return nil, err
	}
	out.body = buf.Bytes()
	return out, nil
}

func (s *Server) session(r *http.Request) (any, error) {
	id, err := sessionID(r)
	if err != nil {
		return nil, err
	}
	t, ok, err := s.engine.SessionContext(r.Context(), id)
	if err != nil {
		return nil, err // shared traces down: 503, not an unknown session
	}
	if !ok {
		return nil, unknownSession(id)
	}
	return t, nil
}

// sessionID is the {id} of a /v1/sessions/{id} path, within bounds.
func sessionID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if p := checkLen("session ID", id, MaxSessionIDLen); p != nil {
		return "", p
	}
	return id, nil
}

func unknownSession(id string) *Problem {
	return newProblem(http.StatusNotFound, "unknown-session", "Unknown session", fmt.Sprintf("no calls were made in session %q (or it was evicted)", id))
}

func (s *Server) metrics(*http.Request) (any, error) {
	var buf bytes.Buffer
	if err := s.engine.Metrics().WritePrometheus(&buf); err != nil {
		return nil, err
	}
	for _, m := range s.opts.Metrics {
		if err := m.WritePrometheus(&buf); err != nil {
			return nil, err
		}
	}
	return &rawBody{contentType: "text/plain; version=0.0.4; charset=utf-8", body: buf.Bytes()}, nil
}

// callBody is the body of POST /v1/call.
type callBody struct {
	Tool      string          `json:"tool"`
	API       string          `json:"api"`
	Arguments json.RawMessage `json:"arguments"`
	Session   string          `json:"session"`
}

func (s *Server) call(r *http.Request) (any, error) {
	if err := requireJSON(r); err != nil {
		return nil, err
	}
	var b callBody
	if err := decodeJSON(r.Body, &b); err != nil {
		return nil, err
	}
	if strings.TrimSpace(b.API) == "" {
		return nil, newProblem(http.StatusBadRequest, "bad-request", "Malformed request", `"api" is required (with "tool", or as "<api>_for_<tool>")`)
	}
	session := firstNonEmpty(b.Session, r.Header.Get("X-Session-Id"))
	if err := checkCall(b.Tool, b.API, session); err != nil {
		return nil, err
	}
	args, err := decodeArguments(b.Arguments)
	if err != nil {
		return nil, err
	}
	res, err := s.engine.Call(r.Context(), sandbox.Request{
		Tool: b.Tool, API: b.API, Arguments: args,
		Session: session,
		Client:  s.callerOf(r, b.Tool, b.API),
	})
	if err != nil {
		return nil, err
	}
	status := http.StatusOK
	if passthrough(r) {
		status = cmp.Or(res.Status, http.StatusOK)
	}
	out, err := marshalResult(res)
	if err != nil {
		return nil, err
	}
	return &rawBody{status: status, contentType: "application/json", body: out, header: warningHeader(nil, res.Warnings)}, nil
}

// WarningHeader carries, on every HTTP transport, each warning of a call
// that lenient validation let through (an undocumented argument ignored,
// a placeholder taken as not given): "<code> <argument>: <message>", one
// header line per warning. The native envelope lists them too, as
// "warnings".
const WarningHeader = "X-Understudy-Warning"

// warningHeader adds the warnings of a call to h (a new header when nil),
// returning it; nil when there are none.
func warningHeader(h http.Header, ws []toolset.Violation) http.Header {
	if len(ws) == 0 {
		return h
	}
	if h == nil {
		h = http.Header{}
	}
	for _, w := range ws {
		h.Add(WarningHeader, w.Code+" "+strings.Join(w.Location, ".")+": "+w.Message)
	}
	return h
}

// marshalResult is marshal(res). An answer the engine holds as compact,
// valid JSON already (a stand-in's canonical JSON, a recording, which the
// store compacts, or the engine's own refusal) is written around as it
// is, without encoding/json scanning it again; anything else (an
// upstream's body as it came, violations, headers) goes through marshal.
func marshalResult(res *sandbox.Result) ([]byte, error) {
	switch res.Source {
	case sandbox.SourceMock, sandbox.SourceCache, sandbox.SourceSandbox:
	default:
		return marshal(res)
	}
	if len(res.Response) == 0 || res.UpstreamError != "" || len(res.Violations) > 0 || len(res.Header) > 0 || len(res.Warnings) > 0 {
		return marshal(res)
	}
	b := make([]byte, 0, len(res.Response)+len(res.Tool)+len(res.API)+len(res.Key)+len(res.Session)+96)
	b = append(b, `{"tool":`...)
	b = canon.AppendString(b, res.Tool)
	b = append(b, `,"api":`...)
	b = canon.AppendString(b, res.API)
	b = append(b, `,"response":`...)
	b = append(b, res.Response...)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(res.Status), 10)
	b = append(b, `,"source":`...)
	b = canon.AppendString(b, res.Source)
	if res.Key != "" {
		b = append(b, `,"key":`...)
		b = canon.AppendString(b, res.Key)
	}
	b = append(b, `,"session":`...)
	b = canon.AppendString(b, res.Session)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(res.Seq), 10)
	return append(b, "}\n"...), nil
}

// StatusHeader, set to "passthrough" on POST /v1/call, makes the API's own
// status (res.status) the HTTP status. Without it an answer of the API is
// HTTP 200 whatever its status, as ToolBench's servers answer: the call
// worked, and the API's refusal is data for the agent.
const StatusHeader = "X-Understudy-Status"

func passthrough(r *http.Request) bool {
	return strings.EqualFold(strings.TrimSpace(r.Header.Get(StatusHeader)), "passthrough")
}

// decodeArguments reads call arguments: a JSON object, a JSON string
// holding one (ToolBench's tool_input), or empty/""/null for none.
// Integers above 2^53 keep their digits (see decodeObject).
func decodeArguments(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return map[string]any{}, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, badJSON("arguments", err)
		}
		if strings.TrimSpace(s) == "" {
			return map[string]any{}, nil
		}
		raw = []byte(s)
	}
	args, err := decodeObject(raw)
	if err != nil || args == nil {
		if err == nil {
			err = errors.New("not an object")
		}
		return nil, badJSON("arguments", fmt.Errorf("arguments must be a JSON object: %w", err))
	}
	return args, nil
}

// requireJSON is the one Content-Type rule of every JSON body: a body
// declared as JSON (application/json, anything +json), or not declared at
// all, must parse as JSON. So must a body whose type is only a client's
// default when its caller named none — application/x-www-form-urlencoded
// (curl -d), text/plain (fetch and XHR with a string) — so that curl -d
// works alike on /v1/call, /virtual and /rapidapi; such a body that is not
// JSON is malformed JSON (400). A body declared as anything else
// (multipart/form-data, application/xml…) is refused with 415. Web pages,
// which can send those default types without a preflight, are kept out by
// siteGuard, not by the type.
func requireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && jsonOrDefault(mt) {
		return nil
	}
	return newProblem(http.StatusUnsupportedMediaType, "unsupported-media-type", "Unsupported media type",
		fmt.Sprintf("Content-Type %q is not JSON; send application/json", prefix(ct, 128)))
}

func jsonOrDefault(mediaType string) bool {
	switch mediaType {
	case "application/json", "application/x-www-form-urlencoded", "text/plain":
		return true
	}
	return strings.HasSuffix(mediaType, "+json")
}

// decodeJSON reads one JSON value from a request body and nothing after it.
func decodeJSON(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	if err := dec.Decode(v); err != nil {
		return bodyError(err)
	}
	return expectEnd(dec)
}

// decodeBodyObject is decodeJSON for a body of arguments (the RapidAPI
// wire's JSON body): integers above 2^53 keep their digits (canon.Exact),
// where a float64 would round 9007199254740993 to 9007199254740992 and two
// calls would share one cache key. It refuses what decodeJSON refuses, in
// its words: a number float64 cannot hold at all (1e999) is reported as a
// decoder without UseNumber reports it, read again from the bytes seen.
func decodeBodyObject(r io.Reader) (map[string]any, error) {
	var seen bytes.Buffer
	dec := json.NewDecoder(io.TeeReader(r, &seen))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, bodyError(err)
	}
	if _, err := canon.Exact(m); err != nil {
		var plain map[string]any
		if err := json.NewDecoder(&seen).Decode(&plain); err != nil {
			return nil, badJSON("body", err)
		}
		return nil, badJSON("body", err) // unreachable: both read the same grammar
	}
	return m, expectEnd(dec)
}

// expectEnd refuses anything after the value dec has read.
func expectEnd(dec *json.Decoder) error {
	if dec.More() {
		return badJSON("body", errors.New("unexpected data after the JSON value"))
	}
	if _, err := dec.Token(); err != io.EOF {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return badJSON("body", errors.New("unexpected data after the JSON value"))
	}
	return nil
}

// bodyError keeps a body over the limit as it is (problemOf answers 413)
// and makes any other decoding error a malformed-JSON problem.
func bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return err
	}
	return badJSON("body", err)
}

// decodeObject reads a JSON object with canon.Decode, so that integers
// above 2^53 keep their digits (every other number is the float64
// json.Unmarshal gives); anything else is refused by json.Unmarshal, in its
// words. "null" is a nil map.
func decodeObject(data []byte) (map[string]any, error) {
	if v, err := canon.Decode(data); err == nil {
		if m, ok := v.(map[string]any); ok {
			return m, nil
		}
	}
	var m map[string]any
	err := json.Unmarshal(data, &m)
	return m, err
}

func badJSON(what string, err error) *Problem {
	if err == io.EOF {
		err = errors.New("empty")
	}
	return newProblem(http.StatusBadRequest, "malformed-json", "Malformed JSON", fmt.Sprintf("Malformed JSON in %s: %v", what, err))
}

// clientID identifies a caller for rate limiting without keeping its key:
// a hash of the key when there is one, else the remote address.
// callerOf is clientID for a call of tool.api, or "" when the API is not
// rate-limited (or not known: the engine answers that), where who calls
// does not matter.
func (s *Server) callerOf(r *http.Request, tool, api string) string {
	if a, err := s.engine.Resolve(tool, api); err == nil && !s.engine.RateLimited(a) {
		return ""
	}
	return clientID(r, "")
}

func clientID(r *http.Request, key string) string {
	if key == "" {
		key = r.Header.Get("X-RapidAPI-Key")
	}
	if key != "" {
		h := sha256.Sum256([]byte(key))
		return "key:" + hex.EncodeToString(h[:6])
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "addr:" + host
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		writeProblem(w, problemOf(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
