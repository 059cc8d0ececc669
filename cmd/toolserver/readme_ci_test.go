package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// ciSteps reads the run: steps of docs/ci.md's GitHub Actions job (the
// block between <!-- ci-job:begin --> and <!-- ci-job:end -->), in order:
// "run: cmd" or "run: |" and its indented lines.
func ciSteps(t *testing.T, page string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(page, "<!-- ci-job:begin -->")
	require.True(t, ok, "docs/ci.md has no ci-job block")
	block, _, ok := strings.Cut(rest, "<!-- ci-job:end -->")
	require.True(t, ok)
	var steps []string
	lines := strings.Split(block, "\n")
	for i := 0; i < len(lines); i++ {
		trimmed := strings.TrimSpace(lines[i])
		cmd, ok := strings.CutPrefix(trimmed, "run: ")
		if !ok {
			continue
		}
		if cmd != "|" {
			steps = append(steps, cmd)
			continue
		}
		indent := -1
		var body []string
		for i+1 < len(lines) {
			next := lines[i+1]
			n := len(next) - len(strings.TrimLeft(next, " "))
			if strings.TrimSpace(next) == "" || (indent >= 0 && n < indent) || (indent < 0 && n <= strings.Index(lines[i], "run:")) {
				break
			}
			if indent < 0 {
				indent = n
			}
			body = append(body, next[indent:])
			i++
		}
		steps = append(steps, strings.Join(body, "\n"))
	}
	return steps
}

// TestREADMECIJob runs the CI job of docs/ci.md verbatim in this clone: each
// run: step in sh -e at the repository root, with RUNNER_TEMP and
// GITHUB_ENV as GitHub Actions sets them, the variables a step appends to
// GITHUB_ENV passed to the steps after it. The job builds the binary from
// the clone, serves the built-in recordings in replay mode and runs the
// shipped Python agent test against it.
func TestREADMECIJob(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the job's steps")
	}
	for _, tool := range []string{"go", "python3", "sh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed; the docs' CI job needs it", tool)
		}
	}
	page, err := os.ReadFile("../../docs/ci.md")
	require.NoError(t, err)
	steps := ciSteps(t, string(page))
	require.Len(t, steps, 4, "build, start, test, stop: %q", steps)
	require.Contains(t, steps[1], "-mode replay", "the job replays the recordings, offline")

	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	runnerTemp := t.TempDir()
	githubEnv := filepath.Join(runnerTemp, "github_env")
	require.NoError(t, os.WriteFile(githubEnv, nil, 0o644))
	pidFile := filepath.Join(runnerTemp, "toolserver.pid")
	t.Cleanup(func() {
		// The job's last step stops the server; should a step before it
		// fail, stop it here.
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	env := append(os.Environ(), "RUNNER_TEMP="+runnerTemp, "GITHUB_ENV="+githubEnv, "UNDERSTUDY_URL=")
	for i, step := range steps {
		cmd := exec.Command("sh", "-e", "-c", step)
		cmd.Dir = root
		cmd.Env = append(env, readEnvFile(t, githubEnv)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.WaitDelay = 10 * time.Second
		require.NoError(t, cmd.Run(), "step %d %q\nstdout: %s\nstderr: %s", i+1, step, &stdout, &stderr)
		if strings.Contains(step, "flight_chain.py") {
			require.Contains(t, stdout.String(), "flight chain: 2 expectations checked, session reset")
		}
	}
	require.Contains(t, strings.Join(readEnvFile(t, githubEnv), "\n"), "UNDERSTUDY_URL=http://127.0.0.1:")
}

// readEnvFile reads the NAME=value lines a step appended to GITHUB_ENV.
func readEnvFile(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "=") {
			out = append(out, sc.Text())
		}
	}
	require.NoError(t, sc.Err())
	return out
}
