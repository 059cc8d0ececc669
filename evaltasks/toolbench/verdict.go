package toolbench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/toolset"
)

// Verdict is how one query is scored. ToolEval (ToolLLM A.5) first asks
// whether the query is solvable with the offered APIs, then whether the
// answer solved it; its pass rate (AnyTool's Eq. 1) counts a non-solvable
// query as a pass. AnyTool's revised pass rate (Eq. 2) ignores
// solvability: a query passes only when it is solved, and an answer that
// gives up never is.
type Verdict struct {
	// Scorer is "rules" or the judge's name.
	Scorer   string `json:"scorer"`
	Solvable bool   `json:"solvable"`
	Solved   bool   `json:"solved"`
	// Pass is ToolEval's pass (Eq. 1): not solvable, or solved.
	Pass bool `json:"pass"`
	// RevisedPass is AnyTool's (Eq. 2): solved, without giving up.
	RevisedPass bool `json:"revised_pass"`
	// Reason says why the rules (or the judge's votes) decided so.
	Reason string `json:"reason"`
	// Missing lists the relevant APIs not called successfully on the
	// answer's path; Grounded tells whether the answer states a value
	// from their responses that the query does not hold.
	Missing  []string `json:"missing,omitempty"`
	Grounded bool     `json:"grounded"`
	// Rule is the rule verdict on solved, kept beside a judge's.
	Rule          bool                   `json:"rule_solved"`
	SolvableJudge *evaltasks.JudgeRecord `json:"solvable_judge,omitempty"`
	SolvedJudge   *evaltasks.JudgeRecord `json:"solved_judge,omitempty"`
}

// RuleCriterion is the rule verdict, as reports print it.
const RuleCriterion = "rule-based verdict (no judge): a query is solved when the solver ends with Finish give_answer " +
	"(or a plain answer) whose final answer is non-empty and no refusal, every relevant API was called successfully " +
	"on the answer's path (where the query file annotates a call of the API, with the annotated values of its " +
	"required codes, names, dates and whole numbers), and the answer states a value from those responses that the query itself does not hold " +
	"and the agent did not send itself; its own arguments echoed back, status words, HTTP codes, small whole numbers, " +
	"what envelope fields (status, code, message, success, error) report and values made only of the query's words, the agent's own " +
	"and status words count for nothing, wherever the response holds them; " +
	"every shipped query is solvable by construction, so the pass rate and the revised pass rate are equal"

// refusalRE finds answers that decline rather than answer.
var refusalRE = regexp.MustCompile(`(?i)^\W*(?:i'?m sorry|i am sorry|sorry|unfortunately|i cannot|i can'?t|i could ?n[o']t|i was unable|i am unable|i'm unable|i do not have|i don'?t have)\b`)

// ruleVerdict scores a trace by the rules.
func ruleVerdict(q *Query, r *Resolved, tr *solve.Trace) *Verdict {
	v := &Verdict{Scorer: "rules", Solvable: true}
	v.Missing, v.Grounded = evidence(q, r, tr)
	answer := strings.TrimSpace(tr.Answer)
	switch {
	case tr.Outcome == solve.OutcomeGiveUp:
		v.Reason = "the solver gave up"
	case tr.Outcome != solve.OutcomeAnswer:
		v.Reason = "no answer: " + tr.Outcome
	case answer == "":
		v.Reason = "an empty final answer"
	case refusalRE.MatchString(answer):
		v.Reason = "the final answer declines"
	case len(v.Missing) > 0:
		v.Reason = "relevant APIs not called successfully: " + strings.Join(v.Missing, ", ")
	case !v.Grounded:
		v.Reason = "the final answer states nothing the relevant APIs returned"
	default:
		v.Solved = true
		v.Reason = "answered from every relevant API"
	}
	v.Rule = v.Solved
	v.finish(tr)
	return v
}

// finish derives the two passes from solvable and solved.
func (v *Verdict) finish(tr *solve.Trace) {
	v.Pass = !v.Solvable || v.Solved
	v.RevisedPass = v.Solved && tr.Outcome == solve.OutcomeAnswer
}

// evidence lists the relevant APIs without a successful call on the
// answer's path, and tells whether the answer states a value of their
// responses the query does not hold. Values that say nothing the API
// found do not count (noEvidence): small whole numbers, status words such
// as "success" or "true", HTTP codes, envelope reports, the query's words
// wrapped in status words, and whatever the agent itself put into a call (a
// response that echoes {"q": "test", "limit": 100} has found neither
// "test" nor 100). An argument the agent took from an earlier response
// (an ID a search listed) is the API's finding, not the agent's, and
// counts from that response.
func evidence(q *Query, r *Resolved, tr *solve.Trace) ([]string, bool) {
	ok := map[string]bool{}
	var values []string
	// A value the query states in any form (a date written otherwise, a
	// word of it) is no evidence the answer read it from a response.
	asked := textmatch.NewMatcher(q.Text)
	queryWords := contentWords(q.Text)
	own := agentValues(tr.Calls())
	apis := map[string]*toolset.API{}
	for _, a := range r.Offered {
		apis[a.ID()] = a
	}
	for _, c := range tr.PathCalls() {
		if !c.OK() {
			continue
		}
		if gold, annotated := r.Annotated[c.API]; annotated && !agreesWithAny(apis[c.API], gold, c.Arguments) {
			// Germany's holidays asked, Australia's fetched: the call
			// succeeded, but it is not the one the query needs.
			continue
		}
		ok[c.API] = true
		data := textmatch.ReadToolData(string(c.Response))
		for _, v := range data.Values {
			if !noEvidence(v, data.Paths[v], asked, queryWords, own) {
				values = append(values, v)
			}
		}
	}
	var missing []string
	for _, a := range r.Relevant {
		if !ok[a.ID()] {
			missing = append(missing, a.ID())
		}
	}
	if strings.TrimSpace(tr.Answer) == "" {
		return missing, false
	}
	grounded := textmatch.StatesToolValue(tr.Answer, q.Text, textmatch.ToolData{Values: values})
	return missing, grounded
}

// agreesWithAny tells whether a call's arguments agree with one of the
// annotated calls of its API on every required parameter both give whose
// annotated value identifies something: a string of at most three words
// (a code, a city, an IATA code, a date) or a whole number. Longer texts
// (an expression, a sentence to translate) and fractional numbers have
// many right forms and are not compared; ToolBench spellings of parameter
// names count as the real ones.
func agreesWithAny(a *toolset.API, gold []map[string]any, raw json.RawMessage) bool {
	if a == nil {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var got map[string]any
	if err := dec.Decode(&got); err != nil {
		return false
	}
	aliases := a.ParamAliases()
	for name, v := range got {
		if real, ok := aliases[name]; ok {
			if _, dup := got[real]; !dup {
				got[real] = v
			}
		}
	}
	for _, g := range gold {
		if agrees(a, g, got) {
			return true
		}
	}
	return false
}

func agrees(a *toolset.API, gold, got map[string]any) bool {
	for name, want := range gold {
		p := a.Param(name)
		have, given := got[name]
		if p == nil || !p.Required || !given {
			continue
		}
		if f, numeric := callcheck.ToFloat(want); numeric {
			if f != math.Trunc(f) {
				continue
			}
			if !callcheck.SameValue(want, have) && !callcheck.SameValue(want, numberIn(have)) {
				return false
			}
			continue
		}
		w, ok := want.(string)
		if !ok || !identifying(w) {
			continue
		}
		h := fmt.Sprint(have)
		if !callcheck.SameValue(w, h) && !wordsWithin(w, h) && !wordsWithin(h, w) {
			return false
		}
	}
	return true
}

// identifierRE is a name, code or date: letters, digits and the
// punctuation of names, in at most three words ("DE", "Asia/Tokyo",
// "2025-07-14", "Eiffel Tower, Paris"); not an expression or a sentence.
var identifierRE = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N} ,.'/_-]*$`)

func identifying(s string) bool {
	return identifierRE.MatchString(s) && len(strings.Fields(s)) <= 3
}

// numberIn reads a number written as a string ("2025"), as clients send.
func numberIn(v any) any {
	if s, ok := v.(string); ok {
		return json.Number(strings.TrimSpace(s))
	}
	return v
}

// wordsWithin tells whether every word of a is a word of b ("Paris" in
// "Paris, France"; "Eiffel Tower" in "Eiffel Tower, Paris").
func wordsWithin(a, b string) bool {
	wa := textmatch.Words(a)
	if len(wa) == 0 {
		return false
	}
	set := map[string]bool{}
	for _, w := range textmatch.Words(b) {
		set[w] = true
	}
	for _, w := range wa {
		if !set[w] {
			return false
		}
	}
	return true
}

// arguments are the values the agent put into its calls of its own, to
// tell a response value that only hands them back.
type arguments struct {
	values  map[string]bool  // lowercased strings and numbers as written
	numbers map[float64]bool // every value that reads as a number
	words   map[string]bool  // every content word of every value, stemmed
}

// agentValues reads the argument values of a run's calls, in the order
// they were made, that no response seen before the call held: the agent's
// own, from the query or invented, rather than found.
func agentValues(calls []solve.CallRecord) arguments {
	own := arguments{values: map[string]bool{}, numbers: map[float64]bool{}, words: map[string]bool{}}
	found := arguments{values: map[string]bool{}, numbers: map[float64]bool{}, words: map[string]bool{}}
	for _, c := range calls {
		for _, v := range leafValues(c.Arguments) {
			if !found.holds(v) {
				own.add(v)
			}
		}
		for _, v := range textmatch.ReadToolData(string(c.Response)).Values {
			found.add(v)
		}
	}
	return own
}

// leafValues are the leaf values of a call's arguments (a JSON object, as
// the model sent them) as text; unreadable arguments have none.
func leafValues(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(t)) {
				walk(t[k])
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		case json.Number:
			out = append(out, t.String())
		case string:
			out = append(out, t)
		case bool:
			out = append(out, strconv.FormatBool(t))
		}
	}
	walk(v)
	return out
}

// holds tells whether s is one of the values, in any case or number form.
func (a arguments) holds(s string) bool {
	s = strings.TrimSpace(s)
	if a.values[strings.ToLower(s)] {
		return true
	}
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && a.numbers[f]
}

func (a arguments) add(s string) {
	s = strings.TrimSpace(s)
	a.values[strings.ToLower(s)] = true
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		a.numbers[f] = true
	}
	for _, w := range textmatch.ContentWords(s) {
		a.words[w] = true
	}
}

// echoes tells whether a response value is only the arguments handed
// back: one of them in any case or number form ("100" for 100), or words
// all of whose content words the arguments hold ("Paris to London" for
// {"from": "Paris", "to": "London"}; "DE-BY" for {"countryCode": "DE"},
// which a reply saying "DE" states as far as words go).
func (a arguments) echoes(v string) bool {
	if a.holds(v) {
		return true
	}
	if _, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
		return false
	}
	ws := textmatch.ContentWords(v)
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		if !a.words[w] {
			return false
		}
	}
	return true
}

func trivialValue(v string) bool {
	if textmatch.IsStatusLiteral(v) {
		return true
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f == float64(int64(f)) && f > -10 && f < 10
	}
	return false
}

// judgeVerdict asks the judge: is the query solvable with the offered
// APIs, and did the answer solve it. An answer that gives up (or none at
// all) is not sent for the second question: it is unsolved. A question
// the judge answers with no majority is no verdict: judgeVerdict returns
// the votes so far with the *evaltasks.JudgeError, and the query is an
// error; any other error stops the run.
func judgeVerdict(ctx context.Context, j *evaltasks.Judge, q *Query, r *Resolved, tr *solve.Trace) (*Verdict, error) {
	rule := ruleVerdict(q, r, tr)
	v := &Verdict{Scorer: j.Name, Missing: rule.Missing, Grounded: rule.Grounded, Rule: rule.Solved}
	if v.Scorer == "" {
		v.Scorer = "judge"
	}
	noVerdict := func(err error) (*Verdict, error) {
		var je *evaltasks.JudgeError
		if !errors.As(err, &je) {
			return nil, err
		}
		v.Reason = "no verdict: " + err.Error()
		return v, err
	}
	rec, err := j.Ask(ctx, SolvableSystem, solvablePrompt(q, r), labelParser("solvable", "unsolvable"))
	v.SolvableJudge = rec
	if err != nil {
		return noVerdict(err)
	}
	v.Solvable = rec.Pass
	if tr.Outcome != solve.OutcomeAnswer || strings.TrimSpace(tr.Answer) == "" {
		v.Reason = "no final answer (" + tr.Outcome + "): unsolved without a vote"
		v.finish(tr)
		return v, nil
	}
	rec, err = j.Ask(ctx, SolvedSystem, solvedPrompt(q, tr), labelParser("solved", "unsolved"))
	v.SolvedJudge = rec
	if err != nil {
		return noVerdict(err)
	}
	rec.Rule = rule.Solved
	v.SolvedJudge, v.Solved = rec, rec.Pass
	v.Reason = fmt.Sprintf("judge: solvable %s, solved %s", strings.Join(v.SolvableJudge.Votes, "/"), strings.Join(rec.Votes, "/"))
	v.finish(tr)
	return v, nil
}

// The judge's system messages: ToolEval's two questions.
const (
	SolvableSystem = "You judge whether a user's query can be solved with a given list of APIs. A query is SOLVABLE when the APIs, called with values the query gives or that other APIs return, can supply what it asks for; it is UNSOLVABLE when the APIs are irrelevant to it or the query gives invalid information. Think briefly, then end with a final line that is exactly VERDICT: SOLVABLE or VERDICT: UNSOLVABLE."
	SolvedSystem   = "You judge whether an assistant's final answer solves a user's query, given the API calls it made and what they returned. Rules (ToolEval): the answer is SOLVED when it completely resolves the query with information the APIs returned, or, when the APIs gave no valid information after the assistant tried them all, when it says so honestly. It is UNSOLVED when it misses part of the query, refuses although the APIs gave valid information, or states results the calls do not support. Think briefly, then end with a final line that is exactly VERDICT: SOLVED or VERDICT: UNSOLVED."
)

// labelParser reads "VERDICT: <yes>|<no>" (the last one wins) as a
// pass/fail vote; anything else is invalid: no verdict.
func labelParser(yes, no string) func(string) string {
	re := regexp.MustCompile(`(?i)verdict\s*[:=]?\s*\**\s*(` + no + `|` + yes + `)\b`)
	return func(text string) string {
		m := re.FindAllStringSubmatch(text, -1)
		if len(m) == 0 {
			return evaltasks.VoteInvalid
		}
		if strings.EqualFold(m[len(m)-1][1], yes) {
			return evaltasks.VotePass
		}
		return evaltasks.VoteFail
	}
}

func solvablePrompt(q *Query, r *Resolved) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Query:\n%s\n\nAvailable APIs:\n", q.Text)
	for _, a := range r.Offered {
		fmt.Fprintf(&b, "- %s: %s\n", a.ID(), oneLine(a.Description, 300))
		for _, p := range a.Params {
			req := "optional"
			if p.Required {
				req = "required"
			}
			fmt.Fprintf(&b, "    %s (%s, %s): %s\n", p.Name, p.Kind, req, oneLine(p.Description, 160))
		}
	}
	return b.String()
}

func solvedPrompt(q *Query, tr *solve.Trace) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Query:\n%s\n\nAPI calls on the answer's path:\n", q.Text)
	calls := tr.PathCalls()
	if len(calls) == 0 {
		b.WriteString("(none)\n")
	}
	for i, c := range calls {
		args, _ := json.Marshal(c.Arguments)
		fmt.Fprintf(&b, "%d. %s %s\n   returned: %s\n", i+1, c.Function, args, oneLine(c.Observation, 1500))
	}
	fmt.Fprintf(&b, "\nFinal answer:\n%s\n", tr.Answer)
	return b.String()
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		cut := n
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// exportTools maps every catalog API ID to its OpenAI function, in
// ToolBench's naming ("<api>_for_<tool>"), as ToolBench's solvers offer them.
func exportTools(c *toolset.Catalog) map[string]toolset.OpenAITool {
	out := map[string]toolset.OpenAITool{}
	apis := c.APIs()
	for i, t := range toolset.OpenAITools(c, toolset.ExportOptions{Style: toolset.NameToolBench}) {
		out[apis[i].ID()] = t
	}
	return out
}
