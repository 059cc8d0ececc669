package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Orders of an Expectation's calls.
const (
	// OrderSequence: the expected calls were made in this order; other
	// calls may come between them (bound them with MaxCalls).
	OrderSequence = "sequence"
	// OrderSet: each expected call was made, in any order, each matched by
	// a different call.
	OrderSet = "set"
)

// MaxExpectedCalls bounds the calls of one expectation, so that matching
// them against a trace (at most 1,000 calls a session) stays cheap.
const MaxExpectedCalls = 256

// maxMissLines bounds the diff lines about one expected call.
const maxMissLines = 5

// Expectation is what a test suite asserts about the calls its agent made
// in one session (POST /v1/sessions/{id}/expect). Each expected call is
// an API and argument matchers with the acceptable-values rules of the
// evaluation paper's Task 4 (callcheck.Acceptable: strings without case,
// spaces or punctuation, numbers by value, an optional argument may be
// left at its default); arguments it does not name are not checked.
type Expectation struct {
	Calls []dataset.GoldCall `json:"calls"`
	// Order is OrderSequence (the default) or OrderSet.
	Order string `json:"order,omitempty"`
	// NoViolations: no call broke a dependency rule (a fabricated ID, a
	// call before its dependency).
	NoViolations bool `json:"no_violations,omitempty"`
	// MaxCalls, when set, bounds the calls made, matched or not.
	MaxCalls *int `json:"max_calls,omitempty"`
}

// Verdict answers an expectation: Pass, or Diff says, one line per
// finding, what the agent did instead.
type Verdict struct {
	Pass bool     `json:"pass"`
	Diff []string `json:"diff"`
}

// ExpectationError is an expectation that cannot be checked: not the
// documented JSON, an API the catalog does not have, an argument the API
// does not take, an argument with no acceptable value.
type ExpectationError struct {
	Call  int    // 1-based index in Calls; 0 for the expectation itself
	Param string // the argument at fault, when one is
	Err   error
}

func (e *ExpectationError) Error() string {
	switch {
	case e.Call == 0:
		return fmt.Sprintf("expectation: %v", e.Err)
	case e.Param == "":
		return fmt.Sprintf("expectation: call %d: %v", e.Call, e.Err)
	}
	return fmt.Sprintf("expectation: call %d: argument %s: %v", e.Call, e.Param, e.Err)
}

func (e *ExpectationError) Unwrap() error { return e.Err }

// DecodeExpectation reads one expectation from r. Numbers keep their
// digits (an ID above 2^53 is matched exactly) and unknown fields are
// refused, so that a misspelt "no_violation" fails loudly instead of
// asserting nothing.
func DecodeExpectation(r io.Reader) (*Expectation, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var e Expectation
	if err := dec.Decode(&e); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, err
		}
		if err == io.EOF {
			err = errors.New("empty body")
		}
		return nil, &ExpectationError{Err: err}
	}
	if dec.More() {
		return nil, &ExpectationError{Err: errors.New("unexpected data after the JSON value")}
	}
	if _, err := dec.Token(); err != io.EOF {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, err
		}
		return nil, &ExpectationError{Err: errors.New("unexpected data after the JSON value")}
	}
	return &e, nil
}

// Validate checks the expectation against a catalog: a known order, at
// most MaxExpectedCalls calls, a non-negative MaxCalls, and calls of
// catalog APIs whose arguments the API takes, each with an acceptable
// value (an empty list would accept anything).
func (e *Expectation) Validate(cat *toolset.Catalog) error {
	switch e.Order {
	case "", OrderSequence, OrderSet:
	default:
		return &ExpectationError{Err: fmt.Errorf("order %q: want %q or %q", e.Order, OrderSequence, OrderSet)}
	}
	if e.MaxCalls != nil && *e.MaxCalls < 0 {
		return &ExpectationError{Err: fmt.Errorf("max_calls %d: want 0 or more", *e.MaxCalls)}
	}
	if len(e.Calls) > MaxExpectedCalls {
		return &ExpectationError{Err: fmt.Errorf("%d calls: at most %d", len(e.Calls), MaxExpectedCalls)}
	}
	for i := range e.Calls {
		c := &e.Calls[i]
		api := dataset.ResolveAPI(cat, c.API)
		if api == nil {
			return &ExpectationError{Call: i + 1, Err: fmt.Errorf("no API %q in the catalog (want \"tool.api\")", prefix(c.API, 256))}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Arguments)) {
			if api.Param(name) == nil {
				return &ExpectationError{Call: i + 1, Param: prefix(name, 256), Err: fmt.Errorf("%s takes no such argument", api.ID())}
			}
		}
		if err := c.Check(); err != nil {
			var ge *dataset.GoldError
			if errors.As(err, &ge) {
				return &ExpectationError{Call: i + 1, Param: ge.Param, Err: errors.New(ge.Reason)}
			}
			return &ExpectationError{Call: i + 1, Err: err}
		}
	}
	return nil
}

// Check answers the expectation on a session's trace. The expectation
// must be valid (Validate).
func (e *Expectation) Check(cat *toolset.Catalog, t sandbox.SessionTrace) Verdict {
	exp := make([]*expectedCall, len(e.Calls))
	for i := range e.Calls {
		exp[i] = &expectedCall{n: i + 1, gold: &e.Calls[i], api: dataset.ResolveAPI(cat, e.Calls[i].API)}
	}
	made := make([]madeCall, len(t.Calls))
	for i, rec := range t.Calls {
		made[i] = madeCall{rec: rec}
		made[i].args, made[i].argsErr = callcheck.DecodeArguments(agent.ToolCall{Arguments: rec.Arguments})
	}
	diff := []string{}
	var unmatched []int
	if e.Order == OrderSet {
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

type expectedCall struct {
	n    int // 1-based, as the diff names it
	gold *dataset.GoldCall
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
	for _, name := range slices.Sorted(maps.Keys(c.gold.Arguments)) {
		acc := c.gold.Arguments[name]
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
func (c *expectedCall) miss(made []madeCall, order string) []string {
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
			if order != OrderSet {
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

// expect answers POST (or GET with a body) /v1/sessions/{id}/expect. A
// session without calls is an empty trace, so that "no calls" can be
// asserted too.
func (s *Server) expect(r *http.Request) (any, error) {
	id, err := sessionID(r)
	if err != nil {
		return nil, err
	}
	if err := requireJSON(r); err != nil {
		return nil, err
	}
	e, err := DecodeExpectation(r.Body)
	if err != nil {
		return nil, expectationProblem(err)
	}
	if err := e.Validate(s.engine.Catalog()); err != nil {
		return nil, expectationProblem(err)
	}
	t, ok, err := s.engine.SessionContext(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if !ok {
		t = sandbox.SessionTrace{ID: id}
	}
	return e.Check(s.engine.Catalog(), t), nil
}

func expectationProblem(err error) error {
	var ee *ExpectationError
	if errors.As(err, &ee) {
		return newProblem(http.StatusBadRequest, "malformed-expectation", "Malformed expectation", err.Error())
	}
	return err // a body over the limit: 413
}

// resetSession answers DELETE /v1/sessions/{id}: the session's trace,
// dependency memory and stand-in state are forgotten (204), so that the
// next test case starts from nothing.
func (s *Server) resetSession(r *http.Request) (any, error) {
	id, err := sessionID(r)
	if err != nil {
		return nil, err
	}
	if !s.engine.Reset(id) {
		return nil, unknownSession(id)
	}
	return &rawBody{status: http.StatusNoContent}, nil
}
