package mocks

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/toolset/tbfile"
)

// TestUserToolNamedLikeBuiltin: a user's tool file that has a built-in
// tool's name is answered from its own documentation, never by the
// built-in stand-in's handlers, even for an API name they share.
func TestUserToolNamedLikeBuiltin(t *testing.T) {
	m, err := New(Options{})
	require.NoError(t, err)
	builtin := standintest.Tool(t, "tasty")
	require.NotEmpty(t, builtin.APIs)
	shared := builtin.APIs[0].Name
	require.True(t, m.HasStandIn(builtin.APIs[0]))

	tool, err := tbfile.LoadFile([]byte(`{"tool_name": "Tasty", "standardized_name": "tasty", "api_list": [
		{"name": "`+shared+`", "method": "GET", "url": "https://tasty.p.rapidapi.com/x", "template_response": {"recipe_title": "str", "servings": "int"}}]}`), "Food", "user/Food/tasty.json")
	require.NoError(t, err)
	a := tool.APIs[0]
	require.False(t, m.HasStandIn(a), "the user's file answers")
	body, err := m.Call(context.Background(), a, map[string]any{}, "")
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(body, &v))
	require.Contains(t, v, "recipe_title", "the answer has the user's template's shape: %s", body)
	require.Contains(t, v, "servings")
}
