package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// startServe runs the command on a loopback port with extra flags and
// returns its address; the server stops when the test ends.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		done <- runWith(append([]string{"-addr", "127.0.0.1:0"}, args...), io.Discard, &stderr,
			flags{ctx: ctx, ready: func(a string) { addrc <- a }})
	}()
	t.Cleanup(func() {
		cancel()
		require.Equal(t, 0, bounded.Recv(t, done, "the server to stop"), stderr.String())
	})
	select {
	case addr := <-addrc:
		return addr
	case code := <-done:
		done <- code
		t.Fatalf("exited with %d: %s", code, stderr.String())
		return ""
	case <-time.After(bounded.Timeout):
		t.Fatalf("not serving after %s: %s", bounded.Timeout, stderr.String())
		return ""
	}
}

// TestServeBoundsClients: -read-timeout answers a body that never comes,
// -allow-origin lets one browser origin in and keeps others out.
func TestServeBoundsClients(t *testing.T) {
	addr := startServe(t, "-read-timeout", "200ms", "-max-conns", "8", "-allow-origin", "http://localhost:3000")

	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(5*time.Second)))
	_, err = io.WriteString(c, "POST /v1/call HTTP/1.1\r\nHost: "+addr+"\r\nContent-Length: 64\r\n\r\n{\"api\":")
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err, "a short body is answered, not left hanging")
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)

	for _, tc := range []struct {
		origin string
		status int
	}{
		{"", 200},
		{"http://localhost:3000", 200},
		{"https://evil.example", 403},
	} {
		req, err := http.NewRequest("POST", "http://"+addr+"/v1/call", strings.NewReader(`{"api":"calculate_for_calculator","arguments":{"expression":"1+1"}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "text/plain")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := bounded.Client.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, tc.status, resp.StatusCode, tc.origin)
	}
}

func TestBadAllowOrigin(t *testing.T) {
	var stderr bytes.Buffer
	require.Equal(t, 2, run([]string{"-addr", "127.0.0.1:0", "-allow-origin", "localhost:3000"}, io.Discard, &stderr))
	require.Contains(t, stderr.String(), `invalid value "localhost:3000" for flag -allow-origin: scheme must be http or https`)
}
