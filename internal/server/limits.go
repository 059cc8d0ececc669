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
	"time"
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
	// maxHeaderBytes is the total header size answered with a 431
	// problem; net/http's own MaxHeaderBytes (1 MiB) stays the hard limit.
	maxHeaderBytes = 64 << 10
)

// NewHTTPServer is the http.Server for a handler: headers must arrive
// within readTimeout (0 means DefaultReadTimeout), idle keep-alive
// connections are closed, and connections accepted by LimitListener learn
// when a request is being handled (ConnContext), so that the cap never
// evicts a connection whose call is running. Body deadlines are set per
// request by the handler (Options.ReadTimeout), not with ReadTimeout: a
// whole-connection read deadline would cancel the context of a call that
// outlives it (a slow upstream, an MCP stream).
func NewHTTPServer(h http.Handler, readTimeout time.Duration) *http.Server {
	if readTimeout <= 0 {
		readTimeout = DefaultReadTimeout
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readTimeout,
		IdleTimeout:       2 * time.Minute,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if lc, ok := c.(*limitedConn); ok {
				return context.WithValue(ctx, connKey{}, lc)
			}
			return ctx
		},
	}
}

type connKey struct{}

// LimitListener caps the connections open at once at max (0 means
// DefaultMaxConns). When a new connection arrives at the cap, the
// connection that has waited longest without a request being handled
// (one still sending its header or body, or idle between requests) is
// closed to make room: a flood of slow clients evicts itself rather than
// locking others out. Only when every connection is running a call is the
// newcomer closed at once.
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
	tick  uint64 // orders connections by when they last stopped working
}

// limitedConn is one accepted connection. since is the tick at which it
// was accepted or its last call ended; busy counts calls being handled.
type limitedConn struct {
	net.Conn
	l     *connLimit
	since uint64
	busy  int
	once  sync.Once
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
			for lc := range l.conns {
				if lc.busy == 0 && (victim == nil || lc.since < victim.since) {
					victim = lc
				}
			}
			if victim == nil {
				l.mu.Unlock()
				_ = c.Close() // every connection is running a call
				continue
			}
			delete(l.conns, victim)
		}
		l.tick++
		lc := &limitedConn{Conn: c, l: l, since: l.tick}
		l.conns[lc] = struct{}{}
		l.mu.Unlock()
		if victim != nil {
			_ = victim.Conn.Close()
		}
		return lc, nil
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

// working marks the connection as running a call until done is called.
func (c *limitedConn) working() (done func()) {
	c.l.mu.Lock()
	c.busy++
	c.l.mu.Unlock()
	return func() {
		c.l.mu.Lock()
		c.busy--
		c.l.tick++
		c.since = c.l.tick
		c.l.mu.Unlock()
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
// connection is closed after that answer. Once the body is in, the
// connection counts as working for LimitListener.
func readBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			body, err := io.ReadAll(r.Body)
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
		if lc, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
			defer lc.working()()
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

// checkCall bounds the names and session of a call before the engine
// looks them up (or computes suggestions for them).
func checkCall(tool, api, session string) error {
	if p := checkLen(`"tool"`, tool, MaxNameLen); p != nil {
		return p
	}
	if p := checkLen(`"api"`, api, MaxNameLen); p != nil {
		return p
	}
	if p := checkLen("session ID", session, MaxSessionIDLen); p != nil {
		return p
	}
	return nil
}

// limitMCPNames refuses an MCP tools/call whose tool name is over
// MaxNameLen before the SDK looks it up (its "unknown tool" error quotes
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
			if p := checkLen("tool name", call.Params.Name, MaxNameLen); p != nil {
				writeProblem(w, p)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
