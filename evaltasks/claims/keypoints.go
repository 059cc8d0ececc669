package claims

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// Task 5 (the evaluation paper, §3.4) asks for an answer from the model's
// own knowledge. An answer is read once, as text (markdown marks dropped,
// a label's unit given to the value after it: "Rainy days: around 8–10"),
// and judged on what it asserts:
//   - a key point counts when the answer states it, numbers within the
//     tolerance of their kind (a climate normal within a couple of
//     degrees or days, a narrow range holding it; a conversion as
//     rounded), phrases by their variants ("eu gostaria de um café" for
//     "queria um café"); a sentence-long key point by its values, so a
//     terse correct answer meets it;
//   - and commits to it: the answer's first value of the key point's
//     kind is a key point, or it asserts at most MaxOtherClaims other
//     values of that kind (other numbers for the quantity, other zones,
//     capitals, currencies or languages; for a phrase, the same phrase
//     in other languages). A reply listing candidates commits to none
//     of them; variants and glosses are alternatives, not candidates —
//     a formal and an informal form, "X (Y)", a sample reply in the
//     language are no rival renderings;
//   - values the question gives are no claims ("what is 72 °C in
//     Fahrenheit": 72 is the question's);
//   - an answer far longer than the question needs is judged on its
//     first MaxAnswerWords words.

// MaxOtherClaims is how many values of a key point's kind that are no key
// point an answer may assert besides it (a working step, the high beside
// the low asked for, a currency's peg).
const MaxOtherClaims = 2

// MaxAnswerWords is how much of an answer is its committed claim: the
// sentences that end within that many words.
const MaxAnswerWords = 150

// KeyPointVerdict is the judgement of an answer's key points.
type KeyPointVerdict struct {
	// Missed are the key points the answer does not state.
	Missed []string
	// Uncommitted are key points it states among other values of their
	// kind without committing to them.
	Uncommitted []string
	// Share is the share of key points stated and committed to.
	Share float64
}

// KeyPoints judges the key points of a question against an answer.
func KeyPoints(question string, points []string, reply string) KeyPointVerdict {
	if len(points) == 0 {
		return KeyPointVerdict{Share: 1}
	}
	// The one reading of the answer: markdown read as text, so that a
	// label's unit reaches its value ("**Rainy days:** around 8–10").
	rd := reading.Read(Committed(reply))
	reply = rd.Text
	m, pw := rd.Matcher(), rd.Polar()
	var v KeyPointVerdict
	byKind := map[Kind][]string{}
	for _, p := range points {
		byKind[KindOf(p)] = append(byKind[KindOf(p)], p)
	}
	committed := map[Kind]bool{}
	for kind, ps := range byKind {
		committed[kind] = commits(kind, ps, reply, question, pw)
	}
	for _, p := range points {
		kind := KindOf(p)
		stated := m.FactWithin(p, kind.Tolerance()) == textmatch.FactStated
		commit := committed[kind]
		if vals := pointNumbers(p); !stated && kind == Text && len(vals) > 0 {
			// A sentence-long key point is met by its values: "100 °C
			// (212 °F)." states "Water boils at 100 °C (212 °F) at sea
			// level", committed as the numbers of their kind are.
			stated, commit = true, true
			for _, val := range vals {
				k := KindOf(val)
				stated = stated && m.FactWithin(val, k.Tolerance()) == textmatch.FactStated
				commit = commit && commits(k, []string{val}, reply, question, pw)
			}
		}
		switch {
		case !stated:
			v.Missed = append(v.Missed, p)
		case !commit:
			v.Uncommitted = append(v.Uncommitted, p)
		}
	}
	v.Share = float64(len(points)-len(v.Missed)-len(v.Uncommitted)) / float64(len(points))
	return v
}

// pointNumberRE finds the numbers of a key point with their units.
var pointNumberRE = regexp.MustCompile(`[-−]?\d+(?:[.,]\d+)?\s*(?:°\s*[CF]|℃|℉|days?\b|hours?\b|minutes?\b)?`)

// pointNumbers are the numeric values a text key point states ("100 °C"
// and "212 °F" of "Water boils at 100 °C (212 °F) at sea level").
func pointNumbers(p string) []string {
	var out []string
	for _, m := range pointNumberRE.FindAllString(p, -1) {
		if _, _, _, _, ok := textmatch.NumberFact(m); ok {
			out = append(out, strings.TrimSpace(m))
		}
	}
	return out
}

// commits tells whether a reply commits to the key points of a kind: its
// first claim of the kind is one of them, or its other claims are few.
func commits(kind Kind, points []string, reply, question string, pw textmatch.PolarWords) bool {
	var cs []claim
	switch kind {
	case Text:
		return true
	case Temperature, Days, Number, Code:
		cs = numberClaims(kind, reply, question)
	case Zone:
		cs = zoneClaims(reply, question, pw)
	case Phrase:
		cs = renderingClaims(points, nameClaims(kind, reply, question, pw))
	default:
		cs = nameClaims(kind, reply, question, pw)
	}
	other := 0
	for i, c := range cs {
		hit := false
		for _, p := range points {
			if matches(kind, c, p) {
				hit = true
				break
			}
		}
		if i == 0 && hit {
			return true
		}
		if !hit {
			other++
		}
	}
	return other <= MaxOtherClaims
}

// matches tells whether a claim is the key point p of its kind.
func matches(kind Kind, c claim, p string) bool {
	switch kind {
	case Temperature, Days, Number, Code:
		want, unit, step, _, ok := textmatch.NumberFact(p)
		return ok && c.num.Within(want, unit, step, kind.Tolerance())
	case Zone:
		return zoneMatches(c, p)
	}
	return c.id == idOf(kind, p)
}

// Committed is the part of an answer judged: all of it, or, when it runs
// past MaxAnswerWords, the sentences that end within them (at least the
// first).
func Committed(reply string) string {
	if len(textmatch.Words(reply)) <= MaxAnswerWords {
		return reply
	}
	var kept []string
	n := 0
	for _, s := range textmatch.Sentences(reply) {
		w := len(textmatch.Words(s))
		if n+w > MaxAnswerWords && len(kept) > 0 {
			break
		}
		kept = append(kept, s)
		n += w
	}
	return strings.Join(kept, "\n")
}

// KeyPointCriterion says how Task 5 is decided, for reports, given the
// share of key points an answer must reach.
func KeyPointCriterion(share float64) string {
	return fmt.Sprintf("no tool call, and the reply, read as text (markdown marks dropped, a label's unit given to its value), states and commits to at least %.0f%% of the key points: numbers by value and sign within the tolerance of their kind, not of the question's wording (climate normals within %.0f °C or %.0f days, a range of at most %.0f °C or %.0f days holding them; plain numbers as rounded to the precision either side writes, at least 2 significant digits; calling codes exactly), names and phrases by their aliases and variants, words only where not denied, a sentence-long point by its values; a key point counts only when the reply's first value of its kind is a key point or it asserts at most %d other values of that kind (other numbers, zones, capitals, currencies, languages; for a phrase, the same phrase in other languages), values the question gives aside — variants, glosses and a phrase's other words are alternatives, not rival values; a reply longer than %d words is judged on its first sentences", share*100, textmatch.ClimateDegrees, textmatch.ClimateDays, textmatch.MaxRangeDegrees, textmatch.MaxRangeDays, MaxOtherClaims, MaxAnswerWords)
}
