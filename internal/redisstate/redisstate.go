// Package redisstate shares a sandbox's state between replicas through Redis: recordings, rate limits and quotas, session traces and provenance, each behind the interface its embedded default implements.
package redisstate

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/sandbox"
)

// Options configures a connection to the shared state.
type Options struct {
	// Prefix starts every key (default "understudy:").
	Prefix string
	// FallbackLocal keeps serving from this process's own state while
	// Redis does not answer, saying so in Health and the log, instead of
	// refusing calls with 503.
	FallbackLocal bool
	// Logger receives one line when Redis goes away and one when it is
	// back (default: discarded).
	Logger *slog.Logger
	// Retry is how long, with FallbackLocal, calls go straight to local
	// state after Redis failed before Redis is tried again (default 1 s),
	// so that an unreachable server does not slow every call by a dial
	// timeout.
	Retry time.Duration
	// Local is this replica's recordings folder (-cache), or nil. The
	// entries there that Redis lacks are pushed to it whenever it answers
	// after they could have gone missing: at start, when it is back after
	// being down (what FallbackLocal recorded meanwhile), and when it
	// restarted (what a server without persistence lost). Entries edited
	// by hand stay local unless TrustEdits.
	Local *cache.Store
	// Mirror writes every recording made in Redis to the local store too
	// (write-through, before Redis): a Redis that loses its data loses
	// nothing this replica recorded.
	Mirror bool
	// TrustEdits serves entries of Redis whose checksum does not match
	// (changed there after they were recorded), with a warning; without
	// it they are not served (cache.RedisOptions.TrustEdits).
	TrustEdits bool
	// Watch is how often the server is asked whether it restarted
	// (default DefaultWatch); negative: never, and no goroutine runs (a
	// one-off tool such as an export).
	Watch time.Duration
}

// Shared is one Redis connection pool and what the sandbox keeps in it.
// It is safe for concurrent use.
type Shared struct {
	rdb    *redis.Client
	opts   Options
	where  string // the server, without credentials
	Store  *cache.RedisStore
	log    *slog.Logger
	mu     sync.Mutex
	down   bool
	err    string
	since  time.Time
	tried  atomic.Int64 // unix nanoseconds of the last attempt while down
	served atomic.Int64 // calls served from local state while down

	// The watcher (durability.go): the server's run_id and persistence as
	// last read, and whether the local folder is to be pushed (guarded by
	// mu), how many entries it pushed.
	runID       string
	persistence Persistence
	pushDue     bool
	pushed      atomic.Int64
	kick        chan struct{}
	watchStop   chan struct{}
	watchDone   chan struct{}
	closeOnce   sync.Once
}

// CheckURL reports whether rawURL is a Redis URL Open accepts.
func CheckURL(rawURL string) error {
	if _, err := redis.ParseURL(rawURL); err != nil {
		return fmt.Errorf("-redis: want redis://host:port/db, not %q: %w", redact(rawURL), err)
	}
	return nil
}

// Open connects to the Redis server at rawURL (redis://[user:pass@]host:port/db,
// rediss:// for TLS, unix:///path.sock). It does not wait for the server:
// a server down at start is handled like one that goes away later.
func Open(rawURL string, opts Options) (*Shared, error) {
	if err := CheckURL(rawURL); err != nil {
		return nil, err
	}
	ro, _ := redis.ParseURL(rawURL)
	// Short timeouts: a replica that cannot reach Redis says so within a
	// second rather than holding its callers.
	if ro.DialTimeout == 0 || ro.DialTimeout > time.Second {
		ro.DialTimeout = time.Second
	}
	if ro.ReadTimeout == 0 {
		ro.ReadTimeout = time.Second
	}
	if ro.WriteTimeout == 0 {
		ro.WriteTimeout = time.Second
	}
	if ro.MaxRetries == 0 {
		ro.MaxRetries = 1
	}
	ro.PoolSize = max(ro.PoolSize, 64)
	// The client's own log (one line per failed dial, on stderr) would
	// repeat on every call while Redis is down; ours says it once.
	redis.SetLogger(quiet{})
	return New(redis.NewClient(ro), redact(rawURL), opts), nil
}

// New wraps a client; where names the server in Health and logs.
func New(rdb *redis.Client, where string, opts Options) *Shared {
	if opts.Prefix == "" {
		opts.Prefix = "understudy:"
	}
	if opts.Retry <= 0 {
		opts.Retry = time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Watch == 0 {
		opts.Watch = DefaultWatch
	}
	s := &Shared{rdb: rdb, opts: opts, where: where, log: opts.Logger,
		kick: make(chan struct{}, 1), watchStop: make(chan struct{}), watchDone: make(chan struct{})}
	s.Store = cache.NewRedisStore(rdb, cache.RedisOptions{Prefix: opts.Prefix, TrustEdits: opts.TrustEdits,
		Warn: func(err error) { s.log.Warn("redis: recording changed after it was recorded", "err", err) }})
	if opts.Watch > 0 {
		go s.watch()
	} else {
		close(s.watchDone)
	}
	return s
}

// redact drops the password of a Redis URL, for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the -redis URL"
	}
	return u.Redacted()
}

// Close stops the watcher and closes the connection pool.
func (s *Shared) Close() error {
	s.closeOnce.Do(func() { close(s.watchStop) })
	<-s.watchDone
	return s.rdb.Close()
}

// Client is the Redis client, for tools (export, import, benchmarks).
func (s *Shared) Client() *redis.Client { return s.rdb }

// key is a Redis key of this sandbox.
func (s *Shared) key(parts ...string) string {
	k := s.opts.Prefix
	for i, p := range parts {
		if i > 0 {
			k += ":"
		}
		k += p
	}
	return k
}

// unavailable reports whether err means that Redis did not answer (as
// opposed to the caller giving up, or a refusal such as a rate limit).
func unavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ue *cache.UnavailableError
	var se *sandbox.UnavailableError
	return errors.As(err, &ue) || errors.As(err, &se)
}

// local reports whether a call should skip Redis and use local state now:
// only with FallbackLocal, while Redis is down and was tried recently.
func (s *Shared) local() bool {
	if !s.opts.FallbackLocal {
		return false
	}
	s.mu.Lock()
	down := s.down
	s.mu.Unlock()
	if !down {
		return false
	}
	last := s.tried.Load()
	now := time.Now().UnixNano()
	if now-last < int64(s.opts.Retry) {
		s.served.Add(1)
		return true
	}
	return !s.tried.CompareAndSwap(last, now) // one caller tries Redis again
}

// failed notes that Redis did not answer an operation on what ("rate
// limits", ...). It returns true when the caller is to go on with local
// state (FallbackLocal), false when the call must fail with the returned
// *sandbox.UnavailableError.
func (s *Shared) failed(what string, err error) (fallback bool, uerr error) {
	s.mu.Lock()
	if !s.down {
		s.down, s.since = true, time.Now().UTC()
		s.tried.Store(time.Now().UnixNano())
		if s.opts.FallbackLocal {
			s.log.Error("redis unavailable: serving from this replica's own state until it is back", "redis", s.where, "what", what, "err", err)
		} else {
			s.log.Error("redis unavailable: calls fail with 503 until it is back", "redis", s.where, "what", what, "err", err)
		}
	}
	s.err = err.Error()
	s.mu.Unlock()
	if s.opts.FallbackLocal {
		s.served.Add(1)
		return true, nil
	}
	return false, &sandbox.UnavailableError{What: what, Err: err}
}

// ok notes that Redis answered.
func (s *Shared) ok() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		s.log.Info("redis is back: shared state in use again", "redis", s.where, "down_for", time.Since(s.since).Round(time.Millisecond).String())
		s.down, s.err = false, ""
		// What was recorded locally meanwhile goes to Redis.
		s.pushDue = true
		s.kickWatch()
	}
}

// guard runs op against Redis, recording whether Redis answered; with
// FallbackLocal it runs local instead when Redis is down.
func guard[T any](s *Shared, what string, op func() (T, error), local func() (T, error)) (T, error) {
	if s.local() {
		return local()
	}
	v, err := op()
	if unavailable(err) {
		if fb, uerr := s.failed(what, err); fb {
			return local()
		} else {
			var zero T
			return zero, uerr
		}
	}
	if err == nil || !errors.Is(err, context.Canceled) {
		s.ok()
	}
	return v, err
}

// Health describes the shared state for GET /healthz: healthy is false
// when Redis does not answer and calls fail for it (no fallback).
func (s *Shared) Health(ctx context.Context) (map[string]any, bool) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	perr := s.rdb.Ping(ctx).Err()
	if perr == nil {
		s.ok()
	} else if !s.isDown() {
		_, _ = s.failed("health check", perr)
	}
	out := map[string]any{"backend": "redis", "redis": s.where, "connected": perr == nil}
	if s.opts.FallbackLocal {
		out["fallback"] = "local"
	}
	out["mirror"] = "off"
	if s.opts.Local != nil && s.opts.Mirror {
		out["mirror"] = s.opts.Local.Dir()
	}
	if n := s.pushed.Load(); n > 0 {
		out["pushed"] = n
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.persistence.Known {
		out["persistence"] = s.persistence
		out["durable"] = s.persistence.Durable()
		if w := s.durability(s.persistence); w != "" {
			out["warning"] = w
		}
	}
	if perr == nil {
		return out, true
	}
	out["error"] = s.err
	out["down_since"] = s.since.Format(time.RFC3339)
	if s.opts.FallbackLocal {
		out["serving"] = "local state of this replica (not shared)"
		out["local_calls"] = s.served.Load()
		return out, true
	}
	return out, false
}

func (s *Shared) isDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

func ctxDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// quiet drops the Redis client's log lines.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}
