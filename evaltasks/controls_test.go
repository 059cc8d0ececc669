package evaltasks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/fixtures"
)

// Positive controls of Tasks 3, 5, 6 and 8: natural answers, built into
// the view the agent would see and scored by the evaluator as Run does,
// must pass; the degenerate suite (degenerate_test.go) bounds the other
// direction.

// embeddedEval is the evaluator and the instances of the embedded dataset.
func embeddedEval(t testing.TB, tasks ...int) (*evaluator, []Instance) {
	t.Helper()
	ins, err := dataset.LoadDir(fixtures.FS, "instructions")
	require.NoError(t, err)
	return newEvaluator(testStack(t), 0, nil), Instances(ins, tasks)
}

func textReply(s string) agent.Reply { return agent.Reply{Content: s} }

// TestAskEverythingFailsWhenSomethingWasGiven: asking again for what the
// user gave is never a clarification, so on the Type-III instructions
// that give something, the ask-everything strategy of the degenerate
// suite scores 0.
func TestAskEverythingFailsWhenSomethingWasGiven(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole embedded dataset")
	}
	given := givingInstructions(t)
	rep := runStrategy(t, askForEveryParameter, func(c *Config) {
		c.Instructions, c.Tasks = given, []int{TaskClarify}
	})
	require.Zero(t, metric(t, rep, TaskClarify, "percentage"), "%d instructions with given parameters", len(given))
}

// givingInstructions are the Type-III instructions that give something:
// a recorded value, or a required parameter that is not missing.
func givingInstructions(t testing.TB) []dataset.Instruction {
	t.Helper()
	ev, insts := embeddedEval(t, TaskClarify)
	var given []dataset.Instruction
	for _, inst := range insts {
		api := dataset.ResolveAPI(ev.cat, inst.In.TargetAPI)
		require.NotNil(t, api)
		required := 0
		for _, p := range api.Params {
			if p.Required {
				required++
			}
		}
		if len(inst.In.Present) > 0 || required > len(inst.In.Missing) {
			given = append(given, *inst.In)
		}
	}
	require.NotEmpty(t, given)
	return given
}

// control is a natural answer to one instance, written the way a capable
// model phrases it (from the question and, for Task 6, the tool result;
// never from the annotations).
type control struct {
	Task   int    `json:"task"`
	ID     string `json:"id"`
	Answer string `json:"answer"`
}

// MinControlPass is the share of positive controls that must pass: the
// scorers must not be stricter than the task.
const MinControlPass = 0.9

// readControls reads every testdata/controls/*.jsonl file.
func readControls(t testing.TB) []control {
	t.Helper()
	files, err := filepath.Glob("testdata/controls/*.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out []control
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var c control
			require.NoError(t, json.Unmarshal([]byte(line), &c), "%s:%d", f, i+1)
			require.NotEmpty(t, c.Answer, "%s:%d", f, i+1)
			out = append(out, c)
		}
	}
	return out
}

func TestPositiveControlsPass(t *testing.T) {
	ev, insts := embeddedEval(t, TaskClarify, TaskIntrinsic, TaskToolReturn, TaskPlan)
	byKey := map[string]Instance{}
	for _, inst := range insts {
		byKey[inst.Key()] = inst
	}
	controls := readControls(t)
	passed, total := map[int]int{}, map[int]int{}
	apis := map[int]map[string]bool{}
	for _, c := range controls {
		inst, ok := byKey[Instance{Task: c.Task, In: &dataset.Instruction{ID: c.ID}}.Key()]
		require.True(t, ok, "control %d/%s: no such instance", c.Task, c.ID)
		v, err := ev.view(context.Background(), inst)
		require.NoError(t, err)
		res := &Result{Key: inst.Key(), Task: inst.Task, Instance: inst.In.ID}
		ev.score(inst, v, textReply(c.Answer), res)
		total[c.Task]++
		if apis[c.Task] == nil {
			apis[c.Task] = map[string]bool{}
		}
		apis[c.Task][inst.In.TargetAPI+inst.In.ID[:strings.LastIndexByte(inst.In.ID, '-')]] = true
		if res.Pass {
			passed[c.Task]++
		} else {
			t.Logf("%s fails (%s %s, missed %q): %s", res.Key, res.Outcome, res.Detail, res.Missed, c.Answer)
		}
	}
	for _, task := range []int{TaskClarify, TaskIntrinsic, TaskToolReturn, TaskPlan} {
		require.GreaterOrEqual(t, total[task], 15, "task %d needs at least 15 controls", task)
		if task != TaskPlan { // Type V has no target API: its controls spread over groups.
			require.GreaterOrEqual(t, len(apis[task]), 10, "task %d controls must spread over APIs and scenarios", task)
		}
		rate := float64(passed[task]) / float64(total[task])
		t.Logf("task %d: %d/%d natural answers pass (%.2f)", task, passed[task], total[task], rate)
		require.GreaterOrEqual(t, rate, MinControlPass, "task %d", task)
	}
}

func TestClarificationMustBeTheAgentsOwnWords(t *testing.T) {
	ev, insts := embeddedEval(t, TaskClarify)
	var inst Instance
	for _, in := range insts {
		if in.In.TargetAPI == "weatherapi_com.time_zone_api" && len(in.In.Present) == 0 && strings.Contains(in.In.Text, "city") {
			inst = in
			break
		}
	}
	require.NotNil(t, inst.In, "a Type-III time-zone question that names a city it does not give")
	tests := []struct {
		name  string
		reply string
		pass  bool
	}{
		{"the user's question handed back", inst.In.Text, false},
		{"the question handed back twice", inst.In.Text + "\n" + inst.In.Text, false},
		{"the question, then a real request", inst.In.Text + " Which city is that? Tell me and I'll look up its time zone.", true},
		{"a real request alone", "Which city is your client in? Tell me and I'll look up its time zone.", true},
		{"the question above a list of tools that names the city", inst.In.Text + "\n\nHere are the tools I can use:\n- weatherapi_com-time_zone_api: the time zone of a city, by city name (q).", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := ev.view(context.Background(), inst)
			require.NoError(t, err)
			res := &Result{Key: inst.Key()}
			ev.score(inst, v, textReply(tt.reply), res)
			require.Equal(t, tt.pass, res.Pass, "%s: %s %v", res.Outcome, res.Detail, res.Missed)
		})
	}
}
