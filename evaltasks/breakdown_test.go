package evaltasks

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/chainscore"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/sandbox"
)

// TestDescribe checks what a real run adds to its report for the pages:
// every planned instance's verdict, which recomputes the metrics exactly;
// the failures with their transcripts and gold; the slice tables.
func TestDescribe(t *testing.T) {
	for _, tt := range []struct {
		name string
		a    agent.Agent
	}{
		{"oracle", agent.Oracle{}},
		{"silent", silentAgent},
		{"eager", eagerAgent},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := runMini(t, tt.a, tt.name, nil)
			byTask := map[int][]InstanceScore{}
			failed := 0
			for _, s := range rep.Instances {
				byTask[s.Task] = append(byTask[s.Task], s)
				if !s.Pass {
					failed++
				}
			}
			require.Len(t, rep.Failures, failed, "a failure per instance not passed")
			for _, tr := range rep.Tasks {
				require.Len(t, byTask[tr.ID], tr.Planned, "task %d: every planned instance", tr.ID)
				for m, v := range tr.Metrics {
					require.Equal(t, v, MetricOver(tr.ID, m, byTask[tr.ID]), "task %d %s recomputed from the instances", tr.ID, m)
				}
				for m, v := range tr.Extra {
					require.Equal(t, v, MetricOver(tr.ID, m, byTask[tr.ID]), "task %d %s recomputed from the instances", tr.ID, m)
				}
				for _, slices := range [][]Slice{rep.ByType, rep.ByScenario} {
					n := 0
					for _, sl := range slices {
						for _, c := range sl.Cells {
							if c.Task == tr.ID {
								n += c.N
								require.Equal(t, SliceMetric(tr.ID), c.Metric)
							}
						}
					}
					require.Equal(t, tr.Planned, n, "task %d: the slices partition its instances", tr.ID)
				}
			}
			for _, f := range rep.Failures {
				require.NotEmpty(t, f.Text, f.Key)
				require.NotNil(t, f.Gold, f.Key)
				require.Equal(t, f.Gold.Type, f.Type, f.Key)
				require.NotEmpty(t, f.APIs, f.Key)
				require.NotEmpty(t, f.Messages, "%s: the transcript", f.Key)
			}
			if tt.name == "oracle" {
				require.Empty(t, rep.Failures)
				require.Equal(t, &Confusion{TP: 3, TN: 2}, rep.Tasks[0].Confusion)
			}
		})
	}
}

func TestChainBreakdown(t *testing.T) {
	one := func(kind string) []chainscore.Break { return []chainscore.Break{{Step: 1, Kind: kind}} }
	rs := []*Result{
		{Task: TaskChain, Outcome: OutcomeNoProgress, Breaks: []chainscore.Break{{Step: 1, Kind: chainscore.BreakNotCalled}, {Step: 2, Kind: chainscore.BreakPrerequisite}}},
		{Task: TaskChain, Outcome: OutcomePartial, Breaks: []chainscore.Break{{Step: 3, Kind: chainscore.BreakWrongArguments}},
			Calls: []ExecutedCall{{Status: 400, Violations: []sandbox.Violation{{Kind: "fabricated"}, {Kind: "before_dependency"}}}}},
		{Task: TaskChain, Outcome: OutcomeComplete, Pass: true, Score: 1},
		{Task: TaskChain, Outcome: OutcomeError, Error: "down", Breaks: one(chainscore.BreakNotCalled)},
	}
	cb := chainBreakdown(rs)
	require.Equal(t, []int{1, 0, 1}, cb.FirstBroken, "by the first step not done; errors are not chains")
	require.Equal(t, map[string]int{chainscore.BreakNotCalled: 1, chainscore.BreakPrerequisite: 1, chainscore.BreakWrongArguments: 1}, cb.Kinds)
	require.Equal(t, map[string]int{"fabricated": 1, "before_dependency": 1}, cb.Violations)
}

func TestCoverageBins(t *testing.T) {
	var rs []*Result
	for _, s := range []float64{0, 0.19, 0.2, 0.5, 0.59, 0.6, 0.99, 1} {
		rs = append(rs, &Result{Task: TaskPlan, Outcome: OutcomeLowCoverage, Score: s})
	}
	rs = append(rs, &Result{Task: TaskPlan, Outcome: OutcomeNotRun})
	require.Equal(t, []int{2, 1, 2, 1, 2}, coverageBins(rs))
}

func TestInstanceAPIs(t *testing.T) {
	tests := []struct {
		in   dataset.Instruction
		want []string
	}{
		{dataset.Instruction{Type: dataset.TypeNoTool, TemptingAPI: "a.x"}, []string{"a.x"}},
		{dataset.Instruction{Type: dataset.TypeMissing, TargetAPI: "b.y"}, []string{"b.y"}},
		{dataset.Instruction{Type: dataset.TypeDependencies, Chain: []dataset.GoldStep{{API: "c.z"}, {API: "a.x"}, {API: "c.z"}}}, []string{"a.x", "c.z"}},
		{dataset.Instruction{Type: dataset.TypeHighLevel, GroupAPIs: []string{"d.w", "a.x"}}, []string{"a.x", "d.w"}},
		{dataset.Instruction{Type: dataset.TypeSufficient}, []string{}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, instanceAPIs(&tt.in))
	}
}

// TestChainViolationsFromTheSessionTrace runs an agent that calls the
// chain's APIs in order with invented IDs: the sandbox's dependency check
// records violations, and the report counts them by kind.
func TestChainViolationsFromTheSessionTrace(t *testing.T) {
	rep := runMini(t, chainNamesAgent, "names", func(c *Config) { c.Tasks = []int{TaskChain} })
	tr := rep.Tasks[0]
	require.NotNil(t, tr.Chain)
	require.NotEmpty(t, tr.Chain.Violations, "%+v", tr.Chain)
	require.Positive(t, tr.Chain.Violations["fabricated"], "%+v", tr.Chain.Violations)
	broken := 0
	for _, n := range tr.Chain.FirstBroken {
		broken += n
	}
	require.Equal(t, tr.Outcomes[OutcomePartial]+tr.Outcomes[OutcomeNoProgress]+tr.Outcomes["parse_error"], broken, "every chain not complete breaks somewhere")
}
