package evaltasks

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/dataset"
)

func TestReadResults(t *testing.T) {
	data := `{"key":"T1/a","task":1,"outcome":"call"}
{"key":"T1/b","task":1,"outcome":"no_call"}
{"key":"T1/a","task":1,"outcome":"no_call"}
{"key":"T1/c","ta`
	got, err := ReadResults(strings.NewReader(data), "r.jsonl")
	require.NoError(t, err)
	require.Len(t, got, 2, "the cut-short last line is dropped")
	require.Equal(t, "no_call", got["T1/a"].Outcome, "a later line replaces an earlier one")

	_, err = ReadResults(strings.NewReader("{bad\n"), "r.jsonl")
	var le *dataset.LineError
	require.ErrorAs(t, err, &le)
	require.Equal(t, 1, le.Line)
	_, err = ReadResults(strings.NewReader("{}\n"), "r.jsonl")
	require.ErrorAs(t, err, &le)
}

func FuzzReadResults(f *testing.F) {
	f.Add(`{"key":"T1/a","task":1}` + "\n")
	f.Add("\n\n{\"key\":\"x\"}")
	f.Add(`{"key":"T7/x","calls":[{"name":"a","status":200}]}` + "\n")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ReadResults(strings.NewReader(s), "f")
		if err == nil {
			for k, r := range got {
				require.Equal(t, k, r.Key)
			}
		}
	})
}
