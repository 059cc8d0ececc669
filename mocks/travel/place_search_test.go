package travel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

// TestPlaceSearchByWholeWords pins that the search boxes of the travel
// sites find a place by whole words of its name or a known alias, with or
// without diacritics, and never inside a word: "Rome" is not the "rome" of
// Frankfurt's Römerberg or of Nice's Promenade des Anglais.
func TestPlaceSearchByWholeWords(t *testing.T) {
	tests := []struct {
		query string
		city  string // every entry's city
	}{
		{"Rome", "Rome"},
		{"rome", "Rome"},
		{"Roma", "Rome"},
		{"Eternal City", "Rome"},
		{"Munich", "Munich"},
		{"München", "Munich"},
		{"Munchen", "Munich"},
		{"Muenchen", "Munich"},
		{"Kraków", "Kraków"},
		{"Krakow", "Kraków"},
		{"Cracow", "Kraków"},
		{"São Paulo", "São Paulo"},
		{"Sao Paulo", "São Paulo"},
		{"Zürich", "Zurich"},
		{"Nyhavn", "Copenhagen"},
	}
	s := standintest.New(t, Register)
	for _, tt := range tests {
		res := s.OK(bkTool, "search_hotel_destination", map[string]any{"query": tt.query})
		data := standintest.Get(t, res, "data").([]any)
		require.NotEmpty(t, data, tt.query)
		for _, e := range data {
			m := e.(map[string]any)
			if m["city_name"] != tt.city {
				// Only a hotel that holds the query as whole words
				// (Mexico City's "Roma Norte Casa Boutique" for "Roma").
				require.Equal(t, "hotel", m["dest_type"], "%q found %v in %v", tt.query, m["name"], m["city_name"])
				require.True(t, world.HasWords(world.Fold(m["name"].(string)), world.Fold(tt.query)), "%q found %v", tt.query, m["name"])
			}
		}
		if tt.query != "Nyhavn" {
			require.Equal(t, "city", data[0].(map[string]any)["dest_type"], tt.query)
			require.Equal(t, tt.city, data[0].(map[string]any)["city_name"], tt.query)
		}
	}
	// A hotel by a whole word of its name; a part of a word finds nothing.
	res := s.OK(bkTool, "search_hotel_destination", map[string]any{"query": "Römerberg"})
	require.Equal(t, "Römerberg Altstadt Hotel", standintest.Get(t, res, "data[0].name"))
	res = s.OK(bkTool, "search_hotel_destination", map[string]any{"query": "Promenade des Anglais"})
	require.Equal(t, "Hôtel Promenade des Anglais", standintest.Get(t, res, "data[0].name"))
	res = s.OK(bkTool, "search_hotel_destination", map[string]any{"query": "omerber"})
	require.Empty(t, standintest.Get(t, res, "data"))

	// TripAdvisor's search: Rome's geo and its things to do, nothing else.
	res = s.OK(taTool, "locations_search", map[string]any{"query": "Rome"})
	for _, e := range standintest.Get(t, res, "data").([]any) {
		obj := e.(map[string]any)["result_object"].(map[string]any)
		name, _ := obj["location_string"].(string)
		if name == "" {
			name, _ = obj["name"].(string)
		}
		require.Contains(t, name, "Rome", "%v", obj["name"])
	}
	// Skyscanner's auto-complete: Rome and its airports.
	res = s.OK(skyTool, "flights_auto_complete", map[string]any{"query": "Rome"})
	for _, e := range standintest.Get(t, res, "data").([]any) {
		sub := standintest.Get(t, e, "presentation.suggestionTitle").(string)
		require.Contains(t, sub, "Rome", sub)
	}
}
