// Package solve drives an agent through a multi-step query with a call budget: ReAct (one path) and DFSDT (ToolLLM's depth-first search-based decision tree).
package solve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/internal/clip"
	"github.com/understudy/understudy/agent/observe"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// The multi-step solvers (ReAct and DFSDT) drive an Agent through a task:
// they execute its tool calls through an Executor, feed the results back,
// and stop at ToolLLM's Finish function, at the call budget, or on a fault.
// A run always ends in a Trace with a recorded Outcome; faults of the model
// or of a tool never abort the caller's run.

// Finish return types.
const (
	ReturnGiveAnswer = "give_answer"
	ReturnGiveUp     = "give_up_and_restart"
)

// DefaultCallBudget is the number of tool calls a solver may make for one
// query, as in AnyTool's DFSDT setup.
const DefaultCallBudget = 10

// DefaultMaxTurns bounds the model turns of one query, so a model that never
// calls a tool or Finish still ends.
const DefaultMaxTurns = 30

// DefaultMaxObservation bounds the text of one tool result shown to the
// model: observe.Budget, the budget every result the evaluation shows a
// model is held to.
const DefaultMaxObservation = observe.Budget

// Outcomes of a solver run.
const (
	// OutcomeAnswer: the model gave a final answer (Finish give_answer, or plain text).
	OutcomeAnswer = "answer"
	// OutcomeGiveUp: the model gave up and no branch was left to try.
	OutcomeGiveUp = "give_up"
	// OutcomeBudget: the call budget ran out before an answer.
	OutcomeBudget = "budget_exhausted"
	// OutcomeTurnLimit: the model-turn limit ran out before an answer.
	OutcomeTurnLimit = "turn_limit"
	// OutcomeModelError: the model server failed (timeout, 429, 5xx,
	// malformed or truncated response) after the client's retries.
	OutcomeModelError = "model_error"
	// OutcomeCancelled: the caller's context ended the run.
	OutcomeCancelled = "cancelled"
	// OutcomeInvalid: the problem could not be run (no query, a bad tool list).
	OutcomeInvalid = "invalid_problem"
)

// FinishTool is the Finish function offered to the model beside the task's tools.
func FinishTool() toolset.OpenAITool {
	return toolset.OpenAITool{Type: "function", Function: toolset.OpenAIFunction{
		Name: agent.FinishName,
		Description: "If you have obtained a result that answers the task, call this function with return_type give_answer " +
			"and the final answer. If you cannot go on with the task from this state, call it with return_type " +
			"give_up_and_restart. Always call this function at the end of an attempt: only the final answer is shown " +
			"to the user, so it must hold all the information asked for.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"return_type": map[string]any{"type": "string", "enum": []any{ReturnGiveAnswer, ReturnGiveUp}},
				"final_answer": map[string]any{
					"type":        "string",
					"description": "The answer for the user; required when return_type is give_answer.",
				},
			},
			"required": []any{"return_type"},
		},
	}}
}

// Problem is one query for a solver.
type Problem struct {
	// ID names the query in traces; it seeds the session id when Session is empty.
	ID    string
	Query string
	// System is prepended to the solver's own system prompt when set.
	System string
	// Tools are the functions the model may call; Finish is added by the solver.
	Tools []toolset.OpenAITool
	// Session is the tool-server session the calls run in; empty derives
	// one from ID and Query, so reruns of a query share nothing by accident
	// and the same query always maps to the same session name.
	Session string
}

// ProblemError reports a Problem a solver cannot run.
type ProblemError struct{ Reason string }

func (e *ProblemError) Error() string { return "agent: bad problem: " + e.Reason }

func (p *Problem) check() error {
	if strings.TrimSpace(p.Query) == "" {
		return &ProblemError{Reason: "empty query"}
	}
	for i, t := range p.Tools {
		if t.Function.Name == "" {
			return &ProblemError{Reason: fmt.Sprintf("tools[%d] has no function name", i)}
		}
		if t.Function.Name == agent.FinishName {
			return &ProblemError{Reason: fmt.Sprintf("tools[%d] is named %s, which the solver reserves", i, agent.FinishName)}
		}
	}
	return nil
}

// SessionFor is the session a problem's calls run in.
func (p *Problem) SessionFor(solver string) string {
	if p.Session != "" {
		return p.Session
	}
	h := sha256.Sum256([]byte(solver + "\x00" + p.ID + "\x00" + p.Query))
	return solver + "-" + hex.EncodeToString(h[:8])
}

// Solver runs one query to an outcome.
type Solver interface {
	// Solve always returns a trace. The error is non-nil only for a bad
	// Problem or when ctx ended the run (the trace then says cancelled).
	Solve(ctx context.Context, p Problem) (*Trace, error)
}

// Trace is the record of one solver run: every model turn, every call with
// its result, and how the run ended.
type Trace struct {
	Solver  string `json:"solver"`
	ID      string `json:"id,omitempty"`
	Session string `json:"session"`
	Outcome string `json:"outcome"`
	// Answer is the final answer (OutcomeAnswer only).
	Answer string `json:"answer,omitempty"`
	// Error describes a model failure, or why the last attempt gave up.
	Error string `json:"error,omitempty"`
	// Err is the model failure itself (OutcomeModelError), for callers
	// that tell an unreachable server from one that answered with an
	// error; Error is its text, which is what results files keep.
	Err error `json:"-"`
	// Budget is the call budget; CallsUsed the calls counted against it.
	Budget     int         `json:"budget"`
	CallsUsed  int         `json:"calls_used"`
	ModelTurns int         `json:"model_turns"`
	Usage      agent.Usage `json:"usage"`
	// Restarts counts the branches abandoned by give_up_and_restart (DFSDT).
	Restarts int    `json:"restarts,omitempty"`
	Steps    []Step `json:"steps"`
	// Path lists, root first, the indexes in Steps of the branch the run ended on.
	Path []int `json:"path,omitempty"`
}

// Step is one model turn and what came of it.
type Step struct {
	// Parent is the index of the step whose state this turn continued, -1
	// for the first turn of a branch from the query itself.
	Parent int `json:"parent"`
	Depth  int `json:"depth"`
	// Diversified is set when the prompt listed earlier attempts from this state (DFSDT).
	Diversified bool         `json:"diversified,omitempty"`
	Reply       *agent.Reply `json:"reply,omitempty"`
	// Error is the model failure of this turn.
	Error  string       `json:"error,omitempty"`
	Calls  []CallRecord `json:"calls,omitempty"`
	Finish *FinishCall  `json:"finish,omitempty"`
	// Feedback is a note the solver sent back instead of a tool result
	// (an unreadable reply, an invalid Finish).
	Feedback string `json:"feedback,omitempty"`
}

// FinishCall is a call of Finish.
type FinishCall struct {
	ReturnType  string `json:"return_type"`
	FinalAnswer string `json:"final_answer,omitempty"`
}

// CallRecord is one tool call as the model made it and as it was executed.
type CallRecord struct {
	ID           string          `json:"id"`
	Function     string          `json:"function"`
	Arguments    json.RawMessage `json:"arguments,omitempty"`
	RawArguments string          `json:"raw_arguments,omitempty"`
	// API is the resolved API ("tool.api"), empty for an unknown function.
	API        string              `json:"api,omitempty"`
	Status     int                 `json:"status,omitempty"`
	Response   json.RawMessage     `json:"response,omitempty"`
	Source     string              `json:"source,omitempty"`
	Seq        int                 `json:"seq,omitempty"`
	Violations []sandbox.Violation `json:"violations,omitempty"`
	// ErrorKind and Error say why the call failed; empty on success.
	ErrorKind string `json:"error_kind,omitempty"`
	Error     string `json:"error,omitempty"`
	// Counted is set when the call used a unit of the budget.
	Counted bool `json:"counted"`
	// Observation is the text the model was shown as the result.
	Observation string `json:"observation"`
}

// OK tells whether the call reached the API and got a 2xx answer.
func (c *CallRecord) OK() bool { return c.ErrorKind == "" && c.Status >= 200 && c.Status < 300 }

// Calls returns every call of the run in order, across all branches.
func (t *Trace) Calls() []CallRecord {
	var out []CallRecord
	for _, s := range t.Steps {
		out = append(out, s.Calls...)
	}
	return out
}

// PathCalls returns the calls of the branch the run ended on, in order.
func (t *Trace) PathCalls() []CallRecord {
	var out []CallRecord
	for _, i := range t.Path {
		if i >= 0 && i < len(t.Steps) {
			out = append(out, t.Steps[i].Calls...)
		}
	}
	return out
}

// limits holds the budget settings shared by the solvers.
type limits struct {
	budget, maxTurns, maxObs int
}

func newLimits(budget, maxTurns, maxObs int) limits {
	if budget <= 0 {
		budget = DefaultCallBudget
	}
	if maxTurns <= 0 {
		maxTurns = DefaultMaxTurns
	}
	if maxObs <= 0 {
		maxObs = DefaultMaxObservation
	}
	return limits{budget, maxTurns, maxObs}
}

// run is the state of one solver run, shared by ReAct and DFSDT.
type run struct {
	agent agent.Agent
	exec  agent.Executor
	lim   limits
	tools []toolset.OpenAITool
	// paging are the offered functions' paging arguments, for the way to
	// the rest of a result that had to be cut.
	paging map[string]observe.Paging
	trace  *Trace
}

func newRun(name string, a agent.Agent, x agent.Executor, lim limits, p Problem) *run {
	tools := append(append([]toolset.OpenAITool(nil), p.Tools...), FinishTool())
	paging := map[string]observe.Paging{}
	for _, t := range p.Tools {
		if props, ok := t.Function.Parameters["properties"].(map[string]any); ok {
			paging[t.Function.Name] = observe.PagingOf(slices.Collect(maps.Keys(props)))
		}
	}
	return &run{agent: a, exec: x, lim: lim, tools: tools, paging: paging, trace: &Trace{
		Solver: name, ID: p.ID, Session: p.SessionFor(name), Budget: lim.budget, Steps: []Step{},
	}}
}

// turnResult is what a model turn led to.
type turnResult int

const (
	turnContinue turnResult = iota // the state grew; ask the model again
	turnAnswer                     // a final answer
	turnGiveUp                     // Finish give_up_and_restart
	turnStop                       // budget, turn limit, model error or cancellation: the run is over
)

// turn asks the model once from msgs, executes what it asks for, and
// returns the step's index, the grown conversation and what happened.
func (r *run) turn(ctx context.Context, msgs []agent.Message, parent, depth int, diversified bool) (int, []agent.Message, turnResult, error) {
	if r.trace.ModelTurns >= r.lim.maxTurns {
		r.end(OutcomeTurnLimit, fmt.Sprintf("no answer after %d model turns", r.lim.maxTurns))
		return -1, msgs, turnStop, nil
	}
	r.trace.ModelTurns++
	idx := len(r.trace.Steps)
	r.trace.Steps = append(r.trace.Steps, Step{Parent: parent, Depth: depth, Diversified: diversified})
	step := &r.trace.Steps[idx]

	reply, err := r.agent.Respond(ctx, msgs, r.tools)
	if err != nil {
		step.Error = err.Error()
		if ctx.Err() != nil {
			r.end(OutcomeCancelled, ctx.Err().Error())
			return idx, msgs, turnStop, ctx.Err()
		}
		if r.trace.Outcome == "" {
			r.trace.Err = err
		}
		r.end(OutcomeModelError, err.Error())
		return idx, msgs, turnStop, nil
	}
	r.addUsage(reply.Usage)
	step.Reply = &reply

	var finish *agent.ToolCall
	var calls []agent.ToolCall
	for i := range reply.ToolCalls {
		if reply.ToolCalls[i].Name == agent.FinishName && finish == nil {
			finish = &reply.ToolCalls[i]
			continue
		}
		calls = append(calls, reply.ToolCalls[i])
	}

	// A reply with nothing to act on: plain text is the answer; anything
	// else is fed back and costs a call, so an unreadable model still ends.
	if len(reply.ToolCalls) == 0 {
		if reply.ParseError == "" && strings.TrimSpace(reply.Content) != "" {
			r.trace.Answer = strings.TrimSpace(reply.Content)
			r.end(OutcomeAnswer, "")
			return idx, msgs, turnAnswer, nil
		}
		reason := reply.ParseError
		if reason == "" {
			reason = "the reply is empty"
		}
		step.Feedback = fmt.Sprintf("Your last reply could not be used: %s. Call one of the functions, or call %s to answer or give up.", reason, agent.FinishName)
		if !r.spend() {
			return idx, msgs, turnStop, nil
		}
		out := append(cloneMessages(msgs),
			agent.Message{Role: agent.RoleAssistant, Content: reply.Content},
			agent.Message{Role: agent.RoleUser, Content: step.Feedback})
		return idx, out, turnContinue, nil
	}

	out := append(cloneMessages(msgs), agent.Message{Role: agent.RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls})
	for _, tc := range calls {
		rec, err := r.call(ctx, tc)
		if err != nil {
			step.Calls = append(step.Calls, rec)
			r.end(OutcomeCancelled, err.Error())
			return idx, out, turnStop, err
		}
		step.Calls = append(step.Calls, rec)
		out = append(out, agent.Message{Role: agent.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Content: rec.Observation})
	}

	if r.trace.Outcome == OutcomeBudget {
		return idx, out, turnStop, nil
	}
	if finish != nil {
		fc, problem := parseFinish(*finish)
		if problem != "" {
			step.Feedback = problem
			out = append(out, agent.Message{Role: agent.RoleTool, ToolCallID: finish.ID, Name: agent.FinishName, Content: observationText(problem, nil)})
			if !r.spend() {
				return idx, out, turnStop, nil
			}
			return idx, out, turnContinue, nil
		}
		step.Finish = &fc
		if fc.ReturnType == ReturnGiveAnswer {
			r.trace.Answer = fc.FinalAnswer
			r.end(OutcomeAnswer, "")
			return idx, out, turnAnswer, nil
		}
		return idx, out, turnGiveUp, nil
	}
	return idx, out, turnContinue, nil
}

// call executes one tool call, counting it against the budget.
func (r *run) call(ctx context.Context, tc agent.ToolCall) (CallRecord, error) {
	rec := CallRecord{ID: tc.ID, Function: tc.Name, Arguments: tc.Arguments, RawArguments: tc.RawArguments}
	if !r.spend() {
		rec.ErrorKind, rec.Error = agent.ErrBudget, fmt.Sprintf("not executed: the budget of %d calls is used up", r.lim.budget)
		rec.Observation = observationText(rec.Error, nil)
		return rec, nil
	}
	rec.Counted = true
	switch {
	case tc.Name == "":
		rec.ErrorKind, rec.Error = agent.ErrUnknownFunction, "the call names no function"
	case tc.ArgumentsError != "":
		rec.ErrorKind, rec.Error = agent.ErrInvalidArguments, tc.ArgumentsError
	}
	if rec.ErrorKind != "" {
		rec.Observation = observationText(rec.Error, nil)
		return rec, nil
	}
	args := tc.Arguments
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	ex, err := r.exec.Execute(ctx, r.trace.Session, tc.Name, args)
	if err != nil {
		if ctx.Err() != nil {
			rec.ErrorKind, rec.Error = agent.ErrTransport, ctx.Err().Error()
			rec.Observation = observationText(rec.Error, nil)
			return rec, ctx.Err()
		}
		var ce *agent.CallError
		if errors.As(err, &ce) {
			rec.ErrorKind, rec.Error = ce.Kind, ce.Message
		} else {
			rec.ErrorKind, rec.Error = agent.ErrTransport, err.Error()
		}
		rec.Observation = observationText(rec.Error, nil)
		return rec, nil
	}
	rec.API, rec.Status, rec.Response, rec.Source, rec.Seq, rec.Violations = ex.API, ex.Status, ex.Response, ex.Source, ex.Seq, ex.Violations
	if ex.Status < 200 || ex.Status > 299 {
		// The model reads the API's answer, as a real API gives it: what
		// the dependency check found stays in the record (Violations), for
		// the scorer and the report, and never reaches the model.
		rec.ErrorKind = agent.ErrAPI
		rec.Error = fmt.Sprintf("the API answered %d", ex.Status)
	}
	var given map[string]any
	_ = json.Unmarshal(args, &given)
	rec.Observation = fitObservation(rec.Error, ex.Response, r.lim.maxObs, given, r.paging[tc.Name])
	return rec, nil
}

// fitObservation renders a tool result within max bytes. A response too
// long is fitted by observe.Result: its longest lists cut to what fits
// (still valid JSON), with a "note" saying what was left out and how to
// get the rest; only a response that is no JSON is cut as text.
func fitObservation(errText string, response json.RawMessage, max int, args map[string]any, paging observe.Paging) string {
	full := observationText(errText, response)
	if len(full) <= max {
		return full
	}
	// What the envelope and the escaping of the note take.
	overhead := len(observationNote(errText, json.RawMessage("0"), "-")) + 64
	f := observe.ResultReserving(response, max, overhead, args, paging)
	var s string
	if f.Bytes {
		// No JSON: the text goes in as a string.
		s = observationNote(errText, mustString(f.Text), f.Note)
	} else {
		s = observationNote(errText, json.RawMessage(f.Text), f.Note)
	}
	return clipObservation(s, max)
}

// mustString is s as a JSON string.
func mustString(s string) json.RawMessage {
	var buf bytes.Buffer
	writeJSONString(&buf, s)
	return buf.Bytes()
}

// spend takes one call from the budget; when none is left it ends the run
// with OutcomeBudget and returns false.
func (r *run) spend() bool {
	if r.trace.CallsUsed >= r.lim.budget {
		r.end(OutcomeBudget, fmt.Sprintf("the budget of %d calls is used up", r.lim.budget))
		return false
	}
	r.trace.CallsUsed++
	return true
}

func (r *run) addUsage(u agent.Usage) {
	r.trace.Usage.PromptTokens += u.PromptTokens
	r.trace.Usage.CompletionTokens += u.CompletionTokens
	r.trace.Usage.TotalTokens += u.TotalTokens
}

// end records the outcome; the first outcome recorded wins.
func (r *run) end(outcome, why string) {
	if r.trace.Outcome != "" {
		return
	}
	r.trace.Outcome = outcome
	if why != "" {
		r.trace.Error = why
	}
}

func invalidTrace(solver string, p Problem, err error) *Trace {
	return &Trace{Solver: solver, ID: p.ID, Outcome: OutcomeInvalid, Error: err.Error(), Steps: []Step{}}
}

// pathTo lists the step indexes from the root to step i.
func (r *run) pathTo(i int) []int {
	var path []int
	for i >= 0 && i < len(r.trace.Steps) {
		path = append([]int{i}, path...)
		i = r.trace.Steps[i].Parent
	}
	return path
}

// parseFinish reads Finish's arguments; problem says what is wrong with them.
func parseFinish(tc agent.ToolCall) (FinishCall, string) {
	if tc.ArgumentsError != "" {
		return FinishCall{}, "Finish: " + tc.ArgumentsError
	}
	var fc FinishCall
	if err := json.Unmarshal(tc.Arguments, &fc); err != nil {
		return FinishCall{}, "Finish: arguments must be {\"return_type\": ..., \"final_answer\": ...}: " + err.Error()
	}
	fc.FinalAnswer = strings.TrimSpace(fc.FinalAnswer)
	switch fc.ReturnType {
	case ReturnGiveAnswer:
		if fc.FinalAnswer == "" {
			return FinishCall{}, "Finish: return_type give_answer needs a non-empty final_answer"
		}
	case ReturnGiveUp:
	default:
		return FinishCall{}, fmt.Sprintf("Finish: return_type %q is neither %s nor %s", fc.ReturnType, ReturnGiveAnswer, ReturnGiveUp)
	}
	return fc, ""
}

// observationText is a tool result as ToolBench shows it:
// {"error": "...", "response": ...}.
func observationText(errText string, response json.RawMessage) string {
	return observationNote(errText, response, "")
}

// observationNote is observationText with a "note" field when note is set.
func observationNote(errText string, response json.RawMessage, note string) string {
	var buf bytes.Buffer
	buf.WriteString(`{"error":`)
	writeJSONString(&buf, errText)
	buf.WriteString(`,"response":`)
	var compact bytes.Buffer
	if len(bytes.TrimSpace(response)) == 0 {
		buf.WriteString(`""`)
	} else if json.Compact(&compact, response) == nil {
		buf.Write(compact.Bytes())
	} else {
		writeJSONString(&buf, string(response))
	}
	if note != "" {
		buf.WriteString(`,"note":`)
		writeJSONString(&buf, note)
	}
	buf.WriteString("}")
	return buf.String()
}

func writeJSONString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	buf.Truncate(buf.Len() - 1) // the encoder's newline
}

// clipObservation cuts an observation to n bytes, saying so.
func clipObservation(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return clip.Text(s, n) + fmt.Sprintf(" [cut: %d of %d bytes shown]", n, len(s))
}

func cloneMessages(m []agent.Message) []agent.Message {
	return append(make([]agent.Message, 0, len(m)+4), m...)
}
