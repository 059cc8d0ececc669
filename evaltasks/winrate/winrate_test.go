package winrate_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/evaltasks/winrate"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/golden"
)

var stack = sync.OnceValues(func() (*assemble.Stack, error) { return assemble.Build(assemble.Config{}) })

func client(t *testing.T, url string, maxBytes int64) *openai.Client {
	t.Helper()
	c, err := openai.NewClient(openai.Config{BaseURL: url, Model: "scripted", MaxResponseBytes: maxBytes})
	require.NoError(t, err)
	return c
}

// runs writes one ToolBench run per policy, once for the package's tests;
// the model servers live as long as the first test that asks.
var (
	runsOnce sync.Once
	runsDirs map[string]string
	runsErr  error
)

func writeRuns(t *testing.T) (map[string]string, error) {
	st, err := stack()
	if err != nil {
		return nil, err
	}
	qs, err := toolbench.ShippedQueries()
	if err != nil {
		return nil, err
	}
	root, err := os.MkdirTemp("", "winrate-runs-")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for name, p := range map[string]tbtest.Policy{
		"sensible":  tbtest.Solver(st.Catalog, qs),
		"sensible2": tbtest.Solver(st.Catalog, qs),
		"nonsense":  tbtest.Nonsense,
		"gives-up":  tbtest.GiveUp,
	} {
		srv := agenttest.NewPolicyServer(t, p)
		cl, err := openai.NewClient(openai.Config{BaseURL: srv.URL(), Model: "scripted"})
		if err != nil {
			return nil, err
		}
		dir := filepath.Join(root, name)
		if _, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: cl, AgentName: name, Stack: st, OutDir: dir}); err != nil {
			return nil, err
		}
		out[name] = dir
	}
	return out, nil
}

func mustRuns(t *testing.T) map[string]string {
	t.Helper()
	runsOnce.Do(func() { runsDirs, runsErr = writeRuns(t) })
	require.NoError(t, runsErr)
	return runsDirs
}

func judge(t *testing.T, policy func(agenttest.ChatRequest) (agenttest.Turn, error)) *evaltasks.Judge {
	srv := agenttest.NewPolicyServer(t, policy)
	return &evaltasks.Judge{Model: client(t, srv.URL(), 0), Name: "judge:scripted", Votes: 4}
}

// prefersAnswer prefers the path whose final answer is there and longer; equal ones tie.
func prefersAnswer(req agenttest.ChatRequest) (agenttest.Turn, error) {
	p := req.Messages[1].Content
	i := strings.Index(p, "\nSolution path 2:\n")
	one, two := answerLen(p[:i]), answerLen(p[i:])
	switch {
	case one > two:
		return agenttest.Text("Path 1 says more.\nPREFERENCE: 1"), nil
	case two > one:
		return agenttest.Text("Path 2 says more.\nPREFERENCE: 2"), nil
	}
	return agenttest.Text("They are alike.\nPREFERENCE: TIE"), nil
}

func answerLen(s string) int {
	_, after, ok := strings.Cut(s, "Final answer: ")
	if !ok {
		return 0
	}
	line, _, _ := strings.Cut(after, "\n")
	return len(line)
}

// The win rate in both directions: a sensible run wins every query
// against nonsense and a run that gives up (by the pass rate, no vote);
// nonsense loses every comparison; two alike runs tie everything by the
// judge's votes; a judge partial to the first position ties too, since
// the order alternates.
func TestWinRate(t *testing.T) {
	r := mustRuns(t)
	for _, tc := range []struct {
		name, a, b       string
		policy           func(agenttest.ChatRequest) (agenttest.Turn, error)
		win, tie, lose   int
		rate, byPassRate float64
	}{
		{"sensible vs nonsense", "sensible", "nonsense", prefersAnswer, 19, 0, 0, 1, 19},
		{"nonsense vs sensible", "nonsense", "sensible", prefersAnswer, 0, 0, 19, 0, 19},
		{"sensible vs gives up", "sensible", "gives-up", prefersAnswer, 19, 0, 0, 1, 19},
		{"nonsense vs gives up", "nonsense", "gives-up", prefersAnswer, 19, 0, 0, 1, 0},
		{"alike", "sensible", "sensible2", prefersAnswer, 0, 19, 0, 0.5, 0},
		{"position bias", "sensible", "sensible2", func(agenttest.ChatRequest) (agenttest.Turn, error) {
			return agenttest.Text("PREFERENCE: 1"), nil
		}, 0, 19, 0, 0.5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := winrate.Run(context.Background(), winrate.Config{RunA: r[tc.a], RunB: r[tc.b], Judge: judge(t, tc.policy)})
			require.NoError(t, err)
			o := rep.Overall
			require.Equal(t, []int{tc.win, tc.tie, tc.lose, 0}, []int{o.Win, o.Tie, o.Lose, o.Errors})
			require.InDelta(t, tc.rate, o.WinRate, 1e-9)
			require.Equal(t, int(tc.byPassRate), o.ByPassRate)
			require.Len(t, rep.Groups, 3)
			require.LessOrEqual(t, o.WinRateCI[0], o.WinRate)
			require.GreaterOrEqual(t, o.WinRateCI[1], o.WinRate)
		})
	}
}

// The judge's prompt, golden.
func TestPromptGolden(t *testing.T) {
	r := mustRuns(t)
	var prompt string
	rep, err := winrate.Run(context.Background(), winrate.Config{RunA: r["sensible"], RunB: r["sensible2"], Judge: judge(t, prefersAnswer)})
	require.NoError(t, err)
	prompt = rep.Comparisons[0].Prompt
	golden.Check(t, "testdata/prompt.golden", []byte(winrate.System+"\n\n"+prompt+"\n"))
	md := rep.Markdown()
	golden.Check(t, "testdata/report.md", md)
	page, err := rep.HTML()
	require.NoError(t, err)
	require.Contains(t, string(page), "<td>all</td><td>50.0</td>")
}

// Without a judge the win rate refuses; a judge that fails fails closed:
// unreachable stops the run, HTTP 500, garbage and oversized answers give
// no majority and no rate.
func TestJudgeFailsClosed(t *testing.T) {
	r := mustRuns(t)
	_, err := winrate.Run(context.Background(), winrate.Config{RunA: r["sensible"], RunB: r["sensible2"]})
	require.ErrorIs(t, err, winrate.ErrNoJudge)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	dead := &evaltasks.Judge{Model: client(t, "http://"+addr+"/v1", 0), Name: "judge:dead", Votes: 4}
	_, err = winrate.Run(context.Background(), winrate.Config{RunA: r["sensible"], RunB: r["sensible2"], Judge: dead})
	var ju *evaltasks.JudgeUnreachableError
	require.True(t, errors.As(err, &ju), "%v", err)

	big := strings.Repeat("x", 4096)
	for name, p := range map[string]func(agenttest.ChatRequest) (agenttest.Turn, error){
		"http 500": func(agenttest.ChatRequest) (agenttest.Turn, error) { return agenttest.Fail(500, "down"), nil },
		"garbage":  func(agenttest.ChatRequest) (agenttest.Turn, error) { return agenttest.Text("I like both a lot."), nil },
		"oversized": func(agenttest.ChatRequest) (agenttest.Turn, error) {
			return agenttest.Text(big + "\nPREFERENCE: 1"), nil
		},
		"not JSON": func(agenttest.ChatRequest) (agenttest.Turn, error) { return agenttest.Raw(200, "{nope"), nil },
	} {
		t.Run(name, func(t *testing.T) {
			srv := agenttest.NewPolicyServer(t, p)
			j := &evaltasks.Judge{Model: client(t, srv.URL(), 1024), Name: "judge:broken", Votes: 4}
			rep, err := winrate.Run(context.Background(), winrate.Config{RunA: r["sensible"], RunB: r["sensible2"], Judge: j})
			require.NoError(t, err)
			require.Equal(t, 19, rep.Overall.Errors)
			require.Zero(t, rep.Overall.N)
			require.Zero(t, rep.Overall.WinRate)
		})
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range runsDirs {
		os.RemoveAll(filepath.Dir(d))
		break
	}
	os.Exit(code)
}
