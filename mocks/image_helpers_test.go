package mocks

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/clock"
)

func imageTestWorld(t testing.TB) *World {
	t.Helper()
	w, err := DefaultWorld()
	require.NoError(t, err)
	return w
}

// callImage invokes a registered image stand-in with arguments and returns
// the response re-decoded from JSON (what a client sees) or the error.
func callImage(t testing.TB, tool, api string, args map[string]any) (any, error) {
	t.Helper()
	h, ok := handlerFor(tool, api)
	require.True(t, ok, "no stand-in for %s.%s", tool, api)
	c := &Call{Args: args, Session: "test", Now: clock.Default, Seed: Seed(tool, api, args), State: NewState()}
	v, err := h(context.Background(), imageTestWorld(t), c)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out, nil
}

// mustImage is callImage for calls that must succeed.
func mustImage(t testing.TB, tool, api string, args map[string]any) map[string]any {
	t.Helper()
	v, err := callImage(t, tool, api, args)
	require.NoError(t, err, "%s.%s(%v)", tool, api, args)
	m, ok := v.(map[string]any)
	require.True(t, ok, "%s.%s answered %T", tool, api, v)
	return m
}
