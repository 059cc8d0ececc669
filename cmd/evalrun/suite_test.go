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
	"github.com/understudy/understudy/toolset"
)

// evalrun -suite toolbench -solver dfsdt runs the shipped queries end to
// end against a scripted model server, and the report carries both pass
// rates; a model that gives up sits at the floor.
func TestToolBenchSuiteDFSDT(t *testing.T) {
	c, err := toolset.Builtin()
	require.NoError(t, err)
	qs, err := toolbench.ShippedQueries()
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		policy tbtest.Policy
		want   float64
	}{
		{"sensible", tbtest.Solver(c, qs), 1},
		{"gives up", tbtest.GiveUp, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.NewPolicyServer(t, tc.policy)
			dir := t.TempDir()
			var out, errb bytes.Buffer
			code := run(context.Background(), []string{"-suite", "toolbench", "-solver", "dfsdt", "-agent", "openai", "-base-url", srv.URL(),
				"-model", "scripted", "-budget", "6", "-out", dir, "-format", "json", "-quiet"}, &out, &errb, false)
			require.Equal(t, exitOK, code, errb.String())
			var rep toolbench.Report
			require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
			require.Equal(t, "dfsdt", rep.Solver)
			require.Equal(t, len(qs), rep.Overall.Planned)
			require.Equal(t, tc.want, rep.Overall.PassRate)
			require.Equal(t, tc.want, rep.Overall.RevisedPassRate)
			require.Len(t, rep.Groups, 3)
			for _, f := range []string{"results.jsonl", "report.json", "report.md", "run.json"} {
				_, err := os.Stat(filepath.Join(dir, f))
				require.NoError(t, err, f)
			}
			manifest, err := os.ReadFile(filepath.Join(dir, "run.json"))
			require.NoError(t, err)
			require.Contains(t, string(manifest), `"calls": 6`)
		})
	}
}

func TestRetrievalSuite(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-suite", "retrieval", "-out", dir, "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	require.Contains(t, out.String(), "NDCG@1")
	require.Contains(t, out.String(), "NDCG@5")
	for _, r := range []string{"bm25", "hierarchical", "deliberate"} {
		require.Contains(t, out.String(), r)
	}
	code = run(context.Background(), []string{"-suite", "retrieval", "-retrievers", "bm25,nope", "-out", t.TempDir(), "-quiet"}, &out, &errb, false)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errb.String(), `unknown retriever "nope"`)
}

func TestSuiteUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"-suite", "bfcl"}, `-suite "bfcl"`},
		{[]string{"-suite", "toolbench", "-queries", "no/such/file.json"}, "-queries"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append(tc.args, "-out", t.TempDir(), "-quiet"), &out, &errb, false)
		require.Equal(t, exitUsage, code)
		require.Contains(t, errb.String(), tc.err)
	}
}
