package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCI runs the testdata scripts end to end with the toolserver binary
// built from this tree: the Python agent test that starts the binary
// itself, and docs/ci.md's "Use in CI" steps (ci.sh) running that same
// test as the team's tests.
func TestCI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs scripts")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed; the CI scripts need it")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH; the CI scripts need a built binary")
	}
	bin := filepath.Join(t.TempDir(), "toolserver")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, string(out))
	script := filepath.Join("testdata", "flight_chain.py")

	for _, tc := range []struct {
		name string
		cmd  *exec.Cmd
		env  []string
		out  []string
	}{
		{"python starts the binary", exec.Command(python, script, bin), nil,
			[]string{"flight chain: 2 expectations checked, session reset\n"}},
		{"ci.sh runs the team's tests", exec.Command("sh", filepath.Join("testdata", "ci.sh"), python, script), nil,
			[]string{"toolserver serving at http://127.0.0.1:", "flight chain: 2 expectations checked, session reset\n"}},
		// The shipped example calls what the built-in recordings hold, so
		// it passes offline in replay mode too.
		{"ci.sh in replay mode", exec.Command("sh", filepath.Join("testdata", "ci.sh"), python, script), []string{"TOOLSERVER_ARGS=-mode replay"},
			[]string{"toolserver serving at http://127.0.0.1:", "flight chain: 2 expectations checked, session reset\n"}},
		{"ci.sh fails with the tests", exec.Command("sh", filepath.Join("testdata", "ci.sh"), "false"), nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			tc.cmd.Stdout, tc.cmd.Stderr = &stdout, &stderr
			tc.cmd.Env = append(append(tc.cmd.Environ(), "TOOLSERVER="+bin, "UNDERSTUDY_URL="), tc.env...)
			tc.cmd.WaitDelay = 10 * time.Second
			err := tc.cmd.Run()
			if tc.out == nil {
				var ee *exec.ExitError
				require.ErrorAs(t, err, &ee, "stdout: %s\nstderr: %s", &stdout, &stderr)
				require.Equal(t, 1, ee.ExitCode())
				return
			}
			require.NoError(t, err, "stdout: %s\nstderr: %s", &stdout, &stderr)
			for _, want := range tc.out {
				require.Contains(t, stdout.String(), want)
			}
		})
	}
}
