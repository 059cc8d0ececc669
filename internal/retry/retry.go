// Package retry is how every HTTP client of the project retries: one loop, one backoff, Retry-After read one way, waits that end with the context.
package retry

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// After reads how long a server asks the client to wait: retry-after-ms
// (OpenAI's), else Retry-After in seconds or as an HTTP-date. It is 0 when
// absent, unreadable or in the past.
func After(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && ms < 1e12 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 && s < 1e9 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// Sleep waits d or until ctx ends, whichever comes first.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Policy bounds a retry loop.
type Policy struct {
	// Retries is how many attempts may follow the first (0: none).
	Retries int
	// Sleep waits between attempts; nil means Sleep. Tests pass one that
	// records the waits instead of taking them.
	Sleep func(context.Context, time.Duration) error
}

// Attempt is one try. n counts from 0. It returns nil on success; on
// failure, whether another try is worth it and how long to wait first.
type Attempt func(n int) (wait time.Duration, again bool, err error)

// WaitError reports that the wait before a retry ended early (the context
// was cancelled or timed out).
type WaitError struct {
	Wait time.Duration
	Err  error
}

func (e *WaitError) Error() string { return fmt.Sprintf("waiting %v to retry: %v", e.Wait, e.Err) }
func (e *WaitError) Unwrap() error { return e.Err }

// Do is the project's one retry loop: it runs attempt until it succeeds,
// says it is not worth another try, or the retries are used up, and
// returns how many attempts ran and the last attempt's error (or a
// *WaitError when the wait before a retry was cut short).
func Do(ctx context.Context, p Policy, attempt Attempt) (attempts int, err error) {
	sleep := p.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	for n := 0; ; n++ {
		wait, again, err := attempt(n)
		if err == nil || !again || n >= p.Retries {
			return n + 1, err
		}
		if serr := sleep(ctx, wait); serr != nil {
			return n + 1, &WaitError{Wait: wait, Err: serr}
		}
	}
}

// Backoff is the wait before retry n (from 0) when the server named none:
// first doubled per retry and capped at limit, of which the upper half is
// jitter drawn by rnd (rand.Int64N when nil) so that clients that failed
// together do not retry together.
func Backoff(first, limit time.Duration, n int, rnd func(int64) int64) time.Duration {
	d := first
	for i := 0; i < n && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	if d <= 0 {
		return 0
	}
	if rnd == nil {
		rnd = rand.Int64N
	}
	half := d / 2
	return half + time.Duration(rnd(int64(half)+1))
}
