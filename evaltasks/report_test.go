package evaltasks

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/internal/golden"
)

// syntheticResults are fixed results covering every task and outcome kind.
func syntheticResults() map[string]*Result {
	rs := []*Result{
		{Key: "T1/a", Task: 1, Label: "positive", Outcome: OutcomeCall, Pass: true, Score: 1},
		{Key: "T1/b", Task: 1, Label: "positive", Outcome: callcheck.OutcomeNoCall},
		{Key: "T1/c", Task: 1, Label: "negative", Outcome: OutcomeCall},
		{Key: "T1/d", Task: 1, Label: "negative", Outcome: callcheck.OutcomeNoCall, Pass: true, Score: 1},
		{Key: "T1/e", Task: 1, Label: "positive", Outcome: callcheck.OutcomeParseError},
		{Key: "T1/f", Task: 1, Label: "positive", Outcome: OutcomeError, Error: "context too long", ErrorKind: "http_400"},
		{Key: "T1/g", Task: 1, Label: "negative", Outcome: OutcomeError, Error: "no answer", ErrorKind: ErrorTimeout},
		{Key: "T2/a", Task: 2, Outcome: callcheck.OutcomeCorrect, Pass: true, Score: 1},
		{Key: "T2/b", Task: 2, Outcome: OutcomeWrongAPI},
		{Key: "T3/a", Task: 3, Outcome: OutcomeCalled, Mistakes: []callcheck.Mistake{{Kind: callcheck.MistakePlaceholder, Param: "url"}, {Kind: callcheck.MistakeMissingParam, Param: "q"}}},
		{Key: "T3/b", Task: 3, Outcome: OutcomeClarified, Pass: true, Score: 1},
		{Key: "T4/a", Task: 4, Outcome: callcheck.OutcomeWrongType},
		{Key: "T4/b", Task: 4, Outcome: callcheck.OutcomeCorrect, Pass: true, Score: 1},
		{Key: "T4/c", Task: 4, Outcome: OutcomeError, Error: "model server down", ErrorKind: ErrorAgent},
		{Key: "T5/a", Task: 5, Outcome: OutcomeRelated, Pass: true, Score: 0.5},
		{Key: "T6/a", Task: 6, Outcome: OutcomeInexact},
		{Key: "T6/b", Task: 6, Outcome: OutcomeError, Error: "bad record", ErrorKind: ErrorData},
		{Key: "T6/c", Task: 6, Outcome: OutcomeNotRun},
		{Key: "T7/a", Task: 7, Outcome: OutcomePartial, Score: 2.0 / 3, Matched: 2, Calls: []ExecutedCall{{OnChain: true}, {OnChain: true}}},
		{Key: "T7/b", Task: 7, Outcome: OutcomeComplete, Pass: true, Score: 1, Matched: 2, Calls: []ExecutedCall{{OnChain: true}, {}, {OnChain: true}, {Status: 500}}},
		{Key: "T8/a", Task: 8, Outcome: OutcomePassed, Pass: true, Score: 0.75},
	}
	out := map[string]*Result{}
	for _, r := range rs {
		out[r.Key] = r
	}
	return out
}

func TestAggregate(t *testing.T) {
	tasks := []int{1, 2, 3, 4, 5, 6, 7, 8}
	planned := map[int]int{1: 7, 2: 2, 3: 2, 4: 3, 5: 1, 6: 4, 7: 2, 8: 1}
	rep := Aggregate("demo", "m-1", "sha256:0", tasks, planned, syntheticResults(), map[int]string{6: "judge:x"})
	require.False(t, rep.Complete, "task 6 has an instance not run and one not even listed")
	// Task 1: TP 1, FP 1, TN 1, FN 1, then a parse error and an error on
	// positives (missed positives, FN) and an error on a negative (FP).
	require.InDelta(t, 1.0/3, metric(t, rep, 1, "precision"), 1e-12)
	require.Equal(t, 0.25, metric(t, rep, 1, "recall"))
	require.InDelta(t, 2.0/7, metric(t, rep, 1, "f1"), 1e-12, "F1 of the positive class")
	// Negative class: TN 1 of 4 predicted negatives and of 3 negatives.
	require.InDelta(t, 2.0/7, metric(t, rep, 1, "macro_f1"), 1e-12)
	require.InDelta(t, 2.0/7, rep.Tasks[0].Extra["accuracy"], 1e-12)
	require.Equal(t, map[string]int{"http_400": 1, ErrorTimeout: 1}, rep.Tasks[0].ErrorKinds)
	require.InDelta(t, 5.0/6, metric(t, rep, 7, "progress"), 1e-12)
	// F-measures of progress and call precision: (2/3, 1) and (1, 1/2).
	require.InDelta(t, (0.8+2.0/3)/2, metric(t, rep, 7, "chain_score"), 1e-12, "every wasted call lowers the headline")
	require.Equal(t, 0.5, rep.Tasks[6].Extra["full_success"])
	require.InDelta(t, 1.0/3, metric(t, rep, 4, "precision"), 1e-12, "an errored instance is a failure, not left out")
	require.Equal(t, 1, rep.Tasks[3].Errors)
	require.Equal(t, map[string]int{ErrorAgent: 1}, rep.Tasks[3].ErrorKinds)
	// Task 6: 4 planned, 2 with an outcome (one a dataset error), one not
	// run, one missing: all four in the denominator.
	require.Equal(t, 0.0, metric(t, rep, 6, "passing_rate"))
	require.Equal(t, 2, rep.Tasks[5].N)
	require.Equal(t, 4, rep.Tasks[5].Planned)
	require.Equal(t, map[string]int{ErrorData: 1}, rep.Tasks[5].ErrorKinds)
	agentErrs, dataErrs := rep.ErrorCounts()
	require.Equal(t, [2]int{3, 1}, [2]int{agentErrs, dataErrs})
	require.Equal(t, "task 1: http_400 1, timeout 1; task 4: agent 1; task 6: data 1", rep.ErrorSummary())
	require.Equal(t, map[string]int{callcheck.MistakePlaceholder: 1, callcheck.MistakeMissingParam: 1}, rep.Tasks[2].Mistakes)
	require.Equal(t, "judge:x", rep.Tasks[5].Scorer)

	var table bytes.Buffer
	require.NoError(t, rep.WriteTable(&table))
	js, err := rep.JSON()
	require.NoError(t, err)
	for name, got := range map[string][]byte{"report.golden.md": rep.Markdown(), "table.golden.txt": table.Bytes(), "report.golden.json": js} {
		golden.Check(t, filepath.Join("testdata", name), got)
	}
}

func TestMacroF1OfOneClass(t *testing.T) {
	rs := map[string]*Result{"T1/a": {Key: "T1/a", Task: 1, Label: "positive", Outcome: OutcomeCall, Pass: true}}
	rep := Aggregate("x", "", "", []int{1}, map[int]int{1: 1}, rs, nil)
	require.Equal(t, 1.0, metric(t, rep, 1, "macro_f1"), "a class absent from labels and predictions is not averaged in")
	require.Equal(t, 1.0, metric(t, rep, 1, "f1"))
}

// decideResults builds Task-1 results from a confusion matrix.
func decideResults(tp, fn, fp, tn int) map[string]*Result {
	out := map[string]*Result{}
	add := func(n int, label, outcome string, pass bool) {
		for i := 0; i < n; i++ {
			k := fmt.Sprintf("T1/%s-%s-%03d", label, outcome, i)
			out[k] = &Result{Key: k, Task: 1, Label: label, Outcome: outcome, Pass: pass}
		}
	}
	add(tp, "positive", OutcomeCall, true)
	add(fn, "positive", callcheck.OutcomeNoCall, false)
	add(fp, "negative", OutcomeCall, false)
	add(tn, "negative", callcheck.OutcomeNoCall, true)
	return out
}

func TestDecideF1IsThePositiveClass(t *testing.T) {
	tests := []struct {
		name            string
		tp, fn, fp, tn  int
		p, r, f1, macro float64
	}{
		// Table 5 of the paper, GPT-3.5: P .96, R .75, F1 .84.
		{"paper's GPT-3.5", 75, 25, 3, 97, 75.0 / 78, 0.75, 0.8427, 0.8583},
		{"never calls", 0, 50, 0, 50, 0, 0, 0, 1.0 / 3},
		{"always calls", 50, 0, 50, 0, 0.5, 1, 2.0 / 3, 1.0 / 3},
		{"perfect", 50, 0, 0, 50, 1, 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := decideResults(tt.tp, tt.fn, tt.fp, tt.tn)
			rep := Aggregate("x", "", "", []int{1}, map[int]int{1: len(rs)}, rs, nil)
			require.InDelta(t, tt.p, metric(t, rep, 1, "precision"), 1e-4)
			require.InDelta(t, tt.r, metric(t, rep, 1, "recall"), 1e-4)
			require.InDelta(t, tt.f1, metric(t, rep, 1, "f1"), 1e-4)
			require.InDelta(t, tt.macro, metric(t, rep, 1, "macro_f1"), 1e-4)
		})
	}
}

// TestErrorsNeverRaiseAMetric turns each answered instance, one at a
// time, into an error (an agent's, or a dataset's) and into a missing
// one: no metric of any task may rise, and the denominator stays.
func TestErrorsNeverRaiseAMetric(t *testing.T) {
	tasks := []int{1, 2, 3, 4, 5, 6, 7, 8}
	base := syntheticResults()
	planned := map[int]int{}
	for _, r := range base {
		planned[r.Task]++
	}
	before := Aggregate("x", "", "", tasks, planned, base, nil)
	changed := 0
	for _, k := range slices.Sorted(maps.Keys(base)) {
		if !answered(base[k]) {
			continue
		}
		for _, kind := range []string{"http_400", ErrorData, "not run"} {
			rs := syntheticResults()
			if kind == "not run" {
				rs[k] = &Result{Key: k, Task: rs[k].Task, Label: rs[k].Label, Outcome: OutcomeNotRun, Pass: rs[k].Pass, Score: rs[k].Score}
			} else {
				rs[k] = &Result{Key: k, Task: rs[k].Task, Label: rs[k].Label, Outcome: OutcomeError, Error: "failed", ErrorKind: kind,
					Pass: rs[k].Pass, Score: rs[k].Score} // a verdict left over must not count
			}
			after := Aggregate("x", "", "", tasks, planned, rs, nil)
			for i, tr := range after.Tasks {
				require.Equal(t, before.Tasks[i].Planned, tr.Planned, "%s as %s", k, kind)
				for name, v := range tr.Metrics {
					require.LessOrEqual(t, v, before.Tasks[i].Metrics[name]+1e-12, "%s as %s: task %d %s", k, kind, tr.ID, name)
					if v < before.Tasks[i].Metrics[name]-1e-12 {
						changed++
					}
				}
			}
		}
	}
	require.Positive(t, changed, "failing a passed instance lowers its metric")
}

func TestTableShowsErrorsNotDashes(t *testing.T) {
	rs := map[string]*Result{}
	for i := 0; i < 4; i++ {
		k := fmt.Sprintf("T2/%d", i)
		rs[k] = &Result{Key: k, Task: 2, Outcome: OutcomeError, Error: "refused", ErrorKind: ErrorUnreachable}
	}
	rep := Aggregate("x", "", "", []int{2, 5}, map[int]int{2: 4}, rs, nil)
	require.True(t, rep.Complete)
	var b bytes.Buffer
	require.NoError(t, rep.WriteTable(&b))
	require.Equal(t, `Task    Metric       x     n  errors  scorer
Task 2  Accuracy     0.00  4  4       rules
Task 5  Relatedness  -     0  0       rules
Task 2: 4 of 4 instances ended in an error (unreachable 4); they score as failures.
`, b.String())
}
