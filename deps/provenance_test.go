package deps_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
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

// TestTrackerKeepsLearning: a session past its bound of remembered values
// (every call without a session ID shares one) forgets its oldest values,
// not the new ones: after 3,000 calls that emitted 60,000 values, a chain
// made of fresh values is served.
func TestTrackerKeepsLearning(t *testing.T) {
	c := miniCatalog(t)
	g, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	auto := c.API("mini_flights", "flights_auto_complete")
	oneWay := c.API("mini_flights", "flights_search_one_way")
	airport := c.API("mini_flights", "airport_info")

	for _, session := range []string{"", "long"} {
		t.Run(fmt.Sprintf("session %q", session), func(t *testing.T) {
			tr := deps.NewTracker(g, deps.TrackerOptions{Policy: enforced})
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

			// The most recent values are still known; the oldest are gone.
			chk = tr.Check(session, oneWay, map[string]any{"fromId": "old-2999-0", "toId": "old-0-0", "departDate": "2025-06-20"})
			require.Equal(t, map[string]int{"fromId": seq - 2}, chk.Provided)
			require.Len(t, chk.Violations, 1)
			require.Equal(t, "toId", chk.Violations[0].Param)
			require.Equal(t, "fabricated", chk.Violations[0].Kind)
		})
	}
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
