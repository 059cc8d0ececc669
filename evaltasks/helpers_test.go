package evaltasks

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
)

// long runs the strategy suites (runStrategy) on every instance of the
// embedded dataset, as .ci/run does: go test ./evaltasks -long. By default
// each suite scores a stratified sample of each task (strategySample
// instances: every instruction type, scenario and, as far as the sample
// reaches, API represented), which keeps go test ./... well inside Go's
// default per-package limit on a busy machine.
var long = flag.Bool("long", false, "score the strategy suites on the whole embedded dataset, not a stratified sample of each task")

// strategySample is how many instances of each task a default strategy
// run scores, drawn with strategySeed; Task 8's 60 are kept whole.
const (
	strategySample = 64
	strategySeed   = 1
)

// bar is the most a strategy may score on a task of a strategy run that
// scored planned instances, when floor is its bar on the whole task. A
// sample's share of accidental passes is not the whole set's, so on a
// sampled task the bar is two standard errors of a share at floor over
// the sample above it; a floor of 0 stays 0 (one pass is a defect in any
// sample), and under -long, or on a task kept whole, the bar is floor.
func bar(floor float64, planned int) float64 {
	if *long || floor <= 0 || planned < strategySample {
		return floor
	}
	return floor + 2*math.Sqrt(floor*(1-floor)/float64(planned))
}

// strategyScope is the Sample and Seed of a strategy run: the whole
// dataset under -long, else the stratified sample.
func strategyScope() (n int, seed uint64) {
	if *long {
		return 0, 0
	}
	return strategySample, strategySeed
}

var (
	stackOnce sync.Once
	stack     *assemble.Stack
	stackErr  error
)

// testStack is the default offline sandbox, built once for the package's tests.
func testStack(t testing.TB) *assemble.Stack {
	t.Helper()
	stackOnce.Do(func() { stack, stackErr = assemble.Build(assemble.Config{}) })
	require.NoError(t, stackErr)
	return stack
}

// miniData is the hand-written test dataset.
func miniData(t testing.TB) []dataset.Instruction {
	t.Helper()
	ins, err := dataset.LoadDir(os.DirFS("testdata/mini"), ".")
	require.NoError(t, err)
	require.NotEmpty(t, ins)
	return ins
}

// funcAgent adapts a function to agent.Agent.
type funcAgent func(ctx context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error)

func (f funcAgent) Respond(ctx context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	return f(ctx, msgs, tools)
}

// silentAgent always answers in text, never calling a tool.
var silentAgent = funcAgent(func(context.Context, []agent.Message, []toolset.OpenAITool) (agent.Reply, error) {
	return agent.Reply{Content: "I would rather not say."}, nil
})

// eagerAgent always calls the first tool it is offered, with no arguments.
var eagerAgent = funcAgent(func(_ context.Context, _ []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	if len(tools) == 0 {
		return agent.Reply{Content: "no tools"}, nil
	}
	return agent.Reply{ToolCalls: []agent.ToolCall{{ID: "c1", Name: tools[0].Function.Name, Arguments: json.RawMessage(`{}`)}}}, nil
})

func runMini(t testing.TB, a agent.Agent, name string, mod func(*Config)) *Report {
	t.Helper()
	cfg := Config{Agent: a, AgentName: name, Instructions: miniData(t), Stack: testStack(t)}
	if mod != nil {
		mod(&cfg)
	}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	return rep
}

func metric(t testing.TB, rep *Report, task int, name string) float64 {
	t.Helper()
	for _, tr := range rep.Tasks {
		if tr.ID == task {
			v, ok := tr.Metrics[name]
			require.True(t, ok, "task %d has no metric %s", task, name)
			return v
		}
	}
	t.Fatalf("no task %d in the report", task)
	return 0
}

// requireAtMost asserts that a strategy's headline metric on a task stays
// at or under floor (its bar on a sampled task: bar) and logs the score.
func requireAtMost(t testing.TB, rep *Report, task int, floor float64, name string) {
	t.Helper()
	for _, tr := range rep.Tasks {
		if tr.ID == task {
			m := headline[task]
			got, b := tr.Metrics[m], bar(floor, tr.Planned)
			t.Logf("T%d %s %.3f (floor %.2f, bar %.3f over %d instances): %s", task, m, got, floor, b, tr.Planned, name)
			require.LessOrEqual(t, got, b, "task %d: %s", task, name)
			return
		}
	}
	t.Fatalf("no task %d in the report", task)
}
