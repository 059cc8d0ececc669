package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzStdioFilter runs any input through the line filter: what reaches
// the SDK is only whole lines that CheckStdioLine accepts, none over the
// bound (but for a stand-in id), and every answer line is JSON; nothing
// panics or hangs.
func FuzzStdioFilter(f *testing.F) {
	for _, s := range []string{
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json\n[]\nnull\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
		"\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\r\n",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n",
	} {
		f.Add([]byte(s))
	}
	const max = 64
	f.Fuzz(func(t *testing.T, in []byte) {
		var answers bytes.Buffer
		ids := newIDTable()
		lf := &lineFilter{src: bufio.NewReaderSize(bytes.NewReader(in), 16), reply: &lineWriter{w: &answers, ids: ids}, ids: ids, max: max, closed: make(chan struct{})}
		passed, err := io.ReadAll(lf)
		require.NoError(t, err)
		inLines := bytes.Count(in, []byte("\n")) + 1
		n := 0
		if len(passed) > 0 {
			require.True(t, bytes.HasSuffix(passed, []byte("\n")))
			for _, line := range bytes.Split(bytes.TrimSuffix(passed, []byte("\n")), []byte("\n")) {
				n++
				// A stand-in id may have replaced the one written.
				require.LessOrEqual(t, len(line), max+len(aliasPrefix)+20)
				ok, _ := CheckStdioLine(line)
				require.True(t, ok, "%q", line)
			}
		}
		if answers.Len() > 0 {
			for _, line := range bytes.Split(bytes.TrimSuffix(answers.Bytes(), []byte("\n")), []byte("\n")) {
				n++
				require.True(t, json.Valid(line), "%q", line)
			}
		}
		require.LessOrEqual(t, n, inLines)
	})
}
