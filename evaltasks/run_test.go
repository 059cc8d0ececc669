package evaltasks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/understudy/understudy/toolset"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
)

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
	require.Equal(t, 0.0, metric(t, rep, TaskDecide, "precision"))
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
		case TypeSufficient:
			positives++
			total++
		case TypeNoTool:
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
			require.Equal(t, map[string]int{MistakeMissingParam: 3}, tr.Mistakes)
		}
	}
}

func TestReportIsByteIdentical(t *testing.T) {
	var reports [][]byte
	for _, workers := range []int{1, 4, 1} {
		dir := t.TempDir()
		runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.OutDir, c.Concurrency = dir, workers })
		b, err := os.ReadFile(filepath.Join(dir, ReportFile))
		require.NoError(t, err)
		reports = append(reports, b)
	}
	require.Equal(t, string(reports[0]), string(reports[1]))
	require.Equal(t, string(reports[0]), string(reports[2]))
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
	require.NoError(t, err)
	require.Equal(t, 3, rep.Tasks[0].Errors)
	require.Zero(t, rep.Tasks[0].N)

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
	var chain []Instruction
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
	insts := Instances(miniData(t), []int{1, 5})
	a, b := sample(insts, 2, 42), sample(insts, 2, 42)
	require.Equal(t, a, b)
	require.Len(t, a, 4)
	c := sample(insts, 2, 43)
	require.Len(t, c, 4)
	require.Equal(t, insts, sample(insts, 0, 1))
}

func TestOracleScoresOneOnEmbeddedDataset(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole embedded dataset")
	}
	rep, err := Run(context.Background(), Config{Agent: agent.Oracle{}, AgentName: "oracle", Stack: testStack(t), Concurrency: 2})
	require.NoError(t, err)
	for _, tr := range rep.Tasks {
		if tr.Planned == 0 {
			continue // that part of the dataset is not there yet
		}
		require.Zero(t, tr.Errors, "task %d: %v", tr.ID, tr.Outcomes)
		for name, v := range tr.Metrics {
			require.Equal(t, 1.0, v, "task %d %s: %v", tr.ID, name, tr.Outcomes)
		}
	}
}
