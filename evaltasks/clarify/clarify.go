// Package clarify is Task 3's rule scorer: whether a reply asks the user for the missing parameters of a call, and only for those.
package clarify

import (
	"fmt"
	"regexp"
	"slices"
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

// paramVocab is how a reply may refer to a parameter, as lemmas.
type paramVocab struct {
	// phrases name the parameter: its name's words and its synonyms
	// (terms.json).
	phrases [][]string
	// terms are the key words of its description that no other parameter
	// of the API shares ("landmark" of an address; not "language", which
	// a translation's target and source both describe).
	terms []string
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

// namePhrase is a parameter's name in words, when they say something
// ("image url", "city"; not "q" or "from").
func namePhrase(name string) []string {
	parts := textmatch.SplitName(name)
	if len(parts) == 1 && (len(parts[0]) < 3 || textmatch.IsGenericWord(parts[0]) || textmatch.IsStopWord(parts[0])) {
		return nil
	}
	return textmatch.Lemmas(strings.Join(parts, " "))
}

// vocabs are the vocabularies of an API's parameters (or of the names
// given, when the API is unknown): a description term counts for a
// parameter only when no other parameter of the API has it.
func vocabs(api *toolset.API, names []string) map[string]paramVocab {
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
	out := map[string]paramVocab{}
	for _, n := range names {
		var v paramVocab
		if np := namePhrase(n); len(np) > 0 {
			v.phrases = append(v.phrases, np)
		}
		for _, syn := range synonyms(api, n) {
			v.phrases = append(v.phrases, textmatch.Lemmas(syn))
		}
		for _, l := range terms[n] {
			if owners[l] == 1 {
				v.terms = append(v.terms, l)
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

// bracketRE finds remarks in brackets, innermost first.
var bracketRE = regexp.MustCompile(`\([^()]*\)|\[[^\[\]]*\]`)

// sentenceRE splits a text into sentences (and lines).
var sentenceRE = regexp.MustCompile(`[.!?\n]+(?:\s|$)`)

// MaxGap is how many words may stand between the words of a phrase that
// names a parameter: "what would you like me to search videos for" asks
// what to "search for".
const MaxGap = 2

// ContextReach is how far before a single word that names a parameter a
// determiner, question word or preposition must stand for the word to be
// asked about ("which city", "the date of arrival"): a bare word in a list
// asks for nothing.
const ContextReach = 3

// contextWords make a bare noun a phrase: determiners, possessives,
// question words and prepositions.
var contextWords = map[string]bool{}

// questionWords open a question.
var questionWords = map[string]bool{}

// auxiliaries open a yes-no question or a request ("could you", "do you").
var auxiliaries = map[string]bool{}

// requestVerbs make a sentence a request ("tell me", "send the link").
var requestVerbs = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`what which where when who whom whose how`) {
		questionWords[w] = true
		contextWords[w] = true
	}
	for _, w := range strings.Fields(`the a an your yours its their this that these those my our some any each
		of for in on to from about with by at into onto per like as s`) {
		contextWords[w] = true
	}
	for _, w := range strings.Fields(`could can would will do does did is are was should shall may might have has`) {
		auxiliaries[w] = true
	}
	for _, w := range strings.Fields(`tell share provide give send specify confirm paste upload attach enter type
		choose pick select clarify need know mention name list describe drop supply include`) {
		requestVerbs[w] = true
	}
}

// sentence is a sentence of a reply, read for parameter lookups.
type sentence struct {
	text  string
	words []string // lower-case words
	lems  []string // their lemmas
	// asks tells whether the sentence is a question or a request: a
	// question mark with a question word, an auxiliary or a request verb,
	// or a request's wording ("please send", "let me know").
	asks bool
	// bare is the sentence without the items of a list of bare words
	// ("city, date, adults, rooms"), which name parameters without asking
	// about any; nil when it holds no such list.
	bare *sentence
}

// camelRE finds the inside of a camelCase name ("departDate"), which is
// two words.
var camelRE = regexp.MustCompile(`([a-z])([A-Z])`)

// listItemRE splits a sentence into the items of a list.
var listItemRE = regexp.MustCompile(`\s*(?:[,/:]|\band\b|\bor\b)\s*`)

func newSentence(text string) sentence {
	s := sentence{text: text, words: textmatch.Words(camelRE.ReplaceAllString(text, "$1 $2"))}
	for _, w := range s.words {
		s.lems = append(s.lems, textmatch.Lemma(w))
	}
	framed := false
	for i, w := range s.words {
		if questionWords[w] || requestVerbs[w] || i == 0 && auxiliaries[w] {
			framed = true
			break
		}
	}
	// An imperative addressed to the user ("Send me the link.", "Type
	// the first letters and I'll suggest names.") is a request too; one
	// that addresses nobody ("Search videos for a query.", a tool's
	// description) is not.
	imperative := len(s.words) > 1 && requestVerbs[s.words[0]] && slices.ContainsFunc(s.words[1:], func(w string) bool {
		return w == "me" || w == "us" || w == "your" || w == "you" || w == "i"
	})
	s.asks = framed && strings.Contains(text, "?") || imperative || requestRE.MatchString(text)
	// A list is a run of at least three bare items of one or two words.
	items := listItemRE.Split(text, -1)
	inList := make([]bool, len(items))
	for i := 0; i < len(items); {
		j := i
		for j < len(items) && bareItem(items[j]) {
			j++
		}
		if j-i >= MinListItems {
			for k := i; k < j; k++ {
				inList[k] = true
			}
		}
		i = max(j, i+1)
	}
	if slices.Contains(inList, true) {
		var rest []string
		for i, it := range items {
			if !inList[i] {
				rest = append(rest, it)
			}
		}
		b := newSentence(strings.Join(rest, ", "))
		s.bare = &b
	}
	return s
}

// MinListItems is the length of a run of bare words that makes a list.
const MinListItems = 3

// bareItem tells whether a list item is one or two words.
func bareItem(it string) bool {
	n := len(textmatch.Words(it))
	return n >= 1 && n <= 2
}

// requestRE recognises a request made without a question mark.
var requestRE = regexp.MustCompile(`(?i)\b(could you|can you|would you|please (provide|tell|share|specify|let|give|send|confirm|paste|upload|attach|enter|type|choose|pick|select)|let me know|tell me|i need|i'll need|i will need|need to know|need (a|an|the|your|some|more)|provide (the|your|a|an)|specify (the|your|a|an|which|what)|share (the|your|a|an)|if you (paste|send|share|give|tell|provide|type|upload|drop|let))\b`)

// mentionsAt tells whether a sentence refers to a parameter: one of its
// phrases in order (at most MaxGap words between its words), a phrase of
// two or more content words with all of them in the sentence, or one of
// its description terms as the head of a phrase (after a determiner,
// question word or preposition).
func (s sentence) mentions(v paramVocab) bool { return s.refers(v, true) }

// names tells whether a sentence refers to a parameter by a phrase, or by
// a description term right after a question word ("which source"): what
// counts for asking again for a parameter the user gave, where a
// description word that merely stands in the sentence ("for the next
// days") must not.
func (s sentence) names(v paramVocab) bool {
	if s.refers(v, false) {
		return true
	}
	for _, t := range v.terms {
		for i, l := range s.lems {
			if l != t {
				continue
			}
			for j := max(0, i-2); j < i; j++ {
				if questionWords[s.words[j]] {
					return true
				}
			}
		}
	}
	return false
}

func (s sentence) refers(v paramVocab, terms bool) bool {
	for _, p := range v.phrases {
		switch {
		case len(p) == 0:
		case len(p) == 1:
			if s.headAt(p) {
				return true
			}
		case textmatch.IndexRun(s.lems, p, MaxGap) >= 0:
			return true
		default:
			if content := contentLemmas(p); len(content) >= 2 && s.hasAll(content) {
				return true
			}
		}
	}
	if !terms {
		return false
	}
	for _, t := range v.terms {
		if s.headAt([]string{t}) {
			return true
		}
	}
	return false
}

// contentLemmas are the lemmas of a phrase that are not stop words.
func contentLemmas(p []string) []string {
	var out []string
	for _, l := range p {
		if !textmatch.IsStopWord(l) {
			out = append(out, l)
		}
	}
	return out
}

// hasAll tells whether the sentence holds every lemma.
func (s sentence) hasAll(ls []string) bool {
	for _, l := range ls {
		if !slices.Contains(s.lems, l) {
			return false
		}
	}
	return true
}

// headAt tells whether a one-word phrase is in the sentence as a question
// word or with a context word at most ContextReach words before it.
func (s sentence) headAt(p []string) bool {
	if len(p) != 1 {
		return false
	}
	for i, l := range s.lems {
		if l != p[0] {
			continue
		}
		if questionWords[s.words[i]] {
			return true
		}
		for j := max(0, i-ContextReach); j < i; j++ {
			if contextWords[s.words[j]] {
				return true
			}
		}
	}
	return false
}

// clarification is a reply split into sentences.
type clarification struct {
	sents []sentence
}

func newClarification(reply string) *clarification {
	c := &clarification{}
	from := 0
	add := func(text string) {
		if strings.TrimSpace(text) != "" {
			c.sents = append(c.sents, newSentence(text))
		}
	}
	for _, m := range sentenceRE.FindAllStringIndex(reply, -1) {
		// A parenthesis belongs to its sentence ("the year (Year. Ex:
		// 2025)?" is one question), unless a line ends in it.
		if strings.Count(reply[from:m[0]], "(") > strings.Count(reply[from:m[0]], ")") && !strings.Contains(reply[m[0]:m[1]], "\n") {
			continue
		}
		// A sentence keeps its question mark: it asks with it.
		add(reply[from:m[0]] + strings.Map(func(r rune) rune {
			if r == '?' {
				return r
			}
			return -1
		}, reply[m[0]:m[1]]))
		from = m[1]
	}
	add(reply[from:])
	return c
}

// asks tells whether some sentence asks.
func (c *clarification) asks() bool {
	for _, s := range c.sents {
		if s.asks {
			return true
		}
	}
	return false
}

// asks tells whether the reply asks for a missing parameter: a question
// or request refers to it by meaning, and not only among the bare words
// of a list.
func (c *clarification) asksFor(v paramVocab) bool {
	for _, s := range c.sents {
		if s.asks && s.mentions(v) && (s.bare == nil || s.bare.mentions(v)) {
			return true
		}
	}
	return false
}

// asksAgain tells whether the reply asks for a parameter the user gave,
// or that is optional: a question or request names it (by its name or a
// synonym; a list of names asks too) without restating the given value,
// or a sentence offers its other values ("format: png, jpeg or gif").
func (c *clarification) asksAgain(v paramVocab, p *toolset.Param, given any) bool {
	for _, s := range c.sents {
		if !s.names(v) && !(given != nil && s.touches(v)) {
			continue
		}
		if given != nil && offersChoice(s.text, p, given) {
			return true
		}
		if s.asks && s.names(v) && (given == nil || !statesGiven(s.text, given)) {
			return true
		}
	}
	return false
}

// touches tells whether a sentence holds the content words of one of a
// parameter's phrases, wherever they stand.
func (s sentence) touches(v paramVocab) bool {
	for _, p := range v.phrases {
		if content := contentLemmas(p); len(content) > 0 && s.hasAll(content) {
			return true
		}
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

// exampleRE finds a documented example in a sentence ("Ex: USD", "e.g.
// 2025").
var exampleRE = regexp.MustCompile(`(?i)\b(?:ex|e\.g|eg|example|for example|for instance)\s*[:.]\s*[^,;()]*`)

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
	// A documented example ("Ex: 2025") is no value of the user's.
	norm := textmatch.Normalized(exampleRE.ReplaceAllString(sentence, " "))
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
var Criterion = fmt.Sprintf("no tool call, and the reply asks, in its own questions or requests, for every missing parameter by meaning (its name, its synonyms, a key word of its description no other parameter shares; lemmatised, up to %d words apart, a single word as the head of a phrase), not in a word list or one-word sentences; it asks for no parameter the user gave, brings up at most %.0f%% of the optional ones (at least one) and not every parameter of the API; calls made anyway are classified by mistake kind", MaxGap, MaxExtraShare*100)

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
	reply = withoutToolNames(api, OwnSentences(in.Text, reply))
	c := newClarification(reply)
	out := Verdict{Asks: c.asks()}
	// A remark in brackets explains, it does not ask ("the language (of
	// the input text)").
	plain := newClarification(bracketRE.ReplaceAllString(reply, " "))
	vs := vocabs(api, in.Missing)
	missing := map[string]bool{}
	for _, m := range in.Missing {
		missing[m] = true
		if !c.asksFor(vs[m]) {
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
		v := vs[p.Name]
		switch {
		case present || p.Required:
			// Every required parameter not missing was given (that is what
			// Missing means), with or without a recorded value.
			if plain.asksAgain(v, p, given) {
				out.Regiven = append(out.Regiven, p.Name)
			}
			if c.asksAgain(v, p, given) {
				named++
			}
		default:
			optional++
			if plain.asksAgain(v, p, nil) {
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

// OwnSentences drops the sentences of a reply that repeat the user's text:
// handing the user's own question back is not asking for anything.
func OwnSentences(question, reply string) string {
	// The other sentences are kept as written, so that a sentence the
	// reply runs on (a parenthesis with full stops) stays one.
	q := textmatch.Normalized(question)
	lines := strings.Split(reply, "\n")
	for i, line := range lines {
		var b strings.Builder
		for _, s := range textmatch.Sentences(line) {
			if n := textmatch.Normalized(s); strings.TrimSpace(n) != "" && strings.Contains(q, n) {
				s = "\n"
			}
			b.WriteString(s)
		}
		lines[i] = b.String()
	}
	return strings.Join(lines, "\n")
}

// Asks tells whether a text makes a request to the user: a question
// (with a question word, an auxiliary or a request verb) or a request's
// wording.
func Asks(text string) bool { return newClarification(text).asks() }

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
