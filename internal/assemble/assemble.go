// Package assemble wires the sandbox stack — catalog, stand-ins, dependency graph and provenance, response store, engine — the one way every command builds it.
package assemble

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"sync"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/internal/redisstate"
	"github.com/understudy/understudy/mocks"
	"github.com/understudy/understudy/mocks/failures"
	"github.com/understudy/understudy/mocks/faker"
	"github.com/understudy/understudy/mocks/objects"
	"github.com/understudy/understudy/mocks/simulate"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// Config chooses how the stack is built. The zero value is the offline
// default: built-in tools, fake mode, frozen clock, dependencies enforced
// for built-in tools and warned about for imported ones.
type Config struct {
	// Catalog to serve; nil loads the built-in toolset.
	Catalog *toolset.Catalog
	Mode    sandbox.Mode
	// CacheDir is the response store directory; "" keeps responses in
	// memory only. The built-in recordings are always read behind it.
	CacheDir string
	// Clock is the sandbox clock the stand-ins read (default frozen).
	Clock clock.Clock
	// Failures injects failures into the stand-ins; read one from the
	// -failures syntax with ParseFailures.
	Failures *failures.Policy
	// DepsPolicy overrides the dependency policy for every tool; "" means
	// enforce for built-in tools and warn for imported ones.
	DepsPolicy deps.Policy
	// NoInference turns off dependency inference for imported tools.
	NoInference bool
	// Explain adds what the dependency check found to the body of a call
	// it refused (deps.TrackerOptions.Explain), for a person debugging an
	// agent; never in an evaluation.
	Explain  bool
	Limits   map[string]sandbox.Limit
	Upstream sandbox.Upstream
	// Simulate, when set, answers imported tools' calls that no recording
	// has with this model, recording each answer in the response store
	// (see mocks/simulate); the faker answers when the model fails.
	Simulate simulate.Model
	Logger   *slog.Logger
	// Redis, a redis:// URL, shares recordings, rate limits and quotas
	// between replicas through that server (see internal/redisstate); ""
	// keeps everything in this process.
	Redis string
	// RedisFallbackLocal serves from this process's own state while Redis
	// is down, instead of refusing calls with 503.
	RedisFallbackLocal bool
	// Validation reads every call's arguments strictly or leniently; ""
	// decides per tool (see sandbox.Options.Validation).
	Validation toolset.ValidationMode
	// RedisNoMirror stops writing every recording made in Redis to
	// CacheDir as well (the mirror is on by default: a Redis that loses
	// its data then loses nothing this replica recorded).
	RedisNoMirror bool
	// TrustEdits serves recordings of Redis whose checksum does not match
	// (changed there after they were recorded), with a warning, instead
	// of refusing them.
	TrustEdits bool
	// NoDependencyHints serves the catalog without the sentences that say
	// where a value comes from, nor its x-depends annotations
	// (deps.StripHints): the graph is built first and provenance is still
	// enforced, so a model must infer the chains. The catalog is changed
	// in place.
	NoDependencyHints bool
}

// Stack is a built sandbox.
type Stack struct {
	Catalog *toolset.Catalog
	Engine  *sandbox.Engine
	Graph   *deps.Graph
	Tracker *deps.Tracker
	Mocker  *mocks.Mocker
	Cache   *cache.Cache
	Store   *cache.Store // nil without CacheDir
	// Shared is the Redis connection of a replica (nil without Config.Redis).
	Shared *redisstate.Shared
	// Clock is the sandbox clock the stand-ins read, for whoever tells an
	// agent the present (the evaluator's date line).
	Clock clock.Clock
	// Simulator answers imported tools with a model (nil without
	// Config.Simulate).
	Simulator *simulate.Simulator
	// Hints says what Config.NoDependencyHints removed (nil with hints on).
	Hints *deps.HintsStripped
}

// MetricsWriter writes metric families in Prometheus's text format.
type MetricsWriter interface {
	WritePrometheus(w io.Writer) error
}

// Metrics are the metric families of the stack besides the engine's calls
// (GET /metrics): the simulator's fallbacks, when it has one.
func (s *Stack) Metrics() []MetricsWriter {
	if s.Simulator == nil {
		return nil
	}
	return []MetricsWriter{s.Simulator}
}

// MissingRecordingsError is a replay whose recordings folder does not
// exist: replay only reads recordings, so a mistyped path would otherwise
// serve nothing but the built-in ones without a word.
type MissingRecordingsError struct {
	Dir string
	Err error
}

func (e *MissingRecordingsError) Error() string {
	reason := e.Err.Error()
	var pe *fs.PathError
	if errors.As(e.Err, &pe) {
		reason = pe.Err.Error()
	}
	return fmt.Sprintf("replay mode: recordings folder %q: %s; replay never creates it: check the path, or record into it first in record mode", e.Dir, reason)
}

func (e *MissingRecordingsError) Unwrap() error { return e.Err }

// ParseFailures reads a failure policy in toolserver's -failures syntax
// ("error_rate=0.2,seed=7"; see failures.Parse), for Config.Failures:
// what builds on the stack (sandboxtest) reaches failure injection here,
// where the stand-ins are composed, rather than importing them itself.
func ParseFailures(spec string) (*failures.Policy, error) { return failures.Parse(spec) }

// Build assembles the stack.
func Build(cfg Config) (*Stack, error) {
	if cfg.Mode == sandbox.ModeReplay && cfg.CacheDir != "" {
		if _, err := os.Stat(cfg.CacheDir); err != nil {
			return nil, &MissingRecordingsError{Dir: cfg.CacheDir, Err: err}
		}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Frozen()
	}
	st := &Stack{Catalog: cfg.Catalog, Clock: cfg.Clock}
	// The world, the shipped recordings and the catalog with its
	// dependency graph do not depend on one another: they load at once.
	warn := func(err error) { cfg.Logger.Warn("response store", "err", err) }
	var (
		wg       sync.WaitGroup
		w        *world.World
		werr     error
		fallback cache.Reader
	)
	wg.Go(func() { w, werr = world.DefaultWorld() })
	wg.Go(func() {
		if rec, err := fs.Sub(fixtures.FS, "recordings"); err == nil {
			if s, err := cache.OpenFS(rec, cache.Options{Warn: warn}); err == nil {
				fallback = s
			}
		}
	})
	var cerr, gerr error
	if st.Catalog == nil {
		st.Catalog, cerr = loader.Builtin()
	}
	if cerr == nil {
		st.Graph, gerr = deps.Build(st.Catalog, deps.Options{Annotations: true, Infer: !cfg.NoInference, SkipUnknownSources: cfg.DepsPolicy == deps.Off})
	}
	wg.Wait()
	if cerr != nil {
		return nil, cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("world: %w", werr)
	}
	if gerr != nil {
		return nil, fmt.Errorf("dependency graph: %w", gerr)
	}
	for _, skipped := range st.Graph.Skipped {
		cfg.Logger.Warn("dependency annotation left out (-deps-policy off)", "annotation", skipped)
	}
	if cfg.NoDependencyHints {
		n := deps.StripHints(st.Catalog)
		st.Hints = &n
	}
	st.Tracker = deps.NewTracker(st.Graph, deps.TrackerOptions{Explain: cfg.Explain, Policy: func(t *toolset.Tool) deps.Policy {
		if cfg.DepsPolicy != "" {
			return cfg.DepsPolicy
		}
		if p, err := deps.ParsePolicy(t.DepsPolicy); err == nil && t.DepsPolicy != "" {
			return p
		}
		if t.Builtin {
			return deps.Enforce
		}
		return deps.Warn
	}})

	var err error
	if cfg.CacheDir != "" {
		st.Store, err = cache.Open(cfg.CacheDir, cache.Options{Warn: warn})
		if err != nil {
			return nil, err
		}
	}
	st.Cache, err = cache.NewCache(cache.CacheOptions{Store: st.Store, Fallback: fallback})
	if err != nil {
		return nil, err
	}
	var recs sandbox.Recordings = Recordings{Cache: st.Cache}
	var limiter sandbox.Limiter
	var prov sandbox.Provenance = st.Tracker
	var traces sandbox.Traces
	if cfg.Redis != "" {
		st.Shared, err = redisstate.Open(cfg.Redis, redisstate.Options{FallbackLocal: cfg.RedisFallbackLocal, Logger: cfg.Logger,
			Local: st.Store, Mirror: !cfg.RedisNoMirror, TrustEdits: cfg.TrustEdits})
		if err != nil {
			return nil, errors.Join(err, st.Close())
		}
		recs = st.Shared.Recordings(recs)
		limiter = st.Shared.Limiter(cfg.Limits, nil)
		prov = st.Shared.Provenance(st.Tracker, st.Catalog, redisstate.ProvenanceOptions{})
		traces = st.Shared.Traces(redisstate.SessionOptions{})
	}
	// Imported tools: the faker (or the simulator before it), answers
	// kept consistent per session along the graph's edges; the faker
	// reads the graph too, so that the IDs it makes are the ones the
	// dependent APIs take. The simulator
	// records in the engine's response store, shared with the other
	// replicas when there are some, so that they replay its answers; it
	// records each answer as the session got it, and a recorded answer is
	// served as recorded, as replay mode serves it.
	linker := objects.New(st.Graph)
	fk := faker.New(faker.Options{Graph: st.Graph})
	imported := linker.Wrap(fk.StandIn)
	if cfg.Simulate != nil {
		var store simulate.Store = st.Cache
		if st.Shared != nil {
			store = st.Shared.Entries(st.Cache)
		}
		sim, err := simulate.New(cfg.Simulate, store, simulate.Options{Agree: linker.Agree, Logger: cfg.Logger})
		if err != nil {
			return nil, errors.Join(err, st.Close())
		}
		st.Simulator = sim
		imported = linker.Remember(sim.Wrap(linker.Agreeing(fk.StandIn)))
	}
	st.Mocker, err = mocks.New(mocks.Options{Clock: cfg.Clock, World: w, Failures: cfg.Failures, Imported: imported})
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	st.Engine, err = sandbox.New(sandbox.Options{
		Catalog:        st.Catalog,
		StandIns:       st.Mocker,
		Mode:           cfg.Mode,
		Recordings:     recs,
		Limiter:        limiter,
		Traces:         traces,
		Upstream:       cfg.Upstream,
		Provenance:     prov,
		Limits:         cfg.Limits,
		LooksLikeError: cache.LooksLikeUpstreamError,
		Logger:         cfg.Logger,
		Validation:     cfg.Validation,
	})
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	return st, nil
}

// Close releases the response store and the Redis connection.
func (s *Stack) Close() error {
	var errs []error
	if s.Store != nil {
		errs = append(errs, s.Store.Close())
	}
	if s.Shared != nil {
		errs = append(errs, s.Shared.Close())
	}
	return errors.Join(errs...)
}

// Recordings adapts the cache to the engine's response store.
type Recordings struct{ Cache *cache.Cache }

var (
	_ sandbox.CanonicalRecordings = Recordings{}
	_ sandbox.RecordingIndex      = Recordings{}
)

// Recorded lists an API's recorded calls from the stores' indexes: the
// -cache folder's, then the built-in recordings'.
func (r Recordings) Recorded(_ context.Context, tool, api string) ([]sandbox.RecordedCall, error) {
	recs, err := r.Cache.Recorded(tool, api)
	out := make([]sandbox.RecordedCall, len(recs))
	for i, rec := range recs {
		out[i] = sandbox.RecordedCall{Key: rec.Key, Arguments: rec.Arguments}
	}
	return out, err
}

// Key is the cache key's hash.
func (r Recordings) Key(tool, api string, args map[string]any) string {
	return cache.KeyOf(tool, api, args).Hash()
}

// KeyCanonical is Key given the arguments' canonical JSON.
func (r Recordings) KeyCanonical(tool, api string, canonicalArgs []byte) string {
	return cache.HashOfCanonical(tool, api, canonicalArgs)
}

// Get reads a recording by key hash.
func (r Recordings) Get(ctx context.Context, key string) (sandbox.Recording, bool, error) {
	k, err := cache.KeyFromHash(key)
	if err != nil {
		return sandbox.Recording{}, false, err
	}
	e, ok, err := r.Cache.Get(ctx, k)
	if !ok {
		return sandbox.Recording{}, false, err
	}
	return sandbox.Recording{Status: e.Status, Response: e.Response}, true, err
}

// Put records a response.
func (r Recordings) Put(ctx context.Context, _ string, tool, api string, args map[string]any, rec sandbox.Recording) error {
	k := cache.KeyOf(tool, api, args)
	return r.Cache.Put(ctx, k, cache.Entry{Tool: tool, API: api, Arguments: []byte(k.Args()), Status: rec.Status, Response: rec.Response, Source: "remote"})
}
