package travel

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

// transitWords are what a review may call each kind of public transport.
var transitWords = map[string]*regexp.Regexp{
	"metro":      regexp.MustCompile(`(?i)\bmetro\b`),
	"tram":       regexp.MustCompile(`(?i)\btram\b`),
	"light rail": regexp.MustCompile(`(?i)\blight rail\b`),
	"water bus":  regexp.MustCompile(`(?i)\bvaporetto\b`),
}

// TestReviewsStateFactsOfTheirCityAndVenue reads every review the
// stand-ins write and checks each against the world: transport the city
// has, facilities the hotel lists, tickets and audio guides only where
// there are any, and a reviewer whose type goes with the trip's purpose.
func TestReviewsStateFactsOfTheirCityAndVenue(t *testing.T) {
	w := standintest.World(t)
	d := w.Travel
	bank := d.Reviews
	today := time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC)
	florenceSeen := false
	for _, h := range d.Hotels {
		facilities := map[string]bool{}
		for _, f := range h.Facilities {
			facilities[f] = true
		}
		for i := range 12 {
			rv := bkReview(h, bank, today, i)
			text := rv["pros"].(string) + " " + rv["cons"].(string)
			for mode, re := range transitWords {
				if re.MatchString(text) {
					require.Contains(t, h.Place.Transit, mode, "%s in %s: %q", h.Name, h.Place.City.Name, text)
				}
			}
			if h.CityID == "florence" {
				florenceSeen = true
				require.NotRegexp(t, `(?i)metro|subway|underground`, text, h.Name)
			}
			for word, facility := range map[string]string{"pool": "Swimming pool", "gym": "Fitness centre", "bar ": "Bar", "terrace": "Terrace", "breakfast": "Breakfast", "air conditioning": "Air conditioning", "parking": "Parking"} {
				if strings.Contains(strings.ToLower(text), word) {
					require.True(t, facilities[facility], "%s: %q without %s", h.Name, text, facility)
				}
			}
			require.NotContains(t, text, "{", "a placeholder left in %q", text)
			purpose := rv["travel_purpose"].(string)
			kind := rv["reviewer"].(map[string]any)["type"].(string)
			require.Contains(t, bank.TravellerTypes[purpose], kind, "%s review %d: a %s travelling for %s", h.Name, i, kind, purpose)
			if purpose == "business" {
				require.NotEqual(t, "family_with_children", kind)
				require.LessOrEqual(t, rv["stayed_room_info"].(map[string]any)["num_nights"].(int), 3)
			}
		}
	}
	require.True(t, florenceSeen)

	audio := regexp.MustCompile(`(?i)audio guide`)
	tickets := regexp.MustCompile(`(?i)ticket`)
	for _, a := range d.Attractions {
		for _, band := range []string{"3", "4", "5"} {
			for j := range 8 {
				text := taReviewText(a, bank, band, j)
				require.NotContains(t, text, "{", text)
				for mode, re := range transitWords {
					if re.MatchString(text) {
						require.Contains(t, a.Place.Transit, mode, "%s in %s: %q", a.Name, a.Place.City.Name, text)
					}
				}
				if audio.MatchString(text) {
					require.True(t, slices.Contains([]string{"Museums", "Historic Sites", "Religious Sites", "Architectural Buildings"}, a.Subcategory), "%s (%s): %q", a.Name, a.Subcategory, text)
				}
				if tickets.MatchString(text) {
					require.Greater(t, a.PriceFromUSD, 0.0, "%s is free: %q", a.Name, text)
				}
			}
		}
	}
}

// TestReviewsNameTheCitysTransport pins the words for a few cities.
func TestReviewsNameTheCitysTransport(t *testing.T) {
	w := standintest.World(t)
	for city, stop := range map[string]string{"florence": "tram stop", "lisbon": "metro station", "venice": "vaporetto stop", "cusco": "bus stop", "london": "metro station"} {
		p := w.Travel.PlaceByCity[city]
		require.Equal(t, stop, p.TransitStop(), city)
		require.NotEmpty(t, p.Airports[0].Title, city)
	}
}
