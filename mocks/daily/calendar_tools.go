package daily

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The calendar_tools stand-in (our own tool): a month grid with ISO week
// numbers and, for a country, its public holidays; and the weekday of a date.

// calendarError is the tool's error body: a stable code and a sentence.
func calendarError(code, format string, args ...any) *sandbox.Rejection {
	return &sandbox.Rejection{Status: 400, Body: map[string]any{"error": map[string]any{"code": code, "message": fmt.Sprintf(format, args...)}}}
}

const (
	calendarMinYear = 1583 // first full Gregorian year
	calendarMaxYear = 9999
)

type calendarDay struct {
	Date      string         `json:"date"`
	Day       int            `json:"day"`
	Weekday   string         `json:"weekday"`
	InMonth   bool           `json:"in_month"`
	IsWeekend bool           `json:"is_weekend"`
	IsToday   bool           `json:"is_today"`
	Holiday   *calendarEvent `json:"holiday"`
}

type calendarEvent struct {
	Date      string `json:"date"`
	Name      string `json:"name"`
	LocalName string `json:"local_name"`
}

type calendarWeek struct {
	ISOWeek int           `json:"iso_week"`
	ISOYear int           `json:"iso_year"`
	Days    []calendarDay `json:"days"`
}

type monthCalendar struct {
	Year         int             `json:"year"`
	Month        int             `json:"month"`
	MonthName    string          `json:"month_name"`
	DaysInMonth  int             `json:"days_in_month"`
	FirstWeekday string          `json:"first_weekday"`
	WorkingDays  int             `json:"working_days"`
	Country      *string         `json:"country"`
	Weeks        []calendarWeek  `json:"weeks"`
	Holidays     []calendarEvent `json:"holidays"`
}

// parseMonth reads a month number or an English month name or abbreviation.
func parseMonth(s string) (time.Month, bool) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		if n >= 1 && n <= 12 && n == float64(int(n)) {
			return time.Month(int(n)), true
		}
		return 0, false
	}
	if len(s) < 3 {
		return 0, false
	}
	ls := strings.ToLower(s)
	for m := time.January; m <= time.December; m++ {
		name := strings.ToLower(m.String())
		if ls == name || strings.HasPrefix(name, ls) {
			return m, true
		}
	}
	return 0, false
}

func handleMonthCalendar(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	year, ok := c.ArgFloat("year")
	if !ok || year != float64(int(year)) || year < calendarMinYear || year > calendarMaxYear {
		return nil, calendarError("invalid_year", "year must be a whole number from %d to %d, got %q", calendarMinYear, calendarMaxYear, c.ArgString("year"))
	}
	month, ok := parseMonth(c.ArgString("month"))
	if !ok {
		return nil, calendarError("invalid_month", "month must be 1-12 or a month name, got %q", c.ArgString("month"))
	}
	y := int(year)
	out := monthCalendar{Year: y, Month: int(month), MonthName: month.String(), Holidays: []calendarEvent{}}
	holidays := map[string]*calendarEvent{}
	if code := strings.ToUpper(c.ArgString("country")); code != "" {
		d := w.Holidays
		country, found := d.ByCode[code]
		if !found {
			return nil, calendarError("unknown_country", "no holiday calendar for country %q; see public_holiday available_countries", c.ArgString("country"))
		}
		out.Country = &country.CountryCode
		if y >= holidayMinYear && y <= holidayMaxYear {
			for _, h := range holidaysIn(country, y) {
				if h.day.Month() == month && h.day.Year() == y && h.Global {
					ev := calendarEvent{Date: h.Date, Name: h.Name, LocalName: h.LocalName}
					out.Holidays = append(out.Holidays, ev)
					if holidays[h.Date] == nil {
						holidays[h.Date] = &ev
					}
				}
			}
		}
	}
	first := civilDate(y, month, 1)
	last := civilDate(y, month+1, 0)
	out.DaysInMonth = last.Day()
	out.FirstWeekday = first.Weekday().String()
	today := civilDate(c.Now.Year(), c.Now.Month(), c.Now.Day())
	// Weeks run Monday to Sunday, as ISO 8601 numbers them.
	start := first.AddDate(0, 0, -((int(first.Weekday()) + 6) % 7))
	for wk := start; !wk.After(last); wk = wk.AddDate(0, 0, 7) {
		iy, iw := wk.ISOWeek()
		week := calendarWeek{ISOWeek: iw, ISOYear: iy}
		for i := range 7 {
			d := wk.AddDate(0, 0, i)
			ds := d.Format(time.DateOnly)
			weekend := d.Weekday() == time.Saturday || d.Weekday() == time.Sunday
			day := calendarDay{Date: ds, Day: d.Day(), Weekday: d.Weekday().String(), InMonth: d.Month() == month, IsWeekend: weekend, IsToday: d.Equal(today)}
			if day.InMonth {
				day.Holiday = holidays[ds]
				if !weekend && day.Holiday == nil {
					out.WorkingDays++
				}
			}
			week.Days = append(week.Days, day)
		}
		out.Weeks = append(out.Weeks, week)
	}
	return out, nil
}

type dayOfWeek struct {
	Date          string `json:"date"`
	DayOfWeek     string `json:"day_of_week"`
	ISOWeekday    int    `json:"iso_weekday"`
	ISOWeek       int    `json:"iso_week"`
	ISOYear       int    `json:"iso_year"`
	DayOfYear     int    `json:"day_of_year"`
	Quarter       int    `json:"quarter"`
	IsWeekend     bool   `json:"is_weekend"`
	IsLeapYear    bool   `json:"is_leap_year"`
	DaysInMonth   int    `json:"days_in_month"`
	DaysFromToday int    `json:"days_from_today"`
}

func handleDayOfWeek(_ context.Context, _ *world.World, c *standin.Call) (any, error) {
	d, err := parseCalendarDate(c.ArgString("date"))
	if err != nil {
		return nil, calendarError("invalid_date", "%v", err)
	}
	if d.Year() < calendarMinYear || d.Year() > calendarMaxYear {
		return nil, calendarError("invalid_date", "year %d is outside %d-%d", d.Year(), calendarMinYear, calendarMaxYear)
	}
	iy, iw := d.ISOWeek()
	y := d.Year()
	today := civilDate(c.Now.Year(), c.Now.Month(), c.Now.Day())
	return dayOfWeek{
		Date:          d.Format(time.DateOnly),
		DayOfWeek:     d.Weekday().String(),
		ISOWeekday:    (int(d.Weekday())+6)%7 + 1,
		ISOWeek:       iw,
		ISOYear:       iy,
		DayOfYear:     d.YearDay(),
		Quarter:       (int(d.Month())-1)/3 + 1,
		IsWeekend:     d.Weekday() == time.Saturday || d.Weekday() == time.Sunday,
		IsLeapYear:    y%4 == 0 && (y%100 != 0 || y%400 == 0),
		DaysInMonth:   civilDate(y, d.Month()+1, 0).Day(),
		DaysFromToday: int(d.Sub(today).Hours() / 24),
	}, nil
}
