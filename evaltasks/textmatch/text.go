package textmatch

import (
	latinfold "github.com/understudy/understudy/internal/fold"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text matching for the rule scorers: lower-cased words with a light
// plural stemming, stop words dropped, and phrase coverage measured as the
// share of a phrase's content words present in a reply.

// stopWords are words that carry no content for coverage.
var stopWords = map[string]bool{}

// IsStopWord tells whether a word carries no content for coverage.
func IsStopWord(w string) bool { return stopWords[w] }

func init() {
	for _, w := range strings.Fields(`a an the and or but if of to in on at by for with from as is are was were be been being
		it its this that these those there their them they he she his her you your yours we our us i me my mine
		do does did done have has had can could would should will shall may might must yes so than then
		what which who whom whose when where why how all any each some such very just also into onto about
		please e g eg ie i.e e.g etc`) {
		stopWords[w] = true
	}
}

// Words splits text into lower-case words of letters and digits; a
// decimal point or comma between digits stays inside the number. It is
// the innermost loop of every rule scorer, so ASCII, most of any reply,
// takes a path without the Unicode tables.
func Words(text string) []string {
	// The words are written one after another into buf and cut out of one
	// string at the end: one allocation for all of them.
	var buf []byte
	var ends []int
	flush := func() {
		if k := len(ends); len(buf) > 0 && (k == 0 || ends[k-1] < len(buf)) {
			ends = append(ends, len(buf))
		}
	}
	prev := utf8.RuneError // the rune before text[i]; none at the start
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		switch {
		case 'a' <= r && r <= 'z' || '0' <= r && r <= '9':
			buf = append(buf, byte(r))
		case 'A' <= r && r <= 'Z':
			buf = append(buf, byte(r-'A'+'a'))
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			buf = append(buf, fold(unicode.ToLower(r))...)
		case (r == '.' || r == ',') && i > 0 && unicode.IsDigit(prev) && digitAt(text, i+size):
			if r == '.' {
				buf = append(buf, '.')
			} // a thousands separator is dropped: 1,234 reads 1234
		default:
			flush()
		}
		prev = r
		i += size
	}
	flush()
	if len(ends) == 0 {
		return nil
	}
	all, out := string(buf), make([]string, len(ends))
	start := 0
	for k, e := range ends {
		out[k], start = all[start:e], e
	}
	return out
}

// digitAt tells whether a digit starts at text[i].
func digitAt(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return unicode.IsDigit(r)
}

// fold is a lower-case letter without its accent.
func fold(r rune) string {
	if s, ok := latinfold.Latin(r); ok {
		return s
	}
	return string(r)
}

// FoldAccents lower-cases text and takes the accents off its Latin
// letters ("Bogotá" becomes "bogota").
func FoldAccents(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		b.WriteString(fold(r))
	}
	return b.String()
}

// Stem is a light English stemmer: plural endings only.
func Stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "ses"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// ContentWords are the stemmed words of text that are not stop words.
func ContentWords(text string) []string {
	var out []string
	for _, w := range Words(text) {
		if !stopWords[w] {
			out = append(out, Stem(w))
		}
	}
	return out
}

// WordSet is the set of stemmed words of a reply.
type WordSet map[string]bool

// NewWordSet is the set of stemmed words of a text.
func NewWordSet(text string) WordSet {
	s := WordSet{}
	for _, w := range Words(text) {
		s[Stem(w)] = true
		s[w] = true
	}
	return s
}

// Coverage is the share of phrase's distinct content words found in s (1
// for a phrase without content words).
func (s WordSet) Coverage(phrase string) float64 {
	cw := Dedupe(ContentWords(phrase))
	if len(cw) == 0 {
		return 1
	}
	n := 0
	for _, w := range cw {
		if s[w] {
			n++
		}
	}
	return float64(n) / float64(len(cw))
}

// Dedupe returns s without repeated strings, first occurrences in order.
func Dedupe(s []string) []string {
	seen := map[string]bool{}
	out := s[:0:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// Normalized is text as lower-case words joined by single spaces, padded
// with spaces so that phrase containment respects word boundaries.
func Normalized(text string) string { return " " + strings.Join(Words(text), " ") + " " }

// PhraseCovered is the share of a phrase's content words a reply must hold
// for the phrase to count as stated.
const PhraseCovered = 2.0 / 3

// Covers tells whether a reply states a phrase: the phrase appears
// verbatim (up to case and punctuation), or enough of its content words do.
func Covers(reply string, set WordSet, phrase string) bool {
	if n := Normalized(phrase); strings.TrimSpace(n) != "" && strings.Contains(Normalized(reply), n) {
		return true
	}
	return set.Coverage(phrase) >= PhraseCovered-1e-9
}

// SplitName splits an identifier (snake_case, camelCase, kebab-case) into lower-case words.
func SplitName(name string) []string {
	var out []string
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if b.Len() > 0 {
				out = append(out, b.String())
				b.Reset()
			}
			continue
		}
		if unicode.IsUpper(r) && b.Len() > 0 && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			out = append(out, b.String())
			b.Reset()
		}
		b.WriteRune(unicode.ToLower(r))
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// Character-sensitive values must be copied exactly: URLs, e-mail
// addresses, decimals and coordinates, and identifiers that mix letters
// and digits.
var (
	URLPattern = regexp.MustCompile(`(?i)\b(?:https?|ftp)://[^\s"'<>()\[\]{}]+|\bwww\.[^\s"'<>()\[\]{}]+`)
	emailRE    = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)
	decimalRE  = regexp.MustCompile(`-?\d+(?:\.\d+)+`)
	idRE       = regexp.MustCompile(`\b[A-Za-z0-9_-]*(?:[A-Za-z][A-Za-z0-9_-]*\d|\d[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]*\b`)
)

// exactValues lists the character-sensitive values in text.
func exactValues(text string) []string {
	var out []string
	rest := text
	for _, re := range []*regexp.Regexp{URLPattern, emailRE} {
		for _, m := range re.FindAllString(rest, -1) {
			out = append(out, strings.TrimRight(m, ".,;:!?"))
		}
		rest = re.ReplaceAllString(rest, " ")
	}
	for _, m := range decimalRE.FindAllString(rest, -1) {
		out = append(out, m)
	}
	rest = decimalRE.ReplaceAllString(rest, " ")
	for _, m := range idRE.FindAllString(rest, -1) {
		// Short mixes such as "3rd", "5km" or "2025" are ordinary words.
		if len(m) >= 5 {
			out = append(out, m)
		}
	}
	return out
}

// ContainsExact tells whether value appears in text verbatim, not as part
// of a longer value (so "48.85" is not found in "48.8566").
func ContainsExact(text, value string) bool {
	if value == "" {
		return false
	}
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], value)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(value)
		if !continues(text, i-1, true) && !continues(text, end, false) {
			return true
		}
		from = i + 1
	}
	return false
}

// continues tells whether the byte at i extends a value (a letter, digit,
// or a '.'/'-'/'_' followed by one).
func continues(text string, i int, before bool) bool {
	if i < 0 || i >= len(text) {
		return false
	}
	c := text[i]
	if isAlnum(c) {
		return true
	}
	if c == '.' || c == '-' || c == '_' || c == '/' {
		if before {
			return i > 0 && isAlnum(text[i-1]) && c != '/'
		}
		return i+1 < len(text) && isAlnum(text[i+1])
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
