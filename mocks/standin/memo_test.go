package standin

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/world"
)

// counted is a pure stand-in that counts its runs: it echoes its
// arguments and the clock, padded to the size asked for.
func counted(runs *atomic.Int64) Handler {
	return func(_ context.Context, _ *world.World, c *Call) (any, error) {
		runs.Add(1)
		if c.ArgString("refuse") != "" {
			return nil, errors.New("refused")
		}
		return map[string]any{"args": c.Args, "now": c.Now.Format(time.RFC3339), "b": 2.50, "a": "<&>",
			"pad": strings.Repeat("x", c.ArgInt("pad", 0))}, nil
	}
}

func TestMemoSameBytesOnce(t *testing.T) {
	var runs atomic.Int64
	h := counted(&runs)
	m := Memo(1<<20, h)
	now := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	w1, w2 := &world.World{}, &world.World{}
	call := func(w *world.World, args map[string]any, now time.Time) (any, error) {
		return m(context.Background(), w, &Call{Args: args, Now: now})
	}
	want, err := h(context.Background(), w1, &Call{Args: map[string]any{"q": "Paris"}, Now: now})
	require.NoError(t, err)
	wantBytes, err := canon.JSON(want)
	require.NoError(t, err)
	runs.Store(0)

	for i := range 3 {
		v, err := call(w1, map[string]any{"q": "Paris"}, now)
		require.NoError(t, err)
		require.IsType(t, Encoded(nil), v)
		got, err := Encode(v)
		require.NoError(t, err)
		require.Equal(t, string(wantBytes), string(got), "call %d", i)
		again, err := canon.JSON(v)
		require.NoError(t, err)
		require.Equal(t, string(wantBytes), string(again), "canonical JSON of an Encoded is itself")
		marshaled, err := json.Marshal(v)
		require.NoError(t, err)
		require.JSONEq(t, string(wantBytes), string(marshaled), "encoding/json reads the same document")
	}
	require.EqualValues(t, 1, runs.Load(), "computed once")

	for _, tc := range []struct {
		name string
		w    *world.World
		args map[string]any
		now  time.Time
	}{
		{"other arguments", w1, map[string]any{"q": "Rome"}, now},
		{"other clock", w1, map[string]any{"q": "Paris"}, now.Add(time.Hour)},
		{"other world", w2, map[string]any{"q": "Paris"}, now},
	} {
		runs.Store(0)
		_, err := call(tc.w, tc.args, tc.now)
		require.NoError(t, err)
		require.EqualValues(t, 1, runs.Load(), tc.name)
	}

	runs.Store(0)
	for range 2 {
		_, err := call(w1, map[string]any{"refuse": "yes"}, now)
		require.EqualError(t, err, "refused")
	}
	require.EqualValues(t, 2, runs.Load(), "an error is never kept")
}

func TestMemoBounded(t *testing.T) {
	var runs atomic.Int64
	const max = 64 << 10
	m := Memo(max, counted(&runs))
	now := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	call := func(q string, pad int) {
		_, err := m(context.Background(), nil, &Call{Args: map[string]any{"q": q, "pad": float64(pad)}, Now: now})
		require.NoError(t, err)
	}
	// Answers of about 4 KB: 16 fit, the 17th drops the least recently used.
	for i := range 16 {
		call(string(rune('a'+i)), 3900)
	}
	call("a", 3900) // a is now the most recently used
	runs.Store(0)
	call("q", 3900)
	require.EqualValues(t, 1, runs.Load())
	call("a", 3900)
	require.EqualValues(t, 1, runs.Load(), "a was kept")
	call("b", 3900)
	require.EqualValues(t, 2, runs.Load(), "b, the least recently used, was dropped")

	runs.Store(0)
	call("huge", max/8)
	call("huge", max/8)
	require.EqualValues(t, 2, runs.Load(), "an answer above an eighth of the bound is not kept")
}

func TestMemoConcurrent(t *testing.T) {
	var runs atomic.Int64
	m := Memo(1<<20, counted(&runs))
	now := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	got := make([][]string, 4)
	for g := range got {
		wg.Go(func() {
			for i := range 50 {
				v, err := m(context.Background(), nil, &Call{Args: map[string]any{"q": float64(i % 10)}, Now: now})
				if err == nil {
					got[g] = append(got[g], string(v.(Encoded)))
				}
			}
		})
	}
	bounded.Wait(t, &wg, "concurrent calls")
	for g := range got {
		require.Len(t, got[g], 50)
		require.Equal(t, got[0], got[g])
	}
	require.LessOrEqual(t, runs.Load(), int64(4*10), "at most one run per caller and query")
}

func TestRegistryMemoized(t *testing.T) {
	var pure, plain atomic.Int64
	r := NewRegistry()
	r.AddPure("t", "pure", counted(&pure))
	r.Add("t", "plain", counted(&plain))
	m := r.Memoized(1 << 20)
	require.Equal(t, r.Keys(), m.Keys())
	c := &Call{Args: map[string]any{"q": "x"}}
	for range 3 {
		for _, reg := range []*Registry{r, m} {
			for _, api := range []string{"pure", "plain"} {
				h, ok := reg.Lookup("t", api)
				require.True(t, ok)
				_, err := h(context.Background(), nil, c)
				require.NoError(t, err)
			}
		}
	}
	require.EqualValues(t, 3+1, pure.Load(), "the registry's own handler runs every time, the memoized one once")
	require.EqualValues(t, 6, plain.Load(), "a stand-in not added as pure is never memoized")
	require.Panics(t, func() { r.AddPure("t", "plain", counted(&plain)) }, "registered twice")
}
