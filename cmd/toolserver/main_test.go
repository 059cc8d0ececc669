package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
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
