package retrieve_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/retrieve"
)

func TestNDCG(t *testing.T) {
	l := func(i int) float64 { return 1 / math.Log2(float64(i+1)) }
	for _, tc := range []struct {
		name     string
		ranked   []string
		relevant []string
		k        int
		want     float64
	}{
		{"first of one", []string{"a", "b"}, []string{"a"}, 1, 1},
		{"second of one, at 1", []string{"b", "a"}, []string{"a"}, 1, 0},
		{"second of one, at 5", []string{"b", "a"}, []string{"a"}, 5, l(2)},
		{"both of two", []string{"a", "b", "c"}, []string{"b", "a"}, 5, 1},
		{"one of two at 3", []string{"x", "y", "a"}, []string{"a", "b"}, 5, l(3) / (l(1) + l(2))},
		{"more relevant than k", []string{"a"}, []string{"a", "b", "c"}, 1, 1},
		{"repeat counts once", []string{"a", "a"}, []string{"a", "b"}, 5, l(1) / (l(1) + l(2))},
		{"nothing relevant", []string{"a"}, nil, 5, 0},
		{"empty ranking", nil, []string{"a"}, 5, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.InDelta(t, tc.want, retrieve.NDCG(tc.ranked, tc.relevant, tc.k), 1e-12)
		})
	}
}

func catalog(t *testing.T) *toolset.Catalog {
	t.Helper()
	c, err := loader.Builtin()
	require.NoError(t, err)
	return c
}

// Each retriever ranks the API a plain request names first, returns at
// most k, is deterministic, and returns nothing for words no API uses.
func TestRetrievers(t *testing.T) {
	c := catalog(t)
	for _, name := range retrieve.Names() {
		r, err := retrieve.New(name, c)
		require.NoError(t, err)
		require.Equal(t, name, r.Name())
		for _, tc := range []struct{ query, top string }{
			{"currency exchange rate from USD to EUR", "currency_exchange.exchange"},
			{"public holidays of a country in a year", "public_holiday.public_holidays"},
		} {
			hs := r.Retrieve(tc.query, 5)
			require.NotEmpty(t, hs, "%s: %s", name, tc.query)
			require.LessOrEqual(t, len(hs), 5)
			require.Equal(t, tc.top, hs[0].ID, "%s: %s: %v", name, tc.query, retrieve.IDs(hs))
			require.Equal(t, hs, r.Retrieve(tc.query, 5), "deterministic")
		}
		require.Empty(t, r.Retrieve("zzqx wvvq", 5), name)
		require.Empty(t, r.Retrieve("currency", 0), name)
	}
	_, err := retrieve.New("nope", c)
	var ue *retrieve.UnknownError
	require.ErrorAs(t, err, &ue)
}

// Self-reflection widens the hierarchical search when the first pick of
// category and tools leaves most of the query unexplained, and not when
// it explains it.
func TestHierarchicalReflection(t *testing.T) {
	h := retrieve.NewHierarchical(catalog(t))
	_, rounds := h.Search("currency exchange rate from USD to EUR", 50)
	require.Zero(t, rounds)
	const twoNeeds = "weather in Tokyo right now and the time zone of Lisbon"
	wide, rounds := h.Search(twoNeeds, 50)
	require.Positive(t, rounds)
	h.Reflections = 0
	narrow, _ := h.Search(twoNeeds, 50)
	require.Greater(t, len(wide), len(narrow), "without reflection the pool stays in the first category")
	for _, hit := range narrow {
		require.Contains(t, retrieve.IDs(wide), hit.ID, "widening keeps the first pool")
	}
}

func TestNeeds(t *testing.T) {
	require.Equal(t, []string{"What's the weather in Paris", "how many euros is 100 dollars"},
		retrieve.Needs("What's the weather in Paris, and how many euros is 100 dollars?"))
	require.Equal(t, []string{"hello"}, retrieve.Needs("hello"))
}
