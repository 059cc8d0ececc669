package reading

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/toolset"
)

// The steps a plan plans. A plan is read as items (its list items, table
// rows or sentences), each cut into steps where another action starts; a
// step is one action on one object, with the APIs it names. Markdown
// (lists, bold, code spans, tables) is read as the text it marks up.
//
// A step says what it does with its verb (the first action of its prose
// that is not a mere "call" or "use") or, when its prose has none, with
// the actions of the APIs it names: "resize_image — to 640 px" resizes,
// and naming an API whose name holds no action calls it, which is getting
// what it returns ("flights_auto_complete — IDs for Madrid"). A step whose
// prose packs many actions, or a run of content words no sentence would
// hold, says nothing: a reader cannot tell what it does.

// Step is one action of a plan on one object.
type Step struct {
	// Text is the step as written.
	Text string
	// Item is the index of the plan item the step belongs to.
	Item int
	// Lemmas are the lemmas of every word of the step, the words of the
	// names it writes included (a step that calls compress_image
	// compresses), and the kind of the values it writes: a URL is a page,
	// a pair of decimals is coordinates.
	Lemmas []string
	// Prose are the lemmas of the step's words besides the names of APIs
	// and tools, stop words and the vague words of API documentation left
	// out: what the step says in its own words.
	Prose []string
	// Chain are the lemmas of the prose of the steps joined to this one
	// by arrows or "then" within its item ("A → B — the hotels for the
	// dates"): what a step that only names an API is for.
	Chain []string
	// Actions are the lemmas of what the step does: its verb, with the
	// actions of the APIs it names; "call" when it names an API and says
	// no action.
	Actions []string
	// APIs are the APIs the step names, in the order it names them.
	APIs []*toolset.API
	// Optional tells whether the step is marked as optional or
	// conditional ("(optional)", "if needed").
	Optional bool
	// Packed tells whether the step packs many actions or a bag of
	// words: it plans nothing.
	Packed bool
}

// Plan is a plan read once: its items as written and the steps they plan.
type Plan struct {
	Items []string
	Steps []Step
}

// MaxActions is how many distinct actions of its own a step may name:
// "search the flights to compare the fares" does two things in one
// breath; four in one clause are a list of verbs, not a step.
const MaxActions = 3

// MaxContentRun is the longest run of content words (no function word or
// punctuation between them) a step may hold: "Kyoto late-September
// weather forecast" is a phrase, a dozen nouns in a row are a bag.
const MaxContentRun = 6

// planItemRE recognises a numbered or bulleted line: "1.", "2)", "Step 3:", "-", "*", "•".
var planItemRE = regexp.MustCompile(`(?i)^\s*(?:(?:step\s*)?\d{1,2}\s*[.):]|[-*•+]\s|#{1,4}\s*(?:step\s*)?\d{1,2})`)

// markupRE are the marks of emphasis and code that say nothing.
var markupRE = regexp.MustCompile("\\*\\*|__|`")

// plainLine is a line with its markup read as text: emphasis and code
// marks dropped, a table row's cells joined as one line.
func plainLine(l string) string {
	l = markupRE.ReplaceAllString(l, "")
	if t := strings.TrimSpace(l); strings.HasPrefix(t, "|") {
		cells := strings.Split(strings.Trim(t, "|"), "|")
		for i, c := range cells {
			cells[i] = strings.TrimSpace(c)
		}
		l = strings.Join(cells, " — ")
	}
	return l
}

// Items splits a plan into its items: its list items (each with the
// lines that follow it) and table rows when it has at least two, else
// its sentences. Markup is read as text.
func Items(plan string) []string {
	var lines []string
	table := 0
	for _, l := range strings.Split(strings.ReplaceAll(plan, "\r\n", "\n"), "\n") {
		if tableRuleRE.MatchString(l) && strings.Contains(l, "-") {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(l), "|") {
			table++
			lines = append(lines, "- "+plainLine(l))
			continue
		}
		lines = append(lines, plainLine(l))
	}
	items := 0
	for _, l := range lines {
		if planItemRE.MatchString(l) {
			items++
		}
	}
	var texts []string
	if items >= 2 {
		var cur []string
		flush := func() {
			if len(cur) > 0 {
				texts = append(texts, strings.Join(cur, " "))
				cur = nil
			}
		}
		for _, l := range lines {
			switch {
			case planItemRE.MatchString(l):
				flush()
				cur = append(cur, l)
			case strings.TrimSpace(l) == "":
				flush()
			default:
				if len(cur) == 0 {
					texts = append(texts, l) // a line before the list or between items
					continue
				}
				cur = append(cur, l)
			}
		}
		flush()
	} else {
		texts = textmatch.Sentences(strings.Join(lines, "\n"))
	}
	var out []string
	for _, t := range texts {
		if strings.TrimSpace(t) != "" {
			out = append(out, t)
		}
	}
	return out
}

// Names are the ways a plan may write an API's name: its catalog ID, its
// exported names, its function name and its own name when that has more
// than one word ("search" alone is an ordinary word).
func Names(a *toolset.API) []string {
	out := []string{a.ID(), toolset.ExportName(a, toolset.NameDotted), toolset.ExportName(a, toolset.NameToolBench), a.FunctionName()}
	if len(textmatch.SplitName(a.Name)) >= 2 {
		out = append(out, a.Name)
	}
	return out
}

// identifierRE finds identifiers: words joined by '_', '-' or '.'.
var identifierRE = regexp.MustCompile(`[A-Za-z0-9]+(?:[_.-][A-Za-z0-9]+)+`)

// Identifiers are the written names of APIs and their tools, lower-cased,
// that read as identifiers (words joined by '_', '-' or '.').
func Identifiers(apis []*toolset.API) map[string]bool {
	out := map[string]bool{}
	for _, a := range apis {
		for _, n := range append(Names(a), a.Name, a.Tool.StandardizedName, a.Tool.Name) {
			n = strings.ToLower(n)
			if identifierRE.FindString(n) == n {
				out[n] = true
			}
		}
	}
	return out
}

// StripIdentifiers takes the written names of tools and APIs out of a
// text: a name says what is called, not what for.
func StripIdentifiers(text string, known map[string]bool) string {
	return identifierRE.ReplaceAllStringFunc(text, func(id string) string {
		if known[strings.ToLower(strings.Trim(id, ".-_"))] {
			return " "
		}
		return id
	})
}

// reader holds what a plan is read against.
type reader struct {
	apis  []*toolset.API
	known map[string]bool
	names [][]string // normalised names of each API
}

// ReadPlan reads a plan against the APIs it may name (the offered ones
// and those of the request's group).
func ReadPlan(text string, apis []*toolset.API) Plan {
	r := reader{apis: apis, known: Identifiers(apis)}
	for _, a := range apis {
		var ns []string
		for _, n := range Names(a) {
			if s := strings.TrimSpace(textmatch.Normalized(n)); s != "" {
				ns = append(ns, " "+s+" ")
			}
		}
		r.names = append(r.names, ns)
	}
	p := Plan{Items: Items(text)}
	for i, item := range p.Items {
		p.Steps = append(p.Steps, r.steps(i, item)...)
	}
	return p
}

// steps reads one item's steps.
func (r reader) steps(item int, text string) []Step {
	optionalItem := stepOptionalRE.MatchString(text)
	// The item's number or bullet is no word of its steps.
	text = planItemRE.ReplaceAllString(text, "")
	var out []Step
	chainStart := 0
	for _, c := range splitClauses(text, r.isName) {
		if !c.linked {
			r.closeChain(out[chainStart:])
			chainStart = len(out)
		}
		st := Step{Text: c.text, Item: item, Lemmas: append(textmatch.Lemmas(c.text), kinds(c.text)...), APIs: r.named(c.text)}
		words := textmatch.Words(camelRE.ReplaceAllString(StripIdentifiers(c.text, r.known), "$1 $2"))
		for _, w := range words {
			if !textmatch.IsStopWord(w) && !textmatch.IsVagueWord(w) && len(w) > 1 {
				st.Prose = append(st.Prose, textmatch.Lemma(w))
			}
		}
		st.Actions, st.Packed = actions(words)
		if !st.Packed && longestContentRun(StripIdentifiers(c.text, r.known)) > MaxContentRun {
			st.Packed = true
		}
		for _, a := range st.APIs {
			for _, w := range textmatch.SplitName(a.Name) {
				// A noun of the name is no action ("location" is not
				// "locate").
				if l := textmatch.Lemma(w); !strings.HasSuffix(w, "ion") && actionLemmas[l] && !carriers[l] && !slices.Contains(st.Actions, l) {
					st.Actions = append(st.Actions, l)
				}
			}
		}
		switch {
		case st.Packed:
			st.Actions = nil
		case len(st.Actions) == 0 && len(st.APIs) > 0:
			st.Actions = []string{"call"}
		}
		st.Optional = optionalItem || stepOptionalRE.MatchString(c.text)
		out = append(out, st)
	}
	r.closeChain(out[chainStart:])
	return out
}

// coordinatesRE is a latitude and longitude written as numbers.
var coordinatesRE = regexp.MustCompile(`-?\d{1,3}\.\d+°?\s*[NS]?\s*,\s*-?\d{1,3}\.\d+`)

// kinds are the lemmas of what a text's values are: a URL names a page,
// a pair of decimals coordinates.
func kinds(text string) []string {
	var out []string
	if textmatch.URLPattern.MatchString(text) {
		out = append(out, textmatch.Lemmas("page url link")...)
	}
	if coordinatesRE.MatchString(text) {
		out = append(out, textmatch.Lemmas("coordinates")...)
	}
	return out
}

// closeChain gives the steps of a chain the prose of all of them.
func (r reader) closeChain(chain []Step) {
	var all []string
	for _, st := range chain {
		all = append(all, st.Prose...)
	}
	for i := range chain {
		chain[i].Chain = all
	}
}

// named are the APIs a text names, in the order it names them.
func (r reader) named(text string) []*toolset.API {
	norm := textmatch.Normalized(text)
	type at struct {
		a   *toolset.API
		pos int
	}
	var found []at
	for i, a := range r.apis {
		best := -1
		for _, n := range r.names[i] {
			if j := strings.Index(norm, n); j >= 0 && (best < 0 || j < best) {
				best = j
			}
		}
		if best >= 0 && !slices.ContainsFunc(found, func(x at) bool { return x.a == a }) {
			found = append(found, at{a, best})
		}
	}
	slices.SortStableFunc(found, func(x, y at) int { return x.pos - y.pos })
	out := make([]*toolset.API, len(found))
	for i, f := range found {
		out[i] = f.a
	}
	return out
}

// isName tells whether a written token is an API's or tool's name.
func (r reader) isName(tok string) bool {
	t := strings.ToLower(strings.Trim(tok, ".,;:!?()[]*`'\""))
	return t != "" && r.known[t]
}

// stepOptionalRE finds what marks a step as optional or conditional.
var stepOptionalRE = regexp.MustCompile(`(?i)\boptional(?:ly)?\b|\bif (?:needed|necessary|required|wanted|useful|helpful|you (?:want|like|'d like|prefer|wish)|it'?s? still|that comes up|any)\b|\bas needed\b|\bfallback\b|\bwhere needed\b`)

// carriers are the actions that say only that an API is called.
var carriers = map[string]bool{}

// actionLemmas are the lemmas of the actions plans are made of.
var actionLemmas = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`get fetch retrieve obtain pull grab look collect gather load download request query
		list show display give read check see review find search locate identify determine discover detect extract
		spot recognise recognize geocode inspect examine verify confirm compute calculate work figure evaluate
		multiply divide add sum total tally average subtract count scale split convert exchange translate summarise
		summarize condense combine compile put assemble write draft compose present report describe outline merge
		build create make produce prepare pick choose select decide recommend suggest filter keep narrow rank sort
		order compare contrast weigh wait poll retry repeat resize compress shrink reduce optimise optimize capture
		screenshot take remove cut strip erase call use run invoke pass feed send upload`) {
		actionLemmas[textmatch.Lemma(w)] = true
	}
	for _, w := range strings.Fields(`call use run invoke query request pass feed send`) {
		carriers[textmatch.Lemma(w)] = true
	}
}

// IsAction tells whether a word is an action plans are made of.
func IsAction(w string) bool {
	return actionLemmas[textmatch.Lemma(strings.ToLower(strings.Trim(w, ",.;:!?()`*")))]
}

// actions reads a step's verbs from its words: the first action that is
// no carrier ("call X to resize" resizes), else the first carrier; packed
// when the words hold more than MaxActions distinct actions of their own.
func actions(words []string) ([]string, bool) {
	var own []string
	carrier := ""
	for _, w := range words {
		l := textmatch.Lemma(w)
		switch {
		case !actionLemmas[l]:
		case carriers[l]:
			if carrier == "" {
				carrier = l
			}
		case !slices.Contains(own, l):
			own = append(own, l)
		}
	}
	if len(own) > MaxActions {
		return nil, true
	}
	if len(own) > 0 {
		return own[:1], false
	}
	if carrier != "" {
		return []string{carrier}, false
	}
	return nil, false
}

// longestContentRun is the longest run of a text's words that are
// neither function words nor split by punctuation.
func longestContentRun(text string) int {
	best, run := 0, 0
	for _, f := range strings.Fields(text) {
		core := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		w := strings.ToLower(core)
		if w == "" || textmatch.IsStopWord(w) || textmatch.HasDigit(w) || boundaryWords[w] {
			run = 0
			continue
		}
		run++
		best = max(best, run)
		if core != strings.TrimRight(f, "'\"") || strings.ContainsAny(f, ",;:()—–") {
			run = 0 // punctuation after the word ends the run
		}
	}
	return best
}

// boundaryWords are the function words stop words leave out that join
// phrases in a sentence.
var boundaryWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`not no nor per via within over under before after during until while near like
		plus vs versus both either neither every other another`) {
		boundaryWords[w] = true
	}
}

// clause is a piece of an item that does one thing, and whether it is
// joined to the one before it by an arrow or "then".
type clause struct {
	text   string
	linked bool
}

// splitClauses cuts an item into clauses: at semicolons and sentence
// ends, at arrows between the names of APIs ("A → B"), at the words that
// start another action ("then", "finally", "after that"), and at a comma
// or "and" followed by an action ("…, check the reviews", "and convert
// the price").
func splitClauses(text string, isName func(string) bool) []clause {
	var out []clause
	var cur []string
	curLinked := false
	// cut ends the clause so far; the next one is linked to it when the
	// cut is an arrow between names or "then".
	cut := func(link bool) {
		if len(cur) > 0 {
			out = append(out, clause{text: strings.Join(cur, " "), linked: curLinked})
			cur = nil
			curLinked = link
			return
		}
		curLinked = curLinked || link && len(out) > 0
	}
	fields := strings.Fields(text)
	for i, f := range fields {
		low := strings.ToLower(strings.Trim(f, ",.;:!?()*`"))
		next, prev := "", ""
		if i+1 < len(fields) {
			next = fields[i+1]
		}
		if i > 0 {
			prev = fields[i-1]
		}
		switch {
		case f == "→" || f == "->" || f == "=>" || f == "⇒":
			if isName(next) || isName(prev) {
				cut(true)
				continue
			}
		case low == "then" || low == "finally" || low == "afterwards" || low == "after" && strings.HasPrefix(strings.ToLower(next), "that"):
			cut(low == "then")
		case low == "and" && IsAction(next) && !bare(cur):
			cut(false)
			continue
		}
		cur = append(cur, f)
		end := strings.HasSuffix(f, ";") || strings.HasSuffix(f, ".") || strings.HasSuffix(f, "!") || strings.HasSuffix(f, "?")
		// Not an end: a list marker ("1.") or an abbreviation ("(e.g.").
		marker := len(cur) == 1 && listMarkerRE.MatchString(f)
		if end && !marker && !slices.Contains([]string{"e.g.", "i.e.", "etc.", "approx.", "vs."}, strings.ToLower(strings.TrimLeft(f, "(["))) ||
			strings.HasSuffix(f, ",") && IsAction(next) && !bare(cur) {
			cut(false)
		}
	}
	cut(false)
	return out
}

// bare tells whether a clause so far is only actions ("find, check,"): a
// list of verbs stays one clause, which packs them.
func bare(cur []string) bool {
	for _, f := range cur {
		if !IsAction(f) {
			return false
		}
	}
	return len(cur) > 0
}

// listMarkerRE is a list item's number or step label ("1.", "2)", "Step").
var listMarkerRE = regexp.MustCompile(`^(?:\d{1,2}[.)]|#+|[-*•+])$`)

// Copies tells whether a text copies a description: it holds a run of
// CopyRun of its words, or all of a description shorter than that but of
// at least MinCopied words. Plans paraphrase, and share phrases with the
// documentation ("the time zone and current local time"); a description
// written out whole is a quotation.
func Copies(text string, descriptions []string) bool {
	ws := textmatch.Words(text)
	for _, d := range descriptions {
		dw := textmatch.Words(d)
		n := min(CopyRun, len(dw))
		if n < MinCopied {
			continue
		}
		for i := 0; i+n <= len(dw); i++ {
			if textmatch.IndexRun(ws, dw[i:i+n], 0) >= 0 {
				return true
			}
		}
	}
	return false
}

// CopyRun is the length of a run of a description's words that makes a
// text a copy of it; MinCopied the shortest description that can be
// copied.
const (
	CopyRun   = 12
	MinCopied = 8
)
