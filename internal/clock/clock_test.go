package clock_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/clock"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		want time.Time
	}{
		{"", clock.Default},
		{"frozen", clock.Default},
		{"2024-02-29", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
		{"2025-06-06T18:30:00+02:00", time.Date(2025, 6, 6, 16, 30, 0, 0, time.UTC)},
	}
	for _, tc := range cases {
		c, err := clock.Parse(tc.in)
		require.NoError(t, err, tc.in)
		require.True(t, tc.want.Equal(c.Now()), "%s: %s", tc.in, c.Now())
	}
	c, err := clock.Parse("real")
	require.NoError(t, err)
	require.IsType(t, clock.Real{}, c)
	for _, bad := range []string{"yesterday", "2025-13-01", "2025-06-02 09:00"} {
		_, err := clock.Parse(bad)
		require.Error(t, err, bad)
		require.Contains(t, err.Error(), "RFC 3339", bad)
	}
	require.Equal(t, time.Monday, clock.Default.Weekday())
}
