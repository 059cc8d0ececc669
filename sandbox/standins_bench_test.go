package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/sandbox"
)

// BenchmarkStandIns is every built-in stand-in's answer to its API's
// documented example (the calls fixtures/recordings holds) through the
// whole engine in fake mode: validation, dependency check, the stand-in,
// canonical encoding, provenance and trace. Each runs in a session of its
// own in which the examples before it ran first, in the recorded order, so
// that a dependent call finds the IDs its producers minted. The clock is frozen, so a pure stand-in's
// repeated call is answered from its memo: these are repeated calls (see
// BenchmarkStandInsCold for first ones).
//
//	go test ./sandbox -run '^$' -bench StandIns -benchmem
func BenchmarkStandIns(b *testing.B) {
	benchStandIns(b, clock.Frozen())
}

// BenchmarkStandInsCold is BenchmarkStandIns with a clock that moves a
// nanosecond at every reading: no two calls share a memo key, so every
// call is a first one and computes its answer, while the answers (dates,
// IDs) stay those of the frozen clock.
func BenchmarkStandInsCold(b *testing.B) {
	benchStandIns(b, &ticking{at: clock.Default})
}

// ticking is a clock a nanosecond later at each reading.
type ticking struct {
	mu sync.Mutex
	at time.Time
}

func (c *ticking) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = c.at.Add(time.Nanosecond)
	return c.at
}

func benchStandIns(b *testing.B, clk clock.Clock) {
	st, err := assemble.Build(assemble.Config{Mode: sandbox.ModeFake, Clock: clk})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	idx, err := fixtures.FS.ReadFile("recordings/index.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var reqs []sandbox.Request
	for line := range bytes.Lines(idx) {
		var rec struct {
			Tool, API string
			Arguments map[string]any
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			b.Fatal(err)
		}
		reqs = append(reqs, sandbox.Request{Tool: rec.Tool, API: rec.API, Arguments: rec.Arguments})
	}
	// call fails the benchmark on an error or a dependency violation: a
	// refused call would time the refusal, not the stand-in.
	call := func(b *testing.B, req sandbox.Request) {
		res, err := st.Engine.Call(ctx, req)
		if err != nil {
			b.Fatalf("%s.%s: %v", req.Tool, req.API, err)
		}
		if len(res.Violations) > 0 {
			b.Fatalf("%s.%s: %s", req.Tool, req.API, res.Violations[0].Message)
		}
	}
	for i, req := range reqs {
		b.Run(req.Tool+"."+req.API, func(b *testing.B) {
			// A session of its own, in which the examples before this one
			// ran: its dependent values are still remembered however many
			// values the calls timed before it emitted.
			session := fmt.Sprintf("bench-%d", i)
			for _, r := range reqs[:i+1] {
				r.Session = session
				call(b, r)
			}
			req.Session = session
			b.ReportAllocs()
			for b.Loop() {
				call(b, req)
			}
		})
	}
}
