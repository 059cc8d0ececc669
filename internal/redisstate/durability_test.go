package redisstate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/redisstate"
	"github.com/understudy/understudy/internal/redisstate/redistest"
	"github.com/understudy/understudy/sandbox"
)

// logBuffer collects a replica's log lines.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// realReplica is one replica on a real redis-server, with its own
// recordings folder (dir, "" for none) and a fast watcher.
type realReplica struct {
	shared *redisstate.Shared
	recs   *redisstate.Recordings
	store  *cache.Store
	log    *logBuffer
}

func newRealReplica(t *testing.T, rs *redistest.Server, dir string, opts redisstate.Options) *realReplica {
	t.Helper()
	r := &realReplica{log: &logBuffer{}}
	if dir != "" {
		var err error
		r.store, err = cache.Open(dir, cache.Options{})
		require.NoError(t, err)
		t.Cleanup(func() { r.store.Close() })
	}
	c, err := cache.NewCache(cache.CacheOptions{Store: r.store})
	require.NoError(t, err)
	opts.Local = r.store
	opts.Logger = slog.New(slog.NewTextHandler(r.log, nil))
	if opts.Watch == 0 {
		opts.Watch = 20 * time.Millisecond
	}
	r.shared, err = redisstate.Open(rs.URL(0), opts)
	require.NoError(t, err)
	t.Cleanup(func() { r.shared.Close() })
	r.recs = r.shared.Recordings(assemble.Recordings{Cache: c})
	return r
}

func (r *realReplica) health(t *testing.T) map[string]any {
	t.Helper()
	var h map[string]any
	require.Eventually(t, func() bool {
		h, _ = r.shared.Health(context.Background())
		return h["persistence"] != nil
	}, bounded.Timeout, 10*time.Millisecond, "the replica reads the server's persistence")
	return h
}

// TestPersistenceIsReadAndStated: a replica reads the server's persistence
// settings when it connects and says in Health (and its log) when
// recordings live only in Redis's memory; where CONFIG is disabled it
// says it cannot tell the snapshots, and reads the AOF from INFO.
func TestPersistenceIsReadAndStated(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		durable bool
		rdb     string
		aof     string
		warning string
	}{
		{"none", redistest.NoPersistence, false, "", "off", "persists nothing"},
		{"rdb", []string{"--save", "60 1000", "--appendonly", "no"}, true, "60 1000", "off", ""},
		{"aof", []string{"--save", "", "--appendonly", "yes", "--appendfsync", "always"}, true, "", "always", ""},
		{"config disabled, no aof", []string{"--save", "", "--appendonly", "no", "--rename-command", "CONFIG", ""}, false, "unknown", "off", "cannot tell"},
		{"config disabled, aof", []string{"--save", "", "--appendonly", "yes", "--rename-command", "CONFIG", ""}, true, "unknown", "on", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := redistest.StartWith(t, tc.args...)
			r := newRealReplica(t, rs, t.TempDir(), redisstate.Options{Mirror: true})
			h := r.health(t)
			p := h["persistence"].(redisstate.Persistence)
			require.Equal(t, tc.rdb, p.Save)
			require.Equal(t, tc.aof, p.AppendOnly)
			require.Equal(t, tc.durable, h["durable"])
			if tc.warning == "" {
				require.NotContains(t, h, "warning")
				return
			}
			require.Contains(t, h["warning"], tc.warning)
			require.Contains(t, h["warning"], "mirrors its recordings to")
			require.Contains(t, r.log.String(), tc.warning, "said in the log at start too")
		})
	}
}

// TestMirrorSurvivesARedisRestart: with a server that persists nothing,
// every recording is on the replica's disk too, and after redis-server
// restarts empty the replica pushes them back: nothing acknowledged is
// lost, and another replica serves them again.
func TestMirrorSurvivesARedisRestart(t *testing.T) {
	ctx := context.Background()
	rs := redistest.Start(t)
	a := newRealReplica(t, rs, t.TempDir(), redisstate.Options{Mirror: true})
	b := newRealReplica(t, rs, "", redisstate.Options{})
	const n = 40
	var keys []string
	for i := range n {
		args := map[string]any{"city": fmt.Sprintf("City%d", i)}
		key := a.recs.Key("demo_weather", "current", args)
		require.NoError(t, a.recs.Put(ctx, key, "demo_weather", "current", args, sandbox.Recording{Status: 200, Response: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}))
		keys = append(keys, key)
	}
	require.Equal(t, n, a.store.Scan().Entries, "mirrored on disk")

	rs.Kill()
	rs.Restart() // empty: nothing was persisted
	require.Eventually(t, func() bool {
		for _, k := range keys {
			if _, ok, err := b.recs.Get(ctx, k); !ok || err != nil {
				return false
			}
		}
		return true
	}, bounded.Timeout, 20*time.Millisecond, "the other replica serves every recording again")
	require.Contains(t, a.log.String(), "redis restarted")
	require.Contains(t, a.log.String(), "pushed recordings Redis lacked")
}

// TestFallbackRecordingsReachRedisWhenItReturns: with -redis-fallback
// local, what a replica records while Redis is down goes to its folder,
// and to Redis once Redis is back.
func TestFallbackRecordingsReachRedisWhenItReturns(t *testing.T) {
	ctx := context.Background()
	rs := redistest.StartWith(t, "--save", "", "--appendonly", "yes")
	a := newRealReplica(t, rs, t.TempDir(), redisstate.Options{FallbackLocal: true, Retry: 10 * time.Millisecond})
	b := newRealReplica(t, rs, "", redisstate.Options{})
	a.health(t)
	rs.Kill()
	args := map[string]any{"city": "Oslo"}
	key := a.recs.Key("demo_weather", "current", args)
	require.NoError(t, a.recs.Put(ctx, key, "demo_weather", "current", args, sandbox.Recording{Status: 200, Response: json.RawMessage(`{"t":2}`)}))
	rs.Restart()
	require.Eventually(t, func() bool {
		_, _, _ = a.recs.Get(ctx, key) // a call: Redis answers, it is back
		rec, ok, err := b.recs.Get(ctx, key)
		return err == nil && ok && string(rec.Response) == `{"t":2}`
	}, bounded.Timeout, 20*time.Millisecond, "the recording made while Redis was down reached it")
}

// TestEditedInRedisIsNotServed: an entry changed inside Redis after it was
// recorded no longer matches its checksum: it is not served (a warning
// says why) unless the replica trusts edits, and the export keeps the
// stored checksum, so that verifying the export reports it.
func TestEditedInRedisIsNotServed(t *testing.T) {
	ctx := context.Background()
	rs := redistest.Start(t)
	strict := newRealReplica(t, rs, "", redisstate.Options{})
	trusting := newRealReplica(t, rs, "", redisstate.Options{TrustEdits: true})
	args := map[string]any{"city": "Rome"}
	key := strict.recs.Key("demo_weather", "current", args)
	require.NoError(t, strict.recs.Put(ctx, key, "demo_weather", "current", args, sandbox.Recording{Status: 200, Response: json.RawMessage(`{"t":20}`)}))

	rdb := redis.NewClient(&redis.Options{Addr: rs.Addr})
	defer rdb.Close()
	doc, err := rdb.Get(ctx, "understudy:rec:"+key).Result()
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(doc), &m))
	m["response"] = map[string]any{"t": 99}
	edited, err := json.Marshal(m)
	require.NoError(t, err)
	require.NoError(t, rdb.Set(ctx, "understudy:rec:"+key, edited, 0).Err())

	_, ok, err := strict.recs.Get(ctx, key)
	require.False(t, ok, "an entry edited in Redis is not served")
	require.ErrorContains(t, err, "checksum mismatch")
	require.Contains(t, strict.log.String(), "changed in Redis after it was recorded")
	rec, ok, err := trusting.recs.Get(ctx, key)
	require.NoError(t, err)
	require.True(t, ok)
	require.JSONEq(t, `{"t":99}`, string(rec.Response), "-trust-edits serves it as edited")
	require.Contains(t, trusting.log.String(), "edited after recording")

	dir := t.TempDir()
	out, err := cache.Open(dir, cache.Options{})
	require.NoError(t, err)
	c, err := cache.ExportRedis(ctx, strict.shared.Store, out)
	require.NoError(t, err)
	require.NoError(t, out.Close())
	require.Equal(t, 1, c.Entries)
	require.Equal(t, []string{key[:2] + "/" + key + ".json"}, c.Edited)
	rep, err := cache.Verify(dir, cache.VerifyOptions{})
	require.NoError(t, err)
	require.Len(t, rep.Problems, 1)
	require.Contains(t, rep.Problems[0].Reason, "checksum mismatch", "the export kept the stored checksum")
	b, err := os.ReadFile(filepath.Join(dir, key[:2], key+".json"))
	require.NoError(t, err)
	require.Equal(t, string(edited), string(b), "exported byte for byte as Redis holds it")
}
