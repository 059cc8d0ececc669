package redisstate

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/sandbox"
)

func TestTracesSharedCallNumbersAndOrder(t *testing.T) {
	ctx := context.Background()
	_, rs := newShared(t, 2, Options{})
	a, b := rs[0].Traces(SessionOptions{}), rs[1].Traces(SessionOptions{})
	_, ok, err := a.Trace(ctx, "s", "s")
	require.NoError(t, err)
	require.False(t, ok)

	var seqs []int
	for i := range 4 {
		tr := []*Traces{a, b}[i%2]
		slot, err := tr.Begin(ctx, "s")
		require.NoError(t, err)
		seqs = append(seqs, slot.Seq)
	}
	require.Equal(t, []int{1, 2, 3, 4}, seqs, "one counter for the replicas")
	// Finished out of order, on either replica: the trace reads in call order.
	for _, seq := range []int{3, 1, 4, 2} {
		tr := []*Traces{a, b}[seq%2]
		rec := sandbox.CallRecord{Seq: seq, Tool: "t", API: "x", Arguments: json.RawMessage(`{}`), Status: 200, Source: "mock"}
		if seq == 4 {
			rec.Violations = []sandbox.Violation{{Param: "id", Kind: "fabricated"}}
		}
		require.NoError(t, tr.Append(ctx, sandbox.TraceSlot{Key: "s", Seq: seq}, rec))
	}
	got, ok, err := b.Trace(ctx, "s", "the-id")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "the-id", got.ID)
	require.Len(t, got.Calls, 4)
	for i, c := range got.Calls {
		require.Equal(t, i+1, c.Seq)
	}
	require.Equal(t, 1, got.Violations)

	existed, err := a.Remove(ctx, "s")
	require.NoError(t, err)
	require.True(t, existed)
	_, ok, err = b.Trace(ctx, "s", "s")
	require.NoError(t, err)
	require.False(t, ok)
	require.NoError(t, b.Append(ctx, sandbox.TraceSlot{Key: "s", Seq: 5}, sandbox.CallRecord{Seq: 5}), "a call still running when the session was reset")
	_, ok, err = b.Trace(ctx, "s", "s")
	require.NoError(t, err)
	require.False(t, ok, "is not traced")
	existed, err = a.Remove(ctx, "s")
	require.NoError(t, err)
	require.False(t, existed)
}

func TestTracesBounds(t *testing.T) {
	ctx := context.Background()
	rec := func(seq int) sandbox.CallRecord {
		return sandbox.CallRecord{Seq: seq, Tool: "t", API: "x", Arguments: json.RawMessage(`{"pad":"` + fmt.Sprint(seq%10) + `"}`), Status: 200}
	}
	run := func(tr *Traces, session string, calls int) {
		for range calls {
			slot, err := tr.Begin(ctx, session)
			require.NoError(t, err)
			require.NoError(t, tr.Append(ctx, slot, rec(slot.Seq)))
		}
	}
	t.Run("bytes per session, never calls: the newest kept", func(t *testing.T) {
		_, rs := newShared(t, 1, Options{})
		size, err := json.Marshal(rec(100))
		require.NoError(t, err)
		bound := int64(sessionOverhead + 1 + 40*len(size))
		tr := rs[0].Traces(SessionOptions{MaxSessionTraceBytes: bound})
		run(tr, "s", 500)
		got, _, err := tr.Trace(ctx, "s", "s")
		require.NoError(t, err)
		require.Equal(t, 500, got.Dropped+len(got.Calls))
		require.Equal(t, 500, got.Calls[len(got.Calls)-1].Seq)
		require.Equal(t, got.Dropped+1, got.Calls[0].Seq, "the oldest calls went")
		require.LessOrEqual(t, len(got.Calls), 40)
		require.GreaterOrEqual(t, len(got.Calls), 25, "down to three quarters of the bound, no further")
	})
	t.Run("sessions, least recently used first, with their provenance", func(t *testing.T) {
		m, rs := newShared(t, 1, Options{})
		now := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
		clk := func() time.Time { now = now.Add(time.Millisecond); return now }
		tr := rs[0].Traces(SessionOptions{MaxSessions: 3, Clock: clk})
		run(tr, "a", 1)
		run(tr, "b", 1)
		run(tr, "c", 1)
		run(tr, "a", 1) // a is recent again
		run(tr, "d", 1) // b goes
		for s, want := range map[string]bool{"a": true, "b": false, "c": true, "d": true} {
			_, ok, err := tr.Trace(ctx, s, s)
			require.NoError(t, err)
			require.Equal(t, want, ok, s)
		}
		gen, err := m.Get("understudy:prov:{b}:gen")
		require.NoError(t, err)
		require.Equal(t, "1", gen, "every replica forgets what b's calls taught it")
	})
	t.Run("bytes", func(t *testing.T) {
		_, rs := newShared(t, 1, Options{})
		one, _ := json.Marshal(rec(1))
		// Room for two sessions of two calls each, not three.
		budget := int64(2 * (sessionOverhead + 1 + 2*len(one)))
		tr := rs[0].Traces(SessionOptions{MaxTraceBytes: budget})
		run(tr, "a", 2)
		run(tr, "b", 2)
		run(tr, "c", 2)
		_, ok, err := tr.Trace(ctx, "a", "a")
		require.NoError(t, err)
		require.False(t, ok, "the least recently used session went")
		got, ok, err := tr.Trace(ctx, "c", "c")
		require.NoError(t, err)
		require.True(t, ok)
		require.Len(t, got.Calls, 2)
		// One session alone past the budget keeps its latest calls.
		run(tr, "c", 20)
		got, _, err = tr.Trace(ctx, "c", "c")
		require.NoError(t, err)
		require.Less(t, len(got.Calls), 22)
		require.Positive(t, got.Dropped)
		require.Equal(t, 22, got.Calls[len(got.Calls)-1].Seq)
	})
	t.Run("down", func(t *testing.T) {
		m, rs := newShared(t, 1, Options{})
		tr := rs[0].Traces(SessionOptions{})
		m.Close()
		_, err := tr.Begin(ctx, "s")
		require.Equal(t, sandbox.KindUnavailable, sandbox.KindOf(err), "%v", err)
		_, _, err = tr.Trace(ctx, "s", "s")
		require.Equal(t, sandbox.KindUnavailable, sandbox.KindOf(err), "%v", err)
	})
	t.Run("down, with local fallback", func(t *testing.T) {
		m, rs := newShared(t, 1, Options{FallbackLocal: true})
		tr := rs[0].Traces(SessionOptions{})
		m.Close()
		run(tr, "s", 3)
		got, ok, err := tr.Trace(ctx, "s", "s")
		require.NoError(t, err)
		require.True(t, ok)
		require.Len(t, got.Calls, 3, "kept by this replica meanwhile")
		existed, err := tr.Remove(ctx, "s")
		require.NoError(t, err)
		require.True(t, existed)
	})
}
