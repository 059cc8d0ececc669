package search

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"getUserProfile", []string{"get", "user", "profile"}},
		{"flights_auto_complete", []string{"flights", "auto", "complete"}},
		{"HTTPServer error", []string{"http", "server", "error"}},
		{"iso3166 codes", []string{"iso", "3166", "codes"}},
		{"search-hotel-destination", []string{"search", "hotel", "destination"}},
		{"Weather, forecast; 5-day!", []string{"weather", "forecast", "5", "day"}},
		{"  ", nil},
		{"fromId", []string{"from", "id"}},
		{"Café Zürich", []string{"café", "zürich"}},
		{"ABC", []string{"abc"}},
	} {
		t.Run(tc.in, func(t *testing.T) {
			require.Equal(t, tc.want, Tokenize(tc.in))
		})
	}
}

// TestBM25GoldenScores checks the scores against numbers worked out by hand
// and, to the last bit, against rank_bm25's BM25Okapi arithmetic (the same
// expressions evaluated in Python floats, which numpy's float64 matches).
//
// Corpus (N = 3, lengths 3, 4, 2, avgdl = 9/3 = 3):
//
//	d0: weather forecast city
//	d1: hotel search city hotel
//	d2: weather now
//
// Document frequencies: weather 2, city 2, forecast 1, hotel 1, search 1, now 1.
//
//	idf(n=1) = ln(3-1+0.5) - ln(1+0.5) = ln 2.5 - ln 1.5 = ln(5/3) = 0.5108256237659907
//	idf(n=2) = ln(1.5) - ln(2.5) = -0.5108256237659907 < 0, floored below
//	average idf = (-0.51083·2 + 0.51083·4) / 6 = 0.1702752079219969
//	ε·average   = 0.25 · 0.1702752079219969 = 0.04256880198049923 = idf(weather) = idf(city)
//
// Length part of the denominator, k1·(1 - b + b·|d|/avgdl):
//
//	d0: 1.5·(0.25 + 0.75·3/3) = 1.5     d1: 1.5·(0.25 + 0.75·4/3) = 1.875     d2: 1.5·(0.25 + 0.75·2/3) = 1.125
//
// Query "weather city":
//
//	d0 = ε·2.5/(1+1.5) + ε·2.5/(1+1.5) = 2ε           = 0.08513760396099845
//	d1 = ε·2.5/(1+1.875) = ε·0.8695652173913044       = 0.0370163495482602
//	d2 = ε·2.5/(1+1.125) = ε·1.1764705882352942       = 0.05008094350646968
//
// Query "hotel": d1 = 0.5108256·(2·2.5)/(2+1.875) = 0.5108256·1.2903226 = 0.6591298371174074.
// Query "city city" counts "city" twice: d1 = 2·0.0370163495482602.
func TestBM25GoldenScores(t *testing.T) {
	ix := newIndexTokens([][]string{
		{"weather", "forecast", "city"},
		{"hotel", "search", "city", "hotel"},
		{"weather", "now"},
	})
	require.Equal(t, 0.5108256237659907, ix.stats[ix.terms["forecast"]].idf)
	require.Equal(t, 0.04256880198049923, ix.stats[ix.terms["weather"]].idf)
	require.Equal(t, 0.04256880198049923, ix.stats[ix.terms["city"]].idf)
	require.Equal(t, []float64{1.5, 1.875, 1.125}, ix.norm)
	for _, tc := range []struct {
		query string
		want  []float64
	}{
		{"weather city", []float64{0.08513760396099845, 0.0370163495482602, 0.05008094350646968}},
		{"hotel", []float64{0, 0.6591298371174074, 0}},
		{"city city", []float64{0.08513760396099845, 0.0740326990965204, 0}},
		{"now forecast missing", []float64{0.5108256237659907, 0, 0.6009713220776361}},
		{"", []float64{0, 0, 0}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			require.Equal(t, tc.want, ix.Scores(tc.query))
		})
	}
}

func testSearchCatalog(t testing.TB) *toolset.Catalog {
	mk := func(tool, desc string, apis ...*toolset.API) *toolset.Tool {
		return &toolset.Tool{Name: tool, Description: desc, Category: "Test", APIs: apis}
	}
	c, err := toolset.NewCatalog([]*toolset.Tool{
		mk("weather_now", "Weather reports", &toolset.API{Name: "current_weather", Description: "Current weather for a city"},
			&toolset.API{Name: "forecast", Description: "Weather forecast for the next days", Params: []*toolset.Param{{Name: "days", Description: "number of days"}}}),
		mk("hotels", "Hotel booking", &toolset.API{Name: "search_hotels", Description: "Find hotels in a city"},
			&toolset.API{Name: "hotel_reviews", Description: "Reviews of a hotel", Params: []*toolset.Param{{Name: "hotel_id"}}}),
		mk("twins_a", "Same", &toolset.API{Name: "same", Description: "identical text"}),
		mk("twins_b", "Same", &toolset.API{Name: "same", Description: "identical text"}),
	})
	require.NoError(t, err)
	return c
}

func TestSearch(t *testing.T) {
	c := testSearchCatalog(t)
	hits := Of(c).Search("weather forecast days", 3)
	require.NotEmpty(t, hits)
	require.Equal(t, "weather_now.forecast", hits[0].ID)
	for i := 1; i < len(hits); i++ {
		require.GreaterOrEqual(t, hits[i-1].Score, hits[i].Score)
	}
	// Identical documents tie; the smaller ID comes first, whatever the index order.
	hits = Of(c).Search("identical", 5)
	require.Len(t, hits, 2)
	require.Equal(t, hits[0].Score, hits[1].Score)
	require.Equal(t, []string{"twins_a.same", "twins_b.same"}, []string{hits[0].ID, hits[1].ID})
	rev := NewIndex([]*toolset.API{c.API("twins_b", "same"), c.API("twins_a", "same"), c.API("hotels", "search_hotels")})
	hits = rev.Search("identical", 5)
	require.Equal(t, []string{"twins_a.same", "twins_b.same"}, []string{hits[0].ID, hits[1].ID})

	require.Empty(t, Of(c).Search("zeppelin", 5), "no API holds the term")
	require.Empty(t, Of(c).Search("weather", 0))
	require.Len(t, Of(c).Search("hotel city weather", 2), 2)
	require.Nil(t, NewIndex(nil).Search("x", 3))
	for _, h := range Of(c).Search("hotel", 5) {
		require.False(t, math.IsNaN(h.Score))
	}
}

func TestSuggest(t *testing.T) {
	c := testSearchCatalog(t)
	for _, tc := range []struct {
		tool, api string
		first     string
	}{
		{"weather_now", "forcast", "weather_now.forecast"},
		{"weather", "current weather", "weather_now.current_weather"},
		{"hotel", "search_hotel", "hotels.search_hotels"},
		{"hotels", "reviews", "hotels.hotel_reviews"},
		{"weathr_now", "", "weather_now"},
	} {
		t.Run(tc.tool+"/"+tc.api, func(t *testing.T) {
			got := Suggest(c, tc.tool, tc.api, 3)
			require.NotEmpty(t, got)
			require.Equal(t, tc.first, got[0])
			require.LessOrEqual(t, len(got), 3)
		})
	}
	require.Empty(t, Suggest(c, "qqqqqqqqqqqq", "zzzzzzzzzzzzzz", 3), "nothing close")
}

// A ranking longer than the insertion buffer is sorted instead; it is the
// same ranking, and its first k are Search's k best.
func TestSearchLongRanking(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	ix := Of(c)
	require.Greater(t, ix.Len(), smallK)
	for _, q := range []string{"weather forecast for a city", "the a of to", "get the list of all countries by name or code"} {
		all := ix.Search(q, ix.Len())
		require.Greater(t, len(all), smallK, q)
		for k := 1; k <= smallK; k++ {
			require.Equal(t, all[:min(k, len(all))], ix.Search(q, k), "%s @%d", q, k)
		}
		for i := 1; i < len(all); i++ {
			a, b := all[i-1], all[i]
			require.True(t, a.Score > b.Score || a.Score == b.Score && a.ID < b.ID, "%s: %s before %s", q, a.ID, b.ID)
		}
	}
}

// DocFreq and Holds agree with the postings Search reads: the APIs a
// single term matches.
func TestDocFreqAndHolds(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	ix := Of(c)
	apis := c.APIs()
	for _, tok := range []string{"weather", "the", "iata", "zeppelin"} {
		holders := map[string]bool{}
		for _, h := range ix.Search(tok, ix.Len()) {
			holders[h.ID] = true
		}
		require.Equal(t, len(holders), ix.DocFreq(tok), tok)
		for i, a := range apis {
			require.Equal(t, holders[a.ID()], ix.Holds(i, tok), "%s in %s", tok, a.ID())
		}
	}
	require.False(t, ix.Holds(-1, "the"))
	require.False(t, ix.Holds(ix.Len(), "the"))
	var none *Index
	require.Zero(t, none.DocFreq("the"))
	require.False(t, none.Holds(0, "the"))
}
