package redisstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/understudy/understudy/sandbox"
)

// SessionOptions bounds the traces kept in Redis: the same bounds as the
// engine's in memory.
type SessionOptions struct {
	MaxSessions int // default 10,000
	// MaxSessionTraceBytes bounds one session's trace (default 1 MiB, of
	// the calls' JSON): past it its oldest calls go, however many it makes.
	MaxSessionTraceBytes int64
	MaxTraceBytes        int64 // default 64 MiB, all sessions' together
	// TTL is how long a trace outlives its session's last call (default 24 h).
	TTL time.Duration
	// Clock orders sessions by last use (default the system clock).
	Clock func() time.Time
}

// Traces keeps session traces in Redis, so that any replica serves the
// next call of a session and GET /v1/sessions/{id} shows the calls every
// replica made. Call numbers come from one counter per session. Past the
// bounds the least recently used sessions are forgotten first (with what
// the dependency check learnt in them), and a trace past its own bound
// drops its oldest calls down to three quarters of it, as in memory.
//
// Keys: sess:{<key>}:meta (next call number, dropped calls),
// sess:{<key>}:calls (the calls' JSON), sess:{<key>}:sizes, and for all
// sessions sess:index (by last use), sess:bytes (per session), sess:total.
// The scripts touch other sessions' keys when they evict them, so the
// store needs a single Redis server, not a Cluster.
//
// With FallbackLocal, while Redis is down the replica keeps traces of its
// own (in memory, the same bounds), which are not shared. The anonymous
// session "" (calls without a session ID) stays in each replica, as its
// provenance does: every such call shares it.
type Traces struct {
	shared *Shared
	opts   SessionOptions
	local  sandbox.Traces
}

var _ sandbox.Traces = (*Traces)(nil)

// Traces returns the shared session traces.
func (s *Shared) Traces(opts SessionOptions) *Traces {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = 10000
	}
	if opts.MaxSessionTraceBytes <= 0 {
		opts.MaxSessionTraceBytes = sandbox.DefaultMaxSessionTraceBytes
	}
	if opts.MaxTraceBytes <= 0 {
		opts.MaxTraceBytes = 64 << 20
	}
	if opts.TTL <= 0 {
		opts.TTL = 24 * time.Hour
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	return &Traces{shared: s, opts: opts,
		local: sandbox.NewTraces(opts.MaxSessions, opts.MaxSessionTraceBytes, opts.MaxTraceBytes, nil)}
}

// sessionLib is shared by the scripts: evicting a session, and keeping
// every bound.
const sessionLib = provForget + `
local p = ARGV[1]
local function k(s, what) return p .. "sess:{" .. s .. "}:" .. what end
local function evict(s)
  local b = tonumber(redis.call("HGET", p .. "sess:bytes", s) or "0")
  redis.call("INCRBY", p .. "sess:total", -b)
  redis.call("HDEL", p .. "sess:bytes", s)
  redis.call("ZREM", p .. "sess:index", s)
  local existed = redis.call("DEL", k(s, "meta"), k(s, "calls"), k(s, "sizes"))
  -- what the dependency check learnt in it goes too, on every replica
  forget(p, s, ARGV[3])
  return existed
end
local function addBytes(s, n)
  redis.call("HINCRBY", p .. "sess:bytes", s, n)
  redis.call("INCRBY", p .. "sess:total", n)
end
local function dropOldest(s, n)
  if n <= 0 then return end
  local freed = 0
  for i = 1, n do freed = freed + tonumber(redis.call("LPOP", k(s, "sizes")) or "0") end
  redis.call("LTRIM", k(s, "calls"), n, -1)
  redis.call("HINCRBY", k(s, "meta"), "dropped", n)
  addBytes(s, -freed)
end
-- shrink forgets expired sessions, then the least recently used ones
-- while there are too many or they hold too much; then the oldest calls
-- of the current one.
local function shrink(cur, now, maxSessions, maxBytes)
  local expired = redis.call("ZRANGEBYSCORE", p .. "sess:index", "-inf", now - tonumber(ARGV[3]) * 1000, "LIMIT", 0, 16)
  for _, s in ipairs(expired) do evict(s) end
  while true do
    local total = tonumber(redis.call("GET", p .. "sess:total") or "0")
    local n = redis.call("ZCARD", p .. "sess:index")
    if not (n > maxSessions or (total > maxBytes and n > 1)) then break end
    local oldest = redis.call("ZRANGE", p .. "sess:index", 0, 1)
    local victim = oldest[1]
    if victim == cur then victim = oldest[2] end
    if not victim then break end
    evict(victim)
  end
  local total = tonumber(redis.call("GET", p .. "sess:total") or "0")
  if total > maxBytes then
    local sizes = redis.call("LRANGE", k(cur, "sizes"), 0, -2)
    local n, freed = 0, 0
    for _, sz in ipairs(sizes) do
      if freed >= total - maxBytes then break end
      freed = freed + tonumber(sz)
      n = n + 1
    end
    dropOldest(cur, n)
  end
end
local function touch(s, ttl)
  redis.call("EXPIRE", k(s, "meta"), ttl)
  redis.call("EXPIRE", k(s, "calls"), ttl)
  redis.call("EXPIRE", k(s, "sizes"), ttl)
end
`

// beginScript reserves the next call number of session ARGV[2], creating
// the session. ARGV: prefix, session, ttl (s), now (ms), max sessions,
// max bytes, the session's own overhead in bytes.
var beginScript = redis.NewScript(sessionLib + `
local s, now = ARGV[2], tonumber(ARGV[4])
if redis.call("EXISTS", k(s, "meta")) == 0 then
  redis.call("HSET", k(s, "meta"), "next", 0, "dropped", 0)
  redis.call("HDEL", p .. "sess:bytes", s)
  addBytes(s, tonumber(ARGV[7]))
end
local seq = redis.call("HINCRBY", k(s, "meta"), "next", 1)
redis.call("ZADD", p .. "sess:index", now, s)
touch(s, ARGV[3])
shrink(s, now, tonumber(ARGV[5]), tonumber(ARGV[6]))
return seq
`)

// appendScript adds call ARGV[8] (JSON, size ARGV[9]) to session ARGV[2]
// unless it was forgotten while the call ran. ARGV: prefix, session, ttl,
// now, max sessions, max bytes, max bytes of one session, record, size.
var appendScript = redis.NewScript(sessionLib + `
local s, now, maxOne = ARGV[2], tonumber(ARGV[4]), tonumber(ARGV[7])
if redis.call("EXISTS", k(s, "meta")) == 0 then return 0 end
redis.call("RPUSH", k(s, "calls"), ARGV[8])
redis.call("RPUSH", k(s, "sizes"), ARGV[9])
addBytes(s, tonumber(ARGV[9]))
local held = tonumber(redis.call("HGET", p .. "sess:bytes", s) or "0")
if held > maxOne then
  -- down to three quarters of the bound, as in memory, so that a long
  -- session does not trim on every call; the newest call stays
  local sizes = redis.call("LRANGE", k(s, "sizes"), 0, -2)
  local n, over = 0, held - math.floor(maxOne * 3 / 4)
  for _, sz in ipairs(sizes) do
    if over <= 0 then break end
    over = over - tonumber(sz)
    n = n + 1
  end
  dropOldest(s, n)
end
redis.call("ZADD", p .. "sess:index", now, s)
touch(s, ARGV[3])
shrink(s, now, tonumber(ARGV[5]), tonumber(ARGV[6]))
return 1
`)

// removeScript forgets session ARGV[2]; it answers whether it existed.
var removeScript = redis.NewScript(sessionLib + `
local existed = redis.call("EXISTS", k(ARGV[2], "meta"))
evict(ARGV[2])
return existed
`)

// sessionOverhead is what a session costs before its calls, as in memory.
const sessionOverhead = 256

func (t *Traces) args(session string, extra ...any) []any {
	return append([]any{t.shared.opts.Prefix, session, int64(t.opts.TTL / time.Second), t.opts.Clock().UnixMilli(),
		t.opts.MaxSessions, t.opts.MaxTraceBytes}, extra...)
}

// Begin reserves the next call number of the session kept under key.
func (t *Traces) Begin(ctx context.Context, key string) (sandbox.TraceSlot, error) {
	if key == "" {
		return t.local.Begin(ctx, key)
	}
	return guard(t.shared, "sessions", func() (sandbox.TraceSlot, error) {
		seq, err := beginScript.Run(ctx, t.shared.rdb, nil, t.args(key, sessionOverhead+len(key))...).Int()
		if err != nil {
			return sandbox.TraceSlot{}, redisErr("sessions", err)
		}
		return sandbox.TraceSlot{Key: key, Seq: seq}, nil
	}, func() (sandbox.TraceSlot, error) { return t.local.Begin(ctx, key) })
}

// Append adds a finished call to the session's trace: in Redis, or in this
// replica's own traces when that is where its call number came from.
func (t *Traces) Append(ctx context.Context, slot sandbox.TraceSlot, rec sandbox.CallRecord) error {
	if slot.Local() {
		return t.local.Append(ctx, slot, rec)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("sessions: encode call %d: %w", rec.Seq, err)
	}
	_, err = guard(t.shared, "sessions", func() (struct{}, error) {
		err := appendScript.Run(ctx, t.shared.rdb, nil, t.args(slot.Key, t.opts.MaxSessionTraceBytes, b, len(b))...).Err()
		return struct{}{}, redisErr("sessions", err)
	}, func() (struct{}, error) { return struct{}{}, nil }) // its session lives in Redis: lost
	return err
}

// Trace returns the trace kept under key, labelled id.
func (t *Traces) Trace(ctx context.Context, key, id string) (sandbox.SessionTrace, bool, error) {
	if key == "" {
		return t.local.Trace(ctx, key, id)
	}
	type found struct {
		tr sandbox.SessionTrace
		ok bool
	}
	f, err := guard(t.shared, "sessions", func() (found, error) {
		tr, ok, err := t.trace(ctx, key, id)
		return found{tr, ok}, err
	}, func() (found, error) {
		tr, ok, err := t.local.Trace(ctx, key, id)
		return found{tr, ok}, err
	})
	return f.tr, f.ok, err
}

func (t *Traces) trace(ctx context.Context, key, id string) (sandbox.SessionTrace, bool, error) {
	pipe := t.shared.rdb.Pipeline()
	meta := pipe.HGet(ctx, t.key(key, "meta"), "dropped")
	calls := pipe.LRange(ctx, t.key(key, "calls"), 0, -1)
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return sandbox.SessionTrace{}, false, redisErr("sessions", err)
	}
	if errors.Is(meta.Err(), redis.Nil) {
		return sandbox.SessionTrace{}, false, nil
	}
	tr := sandbox.SessionTrace{ID: id, Calls: make([]sandbox.CallRecord, 0, len(calls.Val()))}
	tr.Dropped, _ = strconv.Atoi(meta.Val())
	for _, c := range calls.Val() {
		var rec sandbox.CallRecord
		if err := json.Unmarshal([]byte(c), &rec); err != nil {
			return sandbox.SessionTrace{}, false, fmt.Errorf("sessions: a call of %q in redis is not a call record: %w", key, err)
		}
		tr.Calls = append(tr.Calls, rec)
		tr.Violations += len(rec.Violations)
	}
	// Concurrent calls of one session finish in any order, on any replica;
	// the trace reads in call order.
	sort.SliceStable(tr.Calls, func(i, j int) bool { return tr.Calls[i].Seq < tr.Calls[j].Seq })
	return tr, true, nil
}

// Remove forgets the session kept under key; it reports whether there was one.
func (t *Traces) Remove(ctx context.Context, key string) (bool, error) {
	local, _ := t.local.Remove(ctx, key)
	if key == "" {
		return local, nil
	}
	return guard(t.shared, "sessions", func() (bool, error) {
		n, err := removeScript.Run(ctx, t.shared.rdb, nil, t.args(key)...).Int()
		if err != nil {
			return false, redisErr("sessions", err)
		}
		return n == 1 || local, nil
	}, func() (bool, error) { return local, nil })
}

func (t *Traces) key(session, what string) string {
	return t.shared.opts.Prefix + "sess:{" + session + "}:" + what
}
