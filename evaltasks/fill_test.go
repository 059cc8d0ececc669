package evaltasks

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/dataset"
)

func TestScoreFill(t *testing.T) {
	st := testStack(t)
	ev := newEvaluator(st, 0, nil)
	gold := &dataset.GoldCall{API: "currency_exchange.exchange", Arguments: map[string]dataset.Acceptable{"from": {Values: []any{"USD"}}, "to": {Values: []any{"EUR"}}}}
	call := agent.ToolCall{Name: "currency_exchange-exchange", Arguments: json.RawMessage(`{"from":"USD","to":"EUR"}`)}
	tests := []struct {
		name     string
		gold     *dataset.GoldCall
		calls    []agent.ToolCall
		outcome  string
		pass     bool
		errKind  string
		hasCheck bool
	}{
		{"the gold call", gold, []agent.ToolCall{call}, callcheck.OutcomeCorrect, true, "", true},
		{"no call", gold, nil, callcheck.OutcomeNoCall, false, "", false},
		{"an extra call", gold, []agent.ToolCall{call, call}, callcheck.OutcomeExtraCall, false, "", true},
		{"a gold call without acceptable values", &dataset.GoldCall{API: gold.API, Arguments: map[string]dataset.Acceptable{"from": {Values: []any{"USD"}}, "to": {}}}, []agent.ToolCall{call}, OutcomeError, false, ErrorData, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &dataset.Instruction{ID: "x", Type: dataset.TypeSufficient, TargetAPI: gold.API, GoldCall: tt.gold}
			res := &Result{}
			ev.score(Instance{Task: TaskFill, In: in}, view{}, agent.Reply{ToolCalls: tt.calls}, res)
			require.Equal(t, tt.outcome, res.Outcome)
			require.Equal(t, tt.pass, res.Pass)
			require.Equal(t, tt.errKind, res.ErrorKind)
			require.Equal(t, tt.hasCheck, res.Check != nil)
		})
	}
}
