package agent

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOracleFollowsItsScript(t *testing.T) {
	script := &OracleScript{
		Steps: []OracleStep{
			{Name: "search", Arguments: map[string]any{"q": "Paris"}},
			{Name: "poll", Bindings: map[string]OracleSource{"id": {Step: 0, Path: "data[].id"}}, Repeat: true, Until: "status == done"},
		},
		Answer: "Done.",
	}
	ctx := WithOracleScript(context.Background(), script)
	o := Oracle{}
	msgs := []Message{{Role: RoleUser, Content: "go"}}
	step := func(result string) Reply {
		t.Helper()
		r, err := o.Respond(ctx, msgs, nil)
		require.NoError(t, err)
		msgs = append(msgs, Message{Role: RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls})
		for _, tc := range r.ToolCalls {
			msgs = append(msgs, Message{Role: RoleTool, ToolCallID: tc.ID, Content: result})
		}
		return r
	}
	r := step(`{"data":[{"id":"abc"},{"id":"def"}]}`)
	require.Equal(t, "search", r.ToolCalls[0].Name)
	require.JSONEq(t, `{"q":"Paris"}`, string(r.ToolCalls[0].Arguments))
	r = step(`{"status":"pending"}`)
	require.Equal(t, "poll", r.ToolCalls[0].Name)
	require.JSONEq(t, `{"id":"abc"}`, string(r.ToolCalls[0].Arguments), "the first value at the bound path")
	r = step(`{"status":"done"}`)
	require.Equal(t, "poll", r.ToolCalls[0].Name, "polls again until the condition holds")
	r = step("")
	require.Equal(t, "Done.", r.Content)
	require.Empty(t, r.ToolCalls)
}

func TestOracleErrors(t *testing.T) {
	_, err := Oracle{}.Respond(context.Background(), nil, nil)
	require.True(t, errors.Is(err, ErrNoOracleScript))

	script := &OracleScript{Steps: []OracleStep{
		{Name: "a"},
		{Name: "b", Bindings: map[string]OracleSource{"id": {Step: 0, Path: "missing"}}},
	}}
	ctx := WithOracleScript(context.Background(), script)
	msgs := []Message{
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "oracle_0_1", Name: "a", Arguments: json.RawMessage(`{}`)}}},
		{Role: RoleTool, ToolCallID: "oracle_0_1", Content: `{"x":1}`},
	}
	_, err = Oracle{}.Respond(ctx, msgs, nil)
	var oe *OracleError
	require.ErrorAs(t, err, &oe)
	require.Equal(t, 1, oe.Step)
}
