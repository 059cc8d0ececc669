package htmlreport

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/chainscore"
	"github.com/understudy/understudy/evaltasks/dataset"
)

func reply(content string, calls ...agent.ToolCall) *agent.Reply {
	return &agent.Reply{Content: content, ToolCalls: calls}
}

func call(name, args string) agent.ToolCall {
	return agent.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

func acceptable(values ...any) dataset.Acceptable { return dataset.Acceptable{Values: values} }

// TestGoldBesideTheAgent: each task's gold is set beside what the agent
// did, row by row, each row marked as the verdict found it.
func TestGoldBesideTheAgent(t *testing.T) {
	astronomy := &dataset.GoldCall{API: "weatherapi_com.astronomy_api", Arguments: map[string]dataset.Acceptable{
		"q":    acceptable("Brussels", "Brussels, BE"),
		"dt":   {Values: []any{"2025-06-02"}, Optional: true},
		"lang": acceptable("fr"),
	}}
	tests := []struct {
		name string
		f    evaltasks.Failure
		want goldView
	}{
		{
			name: "task 4: argument by argument, the check's fault marked",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskFill, Outcome: callcheck.OutcomeWrongValue,
				Check: &callcheck.Result{Outcome: callcheck.OutcomeWrongValue, Param: "lang"},
				Reply: reply("", call("weatherapi_com-astronomy_api", `{"q": "brussels", "lang": "nl", "days": 3}`))},
				Gold: &dataset.Instruction{GoldCall: astronomy}},
			want: goldView{Call: &callDiff{Rows: []diffRow{
				{Name: "API", Gold: "weatherapi_com.astronomy_api", Agent: "weatherapi_com.astronomy_api", Status: rowSame},
				{Name: "days", Gold: "—", Agent: "3", Status: rowExtra},
				{Name: "dt", Gold: `"2025-06-02" (optional)`, Agent: "—", Status: rowOptional},
				{Name: "lang", Gold: `"fr"`, Agent: `"nl"`, Status: rowDiffers, Blamed: true},
				{Name: "q", Gold: `"Brussels" or "Brussels, BE"`, Agent: `"brussels"`, Status: rowSame},
			}}},
		},
		{
			name: "task 4: no call, every gold argument missing",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskFill, Outcome: callcheck.OutcomeNoCall, Reply: reply("It is sunny.")},
				Gold: &dataset.Instruction{GoldCall: &dataset.GoldCall{API: "a.b", Arguments: map[string]dataset.Acceptable{"x": acceptable(1.0)}}}},
			want: goldView{Call: &callDiff{Rows: []diffRow{
				{Name: "API", Gold: "a.b", Agent: "no call", Status: rowMissing},
				{Name: "x", Gold: "1", Agent: "—", Status: rowMissing},
			}}},
		},
		{
			name: "task 4: two calls, the gold API's compared, the wrong name blamed",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskFill, Outcome: callcheck.OutcomeExtraCall,
				Reply: reply("", call("other-api", `{}`), call("a-b", `{"x": 1}`))},
				Gold: &dataset.Instruction{GoldCall: &dataset.GoldCall{API: "a.b", Arguments: map[string]dataset.Acceptable{"x": acceptable(1.0)}}}},
			want: goldView{Call: &callDiff{More: 1, Rows: []diffRow{
				{Name: "API", Gold: "a.b", Agent: "a.b", Status: rowSame},
				{Name: "x", Gold: "1", Agent: "1", Status: rowSame},
			}}},
		},
		{
			name: "task 1: a tool called where none is needed",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskDecide, Label: "negative", Outcome: evaltasks.OutcomeCall, Called: true,
				Reply: reply("", call("a-b", `{}`))}, Gold: &dataset.Instruction{TemptingAPI: "a.b"}},
			want: goldView{Call: &callDiff{Rows: []diffRow{{Name: "tool call", Gold: "not needed: answer without a tool", Agent: "called a-b", Status: rowDiffers}}},
				Answer: "", HasAnswer: true},
		},
		{
			name: "task 2: the wrong API",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskSelect, Outcome: evaltasks.OutcomeWrongAPI,
				Reply: reply("", call("c-d", `{}`))}, Gold: &dataset.Instruction{TargetAPI: "a.b", AlsoCorrect: []string{"a.c"}}},
			want: goldView{Call: &callDiff{Rows: []diffRow{{Name: "API", Gold: "a.b or a.c", Agent: "c-d", Status: rowDiffers}}}},
		},
		{
			name: "task 3: a call instead of a question, nothing checked",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskClarify, Outcome: evaltasks.OutcomeCalled, Called: true,
				Reply: reply("", call("a-b", `{"q": "x"}`))}, Gold: &dataset.Instruction{Missing: []string{"q"}}},
			want: goldView{Lists: []goldList{{Title: "Missing parameters to ask for", Rows: []diffRow{{Gold: "q", Agent: "not checked", Status: rowUnchecked}}}},
				HasAnswer: true, Note: "Not checked item by item: the reply ended as called."},
		},
		{
			name: "task 5: key points found and missed, the reference beside the answer",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskIntrinsic, Outcome: evaltasks.OutcomeMissedPoints,
				Missed: []string{"16 °C"}, Reply: reply("About 24 °C by day.")},
				Gold: &dataset.Instruction{KeyPoints: []string{"24 °C", "16 °C"}, ReferenceAnswer: "Highs of 24 °C, lows of 16 °C."}},
			want: goldView{Lists: []goldList{{Title: "Key points", Rows: []diffRow{
				{Gold: "24 °C", Agent: "found", Status: rowFound},
				{Gold: "16 °C", Agent: "missed", Status: rowMissed},
			}}}, Reference: "Highs of 24 °C, lows of 16 °C.", Answer: "About 24 °C by day.", HasAnswer: true},
		},
		{
			name: "task 6: a finding that is no gold fact closes the list",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskToolReturn, Outcome: evaltasks.OutcomeMissedFacts,
				Missed: []string{"a value of the tool result"}, Reply: reply("Done.")},
				Gold: &dataset.Instruction{ExpectedFacts: []string{"ok"}}},
			want: goldView{Lists: []goldList{{Title: "Expected facts", Rows: []diffRow{
				{Gold: "ok", Agent: "found", Status: rowFound},
				{Gold: "a value of the tool result", Agent: "missed", Status: rowMissed},
			}}}, Answer: "Done.", HasAnswer: true},
		},
		{
			name: "task 6: an error, nothing checked",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskToolReturn, Outcome: evaltasks.OutcomeError, Error: "http 400"},
				Gold: &dataset.Instruction{ExpectedFacts: []string{"ok"}}},
			want: goldView{Lists: []goldList{{Title: "Expected facts", Rows: []diffRow{{Gold: "ok", Agent: "not checked", Status: rowUnchecked}}}},
				Note: "Not checked item by item: the reply ended as error."},
		},
		{
			name: "task 7: each step beside the calls of its API, arguments marked",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskChain, Outcome: evaltasks.OutcomeNoProgress,
				Calls: []evaltasks.ExecutedCall{
					{Name: "tasty-recipes_list", API: "tasty.recipes_list", Arguments: json.RawMessage(`{"from": 0, "size": 10}`)},
					{Name: "tasty-recipes_list_similarities", API: "tasty.recipes_list_similarities", Arguments: json.RawMessage(`{"recipe_id": 8849}`)},
				},
				Breaks: []chainscore.Break{{Step: 1, API: "tasty.recipes_list", Kind: "wrong_arguments", Reason: `q is missing; the user said "tacos"`}}},
				Gold: &dataset.Instruction{Chain: []dataset.GoldStep{
					{API: "tasty.recipes_list", Arguments: map[string]any{"from": 0.0, "q": "tacos", "size": 20.0}},
					{API: "tasty.recipes_list_similarities", Bindings: map[string]dataset.Binding{"recipe_id": {Step: 0, Path: "results[].id"}}},
					{API: "tasty.recipes_get_more_info", Bindings: map[string]dataset.Binding{"id": {Step: 1, Path: "results[].id"}}},
				}}},
			want: goldView{Chain: []chainRow{
				{Step: 1, API: "tasty.recipes_list", Gold: []goldArg{{`from = 0`, rowSame}, {`q = "tacos"`, rowMissing}, {`size = 20`, rowDiffers}},
					Agent: []string{`{"from":0,"size":10}`}, Status: rowDiffers, Reason: `wrong arguments: q is missing; the user said "tacos"`},
				{Step: 2, API: "tasty.recipes_list_similarities", Gold: []goldArg{{Text: "recipe_id ← step 1: results[].id"}},
					Agent: []string{`{"recipe_id":8849}`}, Status: rowSame, Reason: "done"},
				{Step: 3, API: "tasty.recipes_get_more_info", Gold: []goldArg{{Text: "id ← step 2: results[].id"}}, Status: rowSame, Reason: "done"},
			}},
		},
		{
			name: "task 8: group APIs and key steps",
			f: evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskPlan, Outcome: evaltasks.OutcomeLowCoverage,
				Missed: []string{"b.c", "list headlines"}, Reply: reply("1. Call a.b.")},
				Gold: &dataset.Instruction{GroupAPIs: []string{"a.b", "b.c"}, KeySteps: []string{"find the place", "list headlines"}}},
			want: goldView{Lists: []goldList{
				{Title: "APIs of the group", Rows: []diffRow{{Gold: "a.b", Agent: "found", Status: rowFound}, {Gold: "b.c", Agent: "missed", Status: rowMissed}}},
				{Title: "Key steps", Rows: []diffRow{{Gold: "find the place", Agent: "found", Status: rowFound}, {Gold: "list headlines", Agent: "missed", Status: rowMissed}}},
			}, Answer: "1. Call a.b.", HasAnswer: true},
		},
		{
			name: "a failure without its gold record: nothing to set beside",
			f:    evaltasks.Failure{Result: &evaltasks.Result{Task: evaltasks.TaskFill}},
			want: goldView{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, newGoldView(tt.f))
		})
	}
}
