package clip

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"abcdef", 3, "abc…"},
		{"héllo", 2, "h…"}, // é is two bytes: the cut moves back before it
		{"héllo", 3, "hé…"},
		{"", 0, ""},
	} {
		require.Equal(t, tc.want, Text(tc.in, tc.n), "%q/%d", tc.in, tc.n)
	}
}

func FuzzText(f *testing.F) {
	f.Add("héllo wörld", 4)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 0 || n > 1<<16 || !utf8.ValidString(s) {
			return
		}
		got := Text(s, n)
		require.True(t, utf8.ValidString(got))
		if len(s) <= n {
			require.Equal(t, s, got)
		} else {
			require.LessOrEqual(t, len(got), n+len("…"))
		}
	})
}
