package redisstate

import (
	"context"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/sandbox"
)

// Recordings is the engine's response store on Redis: recordings made by
// any replica are served by all. A key Redis lacks is read through from
// local, this process's own store (the -cache directory and the built-in
// recordings); new recordings go to Redis only. With FallbackLocal, local
// serves alone while Redis is down.
type Recordings struct {
	shared *Shared
	local  sandbox.Recordings
}

var (
	_ sandbox.CanonicalRecordings = (*Recordings)(nil)
	_ sandbox.KeyLocker           = (*Recordings)(nil)
	_ EntryStore                  = (*Entries)(nil)
)

// Recordings returns the shared response store over local.
func (s *Shared) Recordings(local sandbox.Recordings) *Recordings {
	return &Recordings{shared: s, local: local}
}

// Key is the canonical cache key's hash, as for every store.
func (r *Recordings) Key(tool, api string, args map[string]any) string {
	return cache.KeyOf(tool, api, args).Hash()
}

// KeyCanonical is Key given the arguments' canonical JSON.
func (r *Recordings) KeyCanonical(tool, api string, canonicalArgs []byte) string {
	return cache.HashOfCanonical(tool, api, canonicalArgs)
}

// Get reads the recording from Redis, else from the local store.
func (r *Recordings) Get(ctx context.Context, key string) (sandbox.Recording, bool, error) {
	k, err := cache.KeyFromHash(key)
	if err != nil {
		return sandbox.Recording{}, false, err
	}
	type got struct {
		rec sandbox.Recording
		ok  bool
		err error // about the entry (corrupt), not about Redis
	}
	g, err := guard(r.shared, "recordings", func() (got, error) {
		e, ok, err := r.shared.Store.GetContext(ctx, k)
		if unavailable(err) || ctxDone(err) {
			return got{}, err
		}
		if ok {
			return got{rec: sandbox.Recording{Status: e.Status, Response: e.Response}, ok: true}, nil
		}
		rec, lok, lerr := r.local.Get(ctx, key)
		if lok {
			return got{rec: rec, ok: true}, nil
		}
		if err == nil {
			err = lerr
		}
		return got{err: err}, nil
	}, func() (got, error) {
		rec, ok, err := r.local.Get(ctx, key)
		return got{rec, ok, err}, nil
	})
	if err != nil {
		return sandbox.Recording{}, false, err
	}
	return g.rec, g.ok, g.err
}

// Put records a response in Redis, in one transaction; with Mirror, in
// the local store first.
func (r *Recordings) Put(ctx context.Context, key, tool, api string, args map[string]any, rec sandbox.Recording) error {
	mirrored := r.shared.mirror(key, func() error { return r.local.Put(ctx, key, tool, api, args, rec) })
	_, err := guard(r.shared, "recordings", func() (struct{}, error) {
		k := cache.KeyOf(tool, api, args)
		return struct{}{}, r.shared.Store.Put(ctx, k, cache.Entry{Status: rec.Status, Response: rec.Response, Source: "remote"})
	}, func() (struct{}, error) {
		if mirrored {
			return struct{}{}, nil
		}
		return struct{}{}, r.local.Put(ctx, key, tool, api, args, rec)
	})
	return r.shared.kept(mirrored, err)
}

// kept is the error of a Put that Redis did not take: a *sandbox.KeptError
// when the mirror folder has the recording (pushed to Redis once it is
// back), so that the answer says it is recorded; err as it is otherwise.
func (s *Shared) kept(mirrored bool, err error) error {
	if err == nil || !mirrored || s.opts.Local == nil {
		return err
	}
	return &sandbox.KeptError{Where: "recorded to the local mirror, pending push to Redis", Err: err}
}

// mirror writes a recording to the local store with Mirror, before Redis:
// once the call is answered, the recording is on this replica's disk
// whatever becomes of Redis. A failed mirror is logged; the recording
// still goes to Redis.
func (s *Shared) mirror(key string, put func() error) (mirrored bool) {
	if !s.opts.Mirror {
		return false
	}
	if err := put(); err != nil {
		s.log.Warn("redis: recording not mirrored to the local folder", "key", key, "err", err)
		return false
	}
	return true
}

// LockKey is Entries.LockKey by key hash.
func (r *Recordings) LockKey(ctx context.Context, key string) (func(), sandbox.Recording, bool, error) {
	k, err := cache.KeyFromHash(key)
	if err != nil {
		return nil, sandbox.Recording{}, false, err
	}
	unlock, e, found, err := (&Entries{shared: r.shared}).LockKey(ctx, k)
	return unlock, sandbox.Recording{Status: e.Status, Response: e.Response}, found, err
}

// EntryStore is a response store of whole entries addressed by cache key
// (*cache.Cache): the local layer under Entries.
type EntryStore interface {
	Get(ctx context.Context, key cache.Key) (cache.Entry, bool, error)
	Put(ctx context.Context, key cache.Key, e cache.Entry) error
}

// Entries is the same shared response store as Recordings, for callers
// that record whole entries, their source included: the LLM simulator of
// imported tools records its answers here, so that every replica replays
// the answer the first one got instead of asking the model again. Keys,
// the read-through of local and the behaviour while Redis is down are
// those of Recordings.
type Entries struct {
	shared *Shared
	local  EntryStore
}

// Entries returns the shared store of entries over local.
func (s *Shared) Entries(local EntryStore) *Entries {
	return &Entries{shared: s, local: local}
}

type gotEntry struct {
	e   cache.Entry
	ok  bool
	err error // about the entry (corrupt), not about Redis
}

// Get reads the entry from Redis, else from the local store.
func (r *Entries) Get(ctx context.Context, key cache.Key) (cache.Entry, bool, error) {
	g, err := guard(r.shared, "recordings", func() (gotEntry, error) {
		e, ok, err := r.shared.Store.GetContext(ctx, key)
		if unavailable(err) || ctxDone(err) {
			return gotEntry{}, err
		}
		if ok {
			return gotEntry{e: e, ok: true}, nil
		}
		le, lok, lerr := r.local.Get(ctx, key)
		if lok {
			return gotEntry{e: le, ok: true}, nil
		}
		if err == nil {
			err = lerr
		}
		return gotEntry{err: err}, nil
	}, func() (gotEntry, error) {
		e, ok, err := r.local.Get(ctx, key)
		return gotEntry{e, ok, err}, nil
	})
	if err != nil {
		return cache.Entry{}, false, err
	}
	return g.e, g.ok, g.err
}

// Put records the entry in Redis, in one transaction; with Mirror, in the
// local store first.
func (r *Entries) Put(ctx context.Context, key cache.Key, e cache.Entry) error {
	mirrored := r.shared.mirror(key.Hash(), func() error { return r.local.Put(ctx, key, e) })
	_, err := guard(r.shared, "recordings", func() (struct{}, error) {
		return struct{}{}, r.shared.Store.Put(ctx, key, e)
	}, func() (struct{}, error) {
		if mirrored {
			return struct{}{}, nil
		}
		return struct{}{}, r.local.Put(ctx, key, e)
	})
	return r.shared.kept(mirrored, err)
}

// LockKey takes the key's fill lock shared by the replicas (see
// cache.RedisStore.LockKey); found reports an entry recorded meanwhile.
// While Redis is down with FallbackLocal, each replica fills on its own.
func (r *Entries) LockKey(ctx context.Context, key cache.Key) (unlock func(), e cache.Entry, found bool, err error) {
	type locked struct {
		unlock func()
		e      cache.Entry
		found  bool
	}
	l, err := guard(r.shared, "recordings", func() (locked, error) {
		unlock, e, found, err := r.shared.Store.LockKey(ctx, key)
		return locked{unlock, e, found}, err
	}, func() (locked, error) {
		return locked{unlock: func() {}}, nil
	})
	return l.unlock, l.e, l.found, err
}
