package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// headerBytesSeen is the header bytes the listener has counted over its
// open connections still reading one.
func (l *connLimit) headerBytesSeen() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for c := range l.conns {
		if c.state == connHeader {
			n += int(c.seen.Load())
		}
	}
	return n
}

// inUse is the memory the process holds: live heap and goroutine stacks,
// after a collection.
func inUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc + m.StackInuse
}

// TestHeaderFloodIsBounded opens hundreds of connections that send a
// header and never end it. Those over the 64 KiB limit are answered 431 at
// once, while the client still holds its end open; those under it hold at
// most a few KiB beyond what they sent. Before, net/http read up to 1 MiB
// of each header (about 3 MB a connection) and the 431 came only after.
func TestHeaderFloodIsBounded(t *testing.T) {
	const conns = 300
	addr, lim := hardened(t, Options{ReadTimeout: time.Minute}, 2*conns)
	start := "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nX-Pad: "

	t.Run("over the limit: 431 as the bytes arrive", func(t *testing.T) {
		over := []byte(start + strings.Repeat("x", maxHeaderBytes+1))
		answers := make(chan string, conns)
		for range conns {
			c, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			t.Cleanup(func() { _ = c.Close() })
			go func() {
				_ = c.SetDeadline(time.Now().Add(bounded.Timeout))
				if _, err := c.Write(over); err != nil {
					answers <- "write: " + err.Error()
					return
				}
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err != nil {
					answers <- "read: " + err.Error()
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				answers <- fmt.Sprintf("%d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
			}()
		}
		for range conns {
			a := bounded.Recv(t, answers, "the answer to an oversized header")
			require.Contains(t, a, "431 application/problem+json")
			require.Contains(t, a, "/problems/headers-too-large")
		}
	})

	t.Run("under the limit: a few KiB beyond what was sent", func(t *testing.T) {
		const sent = 60 << 10
		under := []byte(start + strings.Repeat("x", sent-len(start)))
		before := inUse()
		for range conns {
			c, err := net.Dial("tcp", addr)
			require.NoError(t, err)
			t.Cleanup(func() { _ = c.Close() })
			_, err = c.Write(under)
			require.NoError(t, err)
		}
		bounded.Run(t, "the server to read every header byte sent", func() {
			for lim.headerBytesSeen() < conns*sent {
				time.Sleep(10 * time.Millisecond)
			}
		})
		per := (int64(inUse()) - int64(before)) / conns
		t.Logf("%d connections holding %d header bytes each: %d bytes a connection", conns, sent, per)
		require.Less(t, per, int64(sent+16<<10))
	})
}

// TestSlowlorisDropsNoProbe: while a flood of connections that send part
// of a header and then nothing keeps arriving, far over the cap, every
// well-formed request is answered. Before, a connection counted as busy
// only once its handler ran, so a complete request could be the oldest
// idle connection when the cap evicted (1 in 21–37 probes got no answer).
func TestSlowlorisDropsNoProbe(t *testing.T) {
	const maxConns, flooders, probes = 64, 1, 40
	addr, lim := hardened(t, Options{ReadTimeout: time.Minute}, maxConns)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var slow []net.Conn
	slowOne := func() {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return
		}
		_, _ = io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: "+addr+"\r\nX-Slow: ")
		mu.Lock()
		slow = append(slow, c)
		mu.Unlock()
	}
	for range 3 * maxConns { // over the cap before the first probe
		slowOne()
	}
	for range flooders {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				slowOne()
			}
		})
	}
	t.Cleanup(func() {
		close(stop)
		wg.Wait()
		for _, c := range slow {
			_ = c.Close()
		}
	})
	dropped := 0
	for i := range probes {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		_ = c.SetDeadline(time.Now().Add(bounded.Timeout))
		_, err = fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", addr)
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != http.StatusOK {
			dropped++
			t.Logf("probe %d: %v", i, err)
		} else {
			resp.Body.Close()
		}
		_ = c.Close()
		require.LessOrEqual(t, lim.open(), maxConns)
	}
	mu.Lock()
	n := len(slow)
	mu.Unlock()
	t.Logf("%d slow connections opened during %d probes", n, probes)
	require.Greater(t, n, 3*maxConns, "the flood went on during the probes")
	require.Zero(t, dropped, "probes with no answer")
}

// TestIdleKeepAlivesGoFirst: at the cap, a keep-alive connection between
// requests is evicted before a connection still sending its header, even
// one that came later.
func TestIdleKeepAlivesGoFirst(t *testing.T) {
	const maxConns = 4
	addr, lim := hardened(t, Options{ReadTimeout: time.Minute}, maxConns)
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		require.NoError(t, c.SetDeadline(time.Now().Add(bounded.Timeout)))
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	states := func() map[int]int {
		lim.mu.Lock()
		defer lim.mu.Unlock()
		out := map[int]int{}
		for c := range lim.conns {
			out[c.state]++
		}
		return out
	}
	waitFor := func(what string, ok func(map[int]int) bool) {
		bounded.Run(t, what, func() {
			for !ok(states()) {
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
	// Two slow headers first, then two keep-alive connections served once.
	var slow []net.Conn
	for range 2 {
		c := dial()
		_, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: "+addr+"\r\n")
		require.NoError(t, err)
		slow = append(slow, c)
	}
	waitFor("two headers under way", func(s map[int]int) bool { return s[connHeader] == 2 })
	var kept []net.Conn
	for range 2 {
		c := dial()
		_, err := fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		kept = append(kept, c)
	}
	waitFor("two idle keep-alives", func(s map[int]int) bool { return s[connIdle] == 2 })

	// Two newcomers, kept alive too, evict the two idle connections, not
	// the older slow ones.
	for range 2 {
		c := dial()
		_, err := fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		resp.Body.Close()
	}
	for _, c := range kept {
		_, err := c.Read(make([]byte, 1))
		require.ErrorIs(t, err, io.EOF, "the idle keep-alive was closed")
	}
	for _, c := range slow {
		_, err := io.WriteString(c, "\r\n")
		require.NoError(t, err)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		require.NoError(t, err, "the slow header was kept and is answered")
		require.Equal(t, http.StatusOK, resp.StatusCode)
		resp.Body.Close()
	}
}
