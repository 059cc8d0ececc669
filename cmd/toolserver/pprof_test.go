package main

import (
	"bytes"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// TestPprofFlag: -pprof serves the profiles on a listener of its own, and
// the tool server's address does not serve them.
func TestPprofFlag(t *testing.T) {
	p := startProcess(t, "-addr", "127.0.0.1:0", "-pprof", "127.0.0.1:0")
	line, err := p.stdout.ReadString('\n')
	require.NoError(t, err, p.stderr.String())
	u := strings.TrimSuffix(line, "\n")
	// The program writes the profiles line before the URL, but os/exec
	// copies stderr on a goroutine of its own: wait, bounded, for the copy.
	re := regexp.MustCompile(`profiles at (http://127\.0\.0\.1:[0-9]+/debug/pprof/)`)
	var m []string
	require.Eventually(t, func() bool {
		m = re.FindStringSubmatch(p.stderr.String())
		return len(m) == 2
	}, 30*time.Second, 10*time.Millisecond, "no profiles line on stderr")

	get := func(url string) (int, string) {
		resp, err := bounded.Client.Get(url)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(b)
	}
	code, body := get(m[1] + "goroutine?debug=1")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, "goroutine profile")
	code, _ = get(u + "/debug/pprof/")
	require.Equal(t, http.StatusNotFound, code, "the tool server's own address serves no profiles")
	require.Equal(t, 0, p.stop(t), p.stderr.String())
}

// TestPprofFlagBusyAddress: an address that cannot be listened on is an
// error naming the flag.
func TestPprofFlagBusyAddress(t *testing.T) {
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runWith([]string{"-addr", "127.0.0.1:0", "-pprof", "127.0.0.1:-1"}, &stdout, &stderr, flags{})
	}()
	select {
	case code := <-done:
		require.Equal(t, 1, code)
		require.Contains(t, stderr.String(), "-pprof")
	case <-time.After(30 * time.Second):
		t.Fatal("a bad -pprof address did not stop the server from starting")
	}
}
