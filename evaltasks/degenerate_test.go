package evaltasks

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/baseline"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/mocks/world"
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
	ins, err := dataset.LoadDir(fixtures.FS, "instructions")
	require.NoError(t, err)
	alwaysCall := alwaysCallF1(ins)
	opener := framingRule(ins)

	// Floors shared by every strategy that calls the first offered tool
	// once and then answers without reading the question.
	firstTool := func(extra map[int]float64) map[int]float64 {
		f := map[int]float64{
			// Always calling is Task 1's reference point: F1 = 2p/(1+p).
			TaskDecide: alwaysCall + 1e-9,
			// Task 2 offers five APIs in a shuffled order: chance is 1/5,
			// plus the also-correct APIs.
			TaskSelect: 0.35,
			// Task 4 offers the target API alone, so {} passes exactly
			// where the gold call takes no argument: 0.098 of the Type-II
			// set today.
			TaskFill: 0.1,
			// A chain may start with an API that takes no argument (where
			// am I by my IP); that may not add up to a real score.
			TaskChain: 0.15,
		}
		for k, v := range extra {
			f[k] = v
		}
		return f
	}

	strategies := []degenerate{
		{name: "never call a tool", policy: say("Sure, happy to help with that."),
			// Task 1: no predicted positive gives F1 0 for the positive class.
			floors: map[int]float64{TaskDecide: 0}},
		{name: "I don't know", policy: say("I'm sorry, I don't know."),
			// Tasks 5 and 6 need the answer's facts: a refusal holds none.
			floors: map[int]float64{TaskDecide: 0, TaskIntrinsic: 0, TaskToolReturn: 0}},
		{name: "call the first offered tool with {}", policy: firstToolThen(say("Done.")),
			floors: firstTool(nil)},
		{name: "paste the raw tool result JSON", policy: firstToolThen(lastToolResult),
			// Task 6: the tool's JSON is data, not an answer in words.
			floors: firstTool(map[int]float64{TaskToolReturn: 0})},
		{name: "flatten the tool result into field: value lines", policy: firstToolThen(flattenToolResult),
			// Every fact without JSON punctuation is still the tool's data
			// under its own field names.
			floors: firstTool(map[int]float64{TaskToolReturn: 0})},
		{name: "list every value of the tool result", policy: firstToolThen(listToolValues),
			// The bar for Task 6: listing the values of a result
			// that holds one or two (a bare rate, a translation, an IP
			// address) states the answer itself; 0.10 today.
			floors: firstTool(map[int]float64{TaskToolReturn: 0.2})},
		{name: "repeat the user's text and the tool results", policy: echoConversation,
			// Task 6: a copy of the conversation adds no words of its own.
			// Task 3: the question handed back asks for nothing.
			floors: map[int]float64{TaskToolReturn: 0, TaskClarify: 0}},
		{name: "list every offered tool with its description", policy: listTools,
			// The bar for Task 8: a list of tools is not a plan.
			// Task 3: a list asks for nothing in the agent's own words,
			// though its descriptions name the parameters.
			floors: map[int]float64{TaskPlan: 0.3, TaskClarify: 0}},
		{name: "the request, then every offered tool with its description", policy: listToolsUnderRequest,
			// Task 3: the request's question mark is the user's, not a
			// request of the agent's (0.369 before the scorer looked
			// for it in the agent's own sentences).
			floors: map[int]float64{TaskPlan: 0.3, TaskClarify: 0}},
		{name: "the request, then the offered tools' names numbered", policy: numberedToolNames,
			// Numbered names look like plan steps but say nothing of what
			// each step does.
			floors: map[int]float64{TaskPlan: 0.3, TaskClarify: 0}},
		{name: "ask for every parameter of every tool", policy: askForEveryParameter,
			// Some Type-III texts give nothing, and their API has no
			// parameter besides the missing ones and at most one optional
			// one: there asking for everything is asking for what is
			// missing, and a capable model may do just that. Asking for
			// what was given never passes
			// (TestAskEverythingFailsWhenSomethingWasGiven).
			floors: map[int]float64{TaskClarify: 0.5, TaskPlan: 0.3}},
		{name: "call every offered tool in turn with its documented examples", policy: everyToolWithExamples,
			floors: map[int]float64{
				TaskDecide: alwaysCall + 1e-9, TaskSelect: 0.35,
				// Task 4: the documented example is the gold value where
				// the question happens to ask about it (Lisbon, EUR to
				// USD): 0.193 of the Type-II set today.
				TaskFill: 0.2,
				// Task 7: the examples stand in for the user's values, so
				// only chains that need none (where am I by my IP) or ask
				// about the examples' own city (Lisbon) pass their steps;
				// the gold-informed version of this strategy stays under
				// 0.35 (TestChainFloorsOfGoldInformedStrategies).
				TaskChain: 0.35,
			}},
		{name: "decide 'no tool' from the framing phrases alone", policy: opener,
			// The leakage bar: framing must not beat always calling.
			floors: map[int]float64{TaskDecide: alwaysCall + 0.02, TaskSelect: 0.35, TaskFill: 0.1, TaskChain: 0.15}},
		{name: "the model server answers 400 on 7 in 8 instances", policy: mostlyFailing(firstToolThen(say("Done."))),
			// Errors are failures: what is left is 1/8 of an always-call agent.
			floors: map[int]float64{TaskDecide: 0.25, TaskSelect: 0.1, TaskChain: 0.05, TaskFill: 0.05}},
	}

	for _, s := range strategies {
		t.Run(s.name, func(t *testing.T) {
			rep := runStrategy(t, s.policy, nil)
			var table strings.Builder
			var over []string
			for _, tr := range rep.Tasks {
				m := headline[tr.ID]
				floor, ok := s.floors[tr.ID]
				if !ok {
					floor = defaultFloor
				}
				// Task 1's floors are set by always calling on the very
				// instances scored (alwaysCallF1): no sampling allowance.
				b := floor
				if tr.ID != TaskDecide {
					b = bar(floor, tr.Planned)
				}
				got := tr.Metrics[m]
				fmt.Fprintf(&table, "T%d %-12s %.3f (floor %.3f, bar %.3f, errors %d/%d)\n", tr.ID, m, got, floor, b, tr.Errors, tr.Planned)
				if got > b {
					over = append(over, fmt.Sprintf("task %d %s %.3f > %.3f", tr.ID, m, got, b))
				}
			}
			t.Logf("%s:\n%s", s.name, table.String())
			require.Empty(t, over, "scores above the floor of %q", s.name)
		})
	}
}

// runStrategy evaluates a model server that follows policy on all eight
// tasks of the embedded dataset (a stratified sample of each unless
// -long: strategyScope), errors allowed; mod, when set, narrows the run.
func runStrategy(t *testing.T, policy func(agenttest.ChatRequest) (agenttest.Turn, error), mod func(*Config)) *Report {
	t.Helper()
	srv := agenttest.NewPolicyServer(t, policy)
	a, err := NewAgent("openai", AgentOptions{BaseURL: srv.URL(), Model: "scripted", MaxRetries: 0, Concurrency: 4})
	require.NoError(t, err)
	cfg := Config{Agent: a, AgentName: "scripted", Stack: testStack(t), Concurrency: 4}
	cfg.Sample, cfg.Seed = strategyScope()
	if mod != nil {
		mod(&cfg)
	}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	if mod == nil {
		require.Len(t, rep.Tasks, 8)
	}
	return rep
}

// policyReply is what policy answers to a view, for scorer-level tests
// that hand a strategy's reply to the scorer without a server.
func policyReply(t testing.TB, policy func(agenttest.ChatRequest) (agenttest.Turn, error), v view) agent.Reply {
	t.Helper()
	req, err := (&openai.Client{}).BuildRequest(v.messages, v.tools)
	require.NoError(t, err)
	turn, err := policy(*req)
	require.NoError(t, err)
	r := agent.Reply{Content: turn.Content}
	for i, c := range turn.Calls {
		r.ToolCalls = append(r.ToolCalls, agent.ToolCall{ID: fmt.Sprintf("c%d", i+1), Name: c.Name, Arguments: json.RawMessage(c.Arguments)})
	}
	return r
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

// flattenToolResult turns the last tool result into "field: value" lines,
// which hold every fact without JSON punctuation.
func flattenToolResult(req agenttest.ChatRequest) (agenttest.Turn, error) {
	rs := toolResults(req)
	if len(rs) == 0 {
		return agenttest.Text("Done."), nil
	}
	tool := rs[len(rs)-1]
	var x any
	if json.Unmarshal([]byte(tool), &x) != nil {
		return agenttest.Text("Result: " + tool), nil
	}
	var b strings.Builder
	var walk func(prefix string, x any)
	walk = func(prefix string, x any) {
		switch t := x.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(t)) {
				walk(prefix+k+" ", t[k])
			}
		case []any:
			for _, e := range t {
				walk(prefix, e)
			}
		default:
			fmt.Fprintf(&b, "%s: %v\n", strings.TrimSpace(prefix), t)
		}
	}
	walk("", x)
	return agenttest.Text(b.String()), nil
}

// listToolValues states every value of the last tool result, comma
// separated, without field names or JSON punctuation.
func listToolValues(req agenttest.ChatRequest) (agenttest.Turn, error) {
	rs := toolResults(req)
	if len(rs) == 0 {
		return agenttest.Text("Done."), nil
	}
	return agenttest.Text("Here is the result: " + strings.Join(textmatch.ReadToolData(rs[len(rs)-1]).Values, ", ") + "."), nil
}

func toolList(req agenttest.ChatRequest) string {
	var b strings.Builder
	b.WriteString("Here are the tools I can use:\n")
	for _, tl := range req.Tools {
		fmt.Fprintf(&b, "- %s: %s\n", tl.Function.Name, tl.Function.Description)
	}
	return b.String()
}

func listTools(req agenttest.ChatRequest) (agenttest.Turn, error) {
	return agenttest.Text(toolList(req)), nil
}

// listToolsUnderRequest repeats the request above the tool list: the
// request's words are the plan's topic, yet it still plans nothing.
func listToolsUnderRequest(req agenttest.ChatRequest) (agenttest.Turn, error) {
	return agenttest.Text(userText(req) + "\n\n" + toolList(req)), nil
}

// numberedToolNames repeats the request and numbers the offered functions
// by name under it.
func numberedToolNames(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var b strings.Builder
	b.WriteString(userText(req) + "\nI would use:\n")
	for i, tl := range req.Tools {
		fmt.Fprintf(&b, "%d. %s\n", i+1, tl.Function.Name)
	}
	return agenttest.Text(b.String()), nil
}

// everyToolWithExamples calls the offered tools one per turn, in the order
// offered, each with the first documented example of every parameter that
// has one, then says it is done: the schema's own values in place of the
// user's, no call reading an earlier response.
func everyToolWithExamples(req agenttest.ChatRequest) (agenttest.Turn, error) {
	done := len(toolResults(req))
	if done >= len(req.Tools) {
		return agenttest.Text("Done."), nil
	}
	tl := req.Tools[done]
	args := map[string]any{}
	props, _ := tl.Function.Parameters["properties"].(map[string]any)
	for name, p := range props {
		if p, ok := p.(map[string]any); ok {
			if ex, ok := p["examples"].([]any); ok && len(ex) > 0 {
				args[name] = ex[0]
			}
		}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return agenttest.Turn{}, err
	}
	return agenttest.Tool(tl.Function.Name, string(raw)), nil
}

func askForEveryParameter(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var asks []string
	for _, tl := range req.Tools {
		props, _ := tl.Function.Parameters["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
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
// tool on Task 1: precision is the share of Type-II instances among the
// Task-1 instances a strategy run scores (strategyScope), recall 1.
func alwaysCallF1(ins []dataset.Instruction) float64 {
	n, seed := strategyScope()
	pos, all := 0, 0
	for _, in := range sample(Instances(ins, []int{TaskDecide}), n, seed) {
		all++
		if in.Positive {
			pos++
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
func framingRule(ins []dataset.Instruction) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	type count struct{ noTool, all int }
	counts := map[string]*count{}
	for _, in := range ins {
		if in.Type != dataset.TypeNoTool && in.Type != dataset.TypeSufficient {
			continue
		}
		for _, f := range framingFeatures(in.Text) {
			c := counts[f]
			if c == nil {
				c = &count{}
				counts[f] = c
			}
			c.all++
			if in.Type == dataset.TypeNoTool {
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
	var ins []dataset.Instruction
	for i := 0; i < 20; i++ {
		ins = append(ins,
			dataset.Instruction{ID: fmt.Sprintf("I-%d", i), Type: dataset.TypeNoTool, Text: fmt.Sprintf("Quick question: what is %d plus %d?", i, i+1)},
			dataset.Instruction{ID: fmt.Sprintf("II-%d", i), Type: dataset.TypeSufficient, Text: fmt.Sprintf("What is the weather in city %d today?", i)})
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

// everyToolFromTheQuestion calls every offered tool once, one per turn in
// the order offered, each with arguments copied from the question without
// reading it (issue 24's class "call every offered tool once, arguments
// copied from the question"): a number parameter takes the question's first
// number, a date its first date, a parameter with a closed set of values the
// first of them the question spells, and any other text parameter the
// question's first run of capitalised words (a place, a name), else the
// whole question. No call reads an earlier response; then it says it is
// done.
func everyToolFromTheQuestion(req agenttest.ChatRequest) (agenttest.Turn, error) {
	return everyToolCopying(copiedFromQuestion)(req)
}

// everyToolWithTheQuestion is everyToolFromTheQuestion giving every text
// parameter the whole question.
func everyToolWithTheQuestion(req agenttest.ChatRequest) (agenttest.Turn, error) {
	return everyToolCopying(func(q string, schema map[string]any) (any, bool) {
		if schema["type"] == "string" || schema["type"] == nil {
			if _, closed := schema["enum"]; !closed {
				return q, true
			}
		}
		return copiedFromQuestion(q, schema)
	})(req)
}

func everyToolCopying(copied func(question string, schema map[string]any) (any, bool)) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		return everyTool(req, copied)
	}
}

func everyTool(req agenttest.ChatRequest, copied func(question string, schema map[string]any) (any, bool)) (agenttest.Turn, error) {
	done := len(toolResults(req))
	if done >= len(req.Tools) {
		return agenttest.Text("Done."), nil
	}
	question := userText(req)
	tl := req.Tools[done]
	props, _ := tl.Function.Parameters["properties"].(map[string]any)
	args := map[string]any{}
	for name, p := range props {
		p, _ := p.(map[string]any)
		if v, ok := copied(question, p); ok {
			args[name] = v
		}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return agenttest.Turn{}, err
	}
	return agenttest.Tool(tl.Function.Name, string(raw)), nil
}

var (
	questionNumber = regexp.MustCompile(`-?\d+(?:\.\d+)?`)
	questionDate   = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	questionName   = regexp.MustCompile(`\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)*`)
)

// copiedFromQuestion is the value the strategy gives a parameter of that
// JSON schema, read off the question's surface.
func copiedFromQuestion(question string, schema map[string]any) (any, bool) {
	switch schema["type"] {
	case "number", "integer":
		if m := questionNumber.FindString(question); m != "" {
			return json.Number(m), true
		}
		return nil, false
	case "boolean", "array", "object":
		return nil, false
	}
	if enum, ok := schema["enum"].([]any); ok {
		for _, e := range enum {
			if s, ok := e.(string); ok && strings.Contains(strings.ToLower(question), strings.ToLower(s)) {
				return s, true
			}
		}
		return nil, false
	}
	if f, _ := schema["format"].(string); f == "date" {
		if m := questionDate.FindString(question); m != "" {
			return m, true
		}
		return nil, false
	}
	// The first capitalised run that is not just the question's first word.
	for _, loc := range questionName.FindAllStringIndex(question, -1) {
		name := question[loc[0]:loc[1]]
		if loc[0] == 0 {
			if _, rest, ok := strings.Cut(name, " "); ok {
				return rest, true
			}
			continue
		}
		return name, true
	}
	return question, true
}

// TestEveryToolFromTheQuestionIsNoBetterThanTheBaseline: on Task 7, calling
// every offered tool once with arguments copied from the question, and
// reading no answer, scores no better than the model-free baseline agent,
// on the paper's progress rate and on call precision.
func TestEveryToolFromTheQuestionIsNoBetterThanTheBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("Task 7 on the whole embedded dataset, twice")
	}
	st := testStack(t)
	// The baseline runs on the instances the strategies do (strategyScope).
	base := runScoped(t, baseline.New(st.Catalog, st.Graph), "baseline", TaskChain)
	floor := metric(t, base, TaskChain, "progress")
	precisionFloor := base.Tasks[0].Extra["call_precision"]
	for name, policy := range map[string]func(agenttest.ChatRequest) (agenttest.Turn, error){
		"names, numbers and dates from the question": everyToolFromTheQuestion,
		"the whole question in every text parameter": everyToolWithTheQuestion,
	} {
		t.Run(name, func(t *testing.T) {
			rep := runStrategy(t, policy, func(c *Config) { c.Tasks = []int{TaskChain} })
			got := metric(t, rep, TaskChain, "progress")
			i := slices.IndexFunc(rep.Tasks, func(tr TaskReport) bool { return tr.ID == TaskChain })
			t.Logf("Task 7 progress %.3f (baseline %.3f), extra %v (baseline %v)", got, floor, rep.Tasks[i].Extra, base.Tasks[0].Extra)
			require.LessOrEqual(t, got, floor)
			require.LessOrEqual(t, rep.Tasks[i].Extra["call_precision"], precisionFloor)
		})
	}
}

// Strategies that read only surface signals, one task each: shallower than
// an answer, yet each once scored well above the baseline on its task (the
// figures the "Scores that cannot be gamed" paragraph of docs/evaluator.md
// quotes).
// Each runs end to end through -agent openai on the whole embedded
// dataset of its task and must stay at or under SurfaceFloor.

// SurfaceFloor caps the headline metric of a task for a strategy that reads
// only surface signals.
const SurfaceFloor = 0.2

// surfaceStrategy is a strategy aimed at one task.
type surfaceStrategy struct {
	task   int
	name   string
	policy func(agenttest.ChatRequest) (agenttest.Turn, error)
}

func surfaceStrategies(t testing.TB) []surfaceStrategy {
	t.Helper()
	w, err := world.DefaultWorld()
	require.NoError(t, err)
	return []surfaceStrategy{
		{TaskIntrinsic, "one fixed reply listing numbers, UTC offsets, capitals and currencies", say(candidateValues(w, false))},
		{TaskIntrinsic, "one fixed reply listing every kind of value of the world", say(candidateValues(w, true))},
		{TaskToolReturn, "the result's values in order, short of the lists-everything share", resultValuesInOrder(listedShare - 0.01)},
		{TaskToolReturn, "one sentence per field: The <key> is <value>.", fieldSentences(listedShare - 0.01)},
		{TaskClarify, "one-word sentences from each parameter's description", descriptionWords("%s please.")},
		{TaskClarify, "one-word questions from each parameter's description", descriptionWords("%s please?")},
		{TaskClarify, "a request listing each parameter's description word", descriptionWordList},
		{TaskPlan, "every tool name, then a bag of words from the tool docs, as one step", namesAndDocWords},
		{TaskPlan, "one generic step per tool, tools in catalog order", genericStepPerTool},
	}
}

func TestSurfaceStrategiesSitAtTheFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole embedded dataset, once per strategy")
	}
	for _, s := range surfaceStrategies(t) {
		t.Run(fmt.Sprintf("T%d %s", s.task, s.name), func(t *testing.T) {
			rep := runStrategy(t, s.policy, func(c *Config) { c.Tasks = []int{s.task} })
			requireAtMost(t, rep, s.task, SurfaceFloor, s.name)
		})
	}
}

// candidateValues is one fixed reply for every question: the numbers 0 to
// 100 (and down to -10), every whole-hour UTC offset, and the world's
// capitals and currencies; all adds its languages, calling codes, IANA
// zones and phrasebook entries.
func candidateValues(w *world.World, all bool) string {
	var b strings.Builder
	b.WriteString("It is one of these: ")
	for n := -10; n <= 100; n++ {
		fmt.Fprintf(&b, "%d, ", n)
	}
	b.WriteString("\nThe offset is one of ")
	for h := -12; h <= 14; h++ {
		fmt.Fprintf(&b, "UTC%+03d:00, ", h)
	}
	var caps, curs []string
	for _, c := range w.Countries() {
		caps = append(caps, c.Capital)
	}
	for _, c := range w.Currencies() {
		curs = append(curs, c.Name)
	}
	fmt.Fprintf(&b, "\nThe capital is one of %s.\nThe currency is one of %s.", strings.Join(caps, ", "), strings.Join(curs, ", "))
	if all {
		var langs, codes, zones, phrases []string
		for _, l := range w.Languages() {
			langs = append(langs, l.Name)
		}
		for _, c := range w.Countries() {
			codes = append(codes, c.CallingCode)
			zones = append(zones, c.TimeZones...)
		}
		for _, e := range w.Phrasebook() {
			for _, k := range slices.Sorted(maps.Keys(e)) {
				if k != "en" {
					phrases = append(phrases, e[k])
				}
			}
		}
		fmt.Fprintf(&b, "\nThe language is one of %s.\nThe calling code is one of %s.\nThe zone is one of %s.\nIt is said %s.",
			strings.Join(langs, ", "), strings.Join(codes, ", "), strings.Join(slices.Compact(slices.Sorted(slices.Values(zones))), ", "), strings.Join(phrases, ", "))
	}
	return b.String()
}

// leaf is a field of a tool result and its value, in document order.
type leaf struct{ key, value string }

// resultLeaves reads the leaves of a tool result in the order the JSON
// writes them, each under its field's name; repeated values are kept once.
// A result that is not JSON is one value.
func resultLeaves(tool string) []leaf {
	dec := json.NewDecoder(strings.NewReader(tool))
	dec.UseNumber()
	var out []leaf
	seen := map[string]bool{}
	var walk func(key string) error
	walk = func(key string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				if err := walk(fmt.Sprint(k)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			for dec.More() {
				if err := walk(key); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		if s := fmt.Sprint(tok); tok != nil && strings.TrimSpace(s) != "" && !seen[s] {
			seen[s] = true
			out = append(out, leaf{key, s})
		}
		return nil
	}
	if walk("result") != nil {
		return []leaf{{"result", strings.TrimSpace(tool)}}
	}
	return out
}

// listedShare and minListed are the share of a result's values, and the
// number of values, at which a reply was once read as listing the
// result: the strategies list just short of it.
const (
	listedShare = 0.8
	minListed   = 8
)

// shareOf is the first share of leaves, all of them when there are fewer
// than minListed.
func shareOf(ls []leaf, share float64) []leaf {
	if len(ls) < minListed {
		return ls
	}
	return ls[:max(1, int(share*float64(len(ls))))]
}

// resultValuesInOrder lists the last tool result's values in document
// order, comma separated, up to a share of them.
func resultValuesInOrder(share float64) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		rs := toolResults(req)
		if len(rs) == 0 {
			return agenttest.Text("Done."), nil
		}
		var vals []string
		for _, l := range shareOf(resultLeaves(rs[len(rs)-1]), share) {
			vals = append(vals, l.value)
		}
		return agenttest.Text("Here is what I found: " + strings.Join(vals, ", ") + "."), nil
	}
}

// fieldSentences writes one sentence per field of the last tool result,
// "The <key in words> is <value>.", up to a share of them.
func fieldSentences(share float64) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		rs := toolResults(req)
		if len(rs) == 0 {
			return agenttest.Text("Done."), nil
		}
		var b strings.Builder
		for _, l := range shareOf(resultLeaves(rs[len(rs)-1]), share) {
			k := strings.Join(textmatch.SplitName(l.key), " ")
			if k == "" {
				k = "value"
			}
			fmt.Fprintf(&b, "The %s is %s. ", k, l.value)
		}
		return agenttest.Text(strings.TrimSpace(b.String())), nil
	}
}

// paramDescriptions are the offered tools' parameters with their
// descriptions, in name order.
func paramDescriptions(req agenttest.ChatRequest) [][2]string {
	var out [][2]string
	for _, tl := range req.Tools {
		props, _ := tl.Function.Parameters["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			desc := ""
			if p, ok := props[name].(map[string]any); ok {
				desc, _ = p["description"].(string)
			}
			out = append(out, [2]string{name, desc})
		}
	}
	return out
}

// descriptionWord is the first word of a parameter's description that is
// no generic word of API documentation, capitalised ("Source").
func descriptionWord(name, desc string) string {
	for _, w := range textmatch.Words(desc + " " + strings.Join(textmatch.SplitName(name), " ")) {
		if len(w) >= 3 && !textmatch.IsStopWord(w) && !textmatch.IsGenericWord(w) && !textmatch.HasDigit(w) {
			return strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return ""
}

// descriptionWords writes one short sentence per parameter of the offered
// tools, a word of its description in the pattern ("%s please.").
func descriptionWords(pattern string) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		var out []string
		for _, p := range paramDescriptions(req) {
			if w := descriptionWord(p[0], p[1]); w != "" {
				out = append(out, fmt.Sprintf(pattern, w))
			}
		}
		return agenttest.Text(strings.Join(out, " ")), nil
	}
}

// descriptionWordList asks, in one request, for a word of each parameter's
// description.
func descriptionWordList(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var out []string
	for _, p := range paramDescriptions(req) {
		if w := descriptionWord(p[0], p[1]); w != "" {
			out = append(out, strings.ToLower(w))
		}
	}
	return agenttest.Text("Could you tell me: " + strings.Join(out, ", ") + "?"), nil
}

// namesAndDocWords is one step: every offered function's name, then the
// distinct words of the tools' descriptions in alphabetical order (no run
// of them copies a description).
func namesAndDocWords(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var names []string
	words := map[string]bool{}
	for _, tl := range req.Tools {
		names = append(names, tl.Function.Name)
		for _, w := range textmatch.Words(tl.Function.Description) {
			if !textmatch.IsStopWord(w) {
				words[w] = true
			}
		}
	}
	return agenttest.Text("1. Use " + strings.Join(names, ", ") + " to " + strings.Join(slices.Sorted(maps.Keys(words)), " ") + "."), nil
}

// genericStepPerTool is a step per offered function, in the order offered
// (the catalog's), each saying it gets what the function's name says.
func genericStepPerTool(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var b strings.Builder
	b.WriteString("Plan:\n")
	for i, tl := range req.Tools {
		name := tl.Function.Name
		if j := strings.LastIndexAny(name, "-."); j >= 0 {
			name = name[j+1:]
		}
		fmt.Fprintf(&b, "%d. Call `%s` to get the %s for the request.\n", i+1, tl.Function.Name, strings.Join(textmatch.SplitName(name), " "))
	}
	return agenttest.Text(b.String()), nil
}
