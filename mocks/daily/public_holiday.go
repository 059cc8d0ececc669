package daily

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The public_holiday stand-in (Nager.Date's API as republished on RapidAPI):
// holidays are computed from rules in holidays.json — fixed dates, Easter
// offsets, nth weekdays, equinoxes, Chinese lunar dates — with each
// country's weekend-substitution custom applied.

// date computes the rule's date in year y.
func date(r world.HolidayRule, y int) time.Time {
	switch {
	case r.Date != "":
		md, _ := time.Parse("01-02", r.Date)
		return civilDate(y, md.Month(), md.Day())
	case r.Easter != nil:
		return westernEaster(y).AddDate(0, 0, *r.Easter)
	case r.OrthodoxEaster != nil:
		return orthodoxEaster(y).AddDate(0, 0, *r.OrthodoxEaster)
	case r.Weekday != nil:
		d, _ := nthWeekday(y, time.Month(r.Weekday.Month), world.WeekdayNames[r.Weekday.Weekday], r.Weekday.N)
		return d
	case r.WeekdayNear != nil:
		md, _ := time.Parse("01-02", r.WeekdayNear.Date)
		base := civilDate(y, md.Month(), md.Day())
		wd := world.WeekdayNames[r.WeekdayNear.Weekday]
		if r.WeekdayNear.Before {
			return base.AddDate(0, 0, -((int(base.Weekday()) - int(wd) + 7) % 7))
		}
		return base.AddDate(0, 0, (int(wd)-int(base.Weekday())+7)%7)
	case r.Equinox == "march":
		return equinoxDateJapan(y, 80)
	case r.Equinox == "september":
		return equinoxDateJapan(y, 180)
	case r.SolarTerm != nil:
		return solarTermDate(y, *r.SolarTerm)
	case r.Dates != nil:
		md, _ := time.Parse("01-02", r.Dates[fmt.Sprint(y)])
		return civilDate(y, md.Month(), md.Day())
	case r.FridayOrMonday != "":
		md, _ := time.Parse("01-02", r.FridayOrMonday)
		base := civilDate(y, md.Month(), md.Day())
		if base.Weekday() == time.Friday {
			return base
		}
		return base.AddDate(0, 0, (int(time.Monday)-int(base.Weekday())+7)%7)
	default:
		var m, d int
		fmt.Sscanf(r.Lunar, "%d-%d", &m, &d)
		return lunarDate(y, m, d)
	}
}

// equinoxDateJapan is the Japan-time date of an equinox; the Japanese
// government fixes the holiday on it.
func equinoxDateJapan(y int, month int) time.Time {
	target := 0.0
	start := civilDate(y, 3, 1)
	if month == 180 {
		target = 180
		start = civilDate(y, 9, 1)
	}
	jd := solarLongitudeEvent(target, julianDay(start))
	t := timeOfJD(jd).In(time.FixedZone("JST", 9*3600))
	return civilDate(t.Year(), t.Month(), t.Day())
}

// nagerHoliday is one entry of Nager.Date's PublicHoliday list.
type nagerHoliday struct {
	Date        string   `json:"date"`
	LocalName   string   `json:"localName"`
	Name        string   `json:"name"`
	CountryCode string   `json:"countryCode"`
	Fixed       bool     `json:"fixed"`
	Global      bool     `json:"global"`
	Counties    []string `json:"counties"`
	LaunchYear  *int     `json:"launchYear"`
	Types       []string `json:"types"`

	day time.Time
	// mostOfCountry marks a day off for most of the country (see
	// world.HolidayCountry.CountsForLongWeekends).
	mostOfCountry bool
}

// holidaysIn returns a country's holidays in year y, sorted by date. The
// slice is shared; callers must not modify it.
func holidaysIn(c *world.HolidayCountry, y int) []nagerHoliday {
	if v, ok := c.Years.Load(y); ok {
		return v.([]nagerHoliday)
	}
	v, _ := c.Years.LoadOrStore(y, computeYear(c, y))
	return v.([]nagerHoliday)
}

// computeYear applies the rules and the weekend customs to year y.
func computeYear(c *world.HolidayCountry, y int) []nagerHoliday {
	var out []nagerHoliday
	taken := map[time.Time]bool{}
	type pending struct {
		h    nagerHoliday
		mode string
	}
	var shifts []pending
	for _, r := range c.Holidays {
		if !r.Occurs(y) {
			continue
		}
		d := date(r, y)
		h := nagerHoliday{
			LocalName: r.LocalName, Name: r.Name, CountryCode: c.CountryCode,
			Fixed: r.Date != "", Global: len(r.Counties) == 0, LaunchYear: r.LaunchYear,
			Types: r.Types, day: d, mostOfCountry: c.CountsForLongWeekends(r),
		}
		if len(r.Counties) > 0 {
			h.Counties = r.Counties
		}
		if h.Types == nil {
			h.Types = []string{"Public"}
		}
		mode := c.Observed
		if !h.Global {
			mode = ""
		}
		if r.Observed != "" {
			mode = r.Observed
		}
		if mode == "none" {
			mode = ""
		}
		if h.Global {
			taken[d] = true
		}
		shifts = append(shifts, pending{h, mode})
	}
	// Substitutions run in date order so that, for example, Christmas on a
	// Saturday moves to Monday and Boxing Day on the Sunday to Tuesday.
	sort.SliceStable(shifts, func(i, j int) bool { return shifts[i].h.day.Before(shifts[j].h.day) })
	free := func(d time.Time) bool {
		wd := d.Weekday()
		return wd != time.Saturday && wd != time.Sunday && !taken[d]
	}
	for _, p := range shifts {
		h := p.h
		wd := h.day.Weekday()
		switch p.mode {
		case "nearest_weekday":
			switch wd {
			case time.Saturday:
				h.day = h.day.AddDate(0, 0, -1)
			case time.Sunday:
				h.day = h.day.AddDate(0, 0, 1)
			}
		case "next_weekday":
			if wd == time.Saturday || wd == time.Sunday {
				d := h.day.AddDate(0, 0, 1)
				for !free(d) {
					d = d.AddDate(0, 0, 1)
				}
				if h.Global {
					taken[d] = true
				}
				h.day = d
			}
		case "sunday_prev":
			if wd == time.Sunday {
				h.day = h.day.AddDate(0, 0, -1)
			}
		case "sunday_next":
			if wd == time.Sunday && c.Substitute != nil {
				out = append(out, h)
				d := h.day.AddDate(0, 0, 1)
				for taken[d] {
					d = d.AddDate(0, 0, 1)
				}
				taken[d] = true
				out = append(out, nagerHoliday{LocalName: c.Substitute.LocalName, Name: c.Substitute.Name, CountryCode: c.CountryCode, Global: true, Types: []string{"Public"}, day: d, mostOfCountry: true})
				continue
			}
		}
		out = append(out, h)
	}
	if c.Bridge != nil {
		for _, h := range append([]nagerHoliday(nil), out...) {
			d := h.day.AddDate(0, 0, 1)
			if taken[h.day] && !taken[d] && taken[d.AddDate(0, 0, 1)] && d.Weekday() != time.Sunday && d.Weekday() != time.Saturday && d.Year() == y {
				taken[d] = true
				out = append(out, nagerHoliday{LocalName: c.Bridge.LocalName, Name: c.Bridge.Name, CountryCode: c.CountryCode, Global: true, Types: []string{"Public"}, day: d, mostOfCountry: true})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].day.Before(out[j].day) })
	for i := range out {
		out[i].Date = out[i].day.Format(time.DateOnly)
	}
	return out
}

// holidayYearRange is the span Nager.Date answers for.
const (
	holidayMinYear = 1975
	holidayMaxYear = 2075
)

// nagerProblem is ASP.NET Core's problem-details body, which Nager.Date answers errors with.
func nagerProblem(status int, title, detail string) *sandbox.Rejection {
	kind := "https://tools.ietf.org/html/rfc7231#section-6.5.1"
	if status == 404 {
		kind = "https://tools.ietf.org/html/rfc7231#section-6.5.4"
	}
	body := map[string]any{"type": kind, "title": title, "status": status, "traceId": "00-3f1c9e7d2b8a4c6e0d5f1a2b3c4d5e6f-9a8b7c6d5e4f3a2b-00"}
	if detail != "" {
		body["detail"] = detail
	}
	return &sandbox.Rejection{Status: status, Body: body}
}

// holidayArgs reads year and countryCode, with Nager.Date's errors.
func holidayArgs(w *world.World, c *standin.Call) (*world.HolidayCountry, int, error) {
	d := w.Holidays
	yearText := c.ArgString("year")
	year, ok := c.ArgFloat("year")
	if !ok || year != float64(int(year)) {
		return nil, 0, nagerProblem(400, "One or more validation errors occurred.", fmt.Sprintf("The value '%s' is not valid for year.", yearText))
	}
	if int(year) < holidayMinYear || int(year) > holidayMaxYear {
		return nil, 0, nagerProblem(400, "Bad Request", fmt.Sprintf("Year %d is out of range, supported years are %d to %d", int(year), holidayMinYear, holidayMaxYear))
	}
	code := strings.ToUpper(c.ArgString("countryCode"))
	country, found := d.ByCode[code]
	if !found {
		return nil, 0, nagerProblem(404, "Not Found", fmt.Sprintf("CountryCode %q is unknown", c.ArgString("countryCode")))
	}
	return country, int(year), nil
}

func handlePublicHolidays(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	country, year, err := holidayArgs(w, c)
	if err != nil {
		return nil, err
	}
	return holidaysIn(country, year), nil
}

type nagerCountry struct {
	CountryCode string `json:"countryCode"`
	Name        string `json:"name"`
}

func handleAvailableCountries(_ context.Context, w *world.World, _ *standin.Call) (any, error) {
	d := w.Holidays
	out := make([]nagerCountry, len(d.Countries))
	for i, c := range d.Countries {
		out[i] = nagerCountry{CountryCode: c.CountryCode, Name: c.Name}
	}
	return out, nil
}

// nagerLongWeekend is Nager.Date's LongWeekend.
type nagerLongWeekend struct {
	StartDate     string   `json:"startDate"`
	EndDate       string   `json:"endDate"`
	DayCount      int      `json:"dayCount"`
	NeedBridgeDay bool     `json:"needBridgeDay"`
	BridgeDays    []string `json:"bridgeDays"`
}

// longWeekends derives long weekends from the public holidays that are a
// day off for most of the country (nationwide, or in more than half the
// subdivisions — so Canada's Victoria Day and Thanksgiving count):
// runs of three or more days off around a holiday, or four with a single
// bridge day when the holiday falls on a Tuesday or Thursday.
func longWeekends(c *world.HolidayCountry, y int) []nagerLongWeekend {
	off := map[time.Time]bool{}
	var days []time.Time
	for _, yy := range []int{y - 1, y, y + 1} {
		for _, h := range holidaysIn(c, yy) {
			if h.mostOfCountry && contains(h.Types, "Public") {
				off[h.day] = true
				if yy == y {
					days = append(days, h.day)
				}
			}
		}
	}
	isOff := func(d time.Time) bool {
		return off[d] || d.Weekday() == time.Saturday || d.Weekday() == time.Sunday
	}
	seen := map[time.Time]bool{}
	var out []nagerLongWeekend
	for _, h := range days {
		if h.Weekday() == time.Saturday || h.Weekday() == time.Sunday {
			continue
		}
		start, end := h, h
		for isOff(start.AddDate(0, 0, -1)) {
			start = start.AddDate(0, 0, -1)
		}
		for isOff(end.AddDate(0, 0, 1)) {
			end = end.AddDate(0, 0, 1)
		}
		lw := nagerLongWeekend{BridgeDays: []string{}}
		switch n := int(end.Sub(start).Hours()/24) + 1; {
		case n >= 3:
		case h.Weekday() == time.Tuesday && isOff(h.AddDate(0, 0, -2)):
			bridge := h.AddDate(0, 0, -1)
			start = bridge
			for isOff(start.AddDate(0, 0, -1)) {
				start = start.AddDate(0, 0, -1)
			}
			lw.NeedBridgeDay, lw.BridgeDays = true, []string{bridge.Format(time.DateOnly)}
		case h.Weekday() == time.Thursday && isOff(h.AddDate(0, 0, 2)):
			bridge := h.AddDate(0, 0, 1)
			end = bridge
			for isOff(end.AddDate(0, 0, 1)) {
				end = end.AddDate(0, 0, 1)
			}
			lw.NeedBridgeDay, lw.BridgeDays = true, []string{bridge.Format(time.DateOnly)}
		default:
			continue
		}
		if seen[start] {
			continue
		}
		seen[start] = true
		lw.StartDate, lw.EndDate = start.Format(time.DateOnly), end.Format(time.DateOnly)
		lw.DayCount = int(end.Sub(start).Hours()/24) + 1
		out = append(out, lw)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartDate < out[j].StartDate })
	return out
}

func handleLongWeekends(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	country, year, err := holidayArgs(w, c)
	if err != nil {
		return nil, err
	}
	return longWeekends(country, year), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
