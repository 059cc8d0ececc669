package redisstate

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/sandbox"
)

// stepClock is a clock the test moves by hand.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *stepClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newShared starts an in-process Redis and n replicas' connections to it.
func newShared(t *testing.T, n int, opts Options) (*miniredis.Miniredis, []*Shared) {
	t.Helper()
	m := miniredis.RunT(t)
	var out []*Shared
	for range n {
		rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
		s := New(rdb, m.Addr(), opts)
		t.Cleanup(func() { s.Close() })
		out = append(out, s)
	}
	return m, out
}

// outcome is how a limiter answered, comparable between limiters.
type outcome struct {
	Allowed    bool
	Quota      bool
	RetryAfter time.Duration
	Limit      string
}

func outcomeOf(t *testing.T, err error) outcome {
	t.Helper()
	if err == nil {
		return outcome{Allowed: true}
	}
	var rl *sandbox.RateLimitError
	require.ErrorAs(t, err, &rl)
	// Redis keeps time in microseconds; Retry-After is sent in seconds.
	return outcome{Quota: rl.Quota, RetryAfter: rl.RetryAfter.Round(time.Microsecond), Limit: rl.Limit}
}

// TestLimiterAnswersLikeTheLocalOne: the same calls at the same times get
// the same answers from the in-memory limiter and from three replicas
// sharing one Redis, taking turns.
func TestLimiterAnswersLikeTheLocalOne(t *testing.T) {
	limits := map[string]sandbox.Limit{"demo_weather": {PerSecond: 1, Burst: 2, PerDay: 5}, "*": {PerSecond: 3}}
	type step struct {
		after  time.Duration
		tool   string
		client string
	}
	steps := []step{
		{0, "demo_weather", "a"}, {0, "demo_weather", "a"}, {0, "demo_weather", "a"}, // burst 2, then wait 1 s
		{0, "demo_weather", "b"},                      // clients apart
		{500 * time.Millisecond, "demo_weather", "a"}, // still 0.5 s to wait
		{500 * time.Millisecond, "demo_weather", "a"},
		{time.Second, "demo_weather", "a"}, {time.Second, "demo_weather", "a"},
		{time.Second, "demo_weather", "a"}, // quota of 5 used up: retry at midnight
		{10 * time.Minute, "demo_weather", "a"},
		{24 * time.Hour, "demo_weather", "a"},                                      // a new day
		{0, "other", "a"}, {0, "other", "a"}, {0, "other", "a"}, {0, "other", "a"}, // "*": 3/s, burst 3
		{0, "unlimited_if_no_star", "a"},
	}
	start := time.Date(2025, 6, 2, 22, 0, 0, 0, time.UTC)
	localClk, sharedClk := &stepClock{t: start}, &stepClock{t: start}
	local := sandbox.NewLimiter(limits, localClk)
	_, replicas := newShared(t, 3, Options{})
	var shared []sandbox.Limiter
	for _, r := range replicas {
		shared = append(shared, r.Limiter(limits, sharedClk))
	}
	ctx := context.Background()
	var answers []outcome
	for i, s := range steps {
		localClk.add(s.after)
		sharedClk.add(s.after)
		want := outcomeOf(t, local.Allow(ctx, s.tool, s.client))
		got := outcomeOf(t, shared[i%3].Allow(ctx, s.tool, s.client))
		require.Equal(t, want, got, "step %d %+v", i, s)
		answers = append(answers, got)
	}
	// The sequence exercises every answer.
	require.Contains(t, answers, outcome{Limit: "1/s", RetryAfter: time.Second})
	require.Contains(t, answers, outcome{Limit: "1/s", RetryAfter: 500 * time.Millisecond})
	require.Contains(t, answers, outcome{Quota: true, Limit: "5/day", RetryAfter: time.Hour + 49*time.Minute + 56*time.Second})
}

// TestQuotaIsSharedExactly: 50 concurrent calls on each of three replicas
// against a quota of 20 a day allow exactly 20.
func TestQuotaIsSharedExactly(t *testing.T) {
	limits := map[string]sandbox.Limit{"*": {PerDay: 20}}
	_, replicas := newShared(t, 3, Options{})
	var allowed sync.WaitGroup
	var mu sync.Mutex
	n := 0
	for _, r := range replicas {
		l := r.Limiter(limits, nil)
		for range 50 {
			allowed.Go(func() {
				err := l.Allow(context.Background(), "t", "c")
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					n++
					return
				}
				var rl *sandbox.RateLimitError
				if !errors.As(err, &rl) || !rl.Quota {
					n = -1000 // not a quota refusal: fails below
				}
			})
		}
	}
	bounded.Wait(t, &allowed, "150 calls over three replicas")
	require.Equal(t, 20, n)
}

func TestLimiterWhenRedisIsDown(t *testing.T) {
	limits := map[string]sandbox.Limit{"*": {PerDay: 2}}
	ctx := context.Background()

	t.Run("503 without fallback, then recovers", func(t *testing.T) {
		m, rs := newShared(t, 1, Options{})
		l := rs[0].Limiter(limits, nil)
		require.NoError(t, l.Allow(ctx, "t", "c"))
		m.Close()
		err := l.Allow(ctx, "t", "c")
		require.Equal(t, sandbox.KindUnavailable, sandbox.KindOf(err), "%v", err)
		h, healthy := rs[0].Health(ctx)
		require.False(t, healthy)
		require.Equal(t, false, h["connected"])
		require.NoError(t, m.Restart())
		require.NoError(t, l.Allow(ctx, "t", "c"), "the refused call took nothing")
		require.Equal(t, sandbox.KindRateLimited, sandbox.KindOf(l.Allow(ctx, "t", "c")))
		_, healthy = rs[0].Health(ctx)
		require.True(t, healthy)
	})
	t.Run("local fallback says so", func(t *testing.T) {
		var log bytes.Buffer
		m, rs := newShared(t, 1, Options{FallbackLocal: true, Logger: slog.New(slog.NewTextHandler(&log, nil))})
		l := rs[0].Limiter(limits, nil)
		m.Close()
		require.NoError(t, l.Allow(ctx, "t", "c"))
		require.NoError(t, l.Allow(ctx, "t", "c"))
		require.Equal(t, sandbox.KindRateLimited, sandbox.KindOf(l.Allow(ctx, "t", "c")), "the local limiter enforces the same limits")
		h, healthy := rs[0].Health(ctx)
		require.True(t, healthy)
		require.Equal(t, "local", h["fallback"])
		require.Contains(t, h, "serving")
		require.Contains(t, log.String(), "redis unavailable: serving from this replica's own state")
	})
}
