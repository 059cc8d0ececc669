package daily

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/understudy/understudy/mocks/world"
)

// weatherPlace is a location resolved from a query: a world city, or a
// point near one (whose climate it borrows, corrected for latitude).
type weatherPlace struct {
	Name, Region, Country, CountryCode string
	Lat, Lon                           float64
	Loc                                *time.Location
	City                               *world.City // nearest world city; never nil
	key                                string
	normals                            *world.CityNormals
	tempShift                          float64 // °C added to the borrowed normals
	flip                               bool    // other hemisphere: seasons shifted six months

	// world and model name what the model's days and hours are a function
	// of, besides the date: the world and the place as constructed (for a
	// point, its exact coordinates, which key rounds).
	world *world.World
	model string
}

// The model's days and hours are a pure function of the world, the place
// and the date, and every call of a weather API at a place asks for the
// same few dates while the sandbox clock stands still: they are computed
// once and kept, bounded (an entry of hours is about 4 KB).
var (
	modelDays  = mustLRU[modelKey, dayWeather](16384)
	modelHours = mustLRU[modelKey, []hourWeather](4096)
)

type modelKey struct {
	world *world.World
	place string
	date  time.Time
}

func mustLRU[K comparable, V any](size int) *lru.Cache[K, V] {
	c, err := lru.New[K, V](size)
	if err != nil {
		panic(err) // only for a size below one
	}
	return c
}

// placeForCity is the place of a world city.
func placeForCity(w *world.World, c *world.City) *weatherPlace {
	cd := w.Normals
	key := "city:" + c.ID
	p := &weatherPlace{Name: c.Name, Region: c.Region, CountryCode: c.Country, Lat: c.Lat, Lon: c.Lon, Loc: c.Location(), City: c, key: key, normals: cd.Cities[c.ID], world: w, model: key}
	if k, ok := w.Country(c.Country); ok {
		p.Country = k.Name
	}
	return p
}

// placeNear is the place at coordinates: the nearest city when it is within
// nearCityKm, otherwise an unnamed point with the nearest city's time zone
// and climate, corrected for the difference in latitude.
func placeNear(w *world.World, lat, lon float64) *weatherPlace {
	const nearCityKm = 60
	c, d := w.NearestCity(lat, lon)
	if c == nil {
		return nil
	}
	if d <= nearCityKm {
		return placeForCity(w, c)
	}
	base := placeForCity(w, c)
	p := &weatherPlace{Lat: math.Round(lat*100) / 100, Lon: math.Round(lon*100) / 100, City: c, normals: base.normals, world: w,
		model: "pt:" + strconv.FormatFloat(lat, 'g', -1, 64) + "," + strconv.FormatFloat(lon, 'g', -1, 64)}
	p.key = fmt.Sprintf("pt:%.2f,%.2f", p.Lat, p.Lon)
	p.Name = fmt.Sprintf("%.2f,%.2f", p.Lat, p.Lon)
	if d <= 600 {
		p.Region, p.Country, p.CountryCode = c.Region, base.Country, c.Country
	}
	if d <= 1500 {
		p.Loc = c.Location()
	} else {
		// Far from every city: the nautical time zone of the longitude.
		off := int(math.Round(lon / 15))
		p.Loc = time.FixedZone(fmt.Sprintf("Etc/GMT%+d", -off), off*3600)
	}
	p.flip = (lat < 0) != (c.Lat < 0)
	// About 0.6 °C cooler per degree of latitude further from the equator.
	p.tempShift = -0.6 * (math.Abs(lat) - math.Abs(c.Lat))
	return p
}

// tzName is the IANA name of a place's zone.
func (p *weatherPlace) tzName() string { return p.Loc.String() }

// unitNoise returns a uniform number in [0, 1) from the place, the date and
// a salt: the model's only source of variation (FNV-1a, then a SplitMix64
// finaliser to spread the bits).
func (p *weatherPlace) unitNoise(date time.Time, salt string) float64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for i := 0; i < len(p.key); i++ {
		h = (h ^ uint64(p.key[i])) * prime
	}
	y, m, d := date.Date()
	h = (h ^ uint64(y*10000+int(m)*100+d)) * prime
	for i := 0; i < len(salt); i++ {
		h = (h ^ uint64(salt[i])) * prime
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return float64(h>>11) / (1 << 53)
}

// gauss is an approximately standard normal number from unitNoise.
func (p *weatherPlace) gauss(date time.Time, salt string) float64 {
	s := 0.0
	for i := range 4 {
		s += p.unitNoise(date, salt+strconv.Itoa(i))
	}
	return (s - 2) * math.Sqrt(3)
}

// normalsOn interpolates the monthly normals to a date (each month's value
// sits mid-month).
func (p *weatherPlace) normalsOn(date time.Time) (high, low, rainProb float64) {
	if p.flip {
		date = date.AddDate(0, 6, 0)
	}
	y, m, d := date.Date()
	days := float64(civilDate(y, m+1, 0).Day())
	pos := float64(m-1) + (float64(d)-0.5)/days - 0.5 // months since mid-January
	i0 := int(math.Floor(pos))
	f := pos - float64(i0)
	a, b := (i0+12)%12, (i0+13)%12
	lerp := func(xs [12]float64) float64 { return xs[a]*(1-f) + xs[b]*f }
	high, low = lerp(p.normals.HighC)+p.tempShift, lerp(p.normals.LowC)+p.tempShift
	rainProb = lerp(p.normals.RainDays) / 30.4
	return high, low, math.Min(rainProb, 0.95)
}

// weatherKind is a weather condition, mapped to each API's codes and texts.
type weatherKind int

const (
	wkClear weatherKind = iota
	wkPartlyCloudy
	wkCloudy
	wkOvercast
	wkMist
	wkPatchyRain
	wkLightRain
	wkModerateRain
	wkHeavyRain
	wkThunder
	wkLightSnow
	wkModerateSnow
)

func (k weatherKind) wet() bool { return k >= wkPatchyRain }

// dayWeather is one day's summary at a place.
type dayWeather struct {
	date                 time.Time // civil date
	maxC, minC, avgC     float64
	precipMM, snowCM     float64
	chanceRain           int
	chanceSnow           int
	cloud                int
	humidity             int
	dewC                 float64
	maxWindKph           float64
	uv                   float64
	visKm                float64
	kind                 weatherKind
	rainStart, rainHours int
	windDeg              float64
	pressure             float64
}

// day returns the weather of a civil date at a place.
func (p *weatherPlace) day(date time.Time) dayWeather {
	k := modelKey{p.world, p.model, date}
	if d, ok := modelDays.Get(k); ok {
		return d
	}
	d := p.computeDay(date)
	modelDays.Add(k, d)
	return d
}

// computeDay draws the weather of a civil date at a place.
func (p *weatherPlace) computeDay(date time.Time) dayWeather {
	high, low, rainProb := p.normalsOn(date)
	// A temperature anomaly that persists a few days, as weather systems do.
	anom := 0.5*p.gauss(date, "t") + 0.3*p.gauss(date.AddDate(0, 0, -1), "t") + 0.2*p.gauss(date.AddDate(0, 0, -2), "t")
	anom *= 3.2
	d := dayWeather{date: date}
	wet := p.unitNoise(date, "wet") < rainProb
	u := p.unitNoise(date, "amt")
	if wet {
		mean := 2.5 + 0.3*math.Max(high, 0)
		d.precipMM = math.Round(math.Min(-math.Log(1-u*0.98)*mean, 80)*100) / 100
		d.cloud = 60 + int(p.unitNoise(date, "cloud")*40)
		d.rainStart = int(p.unitNoise(date, "start") * 18)
		d.rainHours = 2 + int(p.unitNoise(date, "hours")*8)
	} else {
		d.cloud = int(p.unitNoise(date, "cloud") * (25 + rainProb*150))
		if d.cloud > 75 {
			d.cloud = 75
		}
	}
	cloudCooling := float64(d.cloud) / 100 * 2.5
	d.maxC = round1(high + anom - cloudCooling)
	d.minC = round1(low + 0.8*anom + float64(d.cloud)/100*1.2)
	if d.minC > d.maxC-2 {
		d.minC = round1(d.maxC - 2)
	}
	d.avgC = round1(d.minC + 0.45*(d.maxC-d.minC))
	hum := p.normals.Humidity + 14*(p.unitNoise(date, "hum")-0.5)
	if wet {
		hum += 12
	}
	d.humidity = clampInt(int(math.Round(hum)), 8, 100)
	d.dewC = dewPoint(d.avgC, float64(d.humidity))
	switch {
	case wet:
		d.chanceRain = 70 + int(u*30)
	default:
		d.chanceRain = int(rainProb * 60 * p.unitNoise(date, "chance"))
	}
	if wet && d.maxC <= 1.5 {
		d.snowCM = round2(d.precipMM * 0.9)
		d.chanceSnow, d.chanceRain = d.chanceRain, d.chanceRain/4
	}
	d.maxWindKph = round1(10 + 22*p.unitNoise(date, "wind") + boolFloat(wet)*8)
	d.windDeg = math.Mod(200+p.gauss(date, "dir")*70+360, 360)
	d.pressure = 1015 - boolFloat(wet)*(4+8*u) + 6*(p.unitNoise(date, "pres")-0.5)
	d.visKm = 10
	if wet {
		d.visKm = round1(10 - math.Min(d.precipMM/3, 6))
	}
	// UV index from the Sun's noon elevation, dimmed by cloud.
	_, _, dec, _ := sunCoords(julianDay(date.Add(12 * time.Hour)))
	elev := 90 - math.Abs(p.Lat-dec)
	uvClear := 0.0
	if elev > 0 {
		uvClear = 12.5 * math.Pow(math.Sin(elev*degRad), 2.5)
	}
	d.uv = math.Round(uvClear * (1 - 0.6*float64(d.cloud)/100))
	d.kind = dayKind(d)
	return d
}

// dayKind is the condition summarising a day.
func dayKind(d dayWeather) weatherKind {
	switch {
	case d.snowCM > 0 && d.snowCM < 3:
		return wkLightSnow
	case d.snowCM >= 3:
		return wkModerateSnow
	case d.precipMM >= 15 && d.maxC >= 24:
		return wkThunder
	case d.precipMM >= 15:
		return wkHeavyRain
	case d.precipMM >= 5:
		return wkModerateRain
	case d.precipMM >= 1.5:
		return wkLightRain
	case d.precipMM > 0:
		return wkPatchyRain
	case d.cloud < 20:
		return wkClear
	case d.cloud < 50:
		return wkPartlyCloudy
	case d.cloud < 70:
		return wkCloudy
	default:
		return wkOvercast
	}
}

// hourWeather is the weather at one local hour.
type hourWeather struct {
	at                time.Time // in the place's zone
	tempC, feelsC     float64
	windChillC, heatC float64
	dewC              float64
	humidity, cloud   int
	windKph, gustKph  float64
	windDeg           int
	pressureMb        float64
	precipMM, snowCM  float64
	chanceRain        int
	chanceSnow        int
	isDay             bool
	visKm             float64
	uv                float64
	kind              weatherKind
}

// hourSalts are the noise salts of the hourly values: cloud, rain, wind
// and gust for each hour.
var hourSalts = func() (out [4][24]string) {
	for i, k := range []string{"c", "r", "w", "g"} {
		for h := range 24 {
			out[i][h] = k + strconv.Itoa(h)
		}
	}
	return out
}()

// hours returns the 24 local hours of a civil date, which callers only
// read.
func (p *weatherPlace) hours(date time.Time) []hourWeather {
	k := modelKey{p.world, p.model, date}
	if hs, ok := modelHours.Get(k); ok {
		return hs
	}
	hs := p.computeHours(date)
	modelHours.Add(k, hs)
	return hs
}

// computeHours computes the 24 local hours of a civil date.
func (p *weatherPlace) computeHours(date time.Time) []hourWeather {
	today := p.day(date)
	prev := p.day(date.AddDate(0, 0, -1))
	next := p.day(date.AddDate(0, 0, 1))
	y, m, dd := date.Date()
	localMidnight := time.Date(y, m, dd, 0, 0, 0, 0, p.Loc)
	rise, set := sunriseSunset(p.Lat, p.Lon, localMidnight)
	sr, ss := 6.0, 20.0
	if rise.ok {
		t := rise.at.In(p.Loc)
		sr = float64(t.Hour()) + float64(t.Minute())/60
	}
	if set.ok {
		t := set.at.In(p.Loc)
		ss = float64(t.Hour()) + float64(t.Minute())/60
	}
	const peak = 15.0
	out := make([]hourWeather, 24)
	for h := range 24 {
		x := float64(h)
		var t float64
		switch {
		case x < sr:
			t = cosStep(prev.maxC, today.minC, (x+24-peak)/(24+sr-peak))
		case x <= peak:
			t = cosStep(today.minC, today.maxC, (x-sr)/(peak-sr))
		default:
			t = cosStep(today.maxC, next.minC, (x-peak)/(24+sr-peak))
		}
		hw := hourWeather{at: localMidnight.Add(time.Duration(h) * time.Hour), tempC: round1(t), dewC: round1(today.dewC)}
		if hw.dewC > hw.tempC {
			hw.dewC = hw.tempC
		}
		hw.humidity = clampInt(int(math.Round(relHumidity(hw.tempC, hw.dewC))), 5, 100)
		raining := today.precipMM > 0 && h >= today.rainStart && h < today.rainStart+today.rainHours
		hw.cloud = clampInt(today.cloud+int(30*(p.unitNoise(date, hourSalts[0][h])-0.5)), 0, 100)
		if raining {
			hw.cloud = max(hw.cloud, 75)
			hw.precipMM = round2(today.precipMM / float64(today.rainHours))
			hw.chanceRain = 80 + int(20*p.unitNoise(date, hourSalts[1][h]))
			if today.snowCM > 0 {
				hw.snowCM = round2(today.snowCM / float64(today.rainHours))
				hw.chanceSnow, hw.chanceRain = hw.chanceRain, 0
			}
		} else {
			hw.chanceRain = today.chanceRain / 3
		}
		hw.isDay = x+0.5 >= sr && x+0.5 < ss
		// Wind picks up in the afternoon.
		diurnal := 0.6 + 0.4*math.Sin(math.Pi*math.Max(0, math.Min(1, (x-6)/14)))
		hw.windKph = round1(today.maxWindKph * diurnal * (0.8 + 0.2*p.unitNoise(date, hourSalts[2][h])))
		hw.gustKph = round1(hw.windKph * (1.3 + 0.3*p.unitNoise(date, hourSalts[3][h])))
		hw.windDeg = int(math.Mod(today.windDeg+10*float64(h-12)/12+360, 360))
		hw.pressureMb = math.Round(today.pressure + (next.pressure-today.pressure)*x/24)
		hw.visKm = today.visKm
		if !raining {
			hw.visKm = 10
		}
		hw.feelsC, hw.windChillC, hw.heatC = feelsLike(hw.tempC, float64(hw.humidity), hw.windKph)
		if hw.isDay {
			// Sun elevation now against noon, scaled from the day's UV index.
			frac := math.Sin(math.Pi * (x + 0.5 - sr) / (ss - sr))
			hw.uv = math.Round(math.Max(0, today.uv*frac) * (1 - 0.5*float64(hw.cloud)/100))
		}
		hw.kind = hourKind(hw, raining)
		out[h] = hw
	}
	return out
}

// hourKind is the condition at one hour.
func hourKind(h hourWeather, raining bool) weatherKind {
	switch {
	case raining && h.snowCM > 0 && h.snowCM < 0.5:
		return wkLightSnow
	case raining && h.snowCM > 0:
		return wkModerateSnow
	case raining && h.precipMM >= 4 && h.tempC >= 22:
		return wkThunder
	case raining && h.precipMM >= 4:
		return wkHeavyRain
	case raining && h.precipMM >= 1:
		return wkModerateRain
	case raining && h.precipMM >= 0.3:
		return wkLightRain
	case raining:
		return wkPatchyRain
	case h.humidity >= 96:
		return wkMist
	case h.cloud < 20:
		return wkClear
	case h.cloud < 50:
		return wkPartlyCloudy
	case h.cloud < 75:
		return wkCloudy
	default:
		return wkOvercast
	}
}

// current is the weather at an instant: the hour it falls in, with the
// temperature interpolated towards the next hour.
func (p *weatherPlace) current(now time.Time) hourWeather {
	local := now.In(p.Loc)
	date := civilDate(local.Year(), local.Month(), local.Day())
	hs := p.hours(date)
	h := hs[local.Hour()]
	var nextT float64
	if local.Hour() < 23 {
		nextT = hs[local.Hour()+1].tempC
	} else {
		nextT = p.hours(date.AddDate(0, 0, 1))[0].tempC
	}
	f := float64(local.Minute()) / 60
	h.tempC = round1(h.tempC*(1-f) + nextT*f)
	h.feelsC, h.windChillC, h.heatC = feelsLike(h.tempC, float64(h.humidity), h.windKph)
	return h
}

func cosStep(from, to, f float64) float64 {
	f = math.Max(0, math.Min(1, f))
	return from + (to-from)*(1-math.Cos(math.Pi*f))/2
}

// dewPoint is the Magnus-formula dew point for a temperature and relative humidity.
func dewPoint(tC, rh float64) float64 {
	const a, b = 17.62, 243.12
	g := math.Log(math.Max(rh, 1)/100) + a*tC/(b+tC)
	return round1(b * g / (a - g))
}

// relHumidity is the relative humidity for a temperature and dew point.
func relHumidity(tC, dewC float64) float64 {
	const a, b = 17.62, 243.12
	return 100 * math.Exp(a*dewC/(b+dewC)-a*tC/(b+tC))
}

// feelsLike returns the apparent temperature and the wind chill and heat
// index it was chosen from (NWS formulae).
func feelsLike(tC, rh, windKph float64) (feels, chill, heat float64) {
	chill, heat = tC, tC
	if tC <= 10 && windKph > 4.8 {
		v := math.Pow(windKph, 0.16)
		chill = 13.12 + 0.6215*tC - 11.37*v + 0.3965*tC*v
	}
	if tC >= 27 && rh >= 40 {
		tf := tC*9/5 + 32
		hi := -42.379 + 2.04901523*tf + 10.14333127*rh - 0.22475541*tf*rh - 0.00683783*tf*tf - 0.05481717*rh*rh + 0.00122874*tf*tf*rh + 0.00085282*tf*rh*rh - 0.00000199*tf*tf*rh*rh
		heat = (hi - 32) * 5 / 9
	}
	feels = tC
	switch {
	case chill < tC:
		feels = chill
	case heat > tC:
		feels = heat
	}
	return round1(feels), round1(chill), round1(heat)
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
func round2(x float64) float64 { return math.Round(x*100) / 100 }

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func clampInt(x, lo, hi int) int { return max(lo, min(hi, x)) }

// cToF converts Celsius to Fahrenheit, to one decimal as the APIs print it.
func celsiusToF(c float64) float64 { return round1(c*9/5 + 32) }

// kphToMph converts km/h to mph, to one decimal.
func kphToMph(k float64) float64 { return round1(k / 1.609344) }

// compassPoint names a wind direction on the 16-point compass.
func compassPoint(degRad int) string {
	points := [...]string{"N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"}
	return points[int(math.Round(float64(degRad)/22.5))%16]
}

// parseLatLon reads "lat,lon"; ok is false when s is not a coordinate pair.
func parseLatLonPair(s string) (lat, lon float64, ok bool) {
	a, b, found := strings.Cut(s, ",")
	if !found {
		return 0, 0, false
	}
	lat, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	lon, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || math.IsNaN(lat) || math.IsNaN(lon) || math.IsInf(lat, 0) || math.IsInf(lon, 0) {
		return 0, 0, false
	}
	return lat, lon, true
}
