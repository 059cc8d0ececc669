package evaltasks

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/toolset"
)

// runEmbedded runs an agent over the embedded dataset for some tasks.
func runEmbedded(t testing.TB, a agent.Agent, name string, tasks ...int) *Report {
	t.Helper()
	rep, err := Run(context.Background(), Config{Agent: a, AgentName: name, Tasks: tasks, Stack: testStack(t), Concurrency: 2})
	require.NoError(t, err)
	return rep
}

// toolListAgent lists every offered tool with its description and plans
// nothing: it never reads the question.
var toolListAgent = funcAgent(func(_ context.Context, _ []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	var b strings.Builder
	b.WriteString("These are the tools available:\n")
	for _, t := range tools {
		b.WriteString("- " + t.Function.Name + ": " + t.Function.Description + "\n")
	}
	return agent.Reply{Content: b.String()}, nil
})

// finalOnlyAgent calls the last API of the chain once, with invented IDs
// for every value an earlier step would provide, then says it is done.
var finalOnlyAgent = funcAgent(func(ctx context.Context, msgs []agent.Message, _ []toolset.OpenAITool) (agent.Reply, error) {
	for _, m := range msgs {
		if m.Role == agent.RoleTool {
			return agent.Reply{Content: "Done."}, nil
		}
	}
	s, ok := agent.OracleScriptFrom(ctx)
	if !ok || len(s.Steps) == 0 {
		return agent.Reply{Content: "Done."}, nil
	}
	last := s.Steps[len(s.Steps)-1]
	args := map[string]any{}
	for k, v := range last.Arguments {
		args[k] = v
	}
	for k := range last.Bindings {
		args[k] = "id-4711"
	}
	raw, _ := json.Marshal(args)
	return agent.Reply{ToolCalls: []agent.ToolCall{{ID: "c1", Name: last.Name, Arguments: raw}}}, nil
})

func TestFloorsOfCallTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the embedded dataset")
	}
	rep := runEmbedded(t, eagerAgent, "first-tool-empty-args", TaskFill)
	t.Logf("T4 first tool with {}: precision %.3f", metric(t, rep, TaskFill, "precision"))
	rep = runEmbedded(t, finalOnlyAgent, "final-api-only", TaskChain)
	t.Logf("T7 final API only with invented IDs: progress %.3f", metric(t, rep, TaskChain, "progress"))
	rep = runEmbedded(t, toolListAgent, "tool-list", TaskPlan)
	t.Logf("T8 tool list: passing rate %.3f", metric(t, rep, TaskPlan, "passing_rate"))
}

func TestOracleChainsScoreOne(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the embedded dataset")
	}
	rep := runEmbedded(t, agent.Oracle{}, "oracle", TaskChain)
	for _, tr := range rep.Tasks {
		require.Zero(t, tr.Errors, "%+v", tr.Outcomes)
		require.Equal(t, 1.0, tr.Metrics["progress"], "%+v", tr.Outcomes)
	}
}
