package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/toolset/loader"
)

// TestToolBenchSuiteTemplates: the template_response of a query file's
// api_list shapes the answers the solver gets from the sandbox, as
// toolserver -queries does.
func TestToolBenchSuiteTemplates(t *testing.T) {
	const tree = "../../toolset/testdata/toolbench"
	queries := filepath.Join(t.TempDir(), "G1_instruction.json")
	require.NoError(t, os.WriteFile(queries, []byte(`[{
		"query": "Find me fares from LIS to LHR on 2025-07-01.",
		"query_id": 7,
		"api_list": [{"category_name": "Travel", "tool_name": "Fare Finder", "api_name": "search_fares",
		              "template_response": {"fares_found": "int", "cheapest_fare": {"fare_price": "float", "carrier_name": "str"}}}],
		"relevant APIs": [["Fare Finder", "search_fares"]],
		"x-calls": [{"tool_name": "Fare Finder", "api_name": "search_fares", "arguments": {"from": "LIS", "to": "LHR", "date": "2025-07-01"}}]
	}]`), 0o644))
	c, err := loader.Load([]string{tree}, true)
	require.NoError(t, err)
	qs, err := toolbench.LoadQueries(os.DirFS(filepath.Dir(queries)), filepath.Base(queries))
	require.NoError(t, err)
	srv := agenttest.NewPolicyServer(t, tbtest.Solver(c, qs))
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-suite", "toolbench", "-tools", tree, "-queries", queries, "-agent", "openai", "-base-url", srv.URL(),
		"-model", "scripted", "-out", out, "-format", "json", "-quiet"}, &stdout, &stderr, false)
	require.Equal(t, exitOK, code, stderr.String())
	results, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	for _, k := range []string{"fares_found", "cheapest_fare", "carrier_name"} {
		require.Contains(t, string(results), k, "the observation has the template's shape")
	}
}
