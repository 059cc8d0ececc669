package mocks

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/understudy/understudy/sandbox"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"
)

// The public_holiday stand-in (Nager.Date's API as republished on RapidAPI):
// holidays are computed from rules in holidays.json — fixed dates, Easter
// offsets, nth weekdays, equinoxes, Chinese lunar dates — with each
// country's weekend-substitution custom applied.

func init() {
	register("public_holiday", "public_holidays", handlePublicHolidays)
	register("public_holiday", "available_countries", handleAvailableCountries)
	register("public_holiday", "long_weekends", handleLongWeekends)
}

// holidayRule is one holiday of a country as written in holidays.json.
// Exactly one of the date rules (Date, Easter, OrthodoxEaster, Weekday,
// WeekdayNear, Equinox, SolarTerm, Lunar) is set.
type holidayRule struct {
	LocalName string   `json:"localName"`
	Name      string   `json:"name"`
	Types     []string `json:"types"`
	Counties  []string `json:"counties,omitempty"`
	// LaunchYear is the first year the holiday was observed, as Nager reports it.
	LaunchYear *int `json:"launchYear,omitempty"`
	FromYear   int  `json:"fromYear,omitempty"`
	ToYear     int  `json:"toYear,omitempty"`

	Date           string       `json:"date,omitempty"` // "MM-DD"
	Easter         *int         `json:"easter,omitempty"`
	OrthodoxEaster *int         `json:"orthodoxEaster,omitempty"`
	Weekday        *weekdayRule `json:"weekday,omitempty"`
	WeekdayNear    *nearRule    `json:"weekdayNear,omitempty"`
	Equinox        string       `json:"equinox,omitempty"` // "march" or "september"
	SolarTerm      *float64     `json:"solarTerm,omitempty"`
	Lunar          string       `json:"lunar,omitempty"` // "M-D" of the Chinese calendar
	// FridayOrMonday is "MM-DD if that is a Friday, else the first Monday
	// on or after it" (Ireland's St Brigid's Day).
	FridayOrMonday string `json:"fridayOrMonday,omitempty"`
	// Observed overrides the country's substitution custom ("none" disables it).
	Observed string `json:"observed,omitempty"`
}

// weekdayRule is "the Nth <weekday> of <month>"; N = -1 is the last.
type weekdayRule struct {
	Month   int    `json:"month"`
	Weekday string `json:"weekday"`
	N       int    `json:"n"`
}

// nearRule is "the <weekday> on or after (or, with Before, on or before) MM-DD".
type nearRule struct {
	Date    string `json:"date"`
	Weekday string `json:"weekday"`
	Before  bool   `json:"before,omitempty"`
}

type holidayCountry struct {
	CountryCode string `json:"countryCode"`
	Name        string `json:"name"`
	// Observed is the weekend custom: "nearest_weekday" (Saturday → Friday,
	// Sunday → Monday), "next_weekday" (either → the next free weekday),
	// "sunday_prev" (Sunday → Saturday),
	// "sunday_next" (Sunday → the next free day, kept as an extra
	// "substitute" entry), or "" for none.
	Observed   string `json:"observed,omitempty"`
	Substitute *struct {
		LocalName string `json:"localName"`
		Name      string `json:"name"`
	} `json:"substitute,omitempty"`
	// Bridge names the holiday given to a weekday wedged between two
	// holidays (Japan's Citizens' Holiday).
	Bridge *struct {
		LocalName string `json:"localName"`
		Name      string `json:"name"`
	} `json:"bridge,omitempty"`
	Holidays []holidayRule `json:"holidays"`

	// years caches computed years (int → []nagerHoliday): the lunar and
	// equinox rules cost a few hundred microseconds per year.
	years sync.Map
}

type holidayData struct {
	Countries []*holidayCountry `json:"countries"`
	byCode    map[string]*holidayCountry
}

var weekdayNames = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}

func loadHolidays(fsys fs.FS, _ *World) (*holidayData, error) {
	raw, err := fs.ReadFile(fsys, "holidays.json")
	if err != nil {
		return nil, err
	}
	var d holidayData
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("holidays.json: %w", err)
	}
	d.byCode = map[string]*holidayCountry{}
	for i := range d.Countries {
		c := d.Countries[i]
		if _, dup := d.byCode[c.CountryCode]; dup {
			return nil, fmt.Errorf("holidays.json: country %s listed twice", c.CountryCode)
		}
		d.byCode[c.CountryCode] = c
		for j, r := range c.Holidays {
			if err := r.check(); err != nil {
				return nil, fmt.Errorf("holidays.json: %s holiday %d (%s): %w", c.CountryCode, j, r.Name, err)
			}
		}
	}
	sort.Slice(d.Countries, func(i, j int) bool { return d.Countries[i].CountryCode < d.Countries[j].CountryCode })
	for i := range d.Countries {
		d.byCode[d.Countries[i].CountryCode] = d.Countries[i]
	}
	return &d, nil
}

// check verifies that a rule names exactly one well-formed date rule.
func (r holidayRule) check() error {
	n := 0
	if r.Date != "" {
		n++
		if _, err := time.Parse("01-02", r.Date); err != nil {
			return fmt.Errorf("date %q is not MM-DD", r.Date)
		}
	}
	for _, set := range []bool{r.Easter != nil, r.OrthodoxEaster != nil, r.Weekday != nil, r.WeekdayNear != nil, r.Equinox != "", r.SolarTerm != nil, r.Lunar != "", r.FridayOrMonday != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("needs exactly one date rule, has %d", n)
	}
	if r.Weekday != nil {
		if _, ok := weekdayNames[r.Weekday.Weekday]; !ok || r.Weekday.N == 0 || r.Weekday.N < -1 || r.Weekday.N > 5 {
			return fmt.Errorf("bad weekday rule %+v", *r.Weekday)
		}
	}
	if r.WeekdayNear != nil {
		if _, ok := weekdayNames[r.WeekdayNear.Weekday]; !ok {
			return fmt.Errorf("bad weekday %q", r.WeekdayNear.Weekday)
		}
		if _, err := time.Parse("01-02", r.WeekdayNear.Date); err != nil {
			return fmt.Errorf("date %q is not MM-DD", r.WeekdayNear.Date)
		}
	}
	if r.FridayOrMonday != "" {
		if _, err := time.Parse("01-02", r.FridayOrMonday); err != nil {
			return fmt.Errorf("date %q is not MM-DD", r.FridayOrMonday)
		}
	}
	if r.Lunar != "" {
		var m, d int
		if _, err := fmt.Sscanf(r.Lunar, "%d-%d", &m, &d); err != nil || m < 1 || m > 12 || d < 1 || d > 30 {
			return fmt.Errorf("lunar date %q is not M-D", r.Lunar)
		}
	}
	if r.Equinox != "" && r.Equinox != "march" && r.Equinox != "september" {
		return fmt.Errorf("equinox %q is not march or september", r.Equinox)
	}
	return nil
}

// date computes the rule's date in year y.
func (r holidayRule) date(y int) time.Time {
	switch {
	case r.Date != "":
		md, _ := time.Parse("01-02", r.Date)
		return civilDate(y, md.Month(), md.Day())
	case r.Easter != nil:
		return westernEaster(y).AddDate(0, 0, *r.Easter)
	case r.OrthodoxEaster != nil:
		return orthodoxEaster(y).AddDate(0, 0, *r.OrthodoxEaster)
	case r.Weekday != nil:
		d, _ := nthWeekday(y, time.Month(r.Weekday.Month), weekdayNames[r.Weekday.Weekday], r.Weekday.N)
		return d
	case r.WeekdayNear != nil:
		md, _ := time.Parse("01-02", r.WeekdayNear.Date)
		base := civilDate(y, md.Month(), md.Day())
		wd := weekdayNames[r.WeekdayNear.Weekday]
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
}

// holidaysIn returns a country's holidays in year y, sorted by date. The
// slice is shared; callers must not modify it.
func (c *holidayCountry) holidaysIn(y int) []nagerHoliday {
	if v, ok := c.years.Load(y); ok {
		return v.([]nagerHoliday)
	}
	v, _ := c.years.LoadOrStore(y, c.computeYear(y))
	return v.([]nagerHoliday)
}

// computeYear applies the rules and the weekend customs to year y.
func (c *holidayCountry) computeYear(y int) []nagerHoliday {
	var out []nagerHoliday
	taken := map[time.Time]bool{}
	type pending struct {
		h    nagerHoliday
		mode string
	}
	var shifts []pending
	for _, r := range c.Holidays {
		if (r.FromYear != 0 && y < r.FromYear) || (r.ToYear != 0 && y > r.ToYear) {
			continue
		}
		d := r.date(y)
		h := nagerHoliday{
			LocalName: r.LocalName, Name: r.Name, CountryCode: c.CountryCode,
			Fixed: r.Date != "", Global: len(r.Counties) == 0, LaunchYear: r.LaunchYear,
			Types: r.Types, day: d,
		}
		if len(r.Counties) > 0 {
			h.Counties = r.Counties
		}
		if h.Types == nil {
			h.Types = []string{"Public"}
		}
		mode := c.Observed
		if r.Observed != "" {
			mode = r.Observed
		}
		if mode == "none" || !h.Global {
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
				taken[d] = true
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
				out = append(out, nagerHoliday{LocalName: c.Substitute.LocalName, Name: c.Substitute.Name, CountryCode: c.CountryCode, Global: true, Types: []string{"Public"}, day: d})
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
				out = append(out, nagerHoliday{LocalName: c.Bridge.LocalName, Name: c.Bridge.Name, CountryCode: c.CountryCode, Global: true, Types: []string{"Public"}, day: d})
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
func holidayArgs(w *World, c *Call) (*holidayCountry, int, error) {
	d := w.holidays
	yearText := c.argString("year")
	year, ok := c.argFloat("year")
	if !ok || year != float64(int(year)) {
		return nil, 0, nagerProblem(400, "One or more validation errors occurred.", fmt.Sprintf("The value '%s' is not valid for year.", yearText))
	}
	if int(year) < holidayMinYear || int(year) > holidayMaxYear {
		return nil, 0, nagerProblem(400, "Bad Request", fmt.Sprintf("Year %d is out of range, supported years are %d to %d", int(year), holidayMinYear, holidayMaxYear))
	}
	code := strings.ToUpper(c.argString("countryCode"))
	country, found := d.byCode[code]
	if !found {
		return nil, 0, nagerProblem(404, "Not Found", fmt.Sprintf("CountryCode %q is unknown", c.argString("countryCode")))
	}
	return country, int(year), nil
}

func handlePublicHolidays(_ context.Context, w *World, c *Call) (any, error) {
	country, year, err := holidayArgs(w, c)
	if err != nil {
		return nil, err
	}
	return country.holidaysIn(year), nil
}

type nagerCountry struct {
	CountryCode string `json:"countryCode"`
	Name        string `json:"name"`
}

func handleAvailableCountries(_ context.Context, w *World, _ *Call) (any, error) {
	d := w.holidays
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

// longWeekends derives long weekends from the nationwide public holidays:
// runs of three or more days off around a holiday, or four with a single
// bridge day when the holiday falls on a Tuesday or Thursday.
func (c *holidayCountry) longWeekends(y int) []nagerLongWeekend {
	off := map[time.Time]bool{}
	var days []time.Time
	for _, yy := range []int{y - 1, y, y + 1} {
		for _, h := range c.holidaysIn(yy) {
			if h.Global && dContains(h.Types, "Public") {
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

func handleLongWeekends(_ context.Context, w *World, c *Call) (any, error) {
	country, year, err := holidayArgs(w, c)
	if err != nil {
		return nil, err
	}
	return country.longWeekends(year), nil
}

func dContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
