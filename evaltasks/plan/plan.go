// Package plan is Task 8's rule scorer: how much of a coherent group's APIs and key steps a written plan covers, in dependency order.
package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/toolset"
)

// MinCoverage is the coverage of group APIs and key steps a plan must reach.
const MinCoverage = 0.6

// Criterion says how the scorer decides, for reports.
var Criterion = fmt.Sprintf("the plan reaches %.0f%% coverage of the group's APIs and key steps, counted over their number plus the offered APIs it uses that the request does not need; read once as ordered steps, each one action on one object with the APIs it names (markdown read as text; an arrow or \"then\" between two APIs plans both) and counting for one API and one key step; a step packing more than %d actions or a bag of words counts for nothing: an API counts when a step names it (or its function) and says what it does there beyond its name (words of its description, a key step or the request, a value it gives), not when planned before the API that provides its input; alternatives (calculator or python_interpreter) are any-of; an API the documentation sends a plan to from a group API (named in its description, or naming the group API it completes: polling a search, fetching its details) is needed, and one in a step marked optional costs nothing; a key step counts when a step's own action is its action (or the action of the API it names) and the step holds its thing, by meaning (lemmas, synonyms of terms.json), and the plan names its places, numbers and currencies; an item copying %d words in a row of a tool's description (or all of a shorter one) counts for nothing, though it still places its API for the order", MinCoverage*100, reading.MaxActions, reading.CopyRun)

// Scorer reads plans against the catalog and its dependency graph.
type Scorer struct {
	Catalog *toolset.Catalog
	// Graph orders the steps: a step that uses an API before the one
	// that provides its input does not count. Nil checks no order.
	Graph *deps.Graph
}

// Task 8 asks whether the outline is sound, covers the provided APIs and
// understands what each does (the evaluation paper, §3.4). Mentioning a
// name is not using it, and a plan is judged on what it does, not on the
// words it holds. The plan is read once (reading.ReadPlan) and every check
// below consumes that reading:
//   - it is read as ordered steps, each one action on one object, cut
//     where another action starts ("…, then …", "… and convert …", an
//     arrow between two APIs); a step counts for at most one group API
//     and one key step, so one step naming every API plans one thing, and
//     a step packing many actions or a bag of words plans nothing;
//   - an API counts when a step names it (or, naming no API, holds its
//     function's words) and says what it does there beyond the words of
//     its own name: a word of its description, of a key step or of the
//     request, or a value it passes ("call search_hotels to search
//     hotels" only says which API it calls); a step that only names an
//     API in a chain ("A → B — the hotels for the dates") is for what
//     its chain says;
//   - a step that uses an API before the step that provides its input
//     (a dependency of the deps graph) does not count for that API;
//   - APIs that do the same job (terms.json's alternatives) are one: any
//     of them counts;
//   - an offered API the plan uses that the request does not need counts
//     against the coverage, unless the documentation sends a plan there
//     from a group API (polling a search, fetching its details: see
//     requiredAfter) or the step is marked optional;
//   - a key step counts when a step's action is the key step's (the
//     step's own verb, or the action of the API it names) and the step
//     holds the thing it acts on, by meaning (see keysteps.go), and the
//     plan names its names and numbers;
//   - an item that copies a tool's description whole (reading.Copies)
//     counts for nothing, though the APIs it names still take their place
//     in the order; a step that hands the request back plans nothing.

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

// refersTo tells whether a step refers to an API: by one of its names,
// or, in a step that names no offered API outright, by every functional
// word of its name. A step that names APIs is about them: "search flights
// with skyscanner80-flights_search_one_way" is not about flights_detail,
// although it holds "flights" and the tool's name.
func refersTo(a *toolset.API, st reading.Step, ambiguous map[string]bool) bool {
	return slices.Contains(st.APIs, a) || len(st.APIs) == 0 && describedIn(a, st, ambiguous)
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
func describedIn(a *toolset.API, st reading.Step, ambiguous map[string]bool) bool {
	fw, generic := nameWords(a)
	if len(fw) == 0 {
		return false
	}
	words := textmatch.NewWordSet(st.Text)
	squashed := strings.ReplaceAll(textmatch.Normalized(st.Text), " ", "")
	// A name of three or more words may be described without one of
	// them, though never without its last ("search flights" is no round
	// trip).
	missing := 0
	for i, w := range fw {
		if !words[w] && !(len(w) >= 6 && strings.Contains(squashed, w)) && !slices.Contains(st.Lemmas, textmatch.Lemma(w)) {
			missing++
			if len(fw) < 3 || i == len(fw)-1 || missing > 1 {
				return false
			}
		}
	}
	if len(fw) == 1 && (ambiguous[fw[0]] || generic) {
		for _, w := range functionalWords(a.Tool.StandardizedName) {
			if w != fw[0] && words[w] {
				return true
			}
		}
		return false
	}
	return true
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

// lemmaSet is the set of lemmas of a text's words that carry meaning: no
// stop words, no vague words of API documentation.
func lemmaSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range textmatch.Words(text) {
		if !textmatch.IsStopWord(w) && !textmatch.IsVagueWord(w) && len(w) > 1 {
			out[textmatch.Lemma(w)] = true
		}
	}
	return out
}

// usesFor tells whether a step (the lemmas of its prose) says what API a
// does there: a word of its purpose (its description), of a key step or
// of the user's request ("for June 20-23"), besides the words of its own
// name (a step that calls search_hotels "to search hotels" says only which
// API it calls).
func usesFor(a *toolset.API, step []string, keyWords map[string]bool) bool {
	own := lemmaSet(strings.Join(append(textmatch.SplitName(a.Name), textmatch.SplitName(a.Tool.StandardizedName)...), " "))
	purpose := lemmaSet(a.Description)
	for _, l := range step {
		// A value the step gives the API ("640 px", "2025-07-01") says
		// how it is used.
		if !own[l] && (purpose[l] || keyWords[l] || textmatch.HasDigit(l) && len(l) > 1) {
			return true
		}
	}
	return false
}

// Verdict is the reading of a plan.
type Verdict struct {
	// Missed are the group APIs (with why, when planned out of order) and
	// key steps the plan does not cover.
	Missed []string
	// Extra are the offered APIs the plan uses that the request does not
	// need; each counts against the coverage.
	Extra    []string
	Coverage float64
	// Copied counts the steps that copy the tools' documentation.
	Copied int
}

// Pass tells whether the plan reaches MinCoverage.
func (v Verdict) Pass() bool { return v.Coverage >= MinCoverage-1e-9 }

// slot is a group API and the APIs that do the same job (terms.json's
// alternatives): a plan uses the slot when it uses any of them.
type slot struct {
	ids  []string // group IDs, as the record writes them
	apis []*toolset.API
}

// slots are the instruction's group APIs, alternatives together.
func (s *Scorer) slots(in *dataset.Instruction) []slot {
	var out []slot
	at := map[string]int{}
	for _, id := range in.GroupAPIs {
		a := dataset.ResolveAPI(s.Catalog, id)
		if a == nil {
			out = append(out, slot{ids: []string{id}})
			continue
		}
		k := a.ID()
		if alts := textmatch.Vocabulary.AlternativesOf(a.ID()); len(alts) > 0 {
			k = strings.Join(alts, "|")
		}
		if i, ok := at[k]; ok {
			out[i].ids = append(out[i].ids, id)
			out[i].apis = append(out[i].apis, a)
			continue
		}
		at[k] = len(out)
		out = append(out, slot{ids: []string{id}, apis: []*toolset.API{a}})
	}
	return out
}

// name is how a Verdict names a slot: its API, or its alternatives.
func (sl slot) name() string { return strings.Join(sl.ids, " or ") }

// Read measures a Task-8 plan against an instruction, on one reading of
// it (reading.ReadPlan): its steps, each one action on one object with the
// APIs it names. A step uses at most one group API (or one of its
// alternatives) and states at most one key step, so a step naming every
// API counts for one; a step that packs many actions or a bag of words,
// hands the request back, or belongs to an item that copies a tool's
// description counts for nothing (a copied item still places its APIs,
// for the order of the steps after it). The coverage is the share of the
// group's APIs used for their purpose, in dependency order, and of its
// key steps stated, over their number plus the offered APIs the plan uses
// that the request does not need. An API the tools' documentation
// sends a plan to from a group API (polling a search, fetching its
// details) is needed; an API used only in a step marked optional costs
// nothing.
//
// tools are the tools offered to the agent, as it saw them.
func (s *Scorer) Read(in *dataset.Instruction, tools []toolset.OpenAITool, plan string) Verdict {
	slots := s.slots(in)
	total := len(slots) + len(in.KeySteps)
	if total == 0 {
		return Verdict{Coverage: 1}
	}
	var v Verdict
	offered := s.offeredAPIs(in, tools)
	read := reading.ReadPlan(plan, offered)
	descriptions := s.descriptions(tools)
	known := reading.Identifiers(offered)
	copied := map[int]bool{}
	for i, item := range read.Items {
		if reading.Copies(reading.StripIdentifiers(item, known), descriptions) {
			copied[i] = true
			v.Copied++
		}
	}
	keyWords := lemmaSet(strings.Join(keyStepWords(in.KeySteps), " ") + " " + in.Text)
	// The things key steps act on count in any of their synonyms ("the
	// mean" for "the average").
	for _, k := range in.KeySteps {
		if h := readKeyStep(k).head; h != "" {
			for _, eq := range textmatch.Vocabulary.Equivalents(h) {
				if len(eq) == 1 {
					keyWords[eq[0]] = true
				}
			}
		}
	}
	ambiguous := ambiguousWords(offered)
	steps := read.Steps
	// refers[i] are the offered APIs step i refers to (by name, or by
	// their function's words when it names none); uses[i] those it says
	// what for, when the step counts.
	refers := make([][]*toolset.API, len(steps))
	uses := make([][]*toolset.API, len(steps))
	counts := make([]bool, len(steps))
	for i, st := range steps {
		counts[i] = !copied[st.Item] && !st.Packed && !restates(in.Text, st.Text)
		seen := map[*toolset.API]bool{}
		for _, o := range offered {
			if seen[o] || !refersTo(o, st, ambiguous) {
				continue
			}
			seen[o] = true
			refers[i] = append(refers[i], o)
			// A step that only names an API ("A → B — …") says what for
			// in the prose of its chain.
			if counts[i] && (usesFor(o, st.Prose, keyWords) || usesFor(o, st.Chain, keyWords)) {
				uses[i] = append(uses[i], o)
			}
		}
	}
	// Each slot takes one step that uses one of its APIs.
	inSlot := map[*toolset.API]int{}
	for k, sl := range slots {
		for _, a := range sl.apis {
			inSlot[a] = k
		}
	}
	ok := make([][]int, len(slots))
	for i, us := range uses {
		for _, a := range us {
			if k, in := inSlot[a]; in && !slices.Contains(ok[k], i) {
				ok[k] = append(ok[k], i)
			}
		}
	}
	took := match(ok, len(steps))
	used := map[int]bool{}
	// first[id] is the first step that plans a group API, counted or not:
	// a step copied from the documentation still calls its API there.
	first := map[string]int{}
	apis := map[string]*toolset.API{}
	for k, sl := range slots {
		for j, a := range sl.apis {
			for i := range steps {
				// A step marked optional may not happen: it provides
				// nothing the steps after it can count on.
				if slices.Contains(refers[i], a) && !steps[i].Optional {
					first[sl.ids[j]], apis[sl.ids[j]] = i, a
					break
				}
			}
		}
		if took[k] < 0 {
			v.Missed = append(v.Missed, sl.name())
			continue
		}
		used[took[k]] = true
	}
	for k, sl := range slots {
		i := took[k]
		if i < 0 {
			continue
		}
		for j, id := range sl.ids {
			if !slices.Contains(uses[i], sl.apis[j]) {
				continue
			}
			if p := s.providedLater(apis, first, id, i); p != "" {
				v.Missed = append(v.Missed, fmt.Sprintf("%s (planned before %s, which provides its input)", id, p))
			}
			break
		}
	}
	// A step that serves no slot and uses an API the request does not
	// need counts one such API, unless the step is optional or the API is
	// one the documentation requires after a group API.
	needed := s.requiredAfter(in)
	extra := map[string]bool{}
	for i, us := range uses {
		if used[i] || steps[i].Optional {
			continue
		}
		for _, a := range us {
			if _, in := inSlot[a]; !in {
				if !extra[a.ID()] && !needed[a] {
					extra[a.ID()] = true
					v.Extra = append(v.Extra, a.ID())
				}
				break
			}
		}
	}
	// Each key step takes one step that states it.
	planLems := textmatch.Lemmas(plan)
	kok := make([][]int, len(in.KeySteps))
	for k, text := range in.KeySteps {
		ks := readKeyStep(text)
		if !mentions(planLems, ks) {
			continue
		}
		for i, st := range steps {
			if counts[i] && states(st, ks) {
				kok[k] = append(kok[k], i)
			}
		}
	}
	for k, i := range match(kok, len(steps)) {
		if i < 0 {
			v.Missed = append(v.Missed, in.KeySteps[k])
		}
	}
	v.Coverage = float64(total-len(v.Missed)) / float64(total+len(v.Extra))
	return v
}

// requiredAfter are the APIs the documentation sends a plan to from a
// group API: those a group API's description names (a search's "you must
// utilize `flights_search_incomplete`", "use … in `flights_detail`"), and
// those whose own description names a group API they complete ("obtain
// complete data for … flights_search_roundtrip"), and those a group API
// feeds that the documentation of their tool names as where such output
// goes. Planning them is
// following the docs, no detour. An API that merely takes an ID a group
// API returns (the photos of an attraction) is not one of them.
func (s *Scorer) requiredAfter(in *dataset.Instruction) map[*toolset.API]bool {
	out := map[*toolset.API]bool{}
	var group []*toolset.API
	for _, id := range in.GroupAPIs {
		if a := dataset.ResolveAPI(s.Catalog, id); a != nil {
			group = append(group, a)
		}
	}
	fed := map[string]bool{} // APIs whose input a group API provides
	if s.Graph != nil {
		for _, g := range group {
			for _, e := range s.Graph.OutOf(g.ID()) {
				fed[e.To] = true
			}
		}
	}
	for _, g := range group {
		for _, a := range g.Tool.APIs {
			if a == g {
				continue
			}
			if namesAPI(g.Description, a) || namesAPI(a.Description, g) {
				out[a] = true
				continue
			}
			// The roundtrip search's itineraries go where the one-way
			// search's documentation says its own go (`flights_detail`).
			if fed[a.ID()] && slices.ContainsFunc(a.Tool.APIs, func(o *toolset.API) bool { return o != a && namesAPI(o.Description, a) }) {
				out[a] = true
			}
		}
	}
	return out
}

// namesAPI tells whether a description writes an API's name, as a word.
func namesAPI(description string, a *toolset.API) bool {
	for _, m := range identifierRE.FindAllString(description, -1) {
		if m == a.Name || strings.HasSuffix(m, "."+a.Name) || strings.HasSuffix(m, "-"+a.Name) {
			return true
		}
	}
	return false
}

// identifierRE finds identifiers: words joined by '_', '-' or '.'.
var identifierRE = regexp.MustCompile(`[A-Za-z0-9]+(?:[_.-][A-Za-z0-9]+)+`)

// descriptions are the offered tools' descriptions, as the agent saw them
// and as the catalog writes them.
func (s *Scorer) descriptions(tools []toolset.OpenAITool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Function.Description)
		if a := s.Catalog.APIByExportName(t.Function.Name); a != nil {
			out = append(out, a.Description)
		}
	}
	return out
}

// restates tells whether a clause is the user's request handed back (all
// of it, or a piece of at least three words): it plans nothing.
func restates(request, c string) bool {
	nr, nc := textmatch.Normalized(request), textmatch.Normalized(c)
	return strings.TrimSpace(nr) != "" && strings.Contains(nc, nr) || len(textmatch.Words(c)) >= 3 && strings.Contains(nr, nc)
}

// keyStepWords are the words of the key steps that say what is done:
// their names (a place: "find the Paris destination id") and numbers say
// where and when.
func keyStepWords(steps []string) []string {
	var out []string
	for _, k := range steps {
		for _, w := range strings.Fields(k) {
			w = strings.Trim(w, ".,;:!?'\"()")
			if w == "" || unicode.IsUpper([]rune(w)[0]) || textmatch.HasDigit(w) {
				continue
			}
			out = append(out, w)
		}
	}
	return out
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

// Gold is the oracle's Task-8 answer, from the annotations alone: a step
// per group API (the first of its alternatives), in order, stating the key
// step it serves (key steps and APIs paired by the words of the key
// step's action and thing found in the API's name and description) and a
// few words of what the API is for, then the key steps no API serves.
func (s *Scorer) Gold(in *dataset.Instruction) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Plan for %q:\n", in.Text)
	slots := s.slots(in)
	// Pair APIs and key steps, best pairs first: the key step's thing in
	// the API's name counts most, then in its description, then its action.
	type pair struct{ slot, key, score int }
	var pairs []pair
	for i, sl := range slots {
		if len(sl.apis) == 0 {
			continue
		}
		a := sl.apis[0]
		nameLems := textmatch.Lemmas(strings.Join(append(textmatch.SplitName(a.Name), textmatch.SplitName(a.Tool.StandardizedName)...), " "))
		descLems := textmatch.Lemmas(a.Description)
		for k, text := range in.KeySteps {
			ks := readKeyStep(text)
			score := 0
			switch {
			case ks.head != "" && finds(nameLems, ks.head):
				score += 4
			case ks.head != "" && finds(descLems, ks.head):
				score += 2
			}
			switch {
			case ks.verb != "" && finds(nameLems, ks.verb):
				score += 2
			case ks.verb != "" && finds(descLems, ks.verb):
				score++
			}
			if score > 0 {
				pairs = append(pairs, pair{i, k, score})
			}
		}
	}
	slices.SortStableFunc(pairs, func(x, y pair) int {
		if x.score != y.score {
			return y.score - x.score
		}
		return abs(x.slot-x.key) - abs(y.slot-y.key)
	})
	keyOf := make([]int, len(slots))
	for i := range keyOf {
		keyOf[i] = -1
	}
	served := map[int]bool{}
	for _, p := range pairs {
		if keyOf[p.slot] < 0 && !served[p.key] {
			keyOf[p.slot], served[p.key] = p.key, true
		}
	}
	n := 0
	for i, sl := range slots {
		if len(sl.apis) == 0 {
			continue
		}
		a := sl.apis[0]
		what := strings.Join(functionalWords(a.Name), " ")
		if k := keyOf[i]; k >= 0 {
			what = in.KeySteps[k]
		}
		n++
		fmt.Fprintf(&b, "%d. %s, with %s (%s).\n", n, what, toolset.ExportName(a, toolset.NameDotted), strings.Join(goldPurpose(a), " "))
	}
	for k, st := range in.KeySteps {
		if !served[k] {
			n++
			fmt.Fprintf(&b, "%d. %s.\n", n, st)
		}
	}
	return b.String()
}

// goldPurpose are the first few words of an API's description that say
// what it is for beyond its name, fewer than a copied run.
func goldPurpose(a *toolset.API) []string {
	own := lemmaSet(strings.Join(append(textmatch.SplitName(a.Name), textmatch.SplitName(a.Tool.StandardizedName)...), " "))
	var out []string
	for _, w := range textmatch.Words(a.Description) {
		if len(out) == 3 {
			break
		}
		if textmatch.IsStopWord(w) || textmatch.IsVagueWord(w) || len(w) < 3 || own[textmatch.Lemma(w)] || textmatch.HasDigit(w) || slices.Contains(out, w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
