package evaltasks_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/evaltasks"
)

func TestForEach(t *testing.T) {
	errStop := errors.New("stop")
	items := make([]int, 50)
	for i := range items {
		items[i] = i
	}
	for _, tc := range []struct {
		name    string
		workers int
		failAt  int // -1: never
		wantErr error
	}{
		{"every item, one worker", 1, -1, nil},
		{"every item, no workers asked means one", 0, -1, nil},
		{"every item, four workers", 4, -1, nil},
		{"an error stops the run, one worker", 1, 3, errStop},
		{"an error stops the run, four workers", 4, 10, errStop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var (
				mu        sync.Mutex
				seen      = map[int]int{}
				running   atomic.Int32
				most      atomic.Int32
				afterStop atomic.Int32
			)
			err := evaltasks.ForEach(context.Background(), items, tc.workers, func(ctx context.Context, i int) error {
				n := running.Add(1)
				defer running.Add(-1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				if ctx.Err() != nil {
					afterStop.Add(1)
					return nil // cancelled: not the error that stopped the run
				}
				mu.Lock()
				seen[i]++
				mu.Unlock()
				if i == tc.failAt {
					return errStop
				}
				return nil
			})
			require.ErrorIs(t, err, tc.wantErr)
			require.LessOrEqual(t, int(most.Load()), max(tc.workers, 1))
			for i, n := range seen {
				require.Equal(t, 1, n, "item %d ran more than once", i)
			}
			if tc.wantErr == nil {
				require.Len(t, seen, len(items))
				require.Zero(t, afterStop.Load())
				return
			}
			require.Contains(t, seen, tc.failAt)
			// Items are no longer handed out once the run stopped: at
			// most one per worker was already on its way.
			require.LessOrEqual(t, int(afterStop.Load()), max(tc.workers, 1))
			require.Less(t, len(seen)+int(afterStop.Load()), len(items))
		})
	}
}

// A cancelled parent stops handing out items and is not an error of its own.
func TestForEachParentCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	err := evaltasks.ForEach(ctx, []int{1, 2, 3, 4, 5}, 1, func(ctx context.Context, i int) error {
		ran.Add(1)
		if i == 2 {
			cancel()
		}
		return nil
	})
	require.NoError(t, err)
	require.Less(t, int(ran.Load()), 5)
}
