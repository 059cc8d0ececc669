package textmatch

import "strings"

// The words of API documentation that the rule scorers of several tasks
// (clarification, plans, chains) set aside, and the sentence splitting
// they share.

// genericWords carry no meaning of their own in parameter names and descriptions.
var genericWords = map[string]bool{}

// vagueWords say nothing of what is done with an API.
var vagueWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`id ids api get list search info information detail details param parameter parameters value values
		string number integer boolean required optional default example format data based sent back following use used using
		e g eg type field fields result results response return returns given provide provided specify specified set
		one two can must should may also like etc q num`) {
		genericWords[w] = true
	}
	for _, w := range strings.Fields(`get use using used call calling api apis tool tools function functions endpoint data
		result results response return returns info information detail details value values param parameter parameters
		id ids string number integer boolean required optional default example format type field fields e g eg ex
		subfunction described description`) {
		vagueWords[w] = true
	}
}

// IsGenericWord tells whether a word carries no meaning of its own in
// parameter names and descriptions ("id", "value", "search").
func IsGenericWord(w string) bool { return genericWords[w] }

// IsVagueWord tells whether a word says nothing of what is done with an
// API ("call", "data", "result").
func IsVagueWord(w string) bool { return vagueWords[w] }

// HasDigit tells whether a string holds an ASCII digit.
func HasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// Sentences splits text at line breaks and at '.', '!' or '?' followed by
// a space (so URLs, decimals and dotted names stay whole).
func Sentences(text string) []string {
	var out []string
	var b strings.Builder
	rs := []rune(text)
	for i, r := range rs {
		if r == '\n' {
			out = append(out, b.String())
			b.Reset()
			continue
		}
		b.WriteRune(r)
		if (r == '.' || r == '!' || r == '?') && (i+1 == len(rs) || rs[i+1] == ' ' || rs[i+1] == '\t') {
			out = append(out, b.String())
			b.Reset()
		}
	}
	return append(out, b.String())
}
