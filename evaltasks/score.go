package evaltasks

import (
	"fmt"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/chainscore"
	"github.com/understudy/understudy/evaltasks/claims"
	"github.com/understudy/understudy/evaltasks/clarify"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/plan"
	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/toolset"
)

// KeyPointShare is the share of key points a Task-5 answer must cover,
// stated in every report.
const KeyPointShare = 0.5

// Criteria says how each task's rule scorer decides, for reports.
var Criteria = map[int]string{
	TaskDecide:     "the reply calls a tool exactly when the instruction needs one (Type II positive, Type I negative); precision, recall and F1 of the positive class (needs a tool), as Table 5 of the paper prints them, and macro-F1 over both classes; an error counts as the wrong decision",
	TaskSelect:     "the first call names the target API (or one of its also-correct APIs) among the target and 4 BM25-nearest perturbing APIs",
	TaskClarify:    clarify.Criterion,
	TaskFill:       "exactly one call, and it is correct (a second call fails, as in BFCL): right name, required arguments, no unexpected ones, exact types, acceptable values after normalisation (integers exactly, other numbers within 1e-9 relative and 1e-6 absolute); an optional argument at its default counts as omitted; unparseable output is a parse error; a gold argument without acceptable values is a dataset error",
	TaskIntrinsic:  claims.KeyPointCriterion(KeyPointShare),
	TaskToolReturn: claims.FactCriterion(),
	TaskChain:      chainscore.Criterion,
	TaskPlan:       plan.Criterion,
}

// Outcomes of text tasks.
const (
	OutcomeCall         = "call"
	OutcomeWrongAPI     = "wrong_api"
	OutcomeClarified    = clarify.OutcomeClarified
	OutcomeCalled       = "called"
	OutcomeNoClarify    = clarify.OutcomeNoClarify
	OutcomeOverAsked    = clarify.OutcomeOverAsked
	OutcomeCopied       = "copied_data"
	OutcomeUnselective  = "unselective"
	OutcomeContradicted = "contradicts_result"
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
	r.Content, res.ScoreCut = scoredText(r.Content)
	called := len(r.ToolCalls) > 0
	res.Called = called
	if msg, bad := parseFailure(r); bad {
		res.Outcome, res.Detail = callcheck.OutcomeParseError, msg
		return
	}
	switch inst.Task {
	case TaskDecide:
		res.Outcome = callcheck.OutcomeNoCall
		if called {
			res.Outcome = OutcomeCall
		}
		res.pass(called == inst.Positive)
	case TaskSelect:
		if !called {
			res.Outcome = callcheck.OutcomeNoCall
			return
		}
		got := ev.cat.APIByExportName(r.ToolCalls[0].Name)
		ok := got != nil && ev.isTarget(in, got)
		res.Outcome = OutcomeWrongAPI
		if ok {
			res.Outcome = callcheck.OutcomeCorrect
		}
		res.pass(ok)
	case TaskClarify:
		if called {
			res.Outcome = OutcomeCalled
			res.Mistakes = callcheck.Mistakes(ev.cat, in, r.ToolCalls)
			return
		}
		cv := clarify.Judge(ev.cat, in, r.Content)
		res.Missed = cv.Unasked
		res.Outcome, res.Detail = cv.Outcome()
		res.pass(cv.Pass())
	case TaskFill:
		ev.scoreFill(in, r, res)
	case TaskIntrinsic:
		kv := claims.KeyPoints(in.Text, in.KeyPoints, r.Content)
		res.Missed, res.Score = append(kv.Missed, kv.Uncommitted...), kv.Share
		if len(kv.Uncommitted) > 0 {
			res.Detail = "states among other values of their kind, committing to none: " + strings.Join(kv.Uncommitted, ", ")
		}
		switch {
		case called:
			res.Outcome = OutcomeCalled
			res.Score = 0
		case kv.Share >= KeyPointShare-1e-9:
			res.Outcome = OutcomeRelated
			res.Pass = true
		default:
			res.Outcome = OutcomeMissedPoints
		}
	case TaskToolReturn:
		user, tool := conversation(v)
		data := textmatch.ReadToolData(tool)
		if called && strings.TrimSpace(r.Content) == "" {
			res.Outcome = OutcomeCalled
			return
		}
		// One reading of the answer for every check: what states a value
		// for the facts states it for the selection and the copy guard.
		rd := reading.Read(r.Content)
		if why := claims.CopiedData(rd, user, tool, data); why != "" {
			res.Outcome, res.Detail = OutcomeCopied, why
			res.pass(false)
			return
		}
		if made := claims.Contradictions(rd, user, data); len(made) > 0 {
			res.Outcome, res.Detail = OutcomeContradicted, "states values the result does not hold for fields it has: "+strings.Join(made, ", ")
			res.pass(false)
			return
		}
		missed, inexact := claims.Facts(in.ExpectedFacts, rd, data)
		res.Missed = append(missed, inexact...)
		answered := len(res.Missed) == 0 && strings.TrimSpace(r.Content) != ""
		sel := claims.Select(user, in.ExpectedFacts, rd, data)
		if answered && !sel.OK() {
			// Every fact is there, among most of what the result holds
			// beside them: the answer lists the result, it does not select.
			res.Outcome, res.Detail = OutcomeUnselective, sel.Detail()
			res.pass(false)
			return
		}
		if answered && textmatch.SubstantiveFacts(in.ExpectedFacts) == 0 && !claims.StatesToolValue(rd, user, data) && !textmatch.StatesAll(in.ExpectedFacts, rd.Text) {
			// Nothing but status literals is expected: the reply must still
			// state something the tool returned.
			answered = false
			res.Missed = []string{"a value of the tool result"}
		}
		switch {
		case answered:
			res.Outcome = OutcomePassed
			res.pass(true)
		case len(missed) == 0 && len(inexact) > 0:
			res.Outcome = OutcomeInexact
		default:
			res.Outcome = OutcomeMissedFacts
		}
	case TaskPlan:
		ev.scorePlan(in, v, r, res)
	}
}

// scorePlan is Task 8's rule scorer.
func (ev *evaluator) scorePlan(in *dataset.Instruction, v view, r agent.Reply, res *Result) {
	pv := ev.plans().Read(in, v.tools, r.Content)
	res.Missed, res.Score = pv.Missed, pv.Coverage
	var notes []string
	if pv.Copied > 0 {
		notes = append(notes, fmt.Sprintf("%d steps copy the tools' documentation and count for nothing", pv.Copied))
	}
	if len(pv.Extra) > 0 {
		notes = append(notes, "uses APIs the request does not need: "+strings.Join(pv.Extra, ", "))
	}
	res.Detail = strings.Join(notes, "; ")
	res.Outcome = OutcomeLowCoverage
	if pv.Pass() {
		res.Outcome, res.Pass = OutcomePassed, true
	}
}

// plans is the Task-8 scorer over the evaluator's catalog and graph.
func (ev *evaluator) plans() *plan.Scorer { return &plan.Scorer{Catalog: ev.cat, Graph: ev.graph} }

func (res *Result) pass(ok bool) {
	res.Pass = ok
	res.Score = 0
	if ok {
		res.Score = 1
	}
}

// isTarget tells whether an API answers a Type-II instruction.
func (ev *evaluator) isTarget(in *dataset.Instruction, a *toolset.API) bool {
	for _, id := range append([]string{in.TargetAPI}, in.AlsoCorrect...) {
		if dataset.ResolveAPI(ev.cat, id) == a {
			return true
		}
	}
	return false
}

// scoreFill is Task 4: the reply must make exactly the gold call. A gold
// call that cannot judge is a dataset error of the instance, not a pass.
func (ev *evaluator) scoreFill(in *dataset.Instruction, r agent.Reply, res *Result) {
	chk := callcheck.CheckAll(ev.cat, in.GoldCall, r.ToolCalls)
	res.Outcome = chk.Outcome
	if chk.Outcome == callcheck.OutcomeInvalidGold {
		res.Outcome, res.Error, res.ErrorKind = OutcomeError, chk.Detail, ErrorData
		res.Pass, res.Score = false, 0
		return
	}
	if chk.Outcome != callcheck.OutcomeNoCall {
		res.Check = &chk
	}
	res.pass(chk.Outcome == callcheck.OutcomeCorrect)
}
