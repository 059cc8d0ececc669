package dataset

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadJSONLKeepsBigIntegers: gold values are read exactly. Through
// float64, 1453523214578196481 became …480, which no call carrying the
// real ID could match.
func TestReadJSONLKeepsBigIntegers(t *testing.T) {
	line := `{"id":"x","type":2,"text":"Tweet 1453523214578196481?","target_api":"a.b","gold_call":{"api":"a.b","arguments":{"id":{"values":[1453523214578196481, 5, 2.5]}}},"expected_facts":["y"],` +
		`"chain":[{"api":"a.c","arguments":{"n":9007199254740993}}]}`
	ins, err := ReadJSONL(strings.NewReader(line), "t.jsonl")
	require.NoError(t, err)
	vals := ins[0].GoldCall.Arguments["id"].Values
	require.Equal(t, []any{json.Number("1453523214578196481"), 5.0, 2.5}, vals, "big integers keep their digits, other numbers read as json.Unmarshal reads them")
	require.Equal(t, json.Number("9007199254740993"), ins[0].Chain[0].Arguments["n"])
	out, err := json.Marshal(ins[0].GoldCall)
	require.NoError(t, err)
	require.Contains(t, string(out), "1453523214578196481", "written back with the same digits")

	_, err = ReadJSONL(strings.NewReader(strings.Replace(line, "2.5", "1e999", 1)), "t.jsonl")
	require.ErrorContains(t, err, "out of range")
}

// TestValidateGoldKinds: a gold value whose JSON type the parameter does
// not take ("venue": true for a string) is one no call can match; the
// sandbox would coerce it and run, so the validator checks it itself.
func TestValidateGoldKinds(t *testing.T) {
	in := goodTypeII()
	in.GoldCall.Arguments["ip"] = Acceptable{Values: []any{"85.17.142.23", true}}
	probs := mustProblems(t, []Instruction{in})
	require.NotEmpty(t, probs)
	require.Equal(t, "gold_call.arguments.ip.values[1]", probs[0].Field, "%v", probs)
	require.Contains(t, probs[0].Msg, "true is a JSON boolean, but ip is string")

	four := Instruction{ID: "t4", Type: TypeDependencies, Text: "Which airports are within 80 km of Porto?", Chain: []GoldStep{
		{API: "geocoding.forward_geocode", Arguments: map[string]any{"address": "Porto"}},
		{API: "airport_info.nearby_airports", Arguments: map[string]any{"radius_km": "80"}, Bindings: map[string]Binding{"lat": {Step: 0, Path: "results[].lat"}, "lon": {Step: 0, Path: "results[].lon"}}}}}
	probs = mustProblems(t, []Instruction{four})
	require.NotEmpty(t, probs)
	require.Equal(t, "chain[1].arguments.radius_km", probs[0].Field, "%v", probs)
}

func FuzzReadJSONL(f *testing.F) {
	f.Add(`{"id":"x","type":2,"text":"t","target_api":"a.b","gold_call":{"api":"a.b","arguments":{"id":{"values":[1453523214578196481]}}},"expected_facts":["y"]}`)
	f.Add(`{"id":"y","type":3,"text":"t","target_api":"a.b","missing":["q"],"present":{"n":1e3}}`)
	f.Add("# comment\n\n{\"id\":\"z\",\"type\":9}")
	f.Fuzz(func(t *testing.T, data string) {
		ins, err := ReadJSONL(strings.NewReader(data), "f.jsonl")
		if err != nil {
			return
		}
		// What was read writes back and reads again the same.
		var buf bytes.Buffer
		for _, in := range ins {
			b, err := json.Marshal(in)
			if err != nil {
				t.Fatalf("%+v does not encode: %v", in, err)
			}
			buf.Write(append(b, '\n'))
		}
		again, err := ReadJSONL(&buf, "again.jsonl")
		if err != nil {
			t.Fatalf("written back, %q no longer reads: %v", buf.String(), err)
		}
		if len(again) != len(ins) {
			t.Fatalf("read %d records back, want %d", len(again), len(ins))
		}
	})
}

// TestValidateShownToTheModel: an expected fact, or a value a chain step
// binds, must be in what a model is shown of the result (ShownResult),
// not only in the part cut to fit the budget. A 3-day forecast shows the
// first hours of every day: the last hour of the first day is cut.
func TestValidateShownToTheModel(t *testing.T) {
	in := Instruction{ID: "t2", Type: TypeSufficient, Text: "What's the 3-day forecast for Lisbon?", TargetAPI: "weatherapi_com.forecast_weather_api",
		GoldCall:      &GoldCall{API: "weatherapi_com.forecast_weather_api", Arguments: map[string]Acceptable{"q": {Values: []any{"Lisbon"}}, "days": {Values: []any{3.0}}}},
		ExpectedFacts: []string{"2025-06-02 01:00"}}
	require.Empty(t, mustProblems(t, []Instruction{in}), "an hour that is shown")
	in.ExpectedFacts = []string{"2025-06-02 23:00"}
	probs := mustProblems(t, []Instruction{in})
	require.Len(t, probs, 1)
	require.Equal(t, "expected_facts[0]", probs[0].Field)
	require.Contains(t, probs[0].Msg, "is only in the part of the response")
	require.Contains(t, probs[0].Msg, "forecast.forecastday[].hour shows the first")
}

// TestValidateEarlierTurns: an instruction that speaks of an earlier turn
// must carry it (history), so that the agent is not asked about a
// conversation it never saw; only Types II and III have earlier turns.
func TestValidateEarlierTurns(t *testing.T) {
	three := Instruction{ID: "t3", Type: TypeMissing, Text: "Search hotels in the destination you found.", TargetAPI: "booking_com.search_hotels", Missing: []string{"arrival_date", "departure_date"}}
	probs := mustProblems(t, []Instruction{three})
	require.Len(t, probs, 1, "%v", probs)
	require.Equal(t, "text", probs[0].Field)
	require.Contains(t, probs[0].Msg, `speaks of an earlier turn ("you found")`)

	three.History = []GoldStep{{API: "booking_com.search_hotel_destination", Arguments: map[string]any{"query": "Lisbon"}}}
	three.Earlier = "Look up Lisbon as a hotel destination."
	three.Present = map[string]any{"dest_id": "-2167973"}
	require.Empty(t, mustProblems(t, []Instruction{three}), "the destination found is in the turn carried")
	three.Present = map[string]any{"dest_id": "-1456928"}
	probs = mustProblems(t, []Instruction{three})
	require.Len(t, probs, 1, "%v", probs)
	require.Equal(t, "present.dest_id", probs[0].Field, "Paris's ID is neither in the text nor in the turns")

	one := Instruction{ID: "t1", Type: TypeNoTool, Text: "What is the capital of France?", TemptingAPI: "iso_codes.country_by_code", ReferenceAnswer: "Paris is the capital of France.", KeyPoints: []string{"Paris"},
		History: three.History}
	probs = mustProblems(t, []Instruction{one})
	require.NotEmpty(t, probs)
	require.Equal(t, "history", probs[0].Field)

	for text, want := range map[string]string{
		"List the rooms of the hotel you just showed me.":   "you just showed",
		"tell me more about recipe 9338 from that list":     "from that list",
		"What ingredients do I need for the dish we talked": "we talked",
		"pics of that hotel":                                "that hotel",
		"How long does that one take to cook?":              "that one",
		"pics of a hotel I'm eyeing":                        "",
		"What does the sign in this photo say?":             "",
		"Which airports are near you?":                      "",
	} {
		require.Equal(t, want, EarlierTurn(text), text)
	}
}

// TestExpectedFactsAreValuesAUserWants: Task 6 judges an answer by its
// expected facts, so a fact must be something the user asked for: never a
// session token, an internal code, the envelope, the API's own labels or
// the call's arguments given back.
func TestExpectedFactsAreValuesAUserWants(t *testing.T) {
	session := "ClZDgyZTZlZjk4Mjk3MzMwMjZlZDQwMjk5YjRmZTllMGUEAIaJAoiCgpkZXN0aW5hdGlvbhIU"
	doc := map[string]any{
		"data": map[string]any{
			"context":     map[string]any{"sessionId": session, "totalResults": 12.0},
			"itineraries": []any{map[string]any{"price": map[string]any{"formatted": "$542"}, "carrier": "United Airlines"}},
		},
		"places": []any{
			map[string]any{"skyId": "KYOA", "suggestionTitle": "Kyoto (Any)"},
			map[string]any{"skyId": "KIX", "suggestionTitle": "Osaka Kansai (KIX)"},
		},
		"location_id":  "189158",
		"web_url":      "https://www.tripadvisor.com/Tourism-g189158-Lisbon_Vacations.html",
		"category":     map[string]any{"key": "geographic", "name": "Geographic"},
		"sort_options": []any{map[string]any{"id": "sort_most_relevant", "name": "most relevant"}},
		"user":         map[string]any{"user_location": map[string]any{"name": "Singapore"}},
		"image":        map[string]any{"width": 800.0, "height": 600.0},
		"timestamp":    1748854800000.0,
	}
	in := &Instruction{Text: "Flights from Kyoto, and a picture resized to 800 px wide.", GoldCall: &GoldCall{API: "x.resize", Arguments: map[string]Acceptable{
		"width": {Values: []any{800.0}}, "language": {Values: []any{"en", "auto"}}}}}
	tests := []struct{ fact, fault string }{
		{"$542", ""},
		{"United Airlines", ""},
		{"Kyoto (Any)", ""},
		{"KIX", ""}, // an airport code the user is shown in a title
		{"600", ""},
		{session, "session token"},
		{"KYOA", "internal code"},
		{"189158", "internal code"}, // an ID, also inside a link
		{"12", "bookkeeping"},
		{"1748854800000", "bookkeeping"},
		{"Geographic", "label of the API's own categories"},
		{"most relevant", "label of the API's own categories"},
		{"Singapore", "label of the API's own categories"},
		{"800", "call's own argument (width=800)"},
		{"auto", "call's own argument (language=auto)"},
	}
	for _, tc := range tests {
		t.Run(tc.fact, func(t *testing.T) {
			got := ExpectedFactFault(in, doc, tc.fact)
			if tc.fault == "" {
				require.Empty(t, got)
				return
			}
			require.Contains(t, got, tc.fault)
		})
	}
}

// TestValidateGoldCallThatAnswersNothing: a record whose gold call gives
// back nothing relevant asks for an answer no tool gives. The validator
// catches both shapes it took in the dataset: an OCR of a French sign
// told the text is English (no line read; the fact left was the language
// the call was given), and a news search that found nothing (only the
// envelope and the echoed request).
func TestValidateGoldCallThatAnswersNothing(t *testing.T) {
	ocr := Instruction{ID: "ocr", Type: TypeSufficient, Text: "Read the opening hours from https://images.understudy.test/museum_opening_hours.png — it's in English.",
		TargetAPI: "ocr_extract_text.ocr_image_url",
		GoldCall: &GoldCall{API: "ocr_extract_text.ocr_image_url", Arguments: map[string]Acceptable{
			"url":      {Values: []any{"https://images.understudy.test/museum_opening_hours.png"}},
			"language": {Values: []any{"en"}, Optional: true}}},
		ExpectedFacts: []string{"en"}}
	probs := mustProblems(t, []Instruction{ocr})
	require.NotEmpty(t, probs)
	require.Equal(t, "expected_facts[0]", probs[0].Field, "%v", probs)
	require.Contains(t, probs[0].Msg, "the call's own argument (language=en)")

	ocr.Text = "What opening hours does the sign in https://images.understudy.test/museum_opening_hours.png give? It's in French."
	ocr.GoldCall.Arguments["language"] = Acceptable{Values: []any{"fr"}, Optional: true}
	ocr.ExpectedFacts = []string{"OUVERT 9H - 18H"}
	require.Empty(t, mustProblems(t, []Instruction{ocr}), "the sign read in its language")

	news := Instruction{ID: "news", Type: TypeSufficient, Text: "Find me articles from the past hour about electric cars.", TargetAPI: "real_time_news_data.search",
		GoldCall: &GoldCall{API: "real_time_news_data.search", Arguments: map[string]Acceptable{
			"query": {Values: []any{"electric cars"}}, "time_published": {Values: []any{"1h"}}}},
		ExpectedFacts: []string{"us"}}
	probs = mustProblems(t, []Instruction{news})
	require.NotEmpty(t, probs)
	require.Equal(t, "gold_call", probs[0].Field, "%v", probs)
	require.Contains(t, probs[0].Msg, "returns nothing beyond its own arguments and envelope")

	// A chain whose last call answers nothing: the sandbox lists no
	// attractions for Buenos Aires.
	sights := func(city string) Instruction {
		return Instruction{ID: "four", Type: TypeDependencies, Text: "Things to do in " + city + "?", Chain: []GoldStep{
			{API: "travel_advisor.locations_search", Arguments: map[string]any{"query": city}},
			{API: "travel_advisor.attractions_list", Bindings: map[string]Binding{"location_id": {Step: 0, Path: "data[].result_object.location_id"}}}}}
	}
	probs = mustProblems(t, []Instruction{sights("Buenos Aires")})
	require.Len(t, probs, 1, "%v", probs)
	require.Equal(t, "chain[1]", probs[0].Field)
	require.Contains(t, probs[0].Msg, "returns nothing beyond its own arguments and envelope")
	require.Empty(t, mustProblems(t, []Instruction{sights("Rio de Janeiro")}))
}
