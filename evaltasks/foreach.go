package evaltasks

import (
	"context"
	"sync"
)

// ForEach calls do for every item from up to workers goroutines (at least
// one), the way every suite runs its instances. The first error do returns
// cancels the context the other calls run under and stops handing out
// items; ForEach returns that error once every started call has ended. A
// call that fails only because the run was cancelled should return nil,
// so that the error that stopped the run is the one reported.
func ForEach[T any](ctx context.Context, items []T, workers int, do func(ctx context.Context, item T) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	jobs := make(chan T)
	for range max(workers, 1) {
		wg.Go(func() {
			for item := range jobs {
				if err := do(ctx, item); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
				}
			}
		})
	}
feed:
	for _, item := range items {
		if ctx.Err() != nil {
			break
		}
		select {
		case jobs <- item:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return firstErr
}
