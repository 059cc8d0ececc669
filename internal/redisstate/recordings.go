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

// Put records a response in Redis, in one transaction.
func (r *Recordings) Put(ctx context.Context, key, tool, api string, args map[string]any, rec sandbox.Recording) error {
	_, err := guard(r.shared, "recordings", func() (struct{}, error) {
		k := cache.KeyOf(tool, api, args)
		return struct{}{}, r.shared.Store.Put(ctx, k, cache.Entry{Status: rec.Status, Response: rec.Response, Source: "remote"})
	}, func() (struct{}, error) {
		return struct{}{}, r.local.Put(ctx, key, tool, api, args, rec)
	})
	return err
}

// LockKey takes the key's fill lock shared by the replicas (see
// cache.RedisStore.LockKey). While Redis is down with FallbackLocal, each
// replica fills on its own.
func (r *Recordings) LockKey(ctx context.Context, key string) (func(), sandbox.Recording, bool, error) {
	k, err := cache.KeyFromHash(key)
	if err != nil {
		return nil, sandbox.Recording{}, false, err
	}
	type locked struct {
		unlock func()
		rec    sandbox.Recording
		found  bool
	}
	l, err := guard(r.shared, "recordings", func() (locked, error) {
		unlock, e, found, err := r.shared.Store.LockKey(ctx, k)
		if err != nil {
			return locked{}, err
		}
		return locked{unlock, sandbox.Recording{Status: e.Status, Response: e.Response}, found}, nil
	}, func() (locked, error) {
		return locked{unlock: func() {}}, nil
	})
	return l.unlock, l.rec, l.found, err
}
