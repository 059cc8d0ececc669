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

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// ProvenanceOptions bounds what the shared provenance keeps.
type ProvenanceOptions struct {
	// MaxSessions bounds the sessions whose place in the log this replica
	// remembers (default 10,000, the tracker's own default).
	MaxSessions int
	// MaxEvents bounds each session's log in Redis (default 1,000, the
	// calls a session trace keeps): past it the oldest go first.
	MaxEvents int64
	// TTL is how long a session's log outlives its last call (default 24 h).
	TTL time.Duration
}

// Provenance shares what each session's calls have seen between replicas,
// so that an ID one replica returned is accepted by the next. Every
// successful response the engine observes is appended to the session's
// log in Redis (a stream, bounded and with a TTL); before it checks or
// observes a call, a replica replays the entries it has not seen yet into
// its own tracker, the in-memory default, whose checks and bounds are thus
// the same on every replica. Forget (a reset, an eviction) bumps the
// session's generation, so that every replica starts it afresh.
//
// The anonymous session "" (calls without a session ID) stays in each
// replica: every such call shares it, and sharing it would make each
// replica replay all the others' calls.
type Provenance struct {
	shared  *Shared
	local   sandbox.Provenance
	catalog *toolset.Catalog
	opts    ProvenanceOptions
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
func (s *Shared) Provenance(local sandbox.Provenance, cat *toolset.Catalog, opts ProvenanceOptions) *Provenance {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = 10000
	}
	if opts.MaxEvents <= 0 {
		opts.MaxEvents = 1000
	}
	if opts.TTL <= 0 {
		opts.TTL = 24 * time.Hour
	}
	p := &Provenance{shared: s, local: local, catalog: cat, opts: opts}
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

// Check replays what other replicas saw in the session, then checks.
func (p *Provenance) Check(session string, api *toolset.API, args map[string]any) sandbox.ProvenanceCheck {
	if session != "" {
		c := p.cursor(session)
		c.mu.Lock()
		p.syncLogged(session, c, nil)
		c.mu.Unlock()
	}
	return p.local.Check(session, api, args)
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
	c := p.cursor(session)
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx := context.Background()
	key := p.streamKey(session)
	ok := p.syncLogged(session, c, func(pipe redis.Pipeliner) {
		pipe.XAdd(ctx, &redis.XAddArgs{Stream: key, MaxLen: p.opts.MaxEvents, Values: []any{
			"tool", api.Tool.StandardizedName, "api", api.Name, "seq", seq, "args", argJSON, "response", []byte(response)}})
		pipe.Expire(ctx, key, p.opts.TTL)
		pipe.Expire(ctx, p.genKey(session), p.opts.TTL)
	})
	if !ok {
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
		_, err := p.shared.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			pipe.Del(ctx, p.streamKey(session))
			pipe.Incr(ctx, p.genKey(session))
			pipe.Expire(ctx, p.genKey(session), p.opts.TTL)
			return nil
		})
		return struct{}{}, redisErr("provenance", err)
	}, func() (struct{}, error) { return struct{}{}, nil })
	if err != nil {
		p.shared.log.Warn("provenance: session not reset in redis", "session", session, "err", err)
	}
}

// syncLogged is sync, reporting whether Redis answered.
func (p *Provenance) syncLogged(session string, c *cursor, first func(redis.Pipeliner)) bool {
	_, err := guard(p.shared, "provenance", func() (struct{}, error) {
		return struct{}{}, p.sync(session, c, first)
	}, func() (struct{}, error) { return struct{}{}, errLocal })
	return err == nil
}

// errLocal marks a step served from local state.
var errLocal = errors.New("served from local state")

// sync runs first (an append) and reads the session's generation and the
// log entries after the cursor in one round trip, then replays them.
func (p *Provenance) sync(session string, c *cursor, first func(redis.Pipeliner)) error {
	ctx := context.Background()
	pipe := p.shared.rdb.Pipeline()
	if first != nil {
		first(pipe)
	}
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
