// Package chainscore is Task 7's rule scorer: which steps of an instruction's gold chain an agent's executed calls did, judged by their arguments and where their values came from.
package chainscore

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Criterion says how the scorer decides, for reports.
const Criterion = "chain score (the headline): per instance, the F-measure of its progress rate and its call precision, so that every wasted, failed or distractor call lowers it; progress rate (the paper's metric): share of the gold chain's steps done by the agent's successful calls, run in the solvers' ReAct loop within the call budget: a step is done by a call of its API whose user-given values are the user's (or, put in other words, give the later steps what the gold step gives) and whose dependent values come from the response of the call that did the step they depend on, or from any earlier response that carried a value the step they depend on gives, as the same entity (the sandbox's provenance rule); a skipped prerequisite counts when the value it gives was known anyway (stated by the user, a non-opaque value equal to what it gives, or carried by an earlier response), and a last step not called counts when an earlier response carried what it is about and the final answer states that item's own facts and no other's. Also: call precision, the share of the agent's calls that did a step or carried a value a done step used, and wasted calls per instance, the others"

// Task 7 compares the chain of calls with the gold order of actions (the
// evaluation paper, §3.4) by arguments, not by API names alone. A gold
// step is done by a successful call of its API
//   - whose user-given values are the user's (the gold literal arguments
//     the instruction states: geocoding Tokyo for "airports close to
//     Porto" does not do the step; "Porto, Portugal" does when it gives
//     the later steps what the gold step gives), and
//   - whose dependent values come from the response of a call that did the
//     step they depend on, earlier in the session.
//
// Every valid chain counts: a prerequisite the agent skipped is done when
// each step that needs it got the value anyway, because the user stated it,
// because it is a value anyone can know (not opaque) and is the one the
// prerequisite gives (a country code), or because an earlier answer of the
// session carried it as the entity the step expects (the sandbox's
// provenance rule: locations_search lists a city's top sights with their
// location_ids, as attractions_list does). A last step the agent did not
// call counts when it already held the step's result: an earlier answer
// carried the item the step is about, and the final answer states that
// item's own facts (Rome's top sight, answered from locations_search).

// chainCall is one executed call, decoded for scoring.
type chainCall struct {
	api  string
	args map[string]any
	doc  any
	ok   bool
}

// Scorer scores Task-7 instances: the calls an agent executed against the
// gold chain of its instruction.
type Scorer struct {
	Catalog *toolset.Catalog
	// Engine runs the gold chain, when a value it gives is needed to
	// judge a call.
	Engine *sandbox.Engine
	// Graph says which response fields carry the entity a dependent
	// parameter takes (deps.Graph.Carriers); nil: only the gold path of
	// the step a value depends on does.
	Graph *deps.Graph
}

// Verdict is the scoring of one instance's calls.
type Verdict struct {
	// Done counts the gold steps done, of Steps.
	Done, Steps int
	// Breaks are the gold steps not done, with why.
	Breaks []Break
	// OnChain marks, per call, the calls on the instance's chain: those
	// that did a done step (the first that did it; a polled step's polls
	// until its condition held) or carried a value a done step used.
	// The others were wasted.
	OnChain []bool
}

// Precision is the share of the calls on the chain, and Wasted the
// number of the others; no call wastes nothing and has precision 0.
func (v Verdict) Precision() (float64, int) {
	on := 0
	for _, b := range v.OnChain {
		if b {
			on++
		}
	}
	if len(v.OnChain) == 0 {
		return 0, 0
	}
	return float64(on) / float64(len(v.OnChain)), len(v.OnChain) - on
}

// Score is the share of the gold steps done.
func (v Verdict) Score() float64 { return float64(v.Done) / float64(v.Steps) }

// Missed says in words why each gold step not done is not.
func (v Verdict) Missed() []string {
	var out []string
	for _, b := range v.Breaks {
		out = append(out, fmt.Sprintf("step %d (%s): %s", b.Step, b.API, b.Reason))
	}
	return out
}

// Break is a gold step of a Task-7 chain the agent's calls did not do.
type Break struct {
	// Step is the step's position in the gold chain, from 1.
	Step int    `json:"step"`
	API  string `json:"api"`
	// Kind is why, in one word (BreakNotCalled, ...); Reason in a sentence.
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// Kinds of Break: where a chain goes wrong, for reports.
const (
	// BreakNotCalled: no call of the step's API.
	BreakNotCalled = "not_called"
	// BreakCallsFailed: every call of it failed (an error, a 4xx answer).
	BreakCallsFailed = "calls_failed"
	// BreakWrongArguments: calls were made, none with the user's values
	// and values from the responses of the steps it depends on.
	BreakWrongArguments = "wrong_arguments"
	// BreakNotPolled: a repeated step never polled until its condition held.
	BreakNotPolled = "not_polled"
	// BreakPrerequisite: the step could be done only after a step it
	// depends on, which is not done.
	BreakPrerequisite = "prerequisite_not_done"
)

// scoring scores one instance's executed calls against its gold chain.
type scoring struct {
	sc    *Scorer
	ctx   context.Context
	steps []dataset.GoldStep
	calls []chainCall
	text  string
	words textmatch.WordSet
	// sat lists, per gold step, the calls that do it, and providers, per
	// call, the earlier calls whose answers gave its dependent values.
	sat       [][]int
	providers map[int][]int
	// answer is the agent's final answer.
	answer string
	// goldSession is where the gold chain runs, apart from the agent's calls.
	goldSession string
	// gold holds the gold chain's responses, run once when needed.
	gold    []any
	goldRun bool
}

// Score scores the calls an agent executed for an instruction, in order,
// and its final answer, against its gold chain. The gold chain runs in
// goldSession, apart from the agent's calls, when a value it gives is
// needed.
func (sc *Scorer) Score(ctx context.Context, in *dataset.Instruction, records []solve.CallRecord, answer, goldSession string) Verdict {
	s := &scoring{sc: sc, ctx: ctx, steps: in.Chain, text: in.Text, words: textmatch.NewWordSet(in.Text), goldSession: goldSession,
		answer: answer, providers: map[int][]int{}}
	for _, r := range records {
		c := chainCall{api: r.API, ok: r.OK()}
		if c.ok {
			args, err := callcheck.DecodeArguments(agent.ToolCall{Arguments: r.Arguments})
			if err != nil {
				c.ok = false
			}
			c.args = args
			if doc, err := canon.Decode(r.Response); err == nil {
				c.doc = doc
			}
		}
		s.calls = append(s.calls, c)
	}
	done, breaks, onChain := s.verdicts()
	return Verdict{Done: done, Steps: len(s.steps), Breaks: breaks, OnChain: onChain}
}

// verdicts counts the gold steps done, says why each other one is not,
// and marks the calls on the chain.
func (s *scoring) verdicts() (int, []Break, []bool) {
	n := len(s.steps)
	s.sat = make([][]int, n)
	why := make([]string, n)
	kind := make([]string, n)
	polled := make([]bool, n)
	for i, st := range s.steps {
		api := dataset.ResolveAPI(s.sc.Catalog, st.API)
		if api == nil {
			why[i], kind[i] = "the gold API is not in the catalog", BreakNotCalled
			continue
		}
		tried, failed := 0, 0
		for j, c := range s.calls {
			if c.api != api.ID() {
				continue
			}
			tried++
			if !c.ok {
				failed++
				continue
			}
			if reason := s.doesStep(i, api, j); reason != "" {
				if why[i] == "" {
					why[i], kind[i] = reason, BreakWrongArguments
				}
				continue
			}
			s.sat[i] = append(s.sat[i], j)
			polled[i] = polled[i] || !st.Repeat || deps.UntilHolds(c.doc, st.Until)
		}
		switch {
		case tried == 0:
			why[i], kind[i] = "not called", BreakNotCalled
		case failed == tried:
			why[i], kind[i] = "every call of it failed", BreakCallsFailed
		case len(s.sat[i]) > 0 && !polled[i]:
			why[i], kind[i] = fmt.Sprintf("polled, but never until %s", st.Until), BreakNotPolled
		}
	}
	// A step is done by a call, or skipped validly: every step that needs
	// it is done without it, or, for a step none needs, the agent held its
	// result already. Later steps first, so skips can cascade.
	done := make([]bool, n)
	heldBy := make([]int, n)
	for k := n - 1; k >= 0; k-- {
		heldBy[k] = -1
		if len(s.sat[k]) > 0 && polled[k] {
			done[k] = true
			continue
		}
		dependents := 0
		all := true
		for i := k + 1; i < n; i++ {
			if needs(s.steps[i], k) {
				dependents++
				all = all && done[i]
			}
		}
		switch {
		case dependents > 0:
			done[k] = all && len(s.sat[k]) == 0
		case len(s.sat[k]) == 0:
			heldBy[k] = s.held(k)
			done[k] = heldBy[k] >= 0
		}
	}
	onChain := s.onChain(done, heldBy)
	count := 0
	var breaks []Break
	for i, st := range s.steps {
		if done[i] {
			count++
			continue
		}
		if why[i] == "" {
			why[i], kind[i] = "a step it depends on is not done", BreakPrerequisite
		}
		breaks = append(breaks, Break{Step: i + 1, API: st.API, Kind: kind[i], Reason: why[i]})
	}
	return count, breaks, onChain
}

// needs tells whether a step binds a value from step k.
func needs(st dataset.GoldStep, k int) bool {
	for _, b := range st.Bindings {
		if b.Step == k {
			return true
		}
	}
	return false
}

// doesStep checks call j against gold step i; it returns why the call does
// not do the step, or "".
func (s *scoring) doesStep(i int, api *toolset.API, j int) string {
	st, c := s.steps[i], s.calls[j]
	for _, name := range slices.Sorted(maps.Keys(st.Arguments)) {
		r, worded := s.literalOK(api.Param(name), name, st.Arguments[name], c.args)
		// The user's words put otherwise ("Porto, Portugal" for "Porto")
		// are right when the call provides what the gold step provides.
		if r != "" && !(worded && s.providesSame(i, j)) {
			return r
		}
	}
	var providers []int
	for _, name := range slices.Sorted(maps.Keys(st.Bindings)) {
		r, k := s.boundOK(api, name, st.Bindings[name], j)
		if r != "" {
			return r
		}
		if k >= 0 {
			providers = append(providers, k)
		}
	}
	s.providers[j] = append(s.providers[j], providers...)
	return ""
}

// literalOK checks a gold literal argument. A value the user stated must
// be the user's; a choice from a closed set (an enum) must be the gold's;
// other literals (page sizes, offsets) are the agent's to choose. worded
// marks a string the user stated that the agent put in other words.
func (s *scoring) literalOK(p *toolset.Param, name string, want any, args map[string]any) (reason string, worded bool) {
	got, has := args[name]
	user := s.userStated(want)
	if !has || got == nil {
		if user && !(p != nil && p.Default != nil && callcheck.SameValue(p.Default, want)) {
			return fmt.Sprintf("%s is missing; the user said %s", name, callcheck.CompactJSON(want)), false
		}
		return "", false
	}
	switch {
	case user:
		if !sameUserValue(want, got, s.words) {
			_, ws := want.(string)
			_, gs := got.(string)
			return fmt.Sprintf("%s=%s is not what the user said (%s)", name, callcheck.CompactJSON(got), callcheck.CompactJSON(want)), ws && gs
		}
	case p != nil && len(p.Enum) > 0:
		if !callcheck.SameValue(want, got) {
			return fmt.Sprintf("%s=%s, want %s", name, callcheck.CompactJSON(got), callcheck.CompactJSON(want)), false
		}
	}
	return "", false
}

// providesSame tells whether call j gives the later steps what gold step i
// gives them: the same first value at every path they bind from it.
func (s *scoring) providesSame(i, j int) bool {
	n := 0
	for _, st := range s.steps[i+1:] {
		for _, b := range st.Bindings {
			if b.Step != i {
				continue
			}
			want, ok := s.goldValue(b)
			got := deps.Values(s.calls[j].doc, b.Path)
			if !ok || len(got) == 0 || !sameScalar(want, got[0]) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// boundOK checks a dependent argument of call j: its value is in the
// response of an earlier call that did the step it depends on; or an
// earlier answer carried it as the entity the parameter takes and the
// step it depends on gives it too; or, for a value that is not opaque, the
// user stated it or it is the value that step gives. provider is the call
// whose answer gave it, or -1.
func (s *scoring) boundOK(api *toolset.API, name string, b dataset.Binding, j int) (reason string, provider int) {
	p := api.Param(name)
	got, has := s.calls[j].args[name]
	if !has || got == nil {
		return name + " is missing", -1
	}
	if b.Step >= 0 && b.Step < len(s.sat) {
		for _, k := range s.sat[b.Step] {
			if k >= j {
				break
			}
			for _, v := range deps.Values(s.calls[k].doc, b.Path) {
				if sameScalar(v, got) {
					if !s.pickedAsSaid(s.calls[k].doc, b.Path, got) {
						return fmt.Sprintf("%s=%s comes from an item of step %d's response the user did not ask for", name, callcheck.CompactJSON(got), b.Step+1), -1
					}
					return "", k
				}
			}
		}
	}
	if k, _ := s.carried(api.ID(), name, got, j); k >= 0 && s.goldGives(b, got) {
		return "", k
	}
	if p == nil || !p.Opaque {
		if s.inText(got) {
			return "", -1
		}
		if v, ok := s.goldValue(b); ok && sameScalar(v, got) {
			return "", -1
		}
	}
	return fmt.Sprintf("%s=%s does not come from the response of step %d", name, callcheck.CompactJSON(got), b.Step+1), -1
}

// runGold runs the gold chain in a session of its own, once.
func (s *scoring) runGold() {
	if !s.goldRun {
		s.goldRun = true
		s.gold, _ = RunGold(s.ctx, s.sc.Engine, s.sc.Catalog, s.steps, s.goldSession)
	}
}

// goldValue is the value the gold chain binds: the first at the path in
// the response of the gold step, run in a session of its own.
func (s *scoring) goldValue(b dataset.Binding) (any, bool) {
	s.runGold()
	if b.Step < 0 || b.Step >= len(s.gold) {
		return nil, false
	}
	vals := deps.Values(s.gold[b.Step], b.Path)
	if len(vals) == 0 {
		return nil, false
	}
	return vals[0], true
}

// userStated tells whether the user's text states a gold literal: at
// least half of a string's words, or the number itself.
func (s *scoring) userStated(v any) bool {
	switch x := v.(type) {
	case string:
		return len(textmatch.ContentWords(x)) > 0 && s.words.Coverage(x) >= 0.5
	case float64:
		return numberInText(s.text, x)
	}
	return false
}

// inText tells whether the user's text holds a value verbatim.
func (s *scoring) inText(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x) != "" && textmatch.ContainsExact(strings.ToLower(s.text), strings.ToLower(strings.TrimSpace(x)))
	default:
		if f, ok := callcheck.ToFloat(v); ok {
			return numberInText(s.text, f)
		}
	}
	return false
}

// letterRE finds a letter.
var letterRE = regexp.MustCompile(`\pL`)

// sameUserValue compares a value the user stated with the agent's. Values
// with digits (dates, amounts) compare exactly after BFCL's normalisation;
// other strings match when the agent's words are the gold's or the user's
// and share one with the gold ("Nice" for "Nice, France", never "Tokyo"
// for "Porto").
func sameUserValue(want, got any, user textmatch.WordSet) bool {
	if callcheck.SameValue(want, got) {
		return true
	}
	w, ok := want.(string)
	g, ok2 := got.(string)
	if !ok || !ok2 || textmatch.HasDigit(w) {
		return false
	}
	gold := textmatch.NewWordSet(w)
	gw := textmatch.Dedupe(textmatch.ContentWords(g))
	if len(gw) == 0 {
		return false
	}
	shared := false
	for _, x := range gw {
		if !gold[x] && !user[x] {
			return false
		}
		shared = shared || gold[x]
	}
	return shared
}

// numberInText tells whether a number is written in text on its own (320
// in "320px", not in "1320" or "3.20"; -8.6 only with its sign).
func numberInText(text string, f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	n := strconv.FormatFloat(f, 'f', -1, 64)
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], n)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(n)
		before := i > 0 && (isDigit(text[i-1]) || text[i-1] == '.' || (text[i-1] == '-' && f >= 0))
		after := end < len(text) && (isDigit(text[end]) || text[end] == '.' && end+1 < len(text) && isDigit(text[end+1]))
		if !before && !after {
			return true
		}
		from = i + 1
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// sameScalar compares a value from a response with one passed on: as
// sameValue, and a number written as a string in one and as a number in
// the other is the same value (an API may return "41.1496").
func sameScalar(v, got any) bool {
	if callcheck.SameValue(v, got) {
		return true
	}
	asNumber := func(x any) any {
		if s, ok := x.(string); ok {
			if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
				return json.Number(strings.TrimSpace(s))
			}
		}
		return x
	}
	return callcheck.SameValue(asNumber(v), asNumber(got))
}

// pickedAsSaid checks the list item a value was taken from, when the
// user named exactly one of the items: of a list of all countries, the one
// the user named (Australia, not Brazil). When no item, or several, hold
// the user's words, any item will do (a chicken recipe, the top hotel).
func (s *scoring) pickedAsSaid(doc any, path string, got any) bool {
	i := strings.LastIndex(path, "[]")
	if i < 0 {
		return true
	}
	prefix, rest := path[:i+2], strings.TrimPrefix(path[i+2:], ".")
	items := deps.Values(doc, prefix)
	if len(items) < 2 {
		return true
	}
	said := make([]bool, len(items))
	n := 0
	for k, it := range items {
		if said[k] = s.namedByUser(it, 0); said[k] {
			n++
		}
	}
	if n != 1 {
		return true
	}
	for k, it := range items {
		if !said[k] {
			continue
		}
		vals := []any{it}
		if rest != "" {
			vals = deps.Values(it, rest)
		}
		for _, v := range vals {
			if sameScalar(v, got) {
				return true
			}
		}
	}
	return false
}

// namedByUser tells whether a response item is named by the user: one of its
// texts, within a few levels, is made of the user's words only
// ("Australia", "New York").
func (s *scoring) namedByUser(v any, depth int) bool {
	if depth > 3 {
		return false
	}
	switch x := v.(type) {
	case string:
		cw := textmatch.ContentWords(x)
		if len(cw) == 0 || len(cw) > 4 || !letterRE.MatchString(x) {
			return false // a number names nothing ("3" of a ranking)
		}
		for _, w := range cw {
			if !s.words[w] || textmatch.IsVagueWord(w) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if s.namedByUser(x[k], depth+1) {
				return true
			}
		}
	}
	return false
}
