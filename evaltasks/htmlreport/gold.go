package htmlreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/dataset"
)

// The gold annotations of a failed instance beside what the agent did,
// row by row, each row marked as the verdict found it: the failure
// browser's answer to "what should it have done, and where did it go
// wrong", which a dump of the gold record leaves to the reader.

// Row statuses, also the rows' CSS classes.
const (
	rowSame      = "same"      // the agent's matches the gold
	rowDiffers   = "differs"   // a value or an API other than the gold's
	rowMissing   = "missing"   // in the gold, not given by the agent
	rowExtra     = "extra"     // given by the agent, not in the gold
	rowOptional  = "optional"  // an optional gold argument left out: fine
	rowFound     = "found"     // a gold item the answer has
	rowMissed    = "missed"    // a gold item the answer lacks
	rowUnchecked = "unchecked" // not checked: the answer never got that far
)

// goldView is the "gold beside the agent" part of a failure.
type goldView struct {
	// Call compares the gold call (or the gold decision to call) with the
	// agent's call, in the tasks that judge a call.
	Call *callDiff
	// Lists are the gold items the verdict checks off: missing
	// parameters, key points, facts, group APIs, key steps.
	Lists []goldList
	// Chain is a Task-7 chain step by step.
	Chain []chainRow
	// Reference is the gold answer; Answer the agent's.
	Reference string
	Answer    string
	HasAnswer bool
	// Note says how to read the marks (a judge decided, nothing checked).
	Note string
}

// Empty tells whether there is nothing to set beside the agent.
func (g goldView) Empty() bool {
	return g.Call == nil && len(g.Lists) == 0 && len(g.Chain) == 0 && g.Reference == "" && !g.HasAnswer
}

type callDiff struct {
	Rows []diffRow
	// More counts the reply's calls beyond the one compared.
	More int
}

// diffRow is a line of a comparison: what the gold says, what the agent
// did, and the status. Blamed marks the argument the call check failed.
type diffRow struct {
	Name   string
	Gold   string
	Agent  string
	Status string
	Blamed bool
}

type goldList struct {
	Title string
	Rows  []diffRow
}

// chainRow is a gold step of a chain beside the agent's calls of its API.
type chainRow struct {
	Step int
	API  string
	// Gold are the step's arguments: literal values, marked against the
	// agent's call of the API that agrees with most of them, and
	// bindings to earlier steps' responses.
	Gold   []goldArg
	Agent  []string // the arguments of each call of the API
	Status string
	Reason string
}

// goldArg is one argument of a gold step: "name = value" or
// "name ← step 1: path", with its status in the agent's call ("" when
// the call is not compared with it).
type goldArg struct {
	Text   string
	Status string
}

// notChecked are the outcomes after which a task's scorer never looked at
// the gold items: no answer, or one that is no answer in words.
var notChecked = map[string]bool{
	evaltasks.OutcomeNotRun: true, evaltasks.OutcomeError: true, callcheck.OutcomeParseError: true,
}

var notCheckedIn = map[int]map[string]bool{
	evaltasks.TaskClarify:    {evaltasks.OutcomeCalled: true},
	evaltasks.TaskToolReturn: {evaltasks.OutcomeCalled: true, evaltasks.OutcomeCopied: true},
}

func itemsChecked(f evaltasks.Failure) bool {
	if len(f.Missed) > 0 {
		return true
	}
	return f.Error == "" && !notChecked[f.Outcome] && !notCheckedIn[f.Task][f.Outcome]
}

// newGoldView compares a failure's gold with what the agent did.
func newGoldView(f evaltasks.Failure) goldView {
	var g goldView
	if f.Result == nil || f.Gold == nil {
		return g
	}
	gold := f.Gold
	checked := itemsChecked(f)
	list := func(title string, items []string) {
		if len(items) > 0 {
			g.Lists = append(g.Lists, checkList(title, items, f.Missed, checked))
		}
	}
	calls := replyCalls(f.Result)
	switch f.Task {
	case evaltasks.TaskDecide:
		g.Call = decisionDiff(f, calls)
	case evaltasks.TaskSelect:
		g.Call = selectionDiff(f, calls)
	case evaltasks.TaskFill:
		if gold.GoldCall != nil {
			g.Call = argumentDiff(f, gold.GoldCall, calls)
		}
	case evaltasks.TaskClarify:
		list("Missing parameters to ask for", gold.Missing)
	case evaltasks.TaskIntrinsic:
		list("Key points", gold.KeyPoints)
		g.Reference = gold.ReferenceAnswer
	case evaltasks.TaskToolReturn:
		list("Expected facts", gold.ExpectedFacts)
	case evaltasks.TaskChain:
		g.Chain = chainRows(f, checked)
	case evaltasks.TaskPlan:
		list("APIs of the group", gold.GroupAPIs)
		list("Key steps", gold.KeySteps)
	}
	// The verdict's findings that are no gold item ("a value of the tool
	// result") close the last list.
	if n := len(g.Lists); n > 0 {
		have := map[string]bool{}
		for _, l := range g.Lists {
			for _, r := range l.Rows {
				have[r.Gold] = true
			}
		}
		for _, m := range f.Missed {
			if !have[m] {
				g.Lists[n-1].Rows = append(g.Lists[n-1].Rows, diffRow{Gold: m, Agent: "missed", Status: rowMissed})
			}
		}
	}
	if f.Task != evaltasks.TaskChain && f.Task != evaltasks.TaskSelect && f.Task != evaltasks.TaskFill {
		g.Answer, g.HasAnswer = replyText(f.Result)
	}
	switch {
	case !checked && (len(g.Lists) > 0 || len(g.Chain) > 0):
		g.Note = "Not checked item by item: the reply ended as " + words(f.Outcome) + "."
	case f.Judge != nil && len(g.Lists) > 0:
		g.Note = "Marked by the rules; the judge's votes decided the verdict."
	}
	return g
}

func checkList(title string, items, missed []string, checked bool) goldList {
	l := goldList{Title: title}
	for _, it := range items {
		r := diffRow{Gold: it, Agent: "found", Status: rowFound}
		switch {
		case !checked:
			r.Agent, r.Status = "not checked", rowUnchecked
		case slices.Contains(missed, it):
			r.Agent, r.Status = "missed", rowMissed
		}
		l.Rows = append(l.Rows, r)
	}
	return l
}

// replyCalls are the calls of the agent's reply (or of its last message
// that made calls, for a result without the reply).
func replyCalls(r *evaltasks.Result) []agent.ToolCall {
	if r.Reply != nil {
		return r.Reply.ToolCalls
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := r.Messages[i]; m.Role == agent.RoleAssistant && len(m.ToolCalls) > 0 {
			return m.ToolCalls
		}
	}
	return nil
}

// replyText is the agent's answer in words.
func replyText(r *evaltasks.Result) (string, bool) {
	if r.Reply != nil {
		return r.Reply.Content, true
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := r.Messages[i]; m.Role == agent.RoleAssistant {
			return m.Content, true
		}
	}
	return "", false
}

// sameAPI tells whether a called function name is the catalog API id:
// the id itself, or its exported name ("tool-api", toolset.NameDotted).
func sameAPI(name, id string) bool {
	return name == id || name == strings.Replace(id, ".", "-", 1)
}

// shownName is a called function's name as the page writes APIs: the
// catalog id (tool.api) when the name is one of ids under another
// spelling, so that gold and agent read alike where they agree.
func shownName(name string, ids ...string) string {
	for _, id := range ids {
		if sameAPI(name, id) {
			return id
		}
	}
	return name
}

func callNames(calls []agent.ToolCall, ids ...string) string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = shownName(c.Name, ids...)
	}
	return strings.Join(names, ", ")
}

// decisionDiff is Task 1: to call a tool or not.
func decisionDiff(f evaltasks.Failure, calls []agent.ToolCall) *callDiff {
	positive := f.Label == "positive"
	row := diffRow{Name: "tool call", Gold: "not needed: answer without a tool", Agent: "none"}
	if positive {
		row.Gold = "needed"
		if api := f.Gold.TargetAPI; api != "" {
			row.Gold += ": " + api
		}
	}
	if len(calls) > 0 {
		row.Agent = "called " + callNames(calls, f.APIs...)
	}
	row.Status = rowDiffers
	if (len(calls) > 0) == positive && f.Outcome != callcheck.OutcomeParseError && f.Error == "" {
		row.Status = rowSame
	}
	return &callDiff{Rows: []diffRow{row}}
}

// selectionDiff is Task 2: the API of the first call.
func selectionDiff(f evaltasks.Failure, calls []agent.ToolCall) *callDiff {
	targets := []string{f.Gold.TargetAPI}
	targets = append(targets, f.Gold.AlsoCorrect...)
	row := diffRow{Name: "API", Gold: strings.Join(targets, " or "), Agent: "no call", Status: rowMissing}
	if len(calls) > 0 {
		row.Agent, row.Status = shownName(calls[0].Name, targets...), rowDiffers
		if f.Outcome == callcheck.OutcomeCorrect {
			row.Status = rowSame
		}
	}
	d := &callDiff{Rows: []diffRow{row}}
	if len(calls) > 1 {
		d.More = len(calls) - 1
	}
	return d
}

// argumentDiff is Task 4: the call compared argument by argument with
// the gold call's acceptable values (callcheck's rule for one value).
func argumentDiff(f evaltasks.Failure, gold *dataset.GoldCall, calls []agent.ToolCall) *callDiff {
	d := &callDiff{}
	api := diffRow{Name: "API", Gold: gold.API, Agent: "no call", Status: rowMissing}
	if len(calls) == 0 {
		d.Rows = append(d.Rows, api)
		for _, name := range slices.Sorted(maps.Keys(gold.Arguments)) {
			d.Rows = append(d.Rows, diffRow{Name: name, Gold: acceptableText(gold.Arguments[name]), Agent: "—", Status: rowMissing})
		}
		return d
	}
	call := calls[0]
	for _, c := range calls {
		if sameAPI(c.Name, gold.API) {
			call = c
			break
		}
	}
	d.More = len(calls) - 1
	check := f.Check
	api.Agent, api.Status = shownName(call.Name, gold.API), rowDiffers
	if check != nil && check.Outcome != callcheck.OutcomeWrongName || check == nil && sameAPI(call.Name, gold.API) {
		api.Status = rowSame
	}
	api.Blamed = check != nil && check.Outcome == callcheck.OutcomeWrongName
	d.Rows = append(d.Rows, api)
	args, err := callcheck.DecodeArguments(call)
	if err != nil {
		d.Rows = append(d.Rows, diffRow{Name: "arguments", Gold: "a JSON object", Agent: err.Error(), Status: rowDiffers, Blamed: true})
		return d
	}
	names := map[string]bool{}
	for n := range gold.Arguments {
		names[n] = true
	}
	for n, v := range args {
		if v != nil {
			names[n] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(names)) {
		acc, inGold := gold.Arguments[name]
		v, given := args[name]
		given = given && v != nil
		r := diffRow{Name: name, Gold: "—", Agent: "—"}
		if inGold {
			r.Gold = acceptableText(acc)
		}
		if given {
			r.Agent = compact(v)
		}
		switch {
		case inGold && given && callcheck.Acceptable(nil, acc, v):
			r.Status = rowSame
		case inGold && given:
			r.Status = rowDiffers
		case inGold && acc.Optional:
			r.Status = rowOptional
		case inGold:
			r.Status = rowMissing
		default:
			r.Status = rowExtra
		}
		r.Blamed = check != nil && check.Param == name
		d.Rows = append(d.Rows, r)
	}
	return d
}

// acceptableText lists a gold argument's acceptable values.
func acceptableText(acc dataset.Acceptable) string {
	vals := make([]string, len(acc.Values))
	for i, v := range acc.Values {
		vals[i] = compact(v)
	}
	s := strings.Join(vals, " or ")
	if acc.Optional {
		s += " (optional)"
	}
	return s
}

// chainRows sets each gold step beside the agent's calls of its API and
// the chain scorer's break, if the step broke.
func chainRows(f evaltasks.Failure, checked bool) []chainRow {
	breaks := map[int]string{}
	reasons := map[int]string{}
	for _, b := range f.Breaks {
		breaks[b.Step], reasons[b.Step] = b.Kind, b.Reason
	}
	var out []chainRow
	for i, st := range f.Gold.Chain {
		r := chainRow{Step: i + 1, API: st.API, Status: rowSame, Reason: "done"}
		var made []map[string]any
		for _, c := range f.Calls {
			if c.API == st.API || sameAPI(c.Name, st.API) {
				r.Agent = append(r.Agent, callArgs(c.Arguments))
				if args, err := callcheck.DecodeArguments(agent.ToolCall{Arguments: c.Arguments}); err == nil {
					made = append(made, args)
				}
			}
		}
		closest := closestCall(st.Arguments, made)
		for _, k := range slices.Sorted(maps.Keys(st.Arguments)) {
			a := goldArg{Text: k + " = " + compact(st.Arguments[k])}
			if checked && closest != nil {
				v, given := closest[k]
				switch {
				case given && callcheck.SameValue(st.Arguments[k], v):
					a.Status = rowSame
				case given:
					a.Status = rowDiffers
				default:
					a.Status = rowMissing
				}
			}
			r.Gold = append(r.Gold, a)
		}
		for _, k := range slices.Sorted(maps.Keys(st.Bindings)) {
			b := st.Bindings[k]
			r.Gold = append(r.Gold, goldArg{Text: fmt.Sprintf("%s ← step %d: %s", k, b.Step+1, b.Path)})
		}
		switch kind, broke := breaks[r.Step]; {
		case !checked:
			r.Status, r.Reason = rowUnchecked, "not checked"
		case broke:
			r.Status, r.Reason = rowDiffers, words(kind)
			if reasons[r.Step] != "" && reasons[r.Step] != words(kind) {
				r.Reason += ": " + reasons[r.Step]
			}
		}
		out = append(out, r)
	}
	return out
}

// closestCall is the call whose arguments agree with most of a gold
// step's literal arguments (the first of equals), nil for none.
func closestCall(gold map[string]any, calls []map[string]any) map[string]any {
	var best map[string]any
	bestN := -1
	for _, args := range calls {
		n := 0
		for k, want := range gold {
			if v, ok := args[k]; ok && callcheck.SameValue(want, v) {
				n++
			}
		}
		if n > bestN {
			best, bestN = args, n
		}
	}
	return best
}

// callArgs is a call's arguments on one line.
func callArgs(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil || b.Len() == 0 || b.String() == "null" {
		if s := strings.TrimSpace(string(raw)); s != "" && s != "null" {
			return s
		}
		return "{}"
	}
	return b.String()
}

// compact is a value as compact JSON, HTML characters as they are (the
// template escapes them): for a table cell.
func compact(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
