package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
)

// hardened serves the full stack the way cmd/toolserver does: the
// http.Server of NewHTTPServer on a LimitListener, on real loopback.
func hardened(t *testing.T, opts Options, maxConns int) (string, *connLimit) {
	t.Helper()
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	s, err := New(st.Engine, opts)
	require.NoError(t, err)
	return serveLimited(t, s, opts.ReadTimeout, maxConns)
}

func serveLimited(t *testing.T, h http.Handler, readTimeout time.Duration, maxConns int) (string, *connLimit) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	lim := LimitListener(ln, maxConns).(*connLimit)
	srv := NewHTTPServer(h, readTimeout)
	go func() { _ = srv.Serve(lim) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String(), lim
}

// rawExchange writes a request by hand, optionally half-closes, and reads
// the answer, waiting at most a few seconds (the server's deadlines here
// are far shorter).
func rawExchange(t *testing.T, addr, raw string, halfClose bool) (*http.Response, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(5*time.Second)))
	_, err = io.WriteString(c, raw)
	require.NoError(t, err)
	if halfClose {
		require.NoError(t, c.(*net.TCPConn).CloseWrite())
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err, "the server must answer, not hang")
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// TestIncompleteBodyIsAnswered: a body shorter than its Content-Length (or
// a chunked body never finished) is answered with a 400 problem on every
// transport, at once when the client stops sending and after the read
// deadline when it just stops; before, the request hung for ever.
func TestIncompleteBodyIsAnswered(t *testing.T) {
	addr, _ := hardened(t, Options{ReadTimeout: 200 * time.Millisecond}, 16)
	post := func(path, extra, framing, body string) string {
		return "POST " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\n" + extra + framing + "\r\n" + body
	}
	for _, tc := range []struct {
		name, raw string
		halfClose bool
		want      string
	}{
		{"native, client stops sending", post("/v1/call", "", "Content-Length: 100\r\n", `{"api":"calculate_for_calculator"}`), true, "the body ended early: read 34 bytes of 100 bytes"},
		{"native, client waits", post("/v1/call", "", "Content-Length: 100\r\n", `{"api":"calculate_for_calculator"}`), false, "the body did not arrive in time: read 34 bytes of 100 bytes"},
		{"virtual, client waits", post("/virtual", "", "Content-Length: 1000\r\n", `{"tool_name":`), false, "did not arrive in time"},
		{"rapidapi, client stops sending", post("/rapidapi", "", "Content-Length: 1000\r\n", `{`), true, "ended early"},
		{"wire, client waits", post("/run", "X-RapidAPI-Host: python-interpreter.understudy.test\r\n", "Content-Length: 50\r\n", `{"code":`), false, "did not arrive in time"},
		{"mcp, client waits", post("/mcp", "Accept: application/json, text/event-stream\r\n", "Content-Length: 500\r\n", `{"jsonrpc":"2.0",`), false, "did not arrive in time"},
		{"chunked, never finished", post("/v1/call", "", "Transfer-Encoding: chunked\r\n", "5\r\n{\"api"), false, "did not arrive in time: read 5 bytes of its end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := rawExchange(t, addr, tc.raw, tc.halfClose)
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
			require.Equal(t, "application/problem+json", resp.Header.Get("Content-Type"))
			require.Contains(t, body, "/problems/incomplete-body")
			require.Contains(t, body, tc.want)
			require.True(t, resp.Close, "the connection's framing is lost: it is closed")
		})
	}
}

// TestRefusalsDoNotWaitForTheBody: a request refused for its Host, its
// Origin or its declared size, whose body never comes, is answered at once
// and its connection closed by the server, on real loopback sockets; so
// is an incomplete body's 400, while the client keeps its end open. The
// read deadline (long here) is not what ends them: before, the refusal
// waited for the body, without a deadline, and the 400's connection stayed
// open as long as the client's.
func TestRefusalsDoNotWaitForTheBody(t *testing.T) {
	addr, _ := hardened(t, Options{ReadTimeout: time.Minute, MaxBody: 1000}, 16)
	shortAddr, _ := hardened(t, Options{ReadTimeout: 300 * time.Millisecond}, 16)
	head := func(path, host, extra string, length int) string {
		return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n%sContent-Length: %d\r\n\r\n", path, host, extra, length)
	}
	for _, tc := range []struct {
		name, addr, raw string
		status          int
		want            string
	}{
		{"foreign Host", addr, head("/v1/call", "evil.example", "", 100), 403, "/problems/foreign-host"},
		{"foreign Host on mcp", addr, head("/mcp", "evil.example", "Accept: application/json, text/event-stream\r\n", 100), 403, "/problems/foreign-host"},
		{"cross origin", addr, head("/v1/call", addr, "Origin: https://evil.example\r\n", 100), 403, "/problems/cross-origin"},
		{"cross origin, expecting 100-continue", addr, head("/virtual", addr, "Origin: https://evil.example\r\nExpect: 100-continue\r\n", 100), 403, "/problems/cross-origin"},
		{"declared too large", addr, head("/v1/call", addr, "", 1<<30), 413, "/problems/body-too-large"},
		{"declared too large on the ToolBench wire", addr, head("/virtual", addr, "", 1<<30), 200, "larger than"},
		{"headers too large", addr, head("/v1/call", addr, "X-Pad: "+strings.Repeat("x", 70<<10)+"\r\n", 100), 431, "/problems/headers-too-large"},
		{"incomplete body, client keeps its end open", shortAddr, head("/v1/call", shortAddr, "", 100) + `{"api":`, 400, "/problems/incomplete-body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", tc.addr)
			require.NoError(t, err)
			defer c.Close()
			start := time.Now()
			require.NoError(t, c.SetDeadline(start.Add(10*time.Second)))
			_, err = io.WriteString(c, tc.raw)
			require.NoError(t, err)
			br := bufio.NewReader(c)
			resp, err := http.ReadResponse(br, nil)
			require.NoError(t, err, "answered before the body came")
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, tc.status, resp.StatusCode, string(b))
			require.Contains(t, string(b), tc.want)
			require.True(t, resp.Close, "Connection: close")
			// The server closes its end: the next read sees EOF, long
			// before the client's own deadline.
			n, err := br.Read(make([]byte, 1))
			require.Zero(t, n)
			require.ErrorIs(t, err, io.EOF, "the server closed the connection")
			require.Less(t, time.Since(start), 5*time.Second)
		})
	}
}

// TestSlowClientsDoNotLockOthersOut floods the server with more slow-body
// connections than its cap (each sends its header and part of its body,
// then nothing), then requires every health check to be answered and the
// open connections never to exceed the cap. The read deadline is long, so
// the cap's eviction, not the deadline, is what makes room.
func TestSlowClientsDoNotLockOthersOut(t *testing.T) {
	const maxConns, flood, checks = 16, 120, 20
	addr, lim := hardened(t, Options{ReadTimeout: time.Minute}, maxConns)
	var slow []net.Conn
	t.Cleanup(func() {
		for _, c := range slow {
			_ = c.Close()
		}
	})
	for i := range flood {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		slow = append(slow, c)
		_, _ = fmt.Fprintf(c, "POST /v1/call HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"api\":\"slow%d", addr, i)
	}
	client := &http.Client{Timeout: 3 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	ok := 0
	for range checks {
		resp, err := client.Get("http://" + addr + "/healthz")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				ok++
			}
		} else {
			t.Logf("health check: %v", err)
		}
		require.LessOrEqual(t, lim.open(), maxConns)
	}
	require.Equal(t, checks, ok, "health checks answered under a flood of %d slow clients", flood)

	// The evicted slow clients were closed, not left waiting: at most the
	// cap can still be open on the server's side.
	closed := 0
	for _, c := range slow {
		_ = c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == io.EOF || (err != nil && !isTimeout(err)) {
			closed++
		}
	}
	require.GreaterOrEqual(t, closed, flood-maxConns)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// TestLimitListenerSparesRunningCalls: at the cap a newcomer evicts the
// connection that has waited longest without a running call, never one
// whose call is running; when every connection runs a call the newcomer is
// closed at once.
func TestLimitListenerSparesRunningCalls(t *testing.T) {
	release := make(chan struct{})
	var started sync.WaitGroup
	h := bodyDeadline(time.Minute)(readBody(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/block" {
			started.Done()
			<-release
		}
		_, _ = io.WriteString(w, "done "+r.URL.Path)
	})))
	addr, lim := serveLimited(t, h, time.Minute, 2)

	type answer struct {
		body string
		err  error
	}
	get := func(c net.Conn, path string) <-chan answer {
		out := make(chan answer, 1)
		go func() {
			_, _ = fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr)
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				out <- answer{err: err}
				return
			}
			b, err := io.ReadAll(resp.Body)
			out <- answer{string(b), err}
		}()
		return out
	}
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		require.NoError(t, c.SetDeadline(time.Now().Add(5*time.Second)))
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	started.Add(2)
	a, b := dial(), dial()
	ansA, ansB := get(a, "/block"), get(b, "/block")
	bounded.Wait(t, &started, "both blocking calls to start")
	require.Equal(t, 2, lim.open())

	// Both connections run a call: a third is closed unanswered.
	c := dial()
	ansC := get(c, "/now")
	require.Error(t, bounded.Recv(t, ansC, "the third connection's end").err)
	require.Equal(t, 2, lim.open())

	// Both calls finish; the connections stay open, idle.
	close(release)
	require.Equal(t, answer{body: "done /block"}, bounded.Recv(t, ansA, "the first call's answer"))
	require.Equal(t, answer{body: "done /block"}, bounded.Recv(t, ansB, "the second call's answer"))

	// A newcomer now evicts the idle connection that finished first... or
	// second: either is idle, and it is answered.
	d := dial()
	require.Equal(t, answer{body: "done /later"}, bounded.Recv(t, get(d, "/later"), "the newcomer's answer"))
	require.LessOrEqual(t, lim.open(), 2)
}

// TestSiteGuard checks Host and Origin on a real loopback server with one
// allowed origin.
func TestSiteGuard(t *testing.T) {
	addr, _ := hardened(t, Options{AllowOrigins: []string{"http://localhost:3000"}}, 16)
	_, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	for _, tc := range []struct {
		name, method, path, host, origin, site string
		status                                 int
	}{
		{"plain client", "GET", "/healthz", "", "", "", 200},
		{"localhost name", "GET", "/healthz", "localhost:" + port, "", "", 200},
		{"ipv6 loopback name", "GET", "/healthz", "[::1]:" + port, "", "", 200},
		{"name under localhost", "GET", "/healthz", "ui.localhost:" + port, "", "", 403},
		{"rebound name", "GET", "/healthz", "evil.example:" + port, "", "", 403},
		{"localhost as a prefix only", "GET", "/healthz", "localhost.evil.example", "", "", 403},
		{"loopback address, other form", "GET", "/healthz", "127.1.2.3:" + port, "", "", 200},
		{"foreign name without a port", "GET", "/healthz", "ui.example", "", "", 403},
		{"same origin", "POST", "/v1/call", "", "http://" + addr, "same-origin", 200},
		{"same origin, older browser", "POST", "/v1/call", "", "http://" + addr, "", 200},
		{"same origin behind a proxy that rewrites Host", "POST", "/v1/call", "", "https://tools.example", "same-origin", 200},
		{"allowed origin", "POST", "/v1/call", "", "http://localhost:3000", "same-site", 200},
		{"allowed origin, other case", "POST", "/v1/call", "", "HTTP://LOCALHOST:3000", "", 200},
		{"other port of the allowed host", "POST", "/v1/call", "", "http://localhost:3001", "same-site", 403},
		{"foreign origin", "POST", "/v1/call", "", "https://evil.example", "cross-site", 403},
		{"foreign origin on a GET", "GET", "/healthz", "", "https://evil.example", "cross-site", 403},
		{"opaque origin", "POST", "/virtual", "", "null", "cross-site", 403},
		{"cross-site without origin", "POST", "/v1/call", "", "", "cross-site", 403},
		{"same-site without origin", "POST", "/v1/call", "", "", "same-site", 403},
		{"typed into the address bar", "GET", "/healthz", "", "", "none", 200},
		{"foreign origin on mcp", "POST", "/mcp", "", "https://evil.example", "", 403},
		{"rebound name on mcp, answered as by the others", "POST", "/mcp", "evil.example:" + port, "", "", 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := ""
			if tc.method == "POST" {
				body = `{"api":"calculate_for_calculator","arguments":{"expression":"1+1"}}`
			}
			req, err := http.NewRequest(tc.method, "http://"+addr+tc.path, strings.NewReader(body))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "text/plain")
			if tc.host != "" {
				req.Host = tc.host
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.site != "" {
				req.Header.Set("Sec-Fetch-Site", tc.site)
			}
			resp, err := bounded.Client.Do(req)
			require.NoError(t, err)
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, tc.status, resp.StatusCode, string(b))
			if tc.status == 403 {
				require.Equal(t, "application/problem+json", resp.Header.Get("Content-Type"))
			}
		})
	}
}

func TestNewSiteGuardRefusesBadOrigins(t *testing.T) {
	for _, tc := range []struct {
		origin, err string
	}{
		{"localhost:3000", "scheme"},
		{"ftp://example.com", "scheme"},
		{"http://", "no host"},
		{"http://example.com/app", "only scheme://host"},
		{"http://user@example.com", "only scheme://host"},
		{"http://example.com?x=1", "only scheme://host"},
		{"http://[::1", "missing ']'"},
	} {
		_, err := newSiteGuard([]string{tc.origin})
		require.ErrorContains(t, err, tc.err, tc.origin)
	}
	g, err := newSiteGuard([]string{"https://UI.Example:8443/", "http://localhost:3000"})
	require.NoError(t, err)
	require.Equal(t, map[string]bool{"https://ui.example:8443": true, "http://localhost:3000": true}, g.origins)
}

// FuzzParseOrigin: any Origin header or -allow-origin value parses to a
// canonical http(s) origin that parses to itself again, or is an error,
// never a panic; the guard's check never panics on it either.
func FuzzParseOrigin(f *testing.F) {
	for _, s := range []string{"http://localhost:3000", "https://UI.example:8443/", "null", "", "http://[::1]:80", "ftp://x", "http://a/b", "http://%zz", "HTTP://X", "http://user@x"} {
		f.Add(s, "127.0.0.1:8080")
	}
	g, err := newSiteGuard([]string{"http://localhost:3000"})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, origin, host string) {
		if o, err := parseOrigin(origin); err == nil {
			require.Contains(t, []string{"http", "https"}, o.Scheme)
			require.NotEmpty(t, o.Hostname())
			again, err := parseOrigin(o.String())
			require.NoError(t, err, o.String())
			require.Equal(t, o.String(), again.String())
		}
		r, err := http.NewRequestWithContext(context.Background(), "POST", "http://127.0.0.1/", nil)
		require.NoError(t, err)
		r.Host = host
		r.Header.Set("Origin", origin)
		if p := g.check(r); p == nil && origin != "" {
			o, err := parseOrigin(origin)
			require.NoError(t, err, "only a well-formed origin passes")
			require.True(t, g.origins[o.String()] || strings.EqualFold(o.Host, host))
		}
	})
}

// FuzzPrefix: the quoted start of a too-long name is at most n bytes and
// never splits a UTF-8 rune of a valid string.
func FuzzPrefix(f *testing.F) {
	for _, s := range []string{"", "abc", "ééééé", strings.Repeat("界", 20)} {
		f.Add(s, 7)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1<<10 {
			return
		}
		p := prefix(s, n)
		require.LessOrEqual(t, len(p), max(n, 0))
		require.True(t, strings.HasPrefix(s, p))
		if len(s) <= n {
			require.Equal(t, s, p)
		}
	})
}

// TestIdleKeepAliveBoundedSeparately: a keep-alive connection idle after
// its answer is closed after the idle timeout, its own bound and far
// shorter than net/http's default of the read timeout (then 2 minutes),
// and no longer counts against the cap; a connection still sending its
// request is bounded by the read timeout instead.
func TestIdleKeepAliveBoundedSeparately(t *testing.T) {
	srv := NewHTTPServer(http.NotFoundHandler(), 0)
	require.Equal(t, DefaultIdleTimeout, srv.IdleTimeout)
	require.Equal(t, DefaultReadTimeout, srv.ReadHeaderTimeout)
	require.Less(t, DefaultIdleTimeout, 2*time.Minute)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	lim := LimitListener(ln, 4).(*connLimit)
	srv = NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok") }), time.Hour)
	srv.IdleTimeout = 100 * time.Millisecond
	go func() { _ = srv.Serve(lim) }()
	t.Cleanup(func() { _ = srv.Close() })

	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(bounded.Timeout)))
	_, err = fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", ln.Addr())
	require.NoError(t, err)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.False(t, resp.Close, "kept alive")

	// Idle now: the server closes it (the hour-long read timeout would
	// not), and the cap no longer counts it.
	_, err = br.ReadByte()
	require.ErrorIs(t, err, io.EOF, "the server closes an idle keep-alive connection")
	require.Eventually(t, func() bool { return lim.open() == 0 }, bounded.Timeout, 10*time.Millisecond)
}
