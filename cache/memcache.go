package cache

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// CacheOptions configures a Cache.
type CacheOptions struct {
	// MaxEntries bounds the entries held in memory (default 4096).
	MaxEntries int
	// MaxBytes bounds their approximate total size (default 64 MiB). An
	// entry larger than MaxBytes is never held in memory.
	MaxBytes int64
	// Store is consulted on a memory miss and written through by Put. Nil
	// makes the cache memory-only.
	Store *Store
	// Fallback is consulted after Store, read-only: typically the built-in
	// recordings (OpenFS). Nil for none.
	Fallback Reader
}

// Cache is a bounded in-memory LRU (golang-lru/v2) in front of the stores.
// It is safe for concurrent use.
type Cache struct {
	mu       sync.Mutex
	lru      *simplelru.LRU[string, Entry]
	bytes    int64
	maxBytes int64
	store    *Store
	layers   Layered

	hits, misses, diskHits, evictions atomic.Int64
}

// CacheStats counts what the cache did since it was made.
type CacheStats struct {
	Entries   int
	Bytes     int64
	Hits      int64 // answered from memory
	DiskHits  int64 // answered from a store, then held in memory
	Misses    int64
	Evictions int64
}

// NewCache makes a cache with the given bounds and layers.
func NewCache(opts CacheOptions) (*Cache, error) {
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = 4096
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 64 << 20
	}
	c := &Cache{maxBytes: opts.MaxBytes, store: opts.Store}
	lru, err := simplelru.NewLRU[string, Entry](opts.MaxEntries, c.evicted)
	if err != nil {
		return nil, err
	}
	c.lru = lru
	if opts.Store != nil {
		c.layers = append(c.layers, opts.Store)
	}
	if opts.Fallback != nil {
		c.layers = append(c.layers, opts.Fallback)
	}
	return c, nil
}

// evicted runs under c.mu, from inside the LRU.
func (c *Cache) evicted(_ string, e Entry) {
	c.bytes -= e.size()
	c.evictions.Add(1)
}

// Get returns the entry for key from memory, else from the stores (keeping
// it in memory). A corrupt stored entry is a miss with a *CorruptError.
// The returned entry shares its bytes with the cache: do not modify them.
func (c *Cache) Get(ctx context.Context, key Key) (Entry, bool, error) {
	c.mu.Lock()
	e, ok := c.lru.Get(key.hash)
	c.mu.Unlock()
	if ok {
		c.hits.Add(1)
		return e, true, nil
	}
	if len(c.layers) == 0 {
		c.misses.Add(1)
		return Entry{}, false, nil
	}
	if err := ctx.Err(); err != nil {
		return Entry{}, false, err
	}
	e, ok, err := c.layers.Get(key)
	if !ok {
		c.misses.Add(1)
		return Entry{}, false, err
	}
	c.diskHits.Add(1)
	c.add(key.hash, e)
	return e, true, nil
}

// Put records e under key: written through to the Store when there is one,
// and held in memory. When the write fails (a read-only or full directory)
// the entry is still held in memory for this process and the *WriteError is
// returned.
func (c *Cache) Put(ctx context.Context, key Key, e Entry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var werr error
	if c.store != nil {
		var err error
		e, err = c.store.put(key, e)
		var we *WriteError
		if err != nil && !errors.As(err, &we) {
			return err
		}
		werr = err
	} else {
		var err error
		if e, err = prepare(key, e, nil); err != nil {
			return err
		}
	}
	c.add(key.hash, e)
	return werr
}

// add holds e in memory, evicting the least recently used entries until
// both bounds hold.
func (c *Cache) add(hash string, e Entry) {
	sz := e.size()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru.Remove(hash) { // a replacement, not an eviction
		c.evictions.Add(-1)
	}
	if sz > c.maxBytes {
		return
	}
	c.lru.Add(hash, e) // may evict one entry by count, through c.evicted
	c.bytes += sz
	for c.bytes > c.maxBytes {
		if _, _, ok := c.lru.RemoveOldest(); !ok {
			break
		}
	}
}

// Len is the number of entries held in memory.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Bytes is the approximate size of the entries held in memory.
func (c *Cache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// Stats reports the cache's counters.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	n, b := c.lru.Len(), c.bytes
	c.mu.Unlock()
	return CacheStats{Entries: n, Bytes: b, Hits: c.hits.Load(), DiskHits: c.diskHits.Load(), Misses: c.misses.Load(), Evictions: c.evictions.Load()}
}
