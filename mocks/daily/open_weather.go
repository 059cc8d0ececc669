package daily

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The open_weather stand-in (OpenWeatherMap's current weather and 5 day /
// 3 hour forecast as the RapidAPI "Open Weather" tool serves them), drawn
// from the same weather model as weatherapi_com.

func owError(status int, msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"cod": fmt.Sprint(status), "message": msg}}
}

// owUnits converts the model's metric values to the requested unit system.
type owUnits string

func owUnitsArg(c *standin.Call) (owUnits, error) {
	u := owUnits(strings.ToLower(c.ArgString("units")))
	switch u {
	case "":
		return "standard", nil
	case "standard", "metric", "imperial":
		return u, nil
	}
	return "", owError(400, fmt.Sprintf("%s is not a valid units value: use standard, metric or imperial", c.ArgString("units")))
}

func (u owUnits) temp(c float64) float64 {
	switch u {
	case "metric":
		return round2(c)
	case "imperial":
		return round2(c*9/5 + 32)
	}
	return round2(c + 273.15)
}

func (u owUnits) speed(kph float64) float64 {
	if u == "imperial" {
		return round2(kph / 1.609344)
	}
	return round2(kph / 3.6)
}

type owWeather struct {
	ID          int    `json:"id"`
	Main        string `json:"main"`
	Description string `json:"description"`
	Icon        string `json:"icon"`
}

// owConditions maps kinds to OpenWeatherMap's condition id, group, description and icon.
var owConditions = map[weatherKind]struct {
	id               int
	main, desc, icon string
}{
	wkClear:        {800, "Clear", "clear sky", "01"},
	wkPartlyCloudy: {802, "Clouds", "scattered clouds", "03"},
	wkCloudy:       {803, "Clouds", "broken clouds", "04"},
	wkOvercast:     {804, "Clouds", "overcast clouds", "04"},
	wkMist:         {701, "Mist", "mist", "50"},
	wkPatchyRain:   {500, "Rain", "light rain", "10"},
	wkLightRain:    {500, "Rain", "light rain", "10"},
	wkModerateRain: {501, "Rain", "moderate rain", "10"},
	wkHeavyRain:    {502, "Rain", "heavy intensity rain", "10"},
	wkThunder:      {200, "Thunderstorm", "thunderstorm with light rain", "11"},
	wkLightSnow:    {600, "Snow", "light snow", "13"},
	wkModerateSnow: {601, "Snow", "snow", "13"},
}

func owWeatherOf(k weatherKind, isDay bool, lang string) []owWeather {
	c := owConditions[k]
	desc := c.desc
	if tr, ok := weatherTexts[lang]; ok {
		desc = strings.ToLower(tr[k][boolInt(!isDay)])
	}
	suffix := "n"
	if isDay {
		suffix = "d"
	}
	return []owWeather{{ID: c.id, Main: c.main, Description: desc, Icon: c.icon + suffix}}
}

type owMain struct {
	Temp      float64  `json:"temp"`
	FeelsLike float64  `json:"feels_like"`
	TempMin   float64  `json:"temp_min"`
	TempMax   float64  `json:"temp_max"`
	Pressure  int      `json:"pressure"`
	Humidity  int      `json:"humidity"`
	SeaLevel  int      `json:"sea_level"`
	GrndLevel int      `json:"grnd_level"`
	TempKf    *float64 `json:"temp_kf,omitempty"`
}

type owWind struct {
	Speed float64 `json:"speed"`
	Deg   int     `json:"deg"`
	Gust  float64 `json:"gust"`
}

// grndLevel is the surface pressure at an elevation (barometric formula).
func grndLevel(seaLevel float64, elevationM int) int {
	return int(math.Round(seaLevel * math.Pow(1-2.25577e-5*float64(elevationM), 5.25588)))
}

// owTimezone is the zone's UTC offset in seconds at an instant.
func owTimezone(p *weatherPlace, at time.Time) int {
	_, off := at.In(p.Loc).Zone()
	return off
}

// owCityID is a stable OpenWeatherMap-style city id.
func owCityID(p *weatherPlace) int {
	return 2000000 + (waLocationID(p.City)*7919)%6000000
}

func owSun(p *weatherPlace, at time.Time) (int64, int64) {
	l := at.In(p.Loc)
	rise, set := sunriseSunset(p.Lat, p.Lon, time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, p.Loc))
	var r, s int64
	if rise.ok {
		r = rise.at.Unix()
	}
	if set.ok {
		s = set.at.Unix()
	}
	return r, s
}

func handleOWCity(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	name := c.ArgString("city")
	if name == "" {
		return nil, owError(400, "Nothing to geocode")
	}
	city, ok := w.FindCity(name)
	if !ok {
		return nil, owError(404, "city not found")
	}
	units, err := owUnitsArg(c)
	if err != nil {
		return nil, err
	}
	lang := strings.ToLower(c.ArgString("lang"))
	p := placeForCity(w, city)
	h := p.current(c.Now)
	// OpenWeatherMap's temp_min/temp_max are the spread across stations
	// in the city right now, not the day's range.
	spread := 0.3 + p.unitNoise(localToday(p, c.Now), fmt.Sprintf("spread%d", c.Now.In(p.Loc).Hour()))*1.2
	sunrise, sunset := owSun(p, c.Now)
	resp := map[string]any{
		"coord":   map[string]any{"lon": round2(p.Lon), "lat": round2(p.Lat)},
		"weather": owWeatherOf(h.kind, h.isDay, lang),
		"base":    "stations",
		"main": owMain{
			Temp: units.temp(h.tempC), FeelsLike: units.temp(h.feelsC),
			TempMin: units.temp(h.tempC - spread), TempMax: units.temp(h.tempC + spread*0.8),
			Pressure: int(h.pressureMb), Humidity: h.humidity, SeaLevel: int(h.pressureMb), GrndLevel: grndLevel(h.pressureMb, city.Elevation),
		},
		"visibility": int(math.Min(h.visKm*1000, 10000)),
		"wind":       owWind{Speed: units.speed(h.windKph), Deg: h.windDeg, Gust: units.speed(h.gustKph)},
		"clouds":     map[string]any{"all": h.cloud},
		"dt":         c.Now.Truncate(10 * time.Minute).Unix(),
		"sys":        map[string]any{"type": 2, "id": 2000000 + waLocationID(city)%90000, "country": city.Country, "sunrise": sunrise, "sunset": sunset},
		"timezone":   owTimezone(p, c.Now),
		"id":         owCityID(p),
		"name":       city.Name,
		"cod":        200,
	}
	if h.precipMM > 0 {
		key := "rain"
		if h.snowCM > 0 {
			key = "snow"
		}
		resp[key] = map[string]any{"1h": h.precipMM}
	}
	return resp, nil
}

// owLatLon reads a coordinate argument with OpenWeatherMap's errors.
func owLatLon(c *standin.Call, name string, limit float64) (float64, error) {
	if c.ArgString(name) == "" {
		return 0, owError(400, "Nothing to geocode")
	}
	v, ok := c.ArgFloat(name)
	if !ok || v < -limit || v > limit {
		word := "latitude"
		if name == "lon" {
			word = "longitude"
		}
		return 0, owError(400, "wrong "+word)
	}
	return v, nil
}

func handleOWFiveDay(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	lat, err := owLatLon(c, "lat", 90)
	if err != nil {
		return nil, err
	}
	lon, err := owLatLon(c, "lon", 180)
	if err != nil {
		return nil, err
	}
	units, err := owUnitsArg(c)
	if err != nil {
		return nil, err
	}
	lang := strings.ToLower(c.ArgString("lang"))
	p := placeNear(w, lat, lon)
	if p == nil {
		return nil, owError(404, "city not found")
	}
	// Forty 3-hour steps, starting at the next UTC slot (00, 03, 06, ...).
	start := c.Now.UTC().Truncate(3 * time.Hour).Add(3 * time.Hour)
	hoursByDate := map[time.Time][]hourWeather{}
	var list []map[string]any
	for i := range 40 {
		at := start.Add(time.Duration(i*3) * time.Hour)
		local := at.In(p.Loc)
		date := civilDate(local.Year(), local.Month(), local.Day())
		hs, ok := hoursByDate[date]
		if !ok {
			hs = p.hours(date)
			hoursByDate[date] = hs
		}
		h := hs[local.Hour()]
		kf := 0.0
		elevation := 0
		if p.City != nil && p.Name == p.City.Name {
			elevation = p.City.Elevation
		}
		entry := map[string]any{
			"dt": at.Unix(),
			"main": owMain{
				Temp: units.temp(h.tempC), FeelsLike: units.temp(h.feelsC), TempMin: units.temp(h.tempC), TempMax: units.temp(h.tempC),
				Pressure: int(h.pressureMb), Humidity: h.humidity, SeaLevel: int(h.pressureMb), GrndLevel: grndLevel(h.pressureMb, elevation), TempKf: &kf,
			},
			"weather":    owWeatherOf(h.kind, h.isDay, lang),
			"clouds":     map[string]any{"all": h.cloud},
			"wind":       owWind{Speed: units.speed(h.windKph), Deg: h.windDeg, Gust: units.speed(h.gustKph)},
			"visibility": int(math.Min(h.visKm*1000, 10000)),
			"pop":        round2(float64(max(h.chanceRain, h.chanceSnow)) / 100),
			"sys":        map[string]any{"pod": map[bool]string{true: "d", false: "n"}[h.isDay]},
			"dt_txt":     at.Format("2006-01-02 15:04:05"),
		}
		if h.precipMM > 0 {
			key := "rain"
			if h.snowCM > 0 {
				key = "snow"
			}
			// The model's hourly amount, accumulated over the three hours.
			entry[key] = map[string]any{"3h": round2(h.precipMM * 3)}
		}
		list = append(list, entry)
	}
	sunrise, sunset := owSun(p, c.Now)
	city := map[string]any{
		"id": owCityID(p), "name": p.Name, "coord": map[string]any{"lat": round2(lat), "lon": round2(lon)},
		"country": p.CountryCode, "population": 0, "timezone": owTimezone(p, c.Now), "sunrise": sunrise, "sunset": sunset,
	}
	if p.City != nil && p.Name == p.City.Name {
		city["population"] = p.City.Population
	}
	return map[string]any{"cod": "200", "message": 0, "cnt": len(list), "list": list, "city": city}, nil
}
