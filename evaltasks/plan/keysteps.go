package plan

import (
	"slices"
	"strings"
	"unicode"

	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// Key steps are read by meaning: a key step is an action on something
// ("check the reviews of the best candidates": the action "check", on
// "reviews"), and a plan's step states it when it does that action (in
// any of its synonyms, terms.json) on that thing (its lemma or a synonym),
// and the plan names what the key step names (Paris, 640 px, PNG, the
// currency), in any of their aliases. How many of its other words a step
// repeats does not matter.

// keyStep is a key step read as an action on something.
type keyStep struct {
	text string
	// verb is the action, as written ("check", "look up").
	verb string
	// head is what the action is done on ("review"), "" when the key
	// step names no thing ("compress", "convert to PNG").
	head string
	// specifics are the names and numbers the plan must mention
	// ("Paris", "640", "US dollars").
	specifics []string
}

// boundaries end the thing an action is done on: prepositions,
// conjunctions and the words that open a clause.
var boundaries = map[string]bool{}

// fillers are words of a thing that say nothing about what it is.
var fillers = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`of for into to from in at with on by and or that which whether if than per such
		near within over under before after during using via then so there where when while until about as like`) {
		boundaries[w] = true
	}
	for _, w := range strings.Fields(`the a an its it their his her your my our this these those each every both all some
		any user s one ones together more few several other them they out up`) {
		fillers[w] = true
	}
}

// specific tells whether a word of a key step names something particular:
// capitalised inside the step, all capitals, or a number; not a word of
// plans written in capitals ("IP").
func specific(word string, first bool) bool {
	rs := []rune(word)
	if len(rs) == 0 {
		return false
	}
	if textmatch.HasDigit(word) {
		return true
	}
	if textmatch.Vocabulary.IsSynonym(word) {
		return false
	}
	if len(rs) > 1 && strings.ToUpper(word) == word && unicode.IsLetter(rs[0]) {
		return true
	}
	return !first && unicode.IsUpper(rs[0])
}

// rawWord is a word of a key step with its original case.
type rawWord struct {
	low, orig string
}

// splitRaw splits text into words keeping their case: letters, digits
// and apostrophes inside words ("Portugal's" is "Portugal" and "s").
func splitRaw(text string) []rawWord {
	var out []rawWord
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out = append(out, rawWord{low: textmatch.Words(f)[0], orig: f})
	}
	return out
}

// readKeyStep reads a key step as an action on something.
func readKeyStep(text string) keyStep {
	k := keyStep{text: text}
	ws := splitRaw(text)
	if len(ws) == 0 {
		return k
	}
	i := 1
	k.verb = ws[0].low
	if len(ws) > 1 && textmatch.Vocabulary.Has(ws[0].low+" "+ws[1].low) {
		k.verb, i = ws[0].low+" "+ws[1].low, 2
	}
	// The thing is the first phrase after the action; an action followed
	// straight by a preposition ("search for the image", "wait for the
	// results") is done on the phrase after it. A thing that is a measure
	// ("resize to 640 px") is no thing: the action and the number say it.
	core, next, measure := nounPhrase(ws, i)
	if len(core) == 0 && !measure && next == i && next < len(ws) {
		core, _, measure = nounPhrase(ws, next+1)
	}
	if len(core) > 0 && !measure {
		k.head = core[len(core)-1]
	}
	// Names are runs of specific words, with the word after them when
	// together they are a known name ("US dollars").
	for j := 1; j < len(ws); j++ {
		if !specific(ws[j].orig, false) {
			continue
		}
		run := []string{ws[j].orig}
		for j+1 < len(ws) && specific(ws[j+1].orig, false) && !textmatch.HasDigit(ws[j].orig) {
			j++
			run = append(run, ws[j].orig)
		}
		if j+1 < len(ws) && textmatch.Vocabulary.Has(strings.Join(run, " ")+" "+ws[j+1].orig) {
			j++
			run = append(run, ws[j].orig)
		}
		k.specifics = append(k.specifics, strings.Join(run, " "))
	}
	return k
}

// nounPhrase reads the phrase of ws from i to the next boundary word: its
// content words (names, numbers and fillers left out), where it ends, and
// whether it holds a number.
func nounPhrase(ws []rawWord, i int) (core []string, end int, measure bool) {
	for ; i < len(ws); i++ {
		w := ws[i]
		// "the EUR to USD rate": a preposition between two names is
		// inside the phrase.
		between := w.low == "to" && i > 0 && specific(ws[i-1].orig, false) && i+1 < len(ws) && specific(ws[i+1].orig, false)
		switch {
		case boundaries[w.low] && !between:
			return core, i, measure
		case specific(w.orig, false):
			measure = measure || textmatch.HasDigit(w.orig)
		case between, fillers[w.low], textmatch.IsStopWord(w.low):
		default:
			core = append(core, w.low)
		}
	}
	return core, i, measure
}

// finds tells whether lemmas hold a word or phrase, or one meaning the
// same (lemmas, synonyms and aliases of terms.json).
func finds(lems []string, phrase string) bool {
	for _, eq := range textmatch.Vocabulary.Equivalents(phrase) {
		if textmatch.IndexRun(lems, eq, 0) >= 0 {
			return true
		}
	}
	return false
}

// states tells whether a plan's step states a key step: its action is
// the key step's (or one meaning the same), and it holds the thing the
// key step acts on. A step does one thing: the action is the step's own
// verb, or what the APIs it names do, never any action word it happens
// to hold.
func states(st reading.Step, k keyStep) bool {
	if k.verb == "" || !does(st, k.verb) {
		return false
	}
	return k.head == "" || finds(st.Lemmas, k.head)
}

// does tells whether a step's action is verb, in any of its synonyms: a
// synonym of one word is one of the step's actions, one of several words
// ("look up", "put together") starts with one and is written in the step.
func does(st reading.Step, verb string) bool {
	for _, eq := range textmatch.Vocabulary.Equivalents(verb) {
		if len(eq) == 0 || !slices.Contains(st.Actions, eq[0]) {
			continue
		}
		if len(eq) == 1 || textmatch.IndexRun(st.Lemmas, eq, 0) >= 0 {
			return true
		}
	}
	return false
}

// numberWords spell the small numbers key steps use.
var numberWords = map[string]string{"1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
	"7": "seven", "8": "eight", "9": "nine", "10": "ten", "11": "eleven", "12": "twelve"}

// mentions tells whether a plan names a key step's specifics (in any of
// their aliases; a small number in words too).
func mentions(plan []string, k keyStep) bool {
	for _, s := range k.specifics {
		found := false
		eqs := textmatch.Vocabulary.Equivalents(s)
		if w, ok := numberWords[s]; ok {
			eqs = append(eqs, []string{w})
		}
		for _, eq := range eqs {
			if textmatch.IndexRun(plan, eq, 0) >= 0 {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// match pairs each left item with at most one right item and each right
// item with at most one left item, as many pairs as possible (Kuhn's
// augmenting paths), trying right items in order; ok[l] lists the right
// items l may take. It returns the right item of each left one (-1 for
// none).
func match(ok [][]int, right int) []int {
	owner := make([]int, right)
	for i := range owner {
		owner[i] = -1
	}
	var try func(l int, seen []bool) bool
	try = func(l int, seen []bool) bool {
		for _, r := range ok[l] {
			if seen[r] {
				continue
			}
			seen[r] = true
			if owner[r] < 0 || try(owner[r], seen) {
				owner[r] = l
				return true
			}
		}
		return false
	}
	for l := range ok {
		try(l, make([]bool, right))
	}
	out := make([]int, len(ok))
	for i := range out {
		out[i] = -1
	}
	for r, l := range owner {
		if l >= 0 {
			out[l] = r
		}
	}
	return out
}
