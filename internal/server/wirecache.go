package server

import (
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/understudy/understudy/toolset"
)

// DefaultAPICacheBytes bounds the routes of the RapidAPI wire kept at once
// (16 MiB), built per tool on its first call: unbounded, 6,000 distinct
// APIs of a 3,000-tool tree grew the server from 130 to 198 MB resident.
const DefaultAPICacheBytes = 16 << 20

// The estimated cost of a host's routes: a ServeMux, and per pattern its
// parsed segments and routing node (BenchmarkWireRouteBytes).
const (
	wireHostBytes  = 1536
	wireRouteBytes = 768
)

// hostCache keeps the built routes of the most recently called hosts
// within a budget of estimated bytes, least recently used out first. A
// host evicted is built again on its next call, the same routes from the
// same catalog: answers do not change, only the time of that call.
type hostCache struct {
	max int64 // negative: no bound

	mu      sync.Mutex
	lru     *simplelru.LRU[string, *lazyHostWire]
	bytes   int64
	evicted int64
}

func newHostCache(max int64) *hostCache {
	if max == 0 {
		max = DefaultAPICacheBytes
	}
	c := &hostCache{max: max}
	c.lru, _ = simplelru.NewLRU[string, *lazyHostWire](math.MaxInt32, func(_ string, l *lazyHostWire) {
		c.bytes -= l.bytes
		c.evicted++
	})
	return c
}

// entry is the host's entry, made (not yet built) when missing.
func (c *hostCache) entry(h string) *lazyHostWire {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l, ok := c.lru.Get(h); ok {
		return l
	}
	l := new(lazyHostWire)
	c.lru.Add(h, l)
	return l
}

// built counts an entry's routes once built and evicts the least recently
// used hosts until the cache fits its budget (the newest always stays).
func (c *hostCache) built(h string, l *lazyHostWire, cost int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur, ok := c.lru.Peek(h); !ok || cur != l {
		return // evicted while it was being built
	}
	l.bytes = cost
	c.bytes += cost
	for c.max > 0 && c.bytes > c.max && c.lru.Len() > 1 {
		c.lru.RemoveOldest()
	}
}

// APICacheStats are the counts of the per-API caches.
type APICacheStats struct {
	Entries, Bytes, Evicted int64
}

func (c *hostCache) stats() APICacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return APICacheStats{Entries: int64(c.lru.Len()), Bytes: c.bytes, Evicted: c.evicted}
}

func (c *hostCache) WritePrometheus(w io.Writer) error {
	return writeCacheMetrics(w, "understudy_api_cache", "Tools whose wire routes are kept.", c.stats())
}

// schemaCache writes the counts of the catalog's per-API cache (see
// Options.SchemaCacheBytes).
type schemaCache struct{ cat *toolset.Catalog }

func (c schemaCache) WritePrometheus(w io.Writer) error {
	st := c.cat.CacheStats()
	return writeCacheMetrics(w, "understudy_api_schema_cache", "Compiled argument checks, parsed response schemas and answer plans kept, by API.",
		APICacheStats{Entries: st.Entries, Bytes: st.Bytes, Evicted: st.Evicted})
}

// writeCacheMetrics writes a byte-bounded cache's three series under name:
// its entries (described by what), their estimated bytes, and evictions.
func writeCacheMetrics(w io.Writer, name, what string, st APICacheStats) error {
	_, err := fmt.Fprintf(w, `# HELP %[1]s_entries %[2]s
# TYPE %[1]s_entries gauge
%[1]s_entries %[3]d
# HELP %[1]s_bytes Their estimated bytes.
# TYPE %[1]s_bytes gauge
%[1]s_bytes %[4]d
# HELP %[1]s_evicted_total Evicted, least recently used first.
# TYPE %[1]s_evicted_total counter
%[1]s_evicted_total %[5]d
`, name, what, st.Entries, st.Bytes, st.Evicted)
	return err
}
