package toolbench

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/toolset"
)

// A relevant API counts only when it was asked about what the query asks:
// the annotated codes, names, dates and whole numbers, in any spelling a
// client may use; texts with many right forms are not compared.
func TestAgreesWithAnnotatedCall(t *testing.T) {
	c, err := toolset.Builtin()
	require.NoError(t, err)
	api := func(tool, name string) *toolset.API {
		a := c.API(tool, name)
		require.NotNil(t, a, tool+"."+name)
		return a
	}
	holidays := api("public_holiday", "public_holidays")
	weather := api("weatherapi_com", "realtime_weather_api")
	calc := api("calculator", "calculate")
	for _, tc := range []struct {
		name string
		api  *toolset.API
		gold map[string]any
		got  string
		want bool
	}{
		{"same values", holidays, map[string]any{"year": 2025, "countryCode": "DE"}, `{"year": 2025, "countryCode": "DE"}`, true},
		{"ToolBench spelling, lower case", holidays, map[string]any{"year": 2025, "countryCode": "DE"}, `{"year": 2025, "countrycode": "de"}`, true},
		{"year as a string", holidays, map[string]any{"year": 2025, "countryCode": "DE"}, `{"year": "2025", "countryCode": "DE"}`, true},
		{"another country", holidays, map[string]any{"year": 2025, "countryCode": "DE"}, `{"year": 2025, "countrycode": "AU"}`, false},
		{"another year", holidays, map[string]any{"year": 2025, "countryCode": "DE"}, `{"year": 2024, "countryCode": "DE"}`, false},
		{"a city with its country", weather, map[string]any{"q": "Paris"}, `{"q": "Paris, France"}`, true},
		{"another city", weather, map[string]any{"q": "Paris"}, `{"q": "Oslo"}`, false},
		{"an expression written otherwise", calc, map[string]any{"expression": "2480 * 17.5 / 100"}, `{"expression": "2480*0.175"}`, true},
		{"undecodable arguments", weather, map[string]any{"q": "Paris"}, `{"q":`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, agreesWithAny(tc.api, []map[string]any{tc.gold}, json.RawMessage(tc.got)))
		})
	}
}
