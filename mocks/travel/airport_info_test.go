package travel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

func TestAirportInfo(t *testing.T) {
	s := standintest.New(t, Register)
	v := s.OK(apTool, "airport", map[string]any{"iata": "LIS"})
	conforms(s, apTool, "airport", v)
	require.Equal(t, "LPPT", standintest.Get(t, v, "icao"))
	require.Equal(t, "Lisbon", standintest.Get(t, v, "city"))
	require.Equal(t, "PT", standintest.Get(t, v, "country_iso"))
	require.Equal(t, "Europe/Lisbon", standintest.Get(t, v, "timezone"))
	require.Equal(t, 60.0, standintest.Get(t, v, "uct"), "Lisbon is UTC+1 in June")
	require.InDelta(t, 38.78, standintest.Get(t, v, "latitude"), 0.05)

	v = s.OK(apTool, "airport", map[string]any{"iata": "jfk"})
	require.Equal(t, -240.0, standintest.Get(t, v, "uct"))
	v = s.OK(apTool, "airport", map[string]any{"icao": "EGLL"})
	require.Equal(t, "LHR", standintest.Get(t, v, "iata"))

	body := s.Fails(404, apTool, "airport", map[string]any{"iata": "ZZZ"})
	require.Equal(t, map[string]any{"error": map[string]any{"text": "No airport found"}}, body)
	s.Fails(404, apTool, "airport", map[string]any{"iata": "LIS", "icao": "EGLL"})
	s.Fails(400, apTool, "airport", map[string]any{})

	// Every city's main airports are known, and each names its city.
	w := standintest.World(t)
	for _, c := range w.Cities() {
		for _, code := range c.Airports {
			v := s.OK(apTool, "airport", map[string]any{"iata": code})
			owner, _ := w.CityByAirport(code)
			require.Equal(t, owner.Name, standintest.Get(t, v, "city"), code)
		}
	}
}

func TestNearbyAirports(t *testing.T) {
	s := standintest.New(t, Register)
	v := s.OK(apTool, "nearby_airports", map[string]any{"lat": 51.5074, "lon": -0.1278, "radius_km": 80})
	conforms(s, apTool, "nearby_airports", v)
	data := standintest.Get(t, v, "data").([]any)
	require.Equal(t, "LCY", standintest.Get(t, data[0], "iata"), "London City is closest to Charing Cross")
	var codes []string
	last := -1.0
	for _, a := range data {
		d := standintest.Get(t, a, "distance_km").(float64)
		require.GreaterOrEqual(t, d, last, "sorted by distance")
		require.LessOrEqual(t, d, 80.0)
		last = d
		codes = append(codes, standintest.Get(t, a, "iata").(string))
	}
	require.Subset(t, codes, []string{"LHR", "LGW", "STN", "LTN", "LCY", "SEN"})
	// Default radius 100 km; the ocean has nothing.
	v = s.OK(apTool, "nearby_airports", map[string]any{"lat": 0.0, "lon": -30.0})
	require.Empty(t, standintest.Get(t, v, "data"))
	require.Equal(t, 0.0, standintest.Get(t, v, "count"))
	for _, bad := range []map[string]any{
		{"lat": 91.0, "lon": 0.0}, {"lat": "north", "lon": 0.0}, {"lat": 0.0, "lon": 181.0}, {"lat": 0.0, "lon": 0.0, "radius_km": 0},
	} {
		s.Fails(400, apTool, "nearby_airports", bad)
	}
	// The chain: the nearest airport's code answers the airport API.
	v = s.OK(apTool, "nearby_airports", map[string]any{"lat": 38.7223, "lon": -9.1393})
	code := standintest.Get(t, v, "data[0].iata")
	require.Equal(t, "LIS", code)
	s.OK(apTool, "airport", map[string]any{"iata": code})
}

func TestAirportGolden(t *testing.T) {
	s := standintest.New(t, Register)
	standintest.Golden(t, "airport_info.golden.json", map[string]any{
		"airport_lis": s.OK(apTool, "airport", map[string]any{"iata": "LIS"}),
		"airport_nrt": s.OK(apTool, "airport", map[string]any{"iata": "NRT"}),
		"nearby_rome": s.OK(apTool, "nearby_airports", map[string]any{"lat": 41.9028, "lon": 12.4964, "radius_km": 50}),
		"unknown":     s.Fails(404, apTool, "airport", map[string]any{"iata": "QQQ"}),
	})
}

func BenchmarkNearbyAirports(b *testing.B) {
	s := standintest.New(b, Register)
	args := map[string]any{"lat": 48.8566, "lon": 2.3522, "radius_km": 100.0}
	s.Bench(b, apTool, "nearby_airports", args)
}

// TestNearbyAirportsFromGeocoding follows the cross-tool dependency:
// forward_geocode's results[].lat/lon feed nearby_airports.
func TestNearbyAirportsFromGeocoding(t *testing.T) {
	s := standintest.New(t, Register)
	geo := s.OK("geocoding", "forward_geocode", map[string]any{"address": "Lisbon, Portugal"})
	near := s.OK(apTool, "nearby_airports", map[string]any{"lat": standintest.Get(t, geo, "results[0].lat"), "lon": standintest.Get(t, geo, "results[0].lon")})
	require.Equal(t, "LIS", standintest.Get(t, near, "data[0].iata"))
}
