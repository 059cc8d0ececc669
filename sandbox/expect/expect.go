// Package expect asserts what an agent did in a sandbox session: the calls it made (with acceptable values), their order, dependency violations and a call budget.
package expect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Order says how an Expectation's calls are matched to the calls made.
type Order string

// The orders of an Expectation's calls.
const (
	// Sequence (the default): the expected calls were made in this order;
	// other calls may come between them (bound them with MaxCalls).
	Sequence Order = "sequence"
	// Set: each expected call was made, in any order, each matched by a
	// different call.
	Set Order = "set"
)

// MaxCalls bounds the calls of one expectation, so that matching them
// against a trace (at most 1,000 calls a session) stays cheap.
const MaxCalls = 256

// maxMissLines bounds the diff lines about one expected call.
const maxMissLines = 5

// Expectation is what a test asserts about the calls its agent made in
// one session (POST /v1/sessions/{id}/expect on the HTTP server,
// sandboxtest's Server.Expect in Go). Each expected call is an API and
// argument matchers with the acceptable-values rules of the evaluation
// paper's Task 4 (strings without case, spaces or punctuation, numbers by
// value, an optional argument may be left at its default); arguments it
// does not name are not checked.
type Expectation struct {
	Calls []Call `json:"calls"`
	// Order is Sequence (the default, also when empty) or Set.
	Order Order `json:"order,omitempty"`
	// NoViolations: no call broke a dependency rule (a fabricated ID, a
	// call before its dependency).
	NoViolations bool `json:"no_violations,omitempty"`
	// MaxCalls, when set, bounds the calls made, matched or not (At makes
	// the pointer).
	MaxCalls *int `json:"max_calls,omitempty"`
}

// Call is one expected call: the API as "tool.api" and, for each argument
// it checks, the values it accepts.
type Call struct {
	API       string                `json:"api"`
	Arguments map[string]Acceptable `json:"arguments,omitempty"`
}

// Acceptable lists the equivalent values an argument may take. Optional
// means it may also be left out or at its documented default. In JSON it
// is {"values": [...], "optional": true}, or one plain value (a string, a
// number, a boolean, an array or an object without a "values" key), which
// is the one acceptable value.
type Acceptable struct {
	Values   []any `json:"values"`
	Optional bool  `json:"optional,omitempty"`
}

// OneOf accepts any of values (compared as Task 4 compares them).
func OneOf(values ...any) Acceptable { return Acceptable{Values: values} }

// OrOmitted accepts the argument left out or at its default too.
func (a Acceptable) OrOmitted() Acceptable {
	a.Optional = true
	return a
}

// At returns a pointer to n, for Expectation.MaxCalls.
func At(n int) *int { return &n }

// Verdict answers an expectation: Pass, or Diff says, one line per
// finding, what the agent did instead.
type Verdict struct {
	Pass bool     `json:"pass"`
	Diff []string `json:"diff"`
}

// String is "pass", or "fail:" and the diff, one finding a line.
func (v Verdict) String() string {
	if v.Pass {
		return "pass"
	}
	return "fail:\n\t" + strings.Join(v.Diff, "\n\t")
}

// Error is an expectation that cannot be checked: not the documented
// JSON, an API the catalog does not have, an argument the API does not
// take, an argument with no acceptable value.
type Error struct {
	// Field is the JSON path of the field at fault, e.g.
	// "calls[0].arguments.query"; empty for the whole expectation.
	Field string
	Err   error
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("expectation: %v", e.Err)
	}
	return fmt.Sprintf("expectation: %s: %v", e.Field, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

func fieldErr(field, format string, args ...any) *Error {
	return &Error{Field: field, Err: fmt.Errorf(format, args...)}
}

// Validate checks the expectation against a catalog: a known order, at
// most MaxCalls calls, a non-negative MaxCalls, and calls of catalog APIs
// whose arguments the API takes, each with an acceptable value (an empty
// list would accept anything). It returns an *Error.
func (e *Expectation) Validate(cat *toolset.Catalog) error {
	switch e.Order {
	case "", Sequence, Set:
	default:
		return fieldErr("order", "%q is not an order: want %q or %q", clip(string(e.Order)), Sequence, Set)
	}
	if e.MaxCalls != nil && *e.MaxCalls < 0 {
		return fieldErr("max_calls", "%d: want 0 or more", *e.MaxCalls)
	}
	if len(e.Calls) > MaxCalls {
		return fieldErr("calls", "%d calls: at most %d", len(e.Calls), MaxCalls)
	}
	for i := range e.Calls {
		c := &e.Calls[i]
		api := dataset.ResolveAPI(cat, c.API)
		if api == nil {
			return fieldErr(fmt.Sprintf("calls[%d].api", i), "no API %q in the catalog (want \"tool.api\", as GET /v1/catalog names them)", clip(c.API))
		}
		for _, name := range slices.Sorted(maps.Keys(c.Arguments)) {
			field := fmt.Sprintf("calls[%d].arguments.%s", i, clip(name))
			if api.Param(name) == nil {
				return fieldErr(field, "%s takes no such argument (it takes %s)", api.ID(), paramNames(api))
			}
			if len(c.Arguments[name].Values) == 0 {
				return fieldErr(field, "no acceptable values (an empty list would accept anything): want %s", acceptableShapes)
			}
		}
	}
	return nil
}

func paramNames(a *toolset.API) string {
	names := make([]string, len(a.Params))
	for i, p := range a.Params {
		names[i] = p.Name
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// Check answers the expectation on a session's trace. The expectation
// must be valid (Validate).
func (e *Expectation) Check(cat *toolset.Catalog, t sandbox.SessionTrace) Verdict {
	exp := make([]*expectedCall, len(e.Calls))
	for i := range e.Calls {
		exp[i] = &expectedCall{n: i + 1, args: jsonValues(e.Calls[i].Arguments), api: dataset.ResolveAPI(cat, e.Calls[i].API)}
	}
	made := make([]madeCall, len(t.Calls))
	for i, rec := range t.Calls {
		made[i] = madeCall{rec: rec}
		made[i].args, made[i].argsErr = callcheck.DecodeArguments(agent.ToolCall{Arguments: rec.Arguments})
	}
	diff := []string{}
	var unmatched []int
	if e.Order == Set {
		unmatched = matchSet(exp, made)
	} else {
		unmatched = matchSequence(exp, made)
	}
	for _, i := range unmatched {
		diff = append(diff, exp[i].miss(made, e.Order)...)
	}
	if e.NoViolations {
		for _, m := range made {
			for _, v := range m.rec.Violations {
				diff = append(diff, fmt.Sprintf("call #%d %s.%s: %s violation on %s: %s", m.rec.Seq, m.rec.Tool, m.rec.API, v.Kind, v.Param, v.Message))
			}
		}
	}
	if n := len(t.Calls) + t.Dropped; e.MaxCalls != nil && n > *e.MaxCalls {
		diff = append(diff, fmt.Sprintf("%d calls made, at most %d expected", n, *e.MaxCalls))
	}
	if len(diff) > 0 && len(t.Calls) == 0 && t.Dropped == 0 {
		diff = append(diff, fmt.Sprintf("no calls were made in session %q", t.ID))
	}
	if len(diff) > 0 && t.Dropped > 0 {
		diff = append(diff, fmt.Sprintf("the %d oldest calls of the session are no longer kept", t.Dropped))
	}
	return Verdict{Pass: len(diff) == 0, Diff: diff}
}

// jsonValues turns acceptable values given as Go values (an int, a
// []string) into their decoded-JSON form (json.Number, []any), the form
// callcheck compares and CompactJSON prints; values decoded from JSON are
// unchanged.
func jsonValues(args map[string]Acceptable) map[string]dataset.Acceptable {
	out := make(map[string]dataset.Acceptable, len(args))
	for name, acc := range args {
		vals := make([]any, len(acc.Values))
		for i, v := range acc.Values {
			vals[i] = v
			if b, err := json.Marshal(v); err == nil {
				dec := json.NewDecoder(bytes.NewReader(b))
				dec.UseNumber()
				var back any
				if dec.Decode(&back) == nil {
					vals[i] = back
				}
			}
		}
		out[name] = dataset.Acceptable{Values: vals, Optional: acc.Optional}
	}
	return out
}

type expectedCall struct {
	n    int // 1-based, as the diff names it
	args map[string]dataset.Acceptable
	api  *toolset.API
}

type madeCall struct {
	rec     sandbox.CallRecord
	args    map[string]any
	argsErr error
}

// mismatch says why a made call is not the expected one ("" when it is).
func (c *expectedCall) mismatch(m madeCall) string {
	if m.rec.Tool != c.api.Tool.StandardizedName || m.rec.API != c.api.Name {
		return "another API"
	}
	if m.argsErr != nil {
		return m.argsErr.Error()
	}
	for _, name := range slices.Sorted(maps.Keys(c.args)) {
		acc := c.args[name]
		v, given := m.args[name]
		if !given || v == nil {
			if acc.Optional {
				continue
			}
			return fmt.Sprintf("%s is missing, want one of %s", name, callcheck.CompactJSON(acc.Values))
		}
		if !callcheck.Acceptable(c.api.Param(name), acc, v) {
			return fmt.Sprintf("%s is %s, want one of %s", name, callcheck.CompactJSON(v), callcheck.CompactJSON(acc.Values))
		}
	}
	return ""
}

// miss explains an expected call no made call matched: how each call of
// its API differs, or that its API was never called.
func (c *expectedCall) miss(made []madeCall, order Order) []string {
	head := fmt.Sprintf("expected call %d %s", c.n, c.api.ID())
	var out []string
	more := 0
	for _, m := range made {
		why := c.mismatch(m)
		if why == "another API" {
			continue
		}
		if why == "" {
			// It fits, but another expected call has it (set), or it is
			// not after the one the expected call before matched.
			why = "fits, but another expected call has it"
			if order != Set {
				why = "fits, but does not come after the call matched by the expected call before it"
			}
		}
		if len(out) == maxMissLines {
			more++
			continue
		}
		out = append(out, fmt.Sprintf("%s: call #%d: %s", head, m.rec.Seq, why))
	}
	if len(out) == 0 {
		return []string{head + ": not called"}
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("%s: %d more calls of %s do not fit either", head, more, c.api.ID()))
	}
	return out
}

// matchSequence matches the expected calls, in order, to a subsequence of
// the made calls, each to the first fitting call after the previous match
// (which finds a match whenever one exists), and returns the indexes of
// those left unmatched.
func matchSequence(exp []*expectedCall, made []madeCall) []int {
	var unmatched []int
	next := 0
	for i, c := range exp {
		found := -1
		for j := next; j < len(made); j++ {
			if c.mismatch(made[j]) == "" {
				found = j
				break
			}
		}
		if found < 0 {
			unmatched = append(unmatched, i)
			continue
		}
		next = found + 1
	}
	return unmatched
}

// matchSet matches each expected call to a different made call, in any
// order, as many as can be (a maximum bipartite matching: a greedy choice
// could give an expected call the only call another one fits), and
// returns the indexes of those left unmatched.
func matchSet(exp []*expectedCall, made []madeCall) []int {
	fits := make([][]int, len(exp))
	for i, c := range exp {
		for j := range made {
			if c.mismatch(made[j]) == "" {
				fits[i] = append(fits[i], j)
			}
		}
	}
	owner := make([]int, len(made)) // expected call matched to each made call, or -1
	for j := range owner {
		owner[j] = -1
	}
	var augment func(i int, seen []bool) bool
	augment = func(i int, seen []bool) bool {
		for _, j := range fits[i] {
			if seen[j] {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || augment(owner[j], seen) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	var unmatched []int
	for i := range exp {
		if !augment(i, make([]bool, len(made))) {
			unmatched = append(unmatched, i)
		}
	}
	return unmatched
}

// clip bounds a name echoed from the input.
func clip(s string) string {
	if len(s) <= 256 {
		return s
	}
	return s[:256] + "…"
}

// errEmpty is the Err of an Error for an empty body.
var errEmpty = errors.New("empty body")
