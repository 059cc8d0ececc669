package evaltasks

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/toolset"
)

// Task 3 (the evaluation paper, §3.4): a clarification asks the user for
// what is missing, and only for that. Parameters are recognised by
// meaning — their name, the key words of their description, and the
// phrases people use for them (terms.json) — never by the examples a
// description quotes.

// paramVocab is how a reply may refer to a parameter.
type paramVocab struct {
	// words are single stemmed words: enough to show the parameter is asked for.
	words []string
	// phrases name the parameter specifically: its name and its
	// synonyms, each stated when all its words are in one sentence.
	phrases []string
}

// descDebrisRE cuts the parts of a description that are examples,
// defaults, cross-references and markup rather than meaning.
var descDebrisRE = regexp.MustCompile("(?is)`[^`]*`|\\([^)]*\\)|\\[[^\\]]*\\]\\([^)]*\\)|\\b\\w+=\\S*|" +
	`\b(?:ex|e\.?\s?g|example|default|allowed(?: values)?|available topics|format|visit|see)\b\.?:?[^.\n]*|` +
	`\b(?:can be |is )?retrieved from[^.\n]*|\bretur?ned (?:by|in)[^.\n]*|\buse [^.\n]*\bto see[^.\n]*`)

// descDebris are description words that describe the API's plumbing, not
// what the user is asked for.
var descDebris = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`retrieved returned endpoint field value yyyy mm dd tool geocode forward
		pass request section learn upon perform attempt listed supported automatically within take work too
		found direct leave empty detect input one following could sent back which based note`) {
		descDebris[w] = true
	}
}

// descTerms are the meaningful words of a parameter description, at most
// MaxDescTerms: no examples, defaults, references, codes or numbers.
func descTerms(desc string) []string {
	var out []string
	desc = textmatch.URLPattern.ReplaceAllString(desc, " ")
	for _, w := range textmatch.ContentWords(descDebrisRE.ReplaceAllString(desc, " ")) {
		if len(out) == MaxDescTerms {
			break
		}
		if len(w) < 3 || genericWords[w] || descDebris[w] || strings.ContainsAny(w, "0123456789") {
			continue
		}
		out = append(out, w)
	}
	return textmatch.Dedupe(out)
}

// MaxDescTerms bounds the description words that name a parameter.
const MaxDescTerms = 8

// paramTerms are the single words that name a parameter: its name's words
// and the key terms of its description, generic words dropped.
func paramTerms(p *toolset.Param, name string) []string {
	var out []string
	for _, w := range textmatch.SplitName(name) {
		if len(w) >= 3 && !genericWords[w] && !textmatch.IsStopWord(w) {
			out = append(out, textmatch.Stem(w))
		}
	}
	if p != nil {
		out = append(out, descTerms(p.Description)...)
	}
	return textmatch.Dedupe(out)
}

// vocab is a parameter's vocabulary.
func vocab(api *toolset.API, name string) paramVocab {
	var p *toolset.Param
	var syn []string
	if api != nil {
		p = api.Param(name)
		syn = textmatch.Vocabulary.Params[api.ID()][name]
	}
	v := paramVocab{words: paramTerms(p, name)}
	if parts := textmatch.SplitName(name); len(parts) > 1 || len(parts) == 1 && len(parts[0]) >= 3 && !genericWords[parts[0]] && !textmatch.IsStopWord(parts[0]) {
		v.phrases = append(v.phrases, strings.Join(parts, " "))
	}
	v.phrases = append(v.phrases, syn...)
	return v
}

// bracketRE finds remarks in brackets, innermost first.
var bracketRE = regexp.MustCompile(`\([^()]*\)|\[[^\[\]]*\]`)

// sentences are a text's sentences (and lines).
var sentenceRE = regexp.MustCompile(`[.!?;\n]+(?:\s|$)`)

// mentions tells whether a sentence holds a phrase: verbatim (up to case
// and punctuation), or, for a phrase of two or more content words, all of
// them in any order ("check-out date" in "dates of check-in and check-out").
func mentions(sentence textmatch.WordSet, norm, phrase string) bool {
	if n := textmatch.Normalized(phrase); strings.TrimSpace(n) != "" && strings.Contains(norm, n) {
		return true
	}
	pw := textmatch.Dedupe(textmatch.ContentWords(phrase))
	if len(pw) < 2 {
		return false
	}
	for _, w := range pw {
		if !sentence[w] && !sentence[textmatch.Stem(w)] {
			return false
		}
	}
	return true
}

// clarification is a reply split into sentences for parameter lookups.
type clarification struct {
	reply string
	sents []string
	sets  []textmatch.WordSet
	norms []string
	all   textmatch.WordSet
}

func newClarification(reply string) *clarification {
	c := &clarification{reply: reply, all: textmatch.NewWordSet(reply)}
	for _, s := range sentenceRE.Split(reply, -1) {
		if strings.TrimSpace(s) == "" {
			continue
		}
		c.sents = append(c.sents, s)
		c.sets = append(c.sets, textmatch.NewWordSet(s))
		c.norms = append(c.norms, textmatch.Normalized(s))
	}
	return c
}

// named lists the sentences that name a parameter by one of its phrases.
func (c *clarification) named(v paramVocab) []int {
	var out []int
	for i := range c.sents {
		for _, p := range v.phrases {
			if mentions(c.sets[i], c.norms[i], p) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// covers tells whether the reply refers to a parameter at all: by a
// phrase, or by one of its words.
func (c *clarification) covers(v paramVocab) bool {
	if len(c.named(v)) > 0 {
		return true
	}
	for _, w := range v.words {
		if c.all[w] {
			return true
		}
	}
	return false
}

// asksGiven tells whether the reply asks again for a parameter the user
// gave: a sentence names it without restating the given value (a
// clarification's sentences ask, or list what is asked for).
func (c *clarification) asksGiven(v paramVocab, p *toolset.Param, given any) bool {
	for _, i := range c.named(v) {
		if given != nil && statesGiven(c.sents[i], given) && !offersChoice(c.sents[i], p, given) {
			continue
		}
		return true
	}
	return false
}

// offersChoice tells whether a sentence that restates a given value also
// offers the parameter's other values ("png, jpeg or gif"): that asks again.
func offersChoice(sentence string, p *toolset.Param, given any) bool {
	if p == nil {
		return false
	}
	for _, e := range p.Enum {
		if !statesGiven(fmt.Sprint(given), e) && statesGiven(sentence, e) {
			return true
		}
	}
	return false
}

// statesGiven tells whether a sentence restates a value the user gave
// ("for 2 adults", "your 50 dollars").
func statesGiven(sentence string, given any) bool {
	var vals []string
	switch t := given.(type) {
	case []any:
		for _, x := range t {
			vals = append(vals, fmt.Sprint(x))
		}
	default:
		vals = []string{fmt.Sprint(t)}
	}
	norm := textmatch.Normalized(sentence)
	for _, s := range vals {
		if n := textmatch.Normalized(s); strings.TrimSpace(n) != "" && strings.Contains(norm, n) {
			return true
		}
	}
	return false
}

// MaxExtraShare is the share of the optional parameters the user did not
// give that a clarification may bring up besides the missing ones (at
// least one): offering a choice or two is help; asking for every
// parameter of the API, when it has more than the missing ones, is not
// understanding.
const MaxExtraShare = 0.5

// clarifyVerdict is the judgement of a clarification.
type clarifyVerdict struct {
	unasked []string // missing parameters it does not ask for
	regiven []string // parameters the user gave that it asks for again
	extra   []string // optional parameters it brings up
	allowed int      // how many extra it may bring up
	// everything tells that it asks for every parameter of an API that
	// has parameters beyond the missing ones.
	everything bool
}

func (v clarifyVerdict) ok() bool {
	return len(v.unasked) == 0 && len(v.regiven) == 0 && len(v.extra) <= v.allowed && !v.everything
}

// judgeClarification judges a reply to a Type-III instruction.
func (ev *evaluator) judgeClarification(in *dataset.Instruction, reply string) clarifyVerdict {
	api := dataset.ResolveAPI(ev.cat, in.TargetAPI)
	reply = ownSentences(in.Text, reply)
	c := newClarification(reply)
	var out clarifyVerdict
	plain := newClarification(bracketRE.ReplaceAllString(reply, " "))
	missing := map[string]bool{}
	for _, m := range in.Missing {
		missing[m] = true
		v := vocab(api, m)
		if !c.covers(v) {
			out.unasked = append(out.unasked, m)
		}
	}
	if api == nil {
		return out
	}
	optional, named := 0, 0
	for _, p := range api.Params {
		if missing[p.Name] {
			continue
		}
		given, present := in.Present[p.Name]
		v := vocab(api, p.Name)
		switch {
		case present || p.Required:
			// Every required parameter not missing was given (that is what
			// Missing means), with or without a recorded value.
			// A remark in brackets explains, it does not ask ("the
			// language (of the input text)").
			if plain.asksGiven(v, p, given) {
				out.regiven = append(out.regiven, p.Name)
			}
			if c.asksGiven(v, p, given) {
				named++
			}
		default:
			optional++
			if len(c.named(v)) > 0 {
				out.extra = append(out.extra, p.Name)
				named++
			}
		}
	}
	out.allowed = max(1, int(MaxExtraShare*float64(optional)))
	out.everything = len(api.Params) > len(in.Missing) && len(out.unasked) == 0 &&
		named == len(api.Params)-len(in.Missing)
	return out
}

// unaskedParams lists the missing parameters a clarification does not mention.
func (ev *evaluator) unaskedParams(in *dataset.Instruction, reply string) []string {
	return ev.judgeClarification(in, reply).unasked
}

// ownSentences drops the sentences of a reply that repeat the user's text:
// handing the user's own question back is not asking for anything.
func ownSentences(question, reply string) string {
	q := textmatch.Normalized(question)
	var kept []string
	for _, s := range sentences(reply) {
		if n := textmatch.Normalized(s); strings.TrimSpace(n) == "" || strings.Contains(q, n) {
			continue
		}
		kept = append(kept, s)
	}
	return strings.Join(kept, "\n")
}
