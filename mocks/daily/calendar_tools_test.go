package daily

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

func TestMonthCalendar(t *testing.T) {
	v, err := standintest.New(t, Register).Call("calendar_tools", "check_month_calendar", map[string]any{"year": float64(2025), "month": float64(12), "country": "GB"})
	require.NoError(t, err)
	mc := v.(monthCalendar)
	require.Equal(t, "December", mc.MonthName)
	require.Equal(t, 31, mc.DaysInMonth)
	require.Equal(t, "Monday", mc.FirstWeekday)
	require.Len(t, mc.Weeks, 5)
	require.Equal(t, 49, mc.Weeks[0].ISOWeek)
	// The last week of December 2025 is ISO week 1 of 2026.
	require.Equal(t, 1, mc.Weeks[4].ISOWeek)
	require.Equal(t, 2026, mc.Weeks[4].ISOYear)
	require.Equal(t, []calendarEvent{{"2025-12-25", "Christmas Day", "Christmas Day"}, {"2025-12-26", "St. Stephen's Day", "Boxing Day"}}, mc.Holidays)
	require.Equal(t, 21, mc.WorkingDays) // 23 weekdays less two holidays
	day := mc.Weeks[3].Days[3]
	require.Equal(t, "2025-12-25", day.Date)
	require.NotNil(t, day.Holiday)

	// Month names work; days outside the month pad the first and last weeks.
	v, err = standintest.New(t, Register).Call("calendar_tools", "check_month_calendar", map[string]any{"year": "2025", "month": "June"})
	require.NoError(t, err)
	mc = v.(monthCalendar)
	require.Nil(t, mc.Country)
	require.Empty(t, mc.Holidays)
	require.Equal(t, "2025-05-26", mc.Weeks[0].Days[0].Date)
	require.False(t, mc.Weeks[0].Days[0].InMonth)
	require.True(t, mc.Weeks[1].Days[0].IsToday) // 2025-06-02, the frozen date
	require.Len(t, mc.Weeks, 6)
}

func TestMonthCalendarErrors(t *testing.T) {
	for _, args := range []map[string]any{
		{"year": float64(2025), "month": float64(13)},
		{"year": float64(2025), "month": "Ju"},
		{"year": float64(99), "month": float64(1)},
		{"year": "soon", "month": float64(1)},
		{"year": float64(2025), "month": float64(1), "country": "ZZ"},
	} {
		_, err := standintest.New(t, Register).Call("calendar_tools", "check_month_calendar", args)
		body := standintest.Rejected(t, err, 400)
		require.Contains(t, body, "error")
	}
}

func TestDayOfWeek(t *testing.T) {
	tests := []struct {
		in, date, dow string
		isoWeek       int
	}{
		{"2025-06-02", "2025-06-02", "Monday", 23},
		{"June 2, 2025", "2025-06-02", "Monday", 23},
		{"2024/02/29", "2024-02-29", "Thursday", 9},
		{"2027-01-01", "2027-01-01", "Friday", 53},
		{"1969-07-20", "1969-07-20", "Sunday", 29},
	}
	for _, tt := range tests {
		v, err := standintest.New(t, Register).Call("calendar_tools", "day_of_week", map[string]any{"date": tt.in})
		require.NoError(t, err, tt.in)
		d := v.(dayOfWeek)
		require.Equal(t, tt.date, d.Date)
		require.Equal(t, tt.dow, d.DayOfWeek, tt.in)
		require.Equal(t, tt.isoWeek, d.ISOWeek, tt.in)
	}
	v, err := standintest.New(t, Register).Call("calendar_tools", "day_of_week", map[string]any{"date": "2025-06-07"})
	require.NoError(t, err)
	d := v.(dayOfWeek)
	require.True(t, d.IsWeekend)
	require.Equal(t, 5, d.DaysFromToday)
	require.Equal(t, 158, d.DayOfYear)
	for _, bad := range []string{"02/06/2025", "tomorrow", "2025-02-30", "", "20250"} {
		_, err := standintest.New(t, Register).Call("calendar_tools", "day_of_week", map[string]any{"date": bad})
		standintest.Rejected(t, err, 400)
	}
}

func TestCalendarGolden(t *testing.T) {
	standintest.GoldenCalls(t, "calendar_holidays.golden.json", standintest.New(t, Register), []standintest.Case{
		{Name: "check_month_calendar", Tool: "calendar_tools", API: "check_month_calendar", Args: map[string]any{"year": float64(2025), "month": float64(6), "country": "US"}},
		{Name: "day_of_week", Tool: "calendar_tools", API: "day_of_week", Args: map[string]any{"date": "2025-06-02"}},
		{Name: "public_holidays", Tool: "public_holiday", API: "public_holidays", Args: map[string]any{"year": float64(2025), "countryCode": "US"}},
		{Name: "public_holidays_jp", Tool: "public_holiday", API: "public_holidays", Args: map[string]any{"year": float64(2025), "countryCode": "JP"}},
		{Name: "available_countries", Tool: "public_holiday", API: "available_countries", Args: nil},
		{Name: "long_weekends", Tool: "public_holiday", API: "long_weekends", Args: map[string]any{"year": float64(2025), "countryCode": "US"}},
		{Name: "public_holidays_unknown", Tool: "public_holiday", API: "public_holidays", Args: map[string]any{"year": float64(2025), "countryCode": "XX"}},
	})
}

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2025-06-02", "June 2, 2025", "02/06/2025", "", "2025-13-01", "20250602", "9999-12-31", "0000-01-01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseCalendarDate(s)
		if err != nil {
			_, ok := err.(*CalendarDateError)
			require.True(t, ok)
			return
		}
		require.Equal(t, time.UTC, d.Location())
		require.Zero(t, d.Hour())
	})
}

func FuzzParseMonth(f *testing.F) {
	for _, s := range []string{"6", "June", "jun", "13", "0", "", "6.5", "Sept"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if m, ok := parseMonth(s); ok {
			require.True(t, m >= time.January && m <= time.December)
		}
	})
}

func BenchmarkMonthCalendar(b *testing.B) {
	args := map[string]any{"year": float64(2025), "month": float64(6), "country": "US"}
	for b.Loop() {
		if _, err := standintest.New(b, Register).Call("calendar_tools", "check_month_calendar", args); err != nil {
			b.Fatal(err)
		}
	}
}
