package evaltasks

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/agenttest"
)

// A run scores the same on a stack that earlier runs used: Task 7's
// sessions start from nothing however many runs came before, and however
// the instances interleave.
func TestRerunOnAUsedStackScoresAlike(t *testing.T) {
	st := testStack(t)
	run := func(conc int) []byte {
		srv := agenttest.NewPolicyServer(t, everyToolWithExamples)
		a, err := NewAgent("openai", AgentOptions{BaseURL: srv.URL(), Model: "scripted", MaxRetries: 0, Concurrency: conc})
		require.NoError(t, err)
		rep, err := Run(context.Background(), Config{Agent: a, AgentName: "scripted", Stack: st, Concurrency: conc, Tasks: []int{TaskChain}})
		require.NoError(t, err)
		var res []any
		for _, tr := range rep.Tasks {
			res = append(res, tr.Metrics, tr.Errors)
		}
		b, err := json.Marshal(res)
		require.NoError(t, err)
		return b
	}
	first := run(1)
	require.JSONEq(t, string(first), string(run(1)), "a second run on the same stack")
	require.JSONEq(t, string(first), string(run(4)), "a run with instances interleaved")
}
