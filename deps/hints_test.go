package deps

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/toolset/loader"
)

func TestStripHintText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"`fromId` can be retrieved from `flights_auto_complete` (data->id) Ex: eyJzIjoiTllDQSJ9 (New York)", "Ex: eyJzIjoiTllDQSJ9 (New York)"},
		{"sessionId can be retrieved from flights_search_one_way or flights_search_roundtrip (data->context->sessionId)", ""},
		{"The hotel. Its id is returned by the search endpoint. Use an integer.", "The hotel. Use an integer."},
		{"A city name, such as Paris.", "A city name, such as Paris."},
		{"", ""},
	} {
		require.Equal(t, tc.want, StripHintText(tc.in), tc.in)
	}
}

// Over the built-in catalog: no description keeps a cue, and the graph
// built before still has its edges.
func TestStripHintsBuiltin(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	g, err := Build(c, Options{Annotations: true, Infer: true})
	require.NoError(t, err)
	edges := len(g.Edges())
	n := StripHints(c)
	require.Positive(t, n.Texts)
	for _, a := range c.APIs() {
		for _, p := range a.Params {
			require.False(t, strings.Contains(p.Description, "retrieved from"), "%s.%s: %s", a.ID(), p.Name, p.Description)
			require.Empty(t, p.Depends)
		}
	}
	require.Equal(t, edges, len(g.Edges()))
	require.Equal(t, HintsStripped{}, StripHints(c), "a second pass finds nothing")
}

func FuzzStripHintText(f *testing.F) {
	f.Add("`x` can be retrieved from `y` (data->id) Ex: 1")
	f.Add("returned by a.b. Then more.")
	f.Fuzz(func(t *testing.T, s string) {
		out := StripHintText(s)
		require.LessOrEqual(t, len(out), len(s))
		if !cues.MatchString(s) {
			require.Equal(t, s, out)
		}
	})
}
