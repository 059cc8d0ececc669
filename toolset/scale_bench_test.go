package toolset_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/search"
)

// ToolBench's size: 49 categories, 3,451 tools, 16,464 APIs.
const (
	scaleCategories = 49
	scaleTools      = 3451
	scaleAPIs       = 16464
)

var scaleWords = strings.Fields(`weather forecast city hotel flight search booking price currency exchange rate news
headline article image photo video music song artist album movie film review rating recipe food restaurant menu
stock market crypto bitcoin wallet address email phone number validate verify translate language text speech
sports football score team player league match game map location geocode route distance traffic airport airline
ticket event concert calendar holiday date time zone country code population data statistics company business
job salary resume user profile account login token session order product shop cart payment invoice tax shipping
tracking package delivery health fitness exercise medical drug symptom doctor school course book author quote
random joke fact trivia domain whois ip dns ssl website screenshot pdf convert file upload download qr barcode`)

// scaleToolFiles writes a synthetic ToolBench tree of ToolBench's size with
// realistic text lengths (tool descriptions ~25 words, API descriptions ~20,
// parameter descriptions ~8, one to four parameters per API).
func scaleToolFiles(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	words := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = scaleWords[rng.IntN(len(scaleWords))]
		}
		return strings.Join(w, " ")
	}
	types := []string{"STRING", "STRING", "STRING", "NUMBER", "BOOLEAN", "ENUM"}
	for i := 0; i < scaleTools; i++ {
		nAPI := scaleAPIs / scaleTools
		if i < scaleAPIs%scaleTools {
			nAPI++
		}
		name := fmt.Sprintf("%s %s %d", words(1), words(1), i)
		tool := map[string]any{"tool_name": name, "tool_description": words(20 + rng.IntN(12)), "title": name}
		var apis []any
		for j := 0; j < nAPI; j++ {
			var req, opt []any
			for k := 0; k < 1+rng.IntN(4); k++ {
				p := map[string]any{"name": fmt.Sprintf("%s_%d", scaleWords[rng.IntN(len(scaleWords))], k), "type": types[rng.IntN(len(types))], "description": words(5 + rng.IntN(7)), "default": ""}
				if k == 0 || rng.IntN(2) == 0 {
					req = append(req, p)
				} else {
					opt = append(opt, p)
				}
			}
			apis = append(apis, map[string]any{
				"name": fmt.Sprintf("%s %s %d", words(1), words(1), j), "url": fmt.Sprintf("https://t%d.p.rapidapi.com/v1/%s", i, words(1)),
				"method": "GET", "description": words(14 + rng.IntN(12)), "required_parameters": req, "optional_parameters": opt,
			})
		}
		tool["api_list"] = apis
		data, err := json.Marshal(tool)
		if err != nil {
			tb.Fatal(err)
		}
		cat := filepath.Join(dir, fmt.Sprintf("Category_%02d", i%scaleCategories))
		if err := os.MkdirAll(cat, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cat, fmt.Sprintf("tool_%04d.json", i)), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

func loadScale(tb testing.TB, dir string) *toolset.Catalog {
	c, err := loader.Load([]string{dir}, false)
	if err != nil {
		tb.Fatal(err)
	}
	if len(c.Tools()) != scaleTools || len(c.APIs()) != scaleAPIs {
		tb.Fatalf("synthetic catalog has %d tools, %d APIs", len(c.Tools()), len(c.APIs()))
	}
	return c
}

// BenchmarkScaleLoad loads a ToolBench-size tree from disk and reports the
// heap in use with the catalog (and its BM25 index) live.
func BenchmarkScaleLoad(b *testing.B) {
	dir := scaleToolFiles(b)
	var c *toolset.Catalog
	for b.Loop() {
		c = loadScale(b, dir)
	}
	b.StopTimer()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	search.Of(c)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(before.HeapInuse)/(1<<20), "heap-MiB")
	b.ReportMetric(float64(after.HeapInuse)/(1<<20), "heap+index-MiB")
	runtime.KeepAlive(c)
}

// BenchmarkScaleIndex builds the BM25 index over 16,464 APIs.
func BenchmarkScaleIndex(b *testing.B) {
	c := loadScale(b, scaleToolFiles(b))
	apis := c.APIs()
	for b.Loop() {
		search.NewIndex(apis)
	}
}

// BenchmarkScaleSearchTop5 is one BM25 top-5 query over 16,464 APIs.
func BenchmarkScaleSearchTop5(b *testing.B) {
	c := loadScale(b, scaleToolFiles(b))
	ix := search.Of(c)
	queries := []string{"weather forecast for a city", "convert currency exchange rate", "hotel booking price review", "translate text language", "stock market price"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if len(ix.Search(queries[i%len(queries)], 5)) == 0 {
			b.Fatal("no hits")
		}
		i++
	}
}

// BenchmarkScaleValidate validates a 3-parameter call on an API of the big catalog.
func BenchmarkScaleValidate(b *testing.B) {
	c := loadScale(b, scaleToolFiles(b))
	var a *toolset.API
	for _, x := range c.APIs() {
		if len(x.Params) == 3 {
			a = x
			break
		}
	}
	args := map[string]any{}
	for _, p := range a.Params {
		switch p.Kind {
		case toolset.KindNumber:
			args[p.Name] = "5"
		case toolset.KindBoolean:
			args[p.Name] = "true"
		default:
			if len(p.Enum) > 0 {
				args[p.Name] = p.Enum[0]
			} else {
				args[p.Name] = "paris"
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Validate(args); err != nil {
			b.Fatal(err)
		}
	}
}
