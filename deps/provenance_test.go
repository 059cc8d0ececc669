package deps_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

func enforced(*toolset.Tool) deps.Policy { return deps.Enforce }

// autoComplete is an auto-complete answer emitting the IDs given, 20 to a
// call as the real API's pages do.
func autoComplete(ids ...string) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"data":[`)
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%q,"presentation":{"title":"Place %d"}}`, id, i)
	}
	b.WriteString(`]}`)
	return json.RawMessage(b.String())
}

// TestTrackerKeepsLearning: a session past its byte bound (every call
// without a session ID shares one) moves the values it saw longest ago
// out of its index, not the new ones, and still knows them: after 3,000
// calls that emitted 60,000 values, a chain made of fresh values is
// served with their calls named, the oldest values are known without a
// number, and a fabricated one is refused.
func TestTrackerKeepsLearning(t *testing.T) {
	c := miniCatalog(t)
	g, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	auto := c.API("mini_flights", "flights_auto_complete")
	oneWay := c.API("mini_flights", "flights_search_one_way")
	airport := c.API("mini_flights", "airport_info")

	for _, session := range []string{"", "long"} {
		t.Run(fmt.Sprintf("session %q", session), func(t *testing.T) {
			tr := deps.NewTracker(g, deps.TrackerOptions{Policy: enforced, MaxSessionBytes: 1 << 20})
			seq := 0
			for i := range 3000 {
				ids := make([]string, 20)
				for j := range ids {
					ids[j] = fmt.Sprintf("old-%d-%d", i, j)
				}
				seq++
				tr.Observe(session, seq, auto, nil, autoComplete(ids...))
				seq++
				tr.Observe(session, seq, airport, nil, json.RawMessage(fmt.Sprintf(`{"iata":"X%d","name":"Airport %d"}`, i, i)))
			}
			seq++
			tr.Observe(session, seq, auto, nil, autoComplete("NYCA", "LIS"))
			chk := tr.Check(session, oneWay, map[string]any{"fromId": "NYCA", "toId": "LIS", "departDate": "2025-06-20"})
			require.Nil(t, chk.Reject, "%+v", chk.Violations)
			require.Empty(t, chk.Violations)
			require.Equal(t, map[string]int{"fromId": seq, "toId": seq}, chk.Provided)

			// The most recent values are indexed with their call; the
			// oldest are only known; a value no call gave is refused.
			chk = tr.Check(session, oneWay, map[string]any{"fromId": "old-2999-0", "toId": "old-0-0", "departDate": "2025-06-20"})
			require.Equal(t, map[string]int{"fromId": seq - 2, "toId": 0}, chk.Provided)
			require.Empty(t, chk.Violations)
			chk = tr.Check(session, oneWay, map[string]any{"fromId": "old-2999-0", "toId": "never-0", "departDate": "2025-06-20"})
			require.Len(t, chk.Violations, 1)
			require.Equal(t, "toId", chk.Violations[0].Param)
			require.Equal(t, "fabricated", chk.Violations[0].Kind)
			require.NotNil(t, chk.Reject)
		})
	}
}

// TestTrackerMillionCalls: a session of more than a million calls keeps
// its dependency memory correct within its byte bounds. Every call gives
// fresh IDs (two million in all) and most repeat an answer seen before;
// along the way and at the end, IDs from the first call, from the middle
// and from the last are accepted, fabricated ones are refused, and the
// tracker's memory never passes its bound, nor does the heap grow past it.
func TestTrackerMillionCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("a million calls")
	}
	c := miniCatalog(t)
	g, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	auto := c.API("mini_flights", "flights_auto_complete")
	oneWay := c.API("mini_flights", "flights_search_one_way")
	const (
		calls        = 1_000_100
		sessionBytes = 1 << 20
		filterBytes  = 8 << 20
	)
	opts := deps.TrackerOptions{Policy: enforced, MaxSessionBytes: sessionBytes, MaxForgottenBytes: filterBytes, MaxResponseBytes: 64 << 10}
	tr := deps.NewTracker(g, opts)
	bound := int64(sessionBytes + filterBytes + 64<<10 + 4<<10)
	repeated := autoComplete("REPEAT-A", "REPEAT-B")
	search := func(from, to string) sandbox.ProvenanceCheck {
		return tr.Check("million", oneWay, map[string]any{"fromId": from, "toId": to, "departDate": "2025-06-20"})
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	fabricatedAccepted, fabricatedTried := 0, 0
	for seq := 1; seq <= calls; seq++ {
		if seq%3 == 0 {
			tr.Observe("million", seq, auto, nil, repeated) // a call repeated many times
		} else {
			tr.Observe("million", seq, auto, nil, autoComplete(fmt.Sprintf("ID-%d-a", seq), fmt.Sprintf("ID-%d-b", seq), fmt.Sprintf("ID-%d-c", seq)))
		}
		if seq%100_000 == 1 || seq == calls {
			require.LessOrEqual(t, tr.Bytes(), bound, "after %d calls", seq)
			newest := seq
			if newest%3 == 0 {
				newest-- // the last call that gave fresh IDs
			}
			chk := search("ID-1-a", fmt.Sprintf("ID-%d-c", newest))
			require.Empty(t, chk.Violations, "after %d calls: %+v", seq, chk.Violations)
			require.Equal(t, newest, chk.Provided["toId"], "the newest value is indexed with its call")
			mid := max(1, seq/2)
			if mid%3 == 0 {
				mid++ // a call that gave fresh IDs
			}
			require.Empty(t, search(fmt.Sprintf("ID-%d-b", mid), "ID-1-c").Violations, "after %d calls", seq)
			if seq >= 3 {
				require.Equal(t, seq-seq%3, search("REPEAT-A", "REPEAT-B").Provided["fromId"], "a repeated answer is indexed with its last call")
			}
			for i := range 100 {
				fabricatedTried++
				if len(search("ID-1-a", fmt.Sprintf("FAKE-%d-%d", seq, i)).Violations) == 0 {
					fabricatedAccepted++
				}
			}
		}
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	require.LessOrEqual(t, tr.Bytes(), bound)
	require.Less(t, int64(after.HeapAlloc)-int64(before.HeapAlloc), 3*bound, "the heap holds what the tracker counts")
	require.LessOrEqual(t, fabricatedAccepted, fabricatedTried/100, "fabricated IDs stay refused (%d of %d passed the filter)", fabricatedAccepted, fabricatedTried)
	chk := search("ID-2-b", "FAKE")
	require.Equal(t, map[string]int{"fromId": 0}, chk.Provided, "an ID of the first calls is known, by no number")
	require.Equal(t, "fabricated", chk.Violations[0].Kind)
	require.NotNil(t, chk.Reject)
}

// TestTrackerExplainsFromResponses: values the index does not hold (a
// source's value at a path no edge names, a value a non-source API
// emitted) are found in the responses kept, within their bound.
func TestTrackerExplainsFromResponses(t *testing.T) {
	c := miniCatalog(t)
	g, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	auto := c.API("mini_flights", "flights_auto_complete")
	oneWay := c.API("mini_flights", "flights_search_one_way")
	airport := c.API("mini_flights", "airport_info")
	args := func(from, to string) map[string]any {
		return map[string]any{"fromId": from, "toId": to, "departDate": "2025-06-20"}
	}

	tr := deps.NewTracker(g, deps.TrackerOptions{Policy: enforced, MaxResponseBytes: 200})
	tr.Observe("s", 1, auto, nil, json.RawMessage(`{"data":[{"id":"A"}],"nearby":{"id":"N\u00e9"},"count":1e2}`))
	tr.Observe("s", 2, airport, nil, json.RawMessage(`{"iata":"B","code":123}`))
	chk := tr.Check("s", oneWay, args("Né", "A"))
	require.Empty(t, chk.Violations, "a source's value at another path (escaped in the answer) is provided")
	require.Equal(t, map[string]int{"fromId": 1, "toId": 1}, chk.Provided)
	chk = tr.Check("s", oneWay, args("100", "B"))
	require.Equal(t, map[string]int{"fromId": 1}, chk.Provided, "1e2 is 100")
	require.Len(t, chk.Violations, 1)
	require.Equal(t, "wrong_source", chk.Violations[0].Kind)
	require.Contains(t, chk.Violations[0].Message, "call #2 (mini_flights.airport_info)")

	// Past MaxResponseBytes, the oldest answers no longer explain anything:
	// airport_info's B is then just never returned by the source.
	for i := range 10 {
		tr.Observe("s", 3+i, airport, nil, json.RawMessage(fmt.Sprintf(`{"iata":"C%d","name":"an airport with a long name"}`, i)))
	}
	chk = tr.Check("s", oneWay, args("A", "B"))
	require.Equal(t, map[string]int{"fromId": 1}, chk.Provided, "the index outlives the responses kept")
	require.Len(t, chk.Violations, 1)
	require.Equal(t, "fabricated", chk.Violations[0].Kind)
	chk = tr.Check("s", oneWay, args("A", "C9"))
	require.Equal(t, "wrong_source", chk.Violations[0].Kind)

	// Forgetting the session "" starts it afresh, as any other.
	tr.Observe("", 1, auto, nil, autoComplete("A"))
	require.Empty(t, tr.Check("", oneWay, args("A", "A")).Violations)
	tr.Forget("")
	require.Equal(t, "before_dependency", tr.Check("", oneWay, args("A", "A")).Violations[0].Kind)
}

// BenchmarkObserve is the provenance cost of one successful call: a
// source API's answer is indexed at its edges' paths, any other is only
// kept.
func BenchmarkObserve(b *testing.B) {
	c := miniCatalog(b)
	g, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(b, err)
	ids := make([]string, 20)
	for i := range ids {
		ids[i] = fmt.Sprintf("ID%d", i)
	}
	for _, bc := range []struct {
		name string
		api  *toolset.API
		body json.RawMessage
	}{
		{"source", c.API("mini_flights", "flights_auto_complete"), autoComplete(ids...)},
		{"other", c.API("mini_flights", "airport_info"), autoComplete(ids...)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tr := deps.NewTracker(g, deps.TrackerOptions{Policy: enforced})
			b.ReportAllocs()
			for i := range b.N {
				tr.Observe("", i+1, bc.api, nil, bc.body)
			}
		})
	}
}
