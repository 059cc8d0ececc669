package redisstate_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/redisstate"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

func replica(t *testing.T, m *miniredis.Miniredis, opts redisstate.Options, dir string) (*redisstate.Recordings, *cache.Cache) {
	t.Helper()
	var store *cache.Store
	if dir != "" {
		var err error
		store, err = cache.Open(dir, cache.Options{})
		require.NoError(t, err)
		t.Cleanup(func() { store.Close() })
	}
	c, err := cache.NewCache(cache.CacheOptions{Store: store})
	require.NoError(t, err)
	s := redisstate.New(redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1, DialTimeout: 200 * time.Millisecond}), m.Addr(), opts)
	t.Cleanup(func() { s.Close() })
	return s.Recordings(assemble.Recordings{Cache: c}), c
}

func TestRecordingsSharedReadThroughAndDown(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	dir := t.TempDir()
	a, _ := replica(t, m, redisstate.Options{}, dir)
	b, _ := replica(t, m, redisstate.Options{}, "")
	args := map[string]any{"city": "Lisbon"}
	key := a.Key("demo_weather", "current", args)
	require.Equal(t, cache.KeyOf("demo_weather", "current", args).Hash(), key, "the same keys as every store")

	// A recording in replica a's directory is read through, and not copied.
	local, err := cache.Open(dir, cache.Options{})
	require.NoError(t, err)
	k := cache.KeyOf("demo_weather", "current", map[string]any{"city": "Paris"})
	require.NoError(t, local.Put(k, cache.Entry{Response: json.RawMessage(`{"from":"dir"}`)}))
	local.Close()
	rec, ok, err := a.Get(ctx, k.Hash())
	require.NoError(t, err)
	require.True(t, ok)
	require.JSONEq(t, `{"from":"dir"}`, string(rec.Response))
	_, ok, err = b.Get(ctx, k.Hash())
	require.NoError(t, err)
	require.False(t, ok, "another replica's directory is not shared")

	// What one replica records, the other serves.
	require.NoError(t, a.Put(ctx, key, "demo_weather", "current", args, sandbox.Recording{Status: 200, Response: json.RawMessage(`{"t":19}`)}))
	rec, ok, err = b.Get(ctx, key)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `{"t":19}`, string(rec.Response))
	require.True(t, m.Exists("understudy:rec:"+key))

	// The fill lock: taken by one, the other finds the recording.
	unlock, _, found, err := b.LockKey(ctx, key)
	require.NoError(t, err)
	require.True(t, found)
	require.Nil(t, unlock)

	// Redis down: a clear unavailable error, no false miss.
	m.Close()
	_, _, err = b.Get(ctx, key)
	require.Equal(t, sandbox.KindUnavailable, sandbox.KindOf(err), "%v", err)
	err = b.Put(ctx, key, "demo_weather", "current", args, sandbox.Recording{Status: 200, Response: json.RawMessage(`{}`)})
	require.Equal(t, sandbox.KindUnavailable, sandbox.KindOf(err), "%v", err)
	require.NoError(t, m.Restart())
	rec, ok, err = b.Get(ctx, key)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `{"t":19}`, string(rec.Response), "the failed Put wrote nothing")
}

func TestRecordingsFallBackToLocal(t *testing.T) {
	ctx := context.Background()
	m := miniredis.RunT(t)
	a, c := replica(t, m, redisstate.Options{FallbackLocal: true}, "")
	args := map[string]any{"city": "Oslo"}
	key := a.Key("demo_weather", "current", args)
	m.Close()
	require.NoError(t, a.Put(ctx, key, "demo_weather", "current", args, sandbox.Recording{Status: 200, Response: json.RawMessage(`{"t":2}`)}))
	require.Equal(t, 1, c.Len(), "recorded in this replica's own store")
	rec, ok, err := a.Get(ctx, key)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `{"t":2}`, string(rec.Response))
	unlock, _, found, err := a.LockKey(ctx, key)
	require.NoError(t, err)
	require.False(t, found)
	unlock()
}

// upstreamFunc is a real API for tests.
type upstreamFunc func(ctx context.Context, api *toolset.API, args map[string]any) (sandbox.UpstreamResponse, error)

func (f upstreamFunc) Do(ctx context.Context, api *toolset.API, args map[string]any) (sandbox.UpstreamResponse, error) {
	return f(ctx, api, args)
}

// TestNoteSaysWhereARecordingWent: when Redis goes away while the upstream
// answers, the recording is in the mirror folder and the answer says
// "recorded to the local mirror, pending push to Redis", not "not
// recorded"; without a mirror it says "not recorded". Before, the answer
// said "not recorded" although the mirror had the entry and pushed it.
func TestNoteSaysWhereARecordingWent(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mirror bool
		note   string
	}{
		{"with the mirror", true, "recorded to the local mirror, pending push to Redis"},
		{"without the mirror", false, "not recorded: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := miniredis.RunT(t)
			dir := t.TempDir()
			st, err := assemble.Build(assemble.Config{Mode: sandbox.ModeRecord, CacheDir: dir, Redis: "redis://" + m.Addr() + "/0", RedisNoMirror: !tc.mirror,
				Upstream: upstreamFunc(func(context.Context, *toolset.API, map[string]any) (sandbox.UpstreamResponse, error) {
					m.Close() // Redis goes away during the call
					return sandbox.UpstreamResponse{Status: 200, Body: json.RawMessage(`{"result":"4"}`)}, nil
				})})
			require.NoError(t, err)
			defer st.Close()
			res, err := st.Engine.Call(context.Background(), sandbox.Request{Tool: "calculator", API: "calculate", Arguments: map[string]any{"expression": "2+2"}})
			require.NoError(t, err)
			require.Equal(t, sandbox.SourceRemote, res.Source)
			require.Contains(t, res.UpstreamError, tc.note)
			local, err := cache.Open(dir, cache.Options{ReadOnly: true})
			require.NoError(t, err)
			defer local.Close()
			_, ok, err := local.Get(cache.KeyOf("calculator", "calculate", map[string]any{"expression": "2+2"}))
			require.NoError(t, err)
			require.Equal(t, tc.mirror, ok, "the mirror folder holds the recording")
			if tc.mirror {
				require.NotContains(t, res.UpstreamError, "not recorded")
			}
		})
	}
}
