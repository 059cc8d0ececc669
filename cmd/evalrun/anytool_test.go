package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// evalrun -suite toolbench -solver anytool runs end to end against a
// scripted model on the built-in catalog: the intended path passes every
// query in its first round, a first search that pools the wrong APIs is
// mended by one reflection, a solver that always gives up spends every
// reflection.
func TestToolBenchSuiteAnyTool(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	qs, err := toolbench.ShippedQueries()
	require.NoError(t, err)
	for _, tc := range []struct {
		name        string
		policy      tbtest.Policy
		pass        float64
		reflections float64
	}{
		{"intended path", tbtest.AnyToolPath(c, qs, false), 1, 0},
		{"wrong APIs first", tbtest.AnyToolPath(c, qs, true), 1, 1},
		{"gives up", tbtest.AnyToolGiveUp(c, qs), 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.NewPolicyServer(t, tc.policy)
			dir := t.TempDir()
			var out, errb bytes.Buffer
			code := run(context.Background(), []string{"-suite", "toolbench", "-solver", "anytool", "-reflections", "2", "-agent-concurrency", "1",
				"-agent", "openai", "-base-url", srv.URL(), "-model", "scripted", "-out", dir, "-quiet"}, &out, &errb, false)
			require.Equal(t, exitOK, code, errb.String())
			t.Logf("evalrun -suite toolbench -solver anytool (%s):\n%s", tc.name, out.String())
			require.Contains(t, out.String(), "AnyTool rounds: [0] pass")
			raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
			require.NoError(t, err)
			var rep toolbench.Report
			require.NoError(t, json.Unmarshal(raw, &rep))
			require.Equal(t, "anytool", rep.Solver)
			require.Equal(t, tc.pass, rep.Overall.RevisedPassRate)
			require.InDelta(t, tc.reflections, rep.AnyTool.MeanReflections, 1e-9)
			require.InDelta(t, 1, rep.AnyTool.PoolRecall, 1e-9)
		})
	}
}

// The same on a generated tree of a few thousand tools: the agents find
// every relevant API of each query the tree can serve.
func TestToolBenchSuiteAnyToolGeneratedTree(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 2,000-tool tree")
	}
	dir, _ := tbgen.WriteTB(t, tbgen.Options{Seed: 3, Tools: 2000, Queries: []int{2, 2, 2, 2, 2, 2}, Compact: true})
	tools, queries := filepath.Join(dir, "tools"), filepath.Join(dir, "queries")
	c, err := loader.Load([]string{tools}, true)
	require.NoError(t, err)
	qs, err := toolbench.LoadQueries(os.DirFS(dir), "queries")
	require.NoError(t, err)
	var servable []toolbench.Query
	rv := toolbench.NewResolver(c)
	for _, q := range qs {
		if _, err := rv.Resolve(&q); err == nil {
			servable = append(servable, q)
		}
	}
	require.NotEmpty(t, servable)
	srv := agenttest.NewPolicyServer(t, tbtest.AnyToolPath(c, servable, true))
	out := t.TempDir()
	var stdout, errb bytes.Buffer
	code := run(context.Background(), []string{"-suite", "toolbench", "-solver", "anytool", "-tools", tools, "-queries", queries,
		"-agent", "openai", "-base-url", srv.URL(), "-model", "scripted", "-out", out, "-quiet", "-allow-errors"}, &stdout, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	t.Logf("evalrun -suite toolbench -solver anytool -tools <2,000-tool tree>:\n%s", stdout.String())
	raw, err := os.ReadFile(filepath.Join(out, "report.json"))
	require.NoError(t, err)
	var rep toolbench.Report
	require.NoError(t, json.Unmarshal(raw, &rep))
	require.Equal(t, len(servable), rep.AnyTool.Queries)
	require.InDelta(t, 1, rep.AnyTool.PoolRecall, 1e-9)
}

// Self-Assist end to end: -suite retrieval -retrievers self-assist,anytool
// scores the model's selection and the agents' pool, and -suite toolbench
// -retriever self-assist offers the solver what Self-Assist selects; on
// the built-in catalog and on a generated tree.
func TestSelfAssistSuites(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	qs, err := toolbench.ShippedQueries()
	require.NoError(t, err)
	policy := func(c *toolset.Catalog, qs []toolbench.Query) tbtest.Policy {
		sa, at := tbtest.SelfAssistPath(c, qs), tbtest.AnyToolPath(c, qs, false)
		return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
			if role, _ := tbtest.RoleOf(req); role != tbtest.RoleSolver {
				return at(req)
			}
			return sa(req)
		}
	}
	srv := agenttest.NewPolicyServer(t, policy(c, qs))
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-suite", "retrieval", "-retrievers", "bm25,self-assist,anytool", "-agent-concurrency", "1",
		"-agent", "openai", "-base-url", srv.URL(), "-model", "scripted", "-out", t.TempDir(), "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	t.Logf("evalrun -suite retrieval -retrievers bm25,self-assist,anytool:\n%s", out.String())
	require.Contains(t, out.String(), "self-assist  all")

	out.Reset()
	code = run(context.Background(), []string{"-suite", "toolbench", "-retriever", "self-assist",
		"-agent", "openai", "-base-url", srv.URL(), "-model", "scripted", "-out", t.TempDir(), "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	t.Logf("evalrun -suite toolbench -retriever self-assist:\n%s", out.String())
	require.Contains(t, out.String(), "dfsdt on self-assist")
	require.Contains(t, out.String(), "all       1.00")

	if testing.Short() {
		return
	}
	dir, _ := tbgen.WriteTB(t, tbgen.Options{Seed: 3, Tools: 2000, Queries: []int{2, 2, 2, 2, 2, 2}, Compact: true})
	tools, queries := filepath.Join(dir, "tools"), filepath.Join(dir, "queries")
	tc, err := loader.Load([]string{tools}, true)
	require.NoError(t, err)
	tq, err := toolbench.LoadQueries(os.DirFS(dir), "queries")
	require.NoError(t, err)
	rv := toolbench.NewResolver(tc)
	var servable []toolbench.Query
	for _, q := range tq {
		if _, err := rv.Resolve(&q); err == nil {
			servable = append(servable, q)
		}
	}
	tree := agenttest.NewPolicyServer(t, policy(tc, servable))
	out.Reset()
	code = run(context.Background(), []string{"-suite", "retrieval", "-tools", tools, "-queries", queries, "-retrievers", "bm25,self-assist,anytool",
		"-agent", "openai", "-base-url", tree.URL(), "-model", "scripted", "-out", t.TempDir(), "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	t.Logf("evalrun -suite retrieval -tools <2,000-tool tree> -retrievers bm25,self-assist,anytool:\n%s", out.String())
}
