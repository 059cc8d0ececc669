package mocks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func geoResults(t *testing.T, address string) []any {
	t.Helper()
	r := basicOK(t, "geocoding", "forward_geocode", map[string]any{"address": address})
	return r["results"].([]any)
}

func TestBasicForwardGeocode(t *testing.T) {
	r := basicOK(t, "geocoding", "forward_geocode", nil)
	res := r["results"].([]any)
	require.Len(t, res, 1)
	first := res[0].(map[string]any)
	require.Equal(t, 38.7223, first["lat"])
	require.Equal(t, -9.1393, first["lon"])
	require.Equal(t, "Lisbon, Portugal", first["display_name"])
	require.Equal(t, "pt", first["address"].(map[string]any)["country_code"])
	require.Len(t, first["boundingbox"], 4)

	// Agrees with the core world for every city.
	w := basicWorldT(t)
	for _, c := range w.Cities() {
		res := geoResults(t, c.Name)
		require.NotEmpty(t, res, c.Name)
		top := res[0].(map[string]any)
		require.Equal(t, c.Lat, top["lat"], c.Name)
		require.Equal(t, c.Lon, top["lon"], c.Name)
	}

	for _, tc := range []struct{ address, name string }{
		{"NYC", "New York"},
		{"Paris, France", "Paris"},
		{"Rua Augusta 24, 1100-048 Lisbon", "Lisbon"},
		{"Belém Tower", "Belém Tower"},
		{"Eiffel Tower, Paris", "Eiffel Tower"},
	} {
		res := geoResults(t, tc.address)
		require.NotEmpty(t, res, tc.address)
		require.Equal(t, tc.name, res[0].(map[string]any)["name"], tc.address)
	}
	require.Empty(t, geoResults(t, "742 Evergreen Terrace, Springfield"))
	require.Empty(t, geoResults(t, "zzqx"))
	basicErr(t, "geocoding", "forward_geocode", map[string]any{"address": " "}, 400)
	require.NotEqual(t, basicBytes(t, "geocoding", "forward_geocode", map[string]any{"address": "Tokyo"}), basicBytes(t, "geocoding", "forward_geocode", map[string]any{"address": "Osaka"}))
}

func TestBasicReverseGeocode(t *testing.T) {
	r := basicOK(t, "geocoding", "reverse_geocode", nil)
	require.Equal(t, "Belém Tower", r["name"])
	require.Equal(t, "tourism", r["class"])

	r = basicOK(t, "geocoding", "reverse_geocode", map[string]any{"lat": 48.80, "lon": 2.40})
	require.Equal(t, "Paris", r["name"])
	require.Equal(t, "Paris, Île-de-France, France", r["display_name"])

	r = basicOK(t, "geocoding", "reverse_geocode", map[string]any{"lat": 0.0, "lon": -30.0})
	require.Equal(t, map[string]any{"error": "Unable to geocode"}, r)
	basicErr(t, "geocoding", "reverse_geocode", map[string]any{"lat": 123.0}, 400)
}

func TestBasicGeocodingGolden(t *testing.T) {
	basicGolden(t, "geocoding", []basicCase{
		{"forward_default", "forward_geocode", nil},
		{"forward_landmark", "forward_geocode", map[string]any{"address": "Sagrada Família"}},
		{"forward_prefix", "forward_geocode", map[string]any{"address": "San"}},
		{"forward_unknown", "forward_geocode", map[string]any{"address": "Atlantis"}},
		{"reverse_default", "reverse_geocode", nil},
		{"reverse_city", "reverse_geocode", map[string]any{"lat": 35.68, "lon": 139.77}},
		{"reverse_sea", "reverse_geocode", map[string]any{"lat": -40.0, "lon": -120.0}},
	})
}

func TestBasicIsoCodes(t *testing.T) {
	r := basicOK(t, "iso_codes", "language_codes", nil)
	require.Equal(t, float64(1), r["count"])
	r = basicOK(t, "iso_codes", "language_codes", map[string]any{"search": nil})
	require.Equal(t, float64(len(basicWorldT(t).Languages())), r["count"])
	r = basicOK(t, "iso_codes", "language_codes", map[string]any{"search": "JA"})
	require.Equal(t, "Japanese", r["data"].([]any)[0].(map[string]any)["name"])

	r = basicOK(t, "iso_codes", "country_codes", map[string]any{"search": "united"})
	require.GreaterOrEqual(t, r["count"], float64(3)) // Arab Emirates, Kingdom, States
	r = basicOK(t, "iso_codes", "country_codes", map[string]any{"search": "PRT"})
	require.Equal(t, "PT", r["data"].([]any)[0].(map[string]any)["alpha2"])
	r = basicOK(t, "iso_codes", "country_codes", map[string]any{"search": "holland"})
	require.Equal(t, "NL", r["data"].([]any)[0].(map[string]any)["alpha2"])

	for _, code := range []string{"PT", "prt", "620"} {
		r = basicOK(t, "iso_codes", "country_by_code", map[string]any{"code": code})
		require.Equal(t, "Portugal", r["data"].(map[string]any)["name"], code)
	}
	basicErr(t, "iso_codes", "country_by_code", map[string]any{"code": "XK"}, 404)
	basicErr(t, "iso_codes", "country_by_code", map[string]any{"code": "Portugal"}, 400)
	basicErr(t, "iso_codes", "country_by_code", map[string]any{"code": ""}, 400)

	basicGolden(t, "iso_codes", []basicCase{
		{"languages_default", "language_codes", nil},
		{"countries_default", "country_codes", nil},
		{"countries_search", "country_codes", map[string]any{"search": "ice"}},
		{"by_code_default", "country_by_code", nil},
		{"by_code_alpha3", "country_by_code", map[string]any{"code": "JPN"}},
		{"by_code_unknown", "country_by_code", map[string]any{"code": "ZZ"}},
	})
}

func BenchmarkBasicForwardGeocode(b *testing.B) { basicBench(b, "geocoding", "forward_geocode") }

func BenchmarkBasicCountryByCode(b *testing.B) { basicBench(b, "iso_codes", "country_by_code") }

func FuzzBasicGeocode(f *testing.F) {
	w, err := DefaultWorld()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"Lisbon, Portugal", "Rua Augusta 24, 1100-048 Lisbon", ",,,", "San", "Eiffel Tower, Paris", "NYC"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range geoSearch(w, s) {
			if _, ok := r["lat"].(float64); !ok {
				t.Fatalf("%q: result without lat", s)
			}
		}
	})
}
