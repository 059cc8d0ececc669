package search_test

import (
	"path/filepath"
	"testing"

	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/search"
)

// universe is the full generated StableToolBench tree (12,301 tool files,
// 44,692 APIs), loaded once per benchmark binary.
func universe(b *testing.B) *toolset.Catalog {
	b.Helper()
	dir, _ := tbgen.WriteTB(b, tbgen.Options{})
	c, err := loader.Load([]string{filepath.Join(dir, "tools")}, true)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// misspell makes the names a client gets wrong: a letter dropped, two
// swapped, a word appended.
func misspell(s string, i int) string {
	switch {
	case len(s) < 3:
		return s + "x"
	case i%3 == 0:
		return s[:len(s)/2] + s[len(s)/2+1:]
	case i%3 == 1:
		b := []byte(s)
		b[1], b[2] = b[2], b[1]
		return string(b)
	default:
		return s + "_v9"
	}
}

// BenchmarkUniverseResolve resolves a tool and API name the way the
// engine does on the full generated universe: a hit (the catalog has the
// API) against a miss (it does not, and Suggest proposes three), in the
// same run, each over 1,000 names:
//
//	go test ./toolset/search -run '^$' -bench UniverseResolve -benchtime 2000x
func BenchmarkUniverseResolve(b *testing.B) {
	c := universe(b)
	search.PrepareSuggest(c)
	apis := c.APIs()
	type name struct{ tool, api string }
	var hits, misses []name
	for i := 0; len(misses) < 1000; i++ {
		a := apis[(i*7919)%len(apis)]
		miss := name{a.Tool.StandardizedName, misspell(a.StandardizedName(), i)}
		if c.API(miss.tool, miss.api) != nil {
			continue // the misspelling is another API's name
		}
		hits = append(hits, name{a.Tool.StandardizedName, a.Name})
		misses = append(misses, miss)
	}
	b.Run("hit", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			n := hits[i%len(hits)]
			if c.API(n.tool, n.api) == nil {
				b.Fatal("miss")
			}
			i++
		}
	})
	b.Run("miss", func(b *testing.B) {
		b.ReportAllocs()
		i, found := 0, 0
		for b.Loop() {
			n := misses[i%len(misses)]
			if c.API(n.tool, n.api) == nil && len(search.Suggest(c, n.tool, n.api, 3)) > 0 {
				found++
			}
			i++
		}
		b.ReportMetric(float64(found)/float64(i), "suggested/op")
	})
	b.Run("miss-no-tool", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			n := misses[i%len(misses)]
			search.Suggest(c, "", n.api, 3)
			i++
		}
	})
	b.Run("unknown-tool", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			n := misses[i%len(misses)]
			search.Suggest(c, misspell(n.tool, i), "", 3)
			i++
		}
	})
}

// TestUniverseSuggestFindsTheMisspelt checks suggestions on the slice: a
// misspelt API of a known tool is proposed first.
func TestUniverseSuggestFindsTheMisspelt(t *testing.T) {
	c, err := loader.Load([]string{filepath.Join(tbgen.SliceDir(), "tools")}, true)
	if err != nil {
		t.Fatal(err)
	}
	apis := c.APIs()
	first, n := 0, 0
	for i, a := range apis {
		if len(a.StandardizedName()) < 8 {
			continue
		}
		n++
		got := search.Suggest(c, a.Tool.StandardizedName, misspell(a.StandardizedName(), i), 3)
		if len(got) > 0 && got[0] == a.ID() {
			first++
		} else if len(got) == 0 || !contains(got, a.ID()) {
			t.Errorf("%s misspelt %q: suggested %v", a.ID(), misspell(a.StandardizedName(), i), got)
		}
	}
	t.Logf("%d of %d misspelt APIs suggested first", first, n)
	if float64(first) < 0.9*float64(n) {
		t.Errorf("only %d of %d misspelt APIs suggested first", first, n)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
