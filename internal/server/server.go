// Package server is the HTTP face of the engine: native /v1 endpoints, StableToolBench/ToolBench and RapidAPI wires, and MCP, all thin over sandbox.Engine.Call.
package server

import (
	"bytes"
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
	"strings"

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// DefaultMaxBody bounds a request body (1 MiB).
const DefaultMaxBody = 1 << 20

// DepsView renders the dependency graph (the deps package provides it).
type DepsView interface {
	WriteJSON(w io.Writer) error
	WriteDOT(w io.Writer) error
}

// Options configures the HTTP handler.
type Options struct {
	MaxBody int64
	Deps    DepsView
	// MCP, when set, is mounted at /mcp.
	MCP    http.Handler
	Logger *slog.Logger
}

// Server routes HTTP requests to the engine.
type Server struct {
	engine  *sandbox.Engine
	opts    Options
	mux     *http.ServeMux
	wire    *rapidWire
	catalog []byte // GET /v1/catalog, rendered once
	log     *slog.Logger
}

// New builds the handler for an engine.
func New(e *sandbox.Engine, opts Options) (*Server, error) {
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	doc, err := marshal(toolset.CatalogDocument(e.Catalog()))
	if err != nil {
		return nil, fmt.Errorf("rendering the catalog: %w", err)
	}
	s := &Server{engine: e, opts: opts, mux: http.NewServeMux(), wire: newRapidWire(e.Catalog()), catalog: doc, log: opts.Logger}
	s.mux.HandleFunc("GET /healthz", s.wrap(s.healthz))
	s.mux.HandleFunc("GET /v1/catalog", s.getCatalog)
	s.mux.HandleFunc("GET /v1/tools", s.wrap(s.tools))
	s.mux.HandleFunc("GET /v1/deps", s.deps)
	s.mux.HandleFunc("GET /v1/sessions/{id}", s.wrap(s.session))
	s.mux.HandleFunc("GET /metrics", s.metrics)
	s.mux.HandleFunc("POST /v1/call", s.wrap(s.call))
	s.mux.HandleFunc("POST /virtual", s.toolbench)
	s.mux.HandleFunc("POST /rapidapi", s.toolbench)
	if opts.MCP != nil {
		s.mux.Handle("/mcp", opts.MCP)
	}
	return s, nil
}

// ServeHTTP serves RapidAPI-wire requests (those carrying X-RapidAPI-Host)
// by the API's real path, and everything else by the routes above.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("handler panic", "panic", v, "stack", string(debug.Stack()))
			writeProblem(w, newProblem(http.StatusInternalServerError, "internal", "Internal error", "the server failed while handling this request"))
		}
	}()
	r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBody)
	// RapidAPI clients always send X-RapidAPI-Host and our own clients never
	// do, so the header alone decides (real APIs have /v1/ paths too).
	if host := r.Header.Get("X-RapidAPI-Host"); host != "" {
		s.serveWire(w, r, host)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// handlerFunc is a handler that returns a result to encode as JSON or an
// error to render as problem+json.
type handlerFunc func(r *http.Request) (any, error)

func (s *Server) wrap(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := h(r)
		if err != nil {
			writeProblem(w, problemOf(err))
			return
		}
		writeJSON(w, http.StatusOK, v)
	}
}

func (s *Server) healthz(*http.Request) (any, error) {
	return map[string]any{"status": "ok", "mode": s.engine.Mode(), "apis": len(s.engine.Catalog().APIs())}, nil
}

func (s *Server) getCatalog(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(s.catalog)
}

func (s *Server) tools(r *http.Request) (any, error) {
	switch f := r.URL.Query().Get("format"); f {
	case "", "openai":
	default:
		return nil, newProblem(http.StatusBadRequest, "bad-format", "Unknown format", fmt.Sprintf("format %q is not supported; use format=openai", f))
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

func (s *Server) deps(w http.ResponseWriter, r *http.Request) {
	if s.opts.Deps == nil {
		writeProblem(w, newProblem(http.StatusNotFound, "no-deps", "No dependency graph", "this server was started without a dependency graph"))
		return
	}
	var buf bytes.Buffer
	var err error
	switch f := r.URL.Query().Get("format"); f {
	case "", "json":
		w.Header().Set("Content-Type", "application/json")
		err = s.opts.Deps.WriteJSON(&buf)
	case "dot":
		w.Header().Set("Content-Type", "text/vnd.graphviz; charset=utf-8")
		err = s.opts.Deps.WriteDOT(&buf)
	default:
		writeProblem(w, newProblem(http.StatusBadRequest, "bad-format", "Unknown format", fmt.Sprintf("format %q is not supported; use json or dot", f)))
		return
	}
	if err != nil {
		w.Header().Del("Content-Type")
		writeProblem(w, problemOf(err))
		return
	}
	_, _ = w.Write(buf.Bytes())
}

func (s *Server) session(r *http.Request) (any, error) {
	id := r.PathValue("id")
	t, ok := s.engine.Session(id)
	if !ok {
		return nil, newProblem(http.StatusNotFound, "unknown-session", "Unknown session", fmt.Sprintf("no calls were made in session %q (or it was evicted)", id))
	}
	return t, nil
}

func (s *Server) metrics(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	_ = s.engine.Metrics().WritePrometheus(w)
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
	args, err := decodeArguments(b.Arguments)
	if err != nil {
		return nil, err
	}
	return s.engine.Call(r.Context(), sandbox.Request{
		Tool: b.Tool, API: b.API, Arguments: args,
		Session: firstNonEmpty(b.Session, r.Header.Get("X-Session-Id")),
		Client:  clientID(r, ""),
	})
}

// decodeArguments reads call arguments: a JSON object, a JSON string
// holding one (ToolBench's tool_input), or empty/""/null for none.
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
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil || args == nil {
		if err == nil {
			err = errors.New("not an object")
		}
		return nil, badJSON("arguments", fmt.Errorf("arguments must be a JSON object: %w", err))
	}
	return args, nil
}

func requireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil // curl -d without -H; the body must still parse as JSON
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return newProblem(http.StatusUnsupportedMediaType, "unsupported-media-type", "Unsupported media type", fmt.Sprintf("Content-Type %q is not JSON; send application/json", ct))
	}
	return nil
}

func decodeJSON(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return err
		}
		return badJSON("body", err)
	}
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

func badJSON(what string, err error) *Problem {
	if err == io.EOF {
		err = errors.New("empty")
	}
	return newProblem(http.StatusBadRequest, "malformed-json", "Malformed JSON", fmt.Sprintf("Malformed JSON in %s: %v", what, err))
}

// clientID identifies a caller for rate limiting without keeping its key:
// a hash of the key when there is one, else the remote address.
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
