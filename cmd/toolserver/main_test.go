package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/stretchr/testify/require"
)

func TestListFlags(t *testing.T) {
	const tb, pet = "../../toolset/testdata/toolbench", "../../toolset/testdata/openapi/petstore.yaml"
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string
		err  string
	}{
		{"summary", []string{"-list", "-no-builtin", "-catalog", tb, "-catalog", pet}, 0, "Catalog: 4 tools, 11 APIs", ""},
		{"json", []string{"-list", "-json", "-no-builtin", "-catalog", tb}, 0, `"standardized_name": "fare_finder"`, ""},
		{"bad path", []string{"-list", "-catalog", "nope.json"}, 1, "", "nope.json"},
		{"bad flag", []string{"-lst"}, 2, "", "flag provided but not defined"},
		{"bad mode", []string{"-mode", "offline"}, 2, "", "unknown mode"},
		{"record needs a key", []string{"-mode", "record", "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY"}, 2, "", "UNDERSTUDY_TEST_NO_SUCH_KEY"},
		{"bad limit", []string{"-limit", "x"}, 2, "", "-limit"},
		{"bad now", []string{"-now", "yesterday"}, 2, "", "-now"},
		{"deps json", []string{"-deps", "json"}, 0, `"pairs"`, ""},
		{"deps dot", []string{"-deps", "dot"}, 0, "digraph deps {", ""},
		{"deps bad", []string{"-deps", "svg"}, 2, "", "json or dot"},
		{"import needs cache", []string{"-import-stabletoolbench", "x"}, 2, "", "-cache"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, tc.code, run(tc.args, &stdout, &stderr), stderr.String())
			require.Contains(t, stdout.String(), tc.out)
			require.Contains(t, stderr.String(), tc.err)
		})
	}
	var stdout bytes.Buffer
	require.Equal(t, 0, run([]string{"-list", "-json", "-no-builtin", "-catalog", pet}, &stdout, &bytes.Buffer{}))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &doc))
	require.EqualValues(t, 6, doc["apis"])
}

// TestServe runs the command on a real loopback port, calls it, and stops it
// the way a signal would.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan string, 1)
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		done <- runWith([]string{"-addr", "127.0.0.1:0", "-now", "2025-06-02T09:00:00Z"}, io.Discard, &stderr,
			flags{ctx: ctx, ready: func(a string) { addrc <- a }})
	}()
	var addr string
	select {
	case addr = <-addrc:
	case code := <-done:
		t.Fatalf("exited with %d: %s", code, stderr.String())
	}
	resp, err := http.Post("http://"+addr+"/v1/call", "application/json",
		strings.NewReader(`{"tool":"calculator","api":"calculate","arguments":{"expression":"2*(3+4)"}}`))
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, string(body))
	require.Contains(t, string(body), "14")
	cancel()
	require.Equal(t, 0, <-done, stderr.String())
}

// TestStdio speaks MCP to the command over its standard input and output.
func TestStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- runWith([]string{"-stdio"}, outW, io.Discard, flags{ctx: ctx, stdin: inR})
		outW.Close()
	}()
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "calculate_for_calculator", Arguments: map[string]any{"expression": "6*7"}})
	require.NoError(t, err)
	require.False(t, res.IsError)
	require.Contains(t, res.Content[0].(*mcp.TextContent).Text, "42")
	require.NoError(t, cs.Close())
	cancel()
	require.Equal(t, 0, <-done)
}

// TestMain lets the test binary stand in for the command, so that tests can
// run it as a real subprocess with real standard input and output.
func TestMain(m *testing.M) {
	if os.Getenv("UNDERSTUDY_TOOLSERVER_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestStdioSubprocess pipes a whole session into `toolserver -stdio` and
// closes its input at once, as `printf ... | toolserver -stdio` does: bad
// lines are answered with JSON-RPC errors, every request is answered, and
// the process exits 0.
func TestStdioSubprocess(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	const (
		initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		call       = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"calculate_for_calculator","arguments":{"expression":"6*7"}}}`
	)
	input := strings.Join([]string{`{"jsonrpc":"1.0","id":0,"method":"ping"}`, initialize, "garbage", "[]", "null", call}, "\n") + "\n"
	cmd := exec.Command(os.Args[0], "-stdio")
	cmd.Env = append(os.Environ(), "UNDERSTUDY_TOOLSERVER_MAIN=1")
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), stderr.String())

	var results, errs []string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var msg struct {
			ID     json.RawMessage
			Result json.RawMessage
			Error  *struct{ Code int }
		}
		require.NoError(t, json.Unmarshal([]byte(line), &msg), line)
		if msg.Error != nil {
			errs = append(errs, string(msg.ID)+":"+strconv.Itoa(msg.Error.Code))
			continue
		}
		results = append(results, string(msg.ID))
		if string(msg.ID) == "2" {
			require.Contains(t, string(msg.Result), "42")
		}
	}
	require.ElementsMatch(t, []string{"1", "2"}, results)
	require.Equal(t, []string{"0:-32600", "null:-32700", "null:-32600", "null:-32600"}, errs)
}
