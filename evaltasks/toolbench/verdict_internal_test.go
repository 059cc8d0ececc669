package toolbench

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// A relevant API counts only when it was asked about what the query asks:
// the annotated codes, names, dates and whole numbers, in any spelling a
// client may use; texts with many right forms are not compared.
func TestAgreesWithAnnotatedCall(t *testing.T) {
	c, err := loader.Builtin()
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

// A response value is evidence only when the agent did not put it into a
// call itself: its own arguments come back in any case, number form or
// wording and still count for nothing, while what an earlier response
// gave it (an ID a search listed) counts.
func TestAgentValuesEcho(t *testing.T) {
	call := func(args, response string) solve.CallRecord {
		return solve.CallRecord{Arguments: json.RawMessage(args), Response: json.RawMessage(response)}
	}
	own := agentValues([]solve.CallRecord{
		call(`{"q": "test", "limit": 100, "exact": true, "countryCode": "DE", "route": {"from": "Paris", "to": "London"}}`, `{"results": [{"id": "a1b2c3", "name": "Lumen Café"}]}`),
		call(`{"id": "a1b2c3"}`, `{"id": "a1b2c3", "rating": 4.5}`),
	})
	for _, tc := range []struct {
		value string
		echo  bool
	}{
		{"test", true},
		{"TEST", true},
		{"100", true},
		{"100.0", true},
		{"true", true},
		{"DE", true},
		{"DE-BY", true},           // its one content word is an argument's
		{"Paris to London", true}, // every content word is an argument's
		{"a1b2c3", false},         // a search listed it before the agent passed it on
		{"Lumen Café", false},
		{"4.5", false},
		{"101", false},
		{"Paris, France", false},
		{"", false},
	} {
		require.Equal(t, tc.echo, own.echoes(tc.value), tc.value)
	}
	require.False(t, agentValues([]solve.CallRecord{call(`{"q":`, `{}`)}).echoes("q"), "unreadable arguments echo nothing")
}

// Whatever arguments a model sends, reading them never fails, and every
// value it sent of its own is an echo of them.
func FuzzAgentValues(f *testing.F) {
	f.Add(`{"q": "test", "limit": 100, "nested": [{"a": true}, null, 1.5e3]}`, "test")
	f.Add(`[1, "two"]`, "two")
	f.Add(`"just a string"`, "just a string")
	f.Add(`{"q":`, "q")
	f.Fuzz(func(t *testing.T, args, value string) {
		own := agentValues([]solve.CallRecord{{Arguments: json.RawMessage(args)}})
		_ = own.echoes(value)
		for _, v := range leafValues(json.RawMessage(args)) {
			require.True(t, own.echoes(v), "%q of %s", v, args)
		}
	})
}

// A response value is evidence only when it says something found: the
// envelope's reports, HTTP codes and known words wrapped in status words
// are not, wherever they sit; the data's own values and an envelope field
// that carries content (an order's status, an airport's code) are.
func TestNoEvidence(t *testing.T) {
	query := "Find actors matching Diego Larsen and show the order status."
	own := agentValues([]solve.CallRecord{{Arguments: json.RawMessage(`{"q": "Diego Larsen", "limit": 100}`)}})
	asked := textmatch.NewMatcher(query)
	for _, tc := range []struct {
		value, path string
		want        bool
	}{
		{"200", "code", true},
		{"200", "meta.status.code", true},
		{"404", "statusCode", true},
		{"success", "status", true},
		{"Request processed successfully", "message", true},
		{"Operation completed successfully.", "meta.msg", true},
		{"rate limit exceeded", "errors[]", true},
		{"Results found for Diego Larsen", "message", true},
		{"Diego Larsen", "data[].name", true},
		{"100", "data.limit", true},
		{"shipped", "data.status", false},
		{"KUB", "data[].code", false},
		{"Blue Horizon", "data[].title", false},
		{"273.81", "data[].prize_pool", false},
		{"The best decision is the one you make today", "message", false},
	} {
		t.Run(tc.path+"="+tc.value, func(t *testing.T) {
			require.Equal(t, tc.want, noEvidence(tc.value, []string{tc.path}, asked, contentWords(query), own))
		})
	}
}
