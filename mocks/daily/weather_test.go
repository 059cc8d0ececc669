package daily

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/sandbox"
)

func TestAstronomyKnownValues(t *testing.T) {
	lon := time.FixedZone("BST", 3600)
	rise, set := sunriseSunset(51.5074, -0.1278, time.Date(2025, 6, 2, 0, 0, 0, 0, lon))
	require.True(t, rise.ok && set.ok)
	// Published London times for 2 June 2025: sunrise 04:46, sunset 21:10 BST.
	require.InDelta(t, 4*60+46, minutesOfDay(rise.at.In(lon)), 3)
	require.InDelta(t, 21*60+10, minutesOfDay(set.at.In(lon)), 3)
	// Polar day in Tromsø in June, polar night in December.
	r, s := sunriseSunset(69.65, 18.96, time.Date(2025, 6, 21, 0, 0, 0, 0, time.UTC))
	require.False(t, r.ok || s.ok)
	r, _ = sunriseSunset(69.65, 18.96, time.Date(2025, 12, 21, 0, 0, 0, 0, time.UTC))
	require.False(t, r.ok)
	// Moon phases of 2025: full moon 12 May, new moon 27 May, first quarter 3 June.
	name, illum := moonPhase(time.Date(2025, 5, 12, 16, 0, 0, 0, time.UTC))
	require.Equal(t, "Full Moon", name)
	require.GreaterOrEqual(t, illum, 98)
	name, illum = moonPhase(time.Date(2025, 5, 27, 4, 0, 0, 0, time.UTC))
	require.Equal(t, "New Moon", name)
	require.LessOrEqual(t, illum, 2)
	name, _ = moonPhase(time.Date(2025, 6, 3, 4, 0, 0, 0, time.UTC))
	require.Equal(t, "First Quarter", name)
	// New moon of 27 May 2025 at 03:02 UTC.
	nm := timeOfJD(newMoonOnOrBefore(julianDay(time.Date(2025, 5, 28, 0, 0, 0, 0, time.UTC))))
	require.InDelta(t, 0, nm.Sub(time.Date(2025, 5, 27, 3, 2, 0, 0, time.UTC)).Minutes(), 5)
}

func minutesOfDay(t time.Time) float64 { return float64(t.Hour()*60 + t.Minute()) }

func waForecast(t *testing.T, args map[string]any) (waLocation, waCurrent, []waForecastDay) {
	t.Helper()
	v, err := standintest.New(t, Register).Call("weatherapi_com", "forecast_weather_api", args)
	require.NoError(t, err)
	m := v.(map[string]any)
	return m["location"].(waLocation), m["current"].(waCurrent), m["forecast"].(map[string]any)["forecastday"].([]waForecastDay)
}

func TestWeatherAPIRealtime(t *testing.T) {
	v, err := standintest.New(t, Register).Call("weatherapi_com", "realtime_weather_api", map[string]any{"q": "London"})
	require.NoError(t, err)
	doc, _ := standintest.PlainJSON(t, v)
	loc := doc.(map[string]any)["location"].(map[string]any)
	require.Equal(t, "London", loc["name"])
	require.Equal(t, "United Kingdom", loc["country"])
	require.Equal(t, "Europe/London", loc["tz_id"])
	require.Equal(t, "2025-06-02 10:00", loc["localtime"]) // 09:00 UTC is 10:00 BST
	cur := doc.(map[string]any)["current"].(map[string]any)
	for _, k := range []string{"temp_c", "temp_f", "is_day", "condition", "wind_mph", "wind_kph", "wind_degree", "wind_dir", "pressure_mb", "precip_mm", "humidity", "cloud", "feelslike_c", "uv", "gust_kph"} {
		require.Contains(t, cur, k)
	}
	tc := cur["temp_c"].(float64)
	require.InDelta(t, tc*9/5+32, cur["temp_f"].(float64), 0.11)
	require.True(t, tc > 5 && tc < 30, "London in June: %v", tc)
	require.Equal(t, float64(1), cur["is_day"])
	cond := cur["condition"].(map[string]any)
	require.Contains(t, cond["icon"], "//cdn.weatherapi.com/weather/64x64/day/")

	// The same city by IATA code, by alias and by coordinates.
	for _, q := range []string{"iata:LHR", "LHR", "london, uk", "51.5074,-0.1278"} {
		v2, err := standintest.New(t, Register).Call("weatherapi_com", "realtime_weather_api", map[string]any{"q": q})
		require.NoError(t, err, q)
		require.Equal(t, v, v2, q)
	}
}

func TestWeatherAPIErrors(t *testing.T) {
	for _, api := range []string{"realtime_weather_api", "forecast_weather_api", "astronomy_api", "time_zone_api"} {
		_, err := standintest.New(t, Register).Call("weatherapi_com", api, map[string]any{"q": "Atlantis"})
		body := standintest.Rejected(t, err, 400)
		require.Equal(t, map[string]any{"code": float64(1006), "message": "No matching location found."}, body["error"], api)
		_, err = standintest.New(t, Register).Call("weatherapi_com", api, map[string]any{"q": ""})
		body = standintest.Rejected(t, err, 400)
		require.Equal(t, float64(1003), body["error"].(map[string]any)["code"], api)
	}
	_, err := standintest.New(t, Register).Call("weatherapi_com", "realtime_weather_api", map[string]any{"q": "95,10"})
	standintest.Rejected(t, err, 400)
	_, err = standintest.New(t, Register).Call("weatherapi_com", "realtime_weather_api", map[string]any{"q": "iata:XXX"})
	standintest.Rejected(t, err, 400)
	_, err = standintest.New(t, Register).Call("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "dt": "2025-07-30"})
	standintest.Rejected(t, err, 400)
	_, err = standintest.New(t, Register).Call("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "dt": "next friday"})
	standintest.Rejected(t, err, 400)
	_, err = standintest.New(t, Register).Call("weatherapi_com", "astronomy_api", map[string]any{"q": "Paris", "dt": "1066-10-14"})
	standintest.Rejected(t, err, 400)
	_, err = standintest.New(t, Register).Call("weatherapi_com", "search_autocomplete_api", map[string]any{})
	standintest.Rejected(t, err, 400)
}

func TestWeatherAPIForecast(t *testing.T) {
	loc, cur, days := waForecast(t, map[string]any{"q": "Lisbon", "days": float64(3)})
	require.Equal(t, "Lisbon", loc.Name)
	require.Len(t, days, 3)
	require.Equal(t, []string{"2025-06-02", "2025-06-03", "2025-06-04"}, []string{days[0].Date, days[1].Date, days[2].Date})
	for _, d := range days {
		require.Len(t, d.Hour, 24)
		require.Greater(t, d.Day.MaxtempC, d.Day.MintempC)
		// Lisbon in early June: highs in the low-to-mid twenties.
		require.True(t, d.Day.MaxtempC > 15 && d.Day.MaxtempC < 35, "max %v", d.Day.MaxtempC)
		hi, lo := math.Inf(-1), math.Inf(1)
		for _, h := range d.Hour {
			hi, lo = math.Max(hi, h.TempC), math.Min(lo, h.TempC)
		}
		require.InDelta(t, d.Day.MaxtempC, hi, 1.0)
		require.GreaterOrEqual(t, d.Day.MintempC, lo-4)
		require.Regexp(t, `^0[5-6]:\d\d AM$`, d.Astro.Sunrise)
		require.Regexp(t, `^0[8-9]:\d\d PM$`, d.Astro.Sunset)
	}
	// The current block agrees with the hour it falls in.
	require.InDelta(t, days[0].Hour[10].TempC, cur.TempC, 1.5)
	// days is clamped to the real API's 14-day limit.
	_, _, days = waForecast(t, map[string]any{"q": "Lisbon", "days": float64(30)})
	require.Len(t, days, 14)
	require.Equal(t, "2025-06-15", days[13].Date)
	// dt picks one day inside the window.
	_, _, days = waForecast(t, map[string]any{"q": "Lisbon", "days": float64(3), "dt": "2025-06-10"})
	require.Len(t, days, 1)
	require.Equal(t, "2025-06-10", days[0].Date)
	// lang translates condition texts.
	_, _, fr := waForecast(t, map[string]any{"q": "Lisbon", "days": float64(1), "lang": "fr"})
	_, _, en := waForecast(t, map[string]any{"q": "Lisbon", "days": float64(1)})
	require.Equal(t, en[0].Day.Condition.Code, fr[0].Day.Condition.Code)
	require.NotEqual(t, en[0].Day.Condition.Text, fr[0].Day.Condition.Text)
}

func TestWeatherClimatePlausible(t *testing.T) {
	// January versus July, north and south, over a season of days.
	avgMax := func(q string, month time.Month) float64 {
		w := standintest.World(t)
		c, ok := w.FindCity(q)
		require.True(t, ok)
		p := placeForCity(w, c)
		s := 0.0
		for d := 1; d <= 28; d++ {
			s += p.day(civilDate(2025, month, d)).maxC
		}
		return s / 28
	}
	require.InDelta(t, 7, avgMax("Moscow", time.January)+10, 4) // about -6 °C
	require.InDelta(t, 24, avgMax("Moscow", time.July), 3)      // about 24 °C
	require.InDelta(t, 26, avgMax("Sydney", time.January), 3)   // southern summer
	require.InDelta(t, 17, avgMax("Sydney", time.July), 3)      // southern winter
	require.InDelta(t, 41, avgMax("Dubai", time.July), 3)
	// Wet days roughly follow the normals: Mumbai's monsoon versus its dry season.
	wet := func(q string, month time.Month) int {
		w := standintest.World(t)
		c, _ := w.FindCity(q)
		p := placeForCity(w, c)
		n := 0
		for d := 1; d <= 30; d++ {
			if p.day(civilDate(2025, month, d)).precipMM > 0 {
				n++
			}
		}
		return n
	}
	require.Greater(t, wet("Mumbai", time.July), 14)
	require.Less(t, wet("Mumbai", time.February), 3)
}

func TestWeatherToolsAgree(t *testing.T) {
	v, err := standintest.New(t, Register).Call("weatherapi_com", "realtime_weather_api", map[string]any{"q": "Tokyo"})
	require.NoError(t, err)
	wa := v.(map[string]any)["current"].(waCurrent)
	v, err = standintest.New(t, Register).Call("open_weather", "city_weather", map[string]any{"city": "Tokyo", "units": "metric"})
	require.NoError(t, err)
	ow := v.(map[string]any)
	main := ow["main"].(owMain)
	require.Equal(t, wa.TempC, main.Temp)
	require.Equal(t, wa.Humidity, main.Humidity)
	require.Equal(t, wa.Cloud, ow["clouds"].(map[string]any)["all"])
	require.InDelta(t, wa.WindKph/3.6, ow["wind"].(owWind).Speed, 0.01)
	require.Equal(t, "JP", ow["sys"].(map[string]any)["country"])
	require.Equal(t, 9*3600, ow["timezone"])

	// Units: Kelvin, Fahrenheit.
	v, err = standintest.New(t, Register).Call("open_weather", "city_weather", map[string]any{"city": "Tokyo", "units": "standard"})
	require.NoError(t, err)
	require.InDelta(t, wa.TempC+273.15, v.(map[string]any)["main"].(owMain).Temp, 0.01)
	v, err = standintest.New(t, Register).Call("open_weather", "city_weather", map[string]any{"city": "Tokyo", "units": "imperial"})
	require.NoError(t, err)
	require.InDelta(t, wa.TempF, v.(map[string]any)["main"].(owMain).Temp, 0.06)

	// The 5-day forecast's slot at a local hour equals WeatherAPI's hour.
	_, _, days := waForecast(t, map[string]any{"q": "Tokyo", "days": float64(3)})
	v, err = standintest.New(t, Register).Call("open_weather", "five_day_forecast", map[string]any{"lat": "35.6762", "lon": "139.6503", "units": "metric"})
	require.NoError(t, err)
	five := v.(map[string]any)
	require.Equal(t, 40, five["cnt"])
	require.Equal(t, "Tokyo", five["city"].(map[string]any)["name"])
	found := 0
	for _, e := range five["list"].([]map[string]any) {
		at := time.Unix(e["dt"].(int64), 0).In(time.FixedZone("JST", 9*3600))
		for _, d := range days {
			if d.Date == at.Format(time.DateOnly) {
				require.Equal(t, d.Hour[at.Hour()].TempC, e["main"].(owMain).Temp)
				found++
			}
		}
	}
	require.Greater(t, found, 10)
}

func TestOpenWeatherErrors(t *testing.T) {
	_, err := standintest.New(t, Register).Call("open_weather", "city_weather", map[string]any{"city": "Atlantis"})
	require.Equal(t, map[string]any{"cod": "404", "message": "city not found"}, standintest.Rejected(t, err, 404))
	_, err = standintest.New(t, Register).Call("open_weather", "city_weather", map[string]any{"city": "Paris", "units": "kelvin"})
	standintest.Rejected(t, err, 400)
	_, err = standintest.New(t, Register).Call("open_weather", "five_day_forecast", map[string]any{"lat": "91", "lon": "0"})
	require.Equal(t, "wrong latitude", standintest.Rejected(t, err, 400)["message"])
	_, err = standintest.New(t, Register).Call("open_weather", "five_day_forecast", map[string]any{"lat": "10", "lon": "east"})
	require.Equal(t, "wrong longitude", standintest.Rejected(t, err, 400)["message"])
	_, err = standintest.New(t, Register).Call("open_weather", "five_day_forecast", map[string]any{"lon": "10"})
	require.Equal(t, "Nothing to geocode", standintest.Rejected(t, err, 400)["message"])
}

func TestWeatherAPIAstronomyAndSearch(t *testing.T) {
	v, err := standintest.New(t, Register).Call("weatherapi_com", "astronomy_api", map[string]any{"q": "Sydney", "dt": "2025-06-21"})
	require.NoError(t, err)
	astro := v.(map[string]any)["astronomy"].(map[string]any)["astro"].(waAstro)
	// Winter solstice in Sydney: sunrise about 07:00, sunset about 16:54.
	require.Regexp(t, `^0[67]:\d\d AM$`, astro.Sunrise)
	require.Regexp(t, `^04:5\d PM$`, astro.Sunset)

	v, err = standintest.New(t, Register).Call("weatherapi_com", "search_autocomplete_api", map[string]any{"q": "lond"})
	require.NoError(t, err)
	res := v.([]waSearchResult)
	require.NotEmpty(t, res)
	require.Equal(t, "London", res[0].Name)
	require.Equal(t, "london-england-united-kingdom", res[0].URL)
	v, err = standintest.New(t, Register).Call("weatherapi_com", "search_autocomplete_api", map[string]any{"q": "zzzzqq"})
	require.NoError(t, err)
	require.Empty(t, v.([]waSearchResult))

	v, err = standintest.New(t, Register).Call("weatherapi_com", "time_zone_api", map[string]any{"q": "Tokyo"})
	require.NoError(t, err)
	loc := v.(map[string]any)["location"].(waLocation)
	require.Equal(t, "Asia/Tokyo", loc.TzID)
	require.Equal(t, "2025-06-02 18:00", loc.Localtime)
}

func TestWeatherDeterministic(t *testing.T) {
	args := map[string]any{"q": "Paris", "days": float64(2)}
	a, err := standintest.New(t, Register).Call("weatherapi_com", "forecast_weather_api", args)
	require.NoError(t, err)
	b, err := standintest.New(t, Register).Call("weatherapi_com", "forecast_weather_api", args)
	require.NoError(t, err)
	_, ab := standintest.PlainJSON(t, a)
	_, bb := standintest.PlainJSON(t, b)
	require.Equal(t, ab, bb)
	c, err := standintest.New(t, Register).Call("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Rome", "days": float64(2)})
	require.NoError(t, err)
	_, cb := standintest.PlainJSON(t, c)
	require.NotEqual(t, ab, cb)
	// A later clock moves local time and the current block.
	d, err := standintest.New(t, Register).At(clock.Default.Add(5*time.Hour)).Call("weatherapi_com", "forecast_weather_api", args)
	require.NoError(t, err)
	_, db := standintest.PlainJSON(t, d)
	require.NotEqual(t, ab, db)
}

func TestWeatherGolden(t *testing.T) {
	standintest.GoldenCalls(t, "weather.golden.json", standintest.New(t, Register), []standintest.Case{
		{Name: "realtime_weather_api", Tool: "weatherapi_com", API: "realtime_weather_api", Args: map[string]any{"q": "London"}},
		{Name: "forecast_weather_api", Tool: "weatherapi_com", API: "forecast_weather_api", Args: map[string]any{"q": "London", "days": float64(3)}},
		{Name: "forecast_weather_api_dt_lang", Tool: "weatherapi_com", API: "forecast_weather_api", Args: map[string]any{"q": "Madrid", "days": float64(3), "dt": "2025-06-05", "lang": "es"}},
		{Name: "astronomy_api", Tool: "weatherapi_com", API: "astronomy_api", Args: map[string]any{"q": "London", "dt": "2025-06-02"}},
		{Name: "search_autocomplete_api", Tool: "weatherapi_com", API: "search_autocomplete_api", Args: map[string]any{"q": "lond"}},
		{Name: "time_zone_api", Tool: "weatherapi_com", API: "time_zone_api", Args: map[string]any{"q": "Tokyo"}},
		{Name: "realtime_unknown", Tool: "weatherapi_com", API: "realtime_weather_api", Args: map[string]any{"q": "Atlantis"}},
		{Name: "city_weather", Tool: "open_weather", API: "city_weather", Args: map[string]any{"city": "New York", "lang": "EN", "units": "metric"}},
		{Name: "five_day_forecast", Tool: "open_weather", API: "five_day_forecast", Args: map[string]any{"lat": "40.7128", "lon": "-74.006", "units": "metric"}},
		{Name: "city_weather_unknown", Tool: "open_weather", API: "city_weather", Args: map[string]any{"city": "Atlantis"}},
	})
}

func FuzzParseLatLon(f *testing.F) {
	for _, s := range []string{"51.5,-0.12", "91,0", "x,y", "", ",", "1e400,2", "NaN,1", "-33.87, 151.21"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lat, lon, ok := parseLatLonPair(s)
		if ok {
			require.False(t, math.IsNaN(lat) || math.IsNaN(lon) || math.IsInf(lat, 0) || math.IsInf(lon, 0))
		}
	})
}

// FuzzWeatherQuery drives q through the resolver and the handler: any input
// gives a response or WeatherAPI's error, never a panic.
func FuzzWeatherQuery(f *testing.F) {
	for _, s := range []string{"London", "iata:LHR", "LHR", "48.85,2.35", "-89.9,179.9", "iata:", ":", "São Paulo", "Paris, Texas", "0,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		v, err := standintest.New(t, Register).Call("weatherapi_com", "realtime_weather_api", map[string]any{"q": q})
		if err != nil {
			_, ok := err.(*sandbox.Rejection)
			require.True(t, ok, "%T %v", err, err)
			return
		}
		_, b := standintest.PlainJSON(t, v)
		require.True(t, json.Valid(b))
	})
}

func BenchmarkWeatherRealtime(b *testing.B) {
	args := map[string]any{"q": "London"}
	for b.Loop() {
		if _, err := standintest.New(b, Register).Call("weatherapi_com", "realtime_weather_api", args); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWeatherForecast3Days(b *testing.B) {
	args := map[string]any{"q": "London", "days": float64(3)}
	for b.Loop() {
		if _, err := standintest.New(b, Register).Call("weatherapi_com", "forecast_weather_api", args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWeatherForecast3DaysEncoded is a first call of a forecast
// (the Mocker keeps its answer for the repeats): the stand-in and the
// canonical encoding of its answer.
func BenchmarkWeatherForecast3DaysEncoded(b *testing.B) {
	args := map[string]any{"q": "London", "days": float64(3)}
	b.ReportAllocs()
	for b.Loop() {
		v, err := standintest.New(b, Register).Call("weatherapi_com", "forecast_weather_api", args)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := standin.Encode(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpenWeatherCity(b *testing.B) {
	args := map[string]any{"city": "New York", "units": "metric"}
	for b.Loop() {
		if _, err := standintest.New(b, Register).Call("open_weather", "city_weather", args); err != nil {
			b.Fatal(err)
		}
	}
}
