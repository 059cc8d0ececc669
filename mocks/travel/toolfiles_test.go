package travel

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
)

// travelPlan is the dependency plan of fixtures/toolset/README.md for the
// travel slice: "<tool>.<api>.<param>" ← "<tool>.<api>:<path>".
var travelPlan = map[string][]string{
	"skyscanner80.flights_search_one_way.fromId":         {"skyscanner80.flights_auto_complete:data[].id"},
	"skyscanner80.flights_search_one_way.toId":           {"skyscanner80.flights_auto_complete:data[].id"},
	"skyscanner80.flights_search_roundtrip.fromId":       {"skyscanner80.flights_auto_complete:data[].id"},
	"skyscanner80.flights_search_roundtrip.toId":         {"skyscanner80.flights_auto_complete:data[].id"},
	"skyscanner80.flights_search_incomplete.sessionId":   {"skyscanner80.flights_search_one_way:data.context.sessionId", "skyscanner80.flights_search_roundtrip:data.context.sessionId"},
	"skyscanner80.flights_detail.itineraryId":            {"skyscanner80.flights_search_one_way:data.itineraries[].id", "skyscanner80.flights_search_roundtrip:data.itineraries[].id", "skyscanner80.flights_search_incomplete:data.itineraries[].id"},
	"skyscanner80.flights_detail.token":                  {"skyscanner80.flights_search_one_way:data.token", "skyscanner80.flights_search_roundtrip:data.token", "skyscanner80.flights_search_incomplete:data.token"},
	"booking_com.search_hotels.dest_id":                  {"booking_com.search_hotel_destination:data[].dest_id"},
	"booking_com.search_hotels.search_type":              {"booking_com.search_hotel_destination:data[].search_type"},
	"booking_com.get_hotel_details.hotel_id":             {"booking_com.search_hotels:data.hotels[].hotel_id"},
	"booking_com.get_room_list.hotel_id":                 {"booking_com.search_hotels:data.hotels[].hotel_id"},
	"booking_com.get_hotel_reviews.hotel_id":             {"booking_com.search_hotels:data.hotels[].hotel_id"},
	"booking_com.get_hotel_photos.hotel_id":              {"booking_com.search_hotels:data.hotels[].hotel_id"},
	"travel_advisor.attractions_list.location_id":        {"travel_advisor.locations_search:data[].result_object.location_id"},
	"travel_advisor.attractions_get_details.location_id": {"travel_advisor.attractions_list:data[].location_id"},
	"travel_advisor.photos_list.location_id":             {"travel_advisor.attractions_list:data[].location_id"},
	"travel_advisor.reviews_list.location_id":            {"travel_advisor.attractions_list:data[].location_id"},
	"airport_info.airport.iata":                          {"airport_info.nearby_airports:data[].iata"},
	"airport_info.nearby_airports.lat":                   {"geocoding.forward_geocode:results[].lat"},
	"airport_info.nearby_airports.lon":                   {"geocoding.forward_geocode:results[].lon"},
}

// TestTravelToolFilesFollowThePlan checks every tool file against the
// plan: the APIs exist and have stand-ins, the dependencies are declared,
// opaque and named in the description text.
func TestTravelToolFilesFollowThePlan(t *testing.T) {
	registry := standin.NewRegistry()
	Register(registry)
	tools := standintest.Tools(t, travelTools...)
	want := map[string][]string{
		"skyscanner80":      {"flights_auto_complete", "flights_search_one_way", "flights_search_roundtrip", "flights_search_incomplete", "flights_detail", "get_config"},
		"booking_com":       {"search_hotel_destination", "search_hotels", "get_hotel_details", "get_room_list", "get_hotel_reviews", "get_hotel_photos"},
		"travel_advisor":    {"locations_search", "attractions_list", "attractions_get_details", "photos_list", "reviews_list"},
		"airport_info":      {"airport", "nearby_airports"},
		"currency_exchange": {"exchange", "listquotes"},
	}
	for tool, apis := range want {
		tl := tools[tool]
		require.NotNil(t, tl, tool)
		require.Equal(t, "travel", tl.Scenario)
		var got []string
		for _, a := range tl.APIs {
			got = append(got, a.Name)
			_, ok := registry.Lookup(tool, a.Name)
			require.True(t, ok, "no stand-in for %s.%s", tool, a.Name)
			require.NotEmpty(t, a.ExampleResponse, "%s.%s has no example", tool, a.Name)
			require.NotNil(t, a.Response(), "%s.%s has no schema", tool, a.Name)
			require.True(t, strings.HasPrefix(a.URL, "https://"+tl.Host+"/"), a.URL)
		}
		sort.Strings(got)
		sort.Strings(apis)
		require.Equal(t, apis, got, tool)
	}
	declared := map[string][]string{}
	for _, tl := range tools {
		for _, a := range tl.APIs {
			for _, p := range a.Params {
				for _, d := range p.Depends {
					key := tl.StandardizedName + "." + a.Name + "." + p.Name
					declared[key] = append(declared[key], d.Tool+"."+d.API+":"+d.Path)
					require.Contains(t, p.Description, d.API, "%s: the description must name the source API", key)
				}
			}
		}
	}
	require.Equal(t, len(travelPlan), len(declared), "dependencies declared: %v", declared)
	for key, srcs := range travelPlan {
		require.ElementsMatch(t, srcs, declared[key], key)
	}
	for _, key := range []string{"skyscanner80.flights_search_one_way.fromId", "skyscanner80.flights_search_incomplete.sessionId", "booking_com.search_hotels.dest_id", "travel_advisor.attractions_list.location_id", "skyscanner80.flights_detail.token"} {
		parts := strings.Split(key, ".")
		require.True(t, tools[parts[0]].API(parts[1]).Param(parts[2]).Opaque, "%s must be x-opaque", key)
	}
	require.False(t, tools["airport_info"].API("airport").Param("iata").Opaque, "an IATA code is something a user can know")
}

// TestTravelDependencyPathsResolve checks that every x-depends path finds
// a value in the source API's documented example, whichever tool the source is.
func TestTravelDependencyPathsResolve(t *testing.T) {
	tools := standintest.Tools(t, travelTools...)
	for _, tl := range tools {
		for _, a := range tl.APIs {
			for _, p := range a.Params {
				for _, d := range p.Depends {
					sa := standintest.Tool(t, d.Tool).API(d.API)
					require.NotNil(t, sa, "%s.%s", d.Tool, d.API)
					var ex any
					require.NoError(t, json.Unmarshal(sa.ExampleResponse, &ex))
					vals := deps.Values(ex, d.Path)
					require.NotEmpty(t, vals, "%s.%s.%s: %s does not resolve in %s.%s's example", tl.StandardizedName, a.Name, p.Name, d.Path, d.Tool, d.API)
				}
			}
		}
	}
}

// travelTools are the travel scenario's tools that model a travel site.
var travelTools = []string{"skyscanner80", "booking_com", "travel_advisor", "airport_info", "currency_exchange"}

// TestTravelDocumentedDefaultsWork calls every API with the arguments its
// documentation suggests (the defaults), in dependency order in one session,
// so that the documented opaque examples are the ones the searches mint.
func TestTravelDocumentedDefaultsWork(t *testing.T) {
	tools := standintest.Tools(t, travelTools...)
	s := standintest.New(t, Register)
	order := []string{
		"skyscanner80.flights_auto_complete", "skyscanner80.flights_search_one_way", "skyscanner80.flights_search_roundtrip",
		"skyscanner80.flights_search_incomplete", "skyscanner80.flights_detail", "skyscanner80.get_config",
		"booking_com.search_hotel_destination", "booking_com.search_hotels", "booking_com.get_hotel_details",
		"booking_com.get_room_list", "booking_com.get_hotel_reviews", "booking_com.get_hotel_photos",
		"travel_advisor.locations_search", "travel_advisor.attractions_list", "travel_advisor.attractions_get_details",
		"travel_advisor.photos_list", "travel_advisor.reviews_list",
		"airport_info.nearby_airports", "airport_info.airport", "currency_exchange.exchange", "currency_exchange.listquotes",
	}
	n := 0
	for _, tl := range tools {
		n += len(tl.APIs)
	}
	require.Len(t, order, n, "every API is exercised")
	for _, id := range order {
		tool, api, _ := strings.Cut(id, ".")
		a := tools[tool].API(api)
		args := map[string]any{}
		for _, p := range a.Params {
			if p.Default != nil {
				args[p.Name] = p.Default
			}
			if p.Required {
				require.NotNil(t, p.Default, "%s.%s has no example value", id, p.Name)
			}
		}
		v := s.OK(tool, api, args)
		conforms(s, tool, api, v)
	}
}
