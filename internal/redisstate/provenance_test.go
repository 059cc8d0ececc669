package redisstate_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/sandbox"
)

// stacks builds n sandboxes sharing the Redis m.
func stacks(t *testing.T, m *miniredis.Miniredis, n int) []*assemble.Stack {
	t.Helper()
	var out []*assemble.Stack
	for range n {
		st, err := assemble.Build(assemble.Config{Redis: "redis://" + m.Addr() + "/0"})
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		out = append(out, st)
	}
	return out
}

func firstID(t *testing.T, res *sandbox.Result) string {
	t.Helper()
	var body struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(res.Response, &body))
	require.NotEmpty(t, body.Data, string(res.Response))
	return body.Data[0].ID
}

// TestProvenanceAcrossReplicasAndReset: an ID one replica issued is
// accepted by another in the same session only; a reset on any replica
// makes every replica forget it.
func TestProvenanceAcrossReplicasAndReset(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	st := stacks(t, m, 3)
	call := func(i int, session, api string, args map[string]any) *sandbox.Result {
		t.Helper()
		res, err := st[i].Engine.Call(ctx, sandbox.Request{Tool: "skyscanner80", API: api, Arguments: args, Session: session})
		require.NoError(t, err)
		return res
	}
	from := firstID(t, call(0, "s", "flights_auto_complete", map[string]any{"query": "Lisbon"}))
	to := firstID(t, call(1, "s", "flights_auto_complete", map[string]any{"query": "London"}))
	search := map[string]any{"fromId": from, "toId": to, "departDate": "2025-06-10"}
	tests := []struct {
		name    string
		replica int
		session string
		status  int
	}{
		{"the session's IDs, on a third replica", 2, "s", 200},
		{"on the first", 0, "s", 200},
		{"another session", 1, "t", 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := call(tc.replica, tc.session, "flights_search_one_way", search)
			require.Equal(t, tc.status, res.Status, string(res.Response))
			if tc.status == 200 {
				require.Empty(t, res.Violations)
			}
		})
	}

	st[1].Engine.Reset("s")
	for i := range st {
		res := call(i, "s", "flights_search_one_way", search)
		require.Equal(t, 400, res.Status, "replica %d still knew the IDs after the reset: %s", i, res.Response)
	}
	// The session starts afresh everywhere.
	from = firstID(t, call(2, "s", "flights_auto_complete", map[string]any{"query": "Lisbon"}))
	to = firstID(t, call(0, "s", "flights_auto_complete", map[string]any{"query": "London"}))
	res := call(1, "s", "flights_search_one_way", map[string]any{"fromId": from, "toId": to, "departDate": "2025-06-10"})
	require.Equal(t, 200, res.Status, string(res.Response))
}
