package daily

import (
	"math"
	"time"
)

// Astronomy for the weather and holiday stand-ins: the NOAA solar equations
// for sunrise and sunset, a low-precision lunar theory for moonrise, moonset
// and phase, Meeus's mean-lunation new moons and solar-longitude events for
// the Chinese calendar. Accuracy is a minute or two, like the real APIs.

const (
	degRad = math.Pi / 180
	// jdUnixEpoch is the Julian day of 1970-01-01T00:00:00Z.
	jdUnixEpoch = 2440587.5
)

// julianDay returns the Julian day of an instant.
func julianDay(t time.Time) float64 {
	return jdUnixEpoch + float64(t.Unix())/86400 + float64(t.Nanosecond())/86400e9
}

// timeOfJD returns the instant of a Julian day, rounded to the second.
func timeOfJD(jd float64) time.Time {
	sec := math.Round((jd - jdUnixEpoch) * 86400)
	return time.Unix(int64(sec), 0).UTC()
}

func norm360deg(x float64) float64 {
	x = math.Mod(x, 360)
	if x < 0 {
		x += 360
	}
	return x
}

// sunCoords returns the Sun's apparent ecliptic longitude, right ascension
// and declination (degrees) and the equation of time (minutes) at a Julian
// day, following NOAA's solar calculator.
func sunCoords(jd float64) (lon, ra, dec, eqTime float64) {
	t := (jd - 2451545) / 36525
	l0 := norm360deg(280.46646 + t*(36000.76983+t*0.0003032))
	m := 357.52911 + t*(35999.05029-0.0001537*t)
	e := 0.016708634 - t*(0.000042037+0.0000001267*t)
	c := math.Sin(m*degRad)*(1.914602-t*(0.004817+0.000014*t)) + math.Sin(2*m*degRad)*(0.019993-0.000101*t) + math.Sin(3*m*degRad)*0.000289
	trueLon := l0 + c
	omega := 125.04 - 1934.136*t
	lon = trueLon - 0.00569 - 0.00478*math.Sin(omega*degRad)
	eps0 := 23 + (26+(21.448-t*(46.815+t*(0.00059-t*0.001813)))/60)/60
	eps := eps0 + 0.00256*math.Cos(omega*degRad)
	ra = norm360deg(math.Atan2(math.Cos(eps*degRad)*math.Sin(lon*degRad), math.Cos(lon*degRad)) / degRad)
	dec = math.Asin(math.Sin(eps*degRad)*math.Sin(lon*degRad)) / degRad
	y := math.Pow(math.Tan(eps*degRad/2), 2)
	eqTime = 4 / degRad * (y*math.Sin(2*l0*degRad) - 2*e*math.Sin(m*degRad) + 4*e*y*math.Sin(m*degRad)*math.Cos(2*l0*degRad) - 0.5*y*y*math.Sin(4*l0*degRad) - 1.25*e*e*math.Sin(2*m*degRad))
	return norm360deg(lon), ra, dec, eqTime
}

// sunEvent is a sunrise or sunset: the instant, or none when the Sun does
// not cross the horizon that day (polar day or night).
type sunEvent struct {
	at time.Time
	ok bool
}

// sunriseSunset returns sunrise and sunset for the calendar date of day (in
// day's location) at a place, with NOAA's 90.833° zenith. Each is iterated
// twice so the Sun's position is taken at the event itself.
func sunriseSunset(lat, lon float64, day time.Time) (rise, set sunEvent) {
	y, mo, d := day.Date()
	midnight := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
	event := func(sign float64) sunEvent {
		// Start from local solar noon and refine.
		utcMin := 720 - 4*lon
		for range 3 {
			jd := julianDay(midnight.Add(time.Duration(utcMin * float64(time.Minute))))
			_, _, dec, eq := sunCoords(jd)
			cosH := (math.Cos(90.833*degRad) - math.Sin(lat*degRad)*math.Sin(dec*degRad)) / (math.Cos(lat*degRad) * math.Cos(dec*degRad))
			if cosH > 1 || cosH < -1 {
				return sunEvent{}
			}
			h := math.Acos(cosH) / degRad
			utcMin = 720 - 4*(lon+sign*h) - eq
		}
		t := midnight.Add(time.Duration(math.Round(utcMin*60)) * time.Second)
		return sunEvent{at: t, ok: true}
	}
	// The UTC date of a local day differs from the local date by the zone
	// offset; shift so the events fall on the local date asked for.
	_, off := day.Zone()
	shift := func(e sunEvent) sunEvent {
		if !e.ok {
			return e
		}
		local := e.at.Add(time.Duration(off) * time.Second)
		ly, lm, ld := local.Date()
		switch {
		case time.Date(ly, lm, ld, 0, 0, 0, 0, time.UTC).Before(midnight):
			e.at = e.at.Add(24 * time.Hour)
		case time.Date(ly, lm, ld, 0, 0, 0, 0, time.UTC).After(midnight):
			e.at = e.at.Add(-24 * time.Hour)
		}
		return e
	}
	return shift(event(1)), shift(event(-1))
}

// moonCoords returns the Moon's geocentric ecliptic longitude and latitude
// and horizontal parallax (degrees), from the Astronomical Almanac's
// low-precision formulae (about 0.3°).
func moonCoords(jd float64) (lon, lat, parallax float64) {
	t := (jd - 2451545) / 36525
	s := func(a, b float64) float64 { return math.Sin((a + b*t) * degRad) }
	cs := func(a, b float64) float64 { return math.Cos((a + b*t) * degRad) }
	lon = 218.32 + 481267.881*t + 6.29*s(134.9, 477198.85) - 1.27*s(259.2, -413335.38) + 0.66*s(235.7, 890534.23) + 0.21*s(269.9, 954397.70) - 0.19*s(357.5, 35999.05) - 0.11*s(186.6, 966404.05)
	lat = 5.13*s(93.3, 483202.03) + 0.28*s(228.2, 960400.87) - 0.28*s(318.3, 6003.18) - 0.17*s(217.6, -407332.20)
	parallax = 0.9508 + 0.0518*cs(134.9, 477198.85) + 0.0095*cs(259.2, -413335.38) + 0.0078*cs(235.7, 890534.23) + 0.0028*cs(269.9, 954397.70)
	return norm360deg(lon), lat, parallax
}

// moonAltitude returns the Moon's topocentric-corrected altitude test value:
// the geocentric altitude minus the standard moonrise altitude, so that zero
// is the moment of rise or set.
func moonAltitude(jd, lat, lon float64) float64 {
	ml, mb, par := moonCoords(jd)
	t := (jd - 2451545) / 36525
	eps := 23.439291 - 0.0130042*t
	ra := math.Atan2(math.Sin(ml*degRad)*math.Cos(eps*degRad)-math.Tan(mb*degRad)*math.Sin(eps*degRad), math.Cos(ml*degRad)) / degRad
	dec := math.Asin(math.Sin(mb*degRad)*math.Cos(eps*degRad)+math.Cos(mb*degRad)*math.Sin(eps*degRad)*math.Sin(ml*degRad)) / degRad
	gmst := norm360deg(280.46061837 + 360.98564736629*(jd-2451545) + 0.000387933*t*t)
	ha := (gmst + lon - ra) * degRad
	alt := math.Asin(math.Sin(lat*degRad)*math.Sin(dec*degRad)+math.Cos(lat*degRad)*math.Cos(dec*degRad)*math.Cos(ha)) / degRad
	return alt - (0.7275*par - 0.5667)
}

// moonRiseSet finds the Moon's rise and set within the local calendar day
// of day (either may be missing, as on the real API's "No moonrise"). The
// altitude is sampled hourly and each crossing refined by bisection to
// under a minute; the Moon's altitude changes too slowly to cross twice
// within an hour except at polar latitudes.
func moonRiseSet(lat, lon float64, day time.Time) (rise, set sunEvent) {
	y, mo, d := day.Date()
	start := time.Date(y, mo, d, 0, 0, 0, 0, day.Location())
	end := time.Date(y, mo, d+1, 0, 0, 0, 0, day.Location()) // 23 or 25 hours on DST days
	alt := func(t time.Time) float64 { return moonAltitude(julianDay(t), lat, lon) }
	prevT := start
	prev := alt(prevT)
	for prevT.Before(end) {
		t := prevT.Add(time.Hour)
		if t.After(end) {
			t = end
		}
		cur := alt(t)
		if (prev < 0) != (cur < 0) {
			lo, hi, loAlt := prevT, t, prev
			for hi.Sub(lo) > 30*time.Second {
				mid := lo.Add(hi.Sub(lo) / 2)
				if m := alt(mid); (m < 0) == (loAlt < 0) {
					lo, loAlt = mid, m
				} else {
					hi = mid
				}
			}
			at := lo.Truncate(time.Minute)
			if prev < 0 && !rise.ok {
				rise = sunEvent{at: at, ok: true}
			} else if prev >= 0 && !set.ok {
				set = sunEvent{at: at, ok: true}
			}
		}
		prevT, prev = t, cur
	}
	return rise, set
}

// moonPhase returns the phase name (as WeatherAPI spells it) and the
// illuminated percentage at an instant, from the Sun–Moon elongation.
func moonPhase(t time.Time) (string, int) {
	jd := julianDay(t)
	sl, _, _, _ := sunCoords(jd)
	ml, _, _ := moonCoords(jd)
	elong := norm360deg(ml - sl)
	illum := int(math.Round((1 - math.Cos(elong*degRad)) / 2 * 100))
	names := [...]string{"New Moon", "Waxing Crescent", "First Quarter", "Waxing Gibbous", "Full Moon", "Waning Gibbous", "Last Quarter", "Waning Crescent"}
	// Principal phases own a narrow band (about a day either side); the
	// intermediate phases fill the rest, as phase calendars show them.
	switch {
	case elong < 12 || elong >= 348:
		return names[0], illum
	case elong < 84:
		return names[1], illum
	case elong < 96:
		return names[2], illum
	case elong < 168:
		return names[3], illum
	case elong < 192:
		return names[4], illum
	case elong < 264:
		return names[5], illum
	case elong < 276:
		return names[6], illum
	default:
		return names[7], illum
	}
}

// newMoonJDE returns the Julian ephemeris day of new moon number k
// (k = 0 is 2000-01-06), after Meeus, Astronomical Algorithms ch. 49.
func newMoonJDE(k float64) float64 {
	t := k / 1236.85
	jde := 2451550.09766 + 29.530588861*k + 0.00015437*t*t - 0.00000015*t*t*t + 0.00000000073*t*t*t*t
	e := 1 - 0.002516*t - 0.0000074*t*t
	m := (2.5534 + 29.10535670*k - 0.0000014*t*t) * degRad
	mp := (201.5643 + 385.81693528*k + 0.0107582*t*t + 0.00001238*t*t*t) * degRad
	f := (160.7108 + 390.67050284*k - 0.0016118*t*t - 0.00000227*t*t*t) * degRad
	om := (124.7746 - 1.56375588*k + 0.0020672*t*t) * degRad
	jde += -0.40720*math.Sin(mp) + 0.17241*e*math.Sin(m) + 0.01608*math.Sin(2*mp) + 0.01039*math.Sin(2*f) +
		0.00739*e*math.Sin(mp-m) - 0.00514*e*math.Sin(mp+m) + 0.00208*e*e*math.Sin(2*m) - 0.00111*math.Sin(mp-2*f) -
		0.00057*math.Sin(mp+2*f) + 0.00056*e*math.Sin(2*mp+m) - 0.00042*math.Sin(3*mp) + 0.00042*e*math.Sin(m+2*f) +
		0.00038*e*math.Sin(m-2*f) - 0.00024*e*math.Sin(2*mp-m) - 0.00017*math.Sin(om) - 0.00007*math.Sin(mp+2*m)
	// Delta T (TT − UT) is about a minute this century; subtract it so the
	// result is in universal time.
	return jde - 69.0/86400
}

// newMoonOnOrBefore returns the last new moon at or before jd.
func newMoonOnOrBefore(jd float64) float64 {
	k := math.Floor((jd - 2451550.09766) / 29.530588861)
	for newMoonJDE(k) > jd {
		k--
	}
	for newMoonJDE(k+1) <= jd {
		k++
	}
	return newMoonJDE(k)
}

// solarLongitudeEvent returns the Julian day, at or after from, when the
// Sun's apparent longitude reaches target degrees (a solar term).
func solarLongitudeEvent(target, from float64) float64 {
	lon, _, _, _ := sunCoords(from)
	jd := from + norm360deg(target-lon)/360*365.2422
	for range 6 {
		l, _, _, _ := sunCoords(jd)
		diff := math.Mod(target-l+540, 360) - 180
		jd += diff / 360 * 365.2422
	}
	return jd
}
