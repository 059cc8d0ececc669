package evaltasks

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/observe"
	"github.com/understudy/understudy/evaltasks/chainscore"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/toolset"
)

// ChainDistractors is the number of APIs Task 7 offers beside the tools of
// the gold chain.
const ChainDistractors = 3

// PlanPrompt is the system message of Task 8, which expects a plan in text.
const PlanPrompt = "You can use the tools listed. Before calling any of them, outline in text how you would solve the user's request: the steps, in order, and the tool functions each step uses."

// DateLine is the line every conversation starts with: the present on
// the sandbox clock the tools run on (the frozen Monday 2 June 2025
// 09:00 UTC by default), since instructions say "today", "this weekend"
// and "next Friday". A nil clock reads clock.Default.
func DateLine(c clock.Clock) string {
	now := clock.Default
	if c != nil {
		now = c.Now()
	}
	zone := "UTC"
	if _, off := now.Zone(); off != 0 {
		zone = "UTC" + now.Format("-07:00")
	}
	return fmt.Sprintf("Current date and time: %s %s.", now.Format("Monday 2 January 2006, 15:04"), zone)
}

// system is the system message a conversation starts with: the date line
// and then text, either of which may be empty; ok is false when both are.
func (ev *evaluator) system(text string) (agent.Message, bool) {
	content := strings.TrimSpace(ev.dateLine + "\n" + text)
	return agent.Message{Role: agent.RoleSystem, Content: content}, content != ""
}

// opening starts a conversation: the system message (when there is one)
// and then msgs.
func (ev *evaluator) opening(text string, msgs ...agent.Message) []agent.Message {
	if sys, ok := ev.system(text); ok {
		return append([]agent.Message{sys}, msgs...)
	}
	return msgs
}

// view is what the agent is given for one instance.
type view struct {
	messages []agent.Message
	tools    []toolset.OpenAITool
	// offered are the IDs ("tool.api") of the APIs behind tools, in order.
	offered []string
}

// DataError reports an instruction that does not fit the catalog or whose
// gold call fails in the sandbox; the instance is recorded as an error.
type DataError struct {
	Instance string
	Err      error
}

func (e *DataError) Error() string { return fmt.Sprintf("%s: %v", e.Instance, e.Err) }
func (e *DataError) Unwrap() error { return e.Err }

// view builds the messages and tools of an instance, as the evaluation paper §3.3
// gives them to the agent.
func (ev *evaluator) view(ctx context.Context, inst Instance) (view, error) {
	in := inst.In
	dataErr := func(format string, args ...any) (view, error) {
		return view{}, &DataError{Instance: inst.Key(), Err: fmt.Errorf(format, args...)}
	}
	user := agent.Message{Role: agent.RoleUser, Content: in.Text}
	var turns []agent.Message // the earlier turns, then the instruction
	if inst.Task != TaskToolReturn {
		hist, err := ev.earlierTurns(ctx, inst)
		if err != nil {
			return view{}, err
		}
		turns = append(hist, user)
	}
	switch inst.Task {
	case TaskDecide, TaskIntrinsic, TaskClarify, TaskFill:
		id := in.TargetAPI
		if in.Type == dataset.TypeNoTool {
			id = in.TemptingAPI
		}
		var ids []string
		if id != "" {
			a := dataset.ResolveAPI(ev.cat, id)
			if a == nil {
				return dataErr("API %q is not in the catalog", id)
			}
			ids = []string{a.ID()}
		} else if hits := ev.index.Search(in.Text, 1); len(hits) > 0 {
			// A Type-I record without a tempting API is offered the API
			// whose documentation looks closest to the question.
			ids = []string{hits[0].ID}
		}
		return ev.withTools(ev.opening("", turns...), ids), nil
	case TaskSelect:
		target := dataset.ResolveAPI(ev.cat, in.TargetAPI)
		if target == nil {
			return dataErr("target API %q is not in the catalog", in.TargetAPI)
		}
		ids := append([]string{target.ID()}, dataset.PerturbingAPIs(ev.cat, ev.index, *in)...)
		shuffleFor(inst.Key(), ids)
		return ev.withTools(ev.opening("", turns...), ids), nil
	case TaskToolReturn:
		return ev.toolReturnView(ctx, inst)
	case TaskChain:
		ids, err := ev.chainAPIs(inst)
		if err != nil {
			return view{}, &DataError{Instance: inst.Key(), Err: err}
		}
		// The solver writes the conversation; it starts with the date line
		// too (see runChain).
		return ev.withTools([]agent.Message{user}, ids), nil
	case TaskPlan:
		ids, err := ev.groupAPIs(in)
		if err != nil {
			return view{}, &DataError{Instance: inst.Key(), Err: err}
		}
		return ev.withTools(ev.opening(PlanPrompt, user), ids), nil
	}
	return dataErr("unknown task %d", inst.Task)
}

func (ev *evaluator) withTools(msgs []agent.Message, ids []string) view {
	v := view{messages: msgs}
	for _, id := range ids {
		if t, ok := ev.tools[id]; ok {
			v.tools = append(v.tools, t)
			v.offered = append(v.offered, id)
		}
	}
	return v
}

// toolReturnView is Task 6's conversation: the user message, an assistant
// message calling the gold call, and the tool result the sandbox gives for
// it (in a session of its own).
func (ev *evaluator) toolReturnView(ctx context.Context, inst Instance) (view, error) {
	in := inst.In
	api := dataset.ResolveAPI(ev.cat, in.GoldCall.API)
	if api == nil {
		return view{}, &DataError{Instance: inst.Key(), Err: fmt.Errorf("gold call API %q is not in the catalog", in.GoldCall.API)}
	}
	args := in.GoldCall.FirstValues()
	hist, err := ev.earlierTurns(ctx, inst)
	if err != nil {
		return view{}, err
	}
	// A record whose gold call quotes opaque values carries the steps that
	// mint them; they run first, in the same session, unseen by the agent.
	if _, err := chainscore.RunGold(ctx, ev.engine, ev.cat, in.Chain, ev.session(inst)); err != nil {
		if ctx.Err() != nil {
			return view{}, ctx.Err()
		}
		return view{}, &DataError{Instance: inst.Key(), Err: fmt.Errorf("chain before the gold call: %w", err)}
	}
	res, err := ev.engine.CallAPI(ctx, api, args, ev.session(inst))
	if err != nil {
		if ctx.Err() != nil {
			return view{}, ctx.Err()
		}
		return view{}, &DataError{Instance: inst.Key(), Err: fmt.Errorf("gold call: %w", err)}
	}
	if res.Status >= 400 {
		return view{}, &DataError{Instance: inst.Key(), Err: fmt.Errorf("gold call %w", &chainscore.AnswerError{Status: res.Status, Body: res.Response})}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return view{}, &DataError{Instance: inst.Key(), Err: err}
	}
	name := toolset.ExportName(api, toolset.NameDotted)
	msgs := ev.opening("", append(hist,
		agent.Message{Role: agent.RoleUser, Content: in.Text},
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "call_1", Name: name, Arguments: raw}}},
		agent.Message{Role: agent.RoleTool, ToolCallID: "call_1", Name: name, Content: shownContent(dataset.ShownResult(api, res.Response, args))},
	)...)
	return ev.withTools(msgs, []string{api.ID()}), nil
}

// earlierTurns runs an instruction's history (the calls the assistant
// made in earlier turns) in the instance's session and returns it as the
// conversation shows it: each call, then its result as a model is shown
// it. Later calls of the instance (Task 6's gold call) run after it in
// the same session, so the IDs it returned are known there.
func (ev *evaluator) earlierTurns(ctx context.Context, inst Instance) ([]agent.Message, error) {
	if len(inst.In.History) == 0 {
		return nil, nil
	}
	calls, err := chainscore.RunGoldCalls(ctx, ev.engine, ev.cat, inst.In.History, ev.session(inst))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &DataError{Instance: inst.Key(), Err: fmt.Errorf("earlier turns: %w", err)}
	}
	// The user asked first: the calls answer the request they made.
	msgs := []agent.Message{{Role: agent.RoleUser, Content: inst.In.Earlier}}
	for i, c := range calls {
		raw, err := json.Marshal(c.Args)
		if err != nil {
			return nil, &DataError{Instance: inst.Key(), Err: err}
		}
		id := fmt.Sprintf("call_earlier_%d", i+1)
		name := toolset.ExportName(c.API, toolset.NameDotted)
		msgs = append(msgs,
			agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: id, Name: name, Arguments: raw}}},
			agent.Message{Role: agent.RoleTool, ToolCallID: id, Name: name, Content: shownContent(dataset.ShownResult(c.API, c.Response, c.Args))})
	}
	return msgs, nil
}

// shownContent is a tool message's content: the result as it is when it
// is whole, else {"response": <what is shown>, "note": <what was cut>},
// still JSON.
func shownContent(f observe.Fitted) string {
	if f.Whole() {
		return f.Text
	}
	var resp json.RawMessage = []byte(f.Text)
	if f.Bytes || !json.Valid(resp) {
		resp, _ = json.Marshal(f.Text)
	}
	b, _ := json.Marshal(struct {
		Response json.RawMessage `json:"response"`
		Note     string          `json:"note"`
	}{resp, f.Note})
	return string(b)
}

// chainAPIs are Task 7's APIs: every API of the tools in the gold chain,
// plus ChainDistractors APIs of other tools closest to the instruction,
// shuffled by the instance.
func (ev *evaluator) chainAPIs(inst Instance) ([]string, error) {
	tools := map[*toolset.Tool]bool{}
	for i, st := range inst.In.Chain {
		a := dataset.ResolveAPI(ev.cat, st.API)
		if a == nil {
			return nil, fmt.Errorf("chain step %d: API %q is not in the catalog", i+1, st.API)
		}
		tools[a.Tool] = true
	}
	var ids []string
	for _, a := range ev.cat.APIs() {
		if tools[a.Tool] {
			ids = append(ids, a.ID())
		}
	}
	n := 0
	for _, h := range ev.index.Search(inst.In.Text, ChainDistractors+len(ids)) {
		if n == ChainDistractors {
			break
		}
		if !tools[h.API.Tool] {
			ids = append(ids, h.ID)
			n++
		}
	}
	shuffleFor(inst.Key(), ids)
	return ids, nil
}

// groupAPIs are Task 8's APIs: the coherent group's APIs in the catalog
// (x-group) and the record's group_apis, in catalog order.
func (ev *evaluator) groupAPIs(in *dataset.Instruction) ([]string, error) {
	want := map[string]bool{}
	for _, id := range in.GroupAPIs {
		a := dataset.ResolveAPI(ev.cat, id)
		if a == nil {
			return nil, fmt.Errorf("group API %q is not in the catalog", id)
		}
		want[a.ID()] = true
	}
	var ids []string
	for _, a := range ev.cat.APIs() {
		member := want[a.ID()]
		for _, g := range a.Groups {
			member = member || g == in.Group
		}
		if member {
			ids = append(ids, a.ID())
		}
	}
	return ids, nil
}

// conversation returns the user's text and the tool messages of a
// view's last turn (from the instruction on): earlier turns are context,
// not the result the answer is about.
func conversation(v view) (user, tool string) {
	from := 0
	for i, m := range v.messages {
		if m.Role == agent.RoleUser {
			from = i
		}
	}
	var u, t []string
	for _, m := range v.messages[from:] {
		switch m.Role {
		case agent.RoleUser:
			u = append(u, m.Content)
		case agent.RoleTool:
			t = append(t, m.Content)
		}
	}
	return strings.Join(u, "\n"), strings.Join(t, "\n")
}

// shuffleFor shuffles s deterministically, seeded by an instance's ID.
func shuffleFor[T any](id string, s []T) {
	h := fnv.New64a()
	h.Write([]byte(id))
	r := rand.New(rand.NewPCG(h.Sum64(), 0x5eed0f7a5c0d2e11))
	r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
}
