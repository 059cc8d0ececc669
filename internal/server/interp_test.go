package server_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
)

// TestHostilePythonKeepsServing sends the hardening issue's interpreter
// programs over real HTTP: json.decode of '[' * 1500000 used to end the
// whole process with a Go stack overflow, and str() of deep lists ran far
// past the 3 s limit. Each must come back as the program's own error, and
// the server must answer a normal call afterwards, also while sixteen
// memory-hungry runs arrive at once (each served or refused as busy).
func TestHostilePythonKeepsServing(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	call := func(code string) (int, []byte) {
		body, err := json.Marshal(map[string]any{"tool": "python_interpreter", "api": "run_python", "arguments": map[string]any{"code": code}})
		require.NoError(t, err)
		status, _, out := do(t, "POST", ts.URL+"/v1/call", "application/json", string(body), nil)
		return status, out
	}
	for _, code := range []string{
		"s='['*1500000+']'*1500000\nlen(json.decode(s))",
		"l=[]\nfor i in range(60000):\n    l=[l]\nlen(str(l))",
		"l=[]\nfor i in range(300000):\n    l=[l]\nlen(str(l))",
	} {
		status, out := call(code)
		require.Equal(t, 200, status, string(out))
		require.Contains(t, string(out), `"error_type":"LimitExceeded"`)
		require.Contains(t, string(out), "nesting limit")

		status, out = call("sum([1, 2, 3])")
		require.Equal(t, 200, status, string(out))
		require.Contains(t, string(out), `"result":6`)
	}

	var wg sync.WaitGroup
	statuses := make([]int, 16)
	for i := range statuses {
		wg.Go(func() {
			var out []byte
			statuses[i], out = call("s = 'x' * 16000000\nl = [s + str(i) for i in range(15)]\nlen(l)")
			if statuses[i] == 429 {
				require.True(t, strings.Contains(string(out), "/problems/rate-limited"), string(out))
			}
		})
	}
	bounded.Wait(t, &wg, "16 programs")
	for _, s := range statuses {
		require.Contains(t, []int{200, 429}, s)
	}
	status, out := call("sum([1, 2, 3])")
	require.Equal(t, 200, status, string(out))
	require.Contains(t, string(out), `"result":6`)
}
