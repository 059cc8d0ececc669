package evaltasks

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
)

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
