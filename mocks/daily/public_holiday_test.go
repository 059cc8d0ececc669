package daily

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

func TestEasterDates(t *testing.T) {
	tests := []struct {
		year     int
		western  string
		orthodox string
	}{
		{2024, "2024-03-31", "2024-05-05"},
		{2025, "2025-04-20", "2025-04-20"},
		{2023, "2023-04-09", "2023-04-16"},
		{2019, "2019-04-21", "2019-04-28"},
		{2038, "2038-04-25", "2038-04-25"},
		{2000, "2000-04-23", "2000-04-30"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.western, westernEaster(tt.year).Format(time.DateOnly), "western %d", tt.year)
		require.Equal(t, tt.orthodox, orthodoxEaster(tt.year).Format(time.DateOnly), "orthodox %d", tt.year)
	}
}

func TestNthWeekday(t *testing.T) {
	d, ok := nthWeekday(2025, time.November, time.Thursday, 4)
	require.True(t, ok)
	require.Equal(t, "2025-11-27", d.Format(time.DateOnly))
	d, ok = nthWeekday(2025, time.May, time.Monday, -1)
	require.True(t, ok)
	require.Equal(t, "2025-05-26", d.Format(time.DateOnly))
	_, ok = nthWeekday(2025, time.February, time.Monday, 5)
	require.False(t, ok, "February 2025 has four Mondays")
}

func TestLunarCalendar(t *testing.T) {
	tests := []struct {
		year                       int
		newYear, dragon, midAutumn string
	}{
		{2020, "2020-01-25", "2020-06-25", "2020-10-01"}, // leap fourth month
		{2023, "2023-01-22", "2023-06-22", "2023-09-29"}, // leap second month
		{2024, "2024-02-10", "2024-06-10", "2024-09-17"},
		{2025, "2025-01-29", "2025-05-31", "2025-10-06"}, // leap sixth month
		{2033, "2033-01-31", "2033-06-01", "2033-09-08"}, // the leap-eleventh-month year
		{2034, "2034-02-19", "2034-06-20", "2034-09-27"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.newYear, lunarDate(tt.year, 1, 1).Format(time.DateOnly), "new year %d", tt.year)
		require.Equal(t, tt.dragon, lunarDate(tt.year, 5, 5).Format(time.DateOnly), "dragon boat %d", tt.year)
		require.Equal(t, tt.midAutumn, lunarDate(tt.year, 8, 15).Format(time.DateOnly), "mid-autumn %d", tt.year)
	}
	require.Equal(t, "2025-04-04", solarTermDate(2025, 15).Format(time.DateOnly), "Qingming 2025")
	require.Equal(t, "2024-04-04", solarTermDate(2024, 15).Format(time.DateOnly), "Qingming 2024")
}

// holidayOn returns the holidays of a country in a year by English name.
func holidaysByName(t *testing.T, code string, year int) map[string][]string {
	t.Helper()
	v, err := standintest.New(t, Register).Call("public_holiday", "public_holidays", map[string]any{"year": float64(year), "countryCode": code})
	require.NoError(t, err)
	out := map[string][]string{}
	for _, h := range v.([]nagerHoliday) {
		out[h.Name] = append(out[h.Name], h.Date)
	}
	return out
}

func TestPublicHolidaysKnownDates(t *testing.T) {
	tests := []struct {
		country string
		year    int
		name    string
		want    []string
	}{
		{"US", 2025, "Thanksgiving Day", []string{"2025-11-27"}},
		{"US", 2025, "Memorial Day", []string{"2025-05-26"}},
		{"US", 2026, "Independence Day", []string{"2026-07-03"}}, // Saturday → Friday
		{"US", 2020, "Juneteenth National Independence Day", nil},
		{"GB", 2025, "Early May Bank Holiday", []string{"2025-05-05"}},
		{"GB", 2025, "Good Friday", []string{"2025-04-18"}},
		{"GB", 2021, "Christmas Day", []string{"2021-12-27"}}, // Saturday → Monday
		{"GB", 2021, "St. Stephen's Day", []string{"2021-12-28"}},
		{"GR", 2025, "Easter Sunday", []string{"2025-04-20"}},
		{"GR", 2024, "Easter Monday", []string{"2024-05-06"}},
		{"GR", 2025, "Clean Monday", []string{"2025-03-03"}},
		{"DE", 2025, "Repentance and Prayer Day", []string{"2025-11-19"}},
		{"DE", 2025, "Ascension Day", []string{"2025-05-29"}},
		{"JP", 2025, "Vernal Equinox Day", []string{"2025-03-20"}},
		{"JP", 2025, "Autumnal Equinox Day", []string{"2025-09-23"}},
		{"JP", 2025, "Substitute Holiday", []string{"2025-02-24", "2025-05-06", "2025-11-24"}},
		{"JP", 2026, "Citizens' Holiday", []string{"2026-09-22"}},
		{"CN", 2025, "Chinese New Year (Spring Festival)", []string{"2025-01-29"}},
		{"CN", 2025, "Qingming Festival (Tomb-Sweeping Day)", []string{"2025-04-04"}},
		{"CA", 2025, "Victoria Day", []string{"2025-05-19"}},
		{"IE", 2025, "Saint Brigid's Day", []string{"2025-02-03"}},
		{"IE", 2030, "Saint Brigid's Day", []string{"2030-02-01"}},
		{"NL", 2025, "King's Day", []string{"2025-04-26"}},
		{"IT", 2025, "Republic Day", []string{"2025-06-02"}},
		{"BR", 2025, "Carnival", []string{"2025-03-03", "2025-03-04"}},
		{"AU", 2027, "Anzac Day", []string{"2027-04-25"}}, // Sunday, not moved
	}
	for _, tt := range tests {
		got := holidaysByName(t, tt.country, tt.year)
		require.Equal(t, tt.want, got[tt.name], "%s %d %s", tt.country, tt.year, tt.name)
	}
}

func TestPublicHolidaysShape(t *testing.T) {
	v, err := standintest.New(t, Register).Call("public_holiday", "public_holidays", map[string]any{"year": "2025", "countryCode": "us"})
	require.NoError(t, err)
	doc, _ := standintest.PlainJSON(t, v)
	list := doc.([]any)
	require.Len(t, list, 12)
	first := list[0].(map[string]any)
	require.Equal(t, map[string]any{"date": "2025-01-01", "localName": "New Year's Day", "name": "New Year's Day", "countryCode": "US", "fixed": true, "global": true, "counties": nil, "launchYear": nil, "types": []any{"Public"}}, first)
	prev := ""
	for _, e := range list {
		d := e.(map[string]any)["date"].(string)
		require.LessOrEqual(t, prev, d, "sorted by date")
		prev = d
	}
}

func TestPublicHolidaysErrors(t *testing.T) {
	_, err := standintest.New(t, Register).Call("public_holiday", "public_holidays", map[string]any{"year": float64(2025), "countryCode": "XX"})
	body := standintest.Rejected(t, err, 404)
	require.Equal(t, "Not Found", body["title"])
	_, err = standintest.New(t, Register).Call("public_holiday", "public_holidays", map[string]any{"year": "twenty", "countryCode": "US"})
	standintest.Rejected(t, err, 400)
	_, err = standintest.New(t, Register).Call("public_holiday", "long_weekends", map[string]any{"year": float64(1200), "countryCode": "US"})
	body = standintest.Rejected(t, err, 400)
	require.Contains(t, body["detail"], "out of range")
}

func TestAvailableCountries(t *testing.T) {
	v, err := standintest.New(t, Register).Call("public_holiday", "available_countries", nil)
	require.NoError(t, err)
	list := v.([]nagerCountry)
	require.GreaterOrEqual(t, len(list), 15)
	codes := map[string]bool{}
	for i, c := range list {
		codes[c.CountryCode] = true
		if i > 0 {
			require.Less(t, list[i-1].CountryCode, c.CountryCode)
		}
		// Every listed country answers public_holidays.
		_, err := standintest.New(t, Register).Call("public_holiday", "public_holidays", map[string]any{"year": float64(2025), "countryCode": c.CountryCode})
		require.NoError(t, err, c.CountryCode)
	}
	for _, c := range []string{"US", "GB", "DE", "FR", "PT", "ES", "IT", "JP", "CN", "BR", "CA", "AU", "GR", "NL", "IE"} {
		require.True(t, codes[c], c)
	}
}

func TestLongWeekends(t *testing.T) {
	v, err := standintest.New(t, Register).Call("public_holiday", "long_weekends", map[string]any{"year": float64(2025), "countryCode": "US"})
	require.NoError(t, err)
	byStart := map[string]nagerLongWeekend{}
	for _, lw := range v.([]nagerLongWeekend) {
		byStart[lw.StartDate] = lw
		require.GreaterOrEqual(t, lw.DayCount, 3)
	}
	require.Equal(t, nagerLongWeekend{StartDate: "2025-05-24", EndDate: "2025-05-26", DayCount: 3, BridgeDays: []string{}}, byStart["2025-05-24"])
	require.Equal(t, nagerLongWeekend{StartDate: "2025-11-27", EndDate: "2025-11-30", DayCount: 4, NeedBridgeDay: true, BridgeDays: []string{"2025-11-28"}}, byStart["2025-11-27"])
	// Easter in Germany: Good Friday to Easter Monday is four days.
	v, err = standintest.New(t, Register).Call("public_holiday", "long_weekends", map[string]any{"year": float64(2025), "countryCode": "DE"})
	require.NoError(t, err)
	found := false
	for _, lw := range v.([]nagerLongWeekend) {
		if lw.StartDate == "2025-04-18" {
			found = true
			require.Equal(t, "2025-04-21", lw.EndDate)
			require.Equal(t, 4, lw.DayCount)
		}
	}
	require.True(t, found)
}

func TestHolidaysDeterministic(t *testing.T) {
	args := map[string]any{"year": float64(2025), "countryCode": "JP"}
	a, err := standintest.New(t, Register).Call("public_holiday", "public_holidays", args)
	require.NoError(t, err)
	b, err := standintest.New(t, Register).Call("public_holiday", "public_holidays", args)
	require.NoError(t, err)
	_, ab := standintest.PlainJSON(t, a)
	_, bb := standintest.PlainJSON(t, b)
	require.Equal(t, ab, bb)
	c, err := standintest.New(t, Register).Call("public_holiday", "public_holidays", map[string]any{"year": float64(2026), "countryCode": "JP"})
	require.NoError(t, err)
	_, cb := standintest.PlainJSON(t, c)
	require.NotEqual(t, ab, cb)
}

func BenchmarkPublicHolidays(b *testing.B) {
	args := map[string]any{"year": float64(2025), "countryCode": "CN"}
	for b.Loop() {
		if _, err := standintest.New(b, Register).Call("public_holiday", "public_holidays", args); err != nil {
			b.Fatal(err)
		}
	}
}
