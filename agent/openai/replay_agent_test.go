package openai_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/assemble"
)

func stack(t *testing.T) *assemble.Stack {
	t.Helper()
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	return st
}

func TestRegistered(t *testing.T) {
	require.Subset(t, evaltasks.AgentNames(), []string{"baseline", "oracle", "openai", "replay"})
	require.Equal(t, "baseline", evaltasks.DefaultAgent())
}

// TestEvalrunOpenAIAgainstScriptedServer runs the evaluation as
// `evalrun -agent openai -base-url <scripted>/v1 -model scripted` does.
func TestEvalrunOpenAIAgainstScriptedServer(t *testing.T) {
	srv := agenttest.NewServer(t, agenttest.Turn{
		Content: "The capital of Australia is Canberra, not Sydney.",
		Check: func(req agenttest.ChatRequest) error {
			if req.Model != "scripted" {
				return errors.New("model is " + req.Model)
			}
			return nil
		},
	})
	a, err := evaltasks.NewAgent("openai", evaltasks.AgentOptions{BaseURL: srv.URL(), Model: "scripted"})
	require.NoError(t, err)
	ins := []dataset.Instruction{{
		ID: "i-capital", Type: dataset.TypeNoTool, Text: "What is the capital city of Australia?",
		TemptingAPI: "geocoding.forward_geocode", ReferenceAnswer: "The capital of Australia is Canberra, not Sydney.",
		KeyPoints: []string{"Canberra is the capital", "not Sydney"},
	}}
	rep, err := evaltasks.Run(context.Background(), evaltasks.Config{
		Agent: a, AgentName: "openai", Model: "scripted", Instructions: ins, Tasks: []int{evaltasks.TaskDecide}, Stack: stack(t),
	})
	require.NoError(t, err)
	require.True(t, rep.Complete)
	require.Len(t, rep.Tasks, 1)
	require.Equal(t, 1, rep.Tasks[0].N)
	require.Zero(t, rep.Tasks[0].Errors)
	require.Len(t, srv.Requests(), 1)
}

func TestReplayAnswersFromARecording(t *testing.T) {
	dir := t.TempDir()
	srv := agenttest.NewServer(t, agenttest.Text("recorded answer"))
	live, err := openai.NewClient(openai.Config{BaseURL: srv.URL(), Model: "m"})
	require.NoError(t, err)
	tr, err := openai.OpenTranscript(dir)
	require.NoError(t, err)
	msgs := []agent.Message{{Role: agent.RoleUser, Content: "hi"}}
	want, err := openai.NewRecorder(live, tr).Respond(context.Background(), msgs, nil)
	require.NoError(t, err)

	t.Setenv(openai.TranscriptEnv, dir)
	a, err := evaltasks.NewAgent("replay", evaltasks.AgentOptions{Model: "m"})
	require.NoError(t, err)
	got, err := a.Respond(context.Background(), msgs, nil)
	require.NoError(t, err)
	require.Equal(t, want, got)

	_, err = a.Respond(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: "never recorded"}}, nil)
	var miss *openai.MissError
	require.ErrorAs(t, err, &miss)

	for _, tc := range []struct {
		dir   string
		model string
	}{{"", "m"}, {dir + "/nope", "m"}, {dir, ""}} {
		_, err := openai.NewReplayAgent(tc.dir, openai.Config{Model: tc.model})
		var re *openai.ReplayError
		require.ErrorAs(t, err, &re)
	}
}
