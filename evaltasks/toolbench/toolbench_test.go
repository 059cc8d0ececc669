package toolbench_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/evaltasks/toolbench/tbtest"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
)

var stack = sync.OnceValues(func() (*assemble.Stack, error) { return assemble.Build(assemble.Config{}) })

func mustStack(t *testing.T) *assemble.Stack {
	t.Helper()
	st, err := stack()
	require.NoError(t, err)
	return st
}

func shipped(t *testing.T) []toolbench.Query {
	t.Helper()
	qs, err := toolbench.ShippedQueries()
	require.NoError(t, err)
	return qs
}

// Every shipped query resolves against the built-in tools, its annotated
// calls cover its relevant APIs, and each succeeds in the sandbox: the
// set is solvable, so a pass rate below 1 is the agent's.
func TestShippedQueriesAreSolvable(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	require.GreaterOrEqual(t, len(qs), 15)
	groups := map[string]int{}
	for _, q := range qs {
		groups[q.Group]++
		r, err := q.Resolve(st.Catalog)
		require.NoError(t, err, q.Key())
		require.GreaterOrEqual(t, len(r.Offered), len(r.Relevant), q.Key())
		called := map[string]bool{}
		for _, c := range q.Calls {
			a := r.Relevant[0]
			for _, x := range r.Relevant {
				if strings.EqualFold(x.Tool.Name, c.Tool) && x.Name == c.API {
					a = x
				}
			}
			require.True(t, strings.EqualFold(a.Tool.Name, c.Tool) && a.Name == c.API, "%s: call %s/%s is not a relevant API", q.Key(), c.Tool, c.API)
			res, err := st.Engine.CallAPI(context.Background(), a, c.Arguments, "shipped-"+q.Key())
			require.NoError(t, err, q.Key())
			require.Equal(t, http.StatusOK, res.Status, "%s: %s", q.Key(), res.Response)
			called[a.ID()] = true
		}
		require.Len(t, called, len(r.Relevant), "%s: the calls cover every relevant API", q.Key())
	}
	require.Equal(t, map[string]int{"G1_query": 10, "G2_query": 4, "G3_query": 5}, groups)
}

func TestParseQueries(t *testing.T) {
	for _, tc := range []struct {
		name, data, err string
		id              string
	}{
		{"numeric id", `[{"query_id": 88, "query": "q", "api_list": [], "relevant APIs": [["T", "a"]]}]`, "", "88"},
		{"string id", `[{"query_id": "x1", "query": "q", "relevant APIs": [["T", "a"]]}]`, "", "x1"},
		{"not an array", `{"query": "q"}`, "not a JSON array", ""},
		{"no id", `[{"query": "q", "relevant APIs": [["T", "a"]]}]`, "no query_id", ""},
		{"empty query", `[{"query_id": 1, "query": " ", "relevant APIs": [["T", "a"]]}]`, "empty query", ""},
		{"no relevant", `[{"query_id": 1, "query": "q"}]`, "no relevant APIs", ""},
		{"bad pair", `[{"query_id": 1, "query": "q", "relevant APIs": [["T"]]}]`, "[tool_name, api_name]", ""},
		{"duplicate", `[{"query_id": 1, "query": "q", "relevant APIs": [["T", "a"]]}, {"query_id": 1, "query": "r", "relevant APIs": [["T", "a"]]}]`, "used twice", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := toolbench.ParseQueries([]byte(tc.data), "G9_query.json")
			if tc.err != "" {
				var qe *toolbench.QueryError
				require.ErrorAs(t, err, &qe)
				require.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, qs, 1)
			require.Equal(t, tc.id, qs[0].ID)
			require.Equal(t, "G9_query/"+tc.id, qs[0].Key())
		})
	}
}

func FuzzParseQueries(f *testing.F) {
	f.Add(`[{"query_id": 88, "query": "q", "api_list": [{"category_name": "C", "tool_name": "T", "api_name": "a"}], "relevant APIs": [["T", "a"]]}]`)
	f.Add(`[{"query_id": "1", "query": "q", "relevant APIs": [{"tool_name": "T", "api_name": "a"}]}]`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, s string) {
		qs, err := toolbench.ParseQueries([]byte(s), "f.json")
		if err != nil {
			return
		}
		for _, q := range qs {
			require.NotEmpty(t, q.ID)
			require.NotEmpty(t, strings.TrimSpace(q.Text))
			require.NotEmpty(t, q.Relevant)
		}
	})
}

func TestResolveErrors(t *testing.T) {
	st := mustStack(t)
	for _, tc := range []struct{ name, rec, err string }{
		{"unknown tool", `{"query_id": 1, "query": "q", "api_list": [{"tool_name": "Nope", "api_name": "a"}], "relevant APIs": [["Nope", "a"]]}`, `no tool "Nope"`},
		{"unknown api", `{"query_id": 1, "query": "q", "relevant APIs": [["Calculator", "divide"]]}`, `has no API "divide" (it has calculate)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := toolbench.ParseQueries([]byte("["+tc.rec+"]"), "G1_query.json")
			require.NoError(t, err)
			_, err = qs[0].Resolve(st.Catalog)
			var qe *toolbench.QueryError
			require.ErrorAs(t, err, &qe)
			require.Contains(t, err.Error(), tc.err)
		})
	}
}

func client(t *testing.T, url string) *openai.Client {
	t.Helper()
	c, err := openai.NewClient(openai.Config{BaseURL: url, Model: "scripted"})
	require.NoError(t, err)
	return c
}

// The rule-based pass rate: a sensible trajectory passes every shipped
// query with both solvers; agents that give up, echo the query, call
// nothing, or call everything and then state nothing they found sit at
// the floor.
func TestRulePassRateBothDirections(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	for _, tc := range []struct {
		name   string
		policy tbtest.Policy
		want   float64
	}{
		{"sensible", tbtest.Solver(st.Catalog, qs), 1},
		{"gives up", tbtest.GiveUp, 0},
		{"echoes the query", tbtest.Echo(qs), 0},
		{"calls nothing", tbtest.NoCalls, 0},
		{"calls everything, states nothing", tbtest.CallsThenEcho(st.Catalog, qs), 0},
	} {
		for _, solver := range []string{toolbench.SolverReAct, toolbench.SolverDFSDT} {
			t.Run(tc.name+"/"+solver, func(t *testing.T) {
				srv := agenttest.NewPolicyServer(t, tc.policy)
				rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: client(t, srv.URL()), AgentName: "scripted", Solver: solver, Stack: st})
				require.NoError(t, err)
				require.Equal(t, "rules", rep.Scorer)
				require.Equal(t, len(qs), rep.Overall.Planned)
				require.Equal(t, tc.want, rep.Overall.PassRate)
				require.Equal(t, tc.want, rep.Overall.RevisedPassRate)
				require.Zero(t, rep.Overall.Errors)
			})
		}
	}
}

// A run writes results.jsonl with every trajectory and resumes.
func TestRunFilesAndResume(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)[:3]
	dir := t.TempDir()
	srv := agenttest.NewPolicyServer(t, tbtest.Solver(st.Catalog, qs))
	cfg := toolbench.Config{Queries: qs, Agent: client(t, srv.URL()), AgentName: "scripted", Stack: st, OutDir: dir}
	rep, err := toolbench.Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, 1.0, rep.Overall.PassRate)
	f, err := os.ReadFile(filepath.Join(dir, evaltasks.ResultsFile))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(f)), "\n")
	require.Len(t, lines, 3)
	var res toolbench.Result
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &res))
	require.NotNil(t, res.Trajectory)
	require.Equal(t, "dfsdt", res.Trajectory.Solver)
	require.NotEmpty(t, res.Trajectory.Steps)
	require.True(t, res.Verdict.Solved, res.Verdict.Reason)
	md, err := os.ReadFile(filepath.Join(dir, evaltasks.MarkdownFile))
	require.NoError(t, err)
	require.Contains(t, string(md), "Revised pass rate")

	// A second run refuses the folder; -resume has nothing left to ask.
	_, err = toolbench.Run(context.Background(), cfg)
	var rde *evaltasks.RunDirError
	require.ErrorAs(t, err, &rde)
	before := srv.Count()
	cfg.Resume = true
	rep2, err := toolbench.Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, before, srv.Count())
	require.Equal(t, rep.Overall, rep2.Overall)
	// Another solver is another run.
	cfg.Solver = toolbench.SolverReAct
	_, err = toolbench.Run(context.Background(), cfg)
	require.ErrorAs(t, err, &rde)
	require.Contains(t, err.Error(), "solver")
}

// With a judge, solvable and solved are decided by majority and kept with
// their prompts; an unsolvable verdict passes ToolEval's rate (Eq. 1) but
// never the revised one (Eq. 2).
func TestJudgePassRates(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)[:1]
	for _, tc := range []struct {
		name             string
		policy           tbtest.Policy
		solvable, solved []string
		pass, revised    float64
		solvedVotes      int
	}{
		{"solved", tbtest.Solver(st.Catalog, qs), []string{"SOLVABLE", "SOLVABLE", "UNSOLVABLE"}, []string{"SOLVED", "UNSOLVED", "SOLVED"}, 1, 1, 3},
		{"unsolved", tbtest.Solver(st.Catalog, qs), []string{"SOLVABLE", "SOLVABLE", "SOLVABLE"}, []string{"UNSOLVED", "UNSOLVED", "SOLVED"}, 0, 0, 3},
		{"unsolvable, unsolved", tbtest.Solver(st.Catalog, qs), []string{"UNSOLVABLE", "UNSOLVABLE", "SOLVABLE"}, []string{"UNSOLVED", "UNSOLVED", "UNSOLVED"}, 1, 0, 3},
		{"gives up", tbtest.GiveUp, []string{"UNSOLVABLE", "UNSOLVABLE", "UNSOLVABLE"}, nil, 1, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := agenttest.NewPolicyServer(t, tc.policy)
			var script []agenttest.Turn
			for _, v := range append(append([]string(nil), tc.solvable...), tc.solved...) {
				script = append(script, agenttest.Text("Reasoning.\nVERDICT: "+v))
			}
			judgeSrv := agenttest.NewServer(t, script...)
			j := &evaltasks.Judge{Model: client(t, judgeSrv.URL()), Name: "judge:scripted", Votes: 3}
			dir := t.TempDir()
			rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: client(t, model.URL()), Stack: st, Judge: j, OutDir: dir})
			require.NoError(t, err)
			require.Equal(t, "judge:scripted", rep.Scorer)
			require.Equal(t, tc.pass, rep.Overall.PassRate)
			require.Equal(t, tc.revised, rep.Overall.RevisedPassRate)
			f, err := os.ReadFile(filepath.Join(dir, evaltasks.ResultsFile))
			require.NoError(t, err)
			var res toolbench.Result
			require.NoError(t, json.Unmarshal(f, &res))
			require.Len(t, res.Verdict.SolvableJudge.Votes, 3)
			require.Contains(t, res.Verdict.SolvableJudge.Prompt, qs[0].Text)
			if tc.solvedVotes > 0 {
				require.Len(t, res.Verdict.SolvedJudge.Votes, tc.solvedVotes)
				require.Contains(t, res.Verdict.SolvedJudge.Prompt, "Final answer:")
			} else {
				require.Nil(t, res.Verdict.SolvedJudge)
			}
		})
	}
}

// The reference answers are written as a capable model answers, from the
// calls' results; with the oracle following the annotated calls, every
// one passes the rules with both solvers, so natural answers are not held
// to a form.
func TestNaturalAnswersPass(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	for _, q := range qs {
		require.NotEmpty(t, q.Answer, q.Key())
	}
	for _, solver := range []string{toolbench.SolverReAct, toolbench.SolverDFSDT} {
		t.Run(solver, func(t *testing.T) {
			rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: agent.Oracle{}, AgentName: "oracle", Solver: solver, Stack: st})
			require.NoError(t, err)
			require.Equal(t, 1.0, rep.Overall.PassRate)
			require.Equal(t, 1.0, rep.Overall.RevisedPassRate)
		})
	}
}

// Queries solved at once give the report one at a time gives.
func TestConcurrencyKeepsTheReport(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	var reps []*toolbench.Report
	for _, n := range []int{1, 4} {
		srv := agenttest.NewPolicyServer(t, tbtest.Solver(st.Catalog, qs))
		rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: client(t, srv.URL()), AgentName: "scripted", Stack: st, Concurrency: n})
		require.NoError(t, err)
		reps = append(reps, rep)
	}
	a, err := reps[0].JSON()
	require.NoError(t, err)
	b, err := reps[1].JSON()
	require.NoError(t, err)
	require.Equal(t, string(a), string(b))
}

// A cancelled run saves what it has and says how far it got; queries not
// run score as unsolved.
func TestCancelledRun(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	srv := agenttest.NewPolicyServer(t, tbtest.Solver(st.Catalog, qs))
	dir := t.TempDir()
	rep, err := toolbench.Run(ctx, toolbench.Config{Queries: qs, Agent: client(t, srv.URL()), Stack: st, OutDir: dir})
	var ie *evaltasks.InterruptedError
	require.ErrorAs(t, err, &ie)
	require.False(t, rep.Complete)
	require.Zero(t, rep.Overall.PassRate)
	require.Equal(t, len(qs), rep.Overall.Unsolved)
	md, err := os.ReadFile(filepath.Join(dir, evaltasks.MarkdownFile))
	require.NoError(t, err)
	require.Contains(t, string(md), "Incomplete run")
}

// countingAgent counts the model requests of a run.
type countingAgent struct {
	inner agent.Agent
	mu    sync.Mutex
	n     int
}

func (c *countingAgent) Respond(ctx context.Context, m []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.inner.Respond(ctx, m, tools)
}

// A model server nobody listens on stops the run after the first few
// queries, as in the eight-task suite, instead of erroring every query;
// what was recorded is saved and retried on resume. A server that
// answers, even with errors, is reached: the run goes on.
func TestUnreachableServerStopsTheRun(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)
	require.Greater(t, len(qs), 5)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + l.Addr().String() + "/v1"
	require.NoError(t, l.Close())
	c, err := openai.NewClient(openai.Config{BaseURL: url, Model: "m"})
	require.NoError(t, err)
	ca := &countingAgent{inner: c}
	dir := t.TempDir()
	rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: ca, Stack: st, OutDir: dir})
	var ue *evaltasks.UnreachableError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, evaltasks.ErrorUnreachable, ue.Kind)
	require.Equal(t, 3, ue.Failed)
	require.Contains(t, ue.Err, "connection refused")
	require.Equal(t, 3, ca.n, "no query after the evidence")
	require.False(t, rep.Complete)
	f, err := os.ReadFile(filepath.Join(dir, evaltasks.ResultsFile))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(f)), "\n")
	require.Len(t, lines, 3, "what was recorded is saved")
	var res toolbench.Result
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &res))
	require.Equal(t, evaltasks.ErrorUnreachable, res.ErrorKind)

	srv := agenttest.NewPolicyServer(t, func(agenttest.ChatRequest) (agenttest.Turn, error) {
		return agenttest.Fail(500, "overloaded"), nil
	})
	c, err = openai.NewClient(openai.Config{BaseURL: srv.URL(), Model: "m"})
	require.NoError(t, err)
	rep, err = toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: c, Stack: st})
	require.NoError(t, err)
	require.True(t, rep.Complete)
	require.Equal(t, len(qs), rep.Overall.Errors)
}

// The judge fails closed. A judge that refuses (HTTP 500) or whose votes
// hold no verdict leaves every query without a majority: a judge error,
// unsolved, never "not solvable" (which ToolEval's pass rate would count
// as a pass); the report says which judge failed and how. A judge nobody
// listens on stops the run at its first vote.
func TestJudgeFailsClosed(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)[:4]
	solver := tbtest.Solver(st.Catalog, qs)
	judgeAt := func(url string) *evaltasks.Judge {
		j, err := evaltasks.NewOpenAIJudge(evaltasks.AgentOptions{BaseURL: url, Model: "judge-model"}, 3)
		require.NoError(t, err)
		return j
	}
	for _, tc := range []struct {
		name string
		turn agenttest.Turn
		kind string
	}{
		{"refusing", agenttest.Fail(500, "overloaded"), "http_500"},
		{"unparseable", agenttest.Text("Looks solvable to me, and the answer seems fine."), evaltasks.JudgeUnparseable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := agenttest.NewPolicyServer(t, solver)
			judge := agenttest.NewPolicyServer(t, func(agenttest.ChatRequest) (agenttest.Turn, error) { return tc.turn, nil })
			j := judgeAt(judge.URL())
			dir := t.TempDir()
			rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: client(t, model.URL()), Stack: st, Judge: j, OutDir: dir})
			require.NoError(t, err)
			o := rep.Overall
			require.Zero(t, o.PassRate, "no verdict is no pass")
			require.Zero(t, o.RevisedPassRate)
			require.Equal(t, len(qs), o.Errors)
			require.Equal(t, map[string]int{evaltasks.ErrorJudge: len(qs)}, o.ErrorKinds)
			require.NotNil(t, rep.JudgeFailures)
			require.Equal(t, j.Name, rep.JudgeFailures.Judge)
			require.Equal(t, map[string]int{tc.kind: 3 * len(qs)}, rep.JudgeFailures.FailedVotes, "the solvable question failed; the second was not asked")
			require.Equal(t, len(qs), rep.JudgeFailures.NoMajority)
			md, err := os.ReadFile(filepath.Join(dir, evaltasks.MarkdownFile))
			require.NoError(t, err)
			require.Contains(t, string(md), "The judge "+j.Name+" failed 12 of 12 votes ("+tc.kind+" 12); 4 instances had no majority")
			for _, line := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(dir, evaltasks.ResultsFile))), "\n") {
				var res toolbench.Result
				require.NoError(t, json.Unmarshal([]byte(line), &res))
				require.Equal(t, evaltasks.ErrorJudge, res.ErrorKind, res.Key)
				require.True(t, res.Verdict.SolvableJudge.NoMajority, res.Key)
				require.False(t, res.Verdict.Pass, res.Key)
			}
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		url := "http://" + l.Addr().String() + "/v1"
		require.NoError(t, l.Close())
		model := agenttest.NewPolicyServer(t, solver)
		rep, err := toolbench.Run(context.Background(), toolbench.Config{Queries: qs, Agent: client(t, model.URL()), Stack: st, Judge: judgeAt(url), OutDir: t.TempDir()})
		var ju *evaltasks.JudgeUnreachableError
		require.ErrorAs(t, err, &ju)
		require.Contains(t, ju.Err, "connection refused")
		require.False(t, rep.Complete)
		require.Zero(t, rep.Overall.N, "the first query's judging stopped the run")
		require.Equal(t, len(qs[0].Calls)+1, model.Count(), "only the first query was solved")
	})
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// The solvers' system prompt opens with the date line, as the eight
// tasks' conversations do; without one (-no-date) it is ToolLLM's bare
// prompt. A resumed run must repeat it.
func TestSolverPromptCarriesTheDateLine(t *testing.T) {
	st := mustStack(t)
	qs := shipped(t)[:2]
	line := evaltasks.DateLine(st.Clock)
	for _, tc := range []struct {
		name, line string
	}{{"date line", line}, {"no date", ""}} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var systems []string
			srv := agenttest.NewPolicyServer(t, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
				mu.Lock()
				systems = append(systems, req.Messages[0].Content)
				mu.Unlock()
				return tbtest.GiveUp(req)
			})
			dir := t.TempDir()
			cfg := toolbench.Config{Queries: qs, Agent: client(t, srv.URL()), Solver: toolbench.SolverReAct, Stack: st, OutDir: dir, DateLine: tc.line}
			_, err := toolbench.Run(context.Background(), cfg)
			require.NoError(t, err)
			require.Len(t, systems, len(qs))
			for _, s := range systems {
				if tc.line == "" {
					require.True(t, strings.HasPrefix(s, "You are an assistant"), s)
				} else {
					require.True(t, strings.HasPrefix(s, tc.line+"\n\n"), s)
				}
			}
			cfg.Resume, cfg.DateLine = true, line+" (changed)"
			_, err = toolbench.Run(context.Background(), cfg)
			require.Error(t, err, "a resumed run keeps its date line")
		})
	}
}
