package toolset_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/tbfile"
)

// cacheTree loads a generated ToolBench tree of n tool files as a catalog
// whose per-API cache has the given bound.
func cacheTree(tb testing.TB, dir string, bound int64) *toolset.Catalog {
	tb.Helper()
	c, err := loader.Load([]string{dir}, false)
	require.NoError(tb, err)
	c.SetCacheBytes(bound)
	return c
}

// argCases are the calls each API gets: a valid one, and ones that fail
// in every way a validator reports (missing, type, unknown), leniently
// and strictly.
func argCases(a *toolset.API) []struct {
	name string
	args map[string]any
	mode toolset.ValidationMode
} {
	good, bad := map[string]any{}, map[string]any{"zz_not_documented": 1}
	for _, p := range a.Params {
		switch p.Kind {
		case toolset.KindNumber, toolset.KindInteger:
			good[p.Name], bad[p.Name] = "5", "five"
		case toolset.KindBoolean:
			good[p.Name], bad[p.Name] = "true", "maybe"
		case toolset.KindArray, toolset.KindObject:
			good[p.Name], bad[p.Name] = nil, 7
		default:
			if len(p.Enum) > 0 {
				good[p.Name] = p.Enum[0]
			} else {
				good[p.Name] = "paris"
			}
			bad[p.Name] = []any{1}
		}
	}
	return []struct {
		name string
		args map[string]any
		mode toolset.ValidationMode
	}{
		{"good", good, ""},
		{"bad-lenient", bad, toolset.Lenient},
		{"bad-strict", bad, toolset.Strict},
		{"none", map[string]any{}, toolset.Strict},
	}
}

// outcome is everything a validation and the response schema say, as text.
func outcome(tb testing.TB, a *toolset.API, args map[string]any, mode toolset.ValidationMode) string {
	tb.Helper()
	out, warn, err := a.ValidateIn(args, mode)
	resp, jerr := json.Marshal(a.Response())
	require.NoError(tb, jerr)
	o, jerr := json.Marshal(out)
	require.NoError(tb, jerr)
	w, jerr := json.Marshal(warn)
	require.NoError(tb, jerr)
	return fmt.Sprintf("out=%s warn=%s err=%v response=%s", o, w, err, resp)
}

// TestCatalogCacheBounded: validating the calls of more distinct APIs
// than the per-API cache holds keeps it within its bytes, the least
// recently used evicted, and every result, validation error and response
// schema, first and after eviction, is byte for byte the unbounded
// catalog's.
func TestCatalogCacheBounded(t *testing.T) {
	dir, _ := tbgen.WriteTB(t, tbgen.Options{Tools: 60, Queries: make([]int, len(tbgen.Groups))})
	const bound = 16 << 10
	tests := []struct {
		name  string
		bound int64
	}{
		{"tiny", bound},
		{"one-entry", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			small := cacheTree(t, dir, tc.bound)
			unbounded := cacheTree(t, dir, -1)
			smallAPIs, bigAPIs := small.APIs(), unbounded.APIs()
			require.Equal(t, len(bigAPIs), len(smallAPIs))
			require.Greater(t, len(smallAPIs), 100)
			for round := range 2 {
				for i, a := range smallAPIs {
					for _, c := range argCases(a) {
						require.Equal(t, outcome(t, bigAPIs[i], c.args, c.mode), outcome(t, a, c.args, c.mode),
							"round %d %s %s", round, a.FunctionName(), c.name)
						st := small.CacheStats()
						if tc.bound > 1 {
							require.LessOrEqual(t, st.Bytes, tc.bound)
						} else {
							require.Equal(t, int64(1), st.Entries, "the newest entry always stays")
						}
					}
				}
			}
			st, big := small.CacheStats(), unbounded.CacheStats()
			require.Positive(t, st.Entries)
			require.Greater(t, st.Evicted, int64(len(smallAPIs)), "evicted in both rounds")
			require.Zero(t, big.Evicted)
			require.GreaterOrEqual(t, big.Entries, int64(len(bigAPIs)), "a validator per API")
			require.Less(t, big.Entries, int64(2*len(bigAPIs)), "and a response schema per API that documents one")
			require.Greater(t, big.Bytes, tc.bound)
		})
	}
}

// TestCatalogCacheKeepFor: a value kept for an API is built once while
// kept, built again once evicted, and an API in no catalog keeps nothing.
func TestCatalogCacheKeepFor(t *testing.T) {
	type key struct{}
	dir, _ := tbgen.WriteTB(t, tbgen.Options{Tools: 60, Queries: make([]int, len(tbgen.Groups))})
	c := cacheTree(t, dir, 3900) // three entries of 1000 bytes and the cache's own
	apis := c.APIs()
	builds := map[*toolset.API]int{}
	get := func(a *toolset.API) string {
		v, ok := a.KeepFor(key{}, func() (any, int64) {
			builds[a]++
			return "plan of " + a.FunctionName(), 1000
		})
		require.True(t, ok)
		return v.(string)
	}
	tests := []struct {
		name   string
		calls  []int // indexes into apis
		builds []int // builds of apis[0..2] after the calls
	}{
		{"first", []int{0}, []int{1, 0, 0}},
		{"kept", []int{0, 0}, []int{1, 0, 0}},
		{"three fit", []int{1, 2, 0}, []int{1, 1, 1}},
		{"fourth evicts the least recent", []int{3, 1}, []int{1, 2, 1}},
	}
	for _, tc := range tests {
		for _, i := range tc.calls {
			require.Equal(t, "plan of "+apis[i].FunctionName(), get(apis[i]))
		}
		require.Equal(t, tc.builds, []int{builds[apis[0]], builds[apis[1]], builds[apis[2]]}, tc.name)
		require.LessOrEqual(t, c.CacheStats().Bytes, int64(3900), tc.name)
	}
	_, ok := (&toolset.API{Name: "loose"}).KeepFor(key{}, func() (any, int64) { panic("not built") })
	require.False(t, ok)
}

// BenchmarkValidateKept validates a 3-parameter call on an API out of any
// catalog (its validator kept for its life, as before the bound), on one
// of a catalog (kept within the bound), and on two APIs of a catalog
// whose bound holds one (compiled again on every call), in one run:
//
//	go test ./toolset -run '^$' -bench ValidateKept
func BenchmarkValidateKept(b *testing.B) {
	const tool = `{"tool_name": "t", "api_list": [{"name": "search", "required_parameters": [{"name": "q", "type": "STRING"}],
		"optional_parameters": [{"name": "limit", "type": "NUMBER", "default": 10}, {"name": "safe", "type": "BOOLEAN"}]},
		{"name": "find", "required_parameters": [{"name": "q", "type": "STRING"}],
		"optional_parameters": [{"name": "limit", "type": "NUMBER", "default": 10}, {"name": "safe", "type": "BOOLEAN"}]}]}`
	args := map[string]any{"q": "hotels in paris", "limit": "5", "safe": true}
	load := func(bound int64, inCatalog bool) []*toolset.API {
		t, err := tbfile.LoadFile([]byte(tool), "Cat", "t.json")
		require.NoError(b, err)
		if inCatalog {
			c, err := toolset.NewCatalog([]*toolset.Tool{t})
			require.NoError(b, err)
			c.SetCacheBytes(bound)
		}
		return t.APIs
	}
	for _, bc := range []struct {
		name      string
		bound     int64
		inCatalog bool
		apis      int
	}{
		{"no-catalog", 0, false, 1},
		{"catalog", 0, true, 1},
		{"catalog-evicting", 1, true, 2},
	} {
		b.Run(bc.name, func(b *testing.B) {
			apis := load(bc.bound, bc.inCatalog)[:bc.apis]
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := apis[i%len(apis)].Validate(args); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkAPICacheBytes validates a call of, and parses the response
// schema of, every API of a generated tree, with the per-API cache
// unbounded and bounded, and reports the heap kept per API after a GC
// and, unbounded, against the cache's estimate:
//
//	go test ./toolset -run '^$' -bench APICacheBytes -benchtime 1x
func BenchmarkAPICacheBytes(b *testing.B) {
	dir, _ := tbgen.WriteTB(b, tbgen.Options{Tools: 1000, Queries: make([]int, len(tbgen.Groups))})
	for _, bc := range []struct {
		name  string
		bound int64
	}{
		{"unbounded", -1},
		{"bound-1MiB", 1 << 20},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				c := cacheTree(b, dir, bc.bound)
				apis := c.APIs()
				before := heapInUse()
				for _, a := range apis {
					_, _, _ = a.ValidateIn(argCases(a)[0].args, "")
					_ = a.Response()
				}
				grown := float64(int64(heapInUse()) - int64(before))
				b.ReportMetric(grown/float64(len(apis)), "heap-bytes/API")
				b.ReportMetric(float64(c.CacheStats().Bytes)/float64(len(apis)), "estimate-bytes/API")
				runtime.KeepAlive(c)
			}
		})
	}
}

func heapInUse() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestCatalogCacheConcurrent: callers validating the same APIs at once
// while the cache evicts under them (a bound of one entry) all get the
// unbounded catalog's results.
func TestCatalogCacheConcurrent(t *testing.T) {
	dir, _ := tbgen.WriteTB(t, tbgen.Options{Tools: 60, Queries: make([]int, len(tbgen.Groups))})
	small, unbounded := cacheTree(t, dir, 1), cacheTree(t, dir, -1)
	sa, ua := small.APIs(), unbounded.APIs()
	want := make([]string, len(ua))
	for i, a := range ua {
		c := argCases(a)[2]
		want[i] = outcome(t, a, c.args, c.mode)
	}
	got := make([][]string, 4)
	var wg sync.WaitGroup
	for g := range got {
		got[g] = make([]string, len(sa))
		wg.Go(func() {
			for i, a := range sa {
				c := argCases(a)[2]
				out, warn, err := a.ValidateIn(c.args, c.mode)
				o, _ := json.Marshal(out)
				w, _ := json.Marshal(warn)
				r, _ := json.Marshal(a.Response())
				got[g][i] = fmt.Sprintf("out=%s warn=%s err=%v response=%s", o, w, err, r)
			}
		})
	}
	wg.Wait()
	for g := range got {
		require.Equal(t, want, got[g], "caller %d", g)
	}
	require.Positive(t, small.CacheStats().Evicted)
}
