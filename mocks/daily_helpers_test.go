package mocks

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/sandbox"
)

var (
	dailyWorldOnce sync.Once
	dailyWorldVal  *World
	dailyWorldErr  error
)

// dailyWorld loads the world once for the daily-life stand-in tests.
func dailyWorld(t testing.TB) *World {
	t.Helper()
	dailyWorldOnce.Do(func() {
		dailyWorldVal, dailyWorldErr = loadDailyWorld()
	})
	require.NoError(t, dailyWorldErr)
	return dailyWorldVal
}

// dailyCall runs one stand-in the way the engine does: seed from the
// canonical arguments, the frozen clock, a fresh session state.
func dailyCall(t testing.TB, tool, api string, args map[string]any) (any, error) {
	t.Helper()
	return dailyCallAt(t, clock.Default, tool, api, args)
}

func dailyCallAt(t testing.TB, now time.Time, tool, api string, args map[string]any) (any, error) {
	t.Helper()
	w := dailyWorld(t)
	h, ok := handlerFor(tool, api)
	require.True(t, ok, "no stand-in for %s.%s", tool, api)
	if args == nil {
		args = map[string]any{}
	}
	c := &Call{Args: args, Session: "test", Now: now, Seed: Seed(tool, api, args), State: NewState()}
	return h(context.Background(), w, c)
}

// dailyJSON returns the canonical JSON of a response, decoded back into
// plain JSON values for path assertions.
func dailyJSON(t testing.TB, v any) (any, []byte) {
	t.Helper()
	b, err := canon.JSON(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out, b
}

// dailyAPIError asserts err is an *sandbox.Rejection with the status and returns its body as JSON values.
func dailyAPIError(t testing.TB, err error, status int) map[string]any {
	t.Helper()
	require.Error(t, err)
	ae, ok := err.(*sandbox.Rejection)
	require.True(t, ok, "want *sandbox.Rejection, got %T: %v", err, err)
	require.Equal(t, status, ae.Status)
	body, _ := dailyJSON(t, ae.Body)
	m, ok := body.(map[string]any)
	require.True(t, ok, "error body is %T", body)
	return m
}

// dailyGolden compares (or with -update rewrites) a golden file of
// named responses.
func dailyGolden(t *testing.T, name string, cases []dailyGoldenCase) {
	t.Helper()
	out := map[string]any{}
	for _, gc := range cases {
		v, err := dailyCall(t, gc.tool, gc.api, gc.args)
		if err != nil {
			ae, ok := err.(*sandbox.Rejection)
			require.True(t, ok, "%s: %v", gc.name, err)
			v = map[string]any{"status": ae.Status, "error": ae.Body}
		}
		out[gc.name] = v
	}
	goldenJSON(t, name, out)
}

type dailyGoldenCase struct {
	name, tool, api string
	args            map[string]any
}
