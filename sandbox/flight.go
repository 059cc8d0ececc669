package sandbox

import (
	"context"
	"errors"
	"sync"

	"github.com/understudy/understudy/toolset"
)

// KeyLocker is a response store shared by several processes (the Redis
// store) that lets one of them at a time fetch a missing key from the real
// API, so that concurrent misses of one key across replicas make one
// upstream call.
type KeyLocker interface {
	// LockKey waits until the caller holds the key's fill lock, or the key
	// has a recording (found: nothing is held then). The lock expires on
	// its own if its holder dies, so a waiter never waits for a crashed
	// holder longer than the lock's lifetime.
	LockKey(ctx context.Context, key string) (unlock func(), rec Recording, found bool, err error)
}

// filled is the outcome of one upstream call for a missing key, shared by
// every call of this process that waited for it.
type filled struct {
	up     UpstreamResponse
	err    error  // the upstream's
	note   string // why a good answer was not recorded, or not everywhere
	cached bool   // another replica recorded the key while this one waited
	// abandoned: the call that ran the fill went away before it ended
	abandoned bool
}

// flights runs one fill per key at a time in this process; the calls that
// miss the same key meanwhile wait for its outcome.
type flights struct {
	mu sync.Mutex
	m  map[string]*flight
}

type flight struct {
	done    chan struct{}
	out     filled
	err     error
	waiters int // guarded by flights.mu
}

// do runs fn for key, or waits for the run already under way (waited is
// then true). A waiter whose context ends stops waiting; the run goes on
// for the others.
func (fs *flights) do(ctx context.Context, key string, fn func() (filled, error)) (out filled, waited bool, err error) {
	fs.mu.Lock()
	if f, ok := fs.m[key]; ok {
		f.waiters++
		fs.mu.Unlock()
		select {
		case <-f.done:
			return f.out, true, f.err
		case <-ctx.Done():
			return filled{}, true, ctx.Err()
		}
	}
	if fs.m == nil {
		fs.m = map[string]*flight{}
	}
	f := &flight{done: make(chan struct{})}
	fs.m[key] = f
	fs.mu.Unlock()
	defer func() {
		fs.mu.Lock()
		delete(fs.m, key)
		fs.mu.Unlock()
		close(f.done)
	}()
	f.out, f.err = fn()
	return f.out, false, f.err
}

// fill calls the real API for a key the store does not have and records a
// good answer, once for all the calls of this process that miss the key at
// the same time, and, with a store shared between replicas, under the
// key's fill lock so that the other replicas wait too and then read the
// recording.
func (e *Engine) fill(ctx context.Context, api *toolset.API, args map[string]any, key string) (filled, error) {
	for {
		f, waited, err := e.flights.do(ctx, key, func() (filled, error) {
			f, err := e.fillOnce(ctx, api, args, key)
			f.abandoned = ctx.Err() != nil
			return f, err
		})
		// The caller whose call ran went away: a waiter still here runs it.
		if waited && f.abandoned && ctx.Err() == nil {
			continue
		}
		return f, err
	}
}

// fillOnce is one fill: lock, upstream call, recording.
func (e *Engine) fillOnce(ctx context.Context, api *toolset.API, args map[string]any, key string) (filled, error) {
	if l, ok := e.opts.Recordings.(KeyLocker); ok {
		unlock, rec, found, err := l.LockKey(ctx, key)
		if err != nil {
			return filled{}, err
		}
		if found {
			return filled{up: UpstreamResponse{Status: rec.Status, Body: rec.Response}, cached: true}, nil
		}
		defer unlock() // after the recording is stored: waiters then find it
	} else if rec, ok, _ := e.opts.Recordings.Get(ctx, key); ok {
		// Recorded by a fill that ended between this call's miss and its
		// turn (LockKey looks again the same way).
		return filled{up: UpstreamResponse{Status: rec.Status, Body: rec.Response}, cached: true}, nil
	}
	up, err := e.opts.Upstream.Do(ctx, api, args)
	out := filled{up: up, err: err}
	if err != nil || up.Status < 200 || up.Status >= 300 {
		return out, nil
	}
	if reason, bad := e.looksLikeError(up.Body); bad {
		out.note = "not recorded: the answer looks like an error (" + reason + ")"
		return out, nil
	}
	// The answer came back and was paid for: it is kept even if the
	// caller has gone (or the server is shutting down) meanwhile.
	rec := Recording{Status: up.Status, Response: up.Body}
	if perr := e.opts.Recordings.Put(context.WithoutCancel(ctx), key, api.Tool.StandardizedName, api.Name, args, rec); perr != nil {
		var kept *KeptError
		if errors.As(perr, &kept) {
			// Recorded, though not everywhere yet: the note says where.
			e.log.Warn("recording kept in one store only", "key", key, "err", perr)
			out.note = kept.Error()
			return out, nil
		}
		// Serving goes on; the recording is lost, and says so.
		e.log.Error("recording failed", "key", key, "err", perr)
		out.note = "not recorded: " + perr.Error()
	}
	return out, nil
}
