package basic

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

func TestBasicAgentClock(t *testing.T) {
	r := standintest.New(t, Register).WithDefaults().Object("agent_clock", "get_current_time", nil)
	require.Equal(t, "Europe/Lisbon", r["timezone"])
	require.Equal(t, "2025-06-02T10:00:00+01:00", r["datetime"])
	require.Equal(t, "Monday, 2 June 2025, 10:00 WEST", r["formatted"])
	require.Equal(t, true, r["is_dst"])

	for _, tc := range []struct{ tz, zone, datetime string }{
		{"", "UTC", "2025-06-02T09:00:00Z"},
		{"JST", "Asia/Tokyo", "2025-06-02T18:00:00+09:00"},
		{"america/new york", "America/New_York", "2025-06-02T05:00:00-04:00"},
		{"UTC+5:30", "UTC+05:30", "2025-06-02T14:30:00+05:30"},
		{"Sydney", "Australia/Sydney", "2025-06-02T19:00:00+10:00"},
	} {
		args := map[string]any{"timezone": tc.tz, "format": "iso"}
		if tc.tz == "" {
			args["timezone"] = nil
		}
		r := standintest.New(t, Register).WithDefaults().Object("agent_clock", "get_current_time", args)
		require.Equal(t, tc.zone, r["timezone"], tc.tz)
		require.Equal(t, tc.datetime, r["datetime"], tc.tz)
	}
	r = standintest.New(t, Register).WithDefaults().Object("agent_clock", "get_current_time", map[string]any{"timezone": "UTC", "format": "%Y/%m/%d %H:%M %A"})
	require.Equal(t, "2025/06/02 09:00 Monday", r["formatted"])

	body := standintest.New(t, Register).WithDefaults().Fails(400, "agent_clock", "get_current_time", map[string]any{"timezone": "Mars/Olympus"})
	require.Contains(t, body["error"], `unknown time zone "Mars/Olympus"`)
	standintest.New(t, Register).WithDefaults().Fails(400, "agent_clock", "get_current_time", map[string]any{"timezone": "Local"})
	body = standintest.New(t, Register).WithDefaults().Fails(400, "agent_clock", "get_current_time", map[string]any{"format": "weird"})
	require.Contains(t, body["error"], "unknown format")

	// The clock is the sandbox's: another instant, another answer.
	v, err := standintest.New(t, Register).WithDefaults().At(time.Date(2025, 12, 24, 18, 30, 0, 0, time.UTC)).Call("agent_clock", "get_current_time", nil)
	require.NoError(t, err)
	require.Equal(t, "2025-12-24T18:30:00Z", v.(map[string]any)["datetime"])

	standintest.GoldenCalls(t, "agent_clock.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "default", Tool: "agent_clock", API: "get_current_time", Args: nil},
		{Name: "tokyo_unix", Tool: "agent_clock", API: "get_current_time", Args: map[string]any{"timezone": "Asia/Tokyo", "format": "unix"}},
		{Name: "pst_12h", Tool: "agent_clock", API: "get_current_time", Args: map[string]any{"timezone": "PST", "format": "12h"}},
		{Name: "unknown", Tool: "agent_clock", API: "get_current_time", Args: map[string]any{"timezone": "Nowhere/City"}},
	})
}

func TestBasicWorldTime(t *testing.T) {
	r := standintest.New(t, Register).WithDefaults().Object("world_time", "timezone_info", nil)
	require.Equal(t, "Asia/Tokyo", r["timezone"])
	require.Equal(t, false, r["dst"])
	require.Equal(t, float64(32400), r["raw_offset"])

	r = standintest.New(t, Register).WithDefaults().Object("world_time", "timezone_info", map[string]any{"timezone": "America/New_York"})
	require.Equal(t, true, r["dst"])
	require.Equal(t, "EDT", r["abbreviation"])
	require.Equal(t, float64(-18000), r["raw_offset"])
	require.Equal(t, float64(3600), r["dst_offset"])
	require.Equal(t, "2025-03-09T07:00:00Z", r["dst_from"])
	require.Equal(t, "2025-11-02T06:00:00Z", r["dst_until"])

	// Southern hemisphere: winter in June, no DST.
	r = standintest.New(t, Register).WithDefaults().Object("world_time", "timezone_info", map[string]any{"timezone": "Australia/Sydney"})
	require.Equal(t, false, r["dst"])
	require.Equal(t, "+10:00", r["utc_offset"])

	standintest.New(t, Register).WithDefaults().Fails(400, "world_time", "timezone_info", map[string]any{"timezone": "Europe/Atlantis"})

	r = standintest.New(t, Register).WithDefaults().Object("world_time", "timezone_by_location", nil)
	require.Equal(t, "Europe/Lisbon", r["timezone"])
	require.Equal(t, "Lisbon", r["nearest_city"].(map[string]any)["name"])

	r = standintest.New(t, Register).WithDefaults().Object("world_time", "timezone_by_location", map[string]any{"lat": 35.0, "lon": 135.8})
	require.Equal(t, "Asia/Tokyo", r["timezone"])
	require.Equal(t, "Kyoto", r["nearest_city"].(map[string]any)["name"])

	// Mid-Pacific, far from every city: the nautical zone.
	r = standintest.New(t, Register).WithDefaults().Object("world_time", "timezone_by_location", map[string]any{"lat": -30.0, "lon": -140.0})
	require.Equal(t, "Etc/GMT+9", r["timezone"])
	require.Equal(t, "-09:00", r["utc_offset"])
	require.Nil(t, r["nearest_city"])

	standintest.New(t, Register).WithDefaults().Fails(400, "world_time", "timezone_by_location", map[string]any{"lat": 91.0})
	standintest.New(t, Register).WithDefaults().Fails(400, "world_time", "timezone_by_location", map[string]any{"lon": "east"})

	standintest.GoldenCalls(t, "world_time.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "info_default", Tool: "world_time", API: "timezone_info", Args: nil},
		{Name: "info_abbreviation", Tool: "world_time", API: "timezone_info", Args: map[string]any{"timezone": "cest"}},
		{Name: "info_unknown", Tool: "world_time", API: "timezone_info", Args: map[string]any{"timezone": "Foo/Bar"}},
		{Name: "location_default", Tool: "world_time", API: "timezone_by_location", Args: nil},
		{Name: "location_new_york", Tool: "world_time", API: "timezone_by_location", Args: map[string]any{"lat": 40.71, "lon": -74.0}},
		{Name: "location_sea", Tool: "world_time", API: "timezone_by_location", Args: map[string]any{"lat": 0.0, "lon": -30.0}},
	})
}

func BenchmarkBasicCurrentTime(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "agent_clock", "get_current_time", nil)
}

func BenchmarkBasicTimezoneByLocation(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "world_time", "timezone_by_location", nil)
}

func FuzzBasicTimeParsing(f *testing.F) {
	w, err := world.DefaultWorld()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"Europe/Lisbon", "utc+5:30", "JST", "Tokyo", "../etc/passwd", "Local", "%Y-%m-%d %", "GMT-99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if loc, err := tzResolve(w, s); err == nil {
			_ = tzFacts(loc, time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC))
		} else if _, ok := err.(*ZoneError); !ok {
			t.Fatalf("tzResolve(%q): %T %v", s, err, err)
		}
		_, _ = clockFormat(time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC), s)
	})
}
