package redisstate_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/redisstate"
	"github.com/understudy/understudy/internal/redisstate/redistest"
	"github.com/understudy/understudy/sandbox"
)

// BenchmarkQuota is the cost per call of taking a call from a rate limit
// and daily quota: in this process, and shared through a real Redis (one
// script call, a round trip on loopback), one caller at a time and many.
//
//	go test ./internal/redisstate/ -run '^$' -bench Quota
func BenchmarkQuota(b *testing.B) {
	rs := redistest.Start(b)
	// Allowances no benchmark run can use up: every call is allowed, and
	// is fully counted.
	limits := map[string]sandbox.Limit{"*": {PerSecond: 1e9, Burst: 1e9, PerDay: 1e9}}
	shared, err := redisstate.Open(rs.URL(0), redisstate.Options{})
	require.NoError(b, err)
	b.Cleanup(func() { shared.Close() })
	for _, tc := range []struct {
		name string
		l    sandbox.Limiter
	}{
		{"local", sandbox.NewLimiter(limits, nil)},
		{"redis", shared.Limiter(limits, nil)},
	} {
		ctx := context.Background()
		b.Run(tc.name+"/serial", func(b *testing.B) {
			for b.Loop() {
				if err := tc.l.Allow(ctx, "calculator", "client"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.name+"/parallel", func(b *testing.B) {
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					i++
					// 16 clients: contention on some buckets, as under load.
					if err := tc.l.Allow(ctx, "calculator", strconv.Itoa(i%16)); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
