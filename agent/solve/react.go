package solve

import (
	"context"
	"strings"

	"github.com/understudy/understudy/agent"
)

// ReAct is the one-path solver: the model reasons, calls a tool, reads the
// result and goes on until it calls Finish, answers in plain text, or runs
// out of budget. Giving up ends the run: there is no branch to return to.
type ReAct struct {
	Agent    agent.Agent
	Executor agent.Executor
	// Budget is the number of tool calls per query (default 10).
	Budget int
	// MaxTurns bounds the model turns per query (default 30).
	MaxTurns int
	// MaxObservation bounds the text of one tool result shown to the model (default 8000 bytes).
	MaxObservation int
}

var _ Solver = (*ReAct)(nil)

// Solve runs the query on one path.
func (s *ReAct) Solve(ctx context.Context, p Problem) (*Trace, error) {
	if err := p.check(); err != nil {
		return invalidTrace("react", p, err), err
	}
	r := newRun("react", s.Agent, s.Executor, newLimits(s.Budget, s.MaxTurns, s.MaxObservation), p)
	msgs := initialMessages(p)
	parent := -1
	for depth := 0; ; depth++ {
		idx, next, res, err := r.turn(ctx, msgs, parent, depth, false)
		if idx >= 0 {
			parent = idx
		}
		switch res {
		case turnContinue:
			msgs = next
			continue
		case turnGiveUp:
			r.trace.Error = "the model gave up"
			if fc := r.trace.Steps[idx].Finish; fc != nil && fc.FinalAnswer != "" {
				r.trace.Error += ": " + fc.FinalAnswer
			}
			r.end(OutcomeGiveUp, "")
		}
		r.trace.Path = r.pathTo(parent)
		return r.trace, err
	}
}

// systemPrompt is ToolLLM's function-calling system prompt, in substance.
const systemPrompt = `You are an assistant that can use many tools (functions) to do the following task.
At each step you receive the state of the task and decide what to do next by calling a function; its result comes back to you, and you go on from there until the task is done.
Remember:
1. Calls change the state and cannot be undone.
2. Keep your thoughts short, at most five sentences.
3. You may try several times; if you want to try different conditions, try one condition per call.
4. When you have gathered enough information, call "Finish" with return_type "give_answer" and the final answer for the user.
5. If you cannot go on with the task from this state, call "Finish" with return_type "give_up_and_restart".
Let's begin!`

// initialMessages starts a conversation for a problem.
func initialMessages(p Problem) []agent.Message {
	sys := systemPrompt
	if s := strings.TrimSpace(p.System); s != "" {
		sys = s + "\n\n" + sys
	}
	return []agent.Message{
		{Role: agent.RoleSystem, Content: sys},
		{Role: agent.RoleUser, Content: p.Query},
	}
}
