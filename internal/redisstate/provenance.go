package redisstate

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/redis/go-redis/v9"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// ProvenanceOptions bounds what the shared provenance keeps: bytes, never
// calls, as the tracker's own bounds.
type ProvenanceOptions struct {
	// MaxSessions bounds the sessions whose place in the log this replica
	// remembers (default 10,000, the tracker's own default).
	MaxSessions int
	// MaxLogBytes bounds each session's log in Redis (default 4 MiB of
	// answers): past it the oldest entries go, and the values they carried
	// into the session's filter of forgotten values in Redis, where every
	// replica still finds them.
	MaxLogBytes int64
	// MaxForgottenBytes bounds that filter (default 4 MiB, in two
	// generations, as the tracker's own; see deps.FilterBits).
	MaxForgottenBytes int64
	// TTL is how long a session's log outlives its last call (default 24 h).
	TTL time.Duration
}

// LocalProvenance is the tracker of one replica, which the shared
// provenance feeds: deps.Tracker.
type LocalProvenance interface {
	sandbox.Provenance
	// CheckWith is Check asking known about a value the tracker does not hold.
	CheckWith(session string, api *toolset.API, args map[string]any, known func(keys []string) bool) sandbox.ProvenanceCheck
	// Keys are the index keys of the values a response carries.
	Keys(api *toolset.API, response json.RawMessage) []string
}

var _ LocalProvenance = (*deps.Tracker)(nil)

// Provenance shares what each session's calls have seen between replicas,
// so that an ID one replica returned is accepted by the next. Every
// successful response the engine observes is appended to the session's
// log in Redis (a stream with a TTL, bounded by bytes); before it checks
// or observes a call, a replica replays the entries it has not seen yet
// into its own tracker, the in-memory default, whose checks and bounds are
// thus the same on every replica. An entry dropped from the log leaves the
// values it carried in the session's filter of forgotten values in Redis,
// which a replica asks about a value its own tracker does not hold (one
// that joined late, or fell behind): an ID given at a long session's start
// stays valid on every replica. Forget (a reset, an eviction) bumps the
// session's generation, so that every replica starts it afresh.
//
// The anonymous session "" (calls without a session ID) stays in each
// replica: every such call shares it, and sharing it would make each
// replica replay all the others' calls.
type Provenance struct {
	shared  *Shared
	local   LocalProvenance
	catalog *toolset.Catalog
	opts    ProvenanceOptions
	genBits uint64 // bits of one generation of the shared filter
	cursors *lru.Cache[string, *cursor]
	mu      sync.Mutex
}

var _ sandbox.Provenance = (*Provenance)(nil)

// cursor is how far this replica has replayed a session's log.
type cursor struct {
	mu   sync.Mutex
	last string // stream ID of the last entry replayed, "" for none
	gen  int64
}

// Provenance returns the shared provenance over local, the tracker of
// this replica, which must be used through it only.
func (s *Shared) Provenance(local LocalProvenance, cat *toolset.Catalog, opts ProvenanceOptions) *Provenance {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = 10000
	}
	if opts.MaxLogBytes <= 0 {
		opts.MaxLogBytes = 4 << 20
	}
	if opts.MaxForgottenBytes <= 0 {
		opts.MaxForgottenBytes = 4 << 20
	}
	if opts.TTL <= 0 {
		opts.TTL = 24 * time.Hour
	}
	p := &Provenance{shared: s, local: local, catalog: cat, opts: opts, genBits: max(uint64(opts.MaxForgottenBytes)/2*8, 512)}
	p.cursors, _ = lru.NewWithEvict[string, *cursor](opts.MaxSessions, func(session string, _ *cursor) {
		// Without its cursor the session is replayed from the start next
		// time: what the tracker holds of it would be counted twice.
		local.Forget(session)
	})
	return p
}

func (p *Provenance) streamKey(session string) string { return p.shared.key("prov", "{"+session+"}") }
func (p *Provenance) genKey(session string) string {
	return p.shared.key("prov", "{"+session+"}", "gen")
}

func (p *Provenance) cursor(session string) *cursor {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.cursors.Get(session)
	if !ok {
		c = &cursor{}
		p.cursors.Add(session, c)
	}
	return c
}

// Check replays what other replicas saw in the session, then checks; a
// value the tracker does not hold is looked for among the values the
// session's log forgot.
func (p *Provenance) Check(session string, api *toolset.API, args map[string]any) sandbox.ProvenanceCheck {
	if session == "" {
		return p.local.Check(session, api, args)
	}
	c := p.cursor(session)
	c.mu.Lock()
	p.syncLogged(session, c)
	c.mu.Unlock()
	return p.local.CheckWith(session, api, args, func(keys []string) bool { return p.forgot(session, keys) })
}

// filterBits writes the positions of keys in a generation of the shared
// filter: each key's deps.FilterHashes positions, space-separated, keys
// separated by ",".
func (p *Provenance) filterBits(keys []string) string {
	var b []byte
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		for j, pos := range deps.FilterBits(k, p.genBits) {
			if j > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendUint(b, pos, 10)
		}
	}
	return string(b)
}

// logScript appends an observation to a session's log, then drops the
// oldest entries past the log's bound (never the new one), setting the
// bits of the values they carried in the current generation of the
// session's filter; a full generation starts the next and drops the one
// before the last. ARGV: prefix, session, ttl (s), max log bytes, filter
// capacity, tool, api, seq, args, response, bits, number of values, size.
var logScript = redis.NewScript(`
local pk = ARGV[1] .. "prov:{" .. ARGV[2] .. "}"
local meta, ttl = pk .. ":meta", tonumber(ARGV[3])
local id = redis.call("XADD", pk, "*", "tool", ARGV[6], "api", ARGV[7], "seq", ARGV[8], "args", ARGV[9],
  "response", ARGV[10], "bits", ARGV[11], "n", ARGV[12], "size", ARGV[13])
local held = redis.call("HINCRBY", meta, "bytes", tonumber(ARGV[13]))
while held > tonumber(ARGV[4]) do
  local first = redis.call("XRANGE", pk, "-", "+", "COUNT", 1)
  if #first == 0 or first[1][1] == id then break end
  local f, fields = {}, first[1][2]
  for i = 1, #fields, 2 do f[fields[i]] = fields[i + 1] end
  local n = tonumber(f.n or "0") or 0
  if n > 0 then
    local gen = tonumber(redis.call("HGET", meta, "fgen") or "0")
    local count = tonumber(redis.call("HGET", meta, "fcount") or "0")
    if count > 0 and count + n > tonumber(ARGV[5]) then
      gen, count = gen + 1, 0
      redis.call("HSET", meta, "fgen", gen)
      redis.call("DEL", pk .. ":forgot:" .. (gen - 2))
    end
    local fk = pk .. ":forgot:" .. gen
    for pos in string.gmatch(f.bits or "", "%d+") do redis.call("SETBIT", fk, pos, 1) end
    redis.call("EXPIRE", fk, ttl)
    redis.call("HSET", meta, "fcount", count + n)
  end
  redis.call("XDEL", pk, first[1][1])
  held = redis.call("HINCRBY", meta, "bytes", -(tonumber(f.size or "0") or 0))
end
redis.call("EXPIRE", pk, ttl)
redis.call("EXPIRE", meta, ttl)
redis.call("EXPIRE", pk .. ":gen", ttl)
return id
`)

// forgotScript answers 1 when one of the values (ARGV[3:], each its bits
// as filterBits writes them) has all its bits set in a generation of the
// session's filter of forgotten values. ARGV: prefix, session, values...
var forgotScript = redis.NewScript(`
local pk = ARGV[1] .. "prov:{" .. ARGV[2] .. "}"
local gen = tonumber(redis.call("HGET", pk .. ":meta", "fgen") or "0")
for g = gen, gen - 1, -1 do
  local fk = pk .. ":forgot:" .. g
  if redis.call("EXISTS", fk) == 1 then
    for i = 3, #ARGV do
      local all = true
      for pos in string.gmatch(ARGV[i], "%d+") do
        if redis.call("GETBIT", fk, pos) == 0 then all = false; break end
      end
      if all then return 1 end
    end
  end
end
return 0
`)

// forgot reports whether the session's log dropped an entry that carried
// one of keys (index keys of one value). Redis being down counts as no.
func (p *Provenance) forgot(session string, keys []string) bool {
	if len(keys) == 0 {
		return false
	}
	args := []any{p.shared.opts.Prefix, session}
	for _, k := range keys {
		args = append(args, p.filterBits([]string{k}))
	}
	found, err := guard(p.shared, "provenance", func() (bool, error) {
		n, err := forgotScript.Run(context.Background(), p.shared.rdb, nil, args...).Int()
		return n == 1, redisErr("provenance", err)
	}, func() (bool, error) { return false, nil })
	return err == nil && found
}

// Observe appends what the response emitted to the session's log, and
// replays the log up to it.
func (p *Provenance) Observe(session string, seq int, api *toolset.API, args map[string]any, response json.RawMessage) {
	if session == "" {
		p.local.Observe(session, seq, api, args, response)
		return
	}
	argJSON, err := json.Marshal(args)
	if err != nil {
		p.local.Observe(session, seq, api, args, response)
		return
	}
	keys := p.local.Keys(api, response)
	c := p.cursor(session)
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx := context.Background()
	_, err = guard(p.shared, "provenance", func() (struct{}, error) {
		err := logScript.Run(ctx, p.shared.rdb, nil, p.shared.opts.Prefix, session, int64(p.opts.TTL/time.Second),
			p.opts.MaxLogBytes, deps.FilterCapacity(p.genBits), api.Tool.StandardizedName, api.Name, seq, argJSON,
			[]byte(response), p.filterBits(keys), len(keys), len(response)+len(argJSON)).Err()
		return struct{}{}, redisErr("provenance", err)
	}, func() (struct{}, error) { return struct{}{}, errLocal })
	if err != nil || !p.syncLogged(session, c) {
		// Not shared (Redis is down): this replica remembers it at least.
		p.local.Observe(session, seq, api, args, response)
	}
}

// Forget starts the session afresh on every replica.
func (p *Provenance) Forget(session string) {
	p.mu.Lock()
	p.cursors.Remove(session) // forgets locally too (the eviction callback)
	p.mu.Unlock()
	p.local.Forget(session)
	if session == "" {
		return
	}
	ctx := context.Background()
	_, err := guard(p.shared, "provenance", func() (struct{}, error) {
		err := forgetScript.Run(ctx, p.shared.rdb, nil, p.shared.opts.Prefix, session, int64(p.opts.TTL/time.Second)).Err()
		return struct{}{}, redisErr("provenance", err)
	}, func() (struct{}, error) { return struct{}{}, nil })
	if err != nil {
		p.shared.log.Warn("provenance: session not reset in redis", "session", session, "err", err)
	}
}

// forgetScript drops a session's log, its filter of forgotten values and
// its place in it, and bumps its generation. ARGV: prefix, session, ttl.
var forgetScript = redis.NewScript(provForget + `
forget(ARGV[1], ARGV[2], ARGV[3])
return 1
`)

// provForget is the Lua that forgets a session's provenance, shared with
// the traces' eviction.
const provForget = `
local function forget(prefix, s, ttl)
  local pk = prefix .. "prov:{" .. s .. "}"
  local gen = tonumber(redis.call("HGET", pk .. ":meta", "fgen") or "0")
  redis.call("DEL", pk, pk .. ":meta", pk .. ":forgot:" .. gen, pk .. ":forgot:" .. (gen - 1))
  redis.call("INCR", pk .. ":gen")
  redis.call("EXPIRE", pk .. ":gen", ttl)
end
`

// syncLogged is sync, reporting whether Redis answered.
func (p *Provenance) syncLogged(session string, c *cursor) bool {
	_, err := guard(p.shared, "provenance", func() (struct{}, error) {
		return struct{}{}, p.sync(session, c)
	}, func() (struct{}, error) { return struct{}{}, errLocal })
	return err == nil
}

// errLocal marks a step served from local state.
var errLocal = errors.New("served from local state")

// sync reads the session's generation and the log entries after the
// cursor in one round trip, then replays them.
func (p *Provenance) sync(session string, c *cursor) error {
	ctx := context.Background()
	pipe := p.shared.rdb.Pipeline()
	gen := pipe.Get(ctx, p.genKey(session))
	start := "-"
	if c.last != "" {
		start = "(" + c.last
	}
	rng := pipe.XRange(ctx, p.streamKey(session), start, "+")
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return redisErr("provenance", err)
	}
	g, _ := gen.Int64()
	msgs := rng.Val()
	if g != c.gen {
		// Reset meanwhile by some replica: start over from the new log.
		p.local.Forget(session)
		c.gen, c.last = g, ""
		var err error
		if msgs, err = p.shared.rdb.XRange(ctx, p.streamKey(session), "-", "+").Result(); err != nil {
			return redisErr("provenance", err)
		}
	}
	for _, m := range msgs {
		p.replay(session, m.Values)
		c.last = m.ID
	}
	return nil
}

// replay hands one logged observation to the local tracker.
func (p *Provenance) replay(session string, v map[string]any) {
	str := func(k string) string { s, _ := v[k].(string); return s }
	api := p.catalog.API(str("tool"), str("api"))
	seq, err := strconv.Atoi(str("seq"))
	if api == nil || err != nil {
		return // a tool this replica does not serve
	}
	var args map[string]any
	if json.Unmarshal([]byte(str("args")), &args) != nil {
		return
	}
	p.local.Observe(session, seq, api, args, json.RawMessage(str("response")))
}
