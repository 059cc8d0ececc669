package evaltasks

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
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
	"github.com/understudy/understudy/agent/baseline"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/toolset"
)

var (
	embeddedOnce sync.Once
	embedded     []dataset.Instruction
	embeddedErr  error
)

// embeddedData is the shipped dataset, read once for the package's tests.
func embeddedData(t testing.TB) []dataset.Instruction {
	t.Helper()
	embeddedOnce.Do(func() { embedded, embeddedErr = loadData(Config{}) })
	require.NoError(t, embeddedErr)
	return embedded
}

func TestOracleScoresOne(t *testing.T) {
	dir := t.TempDir()
	rep := runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.OutDir = dir })
	require.True(t, rep.Complete)
	require.Len(t, rep.Tasks, 8)
	for _, tr := range rep.Tasks {
		require.Zero(t, tr.Errors, "task %d: %+v", tr.ID, tr.Outcomes)
		require.Positive(t, tr.N, "task %d", tr.ID)
		for name, v := range tr.Metrics {
			require.Equal(t, 1.0, v, "task %d %s: outcomes %v", tr.ID, name, tr.Outcomes)
		}
	}
}

func TestSilentAgentNeverCalls(t *testing.T) {
	rep := runMini(t, silentAgent, "silent", nil)
	require.Equal(t, 0.0, metric(t, rep, TaskDecide, "recall"))
	require.Equal(t, 0.0, metric(t, rep, TaskDecide, "precision"), "no call made: precision 0, not undefined")
	require.Equal(t, 0.0, metric(t, rep, TaskDecide, "f1"))
	require.InDelta(t, 2.0/7, metric(t, rep, TaskDecide, "macro_f1"), 1e-12, "negative class: P 2/5, R 1, F1 4/7; positive class: 0")
	require.Equal(t, 0.0, metric(t, rep, TaskFill, "precision"))
	require.Equal(t, 0.0, metric(t, rep, TaskSelect, "accuracy"))
	require.Equal(t, 0.0, metric(t, rep, TaskClarify, "percentage"), "a reply that asks nothing is no clarification")
	require.Equal(t, 0.0, metric(t, rep, TaskChain, "progress"))
}

func TestEagerAgentPrecisionIsPositiveShare(t *testing.T) {
	rep := runMini(t, eagerAgent, "eager", nil)
	positives, total := 0, 0
	for _, in := range miniData(t) {
		switch in.Type {
		case dataset.TypeSufficient:
			positives++
			total++
		case dataset.TypeNoTool:
			total++
		}
	}
	require.InDelta(t, float64(positives)/float64(total), metric(t, rep, TaskDecide, "precision"), 1e-12)
	require.Equal(t, 1.0, metric(t, rep, TaskDecide, "recall"))
	require.Equal(t, 0.0, metric(t, rep, TaskClarify, "percentage"))
	require.Equal(t, 0.0, metric(t, rep, TaskFill, "precision"), "calls without arguments are never correct")
	for _, tr := range rep.Tasks {
		if tr.ID == TaskClarify {
			// exchange without from and to, forward_geocode without address.
			require.Equal(t, map[string]int{callcheck.MistakeMissingParam: 3}, tr.Mistakes)
		}
	}
}

func TestReportIsByteIdentical(t *testing.T) {
	st := testStack(t)
	base := baseline.New(st.Catalog, st.Graph)
	// The baseline, failing on some conversations: outcomes of every kind,
	// errors included, decided by the conversation and never by timing.
	flaky := funcAgent(func(ctx context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
		if h := sha256.Sum256([]byte(msgs[len(msgs)-1].Content)); h[0]%3 == 0 {
			return agent.Reply{}, &openai.APIError{Status: 400, Message: "context too long"}
		}
		return base.Respond(ctx, msgs, tools)
	})
	var reports, tables [][]byte
	for _, workers := range []int{1, 4, 1} {
		dir := t.TempDir()
		rep := runMini(t, flaky, "flaky", func(c *Config) { c.OutDir, c.Concurrency = dir, workers })
		b, err := os.ReadFile(filepath.Join(dir, ReportFile))
		require.NoError(t, err)
		md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
		require.NoError(t, err)
		var table bytes.Buffer
		require.NoError(t, rep.WriteTable(&table))
		reports = append(reports, append(b, md...))
		tables = append(tables, table.Bytes())
		agentErrs, _ := rep.ErrorCounts()
		require.Positive(t, agentErrs, "the run has errors to report")
	}
	require.Equal(t, string(reports[0]), string(reports[1]))
	require.Equal(t, string(reports[0]), string(reports[2]))
	require.Equal(t, string(tables[0]), string(tables[1]))
}

// countingAgent counts replies and cancels the run after stopAfter of them.
type countingAgent struct {
	inner     agent.Agent
	mu        sync.Mutex
	n         int
	stopAfter int
	cancel    context.CancelFunc
}

func (c *countingAgent) Respond(ctx context.Context, m []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	c.mu.Lock()
	c.n++
	if c.stopAfter > 0 && c.n > c.stopAfter {
		c.mu.Unlock()
		c.cancel()
		<-ctx.Done()
		return agent.Reply{}, ctx.Err()
	}
	c.mu.Unlock()
	return c.inner.Respond(ctx, m, tools)
}

func TestInterruptAndResume(t *testing.T) {
	full := t.TempDir()
	runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.OutDir = full; c.Tasks = []int{1, 2, 4, 5} })

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ca := &countingAgent{inner: agent.Oracle{}, stopAfter: 4, cancel: cancel}
	cfg := Config{Agent: ca, AgentName: "oracle", Instructions: miniData(t), Stack: testStack(t), OutDir: dir, Tasks: []int{1, 2, 4, 5}}
	rep, err := Run(ctx, cfg)
	var ie *InterruptedError
	require.ErrorAs(t, err, &ie)
	require.False(t, rep.Complete)
	require.Equal(t, 4, ie.Done)
	done := 0
	for _, tr := range rep.Tasks {
		done += tr.N
	}
	require.Equal(t, 4, done)
	require.Less(t, metric(t, rep, TaskIntrinsic, "relatedness"), 1.0, "instances not run score as failures")
	require.Equal(t, 4, lines(t, filepath.Join(dir, ResultsFile)))

	// A crash mid-write leaves a partial line; resuming drops it.
	f, err := os.OpenFile(filepath.Join(dir, ResultsFile), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(`{"key":"T5/i-rates","task":5,"outc`)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	ca2 := &countingAgent{inner: agent.Oracle{}}
	cfg.Agent, cfg.Resume = ca2, true
	rep, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	require.True(t, rep.Complete)
	require.Equal(t, ie.Total-4, ca2.n, "finished instances are not redone")
	require.Equal(t, ie.Total, lines(t, filepath.Join(dir, ResultsFile)))
	a, err := os.ReadFile(filepath.Join(full, ReportFile))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, ReportFile))
	require.NoError(t, err)
	require.Equal(t, string(a), string(b), "a resumed run reports what an uninterrupted one does")
}

func lines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rs, err := ReadResults(f, path)
	require.NoError(t, err)
	return len(rs)
}

func TestRunDirGuards(t *testing.T) {
	dir := t.TempDir()
	runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.OutDir = dir; c.Tasks = []int{1} })

	cfg := Config{Agent: agent.Oracle{}, AgentName: "oracle", Instructions: miniData(t), Stack: testStack(t), OutDir: dir, Tasks: []int{1}}
	_, err := Run(context.Background(), cfg)
	var rde *RunDirError
	require.ErrorAs(t, err, &rde, "results are never overwritten silently")

	cfg.Resume, cfg.Seed, cfg.Sample = true, 7, 2
	_, err = Run(context.Background(), cfg)
	require.ErrorAs(t, err, &rde)
	require.Contains(t, err.Error(), "sample 0, now 2")

	cfg.Resume, cfg.Overwrite = false, true
	_, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, 2, lines(t, filepath.Join(dir, ResultsFile)))
}

func TestAgentErrorsAreRetriedOnResume(t *testing.T) {
	dir := t.TempDir()
	failing := funcAgent(func(context.Context, []agent.Message, []toolset.OpenAITool) (agent.Reply, error) {
		return agent.Reply{}, errors.New("model server down")
	})
	cfg := Config{Agent: failing, AgentName: "x", Instructions: miniData(t), Stack: testStack(t), OutDir: dir, Tasks: []int{2}}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err, "agent errors are outcomes, not a failed run")
	require.True(t, rep.Complete, "every instance has an outcome")
	require.Equal(t, 3, rep.Tasks[0].Errors)
	require.Equal(t, 3, rep.Tasks[0].N)
	require.Equal(t, map[string]int{ErrorAgent: 3}, rep.Tasks[0].ErrorKinds)
	require.Equal(t, 0.0, rep.Tasks[0].Metrics["accuracy"])

	cfg.Agent, cfg.Resume = agent.Oracle{}, true
	rep, err = Run(context.Background(), cfg)
	require.NoError(t, err)
	require.Zero(t, rep.Tasks[0].Errors)
	require.Equal(t, 1.0, rep.Tasks[0].Metrics["accuracy"])
}

func TestChainWithFabricatedIDs(t *testing.T) {
	// Looks up both cities, then invents the IDs instead of using them: the
	// engine refuses the search as the real API would.
	fabricate := funcAgent(func(_ context.Context, msgs []agent.Message, _ []toolset.OpenAITool) (agent.Reply, error) {
		calls := 0
		for _, m := range msgs {
			calls += len(m.ToolCalls)
		}
		call := func(name, args string) (agent.Reply, error) {
			return agent.Reply{ToolCalls: []agent.ToolCall{{Name: name, Arguments: json.RawMessage(args)}}}, nil
		}
		switch calls {
		case 0:
			return call("skyscanner80-flights_auto_complete", `{"query":"Paris"}`)
		case 1:
			return call("skyscanner80-flights_auto_complete", `{"query":"London"}`)
		case 2:
			return call("skyscanner80-flights_search_one_way", `{"fromId":"PARIS","toId":"LONDON","departDate":"2025-07-01"}`)
		}
		return agent.Reply{Content: "No flights found."}, nil
	})
	ins := miniData(t)
	var chain []dataset.Instruction
	for _, in := range ins {
		if in.ID == "iv-flights" {
			chain = append(chain, in)
		}
	}
	rep, err := Run(context.Background(), Config{Agent: fabricate, AgentName: "f", Instructions: chain, Stack: testStack(t), Tasks: []int{TaskChain}})
	require.NoError(t, err)
	require.InDelta(t, 2.0/3, metric(t, rep, TaskChain, "progress"), 1e-12)
	require.Equal(t, 0.0, rep.Tasks[0].Extra["full_success"])
}

func TestSampleIsDeterministic(t *testing.T) {
	insts := Instances(embeddedData(t), []int{1, 5})
	a, b := sample(insts, 20, 42), sample(insts, 20, 42)
	require.Equal(t, keys(a), keys(b))
	require.Len(t, a, 40)
	require.NotEqual(t, keys(a), keys(sample(insts, 20, 43)), "another seed, another sample")
	require.Equal(t, insts, sample(insts, 0, 1))
	require.Equal(t, insts, sample(insts, len(insts), 1), "a task smaller than the sample is kept whole")
	for i := 1; i < len(a); i++ {
		require.True(t, a[i-1].Task < a[i].Task || (a[i-1].Task == a[i].Task && a[i-1].In.ID < a[i].In.ID), "the instances' order is kept")
	}
}

// TestSampleKeepsStrata checks the stratification on the embedded dataset:
// every stratum at every level (type; type and scenario; type, scenario and
// API) gets its proportional share of every task's sample rounded down or
// up, and seeds differ in the instances they pick.
func TestSampleKeepsStrata(t *testing.T) {
	insts := Instances(embeddedData(t), []int{1, 2, 3, 4, 5, 6, 7, 8})
	for _, n := range []int{7, 50, 100, 300} {
		for seed := uint64(0); seed < 6; seed++ {
			got := sample(insts, n, seed)
			for task := 1; task <= 8; task++ {
				all, picked := ofTask(insts, task), ofTask(got, task)
				if len(all) <= n {
					require.Len(t, picked, len(all))
					continue
				}
				require.Len(t, picked, n, "task %d", task)
				for level := 1; level <= 3; level++ {
					size, count := stratumCounts(all, level), stratumCounts(picked, level)
					for s, k := range size {
						lo := n * k / len(all)
						hi := (n*k + len(all) - 1) / len(all)
						require.True(t, count[s] >= lo && count[s] <= hi,
							"n %d seed %d task %d stratum %q: %d of %d instances picked, want %d..%d", n, seed, task, s, count[s], k, lo, hi)
					}
				}
			}
		}
	}
	// Different seeds: the samples differ, and together cover far more of
	// the task than one sample does.
	union := map[string]bool{}
	for seed := uint64(0); seed < 5; seed++ {
		for _, in := range ofTask(sample(insts, 50, seed), TaskDecide) {
			union[in.Key()] = true
		}
	}
	require.Greater(t, len(union), 150, "five seeds of 50 pick mostly different instances")
}

// TestSampleDoesNotClusterPrefixes samples a single stratum whose IDs share
// long prefixes: the picks spread over the whole ID range.
func TestSampleDoesNotClusterPrefixes(t *testing.T) {
	var ins []dataset.Instruction
	for i := 0; i < 1000; i++ {
		ins = append(ins, dataset.Instruction{ID: fmt.Sprintf("II-weatherapi_com.realtime_weather_api-%04d", i), Type: dataset.TypeSufficient, Scenario: "daily_life", TargetAPI: "weatherapi_com.realtime_weather_api"})
	}
	insts := Instances(ins, []int{TaskSelect})
	for seed := uint64(0); seed < 5; seed++ {
		got := sample(insts, 100, seed)
		require.Len(t, got, 100)
		tenths := map[int]int{}
		for _, in := range got {
			var i int
			_, err := fmt.Sscanf(in.In.ID[len(in.In.ID)-4:], "%d", &i)
			require.NoError(t, err)
			tenths[i/100]++
		}
		for d := 0; d < 10; d++ {
			require.True(t, tenths[d] >= 3 && tenths[d] <= 20, "seed %d: %d picks among IDs %d00-%d99", seed, tenths[d], d, d)
		}
	}
}

func keys(insts []Instance) []string {
	out := make([]string, len(insts))
	for i, in := range insts {
		out[i] = in.Key()
	}
	return out
}

func ofTask(insts []Instance, task int) []Instance {
	var out []Instance
	for _, in := range insts {
		if in.Task == task {
			out = append(out, in)
		}
	}
	return out
}

// stratumCounts counts instances by their strata down to level (1-3).
func stratumCounts(insts []Instance, level int) map[string]int {
	out := map[string]int{}
	for _, in := range insts {
		s := strata(in.In)
		out[strings.Join(s[:level], "/")]++
	}
	return out
}

// TestAgentErrorsScoreAsFailures runs Tasks 1 and 4 of the embedded
// dataset against a model server that answers 400 (context too long) on
// seven requests in eight; the eighth is answered by the oracle. The
// errors are counted by kind and every one is a failure: the scores are
// those of the answered share, where leaving the errors out would give 1.
func TestAgentErrorsScoreAsFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("the embedded dataset")
	}
	ins := embeddedData(t)
	n := len(Instances(ins, []int{TaskDecide, TaskFill}))
	script := make([]agenttest.Turn, 0, n)
	for i := 0; i < n; i++ {
		script = append(script, agenttest.Fail(http.StatusBadRequest, "This model's maximum context length is 4096 tokens."))
	}
	srv := agenttest.NewServer(t, script...)
	srv.AllowUnused()
	client, err := NewAgent("openai", AgentOptions{BaseURL: srv.URL(), Model: "scripted"})
	require.NoError(t, err)
	var mu sync.Mutex
	calls := 0
	mixed := funcAgent(func(ctx context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
		mu.Lock()
		calls++
		oracle := calls%8 == 1
		mu.Unlock()
		if oracle {
			return agent.Oracle{}.Respond(ctx, msgs, tools)
		}
		return client.Respond(ctx, msgs, tools)
	})
	rep, err := Run(context.Background(), Config{Agent: mixed, AgentName: "mixed", Instructions: ins, Stack: testStack(t), Tasks: []int{TaskDecide, TaskFill}})
	require.NoError(t, err)
	require.True(t, rep.Complete, "an error is a recorded outcome")
	answered := 0
	for _, tr := range rep.Tasks {
		require.Equal(t, tr.Planned, tr.N)
		require.Equal(t, map[string]int{"http_400": tr.Errors}, tr.ErrorKinds)
		answered += tr.Planned - tr.Errors
	}
	require.Equal(t, n-len(srv.Requests()), answered, "every request the server refused is an error")
	require.Equal(t, (n+7)/8, answered)

	fill := rep.Tasks[1]
	require.InDelta(t, float64(fill.Planned-fill.Errors)/float64(fill.Planned), fill.Metrics["precision"], 1e-12, "the oracle's answers pass, every error fails")
	require.Less(t, fill.Metrics["precision"], 0.2)
	decide := rep.Tasks[0]
	require.Less(t, decide.Metrics["f1"], 0.3)
	require.Less(t, decide.Extra["accuracy"], 0.2)
	agentErrs, dataErrs := rep.ErrorCounts()
	require.Equal(t, len(srv.Requests()), agentErrs)
	require.Zero(t, dataErrs)
}

// TestUnreachableServerStopsTheRun points the agent at a port nobody
// listens on: the run stops after a few instances with an
// *UnreachableError instead of reporting a table of failures.
func TestUnreachableServerStopsTheRun(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + l.Addr().String() + "/v1"
	require.NoError(t, l.Close())
	client, err := NewAgent("openai", AgentOptions{BaseURL: url, Model: "m"})
	require.NoError(t, err)
	ca := &countingAgent{inner: client}
	dir := t.TempDir()
	rep, err := Run(context.Background(), Config{Agent: ca, AgentName: "openai", Instructions: miniData(t), Stack: testStack(t), OutDir: dir})
	var ue *UnreachableError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, unreachableAfter, ue.Failed)
	require.Equal(t, ErrorUnreachable, ue.Kind)
	require.Contains(t, err.Error(), "never reached its model server")
	require.Contains(t, ue.Err, "connection refused")
	require.Equal(t, unreachableAfter, ca.n, "no instance after the evidence")
	require.False(t, rep.Complete)
	require.Equal(t, unreachableAfter, lines(t, filepath.Join(dir, ResultsFile)), "what was recorded is saved")

	// A server that answers, even with errors, is reached: the run goes on.
	srv := agenttest.NewServer(t, agenttest.Fail(500, "overloaded"), agenttest.Fail(500, "overloaded"), agenttest.Fail(500, "overloaded"),
		agenttest.Fail(500, "overloaded"), agenttest.Fail(500, "overloaded"))
	client, err = NewAgent("openai", AgentOptions{BaseURL: srv.URL(), Model: "m"})
	require.NoError(t, err)
	rep, err = Run(context.Background(), Config{Agent: client, AgentName: "openai", Instructions: miniData(t), Stack: testStack(t), Tasks: []int{TaskDecide}})
	require.NoError(t, err)
	require.Equal(t, map[string]int{"http_500": 5}, rep.Tasks[0].ErrorKinds)
}

func TestOracleScoresOneOnEmbeddedDataset(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole embedded dataset")
	}
	rep, err := Run(context.Background(), Config{Agent: agent.Oracle{}, AgentName: "oracle", Stack: testStack(t), Concurrency: 2})
	require.NoError(t, err)
	require.True(t, rep.Complete)
	require.Len(t, rep.Tasks, 8)
	for _, tr := range rep.Tasks {
		require.Positive(t, tr.Planned, "task %d has instances", tr.ID)
		require.Equal(t, tr.Planned, tr.N, "task %d", tr.ID)
		require.Zero(t, tr.Errors, "task %d: %v", tr.ID, tr.Outcomes)
		for name, v := range tr.Metrics {
			require.Equal(t, 1.0, v, "task %d %s: %v", tr.ID, name, tr.Outcomes)
		}
	}
}
