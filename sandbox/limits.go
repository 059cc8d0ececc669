package sandbox

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"

	"github.com/understudy/understudy/internal/clock"
)

// Limit is one tool's allowance, like a RapidAPI plan: a request rate with
// a burst, and a daily quota. Zero fields mean "no limit".
type Limit struct {
	PerSecond float64
	Burst     int
	PerDay    int
}

func (l Limit) String() string {
	var parts []string
	if l.PerSecond > 0 {
		parts = append(parts, strconv.FormatFloat(l.PerSecond, 'f', -1, 64)+"/s")
	}
	if l.Burst > 0 {
		parts = append(parts, "burst "+strconv.Itoa(l.Burst))
	}
	if l.PerDay > 0 {
		parts = append(parts, strconv.Itoa(l.PerDay)+"/day")
	}
	if len(parts) == 0 {
		return "unlimited"
	}
	return strings.Join(parts, ",")
}

// ParseLimits reads a -limit flag value: semicolon-separated
// "<tool|*>=<n>/s[,burst=<n>][,<n>/day]", e.g. "*=20/s;skyscanner80=2/s,burst=4,500/day".
func ParseLimits(s string) (map[string]Limit, error) {
	out := map[string]Limit{}
	for _, item := range strings.Split(s, ";") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		tool, spec, ok := strings.Cut(item, "=")
		tool = strings.TrimSpace(tool)
		if !ok || tool == "" {
			return nil, fmt.Errorf("limit %q: want <tool>=<rate>, e.g. skyscanner80=2/s,500/day", item)
		}
		var l Limit
		for _, f := range strings.Split(spec, ",") {
			f = strings.TrimSpace(f)
			switch {
			case strings.HasPrefix(f, "burst="):
				n, err := strconv.Atoi(strings.TrimPrefix(f, "burst="))
				if err != nil || n <= 0 {
					return nil, fmt.Errorf("limit %q: burst must be a positive integer", item)
				}
				l.Burst = n
			case strings.HasSuffix(f, "/s"):
				v, err := strconv.ParseFloat(strings.TrimSuffix(f, "/s"), 64)
				if err != nil || v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) {
					return nil, fmt.Errorf("limit %q: rate must be a positive number per second", item)
				}
				l.PerSecond = v
			case strings.HasSuffix(f, "/day"):
				n, err := strconv.Atoi(strings.TrimSuffix(f, "/day"))
				if err != nil || n <= 0 {
					return nil, fmt.Errorf("limit %q: daily quota must be a positive integer", item)
				}
				l.PerDay = n
			default:
				return nil, fmt.Errorf("limit %q: unknown part %q (want <n>/s, burst=<n> or <n>/day)", item, f)
			}
		}
		out[tool] = l
	}
	return out, nil
}

// Limiter enforces rate limits and daily quotas per tool and client. The
// default keeps its buckets in memory (NewLimiter); a Redis one shares
// them between the replicas behind one load balancer, so that a quota of
// N a day allows N calls in all.
type Limiter interface {
	// Allow takes one call from the tool's allowance for the client. A
	// refused call is a *RateLimitError saying when to retry; a limiter
	// that cannot decide (shared state down) returns an *UnavailableError
	// and takes nothing.
	Allow(ctx context.Context, tool, client string) error
}

// LimitFor is the limit of a tool: its own, else the one for "*". ok is
// false when neither limits rate or quota.
func LimitFor(limits map[string]Limit, tool string) (Limit, bool) {
	lim, ok := limits[tool]
	if !ok {
		lim, ok = limits["*"]
	}
	return lim, ok && (lim.PerSecond > 0 || lim.PerDay > 0)
}

// BurstOr is the burst of the limit: the one given, else the rate rounded
// up (at least 1).
func (l Limit) BurstOr() int {
	if l.Burst > 0 {
		return l.Burst
	}
	return max(1, int(math.Ceil(l.PerSecond)))
}

// QuotaError is the refusal of a call past the daily quota at now: retry
// at the next midnight UTC, when quotas start again.
func (l Limit) QuotaError(tool, client string, now time.Time) *RateLimitError {
	midnight := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	return &RateLimitError{Tool: tool, Client: client, RetryAfter: midnight.Sub(now), Quota: true, Limit: strconv.Itoa(l.PerDay) + "/day"}
}

// RateError is the refusal of a call over the rate, to retry after d.
func (l Limit) RateError(tool, client string, d time.Duration) *RateLimitError {
	return &RateLimitError{Tool: tool, Client: client, RetryAfter: d, Limit: strconv.FormatFloat(l.PerSecond, 'f', -1, 64) + "/s"}
}

// Day is the quota day of t: its UTC date.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// localLimiter enforces per-tool, per-client rates and daily quotas in
// memory. The set of (tool, client) buckets is bounded: the least recently
// used is dropped. It reads real time (not the frozen sandbox clock):
// limits are about traffic.
type localLimiter struct {
	limits  map[string]Limit // by standardized tool name; "*" for every tool
	clock   clock.Clock
	buckets *lru.Cache[string, *bucket]
	mu      sync.Mutex
}

var _ Limiter = (*localLimiter)(nil)

type bucket struct {
	mu    sync.Mutex
	rate  *rate.Limiter
	day   string
	count int
}

// NewLimiter returns the in-memory limiter of one process, keeping at most
// 100,000 (tool, client) buckets; c is the clock (nil: the system clock).
func NewLimiter(limits map[string]Limit, c clock.Clock) Limiter {
	if c == nil {
		c = clock.Real{}
	}
	return newLimiter(limits, c, 100000)
}

func newLimiter(limits map[string]Limit, c clock.Clock, maxBuckets int) *localLimiter {
	b, err := lru.New[string, *bucket](maxBuckets)
	if err != nil {
		panic(err)
	}
	return &localLimiter{limits: limits, clock: c, buckets: b}
}

// Allow takes one request from the tool's allowance for the client.
func (l *localLimiter) Allow(_ context.Context, tool, client string) error {
	lim, ok := LimitFor(l.limits, tool)
	if !ok {
		return nil
	}
	key := tool + "\x00" + client
	l.mu.Lock()
	b, ok := l.buckets.Get(key)
	if !ok {
		b = &bucket{}
		if lim.PerSecond > 0 {
			b.rate = rate.NewLimiter(rate.Limit(lim.PerSecond), lim.BurstOr())
		}
		l.buckets.Add(key, b)
	}
	l.mu.Unlock()

	now := l.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if lim.PerDay > 0 {
		if day := Day(now); b.day != day {
			b.day, b.count = day, 0
		}
		if b.count >= lim.PerDay {
			return lim.QuotaError(tool, client, now)
		}
	}
	if b.rate != nil {
		r := b.rate.ReserveN(now, 1)
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			return lim.RateError(tool, client, d)
		}
	}
	if lim.PerDay > 0 {
		b.count++
	}
	return nil
}
