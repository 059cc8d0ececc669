package travel

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

func TestTravelAdvisorAttractionChain(t *testing.T) {
	s := standintest.New(t, Register)
	found := s.OK(taTool, "locations_search", map[string]any{"query": "Lisbon"})
	conforms(s, taTool, "locations_search", found)
	require.Equal(t, "geos", standintest.Get(t, found, "data[0].result_type"))
	geo := standintest.Get(t, found, "data[0].result_object.location_id").(string)
	require.Equal(t, "189158", geo)
	require.Equal(t, "things_to_do", standintest.Get(t, found, "data[1].result_type"))

	list := s.OK(taTool, "attractions_list", map[string]any{"location_id": geo})
	conforms(s, taTool, "attractions_list", list)
	items := standintest.Get(t, list, "data").([]any)
	require.GreaterOrEqual(t, len(items), 5)
	var names []string
	for i, it := range items {
		names = append(names, standintest.Get(t, it, "name").(string))
		require.Equal(t, strconv.Itoa(i+1), standintest.Get(t, it, "ranking_position"))
		lat, _ := strconv.ParseFloat(standintest.Get(t, it, "latitude").(string), 64)
		lon, _ := strconv.ParseFloat(standintest.Get(t, it, "longitude").(string), 64)
		require.Less(t, world.DistanceKm(lat, lon, 38.7223, -9.1393), 15.0)
	}
	require.Contains(t, names, "Belém Tower")
	require.Contains(t, names, "Jerónimos Monastery")

	id := standintest.Get(t, items[0], "location_id").(string)
	details := s.OK(taTool, "attractions_get_details", map[string]any{"location_id": id, "currency": "EUR"})
	conforms(s, taTool, "attractions_get_details", details)
	require.Equal(t, standintest.Get(t, items[0], "name"), standintest.Get(t, details, "name"))
	require.Len(t, standintest.Get(t, details, "hours.week_ranges").([]any), 7)
	require.Equal(t, geo, standintest.Get(t, details, "ancestors[0].location_id"))
	hist := 0
	for i := 1; i <= 5; i++ {
		n, _ := strconv.Atoi(standintest.Get(t, details, "rating_histogram.count_"+strconv.Itoa(i)).(string))
		hist += n
	}
	require.Equal(t, standintest.Get(t, details, "num_reviews"), strconv.Itoa(hist), "the histogram adds up to the review count")

	photos := s.OK(taTool, "photos_list", map[string]any{"location_id": id, "limit": 5})
	conforms(s, taTool, "photos_list", photos)
	require.Len(t, standintest.Get(t, photos, "data").([]any), 5)
	require.True(t, strings.HasPrefix(standintest.Get(t, photos, "data[0].images.large.url").(string), "https://media-cdn.tripadvisor.com/media/photo-s/"))

	reviews := s.OK(taTool, "reviews_list", map[string]any{"location_id": id, "limit": 4})
	conforms(s, taTool, "reviews_list", reviews)
	rs := standintest.Get(t, reviews, "data").([]any)
	require.Len(t, rs, 4)
	for _, r := range rs {
		n, err := strconv.Atoi(standintest.Get(t, r, "rating").(string))
		require.NoError(t, err)
		require.True(t, n >= 1 && n <= 5)
		require.Less(t, standintest.Get(t, r, "published_date").(string), "2025-06-02T09", "reviews are in the past")
		require.Equal(t, id, standintest.Get(t, r, "location_id"))
	}

	// Fabricated and misplaced ids.
	body := s.Fails(404, taTool, "attractions_list", map[string]any{"location_id": "999"})
	require.Equal(t, "Unknown location_id 999", standintest.Get(t, body, "errors[0].message"))
	s.Fails(400, taTool, "attractions_list", map[string]any{"location_id": id})
	s.Fails(400, taTool, "attractions_get_details", map[string]any{"location_id": geo})
	for _, api := range []string{"attractions_get_details", "photos_list", "reviews_list"} {
		s.Fails(404, taTool, api, map[string]any{"location_id": "1"})
	}
	s.Fails(400, taTool, "photos_list", map[string]any{"location_id": id, "limit": 0})
}

func TestTravelAdvisorSearch(t *testing.T) {
	s := standintest.New(t, Register)
	v := s.OK(taTool, "locations_search", map[string]any{"query": "Eiffel Tower"})
	require.Equal(t, "188151", standintest.Get(t, v, "data[0].result_object.location_id"))
	require.Equal(t, "things_to_do", standintest.Get(t, v, "data[0].result_type"))
	v = s.OK(taTool, "locations_search", map[string]any{"query": "Paris, France"})
	require.Equal(t, "187147", standintest.Get(t, v, "data[0].result_object.location_id"))
	v = s.OK(taTool, "locations_search", map[string]any{"query": "xqzxqz"})
	require.Empty(t, standintest.Get(t, v, "data"))
	require.Equal(t, "0", standintest.Get(t, v, "paging.total_results"))
	// Paging walks the same list.
	all := s.OK(taTool, "locations_search", map[string]any{"query": "Rome"})
	second := s.OK(taTool, "locations_search", map[string]any{"query": "Rome", "limit": 1, "offset": 1})
	require.Equal(t, standintest.Get(t, all, "data[1]"), standintest.Get(t, second, "data[0]"))
}

func TestTravelAdvisorDeterministic(t *testing.T) {
	args := map[string]any{"location_id": "188757", "limit": 10}
	a, _ := canon.JSON(standintest.New(t, Register).OK(taTool, "reviews_list", args))
	b, _ := canon.JSON(standintest.New(t, Register).OK(taTool, "reviews_list", args))
	require.Equal(t, string(a), string(b))
	c, _ := canon.JSON(standintest.New(t, Register).OK(taTool, "reviews_list", map[string]any{"location_id": "188151", "limit": 10}))
	require.NotEqual(t, string(a), string(c))
}

func TestTravelAdvisorGolden(t *testing.T) {
	s := standintest.New(t, Register)
	standintest.Golden(t, "travel_advisor.golden.json", map[string]any{
		"search":  s.OK(taTool, "locations_search", map[string]any{"query": "Lisbon"}),
		"list":    s.OK(taTool, "attractions_list", map[string]any{"location_id": "189158"}),
		"details": s.OK(taTool, "attractions_get_details", map[string]any{"location_id": "195285"}),
		"photos":  s.OK(taTool, "photos_list", map[string]any{"location_id": "195285", "limit": 3}),
		"reviews": s.OK(taTool, "reviews_list", map[string]any{"location_id": "195285", "limit": 3}),
		"error":   s.Fails(404, taTool, "attractions_list", map[string]any{"location_id": "42"}),
	})
}

func BenchmarkTravelAdvisorAttractionsList(b *testing.B) {
	s := standintest.New(b, Register)
	args := map[string]any{"location_id": "187147"}
	s.Bench(b, taTool, "attractions_list", args)
}
