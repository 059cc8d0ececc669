package redisstate

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/redisstate/redistest"
	"github.com/understudy/understudy/toolset/loader"
)

// autoComplete is an auto-complete answer carrying the IDs given.
func autoComplete(ids ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"status":true,"data":[`)
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%q,"presentation":{"title":"Place %d"}}`, id, i)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// TestSharedProvenanceBoundedByBytes: a long session's log in Redis is
// bounded by bytes, never by calls, and what it drops is not lost: a
// replica that never saw the first calls (it joined after they left the
// log) accepts their IDs, found in the session's filter of forgotten
// values, and refuses a fabricated one; a reset forgets the filter too.
// On miniredis and, when installed, a real redis-server.
func TestSharedProvenanceBoundedByBytes(t *testing.T) {
	servers := map[string]func(t *testing.T) string{
		"miniredis":    func(t *testing.T) string { return miniredis.RunT(t).Addr() },
		"redis-server": func(t *testing.T) string { return redistest.Start(t).Addr },
	}
	for name, start := range servers {
		t.Run(name, func(t *testing.T) {
			addr := start(t)
			cat, err := loader.Builtin()
			require.NoError(t, err)
			g, err := deps.Build(cat, deps.Options{Annotations: true})
			require.NoError(t, err)
			auto := cat.API("skyscanner80", "flights_auto_complete")
			search := cat.API("skyscanner80", "flights_search_one_way")
			const logBytes = 16 << 10
			replica := func() (*Provenance, *deps.Tracker) {
				rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
				s := New(rdb, addr, Options{})
				t.Cleanup(func() { s.Close() })
				tr := deps.NewTracker(g, deps.TrackerOptions{MaxSessionBytes: 8 << 10})
				return s.Provenance(tr, cat, ProvenanceOptions{MaxLogBytes: logBytes, MaxForgottenBytes: 64 << 10}), tr
			}
			a, _ := replica()
			const calls = 1500
			for seq := 1; seq <= calls; seq++ {
				a.Observe("long", seq, auto, map[string]any{"query": fmt.Sprint(seq)}, autoComplete(fmt.Sprintf("ID-%d-a", seq), fmt.Sprintf("ID-%d-b", seq)))
			}
			ctx := context.Background()
			rdb := redis.NewClient(&redis.Options{Addr: addr})
			defer rdb.Close()
			held, err := rdb.HGet(ctx, "understudy:prov:{long}:meta", "bytes").Int64()
			require.NoError(t, err)
			require.LessOrEqual(t, held, int64(logBytes), "the log is bounded by bytes")
			n, err := rdb.XLen(ctx, "understudy:prov:{long}").Result()
			require.NoError(t, err)
			require.Less(t, n, int64(calls/10), "the log dropped its oldest calls")
			filter, err := rdb.StrLen(ctx, "understudy:prov:{long}:forgot:0").Result()
			require.NoError(t, err)
			require.Positive(t, filter)
			require.LessOrEqual(t, filter, int64(32<<10), "one generation of the filter is half its bound")

			check := func(p *Provenance, from, to string) []string {
				chk := p.Check("long", search, map[string]any{"fromId": from, "toId": to, "departDate": "2025-06-20"})
				var kinds []string
				for _, v := range chk.Violations {
					kinds = append(kinds, v.Param+":"+v.Kind)
				}
				return kinds
			}
			b, _ := replica() // joins now: the log holds only the last calls
			require.Empty(t, check(b, "ID-1-a", fmt.Sprintf("ID-%d-b", calls)), "the first call's ID, from the shared filter, and the last one's")
			require.Empty(t, check(a, "ID-1-b", "ID-750-a"), "the replica that saw them knows them too")
			require.Equal(t, []string{"toId:fabricated"}, check(b, "ID-2-a", "ID-0-a"))
			require.Equal(t, []string{"toId:fabricated"}, check(a, "ID-2-a", "FAKE"))

			b.Forget("long")
			exists, err := rdb.Exists(ctx, "understudy:prov:{long}", "understudy:prov:{long}:meta", "understudy:prov:{long}:forgot:0").Result()
			require.NoError(t, err)
			require.Zero(t, exists, "a reset drops the log and its filter")
			require.Eventually(t, func() bool {
				return len(check(a, "ID-1-a", fmt.Sprintf("ID-%d-b", calls))) == 2
			}, 5*time.Second, 10*time.Millisecond, "every replica starts the session afresh")
		})
	}
}
