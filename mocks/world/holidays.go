package world

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"sync"
	"time"
)

// HolidayRule is one holiday of a country as written in holidays.json.
// Exactly one of the date rules (Date, Easter, OrthodoxEaster, Weekday,
// WeekdayNear, Equinox, SolarTerm, Lunar, FridayOrMonday, Dates) is set.
type HolidayRule struct {
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
	// Dates lists the day ("MM-DD") per year ("YYYY") for a holiday a
	// statute schedules year by year (New Zealand's Matariki); in a year
	// not listed the holiday does not occur.
	Dates map[string]string `json:"dates,omitempty"`
	// Observed overrides the country's substitution custom ("none" disables
	// it). A regional holiday (one with Counties) moves only when its own
	// rule says so: regional substitution customs differ from the national one.
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

// HolidayCountry is one country of holidays.json: its rules and customs.
type HolidayCountry struct {
	CountryCode string `json:"countryCode"`
	Name        string `json:"name"`
	// Source names the published list the rules were checked against.
	Source string `json:"source"`
	// Subdivisions is the number of first-level subdivisions (states,
	// provinces, nations) the counties of regional holidays are drawn
	// from. A regional holiday kept in more than half of them counts as a
	// day off for long weekends (Canada's Victoria Day and Thanksgiving).
	Subdivisions int `json:"subdivisions,omitempty"`
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
	Holidays []HolidayRule `json:"holidays"`

	// years caches computed years (int → []nagerHoliday): the lunar and
	// equinox rules cost a few hundred microseconds per year.
	Years sync.Map `json:"-"`
}

// Holidays is the public-holiday part: the countries of holidays.json.
type Holidays struct {
	Countries []*HolidayCountry          `json:"countries"`
	ByCode    map[string]*HolidayCountry `json:"-"`
}

// WeekdayNames maps lower-case English weekday names to weekdays.
var WeekdayNames = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}

func loadHolidays(fsys fs.FS, _ *World) (*Holidays, error) {
	raw, err := fs.ReadFile(fsys, "holidays.json")
	if err != nil {
		return nil, err
	}
	var d Holidays
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("holidays.json: %w", err)
	}
	d.ByCode = map[string]*HolidayCountry{}
	for i := range d.Countries {
		c := d.Countries[i]
		if _, dup := d.ByCode[c.CountryCode]; dup {
			return nil, fmt.Errorf("holidays.json: country %s listed twice", c.CountryCode)
		}
		d.ByCode[c.CountryCode] = c
		if c.Source == "" {
			return nil, fmt.Errorf("holidays.json: country %s names no source", c.CountryCode)
		}
		for j, r := range c.Holidays {
			if len(r.Counties) > 0 && c.Subdivisions < len(r.Counties) {
				return nil, fmt.Errorf("holidays.json: %s holiday %d (%s): %d counties but the country has %d subdivisions", c.CountryCode, j, r.Name, len(r.Counties), c.Subdivisions)
			}
			if err := r.check(); err != nil {
				return nil, fmt.Errorf("holidays.json: %s holiday %d (%s): %w", c.CountryCode, j, r.Name, err)
			}
		}
	}
	sort.Slice(d.Countries, func(i, j int) bool { return d.Countries[i].CountryCode < d.Countries[j].CountryCode })
	for i := range d.Countries {
		d.ByCode[d.Countries[i].CountryCode] = d.Countries[i]
	}
	return &d, nil
}

// Occurs reports whether the rule gives a holiday in year y.
func (r HolidayRule) Occurs(y int) bool {
	if (r.FromYear != 0 && y < r.FromYear) || (r.ToYear != 0 && y > r.ToYear) {
		return false
	}
	if r.Dates != nil {
		_, ok := r.Dates[fmt.Sprint(y)]
		return ok
	}
	return true
}

// CountsForLongWeekends reports whether the holiday is a day off for most
// of the country: nationwide, or kept in more than half its subdivisions.
func (c *HolidayCountry) CountsForLongWeekends(r HolidayRule) bool {
	return len(r.Counties) == 0 || 2*len(r.Counties) > c.Subdivisions
}

// check verifies that a rule names exactly one well-formed date rule.
func (r HolidayRule) check() error {
	n := 0
	if r.Date != "" {
		n++
		if _, err := time.Parse("01-02", r.Date); err != nil {
			return fmt.Errorf("date %q is not MM-DD", r.Date)
		}
	}
	for _, set := range []bool{r.Easter != nil, r.OrthodoxEaster != nil, r.Weekday != nil, r.WeekdayNear != nil, r.Equinox != "", r.SolarTerm != nil, r.Lunar != "", r.FridayOrMonday != "", r.Dates != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("needs exactly one date rule, has %d", n)
	}
	if r.Weekday != nil {
		if _, ok := WeekdayNames[r.Weekday.Weekday]; !ok || r.Weekday.N == 0 || r.Weekday.N < -1 || r.Weekday.N > 5 {
			return fmt.Errorf("bad weekday rule %+v", *r.Weekday)
		}
	}
	if r.WeekdayNear != nil {
		if _, ok := WeekdayNames[r.WeekdayNear.Weekday]; !ok {
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
	for y, md := range r.Dates {
		if _, err := time.Parse("2006-01-02", y+"-"+md); err != nil {
			return fmt.Errorf("dates entry %q: %q is not YYYY: MM-DD", y, md)
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
