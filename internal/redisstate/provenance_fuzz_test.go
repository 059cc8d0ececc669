package redisstate

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/toolset/loader"
)

// FuzzReplay: whatever another process wrote into a session's log, a
// replica replaying it neither panics nor learns from an entry that does
// not name a served API with a call number and JSON object arguments.
func FuzzReplay(f *testing.F) {
	cat, err := loader.Builtin()
	require.NoError(f, err)
	g, err := deps.Build(cat, deps.Options{Annotations: true})
	require.NoError(f, err)
	f.Add("skyscanner80", "flights_auto_complete", "1", `{"query":"Lisbon"}`, `{"data":[{"id":"eyJzIjoiTElTIn0="}]}`)
	f.Add("skyscanner80", "flights_auto_complete", "x", `{}`, `{}`)
	f.Add("nope", "nope", "-1", `[1]`, `not json`)
	f.Fuzz(func(t *testing.T, tool, api, seq, args, response string) {
		tr := deps.NewTracker(g, deps.TrackerOptions{})
		p := &Provenance{local: tr, catalog: cat}
		p.replay("s", map[string]any{"tool": tool, "api": api, "seq": seq, "args": args, "response": response})
		var obj map[string]any
		if cat.API(tool, api) == nil || json.Unmarshal([]byte(args), &obj) != nil {
			// Nothing learnt: a search with any ID is refused as before.
			search := cat.API("skyscanner80", "flights_search_one_way")
			chk := tr.Check("s", search, map[string]any{"fromId": "eyJzIjoiTElTIn0=", "toId": "eyJzIjoiTE9OIn0=", "departDate": "2025-06-10"})
			require.NotNil(t, chk.Reject)
		}
	})
}
