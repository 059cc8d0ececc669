package evaltasks

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/chainscore"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// DefaultCallBudget bounds the calls an agent may execute in one Task-7
// instance. It is the agent package's solver budget: Task 7 runs through
// the same loop (solve.ReAct) and so spends the same way.
const DefaultCallBudget = solve.DefaultCallBudget

// ExecutedCall is one call an agent made in Task 7, as it was executed.
type ExecutedCall struct {
	Name      string          `json:"name"`
	API       string          `json:"api,omitempty"` // "tool.api" when the name resolved
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Status is the API's HTTP status; 0 when the call never reached it.
	Status int `json:"status"`
	// ErrorKind is the agent package's kind of a failed call
	// (agent.ErrUnknownFunction, agent.ErrAPI, agent.ErrBudget, ...).
	ErrorKind string `json:"error_kind,omitempty"`
	Error     string `json:"error,omitempty"`
	// Violations are the dependency rules the call broke, from the
	// session trace: where a chain goes wrong, by kind.
	Violations []sandbox.Violation `json:"violations,omitempty"`
	// OnChain marks a call on the instance's chain: it did a step the
	// scorer counted, or carried a value such a step used (see
	// chainscore.Verdict); the other calls were wasted.
	OnChain bool `json:"on_chain,omitempty"`
}

func (c ExecutedCall) ok() bool { return c.ErrorKind == "" && c.Status >= 200 && c.Status < 300 }

// session is the sandbox session of an instance, fresh for every instance.
func (ev *evaluator) session(inst Instance) string { return "evalrun/" + inst.Key() }

// runChain is Task 7: the agent works through the instruction with the
// offered tools in the agent package's ReAct loop, its calls executed in
// the sandbox by agent.EngineExecutor within the call budget; the calls it
// made are then scored against the gold chain (scoreChain).
func (ev *evaluator) runChain(ctx context.Context, a agent.Agent, inst Instance, v view, res *Result) error {
	offered := map[string]bool{}
	for _, id := range v.offered {
		offered[id] = true
	}
	rec := &recordingAgent{Agent: a}
	solver := &solve.ReAct{
		Agent:    rec,
		Executor: &offeredExecutor{next: &agent.EngineExecutor{Engine: ev.engine}, cat: ev.cat, offered: offered},
		Budget:   ev.budget,
	}
	// An instance starts from nothing: an earlier run on the same sandbox
	// (a resumed run, a test suite's shared stack, a long-lived server) left
	// its IDs, bookings and search sessions under the same session names.
	ev.engine.Reset(ev.session(inst))
	ev.engine.Reset(ev.goldSession(inst))
	tr, err := solver.Solve(ctx, solve.Problem{ID: inst.Key(), Query: inst.In.Text, System: ev.dateLine, Tools: v.tools, Session: ev.session(inst)})
	if tr != nil {
		res.addUsage(tr.Usage)
		res.Messages = rec.transcript(tr)
		if rec.last != nil {
			r := *rec.last
			res.Reply = &r
		}
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return err
	case tr.Outcome == solve.OutcomeModelError:
		// The model failed after its client's retries: an agent error.
		if rec.err != nil {
			return rec.err
		}
		return fmt.Errorf("model: %s", tr.Error)
	case tr.Outcome == solve.OutcomeBudget || tr.Outcome == solve.OutcomeTurnLimit:
		res.Detail = tr.Error
	}
	var records []solve.CallRecord
	for _, st := range tr.Steps {
		if st.Reply != nil {
			if st.Reply.ParseError != "" {
				res.ParseErrors++
			}
			for _, tc := range st.Reply.ToolCalls {
				if tc.ArgumentsError != "" {
					res.ParseErrors++
				}
			}
		}
		records = append(records, st.Calls...)
	}
	for _, c := range records {
		res.Calls = append(res.Calls, ExecutedCall{Name: c.Function, API: c.API, Arguments: c.Arguments, Status: c.Status, ErrorKind: c.ErrorKind, Error: c.Error, Violations: c.Violations})
	}
	answer := ""
	if tr != nil {
		answer = tr.Answer
	}
	answer, res.ScoreCut = scoredText(answer)
	ev.scoreChain(ctx, inst, records, answer, res)
	return nil
}

// recordingAgent keeps what the solver hides: the error of a failed turn
// (the solver records only its text) and the last conversation, for the
// result's transcript.
type recordingAgent struct {
	agent.Agent
	err  error
	msgs []agent.Message
	last *agent.Reply
}

func (r *recordingAgent) Respond(ctx context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	reply, err := r.Agent.Respond(ctx, msgs, tools)
	r.msgs = msgs
	if err != nil {
		r.err, r.last = err, nil
		return reply, err
	}
	r.last = &reply
	return reply, nil
}

// transcript is the last conversation the agent saw, its last reply and
// the tool results that reply got.
func (r *recordingAgent) transcript(tr *solve.Trace) []agent.Message {
	out := append([]agent.Message(nil), r.msgs...)
	if r.last == nil {
		return out
	}
	out = append(out, agent.Message{Role: agent.RoleAssistant, Content: r.last.Content, ToolCalls: r.last.ToolCalls})
	if n := len(tr.Steps); n > 0 {
		for _, c := range tr.Steps[n-1].Calls {
			out = append(out, agent.Message{Role: agent.RoleTool, ToolCallID: c.ID, Name: c.Function, Content: c.Observation})
		}
	}
	return out
}

// offeredExecutor executes only the functions offered in the instance: a
// catalog API the agent was not given is as unknown to it as a made-up one.
type offeredExecutor struct {
	next    agent.Executor
	cat     *toolset.Catalog
	offered map[string]bool
}

var _ agent.Executor = (*offeredExecutor)(nil)

func (x *offeredExecutor) Execute(ctx context.Context, session, function string, args json.RawMessage) (*agent.Execution, error) {
	api := x.cat.APIByExportName(function)
	if api == nil {
		api = x.cat.APIByFunction(function)
	}
	if api == nil || !x.offered[api.ID()] {
		return nil, &agent.CallError{Kind: agent.ErrUnknownFunction, Function: function, Message: fmt.Sprintf("no function named %q is offered", function)}
	}
	return x.next.Execute(ctx, session, function, args)
}

// scoreChain fills a Task-7 result from the executed calls and the final
// answer.
func (ev *evaluator) scoreChain(ctx context.Context, inst Instance, records []solve.CallRecord, answer string, res *Result) {
	sc := &chainscore.Scorer{Catalog: ev.cat, Engine: ev.engine, Graph: ev.graph}
	v := sc.Score(ctx, inst.In, records, answer, ev.goldSession(inst))
	res.Matched, res.Breaks = v.Done, v.Breaks
	for i := range res.Calls {
		res.Calls[i].OnChain = i < len(v.OnChain) && v.OnChain[i]
	}
	res.Missed = v.Missed()
	res.Score = v.Score()
	switch {
	case v.Done == v.Steps:
		res.Outcome, res.Pass = OutcomeComplete, true
	case v.Done > 0:
		res.Outcome = OutcomePartial
	case res.ParseErrors > 0:
		res.Outcome = callcheck.OutcomeParseError
	default:
		res.Outcome = OutcomeNoProgress
	}
}

// goldSession is where the gold chain of an instance runs when the scorer
// needs the values its prerequisites provide, apart from the agent's calls.
func (ev *evaluator) goldSession(inst Instance) string {
	return ev.session(inst) + "/gold"
}

// observedPath turns a gold path into one on the observation the solvers
// show a model ({"error": ..., "response": ...}).
func observedPath(path string) string { return "response." + path }
