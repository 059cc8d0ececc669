package cache

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// newMiniRedis starts an in-process Redis and a store over it.
func newMiniRedis(t *testing.T, opts RedisOptions) (*miniredis.Miniredis, *RedisStore) {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1, DialTimeout: time.Second})
	t.Cleanup(func() { rdb.Close() })
	return m, NewRedisStore(rdb, opts)
}

func TestRedisStorePutGetSameDocumentAsAFile(t *testing.T) {
	ctx := context.Background()
	m, rs := newMiniRedis(t, RedisOptions{})
	k := weatherKey()

	_, ok, err := rs.Get(k)
	require.NoError(t, err)
	require.False(t, ok)

	e := Entry{Response: json.RawMessage(`{ "temp_c" : 18.5 }`), Source: "remote"}
	require.NoError(t, rs.Put(ctx, k, e))
	got, ok, err := rs.Get(k)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `{"temp_c":18.5}`, string(got.Response))
	require.Equal(t, 200, got.Status)
	require.Equal(t, "remote", got.Source)
	require.Equal(t, k.Args(), string(got.Arguments))

	// The value in Redis is byte for byte the entry file a directory store writes.
	dir := t.TempDir()
	s, _ := openTest(t, dir, Options{})
	require.NoError(t, s.Put(k, e))
	file, err := os.ReadFile(filepath.Join(dir, entryPath(k.Hash())))
	require.NoError(t, err)
	stored, err := m.Get("understudy:rec:" + k.Hash())
	require.NoError(t, err)
	require.Equal(t, string(file), stored)

	// Putting again replaces the entry and keeps one index member.
	require.NoError(t, rs.Put(ctx, k, Entry{Response: json.RawMessage(`{"temp_c":19}`)}))
	n, err := rs.Len(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
}

func TestRedisStoreBadEntries(t *testing.T) {
	m, rs := newMiniRedis(t, RedisOptions{Prefix: "t:"})
	k := weatherKey()
	tests := []struct {
		name  string
		value string
	}{
		{"truncated", `{"format":"understudy-recording/1","key":`},
		{"empty", ``},
		{"another call's entry", `{"format":"understudy-recording/1","key":"` + KeyOf("a", "b", nil).Hash() + `"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, m.Set("t:rec:"+k.Hash(), tc.value))
			_, ok, err := rs.Get(k)
			require.False(t, ok)
			var ce *CorruptError
			require.ErrorAs(t, err, &ce)
			require.Equal(t, "redis:t:rec:"+k.Hash(), ce.Path)
		})
	}
	t.Run("wrong type", func(t *testing.T) {
		m.Del("t:rec:" + k.Hash())
		_, err := m.Lpush("t:rec:"+k.Hash(), "x")
		require.NoError(t, err)
		_, ok, err := rs.Get(k)
		require.False(t, ok)
		var ce *CorruptError
		require.ErrorAs(t, err, &ce)
	})
	t.Run("invalid key", func(t *testing.T) {
		_, _, err := rs.Get(Key{hash: "../etc"})
		var ie *InvalidKeyError
		require.ErrorAs(t, err, &ie)
	})
}

func TestRedisStoreUnavailable(t *testing.T) {
	ctx := context.Background()
	m, rs := newMiniRedis(t, RedisOptions{})
	k := weatherKey()
	require.NoError(t, rs.Put(ctx, k, Entry{Response: json.RawMessage(`1`)}))
	m.Close()

	_, ok, err := rs.Get(k)
	require.False(t, ok)
	var ue *UnavailableError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, "get", ue.Op)

	err = rs.Put(ctx, k, Entry{Response: json.RawMessage(`2`)})
	require.ErrorAs(t, err, &ue)
	require.Equal(t, "put", ue.Op)
	_, _, _, err = rs.LockKey(ctx, k)
	require.ErrorAs(t, err, &ue)
	require.ErrorAs(t, rs.Ping(ctx), &ue)

	// Back on the same address: the client reconnects by itself, and the
	// failed Put wrote nothing.
	require.NoError(t, m.Restart())
	e, ok, err := rs.Get(k)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "1", string(e.Response))
}

func TestRedisExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	_, rs := newMiniRedis(t, RedisOptions{})
	defer func(n int64) { walkPage = n }(walkPage)
	walkPage = 7 // the entries fill four pages and part of a fifth
	var want []string
	for i := range 30 {
		k := KeyOf("tool", "api", map[string]any{"i": i})
		require.NoError(t, rs.Put(ctx, k, Entry{Response: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)), Source: "remote"}))
		want = append(want, k.Hash())
	}
	dir := t.TempDir()
	s, w := openTest(t, dir, Options{})
	c, err := ExportRedis(ctx, rs, s)
	require.NoError(t, err)
	require.Equal(t, Copied{Entries: 30}, c)
	require.Equal(t, 30, s.Scan().Entries)
	require.Empty(t, w.list())

	// Walk is in hash order, each entry once.
	var walked []string
	require.NoError(t, rs.Walk(ctx, nil, func(k Key, _ Entry) error { walked = append(walked, k.Hash()); return nil }))
	require.Len(t, walked, 30)
	require.IsIncreasing(t, walked)
	require.ElementsMatch(t, want, walked)

	// Into a fresh Redis and back out: the same files.
	_, rs2 := newMiniRedis(t, RedisOptions{})
	c, err = ImportRedis(ctx, s, rs2)
	require.NoError(t, err)
	require.Equal(t, Copied{Entries: 30}, c)
	dir2 := t.TempDir()
	s2, _ := openTest(t, dir2, Options{})
	_, err = ExportRedis(ctx, rs2, s2)
	require.NoError(t, err)
	for _, h := range want[:20] {
		a, err := os.ReadFile(filepath.Join(dir, entryPath(h)))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(dir2, entryPath(h)))
		require.NoError(t, err)
		require.Equal(t, string(a), string(b))
	}
}

func TestRedisLockKey(t *testing.T) {
	ctx := context.Background()
	m, rs := newMiniRedis(t, RedisOptions{LockTTL: 3 * time.Second, Poll: time.Millisecond})
	k := weatherKey()

	unlock, _, found, err := rs.LockKey(ctx, k)
	require.NoError(t, err)
	require.False(t, found)
	require.True(t, m.Exists("understudy:lock:"+k.Hash()))

	// A second caller waits until the holder records and unlocks, then
	// gets the entry instead of the lock.
	type out struct {
		e     Entry
		found bool
		err   error
	}
	res := make(chan out, 1)
	go func() {
		u, e, found, err := rs.LockKey(ctx, k)
		if u != nil {
			u()
		}
		res <- out{e, found, err}
	}()
	require.NoError(t, rs.Put(ctx, k, Entry{Response: json.RawMessage(`{"ok":true}`)}))
	unlock()
	got := bounded.Recv(t, res, "the second caller of LockKey")
	require.NoError(t, got.err)
	require.True(t, got.found)
	require.Equal(t, `{"ok":true}`, string(got.e.Response))
	require.False(t, m.Exists("understudy:lock:"+k.Hash()))
}

func TestRedisLockKeyCrashedHolderExpires(t *testing.T) {
	ctx := context.Background()
	m, rs := newMiniRedis(t, RedisOptions{LockTTL: 5 * time.Second, Poll: time.Millisecond})
	k := weatherKey()
	// A holder that crashed: its lock is there and nobody renews it.
	require.NoError(t, m.Set("understudy:lock:"+k.Hash(), "dead-holder"))
	m.SetTTL("understudy:lock:"+k.Hash(), 5*time.Second)

	var wg sync.WaitGroup
	var unlock func()
	var lerr error
	wg.Go(func() { unlock, _, _, lerr = rs.LockKey(ctx, k) })
	// Still held by the dead holder until its expiry passes.
	require.True(t, m.Exists("understudy:lock:"+k.Hash()))
	m.FastForward(5 * time.Second)
	bounded.Wait(t, &wg, "LockKey after the dead holder's lock expired")
	require.NoError(t, lerr)
	require.NotNil(t, unlock)
	v, err := m.Get("understudy:lock:" + k.Hash())
	require.NoError(t, err)
	require.NotEqual(t, "dead-holder", v)
	unlock()
	require.False(t, m.Exists("understudy:lock:"+k.Hash()))

	// Waiting ends with the caller's context.
	require.NoError(t, m.Set("understudy:lock:"+k.Hash(), "other"))
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, _, _, err = rs.LockKey(cctx, k)
	require.ErrorIs(t, err, context.Canceled)
}
