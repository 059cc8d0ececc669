package travel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

func geoResults(t *testing.T, address string) []any {
	t.Helper()
	r := standintest.New(t, Register).WithDefaults().Object("geocoding", "forward_geocode", map[string]any{"address": address})
	return r["results"].([]any)
}

func TestBasicForwardGeocode(t *testing.T) {
	r := standintest.New(t, Register).WithDefaults().Object("geocoding", "forward_geocode", nil)
	res := r["results"].([]any)
	require.Len(t, res, 1)
	first := res[0].(map[string]any)
	require.Equal(t, 38.7223, first["lat"])
	require.Equal(t, -9.1393, first["lon"])
	require.Equal(t, "Lisbon, Portugal", first["display_name"])
	require.Equal(t, "pt", first["address"].(map[string]any)["country_code"])
	require.Len(t, first["boundingbox"], 4)

	// Agrees with the core world for every city.
	w := standintest.World(t)
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
	standintest.New(t, Register).WithDefaults().Fails(400, "geocoding", "forward_geocode", map[string]any{"address": " "})
	require.NotEqual(t, standintest.New(t, Register).WithDefaults().Bytes("geocoding", "forward_geocode", map[string]any{"address": "Tokyo"}), standintest.New(t, Register).WithDefaults().Bytes("geocoding", "forward_geocode", map[string]any{"address": "Osaka"}))
}

func TestBasicReverseGeocode(t *testing.T) {
	r := standintest.New(t, Register).WithDefaults().Object("geocoding", "reverse_geocode", nil)
	require.Equal(t, "Belém Tower", r["name"])
	require.Equal(t, "tourism", r["class"])

	r = standintest.New(t, Register).WithDefaults().Object("geocoding", "reverse_geocode", map[string]any{"lat": 48.80, "lon": 2.40})
	require.Equal(t, "Paris", r["name"])
	require.Equal(t, "Paris, Île-de-France, France", r["display_name"])

	r = standintest.New(t, Register).WithDefaults().Object("geocoding", "reverse_geocode", map[string]any{"lat": 0.0, "lon": -30.0})
	require.Equal(t, map[string]any{"error": "Unable to geocode"}, r)
	standintest.New(t, Register).WithDefaults().Fails(400, "geocoding", "reverse_geocode", map[string]any{"lat": 123.0})
}

func TestBasicGeocodingGolden(t *testing.T) {
	standintest.GoldenCalls(t, "geocoding.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "forward_default", Tool: "geocoding", API: "forward_geocode", Args: nil},
		{Name: "forward_landmark", Tool: "geocoding", API: "forward_geocode", Args: map[string]any{"address": "Sagrada Família"}},
		{Name: "forward_prefix", Tool: "geocoding", API: "forward_geocode", Args: map[string]any{"address": "San"}},
		{Name: "forward_unknown", Tool: "geocoding", API: "forward_geocode", Args: map[string]any{"address": "Atlantis"}},
		{Name: "reverse_default", Tool: "geocoding", API: "reverse_geocode", Args: nil},
		{Name: "reverse_city", Tool: "geocoding", API: "reverse_geocode", Args: map[string]any{"lat": 35.68, "lon": 139.77}},
		{Name: "reverse_sea", Tool: "geocoding", API: "reverse_geocode", Args: map[string]any{"lat": -40.0, "lon": -120.0}},
	})
}

func TestBasicIsoCodes(t *testing.T) {
	// Left out, search filters nothing: every language is listed.
	r := standintest.New(t, Register).WithDefaults().Object("iso_codes", "language_codes", nil)
	require.Equal(t, float64(len(standintest.World(t).Languages())), r["count"])
	r = standintest.New(t, Register).WithDefaults().Object("iso_codes", "language_codes", map[string]any{"search": "portuguese"})
	require.Equal(t, float64(1), r["count"])
	r = standintest.New(t, Register).WithDefaults().Object("iso_codes", "language_codes", map[string]any{"search": "JA"})
	require.Equal(t, "Japanese", r["data"].([]any)[0].(map[string]any)["name"])

	r = standintest.New(t, Register).WithDefaults().Object("iso_codes", "country_codes", map[string]any{"search": "united"})
	require.GreaterOrEqual(t, r["count"], float64(3)) // Arab Emirates, Kingdom, States
	r = standintest.New(t, Register).WithDefaults().Object("iso_codes", "country_codes", map[string]any{"search": "PRT"})
	require.Equal(t, "PT", r["data"].([]any)[0].(map[string]any)["alpha2"])
	r = standintest.New(t, Register).WithDefaults().Object("iso_codes", "country_codes", map[string]any{"search": "holland"})
	require.Equal(t, "NL", r["data"].([]any)[0].(map[string]any)["alpha2"])

	for _, code := range []string{"PT", "prt", "620"} {
		r = standintest.New(t, Register).WithDefaults().Object("iso_codes", "country_by_code", map[string]any{"code": code})
		require.Equal(t, "Portugal", r["data"].(map[string]any)["name"], code)
	}
	standintest.New(t, Register).WithDefaults().Fails(404, "iso_codes", "country_by_code", map[string]any{"code": "XK"})
	standintest.New(t, Register).WithDefaults().Fails(400, "iso_codes", "country_by_code", map[string]any{"code": "Portugal"})
	standintest.New(t, Register).WithDefaults().Fails(400, "iso_codes", "country_by_code", map[string]any{"code": ""})

	standintest.GoldenCalls(t, "iso_codes.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "languages_default", Tool: "iso_codes", API: "language_codes", Args: nil},
		{Name: "countries_default", Tool: "iso_codes", API: "country_codes", Args: nil},
		{Name: "countries_search", Tool: "iso_codes", API: "country_codes", Args: map[string]any{"search": "ice"}},
		{Name: "by_code_default", Tool: "iso_codes", API: "country_by_code", Args: nil},
		{Name: "by_code_alpha3", Tool: "iso_codes", API: "country_by_code", Args: map[string]any{"code": "JPN"}},
		{Name: "by_code_unknown", Tool: "iso_codes", API: "country_by_code", Args: map[string]any{"code": "ZZ"}},
	})
}

func BenchmarkBasicForwardGeocode(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "geocoding", "forward_geocode", nil)
}

func BenchmarkBasicCountryByCode(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "iso_codes", "country_by_code", nil)
}

func FuzzBasicGeocode(f *testing.F) {
	w, err := world.DefaultWorld()
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
