package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/assemble"
)

// newGen is a generator over the default sandbox, with nothing built.
func newGen(t *testing.T) *gen {
	t.Helper()
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	g := &gen{ctx: context.Background(), st: st, cat: st.Catalog, out: map[int][]dataset.Instruction{}}
	g.graph, err = deps.Build(st.Catalog, deps.Options{Annotations: true})
	require.NoError(t, err)
	return g
}

// TestQuestionsBeyondTheBudgetAreLeftOut: a Type-IV question that needs
// the last step's whole result is generated only when a model is shown it
// whole. The photos of Lisbon's top sight (40 photos, 35 KB) are shown in
// part: "show me its photos" is generated, "every photo" is not.
func TestQuestionsBeyondTheBudgetAreLeftOut(t *testing.T) {
	g := newGen(t)
	chain := func() []dataset.GoldStep {
		return []dataset.GoldStep{
			g.step("travel_advisor.locations_search", M{"query": "Lisbon"}),
			g.step("travel_advisor.attractions_list", M{}, "location_id", 0),
			g.step("travel_advisor.photos_list", M{}, "location_id", 1),
		}
	}
	g.buildIV("IV-900-some", t4{"Show me photos of the top attraction in Lisbon.", chain()}, false)
	g.buildIV("IV-901-every", t4{"List every single photo of the top attraction in Lisbon, all of them.", chain()}, true)
	require.Empty(t, g.errs)
	require.Len(t, g.out[dataset.TypeDependencies], 1)
	require.Equal(t, "IV-900-some", g.out[dataset.TypeDependencies][0].ID)
	require.Equal(t, []string{"IV-901-every"}, g.beyondBudget)

	// A whole question whose result fits is generated.
	g.buildIV("IV-902-fits", t4{"Which time zone is Nairobi in, exactly?", []dataset.GoldStep{
		g.step("geocoding.forward_geocode", M{"address": "Nairobi"}),
		g.step("world_time.timezone_by_location", M{}, "lat", 0, "lon", 0),
	}}, true)
	require.Len(t, g.out[dataset.TypeDependencies], 2)
}
