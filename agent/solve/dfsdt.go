package solve

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/internal/clip"
)

// DFSDT is ToolLLM's depth-first search-based decision tree (ToolLLM §2.3
// and A.4): a pre-order depth-first search over the model's actions. Each
// node is a state of the conversation; expanding it asks the model for one
// action (a child). The first child is followed at once, so a model that
// never retracts runs exactly as ReAct does. When the model calls Finish
// with give_up_and_restart, the state it gave up in is abandoned and the
// search returns to the state before its last action and asks for a
// different one; that prompt lists the actions already tried from the
// state, with their results, and asks for an action unlike all of them.
// A node has at most Width children; the search ends at the first answer,
// when every branch is abandoned, or when the call budget (10 calls per
// query by default, as in AnyTool's setup) or the turn limit runs out.
// Calls change the sandbox's state for good: an abandoned branch's calls
// stay in the session.
type DFSDT struct {
	Agent    agent.Agent
	Executor agent.Executor
	// Budget is the number of tool calls per query, across all branches (default 10).
	Budget int
	// Width is the number of children tried from one state (default 2, ToolBench's tree_beam_size).
	Width int
	// MaxDepth is the number of actions on one branch (default 12, ToolBench's single_chain_max_step).
	MaxDepth int
	// MaxTurns bounds the model turns per query (default 30).
	MaxTurns int
	// MaxObservation bounds the text of one tool result shown to the model (default 8000 bytes).
	MaxObservation int
}

var _ Solver = (*DFSDT)(nil)

// Defaults of DFSDT's shape.
const (
	DefaultWidth    = 2
	DefaultMaxDepth = 12
)

// dfsNode is a state of the search: the conversation so far and the
// actions already tried from it.
type dfsNode struct {
	msgs  []agent.Message
	step  int // the step that led here, -1 for the query itself
	depth int
	tried []triedAction
}

// triedAction summarises one child of a node for the diversity prompt.
type triedAction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Output    string          `json:"function_output"`
}

type dfsSearch struct {
	*run
	width, maxDepth int
	last            int // the last step taken, for the trace's path
	err             error
}

// Solve searches for an answer.
func (s *DFSDT) Solve(ctx context.Context, p Problem) (*Trace, error) {
	if err := p.check(); err != nil {
		return invalidTrace("dfsdt", p, err), err
	}
	d := &dfsSearch{
		run:      newRun("dfsdt", s.Agent, s.Executor, newLimits(s.Budget, s.MaxTurns, s.MaxObservation), p),
		width:    s.Width,
		maxDepth: s.MaxDepth,
		last:     -1,
	}
	if d.width <= 0 {
		d.width = DefaultWidth
	}
	if d.maxDepth <= 0 {
		d.maxDepth = DefaultMaxDepth
	}
	d.expand(ctx, &dfsNode{msgs: initialMessages(p), step: -1})
	if d.trace.Outcome == "" {
		d.end(OutcomeGiveUp, "")
		if d.trace.Error == "" {
			d.trace.Error = "every branch was abandoned"
		}
	}
	d.trace.Path = d.pathTo(d.last)
	return d.trace, d.err
}

// expand tries up to width children of n, depth first, and reports whether
// the search is over (an answer, or budget, turns, a fault or cancellation).
func (d *dfsSearch) expand(ctx context.Context, n *dfsNode) bool {
	if n.depth >= d.maxDepth {
		return false
	}
	for i := 0; i < d.width; i++ {
		msgs := n.msgs
		diversified := len(n.tried) > 0
		if diversified {
			// The note lives only in this request; the child's history does not keep it.
			msgs = append(cloneMessages(n.msgs), agent.Message{Role: agent.RoleUser, Content: diversityPrompt(n)})
		}
		idx, next, res, err := d.turn(ctx, msgs, n.step, n.depth, diversified)
		if idx >= 0 {
			d.last = idx
			n.tried = append(n.tried, summarise(d.trace.Steps[idx]))
		}
		switch res {
		case turnAnswer:
			return true
		case turnStop:
			d.err = err
			return true
		case turnGiveUp:
			// Abandon n: its parent tries a different action instead of the one that led here.
			d.trace.Restarts++
			d.trace.Error = "the model gave up"
			if fc := d.trace.Steps[idx].Finish; fc != nil && fc.FinalAnswer != "" {
				d.trace.Error += ": " + fc.FinalAnswer
			}
			return false
		}
		if next = dropDiversity(next, diversified, len(n.msgs)); d.expand(ctx, &dfsNode{msgs: next, step: idx, depth: n.depth + 1}) {
			return true
		}
	}
	return false
}

// dropDiversity removes the diversity note from a child's history.
func dropDiversity(msgs []agent.Message, diversified bool, at int) []agent.Message {
	if !diversified || at >= len(msgs) {
		return msgs
	}
	return append(cloneMessages(msgs[:at]), msgs[at+1:]...)
}

// summarise describes the action a step took, as the diversity prompt lists it.
func summarise(s Step) triedAction {
	switch {
	case len(s.Calls) > 0:
		c := s.Calls[0]
		args := c.Arguments
		if len(args) == 0 {
			b, _ := json.Marshal(c.RawArguments)
			args = b
		}
		out := c.Observation
		for _, more := range s.Calls[1:] {
			out += "\n" + more.Function + ": " + more.Observation
		}
		return triedAction{Name: c.Function, Arguments: args, Output: clip.Text(out, 1000)}
	case s.Finish != nil:
		b, _ := json.Marshal(s.Finish)
		return triedAction{Name: agent.FinishName, Arguments: b, Output: ""}
	case s.Reply != nil:
		b, _ := json.Marshal(clip.Text(s.Reply.Content, 500))
		return triedAction{Name: "(reply)", Arguments: b, Output: s.Feedback}
	}
	return triedAction{Name: "(none)", Arguments: json.RawMessage(`{}`)}
}

// diversityPrompt tells the model what it already tried from this state.
func diversityPrompt(n *dfsNode) string {
	var b strings.Builder
	b.WriteString("This is not the first time you try this task, and all previous attempts failed.\n")
	b.WriteString("Before you decide what to do in this state, here are the actions you already took from it; ")
	b.WriteString("you must now choose an action that is different from all of them.\n")
	b.WriteString("Previous actions:\n")
	enc, _ := json.MarshalIndent(n.tried, "", "  ")
	b.Write(enc)
	b.WriteString("\n")
	if last := lastObservation(n.msgs); last != "" {
		b.WriteString("Again, the last observation in this state: " + clip.Text(last, 1000) + "\n")
	}
	b.WriteString("Remember you are in the middle of an attempt: first analyse the state and the previous actions, then act differently from all of them.")
	return b.String()
}

func lastObservation(msgs []agent.Message) string {
	if len(msgs) == 0 {
		return ""
	}
	if m := msgs[len(msgs)-1]; m.Role == agent.RoleTool {
		return m.Content
	}
	return ""
}
