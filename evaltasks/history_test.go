package evaltasks

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
)

// instruction is a record of the shipped dataset by ID.
func instruction(t *testing.T, id string) *dataset.Instruction {
	t.Helper()
	for i, in := range embeddedData(t) {
		if in.ID == id {
			return &embeddedData(t)[i]
		}
	}
	t.Fatalf("no instruction %s", id)
	return nil
}

// TestEarlierTurnsAreShown: an instruction that speaks of earlier turns
// ("the destination you found") is given them: each call the assistant
// made, with its result, between the date line and the user's text. The
// value it refers to is in them, and asking for it is over-asking.
func TestEarlierTurnsAreShown(t *testing.T) {
	ev := newEvaluator(testStack(t), 0, nil)
	in := instruction(t, "III-booking_com.search_hotels-02")
	require.NotEmpty(t, in.History)
	v, err := ev.view(context.Background(), Instance{Task: TaskClarify, In: in})
	require.NoError(t, err)
	roles := []string{}
	for _, m := range v.messages {
		roles = append(roles, m.Role)
	}
	require.Equal(t, []string{agent.RoleSystem, agent.RoleUser, agent.RoleAssistant, agent.RoleTool, agent.RoleUser}, roles, "the user asks before the assistant's earlier calls")
	require.Equal(t, in.Earlier, v.messages[1].Content)
	call := v.messages[2].ToolCalls[0]
	require.Equal(t, "booking_com-search_hotel_destination", call.Name)
	require.JSONEq(t, `{"query": "Lisbon"}`, string(call.Arguments))
	require.Equal(t, call.ID, v.messages[3].ToolCallID)
	require.Contains(t, v.messages[3].Content, in.Present["dest_id"].(string), "the value the text refers to is in the turn shown")
	require.Equal(t, in.Text, v.messages[4].Content)

	// Task 6: the earlier turns come first; the answer is judged on the
	// instruction's turn alone.
	in = instruction(t, "II-tasty.recipes_get_more_info-01")
	require.NotEmpty(t, in.History)
	require.Empty(t, in.Chain, "the turns that minted the ID are shown, not run unseen")
	v, err = ev.view(context.Background(), Instance{Task: TaskToolReturn, In: in})
	require.NoError(t, err)
	require.Equal(t, agent.RoleUser, v.messages[len(v.messages)-3].Role)
	require.Equal(t, agent.RoleUser, v.messages[1].Role)
	require.Equal(t, "tasty-recipes_list", v.messages[2].ToolCalls[0].Name)
	user, tool := conversation(v)
	require.Equal(t, in.Text, user)
	require.Equal(t, v.messages[len(v.messages)-1].Content, tool, "only the gold call's result")
	require.False(t, strings.Contains(tool, v.messages[3].Content))
}
