package travel

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

// conforms checks a response against its API's documented example.
func conforms(s *standintest.Session, tool, api string, resp any) {
	s.T().Helper()
	a := standintest.Tools(s.T(), travelTools...)[tool].API(api)
	require.NotNil(s.T(), a, "%s.%s", tool, api)
	var ex any
	require.NoError(s.T(), json.Unmarshal(a.ExampleResponse, &ex))
	require.NoError(s.T(), standintest.Shape(ex, resp), "%s.%s", tool, api)
}

func skyFirstID(t *testing.T, s *standintest.Session, query string) string {
	t.Helper()
	v := s.OK(skyTool, "flights_auto_complete", map[string]any{"query": query})
	conforms(s, skyTool, "flights_auto_complete", v)
	return standintest.Get(t, v, "data[0].id").(string)
}

func TestSkyscannerFlightChain(t *testing.T) {
	s := standintest.New(t, Register)
	lis := skyFirstID(t, s, "Lisbon")
	lon := skyFirstID(t, s, "London")

	first := s.OK(skyTool, "flights_search_one_way", map[string]any{"fromId": lis, "toId": lon, "departDate": "2025-06-20", "currency": "EUR"})
	conforms(s, skyTool, "flights_search_one_way", first)
	require.Equal(t, "incomplete", standintest.Get(t, first, "data.context.status"))
	session := standintest.Get(t, first, "data.context.sessionId").(string)
	token := standintest.Get(t, first, "data.token").(string)
	seen := len(standintest.Get(t, first, "data.itineraries").([]any))
	require.Positive(t, seen)

	var last any
	polls := 0
	for status := "incomplete"; status != "complete"; polls++ {
		require.Less(t, polls, 5, "search never completes")
		last = s.OK(skyTool, "flights_search_incomplete", map[string]any{"sessionId": session})
		conforms(s, skyTool, "flights_search_incomplete", last)
		status = standintest.Get(t, last, "data.context.status").(string)
		n := len(standintest.Get(t, last, "data.itineraries").([]any))
		require.GreaterOrEqual(t, n, seen, "polling never loses itineraries")
		seen = n
		require.Equal(t, token, standintest.Get(t, last, "data.token"))
	}
	require.GreaterOrEqual(t, polls, 2)
	require.LessOrEqual(t, polls, 3)
	require.Greater(t, seen, len(standintest.Get(t, first, "data.itineraries").([]any)), "the complete search has more itineraries than the first page")

	// Every itinerary flies Lisbon → a London airport on the requested date,
	// with a plausible block time for ~1,600 km.
	for _, it := range standintest.Get(t, last, "data.itineraries").([]any) {
		leg := standintest.Get(t, it, "legs[0]")
		require.Equal(t, "LIS", standintest.Get(t, leg, "origin.id"))
		require.Equal(t, "London", standintest.Get(t, leg, "destination.city"))
		require.True(t, strings.HasPrefix(standintest.Get(t, leg, "departure").(string), "2025-06-20T"))
		mins := standintest.Get(t, leg, "durationInMinutes").(float64)
		if standintest.Get(t, leg, "stopCount").(float64) == 0 {
			require.InDelta(t, 150, mins, 30, "direct LIS-LON")
		} else {
			require.Greater(t, mins, 180.0)
		}
		require.Positive(t, standintest.Get(t, it, "price.raw").(float64))
		require.True(t, strings.HasPrefix(standintest.Get(t, it, "price.formatted").(string), "€"))
	}

	itin := standintest.Get(t, last, "data.itineraries[0].id").(string)
	detail := s.OK(skyTool, "flights_detail", map[string]any{"itineraryId": itin, "token": token})
	conforms(s, skyTool, "flights_detail", detail)
	require.Equal(t, itin, standintest.Get(t, detail, "data.itinerary.legs[0].id"))
	require.Equal(t, "LIS", standintest.Get(t, detail, "data.itinerary.legs[0].origin.id"))
	opts := standintest.Get(t, detail, "data.itinerary.pricingOptions").([]any)
	require.Len(t, opts, 3)
	for _, o := range opts {
		require.Positive(t, standintest.Get(t, o, "totalPrice").(float64))
	}

	// Values that no API minted are refused.
	forged := base64.StdEncoding.EncodeToString([]byte(`{"s":"LIS","e":"12345678","h":"27544072"}`))
	body := s.Fails(400, skyTool, "flights_search_one_way", map[string]any{"fromId": forged, "toId": lon, "departDate": "2025-06-20"})
	require.Equal(t, map[string]any{"status": false, "message": "Invalid fromId"}, body)
	s.Fails(400, skyTool, "flights_search_one_way", map[string]any{"fromId": "LIS", "toId": lon, "departDate": "2025-06-20"})
	s.Fails(400, skyTool, "flights_search_one_way", map[string]any{"fromId": lis, "toId": "London", "departDate": "2025-06-20"})
	body = s.Fails(400, skyTool, "flights_search_incomplete", map[string]any{"sessionId": "ClQIARJQCk4KJDk0ZjA1ZWQ4LTAzYzUtNDdmZS1iZjZiLTJjYjFmMmM2OWI0ZA"})
	require.Equal(t, "Invalid sessionId", body["message"])
	s.Fails(400, skyTool, "flights_detail", map[string]any{"itineraryId": itin, "token": "eyJhIjoiZm9yZ2VkIn0"})
	s.Fails(400, skyTool, "flights_detail", map[string]any{"itineraryId": "13542-2506201130--32132-0-9828-2506201420", "token": token})

	// A session id minted in one sandbox session means nothing in another.
	other := standintest.New(t, Register)
	other.Fails(400, skyTool, "flights_search_incomplete", map[string]any{"sessionId": session})
	other.Fails(400, skyTool, "flights_detail", map[string]any{"itineraryId": itin, "token": token})
}

func TestSkyscannerSearchErrors(t *testing.T) {
	s := standintest.New(t, Register)
	lis := skyFirstID(t, s, "Lisbon")
	lon := skyFirstID(t, s, "London")
	lhr := skyFirstID(t, s, "LHR")
	for _, tc := range []struct {
		name string
		args map[string]any
		msg  string
	}{
		{"past date", map[string]any{"fromId": lis, "toId": lon, "departDate": "2025-06-01"}, "departDate must be today or a future date"},
		{"bad date", map[string]any{"fromId": lis, "toId": lon, "departDate": "20/06/2025"}, "departDate must be in the format YYYY-MM-DD"},
		{"far future", map[string]any{"fromId": lis, "toId": lon, "departDate": "2027-01-01"}, "departDate must be within the next 12 months"},
		{"same place", map[string]any{"fromId": lon, "toId": lhr, "departDate": "2025-06-20"}, "fromId and toId must be different locations"},
		{"adults", map[string]any{"fromId": lis, "toId": lon, "departDate": "2025-06-20", "adults": 0}, "adults must be between 1 and 8"},
		{"cabin", map[string]any{"fromId": lis, "toId": lon, "departDate": "2025-06-20", "cabinClass": "luxury"}, "cabinClass must be one of economy, premium_economy, business, first"},
		{"currency", map[string]any{"fromId": lis, "toId": lon, "departDate": "2025-06-20", "currency": "XXX"}, "Invalid currency"},
		{"empty fromId", map[string]any{"fromId": "", "toId": lon, "departDate": "2025-06-20"}, "Invalid fromId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := s.Fails(400, skyTool, "flights_search_one_way", tc.args)
			require.Equal(t, map[string]any{"status": false, "message": tc.msg}, body)
		})
	}
	body := s.Fails(400, skyTool, "flights_search_roundtrip", map[string]any{"fromId": lis, "toId": lon, "departDate": "2025-06-20", "returnDate": "2025-06-19"})
	require.Equal(t, "returnDate must be on or after departDate", body["message"])
	// Today is fine: the frozen clock reads 2025-06-02.
	s.OK(skyTool, "flights_search_one_way", map[string]any{"fromId": lis, "toId": lon, "departDate": "2025-06-02"})
}

func TestSkyscannerRoundtrip(t *testing.T) {
	s := standintest.New(t, Register)
	ny := skyFirstID(t, s, "New York")
	lis := skyFirstID(t, s, "Lisbon")
	v := s.OK(skyTool, "flights_search_roundtrip", map[string]any{"fromId": ny, "toId": lis, "departDate": "2025-07-01", "returnDate": "2025-07-10", "adults": 2})
	conforms(s, skyTool, "flights_search_roundtrip", v)
	for _, it := range standintest.Get(t, v, "data.itineraries").([]any) {
		legs := standintest.Get(t, it, "legs").([]any)
		require.Len(t, legs, 2)
		require.Equal(t, "New York", standintest.Get(t, legs[0], "origin.city"))
		require.Equal(t, "LIS", standintest.Get(t, legs[0], "destination.id"))
		require.Equal(t, "LIS", standintest.Get(t, legs[1], "origin.id"))
		require.True(t, strings.HasPrefix(standintest.Get(t, legs[1], "departure").(string), "2025-07-10T"))
		// Transatlantic: at least six hours each way.
		require.Greater(t, standintest.Get(t, legs[0], "durationInMinutes").(float64), 360.0)
		require.Contains(t, standintest.Get(t, it, "id"), "|")
	}
	sid := standintest.Get(t, v, "data.context.sessionId").(string)
	done := s.OK(skyTool, "flights_search_incomplete", map[string]any{"sessionId": sid, "currency": "GBP"})
	require.True(t, strings.HasPrefix(standintest.Get(t, done, "data.itineraries[0].price.formatted").(string), "£"))
}

func TestSkyscannerDeterministicAndVaried(t *testing.T) {
	search := func(date, currency string) []byte {
		s := standintest.New(t, Register)
		lis := skyFirstID(t, s, "Lisbon")
		par := skyFirstID(t, s, "Paris")
		v := s.OK(skyTool, "flights_search_one_way", map[string]any{"fromId": lis, "toId": par, "departDate": date, "currency": currency})
		b, err := canon.JSON(v)
		require.NoError(t, err)
		return b
	}
	a := search("2025-06-20", "USD")
	require.Equal(t, string(a), string(search("2025-06-20", "USD")), "same search, same bytes")
	require.NotEqual(t, string(a), string(search("2025-06-21", "USD")), "another day, other flights")

	// Prices in two currencies differ by the world's rate.
	price := func(currency string) float64 {
		s := standintest.New(t, Register)
		v := s.OK(skyTool, "flights_search_one_way", map[string]any{"fromId": skyFirstID(t, s, "Lisbon"), "toId": skyFirstID(t, s, "Paris"), "departDate": "2025-06-20", "currency": currency})
		return standintest.Get(t, v, "data.itineraries[0].price.raw").(float64)
	}
	rate, err := standintest.World(t).Rate("USD", "JPY")
	require.NoError(t, err)
	require.InDelta(t, price("USD")*rate, price("JPY"), price("JPY")*0.01)
}

func TestSkyscannerAutoComplete(t *testing.T) {
	s := standintest.New(t, Register)
	for _, tc := range []struct{ query, title, kind string }{
		{"Lisbon", "Lisbon", "CITY"},
		{"Lisboa", "Lisbon", "CITY"},
		{"LHR", "London Heathrow", "AIRPORT"},
		{"new york", "New York", "CITY"},
		{"Heathrow", "London Heathrow", "AIRPORT"},
	} {
		v := s.OK(skyTool, "flights_auto_complete", map[string]any{"query": tc.query})
		require.Equal(t, tc.title, standintest.Get(t, v, "data[0].presentation.title"), tc.query)
		require.Equal(t, tc.kind, standintest.Get(t, v, "data[0].navigation.relevantFlightParams.flightPlaceType"), tc.query)
		id := standintest.Get(t, v, "data[0].id").(string)
		raw, err := base64.StdEncoding.DecodeString(id)
		require.NoError(t, err)
		var p world.SkyPlaceID
		require.NoError(t, json.Unmarshal(raw, &p))
		require.Equal(t, standintest.Get(t, v, "data[0].navigation.relevantFlightParams.skyId"), p.S)
	}
	// The paper's example ids decode to our New York and London.
	v := s.OK(skyTool, "flights_auto_complete", map[string]any{"query": "New York"})
	require.Equal(t, "eyJzIjoiTllDQSIsImUiOiIyNzUzNzU0MiIsImgiOiIyNzUzNzU0MiJ9", standintest.Get(t, v, "data[0].id"))
	require.Len(t, standintest.Get(t, v, "data").([]any), 4, "New York (Any), JFK, LGA, EWR")
	v = s.OK(skyTool, "flights_auto_complete", map[string]any{"query": "qqqzzz"})
	require.Empty(t, standintest.Get(t, v, "data"))
	v = s.OK(skyTool, "flights_auto_complete", map[string]any{"query": "  "})
	require.Empty(t, standintest.Get(t, v, "data"))
}

func TestSkyscannerGetConfig(t *testing.T) {
	s := standintest.New(t, Register)
	v := s.OK(skyTool, "get_config", nil)
	conforms(s, skyTool, "get_config", v)
	found := map[string]string{}
	for _, m := range standintest.Get(t, v, "data").([]any) {
		found[standintest.Get(t, m, "market").(string)] = standintest.Get(t, m, "currency").(string)
	}
	require.Equal(t, "USD", found["US"])
	require.Equal(t, "GBP", found["UK"])
	require.Equal(t, "EUR", found["PT"])
}

func TestSkyscannerGolden(t *testing.T) {
	s := standintest.New(t, Register)
	out := map[string]any{}
	out["auto_complete_lisbon"] = s.OK(skyTool, "flights_auto_complete", map[string]any{"query": "Lisbon"})
	lis := skyFirstID(t, s, "Lisbon")
	lon := skyFirstID(t, s, "London")
	first := s.OK(skyTool, "flights_search_one_way", map[string]any{"fromId": lis, "toId": lon, "departDate": "2025-06-20"})
	out["one_way_first_page"] = first
	sid := standintest.Get(t, first, "data.context.sessionId").(string)
	var last any
	for range 3 {
		last = s.OK(skyTool, "flights_search_incomplete", map[string]any{"sessionId": sid})
	}
	out["incomplete_final"] = last
	out["detail"] = s.OK(skyTool, "flights_detail", map[string]any{"itineraryId": standintest.Get(t, last, "data.itineraries[0].id"), "token": standintest.Get(t, first, "data.token")})
	out["error_from_id"] = s.Fails(400, skyTool, "flights_search_one_way", map[string]any{"fromId": "bm9wZQ==", "toId": lon, "departDate": "2025-06-20"})
	standintest.Golden(t, "skyscanner80.golden.json", out)
}

// FuzzSkyDecodeID feeds arbitrary ids to the decoder: it never panics and
// accepts only ids that encode a known place consistently.
func FuzzSkyDecodeID(f *testing.F) {
	w := standintest.World(f)
	d := w.Travel
	f.Add("eyJzIjoiTllDQSIsImUiOiIyNzUzNzU0MiIsImgiOiIyNzUzNzU0MiJ9")
	f.Add(world.SkyEncodeID("LIS", "95565055", "27544072"))
	f.Add("eyJzIjoiTElTIn0")
	f.Add("not base64 at all")
	f.Add("")
	f.Fuzz(func(t *testing.T, id string) {
		e, ok := skyDecodeID(d, id)
		if !ok {
			return
		}
		require.NotNil(t, e.place)
		require.NotEmpty(t, e.airports)
		if e.airport != nil {
			require.Equal(t, world.SkyEncodeID(e.airport.IATA, e.airport.SkyEntityID, e.place.SkyEntityID), skyNormalizeID(t, id))
		} else {
			require.Equal(t, world.SkyEncodeID(e.place.SkyID, e.place.SkyEntityID, e.place.SkyEntityID), skyNormalizeID(t, id))
		}
	})
}

// skyNormalizeID re-encodes an accepted id's decoded JSON the canonical way.
func skyNormalizeID(t *testing.T, id string) string {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if raw, err := enc.DecodeString(strings.TrimSpace(id)); err == nil {
			var p world.SkyPlaceID
			require.NoError(t, json.Unmarshal(raw, &p))
			return world.SkyEncodeID(p.S, p.E, p.H)
		}
	}
	t.Fatalf("accepted id %q does not decode", id)
	return ""
}

func BenchmarkSkyscannerSearchOneWay(b *testing.B) {
	s := standintest.New(b, Register)
	lis := world.SkyEncodeID("LIS", "27544072", "27544072")
	lon := world.SkyEncodeID("LOND", "27544008", "27544008")
	args := map[string]any{"fromId": lis, "toId": lon, "departDate": "2025-06-20"}
	s.Bench(b, skyTool, "flights_search_one_way", args)
}

func BenchmarkSkyscannerAutoComplete(b *testing.B) {
	s := standintest.New(b, Register)
	args := map[string]any{"query": "London"}
	s.Bench(b, skyTool, "flights_auto_complete", args)
}

func TestSkyscannerRoutesAreRealistic(t *testing.T) {
	d := standintest.World(t).Travel
	carriers := func(from, to string) map[string]int {
		out := map[string]int{}
		for _, r := range skyRoutes(d, d.AirportByIATA[from], d.AirportByIATA[to]) {
			if n, ok := out[r.carrier.Code]; !ok || len(r.stops)-2 < n {
				out[r.carrier.Code] = len(r.stops) - 2
			}
		}
		return out
	}
	lisLhr := carriers("LIS", "LHR")
	require.Equal(t, 0, lisLhr["TP"], "the flag carriers fly direct")
	require.Equal(t, 0, lisLhr["BA"])
	require.Equal(t, 0, lisLhr["U2"], "easyJet is based in both countries")
	require.NotContains(t, lisLhr, "DY", "Norwegian is not based in Portugal or the UK")
	syd := carriers("LIS", "SYD")
	require.NotEmpty(t, syd)
	for code, stops := range syd {
		require.Equal(t, 1, stops, "%s: nobody flies Lisbon-Sydney nonstop", code)
	}
	require.Equal(t, 0, carriers("JFK", "HND")["JL"], "hub to hub long haul is direct")
	require.Equal(t, 0, carriers("JFK", "LHR")["AA"])
	for code, stops := range carriers("JFK", "STN") {
		require.Equal(t, 1, stops, "%s: no transatlantic flights into Stansted", code)
	}
	// Every pair of main airports has a way to fly.
	w := standintest.World(t)
	for _, a := range w.Cities() {
		for _, b := range w.Cities() {
			if a != b && len(a.Airports) > 0 && len(b.Airports) > 0 && a.ID < "c" {
				require.NotEmpty(t, skyRoutes(d, d.AirportByIATA[a.Airports[0]], d.AirportByIATA[b.Airports[0]]), "%s-%s", a.ID, b.ID)
			}
		}
	}
}
