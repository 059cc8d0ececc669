package callcheck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
)

func TestCheckCallMutations(t *testing.T) {
	cat := testStack(t).Catalog
	fx := &dataset.GoldCall{API: "currency_exchange.exchange", Arguments: map[string]dataset.Acceptable{
		"from": {Values: []any{"USD"}},
		"to":   {Values: []any{"EUR"}},
		"q":    {Values: []any{2.5}, Optional: true},
	}}
	nearby := &dataset.GoldCall{API: "airport_info.nearby_airports", Arguments: map[string]dataset.Acceptable{
		"lat": {Values: []any{48.8566}},
		"lon": {Values: []any{2.3522}},
	}}
	hotel := &dataset.GoldCall{API: "booking_com.get_hotel_details", Arguments: map[string]dataset.Acceptable{
		"hotel_id":       {Values: []any{1748854800.0}},
		"arrival_date":   {Values: []any{"2025-06-20"}},
		"departure_date": {Values: []any{"2025-06-23"}},
	}}
	flights := &dataset.GoldCall{API: "skyscanner80.flights_auto_complete", Arguments: map[string]dataset.Acceptable{
		"query": {Values: []any{"New York", "NYC"}},
	}}
	tests := []struct {
		name  string
		gold  *dataset.GoldCall
		fn    string
		args  string
		want  string
		param string
	}{
		{"gold", fx, "currency_exchange-exchange", `{"from":"USD","to":"EUR","q":2.5}`, OutcomeCorrect, ""},
		{"optional omitted", fx, "currency_exchange-exchange", `{"from":"USD","to":"EUR"}`, OutcomeCorrect, ""},
		{"optional at its default", fx, "currency_exchange-exchange", `{"from":"USD","to":"EUR","q":1}`, OutcomeCorrect, ""},
		{"optional outside the gold at its default", flights, "skyscanner80-flights_auto_complete", `{"query":"NYC","market":"US"}`, OutcomeCorrect, ""},
		{"normalised string", flights, "skyscanner80-flights_auto_complete", `{"query":"new-york"}`, OutcomeCorrect, ""},
		{"numbers compared by value", nearby, "airport_info-nearby_airports", `{"lat":48.85660,"lon":2.3522}`, OutcomeCorrect, ""},
		{"toolbench name", fx, "exchange_for_currency_exchange", `{"from":"USD","to":"EUR"}`, OutcomeCorrect, ""},
		{"null counts as omitted", fx, "currency_exchange-exchange", `{"from":"USD","to":"EUR","q":null}`, OutcomeCorrect, ""},

		{"wrong name", fx, "currency_exchange-listquotes", `{}`, OutcomeWrongName, ""},
		{"unknown name", fx, "exchange", `{"from":"USD","to":"EUR"}`, OutcomeWrongName, ""},
		{"missing argument", fx, "currency_exchange-exchange", `{"from":"USD"}`, OutcomeMissingArg, "to"},
		{"extra argument", fx, "currency_exchange-exchange", `{"from":"USD","to":"EUR","amount":3}`, OutcomeUnexpectedArg, "amount"},
		{"optional outside the gold, not at its default", flights, "skyscanner80-flights_auto_complete", `{"query":"NYC","market":"UK"}`, OutcomeUnexpectedArg, "market"},
		{"wrong type: string for a number", fx, "currency_exchange-exchange", `{"from":"USD","to":"EUR","q":"2.5"}`, OutcomeWrongType, "q"},
		{"wrong type: number for a string", flights, "skyscanner80-flights_auto_complete", `{"query":5}`, OutcomeWrongType, "query"},
		{"wrong value", fx, "currency_exchange-exchange", `{"from":"USD","to":"GBP"}`, OutcomeWrongValue, "to"},
		{"wrong optional value", fx, "currency_exchange-exchange", `{"from":"USD","to":"EUR","q":3}`, OutcomeWrongValue, "q"},
		{"wrong number", nearby, "airport_info-nearby_airports", `{"lat":48.85,"lon":2.3522}`, OutcomeWrongValue, "lat"},
		{"integers compare exactly", hotel, "booking_com-get_hotel_details", `{"hotel_id":1748854801,"arrival_date":"2025-06-20","departure_date":"2025-06-23"}`, OutcomeWrongValue, "hotel_id"},
		{"an integer equal to the gold", hotel, "booking_com-get_hotel_details", `{"hotel_id":1748854800,"arrival_date":"2025-06-20","departure_date":"2025-06-23"}`, OutcomeCorrect, ""},
		{"an integer written as a decimal is the same number", hotel, "booking_com-get_hotel_details", `{"hotel_id":1748854800.0,"arrival_date":"2025-06-20","departure_date":"2025-06-23"}`, OutcomeCorrect, ""},
		{"a fraction off a large integer", hotel, "booking_com-get_hotel_details", `{"hotel_id":1748854800.5,"arrival_date":"2025-06-20","departure_date":"2025-06-23"}`, OutcomeWrongValue, "hotel_id"},
		{"floats within the tolerance", nearby, "airport_info-nearby_airports", `{"lat":48.85660000000001,"lon":2.3522}`, OutcomeCorrect, ""},
		{"floats outside the tolerance", nearby, "airport_info-nearby_airports", `{"lat":48.8567,"lon":2.3522}`, OutcomeWrongValue, "lat"},
		{"sign of a float", nearby, "airport_info-nearby_airports", `{"lat":48.8566,"lon":-2.3522}`, OutcomeWrongValue, "lon"},
		{"not an object", fx, "currency_exchange-exchange", `["USD","EUR"]`, OutcomeParseError, ""},
		{"truncated JSON", fx, "currency_exchange-exchange", `{"from":"USD",`, OutcomeParseError, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(cat, tt.gold, agent.ToolCall{Name: tt.fn, Arguments: json.RawMessage(tt.args)})
			require.Equal(t, tt.want, got.Outcome, "%+v", got)
			require.Equal(t, tt.param, got.Param)
		})
	}
}

func TestCheckCallsExactlyOne(t *testing.T) {
	cat := testStack(t).Catalog
	gold := &dataset.GoldCall{API: "currency_exchange.exchange", Arguments: map[string]dataset.Acceptable{"from": {Values: []any{"USD"}}, "to": {Values: []any{"EUR"}}}}
	right := agent.ToolCall{Name: "currency_exchange-exchange", Arguments: json.RawMessage(`{"from":"USD","to":"EUR"}`)}
	other := agent.ToolCall{Name: "currency_exchange-listquotes", Arguments: json.RawMessage(`{}`)}
	tests := []struct {
		name  string
		calls []agent.ToolCall
		want  string
	}{
		{"no call", nil, OutcomeNoCall},
		{"the gold call", []agent.ToolCall{right}, OutcomeCorrect},
		{"the gold call twice", []agent.ToolCall{right, right}, OutcomeExtraCall},
		{"the gold call and another", []agent.ToolCall{right, other}, OutcomeExtraCall},
		{"another call, then the gold call", []agent.ToolCall{other, right}, OutcomeExtraCall},
		{"one wrong call", []agent.ToolCall{other}, OutcomeWrongName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, CheckAll(cat, gold, tt.calls).Outcome)
		})
	}
}

func TestEmptyAcceptableValuesIsADatasetError(t *testing.T) {
	cat := testStack(t).Catalog
	tests := []struct {
		name string
		gold *dataset.GoldCall
	}{
		{"required argument", &dataset.GoldCall{API: "currency_exchange.exchange", Arguments: map[string]dataset.Acceptable{"from": {Values: []any{"USD"}}, "to": {}}}},
		{"optional argument", &dataset.GoldCall{API: "currency_exchange.exchange", Arguments: map[string]dataset.Acceptable{"from": {Values: []any{"USD"}}, "to": {Values: []any{"EUR"}}, "q": {Optional: true}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ge *dataset.GoldError
			require.ErrorAs(t, tt.gold.Check(), &ge)
			for _, args := range []string{`{"from":"USD","to":"EUR"}`, `{"from":"USD","to":"anything"}`, `{"from":"USD"}`} {
				got := Check(cat, tt.gold, agent.ToolCall{Name: "currency_exchange-exchange", Arguments: json.RawMessage(args)})
				require.Equal(t, OutcomeInvalidGold, got.Outcome, args)
				require.Equal(t, ge.Param, got.Param)
			}
		})
	}
	require.NoError(t, (&dataset.GoldCall{API: "currency_exchange.exchange", Arguments: map[string]dataset.Acceptable{"to": {Values: []any{"EUR"}}}}).Check())
}

func TestSameValueNumbers(t *testing.T) {
	tests := []struct {
		want, got any
		same      bool
	}{
		{1748854800.0, json.Number("1748854800"), true},
		{1748854800.0, json.Number("1748854801"), false},
		{json.Number("9007199254740993"), json.Number("9007199254740992"), false},
		{json.Number("9007199254740993"), json.Number("9007199254740993"), true},
		{5.0, json.Number("5.0"), true},
		{5.0, json.Number("5e0"), true},
		{0.3, json.Number("0.30000000000000004"), true},
		{2.5, json.Number("2.6"), false},
		{-1.0, json.Number("1"), false},
		{1.0e12, json.Number("1000000000000.0001"), false},
		{"5", json.Number("5"), false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.same, SameValue(tt.want, tt.got), "%v vs %v", tt.want, tt.got)
	}
}

func TestArgumentsErrorIsParseError(t *testing.T) {
	cat := testStack(t).Catalog
	gold := &dataset.GoldCall{API: "calculator.calculate", Arguments: map[string]dataset.Acceptable{"expression": {Values: []any{"1+1"}}}}
	got := Check(cat, gold, agent.ToolCall{Name: "calculator-calculate", RawArguments: "expression=1+1", ArgumentsError: "not JSON"})
	require.Equal(t, OutcomeParseError, got.Outcome)
}

func TestClassifyMistakes(t *testing.T) {
	cat := testStack(t).Catalog
	in := &dataset.Instruction{ID: "x", Type: dataset.TypeMissing, Text: "Convert my money into euros, I live in France.", TargetAPI: "currency_exchange.exchange", Missing: []string{"from"}}
	tests := []struct {
		name string
		args string
		want []Mistake
	}{
		{"hallucinated", `{"from":"USD","to":"EUR"}`, []Mistake{{Kind: MistakeHallucinated, API: "currency_exchange.exchange", Param: "from", Value: "USD"}}},
		{"placeholder", `{"from":"<source currency>","to":"EUR"}`, []Mistake{{Kind: MistakePlaceholder, API: "currency_exchange.exchange", Param: "from", Value: "<source currency>"}}},
		{"placeholder your_", `{"from":"YOUR_CURRENCY","to":"EUR"}`, []Mistake{{Kind: MistakePlaceholder, API: "currency_exchange.exchange", Param: "from", Value: "YOUR_CURRENCY"}}},
		{"imprecise", `{"from":"France","to":"EUR"}`, []Mistake{{Kind: MistakeImprecise, API: "currency_exchange.exchange", Param: "from", Value: "France"}}},
		{"missing parameter", `{"to":"EUR"}`, []Mistake{{Kind: MistakeMissingParam, API: "currency_exchange.exchange", Param: "from"}}},
		{"a value the user gave is no mistake", `{"from":"GBP","to":"EUR","q":5}`, []Mistake{{Kind: MistakeHallucinated, API: "currency_exchange.exchange", Param: "from", Value: "GBP"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Mistakes(cat, in, []agent.ToolCall{{Name: "currency_exchange-exchange", Arguments: json.RawMessage(tt.args)}})
			require.Equal(t, tt.want, got)
		})
	}
}

func FuzzCheckCall(f *testing.F) {
	cat := testStack(f).Catalog
	gold := &dataset.GoldCall{API: "currency_exchange.exchange", Arguments: map[string]dataset.Acceptable{
		"from": {Values: []any{"USD"}}, "to": {Values: []any{"EUR"}}, "q": {Values: []any{2.5, []any{1.0}, map[string]any{"a": true}}, Optional: true},
	}}
	for _, s := range []string{`{"from":"USD","to":"EUR"}`, `{"q":[1,2]}`, `{"q":{"a":true}}`, `null`, `[]`, `{"from":1e999}`, ``} {
		f.Add("currency_exchange-exchange", s)
	}
	f.Fuzz(func(t *testing.T, name, args string) {
		tc := agent.ToolCall{Name: name, Arguments: json.RawMessage(args)}
		got := Check(cat, gold, tc)
		require.NotEmpty(t, got.Outcome)
		in := &dataset.Instruction{ID: "f", Text: "convert", TargetAPI: gold.API, Missing: []string{"from"}}
		_ = Mistakes(cat, in, []agent.ToolCall{tc})
	})
}
