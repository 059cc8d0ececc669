package fold

import (
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

func TestLatin(t *testing.T) {
	for _, tc := range []struct {
		in   rune
		want string
		ok   bool
	}{
		{'á', "a", true}, {'ã', "a", true}, {'ç', "c", true}, {'ł', "l", true}, {'ş', "s", true},
		{'ß', "ss", true}, {'æ', "ae", true}, {'œ', "oe", true}, {'ệ', "e", true},
		{'a', "", false}, {'Á', "", false}, {'東', "", false}, {'7', "", false},
	} {
		got, ok := Latin(tc.in)
		require.Equal(t, tc.ok, ok, string(tc.in))
		require.Equal(t, tc.want, got, string(tc.in))
	}
}

// TestTableFoldsLowerCaseLettersToASCII keeps the table what callers rely
// on: lower-case accented letters in, plain ASCII letters out.
func TestTableFoldsLowerCaseLettersToASCII(t *testing.T) {
	for r, base := range latin {
		require.True(t, unicode.IsLetter(r) && r > unicode.MaxASCII, "%q", r)
		require.False(t, unicode.IsUpper(r) && r != 'İ', "%q is upper case", r)
		require.NotEmpty(t, base)
		for _, b := range base {
			require.True(t, b >= 'a' && b <= 'z', "%q folds to %q", r, base)
		}
	}
}
