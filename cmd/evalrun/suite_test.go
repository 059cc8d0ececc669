package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
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

// evalrun -suite toolbench -solver dfsdt runs the shipped queries end to
// end against a scripted model server, and the report carries both pass
// rates; a model that gives up sits at the floor.
func TestToolBenchSuiteDFSDT(t *testing.T) {
	c, err := loader.Builtin()
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
		{[]string{"-suite", "retrieval", "-validation", "loose"}, `-validation: unknown validation mode "loose"`},
		{[]string{"-suite", "retrieval", "-no-builtin"}, "-no-builtin: name the tools to load with -tools"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append(tc.args, "-out", t.TempDir(), "-quiet"), &out, &errb, false)
		require.Equal(t, exitUsage, code)
		require.Contains(t, errb.String(), tc.err)
	}
}

// -tools adds a ToolBench tool tree to the built-in tools, and -queries
// runs a user's query file over it.
func TestSuitesOverImportedTools(t *testing.T) {
	const tree = "../../toolset/testdata/toolbench"
	queries := filepath.Join(t.TempDir(), "G1_instruction.json")
	require.NoError(t, os.WriteFile(queries, []byte(`[{
		"query": "Find me fares from LIS to LHR on 2025-07-01.",
		"query_id": 7,
		"api_list": [{"category_name": "Travel", "tool_name": "Fare Finder", "api_name": "search_fares"},
		             {"category_name": "Travel", "tool_name": "Fare Finder", "api_name": "fare_rules"}],
		"relevant APIs": [["Fare Finder", "search_fares"]],
		"x-calls": [{"tool_name": "Fare Finder", "api_name": "search_fares", "arguments": {"from": "LIS", "to": "LHR", "date": "2025-07-01"}}]
	}]`), 0o644))

	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-suite", "retrieval", "-tools", tree, "-queries", queries, "-out", t.TempDir(), "-format", "json", "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	var rr toolbench.RetrievalReport
	require.NoError(t, json.Unmarshal(out.Bytes(), &rr))
	require.Equal(t, 1, rr.Rows[0].N)
	// -no-builtin ranks the -tools files alone: the same query, a smaller catalog.
	out.Reset()
	code = run(context.Background(), []string{"-suite", "retrieval", "-no-builtin", "-tools", tree, "-queries", queries, "-out", t.TempDir(), "-format", "json", "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	var alone toolbench.RetrievalReport
	require.NoError(t, json.Unmarshal(out.Bytes(), &alone))
	require.Equal(t, 1, alone.Rows[0].N)

	c, err := loader.Load([]string{tree}, true)
	require.NoError(t, err)
	qs, err := toolbench.LoadQueries(os.DirFS(filepath.Dir(queries)), filepath.Base(queries))
	require.NoError(t, err)
	srv := agenttest.NewPolicyServer(t, tbtest.Solver(c, qs))
	out.Reset()
	code = run(context.Background(), []string{"-suite", "toolbench", "-tools", tree, "-queries", queries, "-agent", "openai", "-base-url", srv.URL(),
		"-model", "scripted", "-out", t.TempDir(), "-format", "json", "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	var rep toolbench.Report
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	require.Equal(t, 1, rep.Overall.Planned)
	require.Zero(t, rep.Overall.Errors)
	require.Equal(t, 1.0, rep.Overall.PassRate)
}

// A model server that fails makes errored queries: they score as
// unsolved, and the run exits 1 unless -allow-errors.
func TestToolBenchSuiteErrors(t *testing.T) {
	srv := agenttest.NewPolicyServer(t, func(agenttest.ChatRequest) (agenttest.Turn, error) {
		return agenttest.Fail(400, "This model's maximum context length is 4096 tokens."), nil
	})
	qs, err := toolbench.ShippedQueries()
	require.NoError(t, err)
	queries := filepath.Join(t.TempDir(), "G1_query.json")
	b, err := json.Marshal(qs[:2])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(queries, b, 0o644))
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, exitFailed},
		{[]string{"-allow-errors"}, exitOK},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"-suite", "toolbench", "-queries", queries, "-agent", "openai", "-base-url", srv.URL(), "-model", "m", "-retries", "0",
			"-out", t.TempDir(), "-format", "json"}, tc.args...)
		require.Equal(t, tc.code, run(context.Background(), args, &out, &errb, false), errb.String())
		require.Contains(t, errb.String(), "2 queries ended in an error")
		var rep toolbench.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		require.Equal(t, 2, rep.Overall.Errors)
		require.Zero(t, rep.Overall.PassRate)
	}
}

// A model server nobody listens on stops -suite toolbench at once, with
// the same error and advice as the eight tasks, and no table.
func TestToolBenchSuiteUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refused := "http://" + l.Addr().String() + "/v1"
	require.NoError(t, l.Close())
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-suite", "toolbench", "-agent", "openai", "-base-url", refused, "-model", "m", "-retries", "0",
		"-out", t.TempDir(), "-quiet"}, &out, &errb, false)
	require.Equal(t, exitFailed, code)
	require.Empty(t, out.String(), "no table of failures")
	require.Contains(t, errb.String(), "never reached its model server")
	require.Contains(t, errb.String(), `"unreachable" errors`)
	require.Contains(t, errb.String(), "is the model server running and answering at "+refused)
	require.NotContains(t, errb.String(), "queries ended in an error")
}

// -suite retrieval over a generated tree: the printed table says what was
// ranked (a -pool of APIs) and which queries were scored and skipped;
// -sample keeps a stratified part of the queries. -pool is for
// retrieval only.
func TestRetrievalSuitePoolAndSample(t *testing.T) {
	dir := tbgen.SliceDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-suite", "retrieval", "-tools", filepath.Join(dir, "tools"), "-queries", filepath.Join(dir, "queries"),
		"-pool", "400", "-seed", "2", "-sample", "30", "-retrievers", "bm25", "-out", t.TempDir(), "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	require.Contains(t, out.String(), "Ranked a pool of 400 APIs (-pool 400")
	require.Contains(t, out.String(), "A sample of 30 queries (-sample 30 -seed 2)")
	require.Regexp(t, `Scored \d+ of 30 queries; skipped \d+ whose relevant APIs are not all in the catalog \(API absent \d+, tool absent \d+\)`, out.String())

	out.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"-suite", "toolbench", "-pool", "400", "-out", t.TempDir(), "-quiet"}, &out, &errb, false)
	require.Equal(t, exitUsage, code)
	require.Contains(t, errb.String(), "-pool 400: a positive pool size, for -suite retrieval")
}

// A judge that is not there stops either suite at its first vote, with
// advice and no table; a judge that refuses every vote makes judge
// errors, which fail the run unless -allow-errors, and never a pass.
func TestJudgeFailsClosedInBothSuites(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	dead := "http://" + l.Addr().String() + "/v1"
	require.NoError(t, l.Close())
	c, err := loader.Builtin()
	require.NoError(t, err)
	qs, err := toolbench.ShippedQueries()
	require.NoError(t, err)
	model := agenttest.NewPolicyServer(t, tbtest.Solver(c, qs))
	modelArgs := []string{"-agent", "openai", "-base-url", model.URL(), "-model", "scripted", "-retries", "0"}
	for _, args := range [][]string{
		append([]string{"-suite", "toolbench", "-solver", "react"}, modelArgs...),
		{"-tasks", "6", "-sample", "3"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append(args, "-judge-url", dead, "-judge-model", "j", "-out", t.TempDir(), "-quiet"), &out, &errb, false)
		require.Equal(t, exitFailed, code, errb.String())
		require.Empty(t, out.String(), "no table without the judge")
		require.Contains(t, errb.String(), "the judge judge:j (3 votes, majority) was never reached (unreachable")
		require.Contains(t, errb.String(), "is the judge's server running and answering at "+dead)
	}

	refusing := agenttest.NewPolicyServer(t, func(agenttest.ChatRequest) (agenttest.Turn, error) { return agenttest.Fail(500, "overloaded"), nil })
	queries := filepath.Join(t.TempDir(), "G1_query.json")
	b, err := json.Marshal(qs[:2])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(queries, b, 0o644))
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, exitFailed},
		{[]string{"-allow-errors"}, exitOK},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"-suite", "toolbench", "-solver", "react", "-queries", queries}, modelArgs...),
			"-judge-url", refusing.URL(), "-judge-model", "j", "-out", t.TempDir(), "-format", "json")
		code := run(context.Background(), append(args, tc.args...), &out, &errb, false)
		require.Equal(t, tc.code, code, errb.String())
		require.Contains(t, errb.String(), "2 queries got no majority from the judge")
		var rep toolbench.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		require.Zero(t, rep.Overall.PassRate)
		require.Equal(t, 2, rep.JudgeFailures.NoMajority)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-tasks", "6", "-sample", "3", "-judge-url", refusing.URL(), "-judge-model", "j", "-retries", "0",
		"-out", t.TempDir(), "-quiet"}, &out, &errb, false)
	require.Equal(t, exitFailed, code, errb.String())
	require.Contains(t, errb.String(), "3 instances got no majority from the judge")
	require.Contains(t, out.String(), "Task 6: the judge judge:j (3 votes, majority) failed 9 of 9 votes (http_500 9); 3 instances had no majority and are errors.")
}

// The figure of docs/toolbench.md for the built-in baseline on the shipped queries is
// a real run's, with either solver.
func TestReadmeToolBenchBaselineFigure(t *testing.T) {
	page, err := os.ReadFile("../../docs/toolbench.md")
	require.NoError(t, err)
	for _, solver := range []string{"dfsdt", "react"} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"-suite", "toolbench", "-solver", solver, "-out", t.TempDir(), "-format", "json", "-quiet"}, &out, &errb, false)
		require.Equal(t, exitOK, code, errb.String())
		var rep toolbench.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		o := rep.Overall
		require.Contains(t, string(page), fmt.Sprintf("The built-in baseline agent passes %d of %d (%.2f) with either solver.", o.Solved, o.Scored, o.PassRate), solver)
	}
}
