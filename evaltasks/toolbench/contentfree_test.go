package toolbench_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/internal/tbgen"
)

// On a generated tree of thousands of tools with its queries, an agent
// that calls the right APIs and answers with no content passes nothing:
// a status message, its own arguments with "success; true; 200", the
// envelope fields around the data (the HTTP code, the status message) or
// the query's own words wrapped in status words. An agent making the same
// calls and quoting what their data holds passes at least 90 %.
func TestContentFreeAnswersFailOnAGeneratedTree(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and runs a tree of 3,000 tools")
	}
	dir := t.TempDir()
	_, err := tbgen.Write(dir, tbgen.Options{Seed: 31, Tools: 3000, Compact: true})
	require.NoError(t, err)
	u, err := loadUniverse(dir)
	require.NoError(t, err)
	require.Greater(t, len(u.stack.Catalog.Tools()), 2000)
	truth := tbtest.TruthCalls(u.stack.Catalog, u.truthCalls())
	for _, tc := range []struct {
		name    string
		call    tbtest.Caller
		answer  tbtest.Answerer
		ceiling bool
	}{
		{"status message", truth, tbtest.StatusOnly, false},
		{"own arguments and status words", tbtest.Inventing(truth), tbtest.QuoteEchoes, false},
		{"envelope fields", truth, tbtest.QuoteEnvelope, false},
		{"the query wrapped in status words", truth, tbtest.WrapQuery, false},
		{"the data quoted", truth, tbtest.QuoteFields, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := agenttest.NewPolicyServer(t, tbtest.Agent(u.queries, tc.call, tc.answer))
			out := t.TempDir()
			rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: u.queries, Agent: client(t, srv.URL()), AgentName: "scripted",
				Solver: toolbench.SolverReAct, Stack: u.stack, OutDir: out})
			require.NoError(t, err)
			o := rep.Overall
			require.Zero(t, o.Errors)
			require.Greater(t, o.Scored, 300, "the queries the tree can serve")
			t.Logf("%s: pass rate %.3f over %d scored queries", tc.name, o.PassRate, o.Scored)
			if tc.ceiling {
				require.GreaterOrEqual(t, o.PassRate, 0.9)
				return
			}
			for _, res := range readResults(t, out) {
				if res.Verdict != nil {
					require.False(t, res.Verdict.Pass, "%s: %q passed: %s", res.Key, res.Answer, res.Verdict.Reason)
				}
			}
			require.Zero(t, o.PassRate)
		})
	}
}
