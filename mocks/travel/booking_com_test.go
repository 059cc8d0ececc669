package travel

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

func TestBookingHotelChain(t *testing.T) {
	s := standintest.New(t, Register)
	dest := s.OK(bkTool, "search_hotel_destination", map[string]any{"query": "Lisbon"})
	conforms(s, bkTool, "search_hotel_destination", dest)
	require.Equal(t, "-2167973", standintest.Get(t, dest, "data[0].dest_id"))
	require.Equal(t, "city", standintest.Get(t, dest, "data[0].search_type"))

	stay := map[string]any{"arrival_date": "2025-06-20", "departure_date": "2025-06-23"}
	args := map[string]any{"dest_id": standintest.Get(t, dest, "data[0].dest_id"), "search_type": "CITY", "adults": 2, "room_qty": 1, "currency_code": "EUR"}
	for k, v := range stay {
		args[k] = v
	}
	res := s.OK(bkTool, "search_hotels", args)
	conforms(s, bkTool, "search_hotels", res)
	hotels := standintest.Get(t, res, "data.hotels").([]any)
	require.GreaterOrEqual(t, len(hotels), 3)
	w := standintest.World(t)
	lisbon, _ := w.CityByID("lisbon")
	for _, h := range hotels {
		lat := standintest.Get(t, h, "property.latitude").(float64)
		lon := standintest.Get(t, h, "property.longitude").(float64)
		require.Less(t, world.DistanceKm(lat, lon, lisbon.Lat, lisbon.Lon), w.Travel.Areas.MetroRadius("lisbon"), "hotels in Lisbon are in Lisbon")
		require.Equal(t, "EUR", standintest.Get(t, h, "property.priceBreakdown.grossPrice.currency"))
		require.Equal(t, "pt", standintest.Get(t, h, "property.countryCode"))
		require.True(t, strings.HasPrefix(standintest.Get(t, h, "property.photoUrls[0]").(string), "https://cf.bstatic.com/"))
	}
	hotelID := standintest.Get(t, hotels[0], "hotel_id")
	total := standintest.Get(t, hotels[0], "property.priceBreakdown.grossPrice.value").(float64)

	details := s.OK(bkTool, "get_hotel_details", map[string]any{"hotel_id": hotelID, "arrival_date": "2025-06-20", "departure_date": "2025-06-23", "adults": 2, "currency_code": "EUR"})
	conforms(s, bkTool, "get_hotel_details", details)
	require.Equal(t, hotelID, standintest.Get(t, details, "data.hotel_id"))
	require.Equal(t, "Lisbon", standintest.Get(t, details, "data.city"))
	require.Equal(t, total, standintest.Get(t, details, "data.composite_price_breakdown.gross_amount.value"), "details price the stay like the search")
	require.InDelta(t, total/3, standintest.Get(t, details, "data.composite_price_breakdown.gross_amount_per_night.value"), 0.01)

	rooms := s.OK(bkTool, "get_room_list", map[string]any{"hotel_id": hotelID, "arrival_date": "2025-06-20", "departure_date": "2025-06-23", "adults": 2, "currency_code": "EUR"})
	conforms(s, bkTool, "get_room_list", rooms)
	blocks := standintest.Get(t, rooms, "data.block").([]any)
	require.NotEmpty(t, blocks)
	require.Equal(t, total, standintest.Get(t, blocks[0], "product_price_breakdown.gross_amount.value"), "the first room's non-refundable rate is the search price")
	require.NotEmpty(t, standintest.Get(t, rooms, "data.rooms"))

	reviews := s.OK(bkTool, "get_hotel_reviews", map[string]any{"hotel_id": hotelID})
	conforms(s, bkTool, "get_hotel_reviews", reviews)
	result := standintest.Get(t, reviews, "data.result").([]any)
	require.Len(t, result, 10)
	for _, r := range result {
		sc := standintest.Get(t, r, "average_score").(float64)
		require.True(t, sc >= 1 && sc <= 10)
		require.NotEmpty(t, standintest.Get(t, r, "pros"))
		require.Less(t, standintest.Get(t, r, "stayed_room_info.checkout").(string), "2025-06-02", "reviews are of past stays")
	}
	page7 := s.OK(bkTool, "get_hotel_reviews", map[string]any{"hotel_id": hotelID, "page_number": 7})
	require.Empty(t, standintest.Get(t, page7, "data.result"))
	byScore := s.OK(bkTool, "get_hotel_reviews", map[string]any{"hotel_id": hotelID, "sort_option_id": "sort_score_desc"})
	require.GreaterOrEqual(t, standintest.Get(t, byScore, "data.result[0].average_score").(float64), standintest.Get(t, byScore, "data.result[9].average_score").(float64))

	photos := s.OK(bkTool, "get_hotel_photos", map[string]any{"hotel_id": hotelID})
	conforms(s, bkTool, "get_hotel_photos", photos)
	require.Len(t, standintest.Get(t, photos, "data").([]any), 8)

	// Fabricated ids are refused.
	for _, api := range []string{"get_hotel_details", "get_room_list", "get_hotel_reviews", "get_hotel_photos"} {
		body := s.Fails(400, bkTool, api, map[string]any{"hotel_id": 12345, "arrival_date": "2025-06-20", "departure_date": "2025-06-23"})
		require.Equal(t, false, standintest.Get(t, body, "status"), api)
		require.Equal(t, "Invalid hotel_id", standintest.Get(t, body, "message[0].hotel_id"), api)
	}
	body := s.Fails(400, bkTool, "search_hotels", map[string]any{"dest_id": "-999", "search_type": "CITY", "arrival_date": "2025-06-20", "departure_date": "2025-06-23"})
	require.Equal(t, "Invalid dest_id", standintest.Get(t, body, "message[0].dest_id"))
}

func TestBookingStayErrors(t *testing.T) {
	s := standintest.New(t, Register)
	for _, tc := range []struct {
		name, field, msg string
		args             map[string]any
	}{
		{"past", "arrival_date", "arrival_date cannot be in the past", map[string]any{"arrival_date": "2025-05-20", "departure_date": "2025-05-23"}},
		{"reversed", "departure_date", "departure_date must be after arrival_date", map[string]any{"arrival_date": "2025-06-23", "departure_date": "2025-06-20"}},
		{"same day", "departure_date", "departure_date must be after arrival_date", map[string]any{"arrival_date": "2025-06-20", "departure_date": "2025-06-20"}},
		{"format", "arrival_date", "arrival_date must be in the format yyyy-mm-dd", map[string]any{"arrival_date": "20-06-2025", "departure_date": "2025-06-23"}},
		{"too long", "departure_date", "The stay cannot be longer than 90 nights", map[string]any{"arrival_date": "2025-06-20", "departure_date": "2025-12-23"}},
		{"adults", "adults", "adults must be between 1 and 30", map[string]any{"arrival_date": "2025-06-20", "departure_date": "2025-06-23", "adults": 0}},
		{"currency", "currency_code", "Invalid currency_code", map[string]any{"arrival_date": "2025-06-20", "departure_date": "2025-06-23", "currency_code": "ABC"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.args["dest_id"] = "-2167973"
			tc.args["search_type"] = "CITY"
			body := s.Fails(400, bkTool, "search_hotels", tc.args)
			require.Equal(t, tc.msg, standintest.Get(t, body, "message[0]."+tc.field))
		})
	}
}

func TestBookingPricesFollowTheStay(t *testing.T) {
	s := standintest.New(t, Register)
	price := func(arr, dep string, adults, rooms int, cur string) float64 {
		v := s.OK(bkTool, "search_hotels", map[string]any{"dest_id": "-1456928", "search_type": "city", "arrival_date": arr, "departure_date": dep, "adults": adults, "room_qty": rooms, "currency_code": cur})
		require.Equal(t, "Paris", standintest.Get(t, v, "data.hotels[0].property.wishlistName"))
		return standintest.Get(t, v, "data.hotels[0].property.priceBreakdown.grossPrice.value").(float64)
	}
	two := price("2025-06-16", "2025-06-18", 2, 1, "EUR")
	four := price("2025-06-16", "2025-06-20", 2, 1, "EUR")
	require.Greater(t, four, two*1.6, "four nights cost about twice two")
	require.InDelta(t, 2*two, price("2025-06-16", "2025-06-18", 4, 2, "EUR"), 0.05, "two rooms cost twice one")
	rate, err := standintest.World(t).Rate("EUR", "USD")
	require.NoError(t, err)
	require.InDelta(t, two*rate, price("2025-06-16", "2025-06-18", 2, 1, "USD"), 0.05)

	// A hotel found by name searches as a one-hotel destination.
	dest := s.OK(bkTool, "search_hotel_destination", map[string]any{"query": "Tour Eiffel Champ"})
	require.Equal(t, "hotel", standintest.Get(t, dest, "data[0].search_type"))
	one := s.OK(bkTool, "search_hotels", map[string]any{"dest_id": standintest.Get(t, dest, "data[0].dest_id"), "search_type": "HOTEL", "arrival_date": "2025-06-16", "departure_date": "2025-06-18"})
	require.Len(t, standintest.Get(t, one, "data.hotels").([]any), 1)
	require.Equal(t, standintest.Get(t, dest, "data[0].dest_id"), strconv.Itoa(int(standintest.Get(t, one, "data.hotels[0].hotel_id").(float64))))
}

func TestBookingEveryCityWithAirportsHasHotels(t *testing.T) {
	s := standintest.New(t, Register)
	w := standintest.World(t)
	for _, c := range w.Cities() {
		if len(c.Airports) == 0 {
			continue
		}
		v := s.OK(bkTool, "search_hotel_destination", map[string]any{"query": c.Name + ", " + c.Country})
		data := standintest.Get(t, v, "data").([]any)
		require.NotEmpty(t, data, c.ID)
		p := w.Travel.PlaceByCity[c.ID]
		require.Equal(t, p.BookingDestID, standintest.Get(t, data[0], "dest_id"), c.ID)
		require.GreaterOrEqual(t, len(p.Hotels), 3, c.ID)
	}
}

func TestBookingDeterministic(t *testing.T) {
	args := map[string]any{"dest_id": "-2601889", "search_type": "CITY", "arrival_date": "2025-07-01", "departure_date": "2025-07-04"}
	a, err := canon.JSON(standintest.New(t, Register).OK(bkTool, "search_hotels", args))
	require.NoError(t, err)
	b, err := canon.JSON(standintest.New(t, Register).OK(bkTool, "search_hotels", args))
	require.NoError(t, err)
	require.Equal(t, string(a), string(b))
	args["departure_date"] = "2025-07-05"
	c, err := canon.JSON(standintest.New(t, Register).OK(bkTool, "search_hotels", args))
	require.NoError(t, err)
	require.NotEqual(t, string(a), string(c))
}

func TestBookingGolden(t *testing.T) {
	s := standintest.New(t, Register)
	stay := func(m map[string]any) map[string]any {
		m["arrival_date"], m["departure_date"] = "2025-06-20", "2025-06-23"
		return m
	}
	out := map[string]any{
		"destination_lisbon": s.OK(bkTool, "search_hotel_destination", map[string]any{"query": "Lisbon"}),
		"hotels_lisbon":      s.OK(bkTool, "search_hotels", stay(map[string]any{"dest_id": "-2167973", "search_type": "CITY", "adults": 2})),
	}
	id := standintest.Get(t, out["hotels_lisbon"], "data.hotels[0].hotel_id")
	out["details"] = s.OK(bkTool, "get_hotel_details", stay(map[string]any{"hotel_id": id}))
	out["rooms"] = s.OK(bkTool, "get_room_list", stay(map[string]any{"hotel_id": id, "currency_code": "USD"}))
	out["reviews"] = s.OK(bkTool, "get_hotel_reviews", map[string]any{"hotel_id": id})
	out["photos"] = s.OK(bkTool, "get_hotel_photos", map[string]any{"hotel_id": id})
	out["error_past"] = s.Fails(400, bkTool, "search_hotels", map[string]any{"dest_id": "-2167973", "search_type": "CITY", "arrival_date": "2025-01-01", "departure_date": "2025-01-02"})
	standintest.Golden(t, "booking_com.golden.json", out)
}

// FuzzBookingStay throws arbitrary dates and counts at the stay parser
// through search_hotels: every outcome is a response or an *sandbox.Rejection.
func FuzzBookingStay(f *testing.F) {
	registry := standin.NewRegistry()
	Register(registry)
	w := standintest.World(f)
	f.Add("2025-06-20", "2025-06-23", 2.0, 1.0)
	f.Add("2025-02-30", "2025-06-23", -1.0, 1e9)
	f.Add("", "x", 0.5, 31.0)
	f.Fuzz(func(t *testing.T, arr, dep string, adults, rooms float64) {
		h, _ := registry.Lookup(bkTool, "search_hotels")
		args := map[string]any{"dest_id": "-2167973", "search_type": "CITY", "arrival_date": arr, "departure_date": dep, "adults": adults, "room_qty": rooms}
		c := &standin.Call{Args: args, Now: clock.Default, State: standin.NewState()}
		v, err := h(t.Context(), w, c)
		if err != nil {
			_, ok := err.(*sandbox.Rejection)
			require.True(t, ok, "%T %v", err, err)
			return
		}
		require.NotNil(t, v)
	})
}

func BenchmarkBookingSearchHotels(b *testing.B) {
	s := standintest.New(b, Register)
	args := map[string]any{"dest_id": "-2601889", "search_type": "CITY", "arrival_date": "2025-06-20", "departure_date": "2025-06-23", "adults": 2.0}
	s.Bench(b, bkTool, "search_hotels", args)
}
