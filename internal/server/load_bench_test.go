package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/sandbox"
)

// The load benchmark: 64 concurrent keep-alive connections on loopback
// sending the same replay-mode call (a cache hit), against the full server
// and, in the same run, against a bare net/http handler writing the same
// bytes. It reports requests per second, p50 and p99 latency, and the heap
// after the run, so the two can be compared:
//
//	go test ./internal/server -run '^$' -bench HTTPLoad -benchtime 20000x
const loadConns = 64

var loadBody = []byte(`{"tool":"calculator","api":"calculate","arguments":{"expression":"2*(3+4)"}}`)

func BenchmarkHTTPLoad(b *testing.B) {
	ts, st := newServer(b, assemble.Config{Mode: sandbox.ModeReplay, CacheDir: b.TempDir()})
	// Record the answer once, so every request is a cache hit.
	args, err := st.Catalog.API("calculator", "calculate").Validate(map[string]any{"expression": "2*(3+4)"})
	if err != nil {
		b.Fatal(err)
	}
	rec := assemble.Recordings{Cache: st.Cache}
	if err := rec.Put(context.Background(), "", "calculator", "calculate", args, sandbox.Recording{Status: 200, Response: []byte(`{"expression":"2*(3+4)","result":14}`)}); err != nil {
		b.Fatal(err)
	}
	want := post(b, http.DefaultClient, ts.URL)
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(want)
	}))
	defer bare.Close()

	b.Run("bare", func(b *testing.B) { load(b, bare.URL) })
	b.Run("understudy", func(b *testing.B) { load(b, ts.URL) })
}

func post(b *testing.B, c *http.Client, base string) []byte {
	resp, err := c.Post(base+"/v1/call", "application/json", bytes.NewReader(loadBody))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("status %d: %s %v", resp.StatusCode, body, err)
	}
	return body
}

func load(b *testing.B, base string) {
	tr := &http.Transport{MaxIdleConnsPerHost: loadConns, MaxConnsPerHost: loadConns}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	lat := make([][]time.Duration, loadConns)
	var wg sync.WaitGroup
	next := make(chan struct{}, b.N)
	for range b.N {
		next <- struct{}{}
	}
	close(next)
	b.ResetTimer()
	start := time.Now()
	for i := range loadConns {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for range next {
				t0 := time.Now()
				resp, err := c.Post(base+"/v1/call", "application/json", bytes.NewReader(loadBody))
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[i] = append(lat[i], time.Since(t0))
			}
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	if len(all) == 0 {
		return
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
}

// BenchmarkEngineCacheHit is the in-process cost of a cache hit: resolve,
// validate, key, LRU hit, session trace.
func BenchmarkEngineCacheHit(b *testing.B) {
	st, err := assemble.Build(assemble.Config{Mode: sandbox.ModeReplay})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	in := map[string]any{"expression": "2*(3+4)"}
	args, _ := st.Catalog.API("calculator", "calculate").Validate(in)
	if err := (assemble.Recordings{Cache: st.Cache}).Put(ctx, "", "calculator", "calculate", args, sandbox.Recording{Status: 200, Response: []byte(`{"result":14}`)}); err != nil {
		b.Fatal(err)
	}
	req := sandbox.Request{Tool: "calculator", API: "calculate", Arguments: in, Session: "bench"}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		res, err := st.Engine.Call(ctx, req)
		if err != nil || res.Source != sandbox.SourceCache {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkEngineFake is one call answered by a stand-in.
func BenchmarkEngineFake(b *testing.B) {
	st, err := assemble.Build(assemble.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	for _, tc := range []struct{ tool, api string }{{"calculator", "calculate"}, {"weatherapi_com", "realtime_weather_api"}, {"currency_exchange", "exchange"}} {
		a := st.Catalog.API(tc.tool, tc.api)
		in := map[string]any{}
		for _, p := range a.Params {
			if p.Required && p.Default != nil {
				in[p.Name] = p.Default
			}
		}
		b.Run(fmt.Sprintf("%s.%s", tc.tool, tc.api), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := st.Engine.Call(ctx, sandbox.Request{Tool: tc.tool, API: tc.api, Arguments: in}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
