package toolset

import (
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// DefaultCacheBytes bounds what a catalog builds per API on its first use
// and keeps (16 MiB): compiled argument validators, parsed response
// schemas and the values other packages keep through KeepFor (the faker's
// answer plans). Unbounded, 6,000 distinct APIs of a 3,000-tool tree kept
// about 3 KB each for good.
const DefaultCacheBytes = 16 << 20

// CacheStats are the counts of a catalog's per-API cache.
type CacheStats struct {
	Entries, Bytes, Evicted int64
}

// apiCache keeps, within a budget of estimated bytes, the values built
// per API of a catalog, the least recently used out first. An evicted
// value is built again on its next use from what the API keeps (its
// parameters, its response schema as written), the same value: answers
// and validation results do not change, only the time of that call.
//
// Recency is second chance rather than a move on every use: the hot path
// of a validator or a response schema is an atomic load and a flag, and
// eviction gives an entry used since it was last looked at one more round.
type apiCache struct {
	max atomic.Int64 // 0: DefaultCacheBytes; negative: no bound

	mu      sync.Mutex
	lru     *simplelru.LRU[cacheKey, *cacheEntry]
	bytes   int64
	evicted int64
}

// cacheKey is one value of one API: slot is a value of the owning
// package's own type (as Catalog.Derived's keys are), or one of
// slotValidator and slotResponse.
type cacheKey struct {
	api  *API
	slot any
}

type slotKind int

const (
	slotValidator slotKind = iota
	slotResponse
)

type cacheEntry struct {
	v     any
	bytes int64
	used  *atomic.Bool // second chance; nil for entries touched through KeepFor
	drop  func()       // clears the API's pointer to the value, if it has one
}

func newAPICache() *apiCache {
	c := &apiCache{}
	c.lru, _ = simplelru.NewLRU[cacheKey, *cacheEntry](math.MaxInt32, func(_ cacheKey, e *cacheEntry) {
		c.bytes -= e.bytes
		c.evicted++
		if e.drop != nil {
			e.drop()
		}
	})
	return c
}

func (c *apiCache) bound() int64 {
	if m := c.max.Load(); m != 0 {
		return m
	}
	return DefaultCacheBytes
}

// add counts a value just built and evicts until the cache fits its
// budget; the newest entry always stays.
func (c *apiCache) add(k cacheKey, e *cacheEntry) {
	e.bytes += entryBytes
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.lru.Peek(k); ok {
		c.bytes -= old.bytes // replaced, not evicted: its pointer is the caller's
	}
	c.lru.Add(k, e)
	c.bytes += e.bytes
	c.fit(k)
}

// fit evicts, least recently used first, until the cache is within its
// bound, giving an entry used since the last round one more; keep is
// never evicted.
func (c *apiCache) fit(keep cacheKey) {
	max := c.bound()
	for max > 0 && c.bytes > max && c.lru.Len() > 1 {
		k, e, _ := c.lru.GetOldest()
		if k == keep || (e.used != nil && e.used.Swap(false)) {
			c.lru.Get(k) // to the front
			continue
		}
		c.lru.RemoveOldest()
	}
}

// get is a KeepFor value, moved to the front.
func (c *apiCache) get(k cacheKey) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.lru.Get(k)
	if !ok {
		return nil, false
	}
	return e.v, true
}

func (c *apiCache) stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{Entries: int64(c.lru.Len()), Bytes: c.bytes, Evicted: c.evicted}
}

// SetCacheBytes bounds the estimated bytes of what the catalog builds per
// API on first use and keeps (see DefaultCacheBytes): 0 is the default,
// negative no bound. A smaller bound evicts at once.
func (c *Catalog) SetCacheBytes(n int64) {
	if c == nil || c.cache == nil {
		return
	}
	c.cache.max.Store(n)
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	if c.cache.lru.Len() > 0 {
		c.cache.fit(c.cache.newest())
	}
}

// newest is the most recently used key; the cache is not empty.
func (c *apiCache) newest() cacheKey {
	keys := c.lru.Keys()
	return keys[len(keys)-1]
}

// CacheStats are the counts of the catalog's per-API cache.
func (c *Catalog) CacheStats() CacheStats {
	if c == nil || c.cache == nil {
		return CacheStats{}
	}
	return c.cache.stats()
}

// KeepFor returns the value build makes for the API under key, keeping
// it in its catalog's per-API cache, within the catalog's bound, with
// build's estimate of its bytes; an evicted value is built again on the
// next call. key is a value of a type of the calling package, so that no
// two packages share one. ok is false for an API in no catalog, whose
// values the caller keeps as it sees fit (build is not called).
func (a *API) KeepFor(key any, build func() (v any, bytes int64)) (v any, ok bool) {
	c := a.cache
	if c == nil {
		return nil, false
	}
	k := cacheKey{api: a, slot: key}
	if v, ok := c.get(k); ok {
		return v, true
	}
	v, n := build()
	c.add(k, &cacheEntry{v: v, bytes: n})
	return v, true
}

// compiled is the API's validator, compiled and kept in the catalog's
// cache when missing.
func (a *API) compiled() *validator {
	for {
		v := a.validator.Load()
		if v != nil {
			if !v.used.Load() {
				v.used.Store(true)
			}
			return v
		}
		v = compileValidator(a)
		if a.cache == nil {
			a.validator.Store(v) // in no catalog: kept for the API's life
			return v
		}
		if !a.validator.CompareAndSwap(nil, v) {
			continue // another call compiled it first: use that one
		}
		a.cache.add(cacheKey{api: a, slot: slotValidator}, &cacheEntry{v: v, bytes: v.bytes, used: &v.used,
			drop: func() { a.validator.CompareAndSwap(v, nil) }})
		return v
	}
}

// parsedResponse is a response schema parsed from the source's JSON.
type parsedResponse struct {
	s     *openapi3.Schema
	bytes int64
	used  atomic.Bool
}

// parsedResponseSchema is the schema responseRaw says, parsed and kept
// in the catalog's cache when missing.
func (a *API) parsedResponseSchema() *openapi3.Schema {
	for {
		p := a.response.Load()
		if p != nil {
			if !p.used.Load() {
				p.used.Store(true)
			}
			return p.s
		}
		s := lenientSchema(a.responseRaw)
		p = &parsedResponse{s: s, bytes: schemaBytes(s, 0) + int64(unsafe.Sizeof(parsedResponse{}))}
		if a.cache == nil {
			a.response.Store(p)
			return s
		}
		if !a.response.CompareAndSwap(nil, p) {
			continue
		}
		a.cache.add(cacheKey{api: a, slot: slotResponse}, &cacheEntry{v: p, bytes: p.bytes, used: &p.used,
			drop: func() { a.response.CompareAndSwap(p, nil) }})
		return s
	}
}

// entryBytes is the cache's own heap per entry: its list element, map
// slot, entry and the closure that drops the API's pointer (a heap
// profile of BenchmarkAPICacheBytes shows about 250).
const entryBytes = 256

// The estimated heap of a schema node beyond its strings: the Schema
// struct, its SchemaRef and map slot (BenchmarkAPICacheBytes checks the
// estimates against the heap).
var schemaNodeBytes = int64(unsafe.Sizeof(openapi3.Schema{}) + unsafe.Sizeof(openapi3.SchemaRef{}) + 48)

// schemaBytes estimates a parsed schema's heap.
func schemaBytes(s *openapi3.Schema, depth int) int64 {
	if s == nil || depth > 64 {
		return 0
	}
	n := schemaNodeBytes + int64(len(s.Description)+len(s.Title)+len(s.Format)+len(s.Pattern)) + 16*int64(len(s.Enum)+len(s.Required))
	if s.Type != nil {
		n += 32
	}
	for name, r := range s.Properties {
		n += int64(len(name)) + 32
		if r != nil {
			n += schemaBytes(r.Value, depth+1)
		}
	}
	if s.Items != nil {
		n += schemaBytes(s.Items.Value, depth+1)
	}
	if s.AdditionalProperties.Schema != nil {
		n += schemaBytes(s.AdditionalProperties.Schema.Value, depth+1)
	}
	if s.Not != nil {
		n += schemaBytes(s.Not.Value, depth+1)
	}
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, r := range list {
			if r != nil {
				n += schemaBytes(r.Value, depth+1) + 8
			}
		}
	}
	if s.Example != nil {
		n += 64
	}
	return n
}
