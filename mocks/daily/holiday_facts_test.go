package daily

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

// holidayFacts are dates checked by hand against each country's published
// list (the source holidays.json names per country), for 2024, 2025, 2026
// and 2027 in that order; "" is "not a holiday that year". Each country has
// its movable rules here: Easter-based, "nth weekday of", weekend
// substitutes, lunar and statute-scheduled dates.
var holidayFacts = map[string]map[string][4]string{
	// opm.gov federal holidays: Saturday → Friday, Sunday → Monday.
	"US": {
		"Martin Luther King, Jr. Day":          {"2024-01-15", "2025-01-20", "2026-01-19", "2027-01-18"},
		"Memorial Day":                         {"2024-05-27", "2025-05-26", "2026-05-25", "2027-05-31"},
		"Juneteenth National Independence Day": {"2024-06-19", "2025-06-19", "2026-06-19", "2027-06-18"},
		"Independence Day":                     {"2024-07-04", "2025-07-04", "2026-07-03", "2027-07-05"},
		"Thanksgiving Day":                     {"2024-11-28", "2025-11-27", "2026-11-26", "2027-11-25"},
		"Christmas Day":                        {"2024-12-25", "2025-12-25", "2026-12-25", "2027-12-24"},
	},
	// gov.uk/bank-holidays: a weekend bank holiday's substitute is the next weekday.
	"GB": {
		"Good Friday":            {"2024-03-29", "2025-04-18", "2026-04-03", "2027-03-26"},
		"Easter Monday":          {"2024-04-01", "2025-04-21", "2026-04-06", "2027-03-29"},
		"Early May Bank Holiday": {"2024-05-06", "2025-05-05", "2026-05-04", "2027-05-03"},
		"Spring Bank Holiday":    {"2024-05-27", "2025-05-26", "2026-05-25", "2027-05-31"},
		"Christmas Day":          {"2024-12-25", "2025-12-25", "2026-12-25", "2027-12-27"},
		"St. Stephen's Day":      {"2024-12-26", "2025-12-26", "2026-12-28", "2027-12-28"},
		"2 January":              {"2024-01-02", "2025-01-02", "2026-01-02", "2027-01-04"},
		"Saint Patrick's Day":    {"2024-03-18", "2025-03-17", "2026-03-17", "2027-03-17"},
		"Battle of the Boyne":    {"2024-07-12", "2025-07-14", "2026-07-13", "2027-07-12"},
		"Saint Andrew's Day":     {"2024-12-02", "2025-12-01", "2026-11-30", "2027-11-30"},
	},
	// bmi.bund.de: no weekend substitutes in Germany.
	"DE": {
		"Good Friday":               {"2024-03-29", "2025-04-18", "2026-04-03", "2027-03-26"},
		"Ascension Day":             {"2024-05-09", "2025-05-29", "2026-05-14", "2027-05-06"},
		"Whit Monday":               {"2024-05-20", "2025-06-09", "2026-05-25", "2027-05-17"},
		"Corpus Christi":            {"2024-05-30", "2025-06-19", "2026-06-04", "2027-05-27"},
		"Repentance and Prayer Day": {"2024-11-20", "2025-11-19", "2026-11-18", "2027-11-17"},
	},
	// service-public.fr: Easter Monday, Ascension and Whit Monday are the movable ones.
	"FR": {
		"Easter Monday": {"2024-04-01", "2025-04-21", "2026-04-06", "2027-03-29"},
		"Ascension Day": {"2024-05-09", "2025-05-29", "2026-05-14", "2027-05-06"},
		"Whit Monday":   {"2024-05-20", "2025-06-09", "2026-05-25", "2027-05-17"},
		"Bastille Day":  {"2024-07-14", "2025-07-14", "2026-07-14", "2027-07-14"},
	},
	// Código do Trabalho art. 234.
	"PT": {
		"Good Friday":    {"2024-03-29", "2025-04-18", "2026-04-03", "2027-03-26"},
		"Easter Sunday":  {"2024-03-31", "2025-04-20", "2026-04-05", "2027-03-28"},
		"Corpus Christi": {"2024-05-30", "2025-06-19", "2026-06-04", "2027-05-27"},
		"Freedom Day":    {"2024-04-25", "2025-04-25", "2026-04-25", "2027-04-25"},
	},
	// BOE yearly list: Maundy Thursday in all communities but Catalonia and Valencia.
	"ES": {
		"Maundy Thursday": {"2024-03-28", "2025-04-17", "2026-04-02", "2027-03-25"},
		"Good Friday":     {"2024-03-29", "2025-04-18", "2026-04-03", "2027-03-26"},
		"National Day":    {"2024-10-12", "2025-10-12", "2026-10-12", "2027-10-12"},
	},
	// governo.it: Easter Monday is the one movable holiday; no substitutes.
	"IT": {
		"Easter Monday": {"2024-04-01", "2025-04-21", "2026-04-06", "2027-03-29"},
		"Republic Day":  {"2024-06-02", "2025-06-02", "2026-06-02", "2027-06-02"},
	},
	// Cabinet Office list, substitutes (振替休日) and the Citizens' Holiday included.
	"JP": {
		"Coming of Age Day":    {"2024-01-08", "2025-01-13", "2026-01-12", "2027-01-11"},
		"Vernal Equinox Day":   {"2024-03-20", "2025-03-20", "2026-03-20", "2027-03-21"},
		"Marine Day":           {"2024-07-15", "2025-07-21", "2026-07-20", "2027-07-19"},
		"Autumnal Equinox Day": {"2024-09-22", "2025-09-23", "2026-09-23", "2027-09-23"},
		"Sports Day":           {"2024-10-14", "2025-10-13", "2026-10-12", "2027-10-11"},
		"Substitute Holiday": {"2024-02-12,2024-05-06,2024-08-12,2024-09-23,2024-11-04",
			"2025-02-24,2025-05-06,2025-11-24", "2026-05-06", "2027-03-22"},
		"Citizens' Holiday": {"", "", "2026-09-22", ""},
	},
	// gov.cn notices: the festival's own day.
	"CN": {
		"Chinese New Year (Spring Festival)":    {"2024-02-10", "2025-01-29", "2026-02-17", "2027-02-06"},
		"Qingming Festival (Tomb-Sweeping Day)": {"2024-04-04", "2025-04-04", "2026-04-05", "2027-04-05"},
		"Dragon Boat Festival":                  {"2024-06-10", "2025-05-31", "2026-06-19", "2027-06-09"},
		"Mid-Autumn Festival":                   {"2024-09-17", "2025-10-06", "2026-09-25", "2027-09-15"},
	},
	// gov.br: Carnival Monday and Tuesday, Black Awareness Day national since 2024.
	"BR": {
		"Carnival":            {"2024-02-12,2024-02-13", "2025-03-03,2025-03-04", "2026-02-16,2026-02-17", "2027-02-08,2027-02-09"},
		"Corpus Christi":      {"2024-05-30", "2025-06-19", "2026-06-04", "2027-05-27"},
		"Black Awareness Day": {"2024-11-20", "2025-11-20", "2026-11-20", "2027-11-20"},
	},
	// canada.ca: Victoria Day the Monday before 25 May, Thanksgiving the second Monday of October.
	"CA": {
		"Good Friday":       {"2024-03-29", "2025-04-18", "2026-04-03", "2027-03-26"},
		"Victoria Day":      {"2024-05-20", "2025-05-19", "2026-05-18", "2027-05-24"},
		"Labour Day":        {"2024-09-02", "2025-09-01", "2026-09-07", "2027-09-06"},
		"Thanksgiving":      {"2024-10-14", "2025-10-13", "2026-10-12", "2027-10-11"},
		"Christmas Day":     {"2024-12-25", "2025-12-25", "2026-12-25", "2027-12-27"},
		"St. Stephen's Day": {"2024-12-26", "2025-12-26", "2026-12-28", "2027-12-28"},
	},
	// australia.gov.au: Australia Day on a weekend moves to Monday; Anzac Day does not nationally.
	"AU": {
		"Australia Day":   {"2024-01-26", "2025-01-27", "2026-01-26", "2027-01-26"},
		"Easter Monday":   {"2024-04-01", "2025-04-21", "2026-04-06", "2027-03-29"},
		"Anzac Day":       {"2024-04-25", "2025-04-25", "2026-04-25", "2027-04-25"},
		"King's Birthday": {"2024-06-10", "2025-06-09", "2026-06-08", "2027-06-14"},
	},
	// Orthodox Easter: 5 May 2024, 20 April 2025, 12 April 2026, 2 May 2027.
	"GR": {
		"Clean Monday":  {"2024-03-18", "2025-03-03", "2026-02-23", "2027-03-15"},
		"Good Friday":   {"2024-05-03", "2025-04-18", "2026-04-10", "2027-04-30"},
		"Easter Monday": {"2024-05-06", "2025-04-21", "2026-04-13", "2027-05-03"},
		"Whit Monday":   {"2024-06-24", "2025-06-09", "2026-06-01", "2027-06-21"},
	},
	// rijksoverheid.nl: King's Day on a Sunday is kept the Saturday before.
	"NL": {
		"King's Day":    {"2024-04-27", "2025-04-26", "2026-04-27", "2027-04-27"},
		"Ascension Day": {"2024-05-09", "2025-05-29", "2026-05-14", "2027-05-06"},
		"Whit Monday":   {"2024-05-20", "2025-06-09", "2026-05-25", "2027-05-17"},
	},
	// citizensinformation.ie: St Brigid's Day is 1 February if a Friday, else the first Monday.
	"IE": {
		"Saint Brigid's Day":  {"2024-02-05", "2025-02-03", "2026-02-02", "2027-02-01"},
		"Saint Patrick's Day": {"2024-03-18", "2025-03-17", "2026-03-17", "2027-03-17"},
		"June Holiday":        {"2024-06-03", "2025-06-02", "2026-06-01", "2027-06-07"},
		"October Holiday":     {"2024-10-28", "2025-10-27", "2026-10-26", "2027-10-25"},
	},
	// employment.govt.nz: Mondayised weekend holidays; Matariki from the 2022 Act's schedule.
	"NZ": {
		"Waitangi Day":    {"2024-02-06", "2025-02-06", "2026-02-06", "2027-02-08"},
		"Anzac Day":       {"2024-04-25", "2025-04-25", "2026-04-27", "2027-04-26"},
		"King's Birthday": {"2024-06-03", "2025-06-02", "2026-06-01", "2027-06-07"},
		"Matariki":        {"2024-06-28", "2025-06-20", "2026-07-10", "2027-06-25"},
		"Labour Day":      {"2024-10-28", "2025-10-27", "2026-10-26", "2027-10-25"},
	},
	// Ley Federal del Trabajo art. 74: "first Monday of February" and so on; 1 October of an inauguration year.
	"MX": {
		"Constitution Day":         {"2024-02-05", "2025-02-03", "2026-02-02", "2027-02-01"},
		"Benito Juárez's birthday": {"2024-03-18", "2025-03-17", "2026-03-16", "2027-03-15"},
		"Inauguration Day":         {"2024-10-01", "", "", ""},
		"Revolution Day":           {"2024-11-18", "2025-11-17", "2026-11-16", "2027-11-15"},
	},
}

func TestHolidayFactsEveryCountryEveryYear(t *testing.T) {
	w, err := world.DefaultWorld()
	require.NoError(t, err)
	for _, c := range w.Holidays.Countries {
		facts, ok := holidayFacts[c.CountryCode]
		require.True(t, ok, "%s (%s) has no hand-checked dates", c.CountryCode, c.Name)
		for name, want := range facts {
			for i, year := range []int{2024, 2025, 2026, 2027} {
				got := strings.Join(holidaysByName(t, c.CountryCode, year)[name], ",")
				require.Equal(t, want[i], got, "%s %d %s (source: %s)", c.CountryCode, year, name, c.Source)
			}
		}
	}
	require.Len(t, holidayFacts, len(w.Holidays.Countries), "a country in the table is not in the world")
}

// TestHolidaysGolden pins every holiday of every country for 2024–2027, so
// a change to holidays.json shows in review as dates, not as JSON.
func TestHolidaysGolden(t *testing.T) {
	w, err := world.DefaultWorld()
	require.NoError(t, err)
	s := standintest.New(t, Register)
	var b strings.Builder
	for _, c := range w.Holidays.Countries {
		fmt.Fprintf(&b, "# %s %s — %s\n", c.CountryCode, c.Name, c.Source)
		for _, y := range []int{2024, 2025, 2026, 2027} {
			v, err := s.Call("public_holiday", "public_holidays", map[string]any{"year": float64(y), "countryCode": c.CountryCode})
			require.NoError(t, err)
			for _, h := range v.([]nagerHoliday) {
				where := "national"
				if len(h.Counties) > 0 {
					where = strings.Join(h.Counties, " ")
				}
				fmt.Fprintf(&b, "%s %s %s | %s\n", h.Date, h.day.Weekday().String()[:3], h.Name, where)
			}
			v, err = s.Call("public_holiday", "long_weekends", map[string]any{"year": float64(y), "countryCode": c.CountryCode})
			require.NoError(t, err)
			for _, lw := range v.([]nagerLongWeekend) {
				fmt.Fprintf(&b, "long weekend %s..%s %d days bridge %v\n", lw.StartDate, lw.EndDate, lw.DayCount, lw.BridgeDays)
			}
		}
	}
	golden.Check(t, "testdata/holidays_2024_2027.golden", []byte(b.String()))
}

func TestLongWeekendsCountMostOfCountry(t *testing.T) {
	tests := []struct {
		country string
		year    int
		start   string
		end     string
		why     string
	}{
		{"CA", 2025, "2025-05-17", "2025-05-19", "Victoria Day, kept in most provinces"},
		{"CA", 2025, "2025-10-11", "2025-10-13", "Thanksgiving, kept in most provinces"},
		{"CA", 2025, "2025-08-30", "2025-09-01", "Labour Day, national"},
		{"GB", 2025, "2025-04-18", "2025-04-21", "Good Friday to Easter Monday (England, Wales, Northern Ireland)"},
		{"GB", 2025, "2025-08-23", "2025-08-25", "Summer Bank Holiday (England, Wales, Northern Ireland)"},
		{"GB", 2027, "2027-12-25", "2027-12-28", "Christmas and Boxing Day on the weekend, substitutes Monday and Tuesday"},
		{"ES", 2025, "2025-04-17", "2025-04-20", "Maundy Thursday in most communities"},
	}
	for _, tt := range tests {
		v, err := standintest.New(t, Register).Call("public_holiday", "long_weekends", map[string]any{"year": float64(tt.year), "countryCode": tt.country})
		require.NoError(t, err)
		found := false
		for _, lw := range v.([]nagerLongWeekend) {
			if lw.StartDate == tt.start {
				found = true
				require.Equal(t, tt.end, lw.EndDate, tt.why)
			}
		}
		require.True(t, found, "%s %d: no long weekend from %s (%s)", tt.country, tt.year, tt.start, tt.why)
	}
	// Canada's Civic Holiday is kept in six of thirteen provinces and
	// territories: not a long weekend for the country.
	v, err := standintest.New(t, Register).Call("public_holiday", "long_weekends", map[string]any{"year": float64(2025), "countryCode": "CA"})
	require.NoError(t, err)
	for _, lw := range v.([]nagerLongWeekend) {
		require.NotEqual(t, "2025-08-02", lw.StartDate)
	}
}
