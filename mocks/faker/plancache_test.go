package faker_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/mocks/faker"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
)

// TestPlansBoundedByBytes: the plans of a catalog's APIs live in its
// per-API cache; with a bound smaller than the slice's plans, answering
// every API twice keeps the cache within it, evicts, and every answer,
// from a plan kept or made again, is byte for byte the answer of a faker
// whose catalog keeps everything.
func TestPlansBoundedByBytes(t *testing.T) {
	tests := []struct {
		name  string
		bound int64
	}{
		{"64KiB", 64 << 10},
		{"one-entry", 1},
	}
	w := standintest.World(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			small, unbounded := loadSlice(t), loadSlice(t)
			small.SetCacheBytes(tc.bound)
			unbounded.SetCacheBytes(-1)
			fs, fu := faker.New(faker.Options{}), faker.New(faker.Options{})
			sa, ua := small.APIs(), unbounded.APIs()
			require.Equal(t, len(ua), len(sa))
			sources := map[string]bool{}
			for round := range 2 {
				for i := range sa {
					args := argsFor(t, sa[i], i%4, i%2 == 0)
					seed := standin.Seed(standin.ToolName(sa[i]), sa[i].Name, args)
					cs := &standin.Call{API: sa[i], Args: args, Now: clock.Default, Seed: seed, State: standin.NewState()}
					cu := &standin.Call{API: ua[i], Args: args, Now: clock.Default, Seed: seed, State: standin.NewState()}
					bs, err := standin.Encode(fs.Fake(w, cs))
					require.NoError(t, err)
					bu, err := standin.Encode(fu.Fake(w, cu))
					require.NoError(t, err)
					require.Equal(t, string(bu), string(bs), "round %d %s", round, sa[i].FunctionName())
					sources[fs.Source(sa[i])] = true
					if tc.bound > 1 {
						require.LessOrEqual(t, small.CacheStats().Bytes, tc.bound)
					} else {
						require.Equal(t, int64(1), small.CacheStats().Entries)
					}
				}
			}
			require.Len(t, sources, 4, "answers of every source: %v", sources)
			require.Greater(t, small.CacheStats().Evicted, int64(len(sa)))
			big := unbounded.CacheStats()
			require.Zero(t, big.Evicted)
			require.GreaterOrEqual(t, big.Entries, int64(len(ua)), "a plan per API")
			require.Greater(t, big.Bytes, tc.bound)
		})
	}
}
