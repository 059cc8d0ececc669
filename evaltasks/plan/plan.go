// Package plan is Task 8's rule scorer: how much of a coherent group's APIs and key steps a written plan covers, in dependency order.
package plan

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/toolset"
)

// MinCoverage is the coverage of group APIs and key steps a plan must reach.
const MinCoverage = 0.6

// Criterion says how the scorer decides, for reports.
var Criterion = fmt.Sprintf("the plan, read as steps, reaches %.0f%% coverage of the group's APIs and key steps: an API counts when a step names it (or its function) and says what it does (its description's or a key step's words), and not when it is planned before the API that provides its input; a key step counts when one step states it; a step that copies %d words in a row of a tool's description counts for nothing", MinCoverage*100, CopyRun)

// Scorer reads plans against the catalog and its dependency graph.
type Scorer struct {
	Catalog *toolset.Catalog
	// Graph orders the steps: a step that uses an API before the one
	// that provides its input does not count. Nil checks no order.
	Graph *deps.Graph
}

// Task 8 asks whether the outline is sound, covers the provided APIs and
// understands what each does (the evaluation paper, §3.4). Mentioning a
// name is not using it: a list of every offered tool with its description
// names them all and plans nothing. So the plan is read as steps, and
//   - an API counts when a step names it (or its function) and says what
//     it does there: words of its purpose (its description) or of a key
//     step, in the step's own words (the written names of tools and APIs
//     taken out, so a line of names says nothing);
//   - a step that uses an API before a step that provides its input
//     (a dependency of the deps graph) does not count for that API;
//   - a key step counts when one step states it;
//   - a step that copies the tools' documentation (a run of CopyRun words
//     of an offered tool's description) counts for nothing: copying says
//     what a tool is, not what this plan does with it.

// CopyRun is the length of a run of words shared with a tool description
// that makes a step a copy of it. Plans paraphrase; six words in a row
// taken from a description are a quotation.
const CopyRun = 6

// planStep is one step of a plan: its text, word set and normalised form.
type planStep struct {
	text  string
	words textmatch.WordSet
	norm  string
}

// listItemRE recognises a numbered or bulleted line: "1.", "2)", "Step 3:", "-", "*", "•".
var listItemRE = regexp.MustCompile(`(?i)^\s*(?:(?:step\s*)?\d{1,2}\s*[.):]|[-*•+]\s|#{1,4}\s*(?:step\s*)?\d{1,2})`)

// planSteps splits a plan into steps: its list items when it has at least
// two (each with the lines that follow it), else its sentences.
func planSteps(plan string) []planStep {
	lines := strings.Split(strings.ReplaceAll(plan, "\r\n", "\n"), "\n")
	items := 0
	for _, l := range lines {
		if listItemRE.MatchString(l) {
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
			case listItemRE.MatchString(l):
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
		texts = textmatch.Sentences(plan)
	}
	var out []planStep
	for _, t := range texts {
		if strings.TrimSpace(t) == "" {
			continue
		}
		out = append(out, planStep{text: t, words: textmatch.NewWordSet(t), norm: textmatch.Normalized(t)})
	}
	return out
}

// functionalWords are the words of an API name that say what it does.
func functionalWords(name string) []string {
	var out []string
	for _, w := range textmatch.SplitName(name) {
		if !textmatch.IsGenericWord(w) && !textmatch.IsStopWord(w) && w != "for" && w != "by" && len(w) > 1 {
			out = append(out, textmatch.Stem(w))
		}
	}
	return out
}

// names are the ways a plan may write an API's name.
func names(a *toolset.API) []string {
	return []string{a.ID(), toolset.ExportName(a, toolset.NameDotted), toolset.ExportName(a, toolset.NameToolBench), a.FunctionName(), a.Name}
}

// refersTo tells whether a step refers to an API: by one of its names, or
// by every functional word of its name; a name of one word that other
// offered APIs share ("search") needs a word of the tool's name too.
func refersTo(a *toolset.API, st planStep, ambiguous map[string]bool) bool {
	return namedIn(a, st) || describedIn(a, st, ambiguous)
}

// namedIn tells whether a step writes one of the API's names.
func namedIn(a *toolset.API, st planStep) bool {
	for _, n := range names(a) {
		// A one-word API name ("search") is an ordinary word: it refers
		// by the functional-word rule of describedIn.
		if n == a.Name && len(textmatch.SplitName(n)) < 2 {
			continue
		}
		if strings.Contains(st.norm, textmatch.Normalized(n)) {
			return true
		}
	}
	return false
}

// nameWords are the words that say what an API does: its functional
// words, or all its name's words when they are generic ("search"); generic
// tells which.
func nameWords(a *toolset.API) (fw []string, generic bool) {
	if fw = functionalWords(a.Name); len(fw) > 0 {
		return fw, false
	}
	for _, w := range textmatch.SplitName(a.Name) {
		fw = append(fw, textmatch.Stem(w))
	}
	return fw, true
}

// describedIn tells whether a step holds every functional word of the
// API's name (with a word of its tool's name when the name is generic or
// shared by other offered APIs).
func describedIn(a *toolset.API, st planStep, ambiguous map[string]bool) bool {
	fw, generic := nameWords(a)
	if len(fw) == 0 {
		return false
	}
	squashed := strings.ReplaceAll(st.norm, " ", "")
	for _, w := range fw {
		if !st.words[w] && !(len(w) >= 6 && strings.Contains(squashed, w)) {
			return false
		}
	}
	if len(fw) == 1 && (ambiguous[fw[0]] || generic) {
		for _, w := range functionalWords(a.Tool.StandardizedName) {
			if w != fw[0] && st.words[w] {
				return true
			}
		}
		return false
	}
	return true
}

// explainedBy tells whether the words that describe API a in a step are
// those of another API the step names outright: "search flights with
// skyscanner80-flights_search_one_way" names the search, not
// flights_detail, although it holds "flights" and the tool's name.
func explainedBy(a *toolset.API, named []*toolset.API) bool {
	fw, _ := nameWords(a)
	for _, o := range named {
		if o == a {
			continue
		}
		ow, _ := nameWords(o)
		if textmatch.NewWordSet(strings.Join(ow, " ")).Coverage(strings.Join(fw, " ")) == 1 {
			return true
		}
	}
	return false
}

// purposeWords are the content words that say what an API is for: those
// of its description.
func purposeWords(a *toolset.API) textmatch.WordSet {
	s := textmatch.WordSet{}
	for _, w := range textmatch.ContentWords(a.Description) {
		if !textmatch.IsVagueWord(w) && len(w) > 2 {
			s[w] = true
		}
	}
	return s
}

// identifierRE finds identifiers: words joined by '_', '-' or '.'.
var identifierRE = regexp.MustCompile(`[A-Za-z0-9]+(?:[_.-][A-Za-z0-9]+)+`)

// stripIdentifiers takes the written names of tools and APIs out of a
// step: a name says what is called, not what for, and a line of names
// ("Tools: a, b, c") says nothing.
func stripIdentifiers(text string, known map[string]bool) string {
	return identifierRE.ReplaceAllStringFunc(text, func(id string) string {
		if known[strings.ToLower(strings.Trim(id, ".-_"))] {
			return " "
		}
		return id
	})
}

// offeredAPIs are the APIs of the offered tools and of the group.
func (s *Scorer) offeredAPIs(in *dataset.Instruction, tools []toolset.OpenAITool) []*toolset.API {
	var out []*toolset.API
	for _, t := range tools {
		if a := s.Catalog.APIByExportName(t.Function.Name); a != nil {
			out = append(out, a)
		}
	}
	for _, id := range in.GroupAPIs {
		if a := dataset.ResolveAPI(s.Catalog, id); a != nil {
			out = append(out, a)
		}
	}
	return out
}

// ambiguousWords are the functional words that name more than one of the
// APIs ("search" of search_hotels and web_search).
func ambiguousWords(apis []*toolset.API) map[string]bool {
	seen := map[string]string{}
	out := map[string]bool{}
	for _, a := range apis {
		for _, w := range functionalWords(a.Name) {
			if id, ok := seen[w]; ok && id != a.ID() {
				out[w] = true
			}
			seen[w] = a.ID()
		}
	}
	return out
}

// usesFor tells whether a step says what an API does there: a word of the
// API's purpose or of a key step in its prose.
func usesFor(words, purpose, keyWords textmatch.WordSet) bool {
	for w := range words {
		if textmatch.IsVagueWord(w) || textmatch.IsStopWord(w) {
			continue
		}
		if purpose[w] || keyWords[w] {
			return true
		}
	}
	return false
}

// identifiers are the written names of APIs and tools, lower-cased.
func identifiers(apis []*toolset.API) map[string]bool {
	out := map[string]bool{}
	for _, a := range apis {
		for _, n := range append(names(a), a.Tool.StandardizedName, a.Tool.Name) {
			n = strings.ToLower(n)
			if identifierRE.MatchString(n) && identifierRE.FindString(n) == n {
				out[n] = true
			}
		}
	}
	return out
}

// docRuns are the runs of CopyRun words of the offered tools'
// descriptions, as the agent saw them and as the catalog writes them.
func (s *Scorer) docRuns(tools []toolset.OpenAITool) map[string]bool {
	runs := map[string]bool{}
	add := func(text string) {
		ws := textmatch.Words(text)
		for i := 0; i+CopyRun <= len(ws); i++ {
			runs[strings.Join(ws[i:i+CopyRun], " ")] = true
		}
	}
	for _, t := range tools {
		add(t.Function.Description)
		if a := s.Catalog.APIByExportName(t.Function.Name); a != nil {
			add(a.Description)
		}
	}
	return runs
}

// copies tells whether a step's words hold a run of a tool description.
func copies(text string, runs map[string]bool) bool {
	ws := textmatch.Words(text)
	for i := 0; i+CopyRun <= len(ws); i++ {
		if runs[strings.Join(ws[i:i+CopyRun], " ")] {
			return true
		}
	}
	return false
}

// Verdict is the reading of a plan.
type Verdict struct {
	// Missed are the group APIs (with why, when planned out of order) and
	// key steps the plan does not cover.
	Missed   []string
	Coverage float64
	// Copied counts the steps that copy the tools' documentation.
	Copied int
}

// Pass tells whether the plan reaches MinCoverage.
func (v Verdict) Pass() bool { return v.Coverage >= MinCoverage-1e-9 }

// Read measures a Task-8 plan against an instruction: the share of its
// group APIs used for their purpose in dependency order and of its key
// steps stated, pooled, over the steps that are not copies of the tools'
// documentation.
//
// tools are the tools offered to the agent, as it saw them.
func (s *Scorer) Read(in *dataset.Instruction, tools []toolset.OpenAITool, plan string) Verdict {
	total := len(in.GroupAPIs) + len(in.KeySteps)
	if total == 0 {
		return Verdict{Coverage: 1}
	}
	var v Verdict
	runs := s.docRuns(tools)
	var steps []planStep
	known := identifiers(s.offeredAPIs(in, tools))
	for _, st := range planSteps(plan) {
		if copies(stripIdentifiers(st.text, known), runs) {
			v.Copied++
			continue
		}
		steps = append(steps, st)
	}
	// The key steps' words say what is done, but their names (a place:
	// "find the Paris destination id") and numbers say where and when.
	keyWords := textmatch.WordSet{}
	for _, k := range in.KeySteps {
		for _, w := range strings.Fields(k) {
			w = strings.Trim(w, ".,;:!?'\"()")
			if w == "" || unicode.IsUpper([]rune(w)[0]) || textmatch.HasDigit(w) {
				continue
			}
			for _, cw := range textmatch.ContentWords(w) {
				keyWords[cw] = true
			}
		}
	}
	apis := map[string]*toolset.API{}
	for _, id := range in.GroupAPIs {
		if a := dataset.ResolveAPI(s.Catalog, id); a != nil {
			apis[id] = a
		}
	}
	ambiguous := ambiguousWords(s.offeredAPIs(in, tools))
	words := make([]textmatch.WordSet, len(steps))
	for i, st := range steps {
		words[i] = textmatch.NewWordSet(stripIdentifiers(st.text, known))
	}
	// named[i] are the offered APIs step i names outright.
	offered := s.offeredAPIs(in, tools)
	named := make([][]*toolset.API, len(steps))
	for i, st := range steps {
		for _, o := range offered {
			if namedIn(o, st) {
				named[i] = append(named[i], o)
			}
		}
	}
	// first[id] is the index of the first step that uses the API.
	first := map[string]int{}
	for _, id := range in.GroupAPIs {
		a := apis[id]
		if a == nil {
			continue
		}
		purpose := purposeWords(a)
		for i, st := range steps {
			refers := namedIn(a, st) || describedIn(a, st, ambiguous) && !explainedBy(a, named[i])
			if refers && usesFor(words[i], purpose, keyWords) {
				first[id] = i
				break
			}
		}
	}
	for _, id := range in.GroupAPIs {
		i, used := first[id]
		if !used {
			v.Missed = append(v.Missed, id)
			continue
		}
		if p := s.providedLater(apis, first, id, i); p != "" {
			v.Missed = append(v.Missed, fmt.Sprintf("%s (planned before %s, which provides its input)", id, p))
		}
	}
	for _, k := range in.KeySteps {
		stated := false
		for _, st := range steps {
			if textmatch.Covers(st.text, st.words, k) {
				stated = true
				break
			}
		}
		if !stated {
			v.Missed = append(v.Missed, k)
		}
	}
	v.Coverage = float64(total-len(v.Missed)) / float64(total)
	return v
}

// providedLater names a group API the plan uses only after step i although
// it provides an input of API id (a dependency of the deps graph); "" when
// the order is sound. A parameter with several providers in the group is
// satisfied by any of them that comes first.
func (s *Scorer) providedLater(apis map[string]*toolset.API, first map[string]int, id string, i int) string {
	if s.Graph == nil || apis[id] == nil {
		return ""
	}
	inGroup := map[string]string{} // API ID → group id
	for gid, a := range apis {
		inGroup[a.ID()] = gid
	}
	byParam := map[string][]string{}
	var params []string
	for _, e := range s.Graph.Into(apis[id].ID()) {
		gid, ok := inGroup[e.From]
		if !ok || e.From == apis[id].ID() {
			continue
		}
		if _, used := first[gid]; !used {
			continue
		}
		if _, seen := byParam[e.Param]; !seen {
			params = append(params, e.Param)
		}
		byParam[e.Param] = append(byParam[e.Param], gid)
	}
	for _, p := range params {
		late := ""
		ok := false
		for _, gid := range byParam[p] {
			if first[gid] <= i {
				ok = true
			} else if late == "" {
				late = gid
			}
		}
		if !ok {
			return late
		}
	}
	return ""
}

// Gold is the oracle's Task-8 answer, from the annotations alone: a
// step per group API, in order, saying which key step it serves (the key
// step sharing most words with the API's name and description), then the
// key steps no API serves.
func (s *Scorer) Gold(in *dataset.Instruction) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Plan for %q:\n", in.Text)
	served := map[int]bool{}
	n := 0
	for _, id := range in.GroupAPIs {
		a := dataset.ResolveAPI(s.Catalog, id)
		if a == nil {
			continue
		}
		about := textmatch.WordSet{}
		for _, w := range functionalWords(a.Name) {
			about[w] = true
		}
		for w := range purposeWords(a) {
			about[w] = true
		}
		best, bestN := -1, 0
		for k, st := range in.KeySteps {
			shared := 0
			for _, w := range textmatch.Dedupe(textmatch.ContentWords(st)) {
				if about[w] && !textmatch.IsVagueWord(w) {
					shared++
				}
			}
			if shared > bestN {
				best, bestN = k, shared
			}
		}
		what := strings.Join(functionalWords(a.Name), " ")
		if best >= 0 {
			what, served[best] = in.KeySteps[best], true
		}
		n++
		fmt.Fprintf(&b, "%d. %s, with %s.\n", n, what, toolset.ExportName(a, toolset.NameDotted))
	}
	for k, st := range in.KeySteps {
		if !served[k] {
			n++
			fmt.Fprintf(&b, "%d. %s.\n", n, st)
		}
	}
	return b.String()
}
