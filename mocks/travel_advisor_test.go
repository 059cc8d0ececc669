package mocks

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
)

func TestTravelAdvisorAttractionChain(t *testing.T) {
	s := newTravelSession(t)
	found := s.ok(taTool, "locations_search", map[string]any{"query": "Lisbon"})
	s.conforms(taTool, "locations_search", found)
	require.Equal(t, "geos", travelGet(t, found, "data[0].result_type"))
	geo := travelGet(t, found, "data[0].result_object.location_id").(string)
	require.Equal(t, "189158", geo)
	require.Equal(t, "things_to_do", travelGet(t, found, "data[1].result_type"))

	list := s.ok(taTool, "attractions_list", map[string]any{"location_id": geo})
	s.conforms(taTool, "attractions_list", list)
	items := travelGet(t, list, "data").([]any)
	require.GreaterOrEqual(t, len(items), 5)
	var names []string
	for i, it := range items {
		names = append(names, travelGet(t, it, "name").(string))
		require.Equal(t, strconv.Itoa(i+1), travelGet(t, it, "ranking_position"))
		lat, _ := strconv.ParseFloat(travelGet(t, it, "latitude").(string), 64)
		lon, _ := strconv.ParseFloat(travelGet(t, it, "longitude").(string), 64)
		require.Less(t, DistanceKm(lat, lon, 38.7223, -9.1393), 15.0)
	}
	require.Contains(t, names, "Belém Tower")
	require.Contains(t, names, "Jerónimos Monastery")

	id := travelGet(t, items[0], "location_id").(string)
	details := s.ok(taTool, "attractions_get_details", map[string]any{"location_id": id, "currency": "EUR"})
	s.conforms(taTool, "attractions_get_details", details)
	require.Equal(t, travelGet(t, items[0], "name"), travelGet(t, details, "name"))
	require.Len(t, travelGet(t, details, "hours.week_ranges").([]any), 7)
	require.Equal(t, geo, travelGet(t, details, "ancestors[0].location_id"))
	hist := 0
	for i := 1; i <= 5; i++ {
		n, _ := strconv.Atoi(travelGet(t, details, "rating_histogram.count_"+strconv.Itoa(i)).(string))
		hist += n
	}
	require.Equal(t, travelGet(t, details, "num_reviews"), strconv.Itoa(hist), "the histogram adds up to the review count")

	photos := s.ok(taTool, "photos_list", map[string]any{"location_id": id, "limit": 5})
	s.conforms(taTool, "photos_list", photos)
	require.Len(t, travelGet(t, photos, "data").([]any), 5)
	require.True(t, strings.HasPrefix(travelGet(t, photos, "data[0].images.large.url").(string), "https://media-cdn.tripadvisor.com/media/photo-s/"))

	reviews := s.ok(taTool, "reviews_list", map[string]any{"location_id": id, "limit": 4})
	s.conforms(taTool, "reviews_list", reviews)
	rs := travelGet(t, reviews, "data").([]any)
	require.Len(t, rs, 4)
	for _, r := range rs {
		n, err := strconv.Atoi(travelGet(t, r, "rating").(string))
		require.NoError(t, err)
		require.True(t, n >= 1 && n <= 5)
		require.Less(t, travelGet(t, r, "published_date").(string), "2025-06-02T09", "reviews are in the past")
		require.Equal(t, id, travelGet(t, r, "location_id"))
	}

	// Fabricated and misplaced ids.
	body := s.fails(404, taTool, "attractions_list", map[string]any{"location_id": "999"})
	require.Equal(t, "Unknown location_id 999", travelGet(t, body, "errors[0].message"))
	s.fails(400, taTool, "attractions_list", map[string]any{"location_id": id})
	s.fails(400, taTool, "attractions_get_details", map[string]any{"location_id": geo})
	for _, api := range []string{"attractions_get_details", "photos_list", "reviews_list"} {
		s.fails(404, taTool, api, map[string]any{"location_id": "1"})
	}
	s.fails(400, taTool, "photos_list", map[string]any{"location_id": id, "limit": 0})
}

func TestTravelAdvisorSearch(t *testing.T) {
	s := newTravelSession(t)
	v := s.ok(taTool, "locations_search", map[string]any{"query": "Eiffel Tower"})
	require.Equal(t, "188151", travelGet(t, v, "data[0].result_object.location_id"))
	require.Equal(t, "things_to_do", travelGet(t, v, "data[0].result_type"))
	v = s.ok(taTool, "locations_search", map[string]any{"query": "Paris, France"})
	require.Equal(t, "187147", travelGet(t, v, "data[0].result_object.location_id"))
	v = s.ok(taTool, "locations_search", map[string]any{"query": "xqzxqz"})
	require.Empty(t, travelGet(t, v, "data"))
	require.Equal(t, "0", travelGet(t, v, "paging.total_results"))
	// Paging walks the same list.
	all := s.ok(taTool, "locations_search", map[string]any{"query": "Rome"})
	second := s.ok(taTool, "locations_search", map[string]any{"query": "Rome", "limit": 1, "offset": 1})
	require.Equal(t, travelGet(t, all, "data[1]"), travelGet(t, second, "data[0]"))
}

func TestTravelAdvisorDeterministic(t *testing.T) {
	args := map[string]any{"location_id": "188757", "limit": 10}
	a, _ := canon.JSON(newTravelSession(t).ok(taTool, "reviews_list", args))
	b, _ := canon.JSON(newTravelSession(t).ok(taTool, "reviews_list", args))
	require.Equal(t, string(a), string(b))
	c, _ := canon.JSON(newTravelSession(t).ok(taTool, "reviews_list", map[string]any{"location_id": "188151", "limit": 10}))
	require.NotEqual(t, string(a), string(c))
}

func TestTravelAdvisorGolden(t *testing.T) {
	s := newTravelSession(t)
	goldenJSON(t, "travel_travel_advisor.golden.json", map[string]any{
		"search":  s.ok(taTool, "locations_search", map[string]any{"query": "Lisbon"}),
		"list":    s.ok(taTool, "attractions_list", map[string]any{"location_id": "189158"}),
		"details": s.ok(taTool, "attractions_get_details", map[string]any{"location_id": "195285"}),
		"photos":  s.ok(taTool, "photos_list", map[string]any{"location_id": "195285", "limit": 3}),
		"reviews": s.ok(taTool, "reviews_list", map[string]any{"location_id": "195285", "limit": 3}),
		"error":   s.fails(404, taTool, "attractions_list", map[string]any{"location_id": "42"}),
	})
}

func BenchmarkTravelAdvisorAttractionsList(b *testing.B) {
	s := newTravelSession(b)
	args := map[string]any{"location_id": "187147"}
	b.ReportAllocs()
	for b.Loop() {
		s.raw(taTool, "attractions_list", args)
	}
}
