package world

import (
	"errors"
	"io/fs"
	"math"
	"regexp"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/fixtures"
)

// TestWorldData checks the facts the stand-ins rely on, record by record.
func TestWorldData(t *testing.T) {
	w := testWorld(t)
	require.GreaterOrEqual(t, len(w.Cities()), 60)
	require.GreaterOrEqual(t, len(w.Currencies()), 40)
	require.GreaterOrEqual(t, len(w.Languages()), 60)
	require.Equal(t, "2025-05-30", w.RatesAsOf())

	iata := regexp.MustCompile(`^[A-Z]{3}$`)
	keyOwner := map[string]string{}
	ids := map[string]bool{}
	for _, c := range w.Cities() {
		require.False(t, ids[c.ID], "duplicate city id %s", c.ID)
		ids[c.ID] = true
		require.Regexp(t, `^[a-z][a-z_]*$`, c.ID)
		require.True(t, c.Lat >= -90 && c.Lat <= 90 && c.Lon >= -180 && c.Lon <= 180, "%s coordinates", c.ID)
		require.NotZero(t, c.Lat, c.ID)
		_, err := time.LoadLocation(c.TimeZone)
		require.NoError(t, err, c.ID)
		require.NotNil(t, c.Location(), c.ID)
		k, ok := w.Country(c.Country)
		require.True(t, ok, "%s: country %s", c.ID, c.Country)
		require.Contains(t, k.TimeZones, c.TimeZone, "%s: the country's time zones include the city's", c.ID)
		require.Positive(t, c.Population, c.ID)
		require.NotEmpty(t, c.Region, c.ID)
		require.Regexp(t, `^[\x20-\x7e]+$`, c.ASCIIName, c.ID)
		for _, a := range c.Airports {
			require.Regexp(t, iata, a, c.ID)
		}
		for _, key := range c.keys() {
			if prev, taken := keyOwner[key]; taken && prev != c.ID {
				t.Errorf("name %q belongs to both %s and %s", key, prev, c.ID)
			}
			keyOwner[key] = c.ID
		}
	}
	for _, k := range w.Countries() {
		_, ok := w.Currency(k.Currency)
		require.True(t, ok, "%s: currency %s", k.Alpha2, k.Currency)
		require.Regexp(t, `^\d{3}$`, k.Numeric, k.Alpha2)
		require.Regexp(t, `^\+\d{1,4}$`, k.CallingCode, k.Alpha2)
		require.Regexp(t, `^\.[a-z]{2}$`, k.TLD, k.Alpha2)
		for _, l := range k.Languages {
			_, ok := w.Language(l)
			require.True(t, ok, "%s: language %s", k.Alpha2, l)
		}
		for _, tz := range k.TimeZones {
			_, err := time.LoadLocation(tz)
			require.NoError(t, err, k.Alpha2)
		}
	}
	for _, c := range w.Currencies() {
		require.Positive(t, c.PerUSD, c.Code)
		require.Contains(t, []int{0, 2, 3}, c.Decimals, c.Code)
		require.NotEmpty(t, c.Symbol, c.Code)
	}
}

// TestWorldFacts pins facts that must be true in the real world.
func TestWorldFacts(t *testing.T) {
	w := testWorld(t)
	for _, tc := range []struct {
		id, country, tz string
		airport         string
		lat, lon        float64
	}{
		{"lisbon", "PT", "Europe/Lisbon", "LIS", 38.72, -9.14},
		{"london", "GB", "Europe/London", "LHR", 51.51, -0.13},
		{"new_york", "US", "America/New_York", "JFK", 40.71, -74.01},
		{"tokyo", "JP", "Asia/Tokyo", "HND", 35.68, 139.65},
		{"sydney", "AU", "Australia/Sydney", "SYD", -33.87, 151.21},
		{"denpasar", "ID", "Asia/Makassar", "DPS", -8.65, 115.22},
		{"buenos_aires", "AR", "America/Argentina/Buenos_Aires", "EZE", -34.60, -58.38},
	} {
		c, ok := w.CityByID(tc.id)
		require.True(t, ok, tc.id)
		require.Equal(t, tc.country, c.Country)
		require.Equal(t, tc.tz, c.TimeZone)
		require.Equal(t, tc.airport, c.Airports[0])
		require.InDelta(t, tc.lat, c.Lat, 0.01)
		require.InDelta(t, tc.lon, c.Lon, 0.01)
		a, ok := w.CityByAirport(tc.airport)
		require.True(t, ok)
		require.Equal(t, tc.id, a.ID)
	}
	pt, ok := w.Country("PT")
	require.True(t, ok)
	require.Equal(t, "PRT", pt.Alpha3)
	require.Equal(t, "Lisbon", pt.Capital)
	require.Equal(t, "EUR", pt.Currency)
	require.Equal(t, "+351", pt.CallingCode)
}

func TestFindCity(t *testing.T) {
	w := testWorld(t)
	for _, tc := range []struct {
		query string
		want  string // "" means not found
	}{
		{"Lisbon", "lisbon"},
		{"lisboa", "lisbon"},
		{"  LISBON ", "lisbon"},
		{"Lisbon, Portugal", "lisbon"},
		{"Lisbon, PT", "lisbon"},
		{"Lisbon Portugal", "lisbon"},
		{"NYC", "new_york"},
		{"the big apple", "new_york"},
		{"New York, NY", "new_york"},
		{"New York, New York, USA", "new_york"},
		{"Londres", "london"},
		{"London, England", "london"},
		{"London, UK", "london"},
		{"Frisco", "san_francisco"},
		{"City of Light", "paris"},
		{"São Paulo", "sao_paulo"},
		{"Sao Paulo", "sao_paulo"},
		{"SAO PAULO, Brazil", "sao_paulo"},
		{"Sa\u0303o Paulo", "sao_paulo"}, // decomposed accent
		{"München", "munich"},
		{"Muenchen", "munich"},
		{"Washington, D.C.", "washington"},
		{"Washington DC", "washington"},
		{"D.C.", "washington"},
		{"Reykjavik", "reykjavik"},
		{"Zürich", "zurich"},
		{"Kraków", "krakow"},
		{"Ho Chi Minh City", "ho_chi_minh_city"},
		{"Saigon", "ho_chi_minh_city"},
		{"Bali", "denpasar"},
		{"东京", ""},
		{"東京", "tokyo"},
		{"LHR", "london"},
		{"jfk", "new_york"},
		{"KIX", "osaka"},
		{"Paris, Texas", ""},
		{"Paris France", "paris"},
		{"Atlantis", ""},
		{"", ""},
		{",,,", ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			c, ok := w.FindCity(tc.query)
			if tc.want == "" {
				require.False(t, ok, "found %v", c)
				require.Nil(t, c)
				return
			}
			require.True(t, ok)
			require.Equal(t, tc.want, c.ID)
		})
	}
}

func TestSearchCities(t *testing.T) {
	w := testWorld(t)
	ids := func(cs []*City) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = c.ID
		}
		return out
	}
	require.Equal(t, []string{"lisbon"}, ids(w.SearchCities("lisbon", 5)))
	// Whole words: "san" is a word of San Francisco, only the start of Santiago.
	got := ids(w.SearchCities("san", 0))
	require.Contains(t, got, "san_francisco")
	require.NotContains(t, got, "santiago")
	// A word being typed completes when no whole word matches.
	require.Contains(t, ids(w.SearchCities("santia", 0)), "santiago")
	require.Equal(t, []string{"lisbon"}, ids(w.SearchCities("lisb", 0)))
	require.Equal(t, got, ids(w.SearchCities("SAN", 0)), "case-insensitive and deterministic")
	require.Len(t, w.SearchCities("san", 2), 2)
	// Exact alias outranks prefixes of names.
	require.Equal(t, "los_angeles", w.SearchCities("LA", 3)[0].ID)
	// A word inside a name.
	require.Contains(t, ids(w.SearchCities("aires", 0)), "buenos_aires")
	require.Empty(t, w.SearchCities("", 5))
	require.Empty(t, w.SearchCities("zzzzqqq", 5))
}

func TestNearestCity(t *testing.T) {
	w := testWorld(t)
	c, d := w.NearestCity(38.7369, -9.1427) // Lisbon, Saldanha
	require.Equal(t, "lisbon", c.ID)
	require.Less(t, d, 3.0)
	c, d = w.NearestCity(51.4700, -0.4543) // Heathrow
	require.Equal(t, "london", c.ID)
	require.InDelta(t, 23, d, 3)
	c, _ = w.NearestCity(-33.86, 151.21)
	require.Equal(t, "sydney", c.ID)
	c, _ = w.NearestCity(math.NaN(), 0)
	require.Nil(t, c)
	// Lisbon–Madrid is about 503 km.
	require.InDelta(t, 503, DistanceKm(38.7223, -9.1393, 40.4168, -3.7038), 5)
}

func TestCountryCurrencyLanguage(t *testing.T) {
	w := testWorld(t)
	for _, q := range []string{"PT", "pt", "PRT", "Portugal", "portuguese republic", "620"} {
		c, ok := w.Country(q)
		require.True(t, ok, q)
		require.Equal(t, "PT", c.Alpha2, q)
	}
	for q, want := range map[string]string{"UK": "GB", "Holland": "NL", "USA": "US", "España": "ES", "Espana": "ES", "Turkey": "TR"} {
		c, ok := w.Country(q)
		require.True(t, ok, q)
		require.Equal(t, want, c.Alpha2, q)
	}
	_, ok := w.Country("XX")
	require.False(t, ok)

	eur, ok := w.Currency("eur")
	require.True(t, ok)
	require.Equal(t, "€", eur.Symbol)
	v, err := w.Convert(100, "USD", "EUR")
	require.NoError(t, err)
	require.InDelta(t, 88.11, v, 1e-9)
	v, err = w.Convert(100, "EUR", "EUR")
	require.NoError(t, err)
	require.InDelta(t, 100, v, 1e-9)
	back, err := w.Convert(1, "GBP", "JPY")
	require.NoError(t, err)
	require.InDelta(t, 144.02/0.7430, back, 1e-9)
	_, err = w.Convert(1, "USD", "XYZ")
	var nf *NotFoundError
	require.ErrorAs(t, err, &nf)
	require.Equal(t, "currency", nf.Kind)
	require.Equal(t, "XYZ", nf.Key)

	for q, want := range map[string]string{"pt": "pt", "PT": "pt", "Portuguese": "pt", "português": "pt", "日本語": "ja"} {
		l, ok := w.Language(q)
		require.True(t, ok, q)
		require.Equal(t, want, l.Code, q)
	}
	_, ok = w.Language("xx")
	require.False(t, ok)
	require.Len(t, w.CitiesIn("Portugal"), 2)
	require.Equal(t, "lisbon", w.CitiesIn("PT")[0].ID)
}

func TestLoadWorldErrors(t *testing.T) {
	sub, err := fs.Sub(fixtures.FS, "world")
	require.NoError(t, err)
	read := func(name string) string {
		b, err := fs.ReadFile(sub, name)
		require.NoError(t, err)
		return string(b)
	}
	// A copy of every world file, parts included, so the copy loads whole.
	base := fstest.MapFS{}
	require.NoError(t, fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			base[p] = &fstest.MapFile{Data: []byte(read(p))}
		}
		return err
	}))
	with := func(name, data string) fstest.MapFS {
		m := fstest.MapFS{}
		for k, v := range base {
			m[k] = v
		}
		if data == "" {
			delete(m, name)
		} else {
			m[name] = &fstest.MapFile{Data: []byte(data)}
		}
		return m
	}
	city := `{"id":"x","name":"X","ascii_name":"X","aliases":[],"country":"PT","region":"R","lat":1,"lon":1,"timezone":"Europe/Lisbon","population":1,"elevation_m":1,"airports":[]}`
	for _, tc := range []struct {
		name string
		fsys fs.FS
		file string
		msg  string
	}{
		{"missing file", with(CitiesFile, ""), CitiesFile, "file does not exist"},
		{"bad json", with(CitiesFile, `{"cities": [`), CitiesFile, "unexpected EOF"},
		{"unknown field", with(LanguagesFile, `{"languages": [{"code":"en","name":"English","native_name":"English","x":1}]}`), LanguagesFile, "unknown field"},
		{"trailing data", with(LanguagesFile, `{"languages": []} {}`), LanguagesFile, "trailing data"},
		{"bad country", with(CitiesFile, `{"cities": [`+regexp.MustCompile(`"PT"`).ReplaceAllString(city, `"QQ"`)+`]}`), CitiesFile, `country "QQ"`},
		{"bad zone", with(CitiesFile, `{"cities": [`+regexp.MustCompile(`Europe/Lisbon`).ReplaceAllString(city, `Mars/Olympus`)+`]}`), CitiesFile, "Mars/Olympus"},
		{"bad coordinates", with(CitiesFile, `{"cities": [`+regexp.MustCompile(`"lat":1`).ReplaceAllString(city, `"lat":91`)+`]}`), CitiesFile, "out of range"},
		{"bad airport", with(CitiesFile, `{"cities": [`+regexp.MustCompile(`"airports":\[\]`).ReplaceAllString(city, `"airports":["lis"]`)+`]}`), CitiesFile, "IATA"},
		{"duplicate id", with(CitiesFile, `{"cities": [`+city+`,`+city+`]}`), CitiesFile, "duplicate id"},
		{"bad rate", with(CurrenciesFile, `{"base":"USD","as_of":"2025-05-30","currencies":[{"code":"USD","numeric":"840","name":"d","symbol":"$","decimals":2,"per_usd":0}]}`), CurrenciesFile, "positive rate"},
		{"bad base", with(CurrenciesFile, `{"base":"EUR","as_of":"2025-05-30","currencies":[]}`), CurrenciesFile, "base"},
		{"missing currency", with(CurrenciesFile, `{"base":"USD","as_of":"2025-05-30","currencies":[{"code":"USD","numeric":"840","name":"d","symbol":"$","decimals":2,"per_usd":1}]}`), CountriesFile, "currency"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadWorld(tc.fsys)
			var we *WorldError
			require.ErrorAs(t, err, &we)
			require.Equal(t, tc.file, we.File)
			require.ErrorContains(t, err, tc.msg)
		})
	}
	_, err = LoadWorld(base)
	require.NoError(t, err, "the copied world loads")
}

func TestWorldErrorUnwrap(t *testing.T) {
	_, err := LoadWorld(fstest.MapFS{})
	require.True(t, errors.Is(err, fs.ErrNotExist))
}

func BenchmarkFindCity(b *testing.B) {
	w := testWorld(b)
	for b.Loop() {
		w.FindCity("Lisbon, Portugal")
	}
}

func BenchmarkNearestCity(b *testing.B) {
	w := testWorld(b)
	for b.Loop() {
		w.NearestCity(38.7369, -9.1427)
	}
}

// testWorld is the embedded world, loaded once.
func testWorld(t testing.TB) *World {
	t.Helper()
	w, err := DefaultWorld()
	require.NoError(t, err)
	return w
}
