package baseline_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/baseline"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/toolset"
)

// sandboxStack builds the whole sandbox once for the package's tests.
var sandboxStack = sync.OnceValues(func() (*assemble.Stack, error) {
	return assemble.Build(assemble.Config{})
})

func mustStack(t testing.TB) *assemble.Stack {
	t.Helper()
	st, err := sandboxStack()
	require.NoError(t, err)
	return st
}

// freshStack is a sandbox over the shared catalog with fresh sessions.
func freshStack(t testing.TB) *assemble.Stack {
	t.Helper()
	st, err := assemble.Build(assemble.Config{Catalog: mustStack(t).Catalog})
	require.NoError(t, err)
	return st
}

// toolsOf exports the APIs of one tool, in the dotted naming.
func toolsOf(c *toolset.Catalog, tool string) []toolset.OpenAITool {
	var out []toolset.OpenAITool
	for _, t := range toolset.OpenAITools(c, toolset.ExportOptions{}) {
		if strings.HasPrefix(t.Function.Name, tool+"-") {
			out = append(out, t)
		}
	}
	return out
}

// flightPolls is how many flights_search_incomplete calls the Lisbon →
// London search on 20 June needs before its status is complete.
const flightPolls = 2

func dates(ts []time.Time) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Format(time.DateOnly))
	}
	return out
}

func TestExtractFacts(t *testing.T) {
	now := clock.Default // Monday 2025-06-02
	tests := []struct {
		text  string
		check func(t *testing.T, f *baseline.Facts)
	}{
		{"Fly from Lisbon to London tomorrow", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, []string{"2025-06-03"}, dates(f.Dates))
			require.Len(t, f.Places, 2)
			require.Equal(t, "Lisbon", f.Places[0].Text)
			require.Equal(t, "origin", f.Places[0].Role)
			require.Equal(t, "London", f.Places[1].Text)
			require.Equal(t, "destination", f.Places[1].Role)
		}},
		{"Hotels in Paris from June 20 to June 23, 2025 for 2 adults", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, []string{"2025-06-20", "2025-06-23"}, dates(f.Dates))
			require.Equal(t, []baseline.Place{{Text: "Paris", Pos: 10}}, f.Places, "months are not places")
			v, ok := f.Fill(baseline.SlotParam{Name: "adults", Kind: "number"}, "")
			require.True(t, ok)
			require.Equal(t, 2.0, v)
		}},
		{"next Friday, in 3 days and this weekend; also 20/06/2025 and 2025-07-01", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, []string{"2025-06-06", "2025-06-05", "2025-06-07", "2025-06-20", "2025-07-01"}, dates(f.Dates))
		}},
		{"What was the date on 1 May?", func(t *testing.T, f *baseline.Facts) {
			// A date already past this year means next year's.
			require.Equal(t, []string{"2026-05-01"}, dates(f.Dates))
		}},
		{"Convert 1,250.50 dollars to euros", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, []string{"USD", "EUR"}, f.Currencies)
			require.Equal(t, 1250.5, f.Numbers[0].Value)
		}},
		{"How much is €80 in GBP?", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, []string{"EUR", "GBP"}, f.Currencies)
		}},
		{`Translate "good morning" into French`, func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, []string{"good morning"}, f.Quoted)
			require.Equal(t, []string{"fr"}, f.Languages)
		}},
		{"Screenshot https://example.org/a?b=1, mail me at ana@example.org, my IP is 203.0.113.7, land at LHR", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, []string{"https://example.org/a?b=1"}, f.URLs)
			require.Equal(t, []string{"ana@example.org"}, f.Emails)
			require.Equal(t, []string{"203.0.113.7"}, f.IPs)
			require.Equal(t, []string{"LHR"}, f.IATA)
			require.Empty(t, f.Places, "a sentence's first word is no place, nor is a code")
		}},
		{"Public holidays in Germany next year", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, "Germany", f.Places[0].Text)
			require.Equal(t, []int{2026}, f.Years)
		}},
		{"What is 15% of 80?", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, "15% of 80", f.Expression)
		}},
		{"Compute (1,250 * 1.23) / 3 for me, then add 2", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, "(1,250 * 1.23) / 3", f.Expression)
		}},
		{"Which airport is CDG, and what's 100 EUR in USD? Flights from Rio de Janeiro to New York", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, []string{"CDG"}, f.IATA, "currencies are no airports")
			require.Equal(t, []string{"EUR", "USD"}, f.Currencies)
			require.Equal(t, []baseline.Place{{Text: "Rio de Janeiro", Role: "origin", Pos: 62}, {Text: "New York", Role: "destination", Pos: 80}}, f.Places)
		}},
		{"Tell me about the airport LIS.", func(t *testing.T, f *baseline.Facts) {
			require.Empty(t, f.Currencies, "a code away from money is no currency")
			require.Equal(t, []string{"LIS"}, f.IATA)
		}},
		{"What time is it in Europe/Lisbon and in Asia/Tokyo on Friday in French?", func(t *testing.T, f *baseline.Facts) {
			require.Equal(t, []string{"Europe/Lisbon", "Asia/Tokyo"}, f.Zones)
			require.Empty(t, f.Places, "zones, weekdays and languages are no places")
			require.Equal(t, []string{"fr"}, f.Languages)
		}},
		{"weather in nyc", func(t *testing.T, f *baseline.Facts) {
			require.Empty(t, f.Places, "lower-case words are not taken for places")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			tc.check(t, baseline.ExtractFacts(tc.text, now))
		})
	}
}

func TestFill(t *testing.T) {
	f := baseline.ExtractFacts("One-way flight from Porto to Madrid on 12 July, then back on 19 July; pay in EUR", clock.Default)
	tests := []struct {
		p    baseline.SlotParam
		role string
		want any
	}{
		{baseline.SlotParam{Name: "departDate", Description: "Format: YYYY-MM-DD"}, "", "2025-07-12"},
		{baseline.SlotParam{Name: "returnDate", Description: "Format: YYYY-MM-DD"}, "", "2025-07-19"},
		{baseline.SlotParam{Name: "query", Description: "Name of the location where the Airport is situated"}, "origin", "Porto"},
		{baseline.SlotParam{Name: "query", Description: "Name of the location where the Airport is situated"}, "destination", "Madrid"},
		{baseline.SlotParam{Name: "city", Description: "City name"}, "destination", "Madrid"},
		// What a place's code, zone or coordinates are, only a tool can say.
		{baseline.SlotParam{Name: "iata", Description: "IATA code of the airport"}, "destination", nil},
		{baseline.SlotParam{Name: "countryCode", Description: "Two-letter ISO 3166-1 country code"}, "", nil},
		{baseline.SlotParam{Name: "timezone", Description: "IANA time zone"}, "destination", nil},
		{baseline.SlotParam{Name: "lat", Kind: "number", Description: "Latitude"}, "destination", nil},
		{baseline.SlotParam{Name: "cabinClass", Enum: []any{"economy", "business"}}, "", nil},
		{baseline.SlotParam{Name: "currency", Description: "currency code (ISO 4217)"}, "", "EUR"},
	}
	for _, tc := range tests {
		t.Run(tc.p.Name+"/"+tc.role, func(t *testing.T) {
			v, ok := f.Fill(tc.p, tc.role)
			require.Equal(t, tc.want != nil, ok, "got %v", v)
			if tc.want != nil {
				require.Equal(t, tc.want, v)
			}
		})
	}
}

func TestFillWrittenCodes(t *testing.T) {
	f := baseline.ExtractFacts("From LIS to MAD; holidays for DE and the record of CHE; at 41.15, -8.61 in Europe/Lisbon", clock.Default)
	tests := []struct {
		p    baseline.SlotParam
		role string
		want any
	}{
		{baseline.SlotParam{Name: "iata", Description: "IATA code of the airport"}, "origin", "LIS"},
		{baseline.SlotParam{Name: "iata", Description: "IATA code of the airport"}, "destination", "MAD"},
		{baseline.SlotParam{Name: "countryCode", Description: "Two-letter ISO 3166-1 country code"}, "", "DE"},
		{baseline.SlotParam{Name: "code", Description: "ISO 3166-1 alpha-3 country code"}, "", "LIS"},
		{baseline.SlotParam{Name: "timezone", Description: "IANA time zone"}, "", "Europe/Lisbon"},
		{baseline.SlotParam{Name: "lat", Kind: "number"}, "", 41.15},
		{baseline.SlotParam{Name: "lon", Kind: "number"}, "", -8.61},
	}
	for _, tc := range tests {
		t.Run(tc.p.Name+"/"+tc.role, func(t *testing.T) {
			v, ok := f.Fill(tc.p, tc.role)
			require.True(t, ok)
			require.Equal(t, tc.want, v)
		})
	}
}

func newBaseline(t testing.TB) *baseline.Agent {
	t.Helper()
	st := mustStack(t)
	return baseline.New(st.Catalog, st.Graph)
}

// toolsNamed exports the named APIs ("tool.api").
func toolsNamed(t testing.TB, ids ...string) []toolset.OpenAITool {
	t.Helper()
	c := mustStack(t).Catalog
	var out []toolset.OpenAITool
	for _, tl := range toolset.OpenAITools(c, toolset.ExportOptions{}) {
		a := c.APIByExportName(tl.Function.Name)
		for _, id := range ids {
			if a.ID() == id {
				out = append(out, tl)
			}
		}
	}
	require.Len(t, out, len(ids))
	return out
}

func TestBaselineRunsTheFlightChain(t *testing.T) {
	st := freshStack(t)
	b := newBaseline(t)
	s := &solve.ReAct{Agent: b, Executor: &agent.EngineExecutor{Engine: st.Engine}}
	tr, err := s.Solve(context.Background(), solve.Problem{ID: "bl-flight", Query: "Find a one-way flight from Lisbon to London on 20 June 2025.", Tools: toolsOf(st.Catalog, "skyscanner80")})
	require.NoError(t, err)
	require.Equal(t, solve.OutcomeAnswer, tr.Outcome, tr.Error)
	var apis []string
	for _, c := range tr.Calls() {
		require.True(t, c.OK(), "%s: %s", c.Function, c.Error)
		apis = append(apis, strings.TrimPrefix(c.API, "skyscanner80."))
	}
	want := []string{"flights_auto_complete", "flights_auto_complete", "flights_search_one_way"}
	for i := 0; i < flightPolls; i++ {
		want = append(want, "flights_search_incomplete")
	}
	require.Equal(t, want, apis)
	calls := tr.Calls()
	require.JSONEq(t, `{"query":"Lisbon"}`, string(calls[0].Arguments))
	require.JSONEq(t, `{"query":"London"}`, string(calls[1].Arguments))
	var search map[string]any
	require.NoError(t, json.Unmarshal(calls[2].Arguments, &search))
	require.Equal(t, "2025-06-20", search["departDate"])
	sess, ok := st.Engine.Session(tr.Session)
	require.True(t, ok)
	require.Zero(t, sess.Violations, "every id came from a response")
	require.Regexp(t, `price is \$\d`, tr.Answer, "the answer states the fare")
}

func TestBaselineReplies(t *testing.T) {
	b := newBaseline(t)
	ctx := context.Background()
	user := func(q string) []agent.Message { return []agent.Message{{Role: agent.RoleUser, Content: q}} }
	tests := []struct {
		name  string
		msgs  []agent.Message
		tools []toolset.OpenAITool
		check func(t *testing.T, r agent.Reply)
	}{
		{
			name:  "fills a simple call",
			msgs:  user("What's the weather like in Lisbon right now?"),
			tools: toolsNamed(t, "open_weather.city_weather", "currency_exchange.exchange", "calculator.calculate"),
			check: func(t *testing.T, r agent.Reply) {
				require.Len(t, r.ToolCalls, 1)
				require.Equal(t, "open_weather-city_weather", r.ToolCalls[0].Name)
				require.JSONEq(t, `{"city":"Lisbon"}`, string(r.ToolCalls[0].Arguments))
			},
		},
		{
			name:  "currency pair and amount",
			msgs:  user("Convert 250 US dollars to euros at today's exchange rate."),
			tools: toolsNamed(t, "open_weather.city_weather", "currency_exchange.exchange", "calculator.calculate"),
			check: func(t *testing.T, r agent.Reply) {
				require.Len(t, r.ToolCalls, 1)
				require.Equal(t, "currency_exchange-exchange", r.ToolCalls[0].Name)
				require.JSONEq(t, `{"from":"USD","to":"EUR","q":250}`, string(r.ToolCalls[0].Arguments))
			},
		},
		{
			name:  "asks for a missing value, naming the parameter",
			msgs:  user("What's the weather like there right now?"),
			tools: toolsNamed(t, "open_weather.city_weather"),
			check: func(t *testing.T, r agent.Reply) {
				require.Empty(t, r.ToolCalls)
				require.Contains(t, r.Content, "city")
				require.Contains(t, r.Content, "?")
			},
		},
		{
			name:  "asks for the origin of a flight, not for an id",
			msgs:  user("Find me a one-way flight to London on 20 June 2025."),
			tools: toolsOf(mustStack(t).Catalog, "skyscanner80"),
			check: func(t *testing.T, r agent.Reply) {
				require.Empty(t, r.ToolCalls)
				require.Contains(t, r.Content, "origin")
			},
		},
		{
			name:  "no tool for a knowledge question",
			msgs:  user("Explain why the sky is blue."),
			tools: toolsNamed(t, "open_weather.city_weather", "web_search.web_search"),
			check: func(t *testing.T, r agent.Reply) {
				require.Empty(t, r.ToolCalls)
				require.NotEmpty(t, r.Content)
			},
		},
		{
			name:  "no tools offered",
			msgs:  user("Weather in Lisbon?"),
			check: func(t *testing.T, r agent.Reply) { require.Empty(t, r.ToolCalls) },
		},
		{
			name:  "no user message",
			msgs:  []agent.Message{{Role: agent.RoleSystem, Content: "Be brief."}},
			check: func(t *testing.T, r agent.Reply) { require.Equal(t, "What would you like me to do?", r.Content) },
		},
		{
			name: "answers from a tool result",
			msgs: append(user("Weather in Lisbon?"),
				agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "bl_0", Name: "open_weather-city_weather", Arguments: json.RawMessage(`{"city":"Lisbon"}`)}}},
				agent.Message{Role: agent.RoleTool, ToolCallID: "bl_0", Content: `{"error":"","response":{"name":"Lisbon","main":{"temp":21.5,"humidity":60},"weather":[{"description":"clear sky","icon":"01d"}],"id":2267057}}`}),
			tools: toolsNamed(t, "open_weather.city_weather"),
			check: func(t *testing.T, r agent.Reply) {
				require.Empty(t, r.ToolCalls)
				require.Equal(t, "The temp is 21.5 and the description is clear sky.", r.Content)
			},
		},
		{
			name: "reports a failed call",
			msgs: append(user("Weather in Lisbon?"),
				agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "bl_0", Name: "open_weather-city_weather", Arguments: json.RawMessage(`{"city":"Lisbon"}`)}}},
				agent.Message{Role: agent.RoleTool, ToolCallID: "bl_0", Content: `{"error":"the API answered 500","response":{"message":"down"}}`}),
			tools: toolsNamed(t, "open_weather.city_weather"),
			check: func(t *testing.T, r agent.Reply) {
				require.Contains(t, r.Content, "could not finish")
				require.Contains(t, r.Content, "500")
			},
		},
		{
			name: "answers from results it did not ask for",
			msgs: append(user("Weather in Lisbon?"),
				agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "x", Name: "open_weather-city_weather"}}},
				agent.Message{Role: agent.RoleTool, ToolCallID: "x", Content: `{"temp": 20}`}),
			tools: toolsNamed(t, "open_weather.city_weather"),
			check: func(t *testing.T, r agent.Reply) {
				require.Empty(t, r.ToolCalls)
				require.Equal(t, "The temp is 20.", r.Content)
			},
		},
		{
			name: "states the asked-for fields in a sentence, not the result's fields",
			msgs: append(user("What's the phone number and street address of airport ZZZ?"),
				agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "x", Name: "airport_info-airport"}}},
				agent.Message{Role: agent.RoleTool, ToolCallID: "x", Content: `{"name":"Zed Field","city":"Zedville","country_iso":"ZZ","phone":"+99 1 234","street":"1 Runway Road","elevation_ft":12,"iata":"ZZZ"}`}),
			tools: toolsNamed(t, "airport_info.airport"),
			check: func(t *testing.T, r agent.Reply) {
				require.Empty(t, r.ToolCalls)
				require.Contains(t, r.Content, "phone of Zed Field is +99 1 234")
				require.Contains(t, r.Content, "street of Zed Field is 1 Runway Road")
				require.NotContains(t, r.Content, "elevation")
				require.NotContains(t, r.Content, ":")
			},
		},
		{
			name: "names the coordinates a geocoding question asks for",
			msgs: append(user("Geocode Zedville for me."),
				agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "x", Name: "geocoding-forward_geocode"}}},
				agent.Message{Role: agent.RoleTool, ToolCallID: "x", Content: `{"count":1,"results":[{"name":"Zedville","lat":-12.5,"lon":45.25,"osm_id":77}]}`}),
			tools: toolsNamed(t, "geocoding.forward_geocode"),
			check: func(t *testing.T, r agent.Reply) {
				require.Contains(t, r.Content, "-12.5")
				require.Contains(t, r.Content, "45.25")
				require.NotContains(t, r.Content, "osm")
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := b.Respond(ctx, tc.msgs, tc.tools)
			require.NoError(t, err)
			tc.check(t, r)
			again, err := b.Respond(ctx, tc.msgs, tc.tools)
			require.NoError(t, err)
			require.Equal(t, r, again, "deterministic")
		})
	}
}

func TestBaselineWithoutCatalog(t *testing.T) {
	// Tools the catalog does not know still get filled from their schemas.
	b := &baseline.Agent{}
	tools := []toolset.OpenAITool{{Type: "function", Function: toolset.OpenAIFunction{
		Name: "get_forecast", Description: "Weather forecast for a city for a number of days.",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{
			"city": map[string]any{"type": "string", "description": "City name"},
			"days": map[string]any{"type": "integer", "description": "Number of days"},
		}, "required": []any{"city", "days"}},
	}}}
	r, err := b.Respond(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: "Give me the 3 day weather forecast for Tokyo."}}, tools)
	require.NoError(t, err)
	require.Len(t, r.ToolCalls, 1)
	require.JSONEq(t, `{"city":"Tokyo","days":3}`, string(r.ToolCalls[0].Arguments))
}

func FuzzExtractFacts(f *testing.F) {
	for _, s := range []string{
		"Fly from Lisbon to London tomorrow", "€80 in GBP", `"x" 'y' 1/2/2025 2025-13-45`, "in 99999999999999999999 days",
		"next Monday 31 February", "LHR LAX 203.0.113.7 ::1 a@b.co https://x", "sqrt(2)^2 + 15% of 80",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		facts := baseline.ExtractFacts(text, clock.Default)
		for _, p := range []baseline.SlotParam{{Name: "date"}, {Name: "query", Description: "city"}, {Name: "adults", Kind: "number"}, {Name: "from", Description: "currency"}, {Name: "lat"}, {Name: "hotel_id", Kind: "integer"}, {Name: "token"}, {Name: "toId"}} {
			facts.Fill(p, "origin")
		}
	})
}

func BenchmarkBaselineRespond(b *testing.B) {
	bl := newBaseline(b)
	tools := toolsOf(mustStack(b).Catalog, "skyscanner80")
	tools = append(tools, toolsOf(mustStack(b).Catalog, "booking_com")...)
	msgs := []agent.Message{{Role: agent.RoleUser, Content: "Find a one-way flight from Lisbon to London on 20 June 2025 for 2 adults."}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bl.Respond(ctx, msgs, tools); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBaselineKnowsNoFacts(t *testing.T) {
	b := newBaseline(t)
	const (
		call  = "call" // a tool call
		ask   = "ask"  // a question for a value the text does not give
		dunno = "do not know"
	)
	tests := []struct {
		name, tool, query string
		want              []string // substrings of the answer, or call or ask
	}{
		// Stable facts need no tool, and the baseline knows none of them.
		{"capital", "iso_codes.country_by_code", "Quick one: what is the capital city of Portugal?", []string{dunno, "capital of Portugal"}},
		{"currency", "currency_exchange.exchange", "Which currency will I need when I travel to Japan?", []string{dunno, "currency of Japan"}},
		{"language", "iso_codes.language_codes", "What language do they speak in Brazil?", []string{dunno}},
		{"calling code", "iso_codes.country_by_code", "What's the phone prefix for Germany?", []string{dunno}},
		{"time zone", "world_time.timezone_info", "Which time zone is Lisbon in?", []string{dunno, "Lisbon"}},
		{"climate normals", "open_weather.city_weather", "Is Lisbon usually warm in August?", []string{dunno}},
		// Arithmetic and unit conversions need no facts.
		{"arithmetic", "calculator.calculate", "What is 12 times 7?", []string{"84"}},
		{"percentage", "calculator.calculate", "what's 20% of 150?", []string{"30"}},
		{"sharing", "calculator.calculate", "We split 90 euros between 3 people; how much each?", []string{"30"}},
		{"length", "calculator.calculate", "How many miles is 10 km?", []string{"6.2 miles"}},
		{"temperature", "calculator.calculate", "What's 30 degrees Celsius in Fahrenheit?", []string{"86"}},
		{"time units", "calculator.calculate", "How many minutes are in 3 hours?", []string{"180"}},
		// Questions about the present, records and real work go to the tool.
		{"weather now", "open_weather.city_weather", "What's the weather in Lisbon right now?", []string{call}},
		{"hard arithmetic", "calculator.calculate", "What's 1,250 times 1.23?", []string{call}},
		{"imperative arithmetic", "calculator.calculate", "Calculate 15% of 80 for me.", []string{call}},
		{"translation request", "google_translate.translate", `Translate "where is the station" into Italian.`, []string{call}},
		{"zone details", "world_time.timezone_info", "Tell me about the Europe/Paris zone: its offset and DST.", []string{call}},
		{"written code", "iso_codes.country_by_code", "Give me the full country record for code PRT.", []string{call}},
		// A code or coordinates the text does not write, and no tool offered can look up, are asked for.
		{"full record by name", "iso_codes.country_by_code", "Give me the full country record for Portugal, with its capital.", []string{ask, "code"}},
		{"two facts", "iso_codes.country_by_code", "What's the capital and the calling code of Spain?", []string{ask, "code"}},
		{"airport within a distance", "airport_info.nearby_airports", "Which airports are within 100 km of Porto?", []string{ask, "lat"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := b.Respond(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: tc.query}}, toolsNamed(t, tc.tool))
			require.NoError(t, err)
			switch tc.want[0] {
			case call:
				require.NotEmpty(t, r.ToolCalls, r.Content)
				return
			case ask:
				require.Empty(t, r.ToolCalls)
				require.Contains(t, r.Content, "Could you tell me")
			default:
				require.Empty(t, r.ToolCalls)
			}
			for _, w := range tc.want[1:] {
				require.Contains(t, r.Content, w)
			}
			if tc.want[0] != ask {
				require.Contains(t, r.Content, tc.want[0])
			}
		})
	}
}

// TestBaselineLooksUpWhatItDoesNotKnow: coordinates and codes come from
// the offered tools that provide them, called with the text's values.
func TestBaselineLooksUpWhatItDoesNotKnow(t *testing.T) {
	st := freshStack(t)
	b := newBaseline(t)
	s := &solve.ReAct{Agent: b, Executor: &agent.EngineExecutor{Engine: st.Engine}}
	tools := toolsNamed(t, "geocoding.forward_geocode", "airport_info.nearby_airports", "currency_exchange.exchange")
	tr, err := s.Solve(context.Background(), solve.Problem{ID: "bl-airports", Query: "Which airports are close to Porto?", Tools: tools})
	require.NoError(t, err)
	require.Equal(t, solve.OutcomeAnswer, tr.Outcome, tr.Error)
	calls := tr.Calls()
	require.Len(t, calls, 2)
	require.Equal(t, "geocoding.forward_geocode", calls[0].API)
	require.JSONEq(t, `{"address":"Porto"}`, string(calls[0].Arguments))
	require.Equal(t, "airport_info.nearby_airports", calls[1].API)
	var near map[string]any
	require.NoError(t, json.Unmarshal(calls[1].Arguments, &near))
	var geo struct {
		Results []struct{ Lat, Lon float64 } `json:"results"`
	}
	require.NoError(t, json.Unmarshal(calls[0].Response, &geo))
	require.NotEmpty(t, geo.Results)
	require.Equal(t, geo.Results[0].Lat, near["lat"], "the latitude is the geocoder's")
	require.Equal(t, geo.Results[0].Lon, near["lon"])
}

// TestBaselineOnTheMiniDataset runs the registered baseline through the
// evaluator: every instance ends without an error, and twice the same.
func TestBaselineOnTheMiniDataset(t *testing.T) {
	ins, err := dataset.LoadDir(os.DirFS("../../evaltasks/testdata/mini"), ".")
	require.NoError(t, err)
	a, err := evaltasks.NewAgent("baseline", evaltasks.AgentOptions{Catalog: mustStack(t).Catalog, Graph: mustStack(t).Graph})
	require.NoError(t, err)
	run := func() *evaltasks.Report {
		rep, err := evaltasks.Run(context.Background(), evaltasks.Config{Agent: a, AgentName: "baseline", Instructions: ins, Stack: freshStack(t)})
		require.NoError(t, err)
		return rep
	}
	rep := run()
	require.True(t, rep.Complete)
	for _, tr := range rep.Tasks {
		require.Zero(t, tr.Errors, "task %d", tr.ID)
		t.Logf("T%d %s: %v (n=%d)", tr.ID, tr.Name, tr.Metrics, tr.N)
	}
	require.Equal(t, rep, run(), "deterministic")
}

func TestBaselinePlans(t *testing.T) {
	b := newBaseline(t)
	sys := agent.Message{Role: agent.RoleSystem, Content: "You can use the tools listed. Before calling any of them, outline in text how you would solve the user's request: the steps, in order, and the tool functions each step uses."}
	tools := toolsNamed(t, "skyscanner80.flights_auto_complete", "skyscanner80.flights_search_one_way", "open_weather.city_weather", "currency_exchange.exchange")
	r, err := b.Respond(context.Background(), []agent.Message{sys, {Role: agent.RoleUser, Content: "I'm flying from Lisbon to Rome on 20 June; find me a flight, and what's the weather there?"}}, tools)
	require.NoError(t, err)
	require.Empty(t, r.ToolCalls)
	require.Contains(t, r.Content, "1. ")
	search := strings.Index(r.Content, "skyscanner80-flights_search_one_way")
	places := strings.Index(r.Content, "skyscanner80-flights_auto_complete")
	weather := strings.Index(r.Content, "open_weather-city_weather")
	require.GreaterOrEqual(t, search, 0, r.Content)
	require.GreaterOrEqual(t, weather, 0, r.Content)
	require.GreaterOrEqual(t, places, 0, r.Content)
	require.Less(t, places, search, "the place IDs come before the search that needs them:\n%s", r.Content)
	// Each step says what it does in its own words: it does not quote a
	// tool's description (six words in a row) nor hand back the request.
	require.NotContains(t, r.Content, "find me a flight")
	runs := map[string]bool{}
	for _, tl := range tools {
		ws := strings.Fields(strings.ToLower(tl.Function.Description))
		for i := 0; i+6 <= len(ws); i++ {
			runs[strings.Join(ws[i:i+6], " ")] = true
		}
	}
	for _, line := range strings.Split(r.Content, "\n")[1:] {
		ws := strings.Fields(strings.ToLower(line))
		for i := 0; i+6 <= len(ws); i++ {
			require.False(t, runs[strings.Join(ws[i:i+6], " ")], "step quotes a description: %s", line)
		}
	}
	require.Contains(t, r.Content, "Lisbon", "the step names the request's values it uses")
	require.Regexp(t, `with the from id, to id from step \d`, r.Content, "the search says where its IDs come from")

	// Without the system message the same request is acted on.
	r, err = b.Respond(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: "What's the weather in Rome right now?"}}, tools)
	require.NoError(t, err)
	require.NotEmpty(t, r.ToolCalls)
}

func TestFillQuotedIDs(t *testing.T) {
	tests := []struct {
		text string
		p    baseline.SlotParam
		role string
		want any
	}{
		{"Show me the reviews of hotel 4410127 please", baseline.SlotParam{Name: "hotel_id", Kind: "integer"}, "", int64(4410127)},
		{"What goes into recipe #4512?", baseline.SlotParam{Name: "id", Kind: "integer"}, "", int64(4512)},
		{"Hotels in dest_id -553173 from 2025-09-01 to 2025-09-04", baseline.SlotParam{Name: "dest_id"}, "", "-553173"},
		{"Is job a1b2c3d4e5f6g7h8 finished?", baseline.SlotParam{Name: "result_id"}, "", "a1b2c3d4e5f6g7h8"},
		{"From eyJzIjoiQUFBIiwiZSI6IjEifQ to eyJzIjoiQkJCIiwiZSI6IjIifQ on 2025-09-01", baseline.SlotParam{Name: "toId"}, "destination", "eyJzIjoiQkJCIiwiZSI6IjIifQ"},
		{"From eyJzIjoiQUFBIiwiZSI6IjEifQ to eyJzIjoiQkJCIiwiZSI6IjIifQ on 2025-09-01", baseline.SlotParam{Name: "fromId"}, "origin", "eyJzIjoiQUFBIiwiZSI6IjEifQ"},
		{"Itinerary 111-2509011000--222-0-333-2509011200, token eyJhIjoiMTIzNDU2Nzg5MCJ9", baseline.SlotParam{Name: "token"}, "", "eyJhIjoiMTIzNDU2Nzg5MCJ9"},
		{"Itinerary 111-2509011000--222-0-333-2509011200, token eyJhIjoiMTIzNDU2Nzg5MCJ9", baseline.SlotParam{Name: "itineraryId"}, "", "111-2509011000--222-0-333-2509011200"},
		// Years, dates, small counts and URLs are not IDs.
		{"Rooms for 2 adults in 2026, 2025-09-01 to 2025-09-03", baseline.SlotParam{Name: "hotel_id", Kind: "integer"}, "", nil},
		{"Look at https://images.example.test/photo_123456.jpg", baseline.SlotParam{Name: "result_id"}, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.p.Name+"/"+tc.text, func(t *testing.T) {
			v, ok := baseline.ExtractFacts(tc.text, clock.Default).Fill(tc.p, tc.role)
			require.Equal(t, tc.want != nil, ok, "got %v", v)
			if tc.want != nil {
				require.Equal(t, tc.want, v)
			}
		})
	}
}

func FuzzBaselineKnowledge(f *testing.F) {
	b := newBaseline(f)
	for _, s := range []string{"What is 3 times 4?", "capital of Peru?", "5 km in miles", `"hello" in French`, "-1 x -1", "Is Oslo usually cold in Jan?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := b.Respond(context.Background(), []agent.Message{{Role: agent.RoleUser, Content: q}}, nil); err != nil {
			t.Fatal(err)
		}
	})
}
