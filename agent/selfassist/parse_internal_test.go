package selfassist

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseSelection(t *testing.T) {
	cands := []string{"weather.now", "weather.forecast", "geo.lookup"}
	for _, tc := range []struct {
		reply string
		want  []string
	}{
		{"I choose [2].", []string{"weather.forecast"}},
		{"geo.lookup, then [1]", []string{"geo.lookup", "weather.now"}},
		{"[1] and weather.now again, [3]", []string{"weather.now", "geo.lookup"}},
		{"None", nil},
		{"[9] [0]", nil},
		{"", nil},
	} {
		require.Equal(t, tc.want, parseSelection(tc.reply, cands), tc.reply)
	}
}

func FuzzParseSelection(f *testing.F) {
	f.Add("[1] weather.now [2]")
	f.Fuzz(func(t *testing.T, reply string) {
		cands := []string{"a.b", "c.d"}
		got := parseSelection(reply, cands)
		require.LessOrEqual(t, len(got), len(cands))
		for _, g := range got {
			require.True(t, slices.Contains(cands, g))
		}
	})
}
