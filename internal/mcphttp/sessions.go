// Package mcphttp bounds the sessions of MCP over streamable HTTP by count and bytes in front of the SDK's handler.
package mcphttp

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// Bounds on the MCP sessions kept over streamable HTTP. The SDK keeps a
// session until it is deleted or idle for its timeout: 20,000 initialize
// calls without DELETE grew the server from 50 to 300 MB, about 11 KB a
// session, with nothing to stop them.
const (
	// DefaultMaxSessions bounds the sessions kept at once.
	DefaultMaxSessions = 1000
	// DefaultMaxBytes bounds their estimated memory (64 MiB).
	DefaultMaxBytes = 64 << 20
	// mcpSessionBase is what one session holds besides its initialize
	// parameters: BenchmarkMCPSessionBytes measures about 7.5 KB of heap
	// and stacks (the SDK's session, connection and goroutines), a flood
	// of initialize calls about 11 KB of resident memory each.
	mcpSessionBase = 12 << 10
	// mcpGoneKept is how many closed sessions are remembered, so that
	// their clients are told why (evicted, expired) rather than "unknown".
	mcpGoneKept = 4096
)

// Why a session is gone, as its client is told.
const (
	goneEvicted = "evicted"
	goneExpired = "expired"
	goneDeleted = "deleted"
)

// Options configures Sessions.
type Options struct {
	// MaxSessions bounds the sessions kept at once (0: DefaultMaxSessions;
	// negative: no bound).
	MaxSessions int
	// MaxBytes bounds their estimated memory: about 12 KiB each plus the
	// size of its initialize request (0: DefaultMaxBytes; negative: no
	// bound).
	MaxBytes int64
	// Idle closes a session after this long without a request (0: never).
	Idle time.Duration
	// ProblemBase starts the problem types named in errors' data
	// ("/problems/" gives "/problems/mcp-session-gone").
	ProblemBase string
	// MaxBody bounds the body read to find a request's id for an error.
	MaxBody int64
}

// Sessions bounds the SDK's sessions by count and by estimated bytes:
// a new session over either bound closes the least recently used session
// that has no request running (through the SDK's own DELETE), and a client
// whose session was closed is answered with 404, as the MCP spec asks, and
// a JSON-RPC error saying why and to initialize a new session, not the
// SDK's bare "session not found". It also closes sessions idle for the
// idle time, so that it knows of every session the SDK keeps.
type Sessions struct {
	sdk      http.Handler
	max      int
	maxBytes int64
	idle     time.Duration
	now      func() time.Time
	base     string
	maxBody  int64

	mu      sync.Mutex
	lru     *list.List // of *mcpSession, least recently used first
	byID    map[string]*list.Element
	bytes   int64
	gone    *simplelru.LRU[string, string] // closed session ID → why
	timer   *time.Timer
	evicted int64
	expired int64
	refused int64
}

type mcpSession struct {
	id    string
	bytes int64
	last  time.Time
	busy  int // POSTs running: a session serving one is never closed
}

// New bounds the sessions of sdk, the SDK's streamable HTTP handler,
// which must not close idle sessions itself (its SessionTimeout 0): the
// bound closes them, so that it knows of every session kept.
func New(sdk http.Handler, opts Options) *Sessions {
	max, maxBytes := opts.MaxSessions, opts.MaxBytes
	if max == 0 {
		max = DefaultMaxSessions
	}
	if maxBytes == 0 {
		maxBytes = DefaultMaxBytes
	}
	maxBody := opts.MaxBody
	if maxBody <= 0 {
		maxBody = 1 << 20
	}
	gone, _ := simplelru.NewLRU[string, string](mcpGoneKept, nil)
	return &Sessions{sdk: sdk, max: max, maxBytes: maxBytes, idle: opts.Idle, now: time.Now, base: opts.ProblemBase, maxBody: maxBody,
		lru: list.New(), byID: map[string]*list.Element{}, gone: gone}
}

const mcpSessionHeader = "Mcp-Session-Id"

func (m *Sessions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(mcpSessionHeader)
	if id == "" {
		if r.Method == http.MethodPost {
			m.open(w, r)
			return
		}
		m.sdk.ServeHTTP(w, r) // the SDK's 400: GET and DELETE need a session
		return
	}
	s := m.begin(id, r.Method == http.MethodPost)
	if s == nil {
		m.writeGone(w, r, id)
		return
	}
	rec := &statusWriter{ResponseWriter: w}
	m.sdk.ServeHTTP(rec, r)
	m.end(s, r.Method == http.MethodDelete && rec.status == http.StatusNoContent, rec.status == http.StatusNotFound)
}

// open serves a POST without a session: an initialize makes one, which
// is counted once the SDK names it in its answer's header, before the
// client can learn it. Anything else gets a session the SDK closes with
// the request (it was never initialized), which is not counted.
func (m *Sessions) open(w http.ResponseWriter, r *http.Request) {
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(r.Body)
		var rest io.Reader = bytes.NewReader(body)
		if err != nil { // over the size limit: the SDK answers it
			rest = io.MultiReader(rest, errReader{err})
		}
		r.Body = io.NopCloser(rest)
	}
	if !isInitialize(body) {
		m.sdk.ServeHTTP(w, r)
		return
	}
	size := int64(len(body))
	ow := &openWriter{ResponseWriter: w, m: m, size: mcpSessionBase + size, id: requestID(bytes.TrimSpace(body))}
	m.sdk.ServeHTTP(ow, r)
	if ow.refusedID != "" {
		m.close(ow.refusedID)
	}
	if ow.s != nil {
		m.end(ow.s, false, false)
	}
}

// openWriter registers the session the SDK's answer names. Should every
// session kept be serving a request, so that none can make room, the new
// one is refused (503) and closed.
type openWriter struct {
	http.ResponseWriter
	m         *Sessions
	id        json.RawMessage // the request's, for an error
	size      int64
	wrote     bool
	s         *mcpSession
	refusedID string
}

func (o *openWriter) WriteHeader(code int) {
	if o.wrote {
		return
	}
	o.wrote = true
	if id := o.Header().Get(mcpSessionHeader); id != "" && code < 300 {
		s, ok := o.m.admit(id, o.size)
		if !ok {
			o.refusedID = id
			o.Header().Del(mcpSessionHeader)
			o.m.writeRPCError(o.ResponseWriter, http.StatusServiceUnavailable, o.id, "too-many-sessions",
				fmt.Sprintf("too many MCP sessions: all %d kept are serving a request, so none can be closed to make room; retry shortly", o.m.max))
			return
		}
		o.s = s
	}
	o.ResponseWriter.WriteHeader(code)
}

func (o *openWriter) Write(p []byte) (int, error) {
	if !o.wrote {
		o.WriteHeader(http.StatusOK)
	}
	if o.refusedID != "" {
		return len(p), nil // the SDK's answer for a session refused
	}
	return o.ResponseWriter.Write(p)
}

func (o *openWriter) Flush() {
	if o.refusedID == "" {
		if f, ok := o.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
	}
}

func (o *openWriter) Unwrap() http.ResponseWriter { return o.ResponseWriter }

// statusWriter notes the status of an answer.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(p []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(p)
}

func (s *statusWriter) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// admit counts a new session, closing the least recently used idle ones
// until it fits both bounds. It fails, counting nothing, when none of
// those it must close can be.
func (m *Sessions) admit(id string, size int64) (*mcpSession, bool) {
	m.mu.Lock()
	if e, ok := m.byID[id]; ok { // the SDK never names one twice; be safe
		s := e.Value.(*mcpSession)
		s.busy++
		m.mu.Unlock()
		return s, true
	}
	var victims []string
	over := func() bool {
		return (m.max > 0 && len(m.byID)+1 > m.max) || (m.maxBytes > 0 && m.bytes+size > m.maxBytes && len(m.byID) > 0)
	}
	for e := m.lru.Front(); e != nil && over(); {
		next := e.Next()
		if s := e.Value.(*mcpSession); s.busy == 0 {
			m.forget(e, goneEvicted)
			m.evicted++
			victims = append(victims, s.id)
		}
		e = next
	}
	if over() {
		m.refused++
		m.mu.Unlock()
		m.closeAll(victims)
		return nil, false
	}
	s := &mcpSession{id: id, bytes: size, last: m.now(), busy: 1}
	m.byID[id] = m.lru.PushBack(s)
	m.bytes += size
	m.mu.Unlock()
	m.closeAll(victims)
	return s, true
}

// begin notes a request of a session, nil when the session is not kept.
func (m *Sessions) begin(id string, post bool) *mcpSession {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.byID[id]
	if !ok {
		return nil
	}
	s := e.Value.(*mcpSession)
	if post {
		s.busy++
	}
	s.last = m.now()
	m.lru.MoveToBack(e)
	return s
}

// end notes the end of a request: a session deleted, or one the SDK no
// longer has (an initialize that failed, which the SDK closes itself),
// is forgotten.
func (m *Sessions) end(s *mcpSession, deleted, missing bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.busy > 0 {
		s.busy--
	}
	e, ok := m.byID[s.id]
	if !ok || e.Value != s {
		return
	}
	switch {
	case deleted:
		m.forget(e, goneDeleted)
		return
	case missing:
		m.forget(e, "")
		return
	}
	s.last = m.now()
	m.lru.MoveToBack(e)
	m.schedule()
}

// forget drops a session from the count (m.mu held), remembering why
// when why is set.
func (m *Sessions) forget(e *list.Element, why string) {
	s := e.Value.(*mcpSession)
	m.lru.Remove(e)
	delete(m.byID, s.id)
	m.bytes -= s.bytes
	if why != "" {
		m.gone.Add(s.id, why)
	}
}

// schedule arms the idle timer for the least recently used session
// (m.mu held).
func (m *Sessions) schedule() {
	if m.idle <= 0 || m.timer != nil || m.lru.Len() == 0 {
		return
	}
	due := m.lru.Front().Value.(*mcpSession).last.Add(m.idle).Sub(m.now())
	m.timer = time.AfterFunc(max(due, time.Millisecond), m.expire)
}

// expire closes the sessions idle for the idle time.
func (m *Sessions) expire() {
	m.mu.Lock()
	m.timer = nil
	now := m.now()
	var victims []string
	for e := m.lru.Front(); e != nil; {
		next := e.Next()
		s := e.Value.(*mcpSession)
		if now.Sub(s.last) < m.idle {
			break // the rest were used later still
		}
		if s.busy == 0 {
			m.forget(e, goneExpired)
			m.expired++
			victims = append(victims, s.id)
		}
		e = next
	}
	if m.lru.Len() > 0 {
		// The oldest may be serving a request (its end reschedules) or
		// not due yet.
		due := m.idle
		if s := m.lru.Front().Value.(*mcpSession); s.busy == 0 {
			due = s.last.Add(m.idle).Sub(now)
		}
		m.timer = time.AfterFunc(max(due, time.Millisecond), m.expire)
	}
	m.mu.Unlock()
	m.closeAll(victims)
}

func (m *Sessions) closeAll(ids []string) {
	for _, id := range ids {
		m.close(id)
	}
}

// close ends a session in the SDK through its own DELETE, which closes
// the session, its streams and its goroutines.
func (m *Sessions) close(id string) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodDelete, "/mcp", nil)
	if err != nil {
		return
	}
	req.Header.Set(mcpSessionHeader, id)
	m.sdk.ServeHTTP(discard{http.Header{}}, req)
}

// writeGone answers a request naming a session not kept: 404, which tells
// an MCP client to initialize again, with a JSON-RPC error saying why.
func (m *Sessions) writeGone(w http.ResponseWriter, r *http.Request, id string) {
	m.mu.Lock()
	why, _ := m.gone.Get(id)
	m.mu.Unlock()
	shown := id
	if len(shown) > 64 {
		shown = shown[:64] + "…"
	}
	var msg string
	switch why {
	case goneEvicted:
		msg = fmt.Sprintf("MCP session %q was evicted: the server keeps at most %d sessions (%d bytes), closing the least recently used first; initialize a new session", shown, m.max, m.maxBytes)
	case goneExpired:
		msg = fmt.Sprintf("MCP session %q was closed after %s without a request; initialize a new session", shown, m.idle)
	case goneDeleted:
		msg = fmt.Sprintf("MCP session %q was deleted by its client; initialize a new session", shown)
	default:
		msg = fmt.Sprintf("unknown MCP session %q (never opened here, or closed long ago); initialize a new session", shown)
	}
	m.writeRPCError(w, http.StatusNotFound, m.rpcID(r), "mcp-session-gone", msg)
}

// writeRPCError answers an MCP request over HTTP with a JSON-RPC error
// carrying the request's id (null when it has none), the problem's type
// and status in its data, as the SDK's client reports such a body.
func (m *Sessions) writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, kind, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	type data struct {
		Type   string `json:"type"`
		Status int    `json:"status"`
	}
	type rpcError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
		Data    data   `json:"data"`
	}
	out, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{ErrorCode, msg, data{m.base + kind, status}}})
	if err != nil {
		out = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"session not available"}}`)
	}
	w.Header().Del(mcpSessionHeader)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// rpcID is the id of the JSON-RPC request a POST carries, nil when it
// has none.
func (m *Sessions) rpcID(r *http.Request) json.RawMessage {
	if r.Method != http.MethodPost || r.Body == nil {
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, m.maxBody))
	if err != nil {
		return nil
	}
	return requestID(body)
}

// isInitialize reports whether body is one initialize request.
func isInitialize(body []byte) bool {
	var probe struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(bytes.TrimSpace(body), &probe) == nil && probe.Method == "initialize"
}

// requestID is the id of a JSON-RPC request as written, when it is a
// string or a number; nil otherwise.
func requestID(body []byte) json.RawMessage {
	var probe struct {
		Method json.RawMessage `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if json.Unmarshal(bytes.TrimSpace(body), &probe) != nil || probe.Method == nil || len(probe.ID) == 0 {
		return nil
	}
	switch c := probe.ID[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return probe.ID
	}
	return nil
}

// ErrorCode is the JSON-RPC error code of a request naming a session the
// server does not keep, or refused a new one (in the range JSON-RPC
// leaves to servers).
const ErrorCode = -32001

// Stats are the counts of MCP sessions over HTTP.
type Stats struct {
	Live, Evicted, Expired, Refused int64
	// Bytes is the estimated memory of the live sessions.
	Bytes int64
}

// Stats counts the sessions kept and closed.
func (m *Sessions) Stats() Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Stats{Live: int64(len(m.byID)), Evicted: m.evicted, Expired: m.expired, Refused: m.refused, Bytes: m.bytes}
}

// WritePrometheus writes the session counts for GET /metrics.
func (m *Sessions) WritePrometheus(w io.Writer) error {
	st := m.Stats()
	_, err := fmt.Fprintf(w, `# HELP understudy_mcp_sessions MCP sessions kept (HTTP).
# TYPE understudy_mcp_sessions gauge
understudy_mcp_sessions %d
# HELP understudy_mcp_session_bytes Their estimated bytes.
# TYPE understudy_mcp_session_bytes gauge
understudy_mcp_session_bytes %d
# HELP understudy_mcp_sessions_closed_total MCP sessions closed by the server.
# TYPE understudy_mcp_sessions_closed_total counter
understudy_mcp_sessions_closed_total{reason="evicted"} %d
understudy_mcp_sessions_closed_total{reason="expired"} %d
understudy_mcp_sessions_closed_total{reason="refused"} %d
`, st.Live, st.Bytes, st.Evicted, st.Expired, st.Refused)
	return err
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{ h http.Header }

func (d discard) Header() http.Header       { return d.h }
func (discard) WriteHeader(int)             {}
func (discard) Write(p []byte) (int, error) { return len(p), nil }

// errReader is a body whose reading fails with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
