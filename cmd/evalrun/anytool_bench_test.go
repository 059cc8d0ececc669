package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset/loader"
)

// modelSuite is one evalrun suite of the seeds' model methods on a
// generated tree, with the scripted model that drives it.
type modelSuite struct {
	name string
	srv  *agenttest.Server
	args []string
}

// modelSuitesOn generates a tree and returns the evalrun arguments that
// name it and the two suites: `-suite toolbench -solver anytool`, whose
// scripted model pools a wrong API first so that its solver gives up and
// self-reflection mends the pool, and `-suite retrieval -retrievers
// bm25,self-assist,anytool`, which has no solver to give up, so its model
// pools the right APIs at once. The generated queries carry no x-calls:
// the solver makes the generator's truth calls and quotes what they return.
func modelSuitesOn(tb testing.TB, opts tbgen.Options) ([]string, []modelSuite) {
	tb.Helper()
	dir, m := tbgen.WriteTB(tb, opts)
	tools, queries := filepath.Join(dir, "tools"), filepath.Join(dir, "queries")
	c, err := loader.Load([]string{tools}, true)
	require.NoError(tb, err)
	qs, err := toolbench.LoadQueries(os.DirFS(dir), "queries")
	require.NoError(tb, err)
	rv := toolbench.NewResolver(c)
	var servable []toolbench.Query
	for _, q := range qs {
		if _, err := rv.Resolve(&q); err == nil {
			servable = append(servable, q)
		}
	}
	require.NotEmpty(tb, servable)
	truth := map[string][]tbtest.TruthCall{}
	for _, qt := range m.QueryTruth {
		for _, tc := range qt.Calls {
			k := fmt.Sprintf("%s/%d", qt.Group, qt.ID)
			truth[k] = append(truth[k], tbtest.TruthCall{Category: tc.Category, Tool: tc.Tool, API: tc.API, Arguments: tc.Arguments, From: tc.From})
		}
	}
	solver := tbtest.Agent(servable, tbtest.TruthCalls(c, truth), tbtest.QuoteFields)
	anyTool := agenttest.NewPolicyServer(tb, tbtest.AnyToolPathWith(c, servable, true, solver))
	sa, at := tbtest.SelfAssistPath(c, servable), tbtest.AnyToolPath(c, servable, false)
	models := agenttest.NewPolicyServer(tb, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		if role, _ := tbtest.RoleOf(req); role != tbtest.RoleSolver {
			return at(req)
		}
		return sa(req)
	})
	return []string{"-tools", tools, "-queries", queries, "-agent", "openai", "-model", "scripted", "-quiet"}, []modelSuite{
		{"toolbench-anytool", anyTool, []string{"-suite", "toolbench", "-solver", "anytool", "-allow-errors"}},
		{"retrieval-models", models, []string{"-suite", "retrieval", "-retrievers", "bm25,self-assist,anytool"}},
	}
}

// runModelSuite runs one suite into out and returns what it printed.
func runModelSuite(tb testing.TB, common []string, s modelSuite, out string) string {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	args := append(append(append([]string{}, common...), "-base-url", s.srv.URL(), "-out", out), s.args...)
	code := run(context.Background(), args, &stdout, &stderr, false)
	require.Equal(tb, exitOK, code, "evalrun %v: %s", args, stderr.String())
	return stdout.String()
}

// TestModelMethodsOnAGeneratedTree: on a generated tree of 400 tool
// files (with its defects), AnyTool's search finds the queries' APIs,
// reflection mends a pool that starts wrong, and the solver then passes;
// Self-Assist's selection finds them too.
func TestModelMethodsOnAGeneratedTree(t *testing.T) {
	common, suites := modelSuitesOn(t, tbgen.Options{Tools: 400, Queries: []int{2, 2, 2, 2, 2, 2}})
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			out := t.TempDir()
			t.Logf("\n%s", runModelSuite(t, common, s, out))
			b, err := os.ReadFile(filepath.Join(out, "report.json"))
			require.NoError(t, err)
			switch s.name {
			case "toolbench-anytool":
				var rep struct {
					Overall struct {
						Scored   int     `json:"scored"`
						PassRate float64 `json:"pass_rate"`
					} `json:"overall"`
					AnyTool struct {
						PassByRound     []float64 `json:"pass_by_round"`
						MeanReflections float64   `json:"mean_reflections"`
						PoolRecall      float64   `json:"pool_recall"`
					} `json:"anytool"`
				}
				require.NoError(t, json.Unmarshal(b, &rep))
				require.NotZero(t, rep.Overall.Scored)
				require.GreaterOrEqual(t, rep.Overall.PassRate, 0.8)
				require.Zero(t, rep.AnyTool.PassByRound[0], "the first pool holds the wrong APIs")
				require.GreaterOrEqual(t, rep.AnyTool.MeanReflections, 1.0)
				require.GreaterOrEqual(t, rep.AnyTool.PoolRecall, 0.9)
			default:
				var rep struct {
					Rows []struct {
						Retriever string  `json:"retriever"`
						Group     string  `json:"group"`
						Recall    float64 `json:"recall"`
					} `json:"rows"`
				}
				require.NoError(t, json.Unmarshal(b, &rep))
				recall := map[string]float64{}
				for _, r := range rep.Rows {
					if r.Group == "" {
						recall[r.Retriever] = r.Recall
					}
				}
				require.GreaterOrEqual(t, recall["anytool"], 0.9)
				require.GreaterOrEqual(t, recall["self-assist"], 0.7)
			}
		})
	}
}

// BenchmarkAnyToolUniverse runs the same suites on the generated
// StableToolBench-size tree (12,301 tool files), a query per group: the
// methods' cost at full size, start-up included.
//
//	go test ./cmd/evalrun -run '^$' -bench AnyToolUniverse -benchtime 1x -timeout 30m
func BenchmarkAnyToolUniverse(b *testing.B) {
	common, suites := modelSuitesOn(b, tbgen.Options{Queries: []int{1, 1, 1, 1, 1, 1}})
	for _, s := range suites {
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				b.Logf("\n%s", runModelSuite(b, common, s, b.TempDir()))
			}
		})
	}
}
