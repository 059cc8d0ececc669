package mocks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAirportInfo(t *testing.T) {
	s := newTravelSession(t)
	v := s.ok(apTool, "airport", map[string]any{"iata": "LIS"})
	s.conforms(apTool, "airport", v)
	require.Equal(t, "LPPT", travelGet(t, v, "icao"))
	require.Equal(t, "Lisbon", travelGet(t, v, "city"))
	require.Equal(t, "PT", travelGet(t, v, "country_iso"))
	require.Equal(t, "Europe/Lisbon", travelGet(t, v, "timezone"))
	require.Equal(t, 60.0, travelGet(t, v, "uct"), "Lisbon is UTC+1 in June")
	require.InDelta(t, 38.78, travelGet(t, v, "latitude"), 0.05)

	v = s.ok(apTool, "airport", map[string]any{"iata": "jfk"})
	require.Equal(t, -240.0, travelGet(t, v, "uct"))
	v = s.ok(apTool, "airport", map[string]any{"icao": "EGLL"})
	require.Equal(t, "LHR", travelGet(t, v, "iata"))

	body := s.fails(404, apTool, "airport", map[string]any{"iata": "ZZZ"})
	require.Equal(t, map[string]any{"error": map[string]any{"text": "No airport found"}}, body)
	s.fails(404, apTool, "airport", map[string]any{"iata": "LIS", "icao": "EGLL"})
	s.fails(400, apTool, "airport", map[string]any{})

	// Every city's main airports are known, and each names its city.
	w := travelWorld(t)
	for _, c := range w.Cities() {
		for _, code := range c.Airports {
			v := s.ok(apTool, "airport", map[string]any{"iata": code})
			owner, _ := w.CityByAirport(code)
			require.Equal(t, owner.Name, travelGet(t, v, "city"), code)
		}
	}
}

func TestNearbyAirports(t *testing.T) {
	s := newTravelSession(t)
	v := s.ok(apTool, "nearby_airports", map[string]any{"lat": 51.5074, "lon": -0.1278, "radius_km": 80})
	s.conforms(apTool, "nearby_airports", v)
	data := travelGet(t, v, "data").([]any)
	require.Equal(t, "LCY", travelGet(t, data[0], "iata"), "London City is closest to Charing Cross")
	var codes []string
	last := -1.0
	for _, a := range data {
		d := travelGet(t, a, "distance_km").(float64)
		require.GreaterOrEqual(t, d, last, "sorted by distance")
		require.LessOrEqual(t, d, 80.0)
		last = d
		codes = append(codes, travelGet(t, a, "iata").(string))
	}
	require.Subset(t, codes, []string{"LHR", "LGW", "STN", "LTN", "LCY", "SEN"})
	// Default radius 100 km; the ocean has nothing.
	v = s.ok(apTool, "nearby_airports", map[string]any{"lat": 0.0, "lon": -30.0})
	require.Empty(t, travelGet(t, v, "data"))
	require.Equal(t, 0.0, travelGet(t, v, "count"))
	for _, bad := range []map[string]any{
		{"lat": 91.0, "lon": 0.0}, {"lat": "north", "lon": 0.0}, {"lat": 0.0, "lon": 181.0}, {"lat": 0.0, "lon": 0.0, "radius_km": 0},
	} {
		s.fails(400, apTool, "nearby_airports", bad)
	}
	// The chain: the nearest airport's code answers the airport API.
	v = s.ok(apTool, "nearby_airports", map[string]any{"lat": 38.7223, "lon": -9.1393})
	code := travelGet(t, v, "data[0].iata")
	require.Equal(t, "LIS", code)
	s.ok(apTool, "airport", map[string]any{"iata": code})
}

func TestAirportGolden(t *testing.T) {
	s := newTravelSession(t)
	goldenJSON(t, "travel_airport_info.golden.json", map[string]any{
		"airport_lis": s.ok(apTool, "airport", map[string]any{"iata": "LIS"}),
		"airport_nrt": s.ok(apTool, "airport", map[string]any{"iata": "NRT"}),
		"nearby_rome": s.ok(apTool, "nearby_airports", map[string]any{"lat": 41.9028, "lon": 12.4964, "radius_km": 50}),
		"unknown":     s.fails(404, apTool, "airport", map[string]any{"iata": "QQQ"}),
	})
}

func BenchmarkNearbyAirports(b *testing.B) {
	s := newTravelSession(b)
	args := map[string]any{"lat": 48.8566, "lon": 2.3522, "radius_km": 100.0}
	b.ReportAllocs()
	for b.Loop() {
		s.raw(apTool, "nearby_airports", args)
	}
}

// TestNearbyAirportsFromGeocoding follows the cross-tool dependency:
// forward_geocode's results[].lat/lon feed nearby_airports.
func TestNearbyAirportsFromGeocoding(t *testing.T) {
	if _, ok := handlerFor("geocoding", "forward_geocode"); !ok {
		t.Skip("the geocoding stand-in is not registered")
	}
	s := newTravelSession(t)
	geo := s.ok("geocoding", "forward_geocode", map[string]any{"address": "Lisbon, Portugal"})
	near := s.ok(apTool, "nearby_airports", map[string]any{"lat": travelGet(t, geo, "results[0].lat"), "lon": travelGet(t, geo, "results[0].lon")})
	require.Equal(t, "LIS", travelGet(t, near, "data[0].iata"))
}
