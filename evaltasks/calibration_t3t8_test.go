package evaltasks

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/dataset"
)

// The calibration corpus of natural answers (its README says how it was
// written and sampled): Tasks 3 and 8, each style scored against its
// instance's current labels through the scorer Run uses, must pass at
// least MinCalibrationPass.

// calibrationCorpora are where the shared corpus may live beside the
// project (a checkout, or a worktree one level deeper); the environment
// variable UNDERSTUDY_CALIBRATION names another file.
var calibrationCorpora = []string{"../../shared/calibration/natural-answers.jsonl", "../../../shared/calibration/natural-answers.jsonl"}

// MinCalibrationPass is the share of natural answers that must pass per
// task and style.
const MinCalibrationPass = 0.95

// calibrationAnswer is one style's answer: text, or a tool call.
type calibrationAnswer struct {
	Content  string          `json:"content"`
	ToolCall json.RawMessage `json:"tool_call"`
}

// calibrationEntry is one line of the corpus.
type calibrationEntry struct {
	ID      string                       `json:"id"`
	Task    string                       `json:"task"`
	Answers map[string]calibrationAnswer `json:"answers"`
}

func TestCalibrationT3T8(t *testing.T) {
	paths := calibrationCorpora
	if p := os.Getenv("UNDERSTUDY_CALIBRATION"); p != "" {
		paths = []string{p}
	}
	var f *os.File
	var err error
	for _, p := range paths {
		if f, err = os.Open(p); !os.IsNotExist(err) {
			break
		}
	}
	if os.IsNotExist(err) {
		t.Skip("no calibration corpus beside the project")
	}
	require.NoError(t, err)
	defer f.Close()
	ev, insts := embeddedEval(t, TaskClarify, TaskPlan)
	byKey := map[string]Instance{}
	for _, inst := range insts {
		byKey[inst.Key()] = inst
	}
	tasks := map[string]int{"T3": TaskClarify, "T8": TaskPlan}
	passed, total := map[string]int{}, map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e calibrationEntry
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e))
		task, ok := tasks[e.Task]
		if !ok {
			continue
		}
		inst, ok := byKey[Instance{Task: task, In: &dataset.Instruction{ID: e.ID}}.Key()]
		require.True(t, ok, "%s/%s: no such instance", e.Task, e.ID)
		v, err := ev.view(context.Background(), inst)
		require.NoError(t, err)
		for _, style := range []string{"concise", "thorough"} {
			a, ok := e.Answers[style]
			require.True(t, ok, "%s %s: no %s answer", e.Task, e.ID, style)
			require.Empty(t, a.ToolCall, "%s %s: a text task answered with a call", e.Task, e.ID)
			res := &Result{Key: inst.Key(), Task: inst.Task, Instance: inst.In.ID}
			ev.score(inst, v, textReply(a.Content), res)
			k := e.Task + " " + style
			total[k]++
			if res.Pass {
				passed[k]++
			} else {
				t.Logf("%s %s fails (%s %s, missed %q): %s", k, e.ID, res.Outcome, res.Detail, res.Missed, a.Content)
			}
		}
	}
	require.NoError(t, sc.Err())
	var low []string
	for _, k := range []string{"T3 concise", "T3 thorough", "T8 concise", "T8 thorough"} {
		require.Positive(t, total[k], k)
		rate := float64(passed[k]) / float64(total[k])
		t.Logf("%s: %d/%d pass (%.2f)", k, passed[k], total[k], rate)
		if rate < MinCalibrationPass-1e-9 {
			low = append(low, k)
		}
	}
	require.Empty(t, low, "below %.0f%% of natural answers passing", MinCalibrationPass*100)
}
