package evaltasks

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/toolset"
)

// Thresholds of the rule scorers, stated in every report.
const (
	// KeyPointShare is the share of key points a Task-5 answer must cover.
	KeyPointShare = 0.5
	// PlanCoverage is the coverage of group APIs and key steps a Task-8
	// plan must reach.
	PlanCoverage = 0.6
)

// Criteria says how each task's rule scorer decides, for reports.
var Criteria = map[int]string{
	TaskDecide:     "the reply calls a tool exactly when the instruction needs one (Type II positive, Type I negative); precision and recall of the positive class, macro-F1 over both",
	TaskSelect:     "the first call names the target API (or one of its also-correct APIs) among the target and 4 BM25-nearest perturbing APIs",
	TaskClarify:    "no tool call, and the reply asks for every missing parameter (its name or its description's key terms); calls made anyway are classified by mistake kind",
	TaskFill:       "exactly one call, and it is correct (a second call fails, as in BFCL): right name, required arguments, no unexpected ones, exact types, acceptable values after normalisation (integers exactly, other numbers within 1e-9 relative and 1e-6 absolute); an optional argument at its default counts as omitted; unparseable output is a parse error; a gold argument without acceptable values is a dataset error",
	TaskIntrinsic:  fmt.Sprintf("no tool call, and the reply covers at least %.0f%% of the key points", KeyPointShare*100),
	TaskToolReturn: "the reply states every expected fact of the tool result; URLs, decimals, coordinates and identifiers must be copied exactly",
	TaskChain:      "share of the gold chain's steps done by the agent's successful calls, run in the solvers' ReAct loop within the call budget: a step is done by a call of its API whose user-given values are the user's (or, put in other words, give the later steps what the gold step gives) and whose dependent values come from the response of the call that did the step they depend on; a skipped prerequisite counts when the value it gives was known anyway (stated by the user, or a non-opaque value equal to what it gives)",
	TaskPlan:       fmt.Sprintf("the plan, read as steps, reaches %.0f%% coverage of the group's APIs and key steps: an API counts when a step names it (or its function) and says what it does (its description's or a key step's words), and not when it is planned before the API that provides its input; a key step counts when one step states it; a step that copies %d words in a row of a tool's description counts for nothing", PlanCoverage*100, copyRun),
}

// Outcomes of text tasks.
const (
	OutcomeCall         = "call"
	OutcomeWrongAPI     = "wrong_api"
	OutcomeClarified    = "clarified"
	OutcomeCalled       = "called"
	OutcomeNoClarify    = "no_clarification"
	OutcomeRelated      = "related"
	OutcomeMissedPoints = "missed_key_points"
	OutcomePassed       = "passed"
	OutcomeMissedFacts  = "missed_facts"
	OutcomeInexact      = "inexact_value"
	OutcomeComplete     = "complete"
	OutcomePartial      = "partial"
	OutcomeNoProgress   = "no_progress"
	OutcomeLowCoverage  = "low_coverage"
	OutcomeError        = "error"
)

// parseFailure tells whether a reply could not be understood.
func parseFailure(r agent.Reply) (string, bool) {
	if r.ParseError != "" {
		return r.ParseError, true
	}
	for _, tc := range r.ToolCalls {
		if tc.ArgumentsError != "" {
			return fmt.Sprintf("call %s: %s", tc.Name, tc.ArgumentsError), true
		}
	}
	return "", false
}

// score fills a result's verdict from the agent's (single) reply, for
// every task but 7.
func (ev *evaluator) score(inst Instance, v view, r agent.Reply, res *Result) {
	in := inst.In
	called := len(r.ToolCalls) > 0
	res.Called = called
	if msg, bad := parseFailure(r); bad {
		res.Outcome, res.Detail = OutcomeParseError, msg
		return
	}
	switch inst.Task {
	case TaskDecide:
		res.Outcome = OutcomeNoCall
		if called {
			res.Outcome = OutcomeCall
		}
		res.pass(called == inst.Positive)
	case TaskSelect:
		if !called {
			res.Outcome = OutcomeNoCall
			return
		}
		got := ev.cat.APIByExportName(r.ToolCalls[0].Name)
		ok := got != nil && ev.isTarget(in, got)
		res.Outcome = OutcomeWrongAPI
		if ok {
			res.Outcome = OutcomeCorrect
		}
		res.pass(ok)
	case TaskClarify:
		if called {
			res.Outcome = OutcomeCalled
			res.Mistakes = classifyMistakes(ev.cat, in, r.ToolCalls)
			return
		}
		missed := ev.unaskedParams(in, r.Content)
		res.Missed = missed
		ok := len(missed) == 0 && asks(r.Content)
		res.Outcome = OutcomeNoClarify
		if ok {
			res.Outcome = OutcomeClarified
		}
		res.pass(ok)
	case TaskFill:
		ev.scoreFill(in, r, res)
	case TaskIntrinsic:
		missed, share := keyPoints(in.KeyPoints, r.Content)
		res.Missed, res.Score = missed, share
		switch {
		case called:
			res.Outcome = OutcomeCalled
			res.Score = 0
		case share >= KeyPointShare-1e-9:
			res.Outcome = OutcomeRelated
			res.Pass = true
		default:
			res.Outcome = OutcomeMissedPoints
		}
	case TaskToolReturn:
		missed, inexact := statedFacts(in.ExpectedFacts, r.Content)
		res.Missed = append(missed, inexact...)
		switch {
		case len(res.Missed) == 0 && strings.TrimSpace(r.Content) != "":
			res.Outcome = OutcomePassed
			res.pass(true)
		case called && strings.TrimSpace(r.Content) == "":
			res.Outcome = OutcomeCalled
		case len(missed) == 0:
			res.Outcome = OutcomeInexact
		default:
			res.Outcome = OutcomeMissedFacts
		}
	case TaskPlan:
		ev.scorePlan(in, v, r, res)
	}
}

func (res *Result) pass(ok bool) {
	res.Pass = ok
	res.Score = 0
	if ok {
		res.Score = 1
	}
}

// isTarget tells whether an API answers a Type-II instruction.
func (ev *evaluator) isTarget(in *Instruction, a *toolset.API) bool {
	for _, id := range append([]string{in.TargetAPI}, in.AlsoCorrect...) {
		if ResolveAPI(ev.cat, id) == a {
			return true
		}
	}
	return false
}

// askRE recognises a request to the user.
var askRE = regexp.MustCompile(`(?i)\?|\b(could you|can you|would you|please (provide|tell|share|specify|let|give|send|confirm)|let me know|tell me|i need|i'll need|i will need|need to know|need (a|an|the|your|some|more)|provide|specify|share)\b`)

func asks(text string) bool { return askRE.MatchString(text) }

// genericWords carry no meaning of their own in parameter names and descriptions.
var genericWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`id ids api get list search info information detail details param parameter parameters value values
		string number integer boolean required optional default example format data based sent back following use used using
		e g eg type field fields result results response return returns given provide provided specify specified set
		one two can must should may also like etc q num`) {
		genericWords[w] = true
	}
}

// paramTerms are the words that name a parameter: its name's words and the
// key terms of its description (at most 12), generic words dropped.
func paramTerms(p *toolset.Param, name string) []string {
	var out []string
	for _, w := range splitName(name) {
		if len(w) >= 3 && !genericWords[w] && !stopWords[w] {
			out = append(out, stem(w))
		}
	}
	if p != nil {
		n := 0
		for _, w := range contentWords(p.Description) {
			if len(w) >= 3 && !genericWords[w] && n < 12 {
				out = append(out, w)
				n++
			}
		}
	}
	return dedupe(out)
}

// unaskedParams lists the missing parameters a clarification does not mention.
func (ev *evaluator) unaskedParams(in *Instruction, reply string) []string {
	api := ResolveAPI(ev.cat, in.TargetAPI)
	set := newWordSet(reply)
	norm := normalized(reply)
	var out []string
	for _, m := range in.Missing {
		var p *toolset.Param
		if api != nil {
			p = api.Param(m)
		}
		found := strings.Contains(norm, normalized(m)) || strings.Contains(norm, normalized(strings.Join(splitName(m), " ")))
		for _, t := range paramTerms(p, m) {
			found = found || set[t]
		}
		if !found {
			out = append(out, m)
		}
	}
	return out
}

// keyPoints returns the key points a reply misses and the share it covers.
func keyPoints(points []string, reply string) ([]string, float64) {
	if len(points) == 0 {
		return nil, 1
	}
	set := newWordSet(reply)
	var missed []string
	for _, p := range points {
		if !covers(reply, set, p) {
			missed = append(missed, p)
		}
	}
	return missed, float64(len(points)-len(missed)) / float64(len(points))
}

// statedFacts checks the expected facts of a tool result against a reply:
// missed are facts whose words are absent, inexact those whose words are
// there but whose character-sensitive values are not copied exactly.
func statedFacts(facts []string, reply string) (missed, inexact []string) {
	set := newWordSet(reply)
	for _, f := range facts {
		exact := exactValues(f)
		rest := f
		for _, x := range exact {
			rest = strings.Replace(rest, x, " ", 1)
		}
		ok := true
		for _, x := range exact {
			ok = ok && containsExact(reply, x)
		}
		wordsOK := covers(reply, set, rest)
		switch {
		case !wordsOK:
			missed = append(missed, f)
		case !ok:
			inexact = append(inexact, f)
		}
	}
	return missed, inexact
}
