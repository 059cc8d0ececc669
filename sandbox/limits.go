package sandbox

import (
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

// limiter enforces per-tool, per-client rates and daily quotas. The set of
// (tool, client) buckets is bounded: the least recently used is dropped.
// It reads real time (not the frozen sandbox clock): limits are about traffic.
type limiter struct {
	limits  map[string]Limit // by standardized tool name; "*" for every tool
	clock   clock.Clock
	buckets *lru.Cache[string, *bucket]
	mu      sync.Mutex
}

type bucket struct {
	mu    sync.Mutex
	rate  *rate.Limiter
	day   string
	count int
}

func newLimiter(limits map[string]Limit, c clock.Clock, maxBuckets int) *limiter {
	b, err := lru.New[string, *bucket](maxBuckets)
	if err != nil {
		panic(err)
	}
	return &limiter{limits: limits, clock: c, buckets: b}
}

func (l *limiter) limitFor(tool string) (Limit, bool) {
	if lim, ok := l.limits[tool]; ok {
		return lim, true
	}
	lim, ok := l.limits["*"]
	return lim, ok
}

// allow takes one request from the tool's allowance for the client.
func (l *limiter) allow(tool, client string) error {
	lim, ok := l.limitFor(tool)
	if !ok || (lim.PerSecond <= 0 && lim.PerDay <= 0) {
		return nil
	}
	key := tool + "\x00" + client
	l.mu.Lock()
	b, ok := l.buckets.Get(key)
	if !ok {
		b = &bucket{}
		if lim.PerSecond > 0 {
			burst := lim.Burst
			if burst <= 0 {
				burst = max(1, int(math.Ceil(lim.PerSecond)))
			}
			b.rate = rate.NewLimiter(rate.Limit(lim.PerSecond), burst)
		}
		l.buckets.Add(key, b)
	}
	l.mu.Unlock()

	now := l.clock.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	if lim.PerDay > 0 {
		day := now.UTC().Format(time.DateOnly)
		if b.day != day {
			b.day, b.count = day, 0
		}
		if b.count >= lim.PerDay {
			midnight := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
			return &RateLimitError{Tool: tool, Client: client, RetryAfter: midnight.Sub(now), Quota: true, Limit: strconv.Itoa(lim.PerDay) + "/day"}
		}
	}
	if b.rate != nil {
		r := b.rate.ReserveN(now, 1)
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			return &RateLimitError{Tool: tool, Client: client, RetryAfter: d, Limit: strconv.FormatFloat(lim.PerSecond, 'f', -1, 64) + "/s"}
		}
	}
	if lim.PerDay > 0 {
		b.count++
	}
	return nil
}
