package daily

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Calendar arithmetic shared by the holiday and calendar stand-ins: Easter
// (Western and Orthodox), nth-weekday rules, equinoxes, the Chinese
// lunisolar calendar, and a lenient date parser.

// civil returns midnight UTC of a calendar date; all holiday arithmetic is
// on dates, so UTC keeps it free of daylight-saving gaps.
func civilDate(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// westernEaster returns Easter Sunday in the Gregorian calendar (the
// anonymous Gregorian algorithm, also known as Meeus/Jones/Butcher).
func westernEaster(y int) time.Time {
	a := y % 19
	b, c := y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return civilDate(y, time.Month(month), day)
}

// orthodoxEaster returns Orthodox Easter Sunday as a Gregorian date: Meeus's
// Julian algorithm, then the Julian–Gregorian gap of that century.
func orthodoxEaster(y int) time.Time {
	a, b, c := y%4, y%7, y%19
	d := (19*c + 15) % 30
	e := (2*a + 4*b - d + 34) % 7
	month := (d + e + 114) / 31
	day := (d+e+114)%31 + 1
	gap := y/100 - y/400 - 2
	return civilDate(y, time.Month(month), day).AddDate(0, 0, gap)
}

// nthWeekday returns the nth given weekday of a month; n < 0 counts from the
// end (-1 is the last). ok is false when the month has no such day.
func nthWeekday(y int, m time.Month, wd time.Weekday, n int) (time.Time, bool) {
	if n > 0 {
		first := civilDate(y, m, 1)
		d := first.AddDate(0, 0, (int(wd)-int(first.Weekday())+7)%7+7*(n-1))
		return d, d.Month() == m
	}
	last := civilDate(y, m+1, 0)
	d := last.AddDate(0, 0, -((int(last.Weekday())-int(wd)+7)%7 + 7*(-n-1)))
	return d, d.Month() == m && n < 0
}

// chinaZone is China Standard Time, the meridian of the Chinese calendar.
var chinaZone = time.FixedZone("CST", 8*3600)

// chinaDate returns the calendar date in China of a Julian day.
func chinaDate(jd float64) time.Time {
	t := timeOfJD(jd).In(chinaZone)
	return civilDate(t.Year(), t.Month(), t.Day())
}

// lunarDate returns the Gregorian date of day `day` of lunar month `month`
// of the Chinese year that begins in Gregorian year y. Leap months are
// placed by the rule of the month without a principal solar term.
func lunarDate(y, month, day int) time.Time {
	months := lunarMonths(y)
	for _, lm := range months {
		if lm.number == month && !lm.leap && lm.year == y {
			return lm.start.AddDate(0, 0, day-1)
		}
	}
	// Unreachable for months 1–12; keep a defined answer anyway.
	return civilDate(y, 1, 1)
}

type lunarMonth struct {
	start  time.Time
	number int
	leap   bool
	year   int // Gregorian year in which the lunar year of this month began
}

// lunarMonths returns the lunar months from the eleventh month of lunar year
// y-1 through the tenth month of year y (those starting after the winter
// solstice of y-1, up to that of y).
func lunarMonths(y int) []lunarMonth {
	solstice := func(year int) time.Time {
		return chinaDate(solarLongitudeEvent(270, julianDay(civilDate(year, 12, 1))))
	}
	// The month containing a solstice starts on the new moon on or before
	// the solstice's China date.
	monthStart := func(date time.Time) (time.Time, float64) {
		jd := newMoonOnOrBefore(julianDay(date.Add(24*time.Hour)) - 8.0/24)
		for chinaDate(jd).After(date) {
			jd = newMoonOnOrBefore(jd - 1)
		}
		return chinaDate(jd), jd
	}
	ws0, ws1 := solstice(y-1), solstice(y)
	_, jd0 := monthStart(ws0)
	end, _ := monthStart(ws1)
	var starts []time.Time
	for jd := jd0; ; {
		d := chinaDate(jd)
		if d.After(end) {
			break
		}
		starts = append(starts, d)
		jd = newMoonOnOrBefore(jd + 31)
	}
	// starts[0] is month 11 of y-1; starts[len-1] is month 11 of y.
	leapIndex := -1
	if len(starts)-1 == 13 {
		for i := 1; i < len(starts)-1; i++ {
			if !hasPrincipalTerm(starts[i], starts[i+1]) {
				leapIndex = i
				break
			}
		}
	}
	out := make([]lunarMonth, 0, len(starts))
	num := 11
	year := y - 1
	for i, s := range starts {
		if i == leapIndex {
			out = append(out, lunarMonth{start: s, number: num, leap: true, year: year})
			continue
		}
		if i > 0 {
			num++
			if num == 13 {
				num = 1
				year = y
			}
		}
		out = append(out, lunarMonth{start: s, number: num, year: year})
	}
	return out
}

// hasPrincipalTerm reports whether a principal solar term (a multiple of
// 30° of solar longitude) falls on a China date in [from, to).
func hasPrincipalTerm(from, to time.Time) bool {
	jd := julianDay(from) - 8.0/24
	lon, _, _, _ := sunCoords(jd)
	next := math.Ceil(lon/30) * 30
	ev := solarLongitudeEvent(norm360deg(next), jd)
	return chinaDate(ev).Before(to)
}

// solarTermDate returns the China date on which the Sun reaches a longitude
// in year y (e.g. 15° is Qingming, early April).
func solarTermDate(y int, longitude float64) time.Time {
	start := julianDay(civilDate(y, 1, 1))
	return chinaDate(solarLongitudeEvent(longitude, start))
}

// CalendarDateError is a date argument that could not be read.
type CalendarDateError struct {
	Value string
	Why   string
}

func (e *CalendarDateError) Error() string { return fmt.Sprintf("invalid date %q: %s", e.Value, e.Why) }

// dateLayouts are the spellings parseDate accepts, ISO first.
var dateLayouts = []string{"2006-01-02", "2006/01/02", "2006.01.02", "20060102", "January 2, 2006", "January 2 2006", "2 January 2006", "Jan 2, 2006", "Jan 2 2006", "2 Jan 2006", "Monday, January 2, 2006", "2006-01-02T15:04:05Z07:00"}

// parseDate reads a calendar date leniently: ISO 8601 and the common
// English spellings. Day-first and month-first numeric forms such as
// 02/06/2025 are ambiguous and rejected with an explanation.
func parseCalendarDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, &CalendarDateError{Value: s, Why: "empty; use YYYY-MM-DD"}
	}
	if len(s) > 64 {
		return time.Time{}, &CalendarDateError{Value: s[:64], Why: "too long; use YYYY-MM-DD"}
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return civilDate(t.Year(), t.Month(), t.Day()), nil
		}
	}
	if strings.Count(s, "/") == 2 {
		parts := strings.Split(s, "/")
		if len(parts[2]) == 4 {
			return time.Time{}, &CalendarDateError{Value: s, Why: "day/month order is ambiguous; use YYYY-MM-DD"}
		}
	}
	if _, err := strconv.Atoi(s); err == nil {
		return time.Time{}, &CalendarDateError{Value: s, Why: "a bare number is not a date; use YYYY-MM-DD"}
	}
	return time.Time{}, &CalendarDateError{Value: s, Why: "not a recognised date; use YYYY-MM-DD"}
}
