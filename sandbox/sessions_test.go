package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// TestSessionsBoundedByBytes: traces are bounded by their size, not only
// by the number of sessions: clients with huge session IDs or arguments
// cannot grow the process without bound.
func TestSessionsBoundedByBytes(t *testing.T) {
	m, err := mocks.New(mocks.Options{})
	require.NoError(t, err)
	const maxBytes = 256 << 10
	e, err := sandbox.New(sandbox.Options{Catalog: demoCatalog(t), StandIns: m, Mode: sandbox.ModeFake, MaxTraceBytes: maxBytes})
	require.NoError(t, err)
	ctx := context.Background()
	city := strings.Repeat("L", 8<<10)
	const n = 100 // 100 traces of ~8 KiB: three times the bound
	for i := range n {
		id := fmt.Sprintf("s%03d", i)
		res, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": city}, Session: id})
		require.NoError(t, err)
		require.Equal(t, id, res.Session)
	}
	kept := 0
	for i := range n {
		if _, ok := e.Session(fmt.Sprintf("s%03d", i)); ok {
			kept++
		}
	}
	require.Less(t, kept, maxBytes/(8<<10)+1, "the oldest traces are forgotten")
	require.Greater(t, kept, 10)
	_, ok := e.Session("s000")
	require.False(t, ok)
	tr, ok := e.Session(fmt.Sprintf("s%03d", n-1))
	require.True(t, ok, "the newest trace is kept")
	require.Len(t, tr.Calls, 1)

	// One session alone over the bound keeps its newest calls.
	for range 60 {
		_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": city}, Session: "long"})
		require.NoError(t, err)
	}
	tr, ok = e.Session("long")
	require.True(t, ok)
	require.Less(t, len(tr.Calls), 33)
	require.Equal(t, 60, tr.Calls[len(tr.Calls)-1].Seq)
	require.Equal(t, 60-len(tr.Calls), tr.Dropped)
}

// TestLongSessionIDs: a session ID of any length works, but is kept as
// its hash: 400 sessions with 900 KB IDs once took RSS from 53 to 598 MB.
func TestLongSessionIDs(t *testing.T) {
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake})
	ctx := context.Background()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 100 {
		id := fmt.Sprintf("%03d", i) + strings.Repeat("x", 900<<10)
		res, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}, Session: id})
		require.NoError(t, err)
		require.Equal(t, id, res.Session, "the answer names the ID given")
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	require.Less(t, int64(after.HeapAlloc)-int64(before.HeapAlloc), int64(20<<20), "100 IDs of 900 KB are not kept")

	id := "007" + strings.Repeat("x", 900<<10)
	tr, ok := e.Session(id)
	require.True(t, ok)
	require.Equal(t, id, tr.ID)
	require.Len(t, tr.Calls, 1)
	_, ok = e.Session("007" + strings.Repeat("x", 900<<10-1) + "y")
	require.False(t, ok)
	require.Equal(t, "short", sandbox.SessionKey("short"))
	require.Len(t, sandbox.SessionKey(id), len("sha256:")+64)
}

// TestMetricsUnknownTools: names the catalog does not have share one
// label, so /metrics stays small whatever callers send.
func TestMetricsUnknownTools(t *testing.T) {
	e, _ := newEngine(t, engineOpts{mode: sandbox.ModeFake})
	ctx := context.Background()
	for i := range 500 {
		_, err := e.Call(ctx, sandbox.Request{Tool: fmt.Sprintf("no_such_tool_%d", i), API: "x"})
		require.Error(t, err)
	}
	_, err := e.Call(ctx, sandbox.Request{Tool: "Demo Weather", API: "no_such_api"})
	require.Error(t, err)
	var buf strings.Builder
	require.NoError(t, e.Metrics().WritePrometheus(&buf))
	out := buf.String()
	require.NotContains(t, out, "no_such")
	require.Contains(t, out, `understudy_calls_total{tool="unknown",api="",outcome="not_found"} 500`)
	require.Contains(t, out, `understudy_calls_total{tool="demo_weather",api="",outcome="not_found"} 1`)
	require.Equal(t, 4, strings.Count(out, "\n"), out)
}

// TestLongSessionTraceBoundedByBytes: a session's trace is bounded by its
// size, never by its number of calls: after 20,000 calls it holds its
// newest calls within the bound, the last one included, and counts the
// others as dropped.
func TestLongSessionTraceBoundedByBytes(t *testing.T) {
	m, err := mocks.New(mocks.Options{})
	require.NoError(t, err)
	const bound = 64 << 10
	e, err := sandbox.New(sandbox.Options{Catalog: demoCatalog(t), StandIns: m, Mode: sandbox.ModeFake, MaxSessionTraceBytes: bound})
	require.NoError(t, err)
	ctx := context.Background()
	const calls = 20000
	for i := range calls {
		_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": fmt.Sprintf("City %d", i%50)}, Session: "soak"})
		require.NoError(t, err)
	}
	tr, ok := e.Session("soak")
	require.True(t, ok)
	require.Equal(t, calls, tr.Dropped+len(tr.Calls))
	require.Equal(t, calls, tr.Calls[len(tr.Calls)-1].Seq)
	require.Equal(t, tr.Dropped+1, tr.Calls[0].Seq)
	size := 0
	for _, c := range tr.Calls {
		b, err := json.Marshal(c)
		require.NoError(t, err)
		size += len(b)
	}
	require.Less(t, size, bound, "the trace kept is within its bound")
	require.Greater(t, len(tr.Calls), 100)
}

// steppedClock is a clock a test moves on.
type steppedClock struct {
	mu sync.Mutex
	at time.Time
}

func (c *steppedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *steppedClock) advance(d time.Duration) {
	c.mu.Lock()
	c.at = c.at.Add(d)
	c.mu.Unlock()
}

// forgetting is a dependency memory that only notes which sessions it was
// told to forget.
type forgetting struct {
	mu     sync.Mutex
	forgot []string
}

func (f *forgetting) Check(string, *toolset.API, map[string]any) sandbox.ProvenanceCheck {
	return sandbox.ProvenanceCheck{}
}
func (f *forgetting) Observe(string, int, *toolset.API, map[string]any, json.RawMessage) {}
func (f *forgetting) Forget(session string) {
	f.mu.Lock()
	f.forgot = append(f.forgot, session)
	f.mu.Unlock()
}

func (f *forgetting) sessions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.forgot)
}

// TestIdleSessionsAreForgotten: sessions are bounded by age as well as by
// bytes: one no call began in for SessionIdle is forgotten, its trace and
// its dependency memory, whether the next call opens a session or
// continues one; however many calls a session made, one in use is kept.
func TestIdleSessionsAreForgotten(t *testing.T) {
	m, err := mocks.New(mocks.Options{})
	require.NoError(t, err)
	clk := &steppedClock{at: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	prov := &forgetting{}
	e, err := sandbox.New(sandbox.Options{Catalog: demoCatalog(t), StandIns: m, Mode: sandbox.ModeFake,
		Provenance: prov, LimitClock: clk, SessionIdle: 24 * time.Hour})
	require.NoError(t, err)
	ctx := context.Background()
	call := func(session string) {
		t.Helper()
		_, err := e.Call(ctx, sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}, Session: session})
		require.NoError(t, err)
	}
	known := func(session string) bool {
		_, ok := e.Session(session)
		return ok
	}

	for range 1000 {
		call("busy")
	}
	call("old")
	clk.advance(time.Hour)
	call("recent")
	clk.advance(22*time.Hour + 30*time.Minute)
	call("busy")
	require.True(t, known("old"), "idle 23 h 30 min: kept")
	clk.advance(time.Hour)
	call("new") // opens a session: "old" is 24 h 30 min idle
	require.False(t, known("old"))
	require.True(t, known("recent"))
	require.True(t, known("busy"))
	require.Equal(t, []string{"old"}, prov.sessions(), "its dependency memory goes too")

	clk.advance(time.Hour)
	call("busy") // continues a session: "recent" is 24 h 30 min idle
	require.False(t, known("recent"))
	require.True(t, known("new"))
	tr, ok := e.Session("busy")
	require.True(t, ok)
	require.Equal(t, 1002, tr.Dropped+len(tr.Calls), "a session in use keeps counting")
	require.Equal(t, []string{"old", "recent"}, prov.sessions())
}
