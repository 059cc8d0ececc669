package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// toolserverProcess is the command running as a real subprocess (the test
// binary standing in for it, see TestMain).
type toolserverProcess struct {
	cmd    *exec.Cmd
	stdout *bufio.Reader
	stderr *syncBuffer
}

func startProcess(t *testing.T, args ...string) *toolserverProcess {
	t.Helper()
	if testing.Short() {
		t.Skip("spawns a process")
	}
	// Killed once the test has waited for it too long, so that no read
	// of its output and no Wait hangs.
	cmd := exec.CommandContext(bounded.Context(t), os.Args[0], args...)
	cmd.Env = append(os.Environ(), "UNDERSTUDY_TOOLSERVER_MAIN=1")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	p := &toolserverProcess{cmd: cmd, stdout: bufio.NewReader(out), stderr: &syncBuffer{}}
	cmd.Stderr = p.stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return p
}

// stop ends the process the way a CI runner does (SIGINT) and returns its
// exit code.
func (p *toolserverProcess) stop(t *testing.T) int {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(os.Interrupt))
	_, _ = io.Copy(io.Discard, p.stdout)
	err := p.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	require.NoError(t, err)
	return 0
}

// TestReadySignal starts `toolserver -addr 127.0.0.1:0` as a subprocess,
// as a Python or Node test suite would: the first stdout line is the URL,
// -ready-file holds the same URL, and the server answers at it at once.
func TestReadySignal(t *testing.T) {
	for _, tc := range []struct {
		name      string
		readyFile bool
	}{
		{"stdout only", false},
		{"stdout and ready file", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"-addr", "127.0.0.1:0"}
			ready := filepath.Join(t.TempDir(), "url")
			if tc.readyFile {
				args = append(args, "-ready-file", ready)
			}
			p := startProcess(t, args...)
			line, err := p.stdout.ReadString('\n')
			require.NoError(t, err, p.stderr.String())
			u := strings.TrimSuffix(line, "\n")
			require.Regexp(t, `^http://127\.0\.0\.1:[1-9][0-9]*$`, u)
			require.NotEqual(t, "http://127.0.0.1:0", u)
			if tc.readyFile {
				b, err := os.ReadFile(ready)
				require.NoError(t, err)
				require.Equal(t, u+"\n", string(b))
				matches, err := filepath.Glob(filepath.Join(filepath.Dir(ready), "*"))
				require.NoError(t, err)
				require.Equal(t, []string{ready}, matches, "no temporary file is left beside it")
			} else {
				_, err := os.Stat(ready)
				require.ErrorIs(t, err, os.ErrNotExist)
			}
			resp, err := bounded.Client.Get(u + "/healthz")
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode)
			require.Contains(t, string(body), `"status":"ok"`)
			require.Equal(t, 0, p.stop(t), p.stderr.String())
		})
	}
}

// TestReadyFileUnwritable: a -ready-file that cannot be written is an
// error naming it, and the server does not go on serving unannounced.
func TestReadyFileUnwritable(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "url")
	var stdout, stderr bytes.Buffer
	code := runWith([]string{"-addr", "127.0.0.1:0", "-ready-file", missing}, &stdout, &stderr, flags{})
	require.Equal(t, 1, code)
	require.Contains(t, stderr.String(), "-ready-file "+missing)
	require.Empty(t, stdout.String(), "no URL is announced for a server that is not serving")
}
