package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/toolset/loader"
)

// evalrun compare -win-rate: a Table-4-style row from two toolbench runs
// and a scripted judge; without a judge it refuses.
func TestCompareWinRate(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	qs, err := toolbench.ShippedQueries()
	require.NoError(t, err)
	root := t.TempDir()
	dirs := map[string]string{}
	for name, p := range map[string]tbtest.Policy{"anytool": tbtest.AnyToolPath(c, qs, true), "dfsdt": tbtest.Solver(c, qs), "nonsense": tbtest.Nonsense} {
		srv := agenttest.NewPolicyServer(t, p)
		dirs[name] = filepath.Join(root, name)
		args := []string{"-suite", "toolbench", "-agent", "openai", "-base-url", srv.URL(), "-model", "scripted", "-out", dirs[name], "-quiet"}
		if name == "anytool" {
			args = append(args, "-solver", "anytool", "-agent-concurrency", "1")
		}
		var out, errb bytes.Buffer
		require.Equal(t, exitOK, run(context.Background(), args, &out, &errb, false), errb.String())
	}

	var out, errb bytes.Buffer
	require.Equal(t, exitUsage, run(context.Background(), []string{"compare", "-win-rate", dirs["dfsdt"], dirs["nonsense"]}, &out, &errb, false))
	require.Contains(t, errb.String(), "needs a judge (-judge-url)")

	judge := agenttest.NewPolicyServer(t, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		p := req.Messages[1].Content
		i := strings.Index(p, "\nSolution path 2:\n")
		one, two := strings.Count(p[:i], "\n"), strings.Count(p[i:], "\n")
		switch {
		case one > two:
			return agenttest.Text("PREFERENCE: 1"), nil
		case two > one:
			return agenttest.Text("PREFERENCE: 2"), nil
		}
		return agenttest.Text("PREFERENCE: TIE"), nil
	})
	for _, pair := range [][2]string{{"anytool", "dfsdt"}, {"nonsense", "dfsdt"}} {
		out.Reset()
		errb.Reset()
		page := filepath.Join(root, pair[0]+"-vs-"+pair[1]+".html")
		code := run(context.Background(), []string{"compare", "-win-rate", "-judge-url", judge.URL(), "-judge-model", "scripted", "-out", page, dirs[pair[0]], dirs[pair[1]]}, &out, &errb, false)
		require.Equal(t, exitOK, code, errb.String())
		t.Logf("evalrun compare -win-rate %s %s:\n%s", pair[0], pair[1], out.String())
		html, err := os.ReadFile(page)
		require.NoError(t, err)
		require.Contains(t, string(html), "Win rate")
		if pair[0] == "nonsense" {
			require.Contains(t, out.String(), "all       0.0")
		}
	}
}
