package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
)

// Bounds on what one client can make the server hold. Slow clients are cut
// off by deadlines, many clients by the connection cap (LimitListener), and
// huge identifiers are refused before anything is computed from them.
const (
	// DefaultReadTimeout bounds reading a request's header, and then
	// separately its body: a client that trickles either is answered (or
	// dropped) instead of holding its connection for ever.
	DefaultReadTimeout = 10 * time.Second
	// DefaultMaxConns caps concurrent connections, well under the usual
	// 1024 open files, so that a flood cannot exhaust file descriptors.
	DefaultMaxConns = 512
	// MaxNameLen bounds a tool or API name. Real names are under 64 bytes
	// (OpenAI's limit for a function name); an unknown name is compared
	// with every known one for suggestions, which costs its length.
	MaxNameLen = 256
	// MaxSessionIDLen bounds a session ID: the engine keeps one trace per
	// session, so the ID's length is memory held until eviction.
	MaxSessionIDLen = 256
	// maxHeaderBytes is the largest request line and header section
	// accepted: LimitListener answers a 431 problem on the next byte, as
	// it arrives, and NewHTTPServer sets net/http's MaxHeaderBytes to it.
	maxHeaderBytes = 64 << 10
)

// DefaultIdleTimeout bounds how long a keep-alive connection waits for its
// next request. It is separate from the read timeout: an idle connection
// holds a slot under the cap (and is the first evicted at it), so it is
// kept only as long as a client plausibly reuses it.
const DefaultIdleTimeout = 30 * time.Second

// NewHTTPServer is the http.Server for a handler: headers must arrive
// within readTimeout (0 means DefaultReadTimeout) and within
// MaxHeaderBytes, idle keep-alive connections are closed after
// DefaultIdleTimeout, and connections accepted by LimitListener learn from
// ConnState when a request is being served, so that the cap never evicts
// one whose request has arrived. Body deadlines are set per request by the
// handler (Options.ReadTimeout), not with ReadTimeout: a whole-connection
// read deadline would cancel the context of a call that outlives it (a
// slow upstream, an MCP stream).
func NewHTTPServer(h http.Handler, readTimeout time.Duration) *http.Server {
	if readTimeout <= 0 {
		readTimeout = DefaultReadTimeout
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readTimeout,
		IdleTimeout:       DefaultIdleTimeout,
		// net/http's own bound, for connections not accepted by
		// LimitListener (which answers a problem at the same size, as the
		// bytes arrive): without it net/http reads 1 MiB of header first.
		MaxHeaderBytes: maxHeaderBytes,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if lc, ok := c.(*limitedConn); ok {
				return context.WithValue(ctx, connKey{}, lc)
			}
			return ctx
		},
		ConnState: func(c net.Conn, s http.ConnState) {
			if lc, ok := c.(*limitedConn); ok {
				lc.httpState(s)
			}
		},
	}
}

type connKey struct{}

// LimitListener caps the connections open at once at max (0 means
// DefaultMaxConns) and bounds each request's header as it arrives.
//
// When a new connection arrives at the cap, one that is not serving a
// request is closed to make room: first the keep-alive connection idle the
// longest, then the connection that has waited longest on a header or a
// body not yet complete. A flood of slow clients evicts itself rather than
// locking others out, and a connection whose request has arrived is never
// evicted: it counts as busy from the last byte of its header (before
// net/http has parsed it), and only a body that has not all arrived with
// it makes the connection wait, evictable, until the body is in
// (readBody). Only when every connection is serving a request is the
// newcomer closed at once.
//
// A header (request line and fields) over 64 KiB is answered with a 431
// problem as soon as its 64 KiB-and-first byte arrives, and the connection
// closed: nothing of it is held but what net/http has buffered so far.
func LimitListener(ln net.Listener, max int) net.Listener {
	if max <= 0 {
		max = DefaultMaxConns
	}
	return &connLimit{Listener: ln, max: max, conns: map[*limitedConn]struct{}{}}
}

type connLimit struct {
	net.Listener
	max int

	mu    sync.Mutex
	conns map[*limitedConn]struct{}
	tick  uint64 // orders connections by when they last began to wait
	peek  [4 << 10]byte
}

// Where a connection is in its life, as the cap sees it.
const (
	connFresh  = iota // accepted, no byte of a request yet
	connHeader        // part of a request's header has arrived
	connBody          // a request's header is in, its body still arriving
	connBusy          // a request has arrived: it is handled, answered
	connIdle          // keep-alive, between requests
)

// limitedConn is one accepted connection. since is the tick at which it
// was accepted or its last request was answered. state is guarded by the
// listener's mutex; the header count by the reading goroutine alone
// (net/http never reads a connection from two goroutines at once, and
// calls ConnState from the reading one between requests).
type limitedConn struct {
	net.Conn
	l     *connLimit
	since uint64
	state int
	once  sync.Once

	counting bool         // reading a request header
	after    atomic.Int64 // bytes read after the current request's header
	seen     atomic.Int64 // bytes of it so far (read by tests while it grows)
	eol      int          // 0 inside a line, 1 after its LF, 2 after CR at a line's start
	refused  error        // set once the header went over the limit
}

// rank orders eviction: idle keep-alives first, then connections still
// sending a header or body, then those nothing was read from yet;
// connections serving a request are never evicted.
func (c *limitedConn) rank() int {
	switch c.state {
	case connIdle:
		return 0
	case connBusy:
		return -1
	case connFresh:
		return 2
	}
	return 1
}

// before reports whether c goes before d at the cap: by rank, then the
// longest waiting first, but among connections nothing was read from yet
// the newest first: those accepted just before a burst of others most
// likely have their request on the way (a client sends it right after
// connecting), and a silent one is ended by the header's read timeout.
func (c *limitedConn) before(d *limitedConn) bool {
	rc, rd := c.rank(), d.rank()
	switch {
	case rc != rd:
		return rc < rd
	case rc == 2:
		return c.since > d.since
	}
	return c.since < d.since
}

func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		var victim *limitedConn
		if len(l.conns) >= l.max {
			victim = l.victim()
			for wait := 0; victim == nil && wait < allBusyGrace; wait++ {
				// Every connection is serving a request; one whose body is
				// still to come becomes evictable as soon as its handler
				// starts reading it, and a call may end: wait a moment.
				l.mu.Unlock()
				time.Sleep(time.Millisecond)
				l.mu.Lock()
				if len(l.conns) < l.max {
					break
				}
				victim = l.victim()
			}
			if victim == nil && len(l.conns) >= l.max {
				l.mu.Unlock()
				_ = c.Close() // every connection is serving a request
				continue
			}
			if victim != nil {
				delete(l.conns, victim)
			}
		}
		l.tick++
		lc := &limitedConn{Conn: c, l: l, since: l.tick, state: connFresh, counting: true, eol: 1}
		l.conns[lc] = struct{}{}
		l.mu.Unlock()
		if victim != nil {
			_ = victim.Conn.Close()
		}
		return lc, nil
	}
}

// allBusyGrace is how many milliseconds a newcomer waits, at the cap with
// every connection serving a request, for one to end or become evictable
// before it is closed.
const allBusyGrace = 100

// victim is the connection to close at the cap, or nil when every one is
// serving a request. A connection nothing has been read from yet is spared
// when its whole request header already waits in the kernel: under a
// flood of slow clients, a complete request accepted just before many
// others would otherwise be the oldest candidate before its first read.
// The caller holds l.mu.
func (l *connLimit) victim() *limitedConn {
	var spared map[*limitedConn]bool
	for {
		var victim *limitedConn
		for lc := range l.conns {
			if lc.rank() < 0 || spared[lc] {
				continue
			}
			if victim == nil || lc.before(victim) {
				victim = lc
			}
		}
		if victim == nil || victim.state != connFresh || !requestWaiting(victim.Conn, l.peek[:]) {
			return victim
		}
		if spared == nil {
			spared = map[*limitedConn]bool{}
		}
		spared[victim] = true
	}
}

// open is the number of connections counted against the cap.
func (l *connLimit) open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

func (c *limitedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

func (c *limitedConn) setState(s int) {
	c.l.mu.Lock()
	c.state = s
	if s == connIdle {
		c.l.tick++
		c.since = c.l.tick
	}
	c.l.mu.Unlock()
}

// httpState follows net/http's view of the connection: StateActive comes
// once a request's header is parsed, StateIdle once its answer is written
// and the connection waits for the next one.
func (c *limitedConn) httpState(s http.ConnState) {
	switch s {
	case http.StateActive:
		c.counting = false
		c.setState(connBusy)
	case http.StateIdle:
		c.counting, c.eol = true, 1
		c.seen.Store(0)
		c.after.Store(0)
		c.setState(connIdle)
	}
}

// awaitBody makes the connection evictable while the rest of a body of
// length bytes (-1: chunked, unknown) arrives, unless all of it came with
// the header. The returned func marks it busy again once the body is in.
func (c *limitedConn) awaitBody(length int64) (done func()) {
	if length >= 0 && c.after.Load() >= length {
		return func() {}
	}
	c.setState(connBody)
	return func() { c.setState(connBusy) }
}

// errHeaderTooLarge ends the reading of a header over the limit; it is
// wrapped as a read error, which net/http takes as the client gone and
// answers nothing more (the 431 is already written).
var errHeaderTooLarge = errors.New("request header over the limit")

// Read counts a request's header bytes as they arrive, up to the empty
// line that ends it. Its first byte marks the connection as waiting on a
// header, its end as serving a request; one byte over maxHeaderBytes
// answers 431 at once and fails the read.
func (c *limitedConn) Read(p []byte) (int, error) {
	if c.refused != nil {
		return 0, c.refused
	}
	n, err := c.Conn.Read(p)
	if n == 0 {
		return n, err
	}
	if !c.counting {
		c.after.Add(int64(n))
		return n, err
	}
	seen := c.seen.Load()
	if seen == 0 {
		c.setState(connHeader)
	}
	data := p[:n]
	if room := maxHeaderBytes - seen; int64(len(data)) > room+1 {
		data = data[:room+1]
	}
	end := headerEnd(data, c.eol)
	if end >= 0 {
		// The empty line: the header is in. The rest of p is body.
		c.seen.Store(seen + int64(end) + 1)
		c.counting = false
		c.after.Store(int64(n - end - 1))
		c.setState(connBusy)
		return n, err
	}
	c.eol = lineState(data, c.eol)
	seen += int64(len(data))
	c.seen.Store(seen)
	if seen > maxHeaderBytes {
		c.refuseHeader(p)
		return 0, c.refused
	}
	return n, err
}

// headerEnd is the index of the LF that ends a header section in b (the
// empty line), or -1; eol is the line state before b: 0 inside a line, 1
// after its LF (at a line's start), 2 after a CR at a line's start.
// net/http takes LF alone as a line's end too.
func headerEnd(b []byte, eol int) int {
	for i, c := range b {
		switch {
		case c == '\n' && eol > 0:
			return i
		case c == '\n':
			eol = 1
		case c == '\r' && eol == 1:
			eol = 2
		default:
			eol = 0
		}
	}
	return -1
}

// lineState is the line state (see headerEnd) after b.
func lineState(b []byte, eol int) int {
	for _, c := range b {
		switch {
		case c == '\n':
			eol = 1
		case c == '\r' && eol == 1:
			eol = 2
		default:
			eol = 0
		}
	}
	return eol
}

// headerTooLarge is the whole answer to a header over the limit.
var headerTooLarge = func() []byte {
	p := newProblem(http.StatusRequestHeaderFieldsTooLarge, "headers-too-large", "Request header fields too large",
		fmt.Sprintf("the request line and headers are over %d bytes, the most accepted", maxHeaderBytes))
	body, _ := marshal(p)
	return fmt.Appendf(nil, "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/problem+json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
}()

// refuseHeader writes the 431 and half-closes the connection, then reads
// (into buf, and at most maxHeaderBytes more, for at most a second) what
// the client was still sending, so that closing a socket with unread data
// does not reset the connection before the client has read its answer.
func (c *limitedConn) refuseHeader(buf []byte) {
	c.refused = &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: errHeaderTooLarge}
	c.counting = false
	_ = c.Conn.SetWriteDeadline(time.Now().Add(time.Second))
	if _, err := c.Conn.Write(headerTooLarge); err != nil {
		return
	}
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_ = c.Conn.SetReadDeadline(time.Now().Add(time.Second))
	for drained := 0; drained < maxHeaderBytes; {
		n, err := c.Conn.Read(buf)
		drained += n
		if err != nil {
			return
		}
	}
}

// bodyDeadline sets the read deadline of a request's body before anything
// else runs, so that no handler, refusal or net/http's own reading of an
// unread body waits for a body that never comes longer than timeout.
// readBody lifts it once the body is in.
func bodyDeadline(timeout time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Body != nil && r.Body != http.NoBody {
				// Unsupported on some writers (tests' recorders): no deadline then.
				_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
			}
			next.ServeHTTP(w, r)
		})
	}
}

// endConnection makes the answer being written the connection's last, and
// lets no one read what is left of the body: "Connection: close" stops
// net/http from reading (up to 256 KiB of) an unread body before it sends
// the answer, and a read deadline already past stops it from reading the
// rest when it closes the body afterwards. A refusal is then answered at
// once, and its connection closed, however little of the body came.
func endConnection(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
}

// refuse answers p and ends the connection without reading the body.
func refuse(w http.ResponseWriter, p *Problem) {
	endConnection(w)
	writeProblem(w, p)
}

// readBody reads the whole (already size-limited) body before the route
// runs, under the read deadline bodyDeadline set, then lifts the deadline
// so that a long call is not cancelled by it. A body that ends before its
// Content-Length, or does not arrive in time, is answered with a 400
// problem and the connection is closed; a body over the size limit is
// handed on as the error its reader gave, for each transport to answer in
// its own way (413, or ToolBench's 200 with an error text), and the
// connection is closed after that answer. While a body that did not come
// with its header arrives, LimitListener may evict the connection.
func readBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			done := func() {}
			if lc, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
				done = lc.awaitBody(r.ContentLength)
			}
			body, err := io.ReadAll(r.Body)
			done()
			var mbe *http.MaxBytesError
			switch {
			case err == nil:
				_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
				r.Body = io.NopCloser(bytes.NewReader(body))
			case errors.As(err, &mbe):
				endConnection(w)
				r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
			default:
				refuse(w, incompleteBody(r, len(body), err))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func incompleteBody(r *http.Request, got int, err error) *Problem {
	want := "its end"
	if r.ContentLength > 0 {
		want = strconv.FormatInt(r.ContentLength, 10) + " bytes (Content-Length)"
	}
	why := "the body ended early"
	if errors.Is(err, os.ErrDeadlineExceeded) {
		why = "the body did not arrive in time"
	}
	return newProblem(http.StatusBadRequest, "incomplete-body", "Incomplete request body",
		fmt.Sprintf("%s: read %d bytes of %s", why, got, want))
}

// limitHeaders refuses an oversized header section (431) and a session ID
// header over MaxSessionIDLen (400) before any route sees them.
func limitHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size := len(r.Method) + len(r.RequestURI) + len(r.Host)
		for k, vs := range r.Header {
			for _, v := range vs {
				size += len(k) + len(v) + 4
			}
		}
		if size > maxHeaderBytes {
			refuse(w, newProblem(http.StatusRequestHeaderFieldsTooLarge, "headers-too-large", "Request header fields too large",
				fmt.Sprintf("the request line and headers are %d bytes; at most %d are accepted", size, maxHeaderBytes)))
			return
		}
		for _, h := range []string{"X-Session-Id", "Mcp-Session-Id"} {
			if v := r.Header.Get(h); len(v) > MaxSessionIDLen {
				refuse(w, checkLen(h+" header", v, MaxSessionIDLen))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// checkLen refuses a name or ID longer than max bytes, quoting only its
// start: a huge value is neither searched nor echoed back.
func checkLen(what, v string, max int) *Problem {
	if len(v) <= max {
		return nil
	}
	return newProblem(http.StatusBadRequest, "too-long", "Name or ID too long",
		fmt.Sprintf("%s is %d bytes long (at most %d): %q…", what, len(v), max, prefix(v, 32)))
}

// prefix is the first n bytes of s, cut back to a whole UTF-8 rune.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// checkName is checkLen, and refuses besides a name or ID holding a
// control character (NUL, a line break, DEL): the catalog's lookup folds
// names to letters and digits, so "calculator\u0000" was taken for
// "calculator" and the call ran, and an ID would carry it into traces and
// logs.
func checkName(what, v string, max int) *Problem {
	if p := checkLen(what, v, max); p != nil {
		return p
	}
	for i, r := range v {
		if unicode.IsControl(r) {
			return newProblem(http.StatusBadRequest, "bad-name", "Control character in a name",
				fmt.Sprintf("%s holds the control character %U at byte %d (%q); names and IDs are printable text", what, r, i, prefix(v, 64)))
		}
	}
	return nil
}

// checkCall bounds the names and session of a call before the engine
// looks them up (or computes suggestions for them).
func checkCall(tool, api, session string) error {
	if p := checkName(`"tool"`, tool, MaxNameLen); p != nil {
		return p
	}
	if p := checkName(`"api"`, api, MaxNameLen); p != nil {
		return p
	}
	if p := checkName("session ID", session, MaxSessionIDLen); p != nil {
		return p
	}
	return nil
}

// limitMCPNames refuses an MCP tools/call whose tool name is over
// MaxNameLen, or holds a control character (checkName), before the SDK looks it up (its "unknown tool" error quotes
// the whole name). The body is already read (readBody); a body that is not
// one JSON-RPC request is left to the SDK to answer.
func limitMCPNames(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		var rest io.Reader = bytes.NewReader(body)
		if err != nil { // over the size limit: the SDK answers it
			rest = io.MultiReader(rest, errReader{err})
		}
		r.Body = io.NopCloser(rest)
		var call struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if err == nil && json.Unmarshal(body, &call) == nil && call.Method == "tools/call" {
			if p := checkName("tool name", call.Params.Name, MaxNameLen); p != nil {
				writeProblem(w, p)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
