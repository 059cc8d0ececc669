// Package clarify is Task 3's rule scorer: whether a reply asks the user for the missing parameters of a call, and only for those.
package clarify

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
		if len(w) < 3 || textmatch.IsGenericWord(w) || descDebris[w] || textmatch.HasDigit(w) {
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
		if len(w) >= 3 && !textmatch.IsGenericWord(w) && !textmatch.IsStopWord(w) {
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
	if parts := textmatch.SplitName(name); len(parts) > 1 || len(parts) == 1 && len(parts[0]) >= 3 && !textmatch.IsGenericWord(parts[0]) && !textmatch.IsStopWord(parts[0]) {
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

// Criterion says how the scorer decides, for reports.
var Criterion = fmt.Sprintf("no tool call, and the reply asks for every missing parameter (by its name, its description's key words or its synonyms), asks for no parameter the user gave, brings up at most %.0f%% of the optional ones (at least one) and not every parameter of the API; calls made anyway are classified by mistake kind", MaxExtraShare*100)

// Outcomes of a clarification that calls no tool.
const (
	OutcomeClarified = "clarified"
	OutcomeNoClarify = "no_clarification"
	OutcomeOverAsked = "over_asked"
)

// Verdict is the judgement of a clarification.
type Verdict struct {
	Unasked []string // missing parameters it does not ask for
	Regiven []string // parameters the user gave that it asks for again
	Extra   []string // optional parameters it brings up
	Allowed int      // how many extra it may bring up
	// Everything tells that it asks for every parameter of an API that
	// has parameters beyond the missing ones.
	Everything bool
	// Asks tells whether the reply makes a request in its own sentences:
	// the question mark of the user's text handed back asks for nothing.
	Asks bool
}

// OK tells whether the reply asks for what is missing and only for that,
// whether or not it is put as a request.
func (v Verdict) OK() bool {
	return len(v.Unasked) == 0 && len(v.Regiven) == 0 && len(v.Extra) <= v.Allowed && !v.Everything
}

// Pass tells whether the clarification does Task 3: it asks, in its own
// sentences, for what is missing and only for that.
func (v Verdict) Pass() bool { return v.OK() && v.Asks }

// Outcome is the verdict's outcome and, for a reply that asks for too
// much, what it asks for.
func (v Verdict) Outcome() (outcome, detail string) {
	switch {
	case v.Pass():
		return OutcomeClarified, ""
	case len(v.Unasked) == 0 && len(v.Regiven) > 0:
		return OutcomeOverAsked, "asks again for " + strings.Join(v.Regiven, ", ")
	case len(v.Unasked) == 0 && v.Everything:
		return OutcomeOverAsked, "asks for every parameter of the API"
	case len(v.Unasked) == 0 && len(v.Extra) > v.Allowed:
		return OutcomeOverAsked, fmt.Sprintf("brings up %d optional parameters (%s), at most %d", len(v.Extra), strings.Join(v.Extra, ", "), v.Allowed)
	}
	return OutcomeNoClarify, ""
}

// Judge judges a reply to a Type-III instruction that calls no tool,
// against the instruction's target API in the catalog.
func Judge(cat *toolset.Catalog, in *dataset.Instruction, reply string) Verdict {
	api := dataset.ResolveAPI(cat, in.TargetAPI)
	reply = OwnSentences(in.Text, reply)
	c := newClarification(reply)
	out := Verdict{Asks: Asks(reply)}
	plain := newClarification(bracketRE.ReplaceAllString(reply, " "))
	missing := map[string]bool{}
	for _, m := range in.Missing {
		missing[m] = true
		v := vocab(api, m)
		if !c.covers(v) {
			out.Unasked = append(out.Unasked, m)
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
				out.Regiven = append(out.Regiven, p.Name)
			}
			if c.asksGiven(v, p, given) {
				named++
			}
		default:
			optional++
			if len(c.named(v)) > 0 {
				out.Extra = append(out.Extra, p.Name)
				named++
			}
		}
	}
	out.Allowed = max(1, int(MaxExtraShare*float64(optional)))
	out.Everything = len(api.Params) > len(in.Missing) && len(out.Unasked) == 0 &&
		named == len(api.Params)-len(in.Missing)
	return out
}

// OwnSentences drops the sentences of a reply that repeat the user's text:
// handing the user's own question back is not asking for anything.
func OwnSentences(question, reply string) string {
	q := textmatch.Normalized(question)
	var kept []string
	for _, s := range textmatch.Sentences(reply) {
		if n := textmatch.Normalized(s); strings.TrimSpace(n) == "" || strings.Contains(q, n) {
			continue
		}
		kept = append(kept, s)
	}
	return strings.Join(kept, "\n")
}

// askRE recognises a request to the user.
var askRE = regexp.MustCompile(`(?i)\?|\b(could you|can you|would you|please (provide|tell|share|specify|let|give|send|confirm|paste|upload|attach|enter|type)|let me know|tell me|i need|i'll need|i will need|need to know|need (a|an|the|your|some|more)|provide|specify|share)\b`)

// Asks tells whether a text makes a request to the user.
func Asks(text string) bool { return askRE.MatchString(text) }

// Gold is the oracle's clarification, from the annotations alone: it asks
// for each missing parameter by name and description.
func Gold(cat *toolset.Catalog, in *dataset.Instruction) string {
	api := dataset.ResolveAPI(cat, in.TargetAPI)
	var parts []string
	for _, m := range in.Missing {
		part := strings.Join(textmatch.SplitName(m), " ")
		if api != nil {
			if p := api.Param(m); p != nil && p.Description != "" {
				part += " (" + firstSentence(p.Description) + ")"
			}
		}
		parts = append(parts, part)
	}
	return "I can help with that, but I need more information first. Could you tell me the " + strings.Join(parts, " and the ") + "?"
}

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i]
	}
	return strings.TrimSuffix(s, ".")
}
