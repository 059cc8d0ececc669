package toolbench_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
)

// AnyTool with a scripted model on the built-in catalog: the intended
// path passes every query in one round with the relevant APIs pooled; a
// first search that pools the wrong APIs is corrected by reflection; a
// solver that always gives up uses every reflection and passes nothing;
// nonsense passes nothing.
func TestAnyToolScripted(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	for _, tc := range []struct {
		name        string
		policy      tbtest.Policy
		pass        float64
		reflections float64 // mean per query
		recall      float64
	}{
		{"intended path", tbtest.AnyToolPath(st.Catalog, qs, false), 1, 0, 1},
		{"wrong APIs first", tbtest.AnyToolPath(st.Catalog, qs, true), 1, 1, 1},
		{"gives up", tbtest.AnyToolGiveUp(st.Catalog, qs), 0, 4, 1},
		{"nonsense", tbtest.Nonsense, 0, 0, 0},
	} {
		for _, solver := range []string{toolbench.SolverDFSDT, toolbench.SolverReAct} {
			t.Run(tc.name+"/"+solver, func(t *testing.T) {
				srv := agenttest.NewPolicyServer(t, tc.policy)
				rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: client(t, srv.URL()), AgentName: "scripted",
					Solver: toolbench.SolverAnyTool, AnyToolSolver: solver, AgentConcurrency: 1, Stack: st})
				require.NoError(t, err)
				require.Zero(t, rep.Overall.Errors)
				require.Equal(t, tc.pass, rep.Overall.RevisedPassRate)
				a := rep.AnyTool
				require.NotNil(t, a)
				require.Equal(t, len(qs), a.Queries)
				require.InDelta(t, tc.reflections, a.MeanReflections, 1e-9)
				require.InDelta(t, tc.recall, a.PoolRecall, 1e-9)
				require.Len(t, a.PassByRound, int(tc.reflections)+1)
				require.Equal(t, tc.pass, a.PassByRound[len(a.PassByRound)-1])
				if tc.reflections > 0 && tc.pass > 0 {
					require.Zero(t, a.PassByRound[0], "the first round pools the wrong APIs")
				}
				require.Equal(t, srv.Count(), int(a.MeanModelCalls*float64(a.Queries)+0.5), "every model request is counted")
				var out bytes.Buffer
				require.NoError(t, rep.WriteTable(&out))
				require.Contains(t, out.String(), "AnyTool rounds: [0]")
			})
		}
	}
}

// Agents converse in parallel by default; the pool they share ends the
// same, and a model fault mid-search fails the query closed.
func TestAnyToolConcurrentAgents(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	srv := agenttest.NewPolicyServer(t, tbtest.AnyToolPath(st.Catalog, qs, true))
	rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: client(t, srv.URL()), AgentName: "scripted",
		Solver: toolbench.SolverAnyTool, Stack: st, Concurrency: 2})
	require.NoError(t, err)
	require.Equal(t, 1.0, rep.Overall.RevisedPassRate)
	require.InDelta(t, 1, rep.AnyTool.PoolRecall, 1e-9)

	path := tbtest.AnyToolPath(st.Catalog, qs, false)
	broken := agenttest.NewPolicyServer(t, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		if role, _ := tbtest.RoleOf(req); role == tbtest.RoleTool {
			return agenttest.Fail(500, "the model server broke"), nil
		}
		return path(req)
	})
	rep, err = toolbench.Run(context.Background(), toolbench.Config{Queries: qs[:2], Agent: client(t, broken.URL()), AgentName: "scripted",
		Solver: toolbench.SolverAnyTool, Stack: st, Reflections: -1})
	require.NoError(t, err)
	require.Zero(t, rep.Overall.RevisedPassRate)
}
