package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/redisstate"
	"github.com/understudy/understudy/internal/redisstate/redistest"
	"github.com/understudy/understudy/toolset/loader"
)

// benchKeys is how many distinct recorded calls the replay benchmark
// spreads its requests over.
const benchKeys = 256

// BenchmarkReplayHits serves replay hits over HTTP from a replica whose
// recordings are in a store directory (behind the in-memory LRU, the
// default) and from one whose recordings are in Redis, in the same run,
// and reports requests per second and the 99th percentile latency.
//
//	go test ./cmd/toolserver/ -run '^$' -bench ReplayHits -benchtime 20000x
func BenchmarkReplayHits(b *testing.B) {
	rs := redistest.Start(b)
	cat, err := loader.Builtin()
	require.NoError(b, err)
	api := cat.API("calculator", "calculate")
	dir := b.TempDir()
	store, err := cache.Open(dir, cache.Options{})
	require.NoError(b, err)
	bodies := make([]string, benchKeys)
	for i := range benchKeys {
		args, err := api.Validate(map[string]any{"expression": fmt.Sprintf("%d*3", i)})
		require.NoError(b, err)
		k := cache.KeyOf("calculator", "calculate", args)
		require.NoError(b, store.Put(k, cache.Entry{Response: json.RawMessage(fmt.Sprintf(`{"result":%d}`, i*3)), Source: "remote"}))
		bodies[i] = calc(fmt.Sprintf("%d*3", i))
	}
	shared, err := redisstate.Open(rs.URL(0), redisstate.Options{})
	require.NoError(b, err)
	_, err = cache.ImportRedis(context.Background(), store, shared.Store)
	require.NoError(b, err)
	require.NoError(b, store.Close())
	require.NoError(b, shared.Close())

	for _, tc := range []struct {
		name string
		args []string
	}{
		{"directory", []string{"-mode", "replay", "-cache", dir}},
		{"redis", []string{"-mode", "replay", "-redis", rs.URL(0)}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := start(b, tc.args, flags{})
			url := "http://" + s.addr + "/v1/call"
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			var mu sync.Mutex
			var lat []time.Duration
			b.SetParallelism(8)
			b.ResetTimer()
			startAt := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				i := 0
				for pb.Next() {
					t0 := time.Now()
					resp, err := client.Post(url, "application/json", strings.NewReader(bodies[i%benchKeys]))
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Errorf("status %d", resp.StatusCode)
						return
					}
					mine = append(mine, time.Since(t0))
					i++
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			})
			elapsed := time.Since(startAt)
			b.StopTimer()
			slices.Sort(lat)
			if len(lat) > 0 {
				b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
				b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
			}
		})
	}
}
