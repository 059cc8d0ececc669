package cache

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCacheMemoryOnly(t *testing.T) {
	ctx := context.Background()
	c, err := NewCache(CacheOptions{})
	require.NoError(t, err)
	k := weatherKey()
	_, ok, err := c.Get(ctx, k)
	require.NoError(t, err)
	require.False(t, ok)
	require.NoError(t, c.Put(ctx, k, Entry{Response: json.RawMessage(` {"a": 1} `)}))
	e, ok, err := c.Get(ctx, k)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `{"a":1}`, string(e.Response))
	require.Equal(t, 200, e.Status)
	require.Equal(t, "weatherapi_com", e.Tool)
	// Keys made from the hash alone find it too (engine adapters carry strings).
	hk, err := KeyFromHash(k.Hash())
	require.NoError(t, err)
	_, ok, _ = c.Get(ctx, hk)
	require.True(t, ok)
	st := c.Stats()
	require.Equal(t, int64(2), st.Hits)
	require.Equal(t, int64(1), st.Misses)
	// Bad input is refused, not stored.
	require.Error(t, c.Put(ctx, k, Entry{Response: json.RawMessage(`nope`)}))
	require.Error(t, c.Put(ctx, hk, Entry{Response: json.RawMessage(`1`)}))
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	require.ErrorIs(t, c.Put(cctx, k, Entry{Response: json.RawMessage(`1`)}), context.Canceled)
}

func TestCacheWriteThroughAndLayers(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _ := openTest(t, dir, Options{})
	builtinDir := t.TempDir()
	b, _ := openTest(t, builtinDir, Options{})
	fromBuiltin := KeyOf("t", "builtin", nil)
	require.NoError(t, b.Put(fromBuiltin, Entry{Response: json.RawMessage(`"b"`)}))
	builtin, err := OpenFS(os.DirFS(builtinDir), Options{})
	require.NoError(t, err)

	c, err := NewCache(CacheOptions{Store: s, Fallback: builtin})
	require.NoError(t, err)
	k := weatherKey()
	require.NoError(t, c.Put(ctx, k, Entry{Response: json.RawMessage(`{"x":1}`)}))
	// Written through to disk.
	e, ok, err := s.Get(k)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `{"x":1}`, string(e.Response))

	// A fresh cache over the same stores loads from disk, then from memory.
	c2, err := NewCache(CacheOptions{Store: s, Fallback: builtin})
	require.NoError(t, err)
	for range 2 {
		e, ok, err = c2.Get(ctx, k)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, `{"x":1}`, string(e.Response))
	}
	e, ok, err = c2.Get(ctx, fromBuiltin)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `"b"`, string(e.Response))
	st := c2.Stats()
	require.Equal(t, int64(2), st.DiskHits)
	require.Equal(t, int64(1), st.Hits)

	// A corrupt stored entry is a miss with the error, not a crash.
	bad := KeyOf("t", "bad", nil)
	require.NoError(t, c2.Put(ctx, bad, Entry{Response: json.RawMessage(`1`)}))
	require.NoError(t, os.WriteFile(filepath.Join(dir, entryPath(bad.Hash())), []byte("{"), 0o644))
	c3, err := NewCache(CacheOptions{Store: s})
	require.NoError(t, err)
	_, ok, err = c3.Get(ctx, bad)
	require.False(t, ok)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
}

func TestCacheReadOnlyStoreKeepsServing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _ := openTest(t, dir, Options{ReadOnly: true})
	c, err := NewCache(CacheOptions{Store: s})
	require.NoError(t, err)
	k := weatherKey()
	err = c.Put(ctx, k, Entry{Response: json.RawMessage(`1`)})
	var we *WriteError
	require.ErrorAs(t, err, &we)
	require.ErrorIs(t, err, ErrReadOnly)
	e, ok, err := c.Get(ctx, k)
	require.NoError(t, err)
	require.True(t, ok, "held in memory for this process")
	require.Equal(t, "1", string(e.Response))
}

func TestCacheBounds(t *testing.T) {
	ctx := context.Background()
	t.Run("entries", func(t *testing.T) {
		c, err := NewCache(CacheOptions{MaxEntries: 3})
		require.NoError(t, err)
		for i := range 10 {
			require.NoError(t, c.Put(ctx, KeyOf("t", "a", map[string]any{"i": i}), Entry{Response: json.RawMessage(`1`)}))
			require.LessOrEqual(t, c.Len(), 3)
		}
		// The most recent three remain.
		for i := range 10 {
			_, ok, _ := c.Get(ctx, KeyOf("t", "a", map[string]any{"i": i}))
			require.Equal(t, i >= 7, ok, "entry %d", i)
		}
		require.Equal(t, int64(7), c.Stats().Evictions)
	})
	t.Run("replacing is not growing", func(t *testing.T) {
		c, err := NewCache(CacheOptions{MaxBytes: 1 << 20})
		require.NoError(t, err)
		k := weatherKey()
		for range 100 {
			require.NoError(t, c.Put(ctx, k, Entry{Response: json.RawMessage(`"` + strings.Repeat("z", 1000) + `"`)}))
		}
		require.Equal(t, 1, c.Len())
		e, _, _ := c.Get(ctx, k)
		require.Equal(t, e.size(), c.Bytes())
		require.Zero(t, c.Stats().Evictions)
	})
	t.Run("oversize entries are not held", func(t *testing.T) {
		c, err := NewCache(CacheOptions{MaxBytes: 1000})
		require.NoError(t, err)
		k := weatherKey()
		require.NoError(t, c.Put(ctx, k, Entry{Response: json.RawMessage(`"` + strings.Repeat("z", 2000) + `"`)}))
		require.Zero(t, c.Len())
		require.Zero(t, c.Bytes())
	})
}

// TestCacheMemoryBoundedUnderLoad puts far more large entries than the
// bound holds and checks both the accounted bytes and the live heap.
func TestCacheMemoryBoundedUnderLoad(t *testing.T) {
	ctx := context.Background()
	const maxBytes = 2 << 20
	c, err := NewCache(CacheOptions{MaxEntries: 100000, MaxBytes: maxBytes})
	require.NoError(t, err)
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	payload := `"` + strings.Repeat("p", 64<<10) + `"`
	for i := range 1000 { // 64 MiB offered
		require.NoError(t, c.Put(ctx, KeyOf("t", "big", map[string]any{"i": i}), Entry{Response: json.RawMessage(payload)}))
		require.LessOrEqual(t, c.Bytes(), int64(maxBytes))
	}
	require.Greater(t, c.Len(), 10)
	require.Less(t, c.Len(), 40)
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	growth := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("entries %d, accounted %d bytes, heap growth %d bytes", c.Len(), c.Bytes(), growth)
	require.Less(t, growth, int64(16<<20), "heap must stay near the byte bound, not the 64 MiB offered")
}

func BenchmarkCacheHit(b *testing.B) {
	ctx := context.Background()
	c, err := NewCache(CacheOptions{})
	require.NoError(b, err)
	k := weatherKey()
	require.NoError(b, c.Put(ctx, k, Entry{Response: json.RawMessage(`{"temp_c":18.5}`)}))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, _ := c.Get(ctx, k); !ok {
			b.Fatal("miss")
		}
	}
}

func BenchmarkCacheHitParallel(b *testing.B) {
	ctx := context.Background()
	c, err := NewCache(CacheOptions{})
	require.NoError(b, err)
	k := weatherKey()
	require.NoError(b, c.Put(ctx, k, Entry{Response: json.RawMessage(`{"temp_c":18.5}`)}))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Get(ctx, k)
		}
	})
}

func BenchmarkStoreGet(b *testing.B) {
	s, err := Open(b.TempDir(), Options{})
	require.NoError(b, err)
	defer s.Close()
	k := weatherKey()
	require.NoError(b, s.Put(k, Entry{Response: json.RawMessage(`{"location":{"name":"Paris"},"forecast":[{"day":1,"temp_c":18.5},{"day":2,"temp_c":19.1},{"day":3,"temp_c":17.0}]}`)}))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok, err := s.Get(k); !ok || err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStorePut(b *testing.B) {
	s, err := Open(b.TempDir(), Options{})
	require.NoError(b, err)
	defer s.Close()
	resp := json.RawMessage(`{"location":{"name":"Paris"},"forecast":[{"day":1,"temp_c":18.5},{"day":2,"temp_c":19.1},{"day":3,"temp_c":17.0}]}`)
	keys := make([]Key, 256)
	for i := range keys {
		keys[i] = KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "days": i})
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := s.Put(keys[i%len(keys)], Entry{Response: resp}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
