package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
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
