package retry_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/retry"
)

func TestSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.ErrorIs(t, retry.Sleep(ctx, time.Hour), context.Canceled, "a cancelled context stops the wait at once")
	require.NoError(t, retry.Sleep(context.Background(), time.Nanosecond))
	require.NoError(t, retry.Sleep(context.Background(), 0))
}

func TestAfter(t *testing.T) {
	now := time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		hdr  http.Header
		want time.Duration
	}{
		{"absent", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{"fraction", http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{"milliseconds win", http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"3"}}, 250 * time.Millisecond},
		{"date", http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{"negative", http.Header{"Retry-After": {"-1"}}, 0},
		{"absurd", http.Header{"Retry-After": {"1e12"}}, 0},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) { require.Equal(t, tc.want, retry.After(tc.hdr, now)) })
	}
}

func TestDo(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name     string
		retries  int
		results  []error // what attempt n returns; the last repeats
		again    bool
		attempts int
		err      error
		waits    []time.Duration
	}{
		{"success at once", 3, []error{nil}, true, 1, nil, nil},
		{"success on the third try", 3, []error{boom, boom, nil}, true, 3, nil, []time.Duration{0, time.Second}},
		{"retries used up", 2, []error{boom}, true, 3, boom, []time.Duration{0, time.Second}},
		{"not worth retrying", 5, []error{boom}, false, 1, boom, nil},
		{"no retries", 0, []error{boom}, true, 1, boom, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var waits []time.Duration
			p := retry.Policy{Retries: tc.retries, Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
			n, err := retry.Do(context.Background(), p, func(n int) (time.Duration, bool, error) {
				return time.Duration(n) * time.Second, tc.again, tc.results[min(n, len(tc.results)-1)]
			})
			require.Equal(t, tc.attempts, n)
			require.Equal(t, tc.err, err)
			require.Equal(t, tc.waits, waits)
		})
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n, err := retry.Do(ctx, retry.Policy{Retries: 3}, func(int) (time.Duration, bool, error) { return time.Hour, true, boom })
	require.Equal(t, 1, n)
	var we *retry.WaitError
	require.ErrorAs(t, err, &we)
	require.Equal(t, time.Hour, we.Wait)
	require.ErrorIs(t, err, context.Canceled)
}

func TestBackoff(t *testing.T) {
	lowest := func(int64) int64 { return 0 }
	highest := func(n int64) int64 { return n - 1 }
	for _, tc := range []struct {
		n        int
		low, top time.Duration
	}{
		{0, 125 * time.Millisecond, 250 * time.Millisecond},
		{1, 250 * time.Millisecond, 500 * time.Millisecond},
		{3, time.Second, 2 * time.Second},
		{10, 1500 * time.Millisecond, 3 * time.Second}, // capped
		{1000, 1500 * time.Millisecond, 3 * time.Second},
	} {
		require.Equal(t, tc.low, retry.Backoff(250*time.Millisecond, 3*time.Second, tc.n, lowest), "retry %d", tc.n)
		require.Equal(t, tc.top, retry.Backoff(250*time.Millisecond, 3*time.Second, tc.n, highest), "retry %d", tc.n)
		got := retry.Backoff(250*time.Millisecond, 3*time.Second, tc.n, nil)
		require.True(t, got >= tc.low && got <= tc.top, "retry %d: %v", tc.n, got)
	}
	require.Zero(t, retry.Backoff(0, time.Second, 3, nil))
}
