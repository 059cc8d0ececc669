package evaltasks

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/toolset"
)

// scriptedJudge answers every judging prompt with the next verdict text, in turn.
type scriptedJudge struct {
	mu      sync.Mutex
	answers []string
	n       int
	prompts []string
}

func (s *scriptedJudge) Respond(_ context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(tools) != 0 || len(msgs) != 2 || msgs[0].Content != JudgeSystem {
		panic("the judge gets a system and a user message and no tools")
	}
	a := s.answers[s.n%len(s.answers)]
	s.n++
	s.prompts = append(s.prompts, msgs[1].Content)
	return agent.Reply{Content: a}, nil
}

func TestJudgeOverridesRulesByMajority(t *testing.T) {
	// Votes cycle fail, pass, fail: every instance fails 2 to 1.
	model := &scriptedJudge{answers: []string{"Wrong.\nVERDICT: FAIL", "VERDICT: PASS", "Hmm, FAIL"}}
	j := &Judge{Model: model, Name: "judge:test", Votes: 2}
	rep := runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.Judge = j })
	for _, tr := range rep.Tasks {
		switch tr.ID {
		case TaskClarify, TaskIntrinsic, TaskToolReturn, TaskPlan:
			require.Equal(t, "judge:test", tr.Scorer)
			for name, v := range tr.Metrics {
				require.Equal(t, 0.0, v, "task %d %s", tr.ID, name)
			}
		default:
			require.Equal(t, "rules", tr.Scorer)
			for _, v := range tr.Metrics {
				require.Equal(t, 1.0, v)
			}
		}
	}
	judged := 2 + 2 + 3 + 1 // T3, T5, T6, T8 instances of the mini dataset
	require.Equal(t, judged*MinJudgeVotes, model.n, "an even vote count is raised to an odd one, at least 3")
	require.Contains(t, model.prompts[0], "Criterion:")
}

func TestParseVote(t *testing.T) {
	for text, want := range map[string]string{
		"VERDICT: PASS":                   "pass",
		"verdict = fail":                  "fail",
		"**Verdict:** PASS":               "pass",
		"VERDICT: FAIL ... VERDICT: PASS": "pass",
		"PASS":                            "pass",
		"It could PASS or FAIL":           "invalid",
		"":                                "invalid",
	} {
		require.Equal(t, want, parseVote(text), text)
	}
}

// TestJudgeCannotPassCopiedData: a judge that passes everything still
// cannot pass a Task-6 reply that pastes the tool's JSON; it is not asked.
func TestJudgeCannotPassCopiedData(t *testing.T) {
	model := &scriptedJudge{answers: []string{"VERDICT: PASS"}}
	j := &Judge{Model: model, Name: "judge:test", Votes: 3}
	paste := funcAgent(func(_ context.Context, msgs []agent.Message, _ []toolset.OpenAITool) (agent.Reply, error) {
		return agent.Reply{Content: msgs[len(msgs)-1].Content}, nil
	})
	rep := runMini(t, paste, "paste", func(c *Config) { c.Judge = j; c.Tasks = []int{TaskToolReturn} })
	require.Len(t, rep.Tasks, 1)
	require.Equal(t, 0.0, rep.Tasks[0].Metrics["passing_rate"])
	require.Equal(t, rep.Tasks[0].Planned, rep.Tasks[0].Outcomes[OutcomeCopied], "every pasted reply is copied data")
	require.Zero(t, model.n, "the judge is not asked about copied data")
}

// loopbackJudge is a judge on a real OpenAI-compatible server on
// loopback answering every vote by policy, its client retrying nothing.
func loopbackJudge(t *testing.T, policy func(agenttest.ChatRequest) (agenttest.Turn, error)) (*Judge, *agenttest.Server) {
	t.Helper()
	srv := agenttest.NewPolicyServer(t, policy)
	return judgeAt(t, srv.URL()), srv
}

func judgeAt(t *testing.T, url string) *Judge {
	t.Helper()
	j, err := NewOpenAIJudge(AgentOptions{BaseURL: url, Model: "judge-model", Timeout: 5 * time.Second}, 3)
	require.NoError(t, err)
	return j
}

// The judge fails closed. A vote its server refuses (HTTP 500) or that
// holds no verdict is no verdict: the instance has no majority, ends in a
// judge error (a failure, never a pass or a fail), and the report says
// which judge failed, how often and how, in report.json, report.md and
// the table. A judge that gives a majority despite one failed vote
// decides, and its failure is still counted.
func TestJudgeFailsClosed(t *testing.T) {
	judged := 2 + 2 + 3 + 1 // T3, T5, T6, T8 instances of the mini dataset
	for _, tc := range []struct {
		name       string
		answers    []agenttest.Turn
		noMajority bool
		kinds      map[string]int
	}{
		{"refusing", []agenttest.Turn{agenttest.Fail(500, "overloaded")}, true, map[string]int{"http_500": 3 * judged}},
		{"unparseable", []agenttest.Turn{agenttest.Text("The reply is fine, I suppose.")}, true, map[string]int{JudgeUnparseable: 3 * judged}},
		{"one vote refused", []agenttest.Turn{agenttest.Text("VERDICT: PASS"), agenttest.Fail(500, "overloaded"), agenttest.Text("VERDICT: PASS")}, false, map[string]int{"http_500": judged}},
		{"split by an unreadable vote", []agenttest.Turn{agenttest.Text("VERDICT: PASS"), agenttest.Text("VERDICT: FAIL"), agenttest.Text("maybe")}, true, map[string]int{JudgeUnparseable: judged}},
		{"oversized", []agenttest.Turn{agenttest.Text(strings.Repeat("I am thinking. ", 1<<16))}, true, map[string]int{JudgeOversized: 3 * judged}},
		{"oversized, a verdict at its end", []agenttest.Turn{agenttest.Text(strings.Repeat("x", MaxJudgeReply) + "\nVERDICT: PASS")}, true, map[string]int{JudgeOversized: 3 * judged}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			n := 0
			j, _ := loopbackJudge(t, func(agenttest.ChatRequest) (agenttest.Turn, error) {
				mu.Lock()
				defer mu.Unlock()
				a := tc.answers[n%len(tc.answers)]
				n++
				return a, nil
			})
			j.StopAfter = -1 // as -allow-errors: every instance is scored
			dir := t.TempDir()
			rep := runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.Judge = j; c.OutDir = dir })
			noMajority := 0
			for _, tr := range rep.Tasks {
				if !j.judges(tr.ID) {
					require.Nil(t, tr.JudgeFailures)
					require.Zero(t, tr.Errors)
					continue
				}
				require.NotNil(t, tr.JudgeFailures, "task %d", tr.ID)
				require.Equal(t, j.Name, tr.JudgeFailures.Judge)
				require.Equal(t, 3*tr.Planned, tr.JudgeFailures.Votes)
				noMajority += tr.JudgeFailures.NoMajority
				if tc.noMajority {
					require.Equal(t, tr.Planned, tr.Errors, "task %d: every instance is a judge error", tr.ID)
					require.Equal(t, map[string]int{ErrorJudge: tr.Planned}, tr.ErrorKinds)
					require.Equal(t, tr.Planned, tr.JudgeFailures.NoMajority)
					for name, v := range tr.Metrics {
						require.Zero(t, v, "task %d %s: no verdict is no pass", tr.ID, name)
					}
				} else {
					require.Zero(t, tr.Errors, "task %d", tr.ID)
					require.Zero(t, tr.JudgeFailures.NoMajority)
				}
			}
			kinds := map[string]int{}
			for _, tr := range rep.Tasks {
				if tr.JudgeFailures != nil {
					for k, v := range tr.JudgeFailures.FailedVotes {
						kinds[k] += v
					}
				}
			}
			require.Equal(t, tc.kinds, kinds)
			if tc.noMajority {
				require.Equal(t, judged, noMajority)
				require.Equal(t, judged, rep.JudgeErrors())
				agentErrs, dataErrs := rep.ErrorCounts()
				require.Zero(t, agentErrs+dataErrs, "a judge error is neither the agent's nor the dataset's")
			}
			md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
			require.NoError(t, err)
			require.Contains(t, string(md), "Judge failures: the judge "+j.Name+" failed")
			var table strings.Builder
			require.NoError(t, rep.WriteTable(&table))
			require.Contains(t, table.String(), "the judge "+j.Name+" failed")
			res := readResultsFile(t, dir)
			for _, r := range res {
				if r.Judge != nil {
					require.Len(t, r.Judge.Votes, 3, r.Key)
					for _, raw := range r.Judge.Raw {
						require.LessOrEqual(t, len(raw), MaxJudgeReply+len("…"), "%s: an oversized reply is kept cut", r.Key)
					}
					require.NotEmpty(t, r.Judge.Failed, r.Key)
					require.Equal(t, tc.noMajority, r.Judge.NoMajority, r.Key)
				}
			}
		})
	}
}

// A judge that answers but gives no verdict (HTTP 500, garbage, an
// oversized reply) on more than DefaultJudgeStopAfter instances in a row
// stops the run with its last failure, as one never reached does; one
// verdict in between starts the count again.
func TestJudgeFailingStopsTheRun(t *testing.T) {
	for _, tc := range []struct {
		name, last string
		answer     agenttest.Turn
	}{
		{"refusing", "http_500", agenttest.Fail(500, "overloaded")},
		{"unparseable", JudgeUnparseable + `: "The reply is fine, I suppose."`, agenttest.Text("The reply is fine, I suppose.")},
		{"oversized", JudgeOversized + ": a reply of 1048576 bytes", agenttest.Text(strings.Repeat("x", 1<<20))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, _ := loopbackJudge(t, func(agenttest.ChatRequest) (agenttest.Turn, error) { return tc.answer, nil })
			dir := t.TempDir()
			cfg := Config{Agent: agent.Oracle{}, AgentName: "oracle", Instructions: miniData(t), Stack: testStack(t), Judge: j, OutDir: dir, Concurrency: 1}
			rep, err := Run(context.Background(), cfg)
			var jf *JudgeFailingError
			require.ErrorAs(t, err, &jf)
			require.Equal(t, j.Name, jf.Judge)
			require.Equal(t, DefaultJudgeStopAfter+1, jf.InARow)
			require.Contains(t, jf.Last, tc.last)
			require.Contains(t, err.Error(), "-allow-errors")
			require.NotNil(t, rep)
			require.False(t, rep.Complete)
			judgeErrs := 0
			for _, r := range readResultsFile(t, dir) {
				if r.ErrorKind == ErrorJudge {
					judgeErrs++
				}
			}
			require.Equal(t, DefaultJudgeStopAfter, judgeErrs, "the failures before the stop are recorded as judge errors")
		})
	}

	// Failing votes broken by a verdict never stop the run.
	var mu sync.Mutex
	n := 0
	j, _ := loopbackJudge(t, func(agenttest.ChatRequest) (agenttest.Turn, error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		if (n-1)/3%4 == 3 { // every fourth instance gets a verdict
			return agenttest.Text("VERDICT: PASS"), nil
		}
		return agenttest.Fail(500, "overloaded"), nil
	})
	j.StopAfter = 3
	rep := runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.Judge = j; c.Concurrency = 1 })
	require.True(t, rep.Complete)
	require.Positive(t, rep.JudgeErrors())
}

// A judge nobody listens on stops the run at its first vote, as a model
// server that is not there does, instead of failing every judged
// instance: one connection attempt, what was done is saved.
func TestJudgeUnreachableStopsTheRun(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, closed.Close())
	// A server that takes every connection and drops it unanswered.
	dropping, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { dropping.Close() })
	var mu sync.Mutex
	accepted := 0
	go func() {
		for {
			c, err := dropping.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			accepted++
			mu.Unlock()
			c.Close()
		}
	}()
	for _, tc := range []struct{ name, addr, err string }{
		{"closed port", closed.Addr().String(), "connection refused"},
		{"dropped connections", dropping.Addr().String(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := judgeAt(t, "http://"+tc.addr+"/v1")
			dir := t.TempDir()
			cfg := Config{Agent: agent.Oracle{}, AgentName: "oracle", Instructions: miniData(t), Stack: testStack(t), Judge: j, OutDir: dir}
			rep, err := Run(context.Background(), cfg)
			var ju *JudgeUnreachableError
			require.ErrorAs(t, err, &ju)
			require.Equal(t, ErrorUnreachable, ju.Kind)
			require.Equal(t, j.Name, ju.Judge)
			require.Contains(t, ju.Err, tc.err)
			require.NotNil(t, rep)
			require.False(t, rep.Complete)
			for _, r := range readResultsFile(t, dir) {
				require.Nil(t, r.Judge, "%s: no judged instance is recorded", r.Key)
				require.NotEqual(t, ErrorJudge, r.ErrorKind)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, 1, accepted, "the run stops at the judge's first vote")
}

func readResultsFile(t *testing.T, dir string) map[string]*Result {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, ResultsFile))
	require.NoError(t, err)
	defer f.Close()
	res, err := ReadResults(f, ResultsFile)
	require.NoError(t, err)
	return res
}
