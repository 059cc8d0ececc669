package calibration

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReadRefusesWhatItCannotScore(t *testing.T) {
	ok := `{"id":"a","task":"T6","messages":[],"answers":{"concise":{"content":"x"},"thorough":{"tool_call":{"name":"f","arguments":{}}}}}`
	for _, tc := range []struct {
		name, in, err string
	}{
		{"not JSON", "{", "line 1"},
		{"no id", `{"task":"T1","answers":{}}`, "line 1: no id"},
		{"bad task", `{"id":"a","task":"T9","answers":{}}`, `task "T9" is not T1 to T8`},
		{"a style missing", `{"id":"a","task":"T1","answers":{"concise":{"content":"x"}}}`, "has no thorough answer"},
		{"both content and call", `{"id":"a","task":"T1","answers":{"concise":{"content":"x","tool_call":{"name":"f"}},"thorough":{"content":"y"}}}`, "exactly one of content and tool_call"},
		{"twice", ok + "\n\n" + ok, "line 3: T6/a appears twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in))
			require.ErrorContains(t, err, tc.err)
		})
	}
	es, err := Read(strings.NewReader(ok))
	require.NoError(t, err)
	require.Len(t, es, 1)
	n, err := es[0].TaskNumber()
	require.NoError(t, err)
	require.Equal(t, 6, n)
}

func TestUserTextJoinsTheUserTurnsOnly(t *testing.T) {
	require.Equal(t, "hi\nthere\n", UserText([]string{"system", "user", "assistant", "user"}, []string{"date", " hi ", "ok", "there"}))
}

// FuzzRead: any input is read or refused, never a panic, and what is read
// holds an answer of every style.
func FuzzRead(f *testing.F) {
	f.Add(`{"id":"a","task":"T6","messages":[{"role":"user","content":"q"}],"answers":{"concise":{"content":"x"},"thorough":{"content":"y"}}}`)
	f.Add("{}\n{")
	f.Add(`{"id":"a","task":"T0"}`)
	f.Fuzz(func(t *testing.T, in string) {
		es, err := Read(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, e := range es {
			for _, s := range Styles {
				a := e.Answers[s]
				require.True(t, (a.Content == "") != (a.ToolCall == nil))
			}
		}
	})
}
