package evaltasks

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// syntheticResults are fixed results covering every task and outcome kind.
func syntheticResults() map[string]*Result {
	rs := []*Result{
		{Key: "T1/a", Task: 1, Label: "positive", Outcome: OutcomeCall, Pass: true, Score: 1},
		{Key: "T1/b", Task: 1, Label: "positive", Outcome: OutcomeNoCall},
		{Key: "T1/c", Task: 1, Label: "negative", Outcome: OutcomeCall},
		{Key: "T1/d", Task: 1, Label: "negative", Outcome: OutcomeNoCall, Pass: true, Score: 1},
		{Key: "T1/e", Task: 1, Label: "positive", Outcome: OutcomeParseError},
		{Key: "T2/a", Task: 2, Outcome: OutcomeCorrect, Pass: true, Score: 1},
		{Key: "T2/b", Task: 2, Outcome: OutcomeWrongAPI},
		{Key: "T3/a", Task: 3, Outcome: OutcomeCalled, Mistakes: []Mistake{{Kind: MistakePlaceholder, Param: "url"}, {Kind: MistakeMissingParam, Param: "q"}}},
		{Key: "T3/b", Task: 3, Outcome: OutcomeClarified, Pass: true, Score: 1},
		{Key: "T4/a", Task: 4, Outcome: OutcomeWrongType},
		{Key: "T4/b", Task: 4, Outcome: OutcomeCorrect, Pass: true, Score: 1},
		{Key: "T4/c", Task: 4, Outcome: OutcomeError, Error: "model server down", ErrorKind: ErrorAgent},
		{Key: "T5/a", Task: 5, Outcome: OutcomeRelated, Pass: true, Score: 0.5},
		{Key: "T6/a", Task: 6, Outcome: OutcomeInexact},
		{Key: "T7/a", Task: 7, Outcome: OutcomePartial, Score: 2.0 / 3, Matched: 2},
		{Key: "T7/b", Task: 7, Outcome: OutcomeComplete, Pass: true, Score: 1, Matched: 2},
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
	planned := map[int]int{1: 5, 2: 2, 3: 2, 4: 3, 5: 1, 6: 2, 7: 2, 8: 1}
	rep := Aggregate("demo", "m-1", "sha256:0", tasks, planned, syntheticResults(), map[int]string{6: "judge:x"})
	require.False(t, rep.Complete, "task 6 has an instance not yet scored")
	// Task 1: TP 1, FP 1, TN 1, FN 1, one parse error on a positive.
	require.Equal(t, 0.5, metric(t, rep, 1, "precision"))
	require.InDelta(t, 1.0/3, metric(t, rep, 1, "recall"), 1e-12)
	require.InDelta(t, (0.4+0.5)/2, metric(t, rep, 1, "f1"), 1e-12)
	require.InDelta(t, 5.0/6, metric(t, rep, 7, "progress"), 1e-12)
	require.Equal(t, 0.5, rep.Tasks[6].Extra["full_success"])
	require.Equal(t, 0.5, metric(t, rep, 4, "precision"), "an errored instance is left out, not failed")
	require.Equal(t, 1, rep.Tasks[3].Errors)
	require.Equal(t, map[string]int{MistakePlaceholder: 1, MistakeMissingParam: 1}, rep.Tasks[2].Mistakes)
	require.Equal(t, "judge:x", rep.Tasks[5].Scorer)

	var table bytes.Buffer
	require.NoError(t, rep.WriteTable(&table))
	js, err := rep.JSON()
	require.NoError(t, err)
	for name, got := range map[string][]byte{"report.golden.md": rep.Markdown(), "table.golden.txt": table.Bytes(), "report.golden.json": js} {
		path := filepath.Join("testdata", name)
		if *update {
			require.NoError(t, os.WriteFile(path, got, 0o644))
		}
		want, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), name)
	}
}

func TestMacroF1OfOneClass(t *testing.T) {
	rs := map[string]*Result{"T1/a": {Key: "T1/a", Task: 1, Label: "positive", Outcome: OutcomeCall, Pass: true}}
	rep := Aggregate("x", "", "", []int{1}, map[int]int{1: 1}, rs, nil)
	require.Equal(t, 1.0, metric(t, rep, 1, "f1"), "a class absent from labels and predictions is not averaged in")
}
