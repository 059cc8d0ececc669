package evaltasks

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/fixtures"
)

// The degenerate-agent suite: models that follow a fixed strategy and never
// read what the question means, served by a real OpenAI-compatible server on
// loopback and evaluated on the embedded dataset through the same path a
// user's model takes (-agent openai). Each task's headline metric must stay
// at or under the floor the strategy deserves; the positive controls
// (controls_test.go) keep the scorers from being too strict the other way.

// headline is the metric each task is ranked by (Table 5 of the paper).
var headline = map[int]string{
	TaskDecide: "f1", TaskSelect: "accuracy", TaskClarify: "percentage", TaskFill: "precision",
	TaskIntrinsic: "relatedness", TaskToolReturn: "passing_rate", TaskChain: "progress", TaskPlan: "passing_rate",
}

// degenerate is a strategy and the most each task may give it.
type degenerate struct {
	name   string
	policy func(agenttest.ChatRequest) (agenttest.Turn, error)
	// floors caps the headline metric of a task; tasks not listed are
	// capped by defaultFloor.
	floors map[int]float64
}

// defaultFloor caps any task a strategy has no business passing: a few
// instances may pass by accident (an API whose correct call takes no
// arguments, a key point that is a common word), never more.
const defaultFloor = 0.1

func TestDegenerateAgentsSitAtTheFloor(t *testing.T) {
	ins, err := LoadDir(fixtures.FS, "instructions")
	require.NoError(t, err)
	alwaysCall := alwaysCallF1(ins)
	opener := framingRule(ins)

	strategies := []degenerate{
		{name: "never call a tool", policy: say("Sure, happy to help with that."),
			// Task 1: no predicted positive gives F1 0 for the positive class.
			floors: map[int]float64{TaskDecide: 0}},
		{name: "I don't know", policy: say("I don't know."),
			floors: map[int]float64{TaskDecide: 0}},
		{name: "call the first offered tool with {}", policy: firstToolThen(say("Done.")),
			floors: map[int]float64{
				// Always calling is Task 1's reference point: F1 = 2p/(1+p).
				TaskDecide: alwaysCall + 1e-9,
				// Task 2 offers five APIs in a shuffled order: chance is 1/5,
				// plus the also-correct APIs.
				TaskSelect: 0.35,
				// A few APIs take no required argument, and a chain may start
				// with one; neither may add up to a real score.
				TaskFill: 0.1, TaskChain: 0.15,
			}},
		{name: "paste the raw tool result JSON", policy: firstToolThen(lastToolResult),
			floors: map[int]float64{TaskDecide: alwaysCall + 1e-9, TaskSelect: 0.35, TaskFill: 0.1, TaskChain: 0.15,
				// The bar: pasting the tool's JSON is not answering.
				TaskToolReturn: 0.2}},
		{name: "repeat the user's text and the tool results", policy: echoConversation,
			floors: map[int]float64{TaskToolReturn: 0.2, TaskClarify: 0.2}},
		{name: "list every offered tool with its description", policy: listTools,
			// The bar for Task 8: a list of tools is not a plan.
			floors: map[int]float64{TaskPlan: 0.3, TaskClarify: 0.2}},
		{name: "ask for every parameter of every tool", policy: askForEveryParameter,
			// Some Type-III texts give nothing, so asking for every required
			// parameter is right there; asking for what was given never is.
			floors: map[int]float64{TaskClarify: 0.5, TaskPlan: 0.3}},
		{name: "decide 'no tool' from the framing phrases alone", policy: opener,
			// The leakage bar: framing must not beat always calling.
			floors: map[int]float64{TaskDecide: alwaysCall + 0.02, TaskSelect: 0.35, TaskFill: 0.1, TaskChain: 0.15}},
		{name: "the model server answers 400 on 7 in 8 instances", policy: mostlyFailing(firstToolThen(say("Done."))),
			// Errors are failures: what is left is 1/8 of an always-call agent.
			floors: map[int]float64{TaskDecide: 0.25, TaskSelect: 0.1, TaskChain: 0.05, TaskFill: 0.05}},
	}

	for _, s := range strategies {
		t.Run(s.name, func(t *testing.T) {
			rep := runStrategy(t, s.policy)
			var table strings.Builder
			var over []string
			for _, tr := range rep.Tasks {
				m := headline[tr.ID]
				floor, ok := s.floors[tr.ID]
				if !ok {
					floor = defaultFloor
				}
				got := tr.Metrics[m]
				fmt.Fprintf(&table, "T%d %-12s %.3f (floor %.3f, errors %d/%d)\n", tr.ID, m, got, floor, tr.Errors, tr.Planned)
				if got > floor {
					over = append(over, fmt.Sprintf("task %d %s %.3f > %.3f", tr.ID, m, got, floor))
				}
			}
			t.Logf("%s:\n%s", s.name, table.String())
			require.Empty(t, over, "scores above the floor of %q", s.name)
		})
	}
}

// runStrategy evaluates a model server that follows policy on all eight
// tasks of the embedded dataset, errors allowed.
func runStrategy(t *testing.T, policy func(agenttest.ChatRequest) (agenttest.Turn, error)) *Report {
	t.Helper()
	srv := agenttest.NewPolicyServer(t, policy)
	a, err := NewAgent("openai", AgentOptions{BaseURL: srv.URL(), Model: "scripted", MaxRetries: 0, Concurrency: 4})
	require.NoError(t, err)
	rep, err := Run(context.Background(), Config{Agent: a, AgentName: "scripted", Stack: testStack(t), Concurrency: 4})
	require.NoError(t, err)
	require.Len(t, rep.Tasks, 8)
	return rep
}

func say(text string) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	return func(agenttest.ChatRequest) (agenttest.Turn, error) { return agenttest.Text(text), nil }
}

// firstToolThen calls the first offered tool with no arguments and, once a
// tool has answered, replies with then.
func firstToolThen(then func(agenttest.ChatRequest) (agenttest.Turn, error)) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		if len(req.Tools) == 0 || toolResults(req) != nil {
			return then(req)
		}
		return agenttest.Tool(req.Tools[0].Function.Name, "{}"), nil
	}
}

func toolResults(req agenttest.ChatRequest) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}

func userText(req agenttest.ChatRequest) string {
	for _, m := range req.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

func lastToolResult(req agenttest.ChatRequest) (agenttest.Turn, error) {
	rs := toolResults(req)
	if len(rs) == 0 {
		return agenttest.Text("{}"), nil
	}
	return agenttest.Text(rs[len(rs)-1]), nil
}

func echoConversation(req agenttest.ChatRequest) (agenttest.Turn, error) {
	return agenttest.Text(strings.Join(append([]string{userText(req)}, toolResults(req)...), "\n")), nil
}

func listTools(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var b strings.Builder
	b.WriteString("Here are the tools I can use:\n")
	for _, tl := range req.Tools {
		fmt.Fprintf(&b, "- %s: %s\n", tl.Function.Name, tl.Function.Description)
	}
	return agenttest.Text(b.String()), nil
}

func askForEveryParameter(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var asks []string
	for _, tl := range req.Tools {
		props, _ := tl.Function.Parameters["properties"].(map[string]any)
		for _, name := range sortedKeys(props) {
			desc := ""
			if p, ok := props[name].(map[string]any); ok {
				desc, _ = p["description"].(string)
			}
			asks = append(asks, fmt.Sprintf("the %s (%s)", strings.ReplaceAll(name, "_", " "), desc))
		}
	}
	if len(asks) == 0 {
		return agenttest.Text("Could you tell me more about what you need?"), nil
	}
	return agenttest.Text("Could you please provide " + strings.Join(asks, ", ") + "?"), nil
}

// mostlyFailing answers 400 "context too long" on 7 of 8 conversations
// (chosen by their first user message) and follows policy on the rest.
func mostlyFailing(policy func(agenttest.ChatRequest) (agenttest.Turn, error)) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		h := sha256.Sum256([]byte(userText(req)))
		if binary.BigEndian.Uint64(h[:8])%8 != 0 {
			return agenttest.Fail(400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens."), nil
		}
		return policy(req)
	}
}

// alwaysCallF1 is the positive-class F1 of an agent that always calls a
// tool on Task 1: precision is the share of Type-II instances, recall 1.
func alwaysCallF1(ins []Instruction) float64 {
	pos, all := 0, 0
	for _, in := range ins {
		switch in.Type {
		case TypeSufficient:
			pos++
			all++
		case TypeNoTool:
			all++
		}
	}
	p := float64(pos) / float64(all)
	return 2 * p / (1 + p)
}

// framingFeatures are what a rule that reads no meaning can see of a text:
// its first word, first two words and last two words.
func framingFeatures(text string) []string {
	ws := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(ws) == 0 {
		return nil
	}
	out := []string{"first:" + ws[0]}
	if len(ws) >= 2 {
		out = append(out, "first2:"+ws[0]+" "+ws[1], "last2:"+ws[len(ws)-2]+" "+ws[len(ws)-1])
	}
	return out
}

// framingRule is the strongest framing-only strategy: fitted on the very
// dataset it is scored on, it answers without a tool whenever any framing
// feature seen on at least 8 texts belongs to Type-I texts 85 % of the time
// or more, and calls the first tool otherwise.
func framingRule(ins []Instruction) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	type count struct{ noTool, all int }
	counts := map[string]*count{}
	for _, in := range ins {
		if in.Type != TypeNoTool && in.Type != TypeSufficient {
			continue
		}
		for _, f := range framingFeatures(in.Text) {
			c := counts[f]
			if c == nil {
				c = &count{}
				counts[f] = c
			}
			c.all++
			if in.Type == TypeNoTool {
				c.noTool++
			}
		}
	}
	telling := map[string]bool{}
	for f, c := range counts {
		if c.all >= 8 && float64(c.noTool) >= 0.85*float64(c.all) {
			telling[f] = true
		}
	}
	call := firstToolThen(say("Done."))
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		for _, f := range framingFeatures(userText(req)) {
			if telling[f] {
				return agenttest.Text("Happy to answer that directly."), nil
			}
		}
		return call(req)
	}
}

// TestFramingRuleFindsAPlantedLeak keeps the framing strategy honest: on a
// dataset whose Type-I texts share an opener, it must find it and use it.
func TestFramingRuleFindsAPlantedLeak(t *testing.T) {
	var ins []Instruction
	for i := 0; i < 20; i++ {
		ins = append(ins,
			Instruction{ID: fmt.Sprintf("I-%d", i), Type: TypeNoTool, Text: fmt.Sprintf("Quick question: what is %d plus %d?", i, i+1)},
			Instruction{ID: fmt.Sprintf("II-%d", i), Type: TypeSufficient, Text: fmt.Sprintf("What is the weather in city %d today?", i)})
	}
	rule := framingRule(ins)
	req := func(text string) agenttest.ChatRequest {
		var r agenttest.ChatRequest
		body, err := json.Marshal(map[string]any{
			"messages": []map[string]string{{"role": "user", "content": text}},
			"tools":    []map[string]any{{"type": "function", "function": map[string]any{"name": "weather", "parameters": map[string]any{}}}},
		})
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(body, &r))
		return r
	}
	turn, err := rule(req("Quick question: what is 7 plus 1?"))
	require.NoError(t, err)
	require.Empty(t, turn.Calls, "the planted opener must be read as 'no tool'")
	turn, err = rule(req("What is the weather in city 3 today?"))
	require.NoError(t, err)
	require.Len(t, turn.Calls, 1, "without a telling phrase the rule calls the first tool")
	require.Equal(t, []string{"first:quick", "first2:quick question", "last2:is plus"}, framingFeatures("Quick question: what is 7 plus 1?"))
}
