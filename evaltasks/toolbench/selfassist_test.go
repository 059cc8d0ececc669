package toolbench_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/anytool"
	"github.com/understudy/understudy/agent/selfassist"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/toolset/retrieve"
)

func rowOf(t *testing.T, rep *toolbench.RetrievalReport, name string) toolbench.RetrievalRow {
	t.Helper()
	for _, r := range rep.Rows {
		if r.Retriever == name && r.Group == "" {
			return r
		}
	}
	t.Fatalf("no row %s", name)
	return toolbench.RetrievalRow{}
}

// Self-Assist and AnyTool's pool in the retrieval suite: a model on the
// intended path selects the relevant APIs (accuracy and NDCG above
// BM25's, the pool's recall complete); nonsense selects nothing and
// scores nothing.
func TestModelRetrievers(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	for _, tc := range []struct {
		name      string
		policy    tbtest.Policy
		accuracy  float64 // Self-Assist's, at least
		recall    float64 // AnyTool's pool's
		atLeastBM bool
	}{
		{"intended path", func(req agenttest.ChatRequest) (agenttest.Turn, error) {
			if role, _ := tbtest.RoleOf(req); role != tbtest.RoleSolver {
				return tbtest.AnyToolPath(st.Catalog, qs, false)(req)
			}
			return tbtest.SelfAssistPath(st.Catalog, qs)(req)
		}, 0.9, 1, true},
		{"nonsense", tbtest.Nonsense, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.NewPolicyServer(t, tc.policy)
			cl := client(t, srv.URL())
			at := &anytool.AnyTool{Agent: cl, Catalog: st.Catalog, Concurrency: 1}
			rep, err := toolbench.RunRetrieval(toolbench.RetrievalConfig{Queries: qs, Catalog: st.Catalog, Names: []string{retrieve.NameBM25},
				Models: []func(retrieve.Corpus) retrieve.Retriever{
					func(co retrieve.Corpus) retrieve.Retriever { return selfassist.New(cl, co) },
					func(retrieve.Corpus) retrieve.Retriever { return anytool.Retriever{AnyTool: at} },
				}})
			require.NoError(t, err)
			sa, pool, bm := rowOf(t, rep, "self-assist"), rowOf(t, rep, "anytool"), rowOf(t, rep, "bm25")
			// One query's second API is not among the five candidates its
			// description retrieves: Self-Assist's k bounds what it can select.
			require.GreaterOrEqual(t, sa.Accuracy, tc.accuracy)
			require.Equal(t, tc.recall, pool.Recall)
			if !tc.atLeastBM {
				require.Zero(t, sa.Accuracy)
				require.Zero(t, sa.NDCG[1])
			}
			if tc.atLeastBM {
				require.GreaterOrEqual(t, sa.NDCG[1], bm.NDCG[1])
				require.Equal(t, 1.0, sa.NDCG[0])
			}
			var out bytes.Buffer
			require.NoError(t, rep.WriteTable(&out))
			require.Contains(t, out.String(), "accuracy")
			t.Logf("\n%s", out.String())
		})
	}
}

// Self-Assist as the solvers' API source: the intended path passes every
// query with only the selected APIs offered; a model fault in a stage is
// the query's error, never a pass.
func TestSelfAssistFeedsTheSolver(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	srv := agenttest.NewPolicyServer(t, tbtest.SelfAssistPath(st.Catalog, qs))
	cl := client(t, srv.URL())
	rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: cl, AgentName: "scripted", Stack: st,
		Retriever: selfassist.New(cl, retrieve.CatalogCorpus(st.Catalog))})
	require.NoError(t, err)
	require.Equal(t, "self-assist", rep.Retriever)
	require.Equal(t, 1.0, rep.Overall.RevisedPassRate)

	broken := agenttest.NewPolicyServer(t, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		if selfassist.Stage(req.Messages[0].Content) == selfassist.StageSelection {
			return agenttest.Raw(200, "{not json"), nil
		}
		return tbtest.SelfAssistPath(st.Catalog, qs)(req)
	})
	bc := client(t, broken.URL())
	rep, err = toolbench.Run(context.Background(), toolbench.Config{Queries: qs[:3], Agent: bc, AgentName: "scripted", Stack: st,
		Retriever: selfassist.New(bc, retrieve.CatalogCorpus(st.Catalog))})
	require.NoError(t, err)
	require.Zero(t, rep.Overall.RevisedPassRate)
	require.Equal(t, 3, rep.Overall.Errors)
}
