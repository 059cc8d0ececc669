// Package clarify is Task 3's rule scorer: whether a reply asks the user for the missing parameters of a call, and only for those.
package clarify

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/toolset"
)

// Task 3 (the evaluation paper, §3.4): a clarification asks the user for
// what is missing, and only for that. Parameters are recognised by
// meaning — their name, the key words of their description, and the
// phrases people use for them (terms.json) — never by the examples a
// description quotes.

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

// namePhrase is a parameter's name in words, when they say something
// ("image url", "city"; "q" or "ip", which no prose word is; not "from"
// or "search", which any prose may hold).
func namePhrase(name string) []string {
	parts := textmatch.SplitName(name)
	if len(parts) == 1 && (textmatch.IsStopWord(parts[0]) || len(parts[0]) > MaxCodeName && textmatch.IsGenericWord(parts[0])) {
		return nil
	}
	return textmatch.Lemmas(strings.Join(parts, " "))
}

// MaxCodeName is the length up to which a one-word parameter name is a
// code ("q", "ip", "dt") that names the parameter when a reply writes it.
const MaxCodeName = 3

// vocabs are the vocabularies of an API's parameters (or of the names
// given, when the API is unknown): a description term counts for a
// parameter only when no other parameter of the API has it.
func vocabs(api *toolset.API, names []string) map[string]reading.Vocab {
	if api != nil {
		names = nil
		for _, p := range api.Params {
			names = append(names, p.Name)
		}
	}
	terms := map[string][]string{}
	owners := map[string]int{}
	for _, n := range names {
		var p *toolset.Param
		if api != nil {
			p = api.Param(n)
		}
		seen := map[string]bool{}
		for _, w := range paramTerms(p, n) {
			l := textmatch.Lemma(w)
			if !seen[l] {
				seen[l] = true
				terms[n] = append(terms[n], l)
				owners[l]++
			}
		}
		for _, syn := range synonyms(api, n) {
			for _, l := range textmatch.Lemmas(syn) {
				if !seen[l] && !textmatch.IsStopWord(l) {
					seen[l] = true
					owners[l]++
				}
			}
		}
	}
	out := map[string]reading.Vocab{}
	for _, n := range names {
		var v reading.Vocab
		if np := namePhrase(n); len(np) > 0 {
			v.Phrases = append(v.Phrases, np)
		}
		for _, syn := range synonyms(api, n) {
			v.Phrases = append(v.Phrases, textmatch.Lemmas(syn))
		}
		for _, l := range terms[n] {
			if owners[l] == 1 {
				v.Terms = append(v.Terms, l)
			}
		}
		out[n] = v
	}
	return out
}

// synonyms are the phrases terms.json gives a parameter.
func synonyms(api *toolset.API, name string) []string {
	if api == nil {
		return nil
	}
	return textmatch.Vocabulary.Params[api.ID()][name]
}

// offersChoice tells whether a sentence of the reply offers the other
// values of a parameter the user gave ("png, jpeg or gif"): that asks
// again. It takes two of them, written as words that are not common
// words ("it" is also Italian's code).
func offersChoice(q reading.Questions, p *toolset.Param, given []string) bool {
	if p == nil || len(given) == 0 {
		return false
	}
	for _, s := range q.Sentences {
		n := 0
		for _, x := range p.Enum {
			e := fmt.Sprint(x)
			if textmatch.IsStopWord(strings.ToLower(e)) || reading.StatesAny(strings.Join(given, " "), []string{e}) {
				continue
			}
			if reading.StatesAny(s.Text, []string{e}) {
				n++
			}
		}
		if n >= 2 {
			return true
		}
	}
	return false
}

// givenValues are a recorded value's texts.
func givenValues(given any) []string {
	switch t := given.(type) {
	case nil:
		return nil
	case []any:
		var out []string
		for _, x := range t {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return []string{fmt.Sprint(given)}
}

// MaxExtraShare is the share of the optional parameters the user did not
// give that a clarification may bring up besides the missing ones (at
// least one): offering a choice or two is help; asking for every
// parameter of the API, when it has more than the missing ones, is not
// understanding.
const MaxExtraShare = 0.5

// Criterion says how the scorer decides, for reports.
var Criterion = fmt.Sprintf("no tool call, and the reply asks, in its own questions or requests (markdown read as text; a list under a lead line that asks is asked item by item; a sentence holding a run of %d of the user's words, or all of them, counts for nothing), for every missing parameter by meaning (its name, its synonyms, a key word of its description no other parameter shares; lemmatised, up to %d words apart, a single word as the head of a phrase), not in a word list; for an opaque ID, asking which of the things the user names they mean (its name) asks for it; the same recogniser must not find it asking for a parameter the user gave, whatever else the sentence repeats (a reference is no question only where its words are the given value or lead straight to it, or belong to a reference to a missing parameter), nor for more than %.0f%% of the optional ones (at least one; extras offered as optional are help) nor every parameter of the API; calls made anyway are classified by mistake kind", reading.EchoRun, reading.MaxGap, MaxExtraShare*100)

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

// opaqueID tells whether a parameter is an identifier the user cannot
// know (a location_id another API returns): asking which thing they mean
// asks for it.
func opaqueID(p *toolset.Param, name string) bool {
	words := textmatch.SplitName(name)
	if len(words) == 0 || words[len(words)-1] != "id" {
		return false
	}
	return p == nil || len(p.Enum) == 0
}

// Judge judges a reply to a Type-III instruction that calls no tool,
// against the instruction's target API in the catalog.
func Judge(cat *toolset.Catalog, in *dataset.Instruction, reply string) Verdict {
	api := dataset.ResolveAPI(cat, in.TargetAPI)
	reply = withoutToolNames(api, reply)
	q := reading.ReadQuestions(in.Text, reply)
	out := Verdict{Asks: q.Asks()}
	// A remark in brackets explains, it does not ask ("the language (of
	// the input text)").
	plain := reading.ReadQuestions(in.Text, reading.WithoutBrackets(reply))
	vs := vocabs(api, in.Missing)
	missing := map[string]bool{}
	var missingVs []reading.Vocab
	for _, m := range in.Missing {
		missing[m] = true
		missingVs = append(missingVs, vs[m])
	}
	for _, m := range in.Missing {
		if q.AsksFor(vs[m]) {
			continue
		}
		var p *toolset.Param
		if api != nil {
			p = api.Param(m)
		}
		if opaqueID(p, m) {
			var others []reading.Vocab
			for n, v := range vs {
				if n != m {
					others = append(others, v)
				}
			}
			if q.AsksWhich(in.Text, others) {
				continue
			}
		}
		out.Unasked = append(out.Unasked, m)
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
		v := vs[p.Name]
		switch {
		case present || p.Required:
			// Every required parameter not missing was given (that is what
			// Missing means), with or without a recorded value.
			vals := givenValues(given)
			if !present || len(vals) == 0 {
				vals = nil
			}
			again := plain.AsksAgainFor(v, vals, missingVs) || offersChoice(q, p, vals)
			if again {
				out.Regiven = append(out.Regiven, p.Name)
			}
			if again || q.AsksAgainFor(v, vals, missingVs) {
				named++
			}
		default:
			optional++
			if plain.AsksAgainFor(v, nil, missingVs) {
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

// identifierRE finds identifiers: words joined by '_', '-' or '.'.
var identifierRE = regexp.MustCompile(`[A-Za-z0-9]+(?:[_.-][A-Za-z0-9]+)+`)

// withoutToolNames takes the written names of the API and its tool out of
// a reply ("ocr_extract_text-ocr_image_url"): they name what would be
// called, and their words ask for nothing.
func withoutToolNames(api *toolset.API, reply string) string {
	if api == nil {
		return reply
	}
	tool := strings.ToLower(api.Tool.StandardizedName)
	return identifierRE.ReplaceAllStringFunc(reply, func(id string) string {
		l := strings.ToLower(id)
		if strings.Contains(l, tool) || l == strings.ToLower(api.Name) {
			return " "
		}
		return id
	})
}

// Asks tells whether a text makes a request to the user: a question
// (with a question word, an auxiliary or a request verb) or a request's
// wording.
func Asks(text string) bool { return reading.ReadQuestions("", text).Asks() }

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
