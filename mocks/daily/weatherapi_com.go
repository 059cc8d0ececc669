package daily

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The weatherapi_com stand-in (WeatherAPI.com on RapidAPI): current
// weather, forecast, astronomy, location search and time zone, over the
// shared weather model and the core world's cities.

// waError is WeatherAPI's error body.
func waError(status, code int, msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"error": map[string]any{"code": code, "message": msg}}}
}

var (
	errWAMissingQ  = waError(400, 1003, "Parameter q is missing.")
	errWANoMatch   = waError(400, 1006, "No matching location found.")
	waMaxForecast  = 14
	waAstroMinYear = 1900
	waAstroMaxYear = 2100
)

// waResolve turns q into a place the way WeatherAPI does: "lat,lon",
// "iata:<code>", a city name or alias (optionally qualified), or an airport
// code through the core world.
func waResolve(w *world.World, q string) (*weatherPlace, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, errWAMissingQ
	}
	if lat, lon, ok := parseLatLonPair(q); ok {
		if lat < -90 || lat > 90 || lon < -180 || lon > 180 {
			return nil, errWANoMatch
		}
		if p := placeNear(w, lat, lon); p != nil {
			return p, nil
		}
		return nil, errWANoMatch
	}
	if prefix, code, ok := strings.Cut(q, ":"); ok {
		if strings.EqualFold(strings.TrimSpace(prefix), "iata") {
			if c, found := w.CityByAirport(strings.TrimSpace(code)); found {
				return placeForCity(w, c), nil
			}
		}
		return nil, errWANoMatch
	}
	if c, ok := w.FindCity(q); ok {
		return placeForCity(w, c), nil
	}
	return nil, errWANoMatch
}

// waLocation is WeatherAPI's location block.
type waLocation struct {
	Name           string  `json:"name"`
	Region         string  `json:"region"`
	Country        string  `json:"country"`
	Lat            float64 `json:"lat"`
	Lon            float64 `json:"lon"`
	TzID           string  `json:"tz_id"`
	LocaltimeEpoch int64   `json:"localtime_epoch"`
	Localtime      string  `json:"localtime"`
}

func waLocationOf(p *weatherPlace, now time.Time) waLocation {
	local := now.In(p.Loc)
	return waLocation{
		Name: p.Name, Region: p.Region, Country: p.Country,
		Lat: round2(p.Lat), Lon: round2(p.Lon), TzID: p.tzName(),
		LocaltimeEpoch: now.Unix(),
		// WeatherAPI prints the local hour without a leading zero.
		Localtime: fmt.Sprintf("%s %d:%02d", local.Format(time.DateOnly), local.Hour(), local.Minute()),
	}
}

type waCondition struct {
	Text string `json:"text"`
	Icon string `json:"icon"`
	Code int    `json:"code"`
}

// waConditions maps kinds to WeatherAPI codes, icon numbers and English texts (day, night).
var waConditions = map[weatherKind]struct {
	code, icon int
	day, night string
}{
	wkClear:        {1000, 113, "Sunny", "Clear"},
	wkPartlyCloudy: {1003, 116, "Partly cloudy", "Partly cloudy"},
	wkCloudy:       {1006, 119, "Cloudy", "Cloudy"},
	wkOvercast:     {1009, 122, "Overcast", "Overcast"},
	wkMist:         {1030, 143, "Mist", "Mist"},
	wkPatchyRain:   {1063, 176, "Patchy rain nearby", "Patchy rain nearby"},
	wkLightRain:    {1183, 296, "Light rain", "Light rain"},
	wkModerateRain: {1189, 302, "Moderate rain", "Moderate rain"},
	wkHeavyRain:    {1195, 308, "Heavy rain", "Heavy rain"},
	wkThunder:      {1273, 386, "Patchy light rain in area with thunder", "Patchy light rain in area with thunder"},
	wkLightSnow:    {1213, 326, "Light snow", "Light snow"},
	wkModerateSnow: {1219, 332, "Moderate snow", "Moderate snow"},
}

// weatherTexts translates condition texts for the lang parameter of both
// weather tools: day text, night text.
var weatherTexts = map[string]map[weatherKind][2]string{
	"fr": {wkClear: {"Ensoleillé", "Ciel dégagé"}, wkPartlyCloudy: {"Partiellement nuageux", "Partiellement nuageux"}, wkCloudy: {"Nuageux", "Nuageux"}, wkOvercast: {"Couvert", "Couvert"}, wkMist: {"Brume", "Brume"}, wkPatchyRain: {"Pluie éparse à proximité", "Pluie éparse à proximité"}, wkLightRain: {"Pluie légère", "Pluie légère"}, wkModerateRain: {"Pluie modérée", "Pluie modérée"}, wkHeavyRain: {"Forte pluie", "Forte pluie"}, wkThunder: {"Pluie légère éparse avec orage", "Pluie légère éparse avec orage"}, wkLightSnow: {"Neige légère", "Neige légère"}, wkModerateSnow: {"Neige modérée", "Neige modérée"}},
	"de": {wkClear: {"Sonnig", "Klar"}, wkPartlyCloudy: {"Leicht bewölkt", "Leicht bewölkt"}, wkCloudy: {"Bewölkt", "Bewölkt"}, wkOvercast: {"Bedeckt", "Bedeckt"}, wkMist: {"Nebel", "Nebel"}, wkPatchyRain: {"Stellenweise Regen in der Nähe", "Stellenweise Regen in der Nähe"}, wkLightRain: {"Leichter Regen", "Leichter Regen"}, wkModerateRain: {"Mäßiger Regen", "Mäßiger Regen"}, wkHeavyRain: {"Starker Regen", "Starker Regen"}, wkThunder: {"Stellenweise leichter Regen mit Gewitter", "Stellenweise leichter Regen mit Gewitter"}, wkLightSnow: {"Leichter Schneefall", "Leichter Schneefall"}, wkModerateSnow: {"Mäßiger Schneefall", "Mäßiger Schneefall"}},
	"es": {wkClear: {"Soleado", "Despejado"}, wkPartlyCloudy: {"Parcialmente nublado", "Parcialmente nublado"}, wkCloudy: {"Nublado", "Nublado"}, wkOvercast: {"Cubierto", "Cubierto"}, wkMist: {"Neblina", "Neblina"}, wkPatchyRain: {"Lluvia dispersa en los alrededores", "Lluvia dispersa en los alrededores"}, wkLightRain: {"Lluvia ligera", "Lluvia ligera"}, wkModerateRain: {"Lluvia moderada", "Lluvia moderada"}, wkHeavyRain: {"Fuertes lluvias", "Fuertes lluvias"}, wkThunder: {"Lluvias ligeras dispersas con tormenta", "Lluvias ligeras dispersas con tormenta"}, wkLightSnow: {"Nevadas ligeras", "Nevadas ligeras"}, wkModerateSnow: {"Nieve moderada", "Nieve moderada"}},
	"pt": {wkClear: {"Sol", "Céu limpo"}, wkPartlyCloudy: {"Parcialmente nublado", "Parcialmente nublado"}, wkCloudy: {"Nublado", "Nublado"}, wkOvercast: {"Encoberto", "Encoberto"}, wkMist: {"Névoa", "Névoa"}, wkPatchyRain: {"Chuva irregular nas proximidades", "Chuva irregular nas proximidades"}, wkLightRain: {"Chuva fraca", "Chuva fraca"}, wkModerateRain: {"Chuva moderada", "Chuva moderada"}, wkHeavyRain: {"Chuva forte", "Chuva forte"}, wkThunder: {"Chuva fraca irregular com trovoada", "Chuva fraca irregular com trovoada"}, wkLightSnow: {"Neve fraca", "Neve fraca"}, wkModerateSnow: {"Neve moderada", "Neve moderada"}},
	"it": {wkClear: {"Soleggiato", "Sereno"}, wkPartlyCloudy: {"Parzialmente nuvoloso", "Parzialmente nuvoloso"}, wkCloudy: {"Nuvoloso", "Nuvoloso"}, wkOvercast: {"Coperto", "Coperto"}, wkMist: {"Foschia", "Foschia"}, wkPatchyRain: {"Pioggia a chiazze nelle vicinanze", "Pioggia a chiazze nelle vicinanze"}, wkLightRain: {"Pioggia leggera", "Pioggia leggera"}, wkModerateRain: {"Pioggia moderata", "Pioggia moderata"}, wkHeavyRain: {"Pioggia forte", "Pioggia forte"}, wkThunder: {"Pioggia leggera a chiazze con temporale", "Pioggia leggera a chiazze con temporale"}, wkLightSnow: {"Neve leggera", "Neve leggera"}, wkModerateSnow: {"Neve moderata", "Neve moderata"}},
}

// waIcons holds the icon URLs by kind, night first then day.
var waIcons = func() map[weatherKind][2]string {
	out := map[weatherKind][2]string{}
	for k, c := range waConditions {
		out[k] = [2]string{
			fmt.Sprintf("//cdn.weatherapi.com/weather/64x64/night/%d.png", c.icon),
			fmt.Sprintf("//cdn.weatherapi.com/weather/64x64/day/%d.png", c.icon),
		}
	}
	return out
}()

func waConditionOf(k weatherKind, isDay bool, lang string) waCondition {
	c := waConditions[k]
	text := c.night
	if isDay {
		text = c.day
	}
	if tr, ok := weatherTexts[lang]; ok {
		if isDay {
			text = tr[k][0]
		} else {
			text = tr[k][1]
		}
	}
	return waCondition{Text: text, Icon: waIcons[k][boolInt(isDay)], Code: c.code}
}

// waCurrent is WeatherAPI's current block.
type waCurrent struct {
	LastUpdatedEpoch int64       `json:"last_updated_epoch"`
	LastUpdated      string      `json:"last_updated"`
	TempC            float64     `json:"temp_c"`
	TempF            float64     `json:"temp_f"`
	IsDay            int         `json:"is_day"`
	Condition        waCondition `json:"condition"`
	WindMph          float64     `json:"wind_mph"`
	WindKph          float64     `json:"wind_kph"`
	WindDegree       int         `json:"wind_degree"`
	WindDir          string      `json:"wind_dir"`
	PressureMb       float64     `json:"pressure_mb"`
	PressureIn       float64     `json:"pressure_in"`
	PrecipMm         float64     `json:"precip_mm"`
	PrecipIn         float64     `json:"precip_in"`
	Humidity         int         `json:"humidity"`
	Cloud            int         `json:"cloud"`
	FeelslikeC       float64     `json:"feelslike_c"`
	FeelslikeF       float64     `json:"feelslike_f"`
	WindchillC       float64     `json:"windchill_c"`
	WindchillF       float64     `json:"windchill_f"`
	HeatindexC       float64     `json:"heatindex_c"`
	HeatindexF       float64     `json:"heatindex_f"`
	DewpointC        float64     `json:"dewpoint_c"`
	DewpointF        float64     `json:"dewpoint_f"`
	VisKm            float64     `json:"vis_km"`
	VisMiles         float64     `json:"vis_miles"`
	UV               float64     `json:"uv"`
	GustMph          float64     `json:"gust_mph"`
	GustKph          float64     `json:"gust_kph"`
}

func waCurrentOf(p *weatherPlace, now time.Time, lang string) waCurrent {
	h := p.current(now)
	// Stations report every 15 minutes.
	updated := now.Truncate(15 * time.Minute)
	return waCurrent{
		LastUpdatedEpoch: updated.Unix(), LastUpdated: updated.In(p.Loc).Format("2006-01-02 15:04"),
		TempC: h.tempC, TempF: celsiusToF(h.tempC), IsDay: boolInt(h.isDay), Condition: waConditionOf(h.kind, h.isDay, lang),
		WindMph: kphToMph(h.windKph), WindKph: h.windKph, WindDegree: h.windDeg, WindDir: compassPoint(h.windDeg),
		PressureMb: h.pressureMb, PressureIn: round2(h.pressureMb * 0.02953), PrecipMm: h.precipMM, PrecipIn: round2(h.precipMM / 25.4),
		Humidity: h.humidity, Cloud: h.cloud, FeelslikeC: h.feelsC, FeelslikeF: celsiusToF(h.feelsC),
		WindchillC: h.windChillC, WindchillF: celsiusToF(h.windChillC), HeatindexC: h.heatC, HeatindexF: celsiusToF(h.heatC),
		DewpointC: h.dewC, DewpointF: celsiusToF(h.dewC), VisKm: h.visKm, VisMiles: round1(h.visKm / 1.609344), UV: h.uv,
		GustMph: kphToMph(h.gustKph), GustKph: h.gustKph,
	}
}

func waLang(c *standin.Call) string {
	l := strings.ToLower(c.ArgString("lang"))
	l, _, _ = strings.Cut(l, "_")
	return l
}

func handleWARealtime(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	p, err := waResolve(w, c.ArgString("q"))
	if err != nil {
		return nil, err
	}
	return map[string]any{"location": waLocationOf(p, c.Now), "current": waCurrentOf(p, c.Now, waLang(c))}, nil
}

// waAstro is WeatherAPI's astro block.
type waAstro struct {
	Sunrise          string `json:"sunrise"`
	Sunset           string `json:"sunset"`
	Moonrise         string `json:"moonrise"`
	Moonset          string `json:"moonset"`
	MoonPhase        string `json:"moon_phase"`
	MoonIllumination int    `json:"moon_illumination"`
	IsMoonUp         int    `json:"is_moon_up"`
	IsSunUp          int    `json:"is_sun_up"`
}

// waAstroOf computes the astronomy of a local date at a place; is_sun_up
// and is_moon_up are for the call's instant, as the real API reports them.
func waAstroOf(p *weatherPlace, date, now time.Time) waAstro {
	d := astroDayOf(p, date)
	format := func(e sunEvent, none string) string {
		if !e.ok {
			return none
		}
		return e.at.In(p.Loc).Format("03:04 PM")
	}
	a := waAstro{
		Sunrise: format(d.rise, "No sunrise"), Sunset: format(d.set, "No sunset"),
		Moonrise: format(d.moonrise, "No moonrise"), Moonset: format(d.moonset, "No moonset"),
		MoonPhase: d.phase, MoonIllumination: d.illum,
	}
	if d.rise.ok && d.set.ok {
		a.IsSunUp = boolInt(!now.Before(d.rise.at) && now.Before(d.set.at))
	} else {
		a.IsSunUp = boolInt(d.sunUpAtNoon)
	}
	a.IsMoonUp = boolInt(moonAltitude(julianDay(now), p.Lat, p.Lon) > 0)
	return a
}

// astroDay is what a place's astronomy is on a date whatever the time:
// the Sun's and the Moon's rise and set, the phase. Finding the Moon's
// rise and set scans its altitude over the whole day, which was most of a
// forecast's cost, so a day is computed once and kept (bounded, like the
// model's days: the sandbox clock stands still, so calls ask for the same
// few dates).
type astroDay struct {
	rise, set, moonrise, moonset sunEvent
	phase                        string
	illum                        int
	sunUpAtNoon                  bool // for polar day or night: no rise or set
}

type astroKey struct {
	lat, lon float64
	loc      *time.Location
	y        int
	m        time.Month
	d        int
}

var astroDays = mustLRU[astroKey, astroDay](16384)

func astroDayOf(p *weatherPlace, date time.Time) astroDay {
	y, m, d := date.Date()
	k := astroKey{lat: p.Lat, lon: p.Lon, loc: p.Loc, y: y, m: m, d: d}
	if a, ok := astroDays.Get(k); ok {
		return a
	}
	localMidnight := time.Date(y, m, d, 0, 0, 0, 0, p.Loc)
	var a astroDay
	a.rise, a.set = sunriseSunset(p.Lat, p.Lon, localMidnight)
	a.moonrise, a.moonset = moonRiseSet(p.Lat, p.Lon, localMidnight)
	a.phase, a.illum = moonPhase(localMidnight.Add(12 * time.Hour))
	if !a.rise.ok || !a.set.ok {
		// Polar day or night: up all day when the Sun is above the horizon at noon.
		_, _, dec, _ := sunCoords(julianDay(localMidnight.Add(12 * time.Hour)))
		a.sunUpAtNoon = 90-math.Abs(p.Lat-dec) > 0
	}
	astroDays.Add(k, a)
	return a
}

// waForecastDay is one element of forecast.forecastday.
type waForecastDay struct {
	Date      string   `json:"date"`
	DateEpoch int64    `json:"date_epoch"`
	Day       waDay    `json:"day"`
	Astro     waAstro  `json:"astro"`
	Hour      []waHour `json:"hour"`
}

type waDay struct {
	MaxtempC          float64     `json:"maxtemp_c"`
	MaxtempF          float64     `json:"maxtemp_f"`
	MintempC          float64     `json:"mintemp_c"`
	MintempF          float64     `json:"mintemp_f"`
	AvgtempC          float64     `json:"avgtemp_c"`
	AvgtempF          float64     `json:"avgtemp_f"`
	MaxwindMph        float64     `json:"maxwind_mph"`
	MaxwindKph        float64     `json:"maxwind_kph"`
	TotalprecipMm     float64     `json:"totalprecip_mm"`
	TotalprecipIn     float64     `json:"totalprecip_in"`
	TotalsnowCm       float64     `json:"totalsnow_cm"`
	AvgvisKm          float64     `json:"avgvis_km"`
	AvgvisMiles       float64     `json:"avgvis_miles"`
	Avghumidity       int         `json:"avghumidity"`
	DailyWillItRain   int         `json:"daily_will_it_rain"`
	DailyChanceOfRain int         `json:"daily_chance_of_rain"`
	DailyWillItSnow   int         `json:"daily_will_it_snow"`
	DailyChanceOfSnow int         `json:"daily_chance_of_snow"`
	Condition         waCondition `json:"condition"`
	UV                float64     `json:"uv"`
}

type waHour struct {
	TimeEpoch    int64       `json:"time_epoch"`
	Time         string      `json:"time"`
	TempC        float64     `json:"temp_c"`
	TempF        float64     `json:"temp_f"`
	IsDay        int         `json:"is_day"`
	Condition    waCondition `json:"condition"`
	WindMph      float64     `json:"wind_mph"`
	WindKph      float64     `json:"wind_kph"`
	WindDegree   int         `json:"wind_degree"`
	WindDir      string      `json:"wind_dir"`
	PressureMb   float64     `json:"pressure_mb"`
	PressureIn   float64     `json:"pressure_in"`
	PrecipMm     float64     `json:"precip_mm"`
	PrecipIn     float64     `json:"precip_in"`
	SnowCm       float64     `json:"snow_cm"`
	Humidity     int         `json:"humidity"`
	Cloud        int         `json:"cloud"`
	FeelslikeC   float64     `json:"feelslike_c"`
	FeelslikeF   float64     `json:"feelslike_f"`
	WindchillC   float64     `json:"windchill_c"`
	WindchillF   float64     `json:"windchill_f"`
	HeatindexC   float64     `json:"heatindex_c"`
	HeatindexF   float64     `json:"heatindex_f"`
	DewpointC    float64     `json:"dewpoint_c"`
	DewpointF    float64     `json:"dewpoint_f"`
	WillItRain   int         `json:"will_it_rain"`
	ChanceOfRain int         `json:"chance_of_rain"`
	WillItSnow   int         `json:"will_it_snow"`
	ChanceOfSnow int         `json:"chance_of_snow"`
	VisKm        float64     `json:"vis_km"`
	VisMiles     float64     `json:"vis_miles"`
	GustMph      float64     `json:"gust_mph"`
	GustKph      float64     `json:"gust_kph"`
	UV           float64     `json:"uv"`
}

func waForecastDayOf(p *weatherPlace, date, now time.Time, lang string) waForecastDay {
	d := p.day(date)
	y, m, dd := date.Date()
	fd := waForecastDay{
		Date: date.Format(time.DateOnly), DateEpoch: time.Date(y, m, dd, 0, 0, 0, 0, time.UTC).Unix(),
		Day: waDay{
			MaxtempC: d.maxC, MaxtempF: celsiusToF(d.maxC), MintempC: d.minC, MintempF: celsiusToF(d.minC), AvgtempC: d.avgC, AvgtempF: celsiusToF(d.avgC),
			MaxwindMph: kphToMph(d.maxWindKph), MaxwindKph: d.maxWindKph, TotalprecipMm: d.precipMM, TotalprecipIn: round2(d.precipMM / 25.4),
			TotalsnowCm: d.snowCM, AvgvisKm: d.visKm, AvgvisMiles: round1(d.visKm / 1.609344), Avghumidity: d.humidity,
			DailyWillItRain: boolInt(d.precipMM > 0 && d.snowCM == 0), DailyChanceOfRain: d.chanceRain,
			DailyWillItSnow: boolInt(d.snowCM > 0), DailyChanceOfSnow: d.chanceSnow,
			Condition: waConditionOf(d.kind, true, lang), UV: d.uv,
		},
		Astro: waAstroOf(p, date, now),
	}
	for _, h := range p.hours(date) {
		fd.Hour = append(fd.Hour, waHour{
			TimeEpoch: h.at.Unix(), Time: h.at.Format("2006-01-02 15:04"), TempC: h.tempC, TempF: celsiusToF(h.tempC), IsDay: boolInt(h.isDay),
			Condition: waConditionOf(h.kind, h.isDay, lang), WindMph: kphToMph(h.windKph), WindKph: h.windKph, WindDegree: h.windDeg, WindDir: compassPoint(h.windDeg),
			PressureMb: h.pressureMb, PressureIn: round2(h.pressureMb * 0.02953), PrecipMm: h.precipMM, PrecipIn: round2(h.precipMM / 25.4), SnowCm: h.snowCM,
			Humidity: h.humidity, Cloud: h.cloud, FeelslikeC: h.feelsC, FeelslikeF: celsiusToF(h.feelsC), WindchillC: h.windChillC, WindchillF: celsiusToF(h.windChillC),
			HeatindexC: h.heatC, HeatindexF: celsiusToF(h.heatC), DewpointC: h.dewC, DewpointF: celsiusToF(h.dewC),
			WillItRain: boolInt(h.precipMM > 0 && h.snowCM == 0), ChanceOfRain: h.chanceRain, WillItSnow: boolInt(h.snowCM > 0), ChanceOfSnow: h.chanceSnow,
			VisKm: h.visKm, VisMiles: round1(h.visKm / 1.609344), GustMph: kphToMph(h.gustKph), GustKph: h.gustKph, UV: h.uv,
		})
	}
	return fd
}

// localToday is the civil date at a place at an instant.
func localToday(p *weatherPlace, now time.Time) time.Time {
	l := now.In(p.Loc)
	return civilDate(l.Year(), l.Month(), l.Day())
}

func handleWAForecast(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	p, err := waResolve(w, c.ArgString("q"))
	if err != nil {
		return nil, err
	}
	lang := waLang(c)
	days := clampInt(c.ArgInt("days", 3), 1, waMaxForecast)
	today := localToday(p, c.Now)
	start := today
	if dt := c.ArgString("dt"); dt != "" {
		d, err := time.Parse(time.DateOnly, dt)
		if err != nil {
			return nil, waError(400, 9999, "dt parameter should be in yyyy-MM-dd format and between today and next 14 day in yyyy-MM-dd format.")
		}
		if d.Before(today) || !d.Before(today.AddDate(0, 0, waMaxForecast)) {
			return nil, waError(400, 9999, "dt parameter should be in yyyy-MM-dd format and between today and next 14 day in yyyy-MM-dd format.")
		}
		// With dt the API answers for that one day.
		start, days = d, 1
	}
	var fds []waForecastDay
	for i := range days {
		fds = append(fds, waForecastDayOf(p, start.AddDate(0, 0, i), c.Now, lang))
	}
	return map[string]any{
		"location": waLocationOf(p, c.Now),
		"current":  waCurrentOf(p, c.Now, lang),
		"forecast": map[string]any{"forecastday": fds},
	}, nil
}

func handleWAAstronomy(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	p, err := waResolve(w, c.ArgString("q"))
	if err != nil {
		return nil, err
	}
	date := localToday(p, c.Now)
	if dt := c.ArgString("dt"); dt != "" {
		d, err := time.Parse(time.DateOnly, dt)
		if err != nil || d.Year() < waAstroMinYear || d.Year() > waAstroMaxYear {
			return nil, waError(400, 9999, "dt parameter should be in yyyy-MM-dd format.")
		}
		date = d
	}
	return map[string]any{"location": waLocationOf(p, c.Now), "astronomy": map[string]any{"astro": waAstroOf(p, date, c.Now)}}, nil
}

// waSearchResult is one element of search.json's array.
type waSearchResult struct {
	ID      int     `json:"id"`
	Name    string  `json:"name"`
	Region  string  `json:"region"`
	Country string  `json:"country"`
	Lat     float64 `json:"lat"`
	Lon     float64 `json:"lon"`
	URL     string  `json:"url"`
}

// waLocationID is a stable seven-digit id for a city, like WeatherAPI's.
func waLocationID(c *world.City) int {
	h := fnv.New32a()
	h.Write([]byte(c.ID))
	return 2000000 + int(h.Sum32()%800000)
}

func waSlug(parts ...string) string {
	var b strings.Builder
	dash := false
	for _, s := range parts {
		for _, r := range strings.ToLower(world.Fold(s)) {
			if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
				b.WriteRune(r)
				dash = false
			} else if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}

func handleWASearch(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	q := c.ArgString("q")
	if q == "" {
		return nil, errWAMissingQ
	}
	out := []waSearchResult{}
	var cities []*world.City
	if lat, lon, ok := parseLatLonPair(q); ok {
		if city, d := w.NearestCity(lat, lon); city != nil && d <= 60 {
			cities = []*world.City{city}
		}
	} else if prefix, code, ok := strings.Cut(q, ":"); ok && strings.EqualFold(strings.TrimSpace(prefix), "iata") {
		if city, found := w.CityByAirport(strings.TrimSpace(code)); found {
			cities = []*world.City{city}
		}
	} else {
		cities = w.SearchCities(q, 10)
		if len(cities) == 0 {
			if city, found := w.FindCity(q); found {
				cities = []*world.City{city}
			}
		}
	}
	for _, city := range cities {
		p := placeForCity(w, city)
		out = append(out, waSearchResult{ID: waLocationID(city), Name: p.Name, Region: p.Region, Country: p.Country, Lat: round2(p.Lat), Lon: round2(p.Lon), URL: waSlug(p.Name, p.Region, p.Country)})
	}
	return out, nil
}

func handleWATimeZone(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	p, err := waResolve(w, c.ArgString("q"))
	if err != nil {
		return nil, err
	}
	return map[string]any{"location": waLocationOf(p, c.Now)}, nil
}
