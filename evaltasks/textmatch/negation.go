package textmatch

import (
	"regexp"
	"strings"
)

// Negation for the rule scorers: a word stated under "not", "no", "never",
// "n't", "rather than", "instead of" in its clause is denied, not stated,
// so "they speak Spanish, not Portuguese" does not state "Portuguese".

// clauseRE splits text into clauses: sentence ends, commas, colons and
// semicolons followed by a space, brackets, dashes between spaces, and
// contrasting conjunctions. A decimal point or a URL's dots do not split.
var clauseRE = regexp.MustCompile(`(?i)[;!?\n()\[\]]|[.,:](?:\s|$)|\s[—–-]\s|\b(?:but|however|whereas|although|though)\b`)

// negators deny the words that follow them in a clause ("t" is the tail
// of "n't" once split into words).
var negators = map[string]bool{"not": true, "no": true, "never": true, "t": true, "without": true, "nor": true,
	"neither": true, "cannot": true, "dont": true, "isnt": true, "arent": true, "wasnt": true, "nt": true, "none": true}

// negationReach is how many words before a word a negator denies it from.
const negationReach = 3

// clauses are the word lists of text's clauses.
func clauses(text string) [][]string {
	var out [][]string
	for _, c := range clauseRE.Split(text, -1) {
		if w := Words(c); len(w) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// negatedAt tells whether the word at i of a clause is denied ("not only"
// and "not just" add rather than deny).
func negatedAt(c []string, i int) bool {
	for j := max(0, i-negationReach); j < i; j++ {
		if negators[c[j]] && !(j+1 < len(c) && (c[j+1] == "only" || c[j+1] == "just")) {
			return true
		}
		if j+1 < i && (c[j] == "rather" && c[j+1] == "than" || c[j] == "instead" && c[j+1] == "of" || c[j] == "other" && c[j+1] == "than") {
			return true
		}
	}
	return false
}

// PolarWords are the stemmed words of a text split by polarity: affirmed
// holds words with at least one occurrence that is not denied, denied
// those with at least one denied occurrence.
type PolarWords struct {
	affirmed, denied WordSet
	// clauses are the text's clauses, read once.
	clauses [][]string
}

// NewPolarWords reads which words of a text are affirmed and which denied.
func NewPolarWords(text string) PolarWords {
	p := PolarWords{affirmed: WordSet{}, denied: WordSet{}, clauses: clauses(text)}
	for _, c := range p.clauses {
		for i, w := range c {
			set := p.affirmed
			if negatedAt(c, i) {
				set = p.denied
			}
			set[w], set[Stem(w)] = true, true
		}
	}
	return p
}

// Affirms tells whether the text states a phrase's words as a run in one
// of its clauses, not denied.
func (pw PolarWords) Affirms(phrase string) bool { return phraseIn(pw.clauses, phrase, true) }

// phraseIn finds phrase's words as a run in one of a text's clauses and
// tells whether some occurrence is affirmed (want true) or denied (want
// false).
func phraseIn(cls [][]string, phrase string, want bool) bool {
	pw := Words(phrase)
	if len(pw) == 0 {
		return false
	}
	for _, c := range cls {
		for i := 0; i+len(pw) <= len(c); i++ {
			if matchRun(c[i:i+len(pw)], pw) && negatedAt(c, i) != want {
				return true
			}
		}
	}
	return false
}

func matchRun(got, want []string) bool {
	for k := range want {
		if got[k] != want[k] && Stem(got[k]) != Stem(want[k]) {
			return false
		}
	}
	return true
}

// deniedPhrase splits a phrase that is itself a denial ("not Sydney") into
// what it denies.
func deniedPhrase(phrase string) (string, bool) {
	w := Words(phrase)
	if len(w) > 1 && negators[w[0]] {
		return strings.Join(w[1:], " "), true
	}
	return "", false
}

// StatesPhrase tells whether a reply states a phrase, respecting negation:
// the phrase appears affirmed as a run of words, or enough of its content
// Words appear affirmed. A denial ("not Sydney") is stated when what it
// denies appears denied.
func StatesPhrase(reply string, pw PolarWords, phrase string) bool {
	if rest, ok := deniedPhrase(phrase); ok {
		return phraseIn(pw.clauses, rest, false) || pw.denied.Coverage(rest) >= PhraseCovered-1e-9 && !phraseIn(pw.clauses, rest, true)
	}
	if len(ContentWords(phrase)) == 0 {
		// A value made of stop words ("is", the code of Icelandic) is in
		// every sentence: it counts only set apart, quoted or emphasised.
		return quoted(reply, phrase)
	}
	if phraseIn(pw.clauses, phrase, true) {
		return true
	}
	return pw.affirmed.Coverage(phrase) >= PhraseCovered-1e-9
}

// quoteMarks set a value apart in prose.
const quoteMarks = "\"'`*“”‘’«»"

// quoted tells whether value appears in text between quote or emphasis
// marks ("is", `is`, **is**) or after a colon, case-insensitively.
func quoted(text, value string) bool {
	v := strings.TrimSpace(value)
	if v == "" {
		return false
	}
	lt, lv := strings.ToLower(text), strings.ToLower(v)
	for from := 0; from < len(lt); {
		i := strings.Index(lt[from:], lv)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(lv)
		before, after := lt[:i], lt[end:]
		if before != "" && after != "" && strings.ContainsAny(before[len(before)-1:], quoteMarks) && strings.ContainsAny(after[:1], quoteMarks) {
			return true
		}
		// A value introduced by a colon and ending its clause is set apart too.
		if b := strings.TrimRight(before, " "); strings.HasSuffix(b, ":") || strings.HasSuffix(b, ";") {
			if after == "" || strings.ContainsAny(after[:1], ".,;!?\n") {
				return true
			}
		}
		from = i + 1
	}
	return false
}
