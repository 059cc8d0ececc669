package redisstate

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/sandbox"
)

// allowScript takes one call from a tool's allowance for a client, in one
// step on the server so that replicas never both take the last call: the
// daily quota is checked first (a refused call counts against nothing),
// then the rate, a generic cell rate algorithm (GCRA, as
// github.com/go-redis/redis_rate) whose state is one "theoretical arrival
// time"; a call passing both is counted against the quota.
//
//	KEYS[1] rate state (TAT, µs)  KEYS[2] today's quota count
//	ARGV[1] now (µs)  ARGV[2] µs between calls at the rate (0: no rate)
//	ARGV[3] burst  ARGV[4] calls per day (0: no quota)  ARGV[5] quota key lifetime (s)
//
// It answers {0, 0} (allowed), {1, 0} (quota used up) or {2, µs to wait}.
var allowScript = redis.NewScript(`
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local perDay = tonumber(ARGV[4])
if perDay > 0 then
  local used = tonumber(redis.call("GET", KEYS[2]) or "0")
  if used >= perDay then return {1, 0} end
end
if interval > 0 then
  local tat = tonumber(redis.call("GET", KEYS[1]) or "0")
  if tat < now then tat = now end
  local newtat = tat + interval
  local allowAt = newtat - burst * interval
  if allowAt > now then return {2, math.ceil(allowAt - now)} end
  redis.call("SET", KEYS[1], string.format("%d", newtat), "PX", math.ceil((newtat - now) / 1000) + 1000)
end
if perDay > 0 then
  redis.call("INCR", KEYS[2])
  redis.call("EXPIRE", KEYS[2], ARGV[5])
end
return {0, 0}
`)

// Limiter enforces rate limits and daily quotas across every replica that
// shares the Redis server, with the refusals of the in-memory limiter (429
// and when to retry). It reads the limiter clock of this process (the
// system clock by default): replicas' clocks are assumed to agree within
// far less than a day.
type Limiter struct {
	shared *Shared
	limits map[string]sandbox.Limit
	clock  clock.Clock
	local  sandbox.Limiter // with FallbackLocal, while Redis is down
}

var _ sandbox.Limiter = (*Limiter)(nil)

// Limiter returns the shared limiter for limits; c is its clock (nil: the
// system clock).
func (s *Shared) Limiter(limits map[string]sandbox.Limit, c clock.Clock) *Limiter {
	if c == nil {
		c = clock.Real{}
	}
	return &Limiter{shared: s, limits: limits, clock: c, local: sandbox.NewLimiter(limits, c)}
}

// Allow takes one call from the tool's allowance for the client.
func (l *Limiter) Allow(ctx context.Context, tool, client string) error {
	lim, ok := sandbox.LimitFor(l.limits, tool)
	if !ok {
		return nil
	}
	_, err := guard(l.shared, "rate limits", func() (struct{}, error) {
		return struct{}{}, l.allow(ctx, lim, tool, client)
	}, func() (struct{}, error) {
		return struct{}{}, l.local.Allow(ctx, tool, client)
	})
	return err
}

func (l *Limiter) allow(ctx context.Context, lim sandbox.Limit, tool, client string) error {
	now := l.clock.Now()
	// One hash slot per (tool, client), so the script's keys sit together
	// on a Redis Cluster too.
	slot := "{" + tool + "|" + client + "}"
	keys := []string{l.shared.key("rate", slot), l.shared.key("quota", slot, sandbox.Day(now))}
	var interval int64
	if lim.PerSecond > 0 {
		interval = int64(float64(time.Second/time.Microsecond) / lim.PerSecond)
	}
	res, err := allowScript.Run(ctx, l.shared.rdb, keys, now.UnixMicro(), interval, lim.BurstOr(), lim.PerDay, 2*24*3600).Int64Slice()
	if err != nil {
		return redisErr("rate limits", err)
	}
	switch {
	case len(res) != 2:
		return &sandbox.UnavailableError{What: "rate limits", Err: errUnexpected(res)}
	case res[0] == 1:
		return lim.QuotaError(tool, client, now)
	case res[0] == 2:
		return lim.RateError(tool, client, time.Duration(res[1])*time.Microsecond)
	}
	return nil
}

type errUnexpected []int64

func (e errUnexpected) Error() string {
	return "unexpected answer of the limiter script: " + strconv.Itoa(len(e)) + " values"
}

// redisErr classifies an error of a Redis call: the caller's context
// ending stays what it is; anything else means Redis did not serve.
func redisErr(what string, err error) error {
	if err == nil || ctxDone(err) {
		return err
	}
	return &sandbox.UnavailableError{What: what, Err: err}
}
