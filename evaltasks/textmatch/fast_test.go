package textmatch

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
)

// The fast paths of Words, labelUnit and aliases must read exactly what
// the plain versions they replaced read; these are those versions.

func wordsPlain(text string) []string {
	var out []string
	var b strings.Builder
	rs := []rune(text)
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteString(fold(unicode.ToLower(r)))
		case (r == '.' || r == ',') && i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]):
			if r == '.' {
				b.WriteRune(r)
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

func labelUnitPlain(prefix string) string {
	if g := labelUnitRE.FindStringSubmatch(prefix); g != nil {
		return unitOf(g[1])
	}
	return ""
}

func aliasesPlain(t *Terms, name string) []string {
	k := Normalized(name)
	for _, g := range t.Aliases {
		for _, n := range g {
			if Normalized(n) == k {
				return g
			}
		}
	}
	return nil
}

var fastSeeds = []string{
	"Paris: 48.8566, 1,234 OK!", "Rainy days: about ", "rainy DAYS :\t approx. ", "xdays: ", "hours:", "minuteſ: ~ ",
	"Straße Łódź ١٢,٣ 7.٣", "days: 5 hours: around\n", "minutes: roughly 3 minutes:", "é:", "\xffdays: ", "CNY", "renminbi ", "Yuan!",
	"days:        ", "4.", ".5", "1,,2", "", "ünïcødé 3.14", "hours: approximately", "hours: approximatelyy",
}

func FuzzFastPaths(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		require.Equal(t, wordsPlain(s), Words(s))
		require.Equal(t, labelUnitPlain(s), labelUnit(s), "%q", s)
		require.Equal(t, aliasesPlain(Vocabulary, s), Vocabulary.aliases(s))
	})
}

func TestFastPathsAgreeOnTheVocabulary(t *testing.T) {
	for _, g := range Vocabulary.Aliases {
		for _, n := range g {
			for _, s := range []string{n, strings.ToUpper(n), " " + n + "!", "days: " + n + " hours: "} {
				require.Equal(t, wordsPlain(s), Words(s))
				require.Equal(t, labelUnitPlain(s), labelUnit(s), "%q", s)
				require.Equal(t, aliasesPlain(Vocabulary, s), Vocabulary.aliases(s), s)
			}
		}
	}
	require.Equal(t, "day", labelUnit("Rainy days: about "))
	require.Equal(t, "", labelUnit("xdays: "))
	require.NotNil(t, Vocabulary.aliases("Renminbi"))
}

// longReply is a reply of about n bytes, many numbers and labels in it.
func longReply(n int) string {
	const line = "Step 1: it is 17 degrees in Lisbon on 2025-06-20 at 14:30, about 3.5 km away; Rainy days: about 8-10. Bogotá 2,167,973 people. "
	return strings.Repeat(line, n/len(line)+1)[:n]
}

func BenchmarkNewMatcher16KiB(b *testing.B) {
	reply := longReply(16 << 10)
	for b.Loop() {
		m := NewMatcher(reply)
		_ = m.Fact("renminbi")
		_ = m.FactWithin("Lisbon 17 °C", Normal)
	}
}

func BenchmarkWords16KiB(b *testing.B) {
	reply := longReply(16 << 10)
	for b.Loop() {
		_ = Words(reply)
	}
}

func TestIANAZoneCachesHitsAndMisses(t *testing.T) {
	for range 2 {
		require.Equal(t, "Europe/Lisbon", IANAZone(" Europe/Lisbon ").String())
		require.Nil(t, IANAZone("https://img.example.org/a.png"))
		require.Nil(t, IANAZone("Europe/Atlantis"))
	}
}
