package claims

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// A number stated with a unit, for a kind of field the result has, that
// no such field holds is made up; the result's own values in any unit an
// answer may use, values the question gives, and kinds the result does
// not measure are not.
func TestContradictions(t *testing.T) {
	weather := `{"location":"Lisbon","current":{"temp_c":18.4,"temp_f":65.1,"humidity":72,"wind_kph":14.0,"pressure_mb":1016,"condition":"Partly cloudy"}}`
	for _, tc := range []struct {
		name, question, tool, answer string
		want                         []string
	}{
		{"the result's values", "What's the weather in Lisbon?", weather,
			"Partly cloudy, 18 °C (65 °F), humidity 72 %, wind 14 km/h.", nil},
		{"a made-up temperature", "What's the weather in Lisbon?", weather,
			"Partly cloudy and 25 °C.", []string{"25 temperature"}},
		{"a made-up humidity", "What's the weather in Lisbon?", weather,
			"18 °C with humidity around 40 %.", []string{"40 percent"}},
		{"wind in another unit", "How windy is it in Lisbon?", weather,
			"Wind about 3.9 m/s.", nil},
		{"a value the question gives", "Is it warmer than 25 °C in Lisbon?", weather,
			"No: it is 18 °C, below 25 °C.", nil},
		{"a kind the result does not measure", "What's the weather in Lisbon?", weather,
			"18 °C; visibility 10 km.", nil},
		{"no numbers", "What's the weather in Lisbon?", weather, "Partly cloudy.", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Contradictions(reading.Read(tc.answer), tc.question, textmatch.ReadToolData(tc.tool))
			if tc.want == nil {
				require.Empty(t, got)
				return
			}
			require.Equal(t, tc.want, got)
		})
	}
}
