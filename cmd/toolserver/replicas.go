package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/redisstate"
)

// replicaFlags are the flags of a tool server that shares its state with
// other replicas through Redis.
type replicaFlags struct {
	url        string
	fallback   string
	exportRecs string
	importRecs string
	mirror     bool
	trustEdits bool
	allowSkips bool
}

func (r *replicaFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&r.url, "redis", "", "share recordings, rate limits, quotas, session traces and provenance with other replicas through this Redis server, e.g. redis://127.0.0.1:6379/0 (default: all in this process)")
	fs.StringVar(&r.fallback, "redis-fallback", "", `with -redis: "local" keeps serving from this replica's own state while Redis is down (said in /healthz and the log) instead of answering 503`)
	fs.StringVar(&r.exportRecs, "export-recordings", "", "with -redis: write every recording kept in Redis into the store directory DIR and exit")
	fs.StringVar(&r.importRecs, "import-recordings", "", "with -redis: load every recording of the store directory DIR into Redis and exit")
	fs.BoolVar(&r.allowSkips, "allow-skips", false, "with -export-recordings or -import-recordings: exit 0 even when entries that cannot be read were left behind (each is named either way)")
	fs.BoolVar(&r.mirror, "redis-mirror", true, "with -redis and -cache: write every recording to the -cache folder as well as to Redis (entries there that Redis lacks are pushed to it at start, when it is back and after it restarted); -redis-mirror=false writes to Redis only")
	fs.BoolVar(&r.trustEdits, "trust-edits", false, "with -redis: serve recordings whose checksum does not match (changed in Redis after they were recorded), with a warning, instead of refusing them")
}

func (r replicaFlags) copying() bool { return r.exportRecs != "" || r.importRecs != "" }

// configure puts the Redis settings into the stack's configuration.
func (r replicaFlags) configure(cfg *assemble.Config) error {
	switch r.fallback {
	case "":
	case "local":
		if r.url == "" {
			return errors.New("-redis-fallback local needs -redis URL")
		}
		cfg.RedisFallbackLocal = true
	default:
		return fmt.Errorf(`-redis-fallback: want "local", not %q`, r.fallback)
	}
	if r.url != "" {
		if err := redisstate.CheckURL(r.url); err != nil {
			return err
		}
	}
	cfg.Redis = r.url
	cfg.RedisNoMirror = !r.mirror
	cfg.TrustEdits = r.trustEdits
	return nil
}

// sharedHealth is what /healthz says about Redis; nil without -redis.
func sharedHealth(st *assemble.Stack) func(context.Context) (map[string]any, bool) {
	if st.Shared == nil {
		return nil
	}
	return st.Shared.Health
}

// copyRecordings moves recordings between Redis and a store directory, so
// that recordings gathered by many replicas become files for CI, and files
// seed a fresh Redis.
func copyRecordings(r replicaFlags, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "toolserver: %v\n", err)
		return code
	}
	if r.url == "" {
		return fail(2, errors.New("-export-recordings and -import-recordings need -redis URL"))
	}
	if r.exportRecs != "" && r.importRecs != "" {
		return fail(2, errors.New("-export-recordings and -import-recordings go one at a time"))
	}
	shared, err := redisstate.Open(r.url, redisstate.Options{Watch: -1})
	if err != nil {
		return fail(2, err)
	}
	defer shared.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := shared.Store.Ping(ctx); err != nil {
		return fail(1, err)
	}
	var (
		c    cache.Copied
		dir  = r.exportRecs
		verb = "exported"
	)
	warn := func(err error) { fmt.Fprintf(stderr, "toolserver: %v\n", err) }
	if r.importRecs != "" {
		dir, verb = r.importRecs, "imported"
		store, err := cache.Open(dir, cache.Options{ReadOnly: true, Warn: warn})
		if err != nil {
			return fail(1, err)
		}
		defer store.Close()
		c, err = cache.ImportRedis(ctx, store, shared.Store)
		if err != nil {
			return fail(1, err)
		}
	} else {
		store, err := cache.Open(dir, cache.Options{Warn: warn})
		if err != nil {
			return fail(1, err)
		}
		defer store.Close()
		c, err = cache.ExportRedis(ctx, shared.Store, store)
		if err != nil {
			return fail(1, err)
		}
	}
	b, _ := json.Marshal(c)
	fmt.Fprintf(stdout, "toolserver: %s %d recordings (%s)\n%s\n", verb, c.Entries, dir, b)
	if len(c.Edited) > 0 {
		// Copied as stored, checksum and all: -verify-recordings lists them.
		for _, p := range c.Edited {
			fmt.Fprintf(stderr, "toolserver: %s: checksum mismatch (changed after it was recorded); %s with the checksum it had\n", p, verb)
		}
		fmt.Fprintf(stderr, "toolserver: %d of the recordings %s were changed after they were recorded\n", len(c.Edited), verb)
	}
	for _, p := range c.Later {
		fmt.Fprintf(stderr, "toolserver: %s: of a later format than this version reads; %s byte for byte\n", p, verb)
	}
	if len(c.Unreadable) == 0 {
		return 0
	}
	for _, p := range c.Unreadable {
		fmt.Fprintf(stderr, "toolserver: %s: cannot be read, not %s\n", p, verb)
	}
	if r.allowSkips {
		fmt.Fprintf(stderr, "toolserver: %d entries left behind (-allow-skips)\n", len(c.Unreadable))
		return 0
	}
	fmt.Fprintf(stderr, "toolserver: %d entries left behind; -allow-skips accepts that\n", len(c.Unreadable))
	return 1
}
