package callcheck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
)

// TestCheckByEffect: the cases where text comparison was narrower than
// the tool. Natural replies pass and wrong ones fail, for code judged by
// what it prints, arguments left at their documented default, accents,
// "City, Country" with the country as a name or an ISO code, and Greek
// final sigma.
func TestCheckByEffect(t *testing.T) {
	cat := testStack(t).Catalog
	python := &dataset.GoldCall{API: "python_interpreter.run_python", Arguments: map[string]dataset.Acceptable{
		"code": {Values: []any{"print(round(sum([12.5, 8.0, 23.9]) / 3, 2))"}},
	}}
	failing := &dataset.GoldCall{API: "python_interpreter.run_python", Arguments: map[string]dataset.Acceptable{
		"code": {Values: []any{"print(1 // 0)"}},
	}}
	valued := &dataset.GoldCall{API: "python_interpreter.run_python", Arguments: map[string]dataset.Acceptable{
		"code": {Values: []any{"sorted([5, 3, 9, 1])"}},
	}}
	forecast := &dataset.GoldCall{API: "weatherapi_com.forecast_weather_api", Arguments: map[string]dataset.Acceptable{
		"days": {Values: []any{3.0}},
		"q":    {Values: []any{"Amsterdam", "Amsterdam, Netherlands"}},
	}}
	five := &dataset.GoldCall{API: "weatherapi_com.forecast_weather_api", Arguments: map[string]dataset.Acceptable{
		"days": {Values: []any{5.0}},
		"q":    {Values: []any{"Barcelona"}},
	}}
	krakow := &dataset.GoldCall{API: "booking_com.search_hotel_destination", Arguments: map[string]dataset.Acceptable{
		"query": {Values: []any{"Kraków"}},
	}}
	ankara := &dataset.GoldCall{API: "weatherapi_com.forecast_weather_api", Arguments: map[string]dataset.Acceptable{
		"days": {Values: []any{5.0}},
		"q":    {Values: []any{"Ankara, TR"}},
	}}
	wellington := &dataset.GoldCall{API: "weatherapi_com.forecast_weather_api", Arguments: map[string]dataset.Acceptable{
		"days": {Values: []any{5.0}},
		"q":    {Values: []any{"Wellington, New Zealand"}},
	}}
	const py, fc, hd = "python_interpreter-run_python", "weatherapi_com-forecast_weather_api", "booking_com-search_hotel_destination"
	tests := []struct {
		name string
		gold *dataset.GoldCall
		fn   string
		args map[string]any
		want string
	}{
		{"code printing the same, written otherwise", python, py, map[string]any{"code": `prices = [12.5, 8.0, 23.9]
avg = sum(prices) / len(prices)
print(round(avg, 2))`}, OutcomeCorrect},
		{"code printing the same number with trailing zeros", python, py, map[string]any{"code": `print("14.80")`}, OutcomeCorrect},
		// The tool's interpreter has no precision in % formats: the call
		// fails in the tool, so it fails here.
		{"code the tool cannot run", python, py, map[string]any{"code": `avg = sum([12.5, 8.0, 23.9]) / 3
print("%.2f" % avg)`}, OutcomeWrongValue},
		{"code printing the same with format", python, py, map[string]any{"code": `print("{}".format(round((12.5 + 8.0 + 23.9) / 3, 2)))`}, OutcomeCorrect},
		{"code printing another number", python, py, map[string]any{"code": `print(sum([12.5, 8.0, 23.9]))`}, OutcomeWrongValue},
		{"code printing the number as other text", python, py, map[string]any{"code": `print("avg", 14.8)`}, OutcomeWrongValue},
		{"code printing nothing", python, py, map[string]any{"code": `x = sum([12.5, 8.0, 23.9]) / 3`}, OutcomeWrongValue},
		{"code that fails where the gold runs", python, py, map[string]any{"code": `print(avg)`}, OutcomeWrongValue},
		{"code failing as the gold fails", failing, py, map[string]any{"code": "x = 0\nprint(1 // x)"}, OutcomeCorrect},
		{"code running where the gold fails", failing, py, map[string]any{"code": "print(1)"}, OutcomeWrongValue},
		{"code ending on the same value", valued, py, map[string]any{"code": "xs = [5, 3, 9, 1]\nsorted(xs)"}, OutcomeCorrect},
		{"code ending on another value", valued, py, map[string]any{"code": "sorted([5, 3, 9, 1], reverse=True)"}, OutcomeWrongValue},
		{"a gold value at the documented default left out", forecast, fc, map[string]any{"q": "Amsterdam"}, OutcomeCorrect},
		{"a gold value at the documented default given", forecast, fc, map[string]any{"q": "Amsterdam", "days": 3}, OutcomeCorrect},
		{"a gold value off the default left out", five, fc, map[string]any{"q": "Barcelona"}, OutcomeMissingArg},
		{"a place without its accent", krakow, hd, map[string]any{"query": "Krakow"}, OutcomeCorrect},
		{"a place with its accent", krakow, hd, map[string]any{"query": "KRAKÓW"}, OutcomeCorrect},
		{"another place", krakow, hd, map[string]any{"query": "Warsaw"}, OutcomeWrongValue},
		{"the country by name for an ISO code", ankara, fc, map[string]any{"q": "Ankara, Turkey", "days": 5}, OutcomeCorrect},
		{"the country by its alpha-3 code", ankara, fc, map[string]any{"q": "Ankara, TUR", "days": 5}, OutcomeCorrect},
		{"the ISO code for a country's name", wellington, fc, map[string]any{"q": "Wellington, NZ", "days": 5}, OutcomeCorrect},
		{"the city in another country", wellington, fc, map[string]any{"q": "Wellington, AU", "days": 5}, OutcomeWrongValue},
		{"another city in the country", wellington, fc, map[string]any{"q": "Auckland, NZ", "days": 5}, OutcomeWrongValue},
		{"an unknown country", ankara, fc, map[string]any{"q": "Ankara, Narnia", "days": 5}, OutcomeWrongValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := json.Marshal(tt.args)
			require.NoError(t, err)
			got := Check(cat, tt.gold, agent.ToolCall{Name: tt.fn, Arguments: raw})
			require.Equal(t, tt.want, got.Outcome, "%+v", got)
		})
	}
}

func TestSameValueFolds(t *testing.T) {
	tests := []struct {
		a, b any
		want bool
	}{
		{"οδος", "ΟΔΟΣ", true},
		{"οδος", "οδοι", false},
		{"Bogotá", "bogota", true},
		{"Reykjavík", "Reykjavik", true},
		{"Brasília", "Brasilia", true},
		{"Cancún", "Cancun", true},
		{"Cancún", "Cannes", false},
		{"Riyadh, Saudi Arabia", "Riyadh, SA", true},
		{"Lisbon, Portugal", "Lisbon, PT", true},
		{"Lisbon, Portugal", "Lisbon, ES", false},
		{"Lisbon", "Lisbon, Portugal", false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, SameValue(tt.a, tt.b), "%v vs %v", tt.a, tt.b)
	}
}
