package coherence

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/imagegen"
	"github.com/understudy/understudy/mocks/world"
)

// TestAnswersAgree walks every dependency chain (the graph's, the
// dataset's gold chains, every edge with several values) and checks that
// the answers it gets never contradict one another: summaries agree with
// their items, every ID shown resolves to the same entity, pages show the
// site they claim, texts per entity are distinct, translation keeps
// punctuation and scripts, and a story's coverage is about that story.
func TestAnswersAgree(t *testing.T) {
	h := newHarness(t)
	w := walk(t, h)
	require.NotEmpty(t, w.resolved)

	t.Run("summaries agree with their items", func(t *testing.T) {
		checked := 0
		for _, a := range w.answers {
			if !a.ok() {
				continue
			}
			if check := summaries[a.API]; check != nil {
				t.Run(a.API, func(t *testing.T) { check(t, a) })
				checked++
			}
		}
		require.Positive(t, checked)
	})

	t.Run("every ID resolves to the same entity", func(t *testing.T) {
		for _, r := range w.resolved {
			key := r.Edge.From + ">" + r.Edge.To
			t.Run(key, func(t *testing.T) {
				check, ok := sameEntity[key]
				require.True(t, ok, "no same-entity check for %s: say what its answer must share with the item it came from", key)
				check(t, h, r)
			})
		}
	})

	t.Run("pages show the site they claim", func(t *testing.T) {
		hosts := slices.Sorted(maps.Keys(h.world.Images.ByHost))
		require.NotEmpty(t, hosts)
		for _, host := range hosts {
			t.Run(host, func(t *testing.T) { checkPage(t, h, h.world.Images.ByHost[host]) })
		}
	})

	t.Run("texts per entity are distinct", func(t *testing.T) {
		distinctTexts(t, h, w)
	})

	t.Run("translation keeps punctuation and scripts", func(t *testing.T) {
		checkTranslations(t, h)
	})

	t.Run("a story's coverage is about that story", func(t *testing.T) {
		checked := 0
		for _, a := range w.byAPI("real_time_news_data.full_story_coverage") {
			checkCoverage(t, h, a)
			checked++
		}
		require.Positive(t, checked)
	})
}

// summaries check, per API, that what an answer says of its items is true
// of them.
var summaries = map[string]func(t *testing.T, a answer){
	"skyscanner80.flights_search_one_way":    flightSummary,
	"skyscanner80.flights_search_roundtrip":  flightSummary,
	"skyscanner80.flights_search_incomplete": flightSummary,
	"travel_advisor.locations_search":        taPaging,
	"travel_advisor.attractions_list":        taPaging,
	"travel_advisor.photos_list":             taPaging,
	"travel_advisor.reviews_list":            taPaging,
	"travel_advisor.attractions_get_details": func(t *testing.T, a answer) {
		total := 0.0
		for i := 1; i <= 5; i++ {
			total += num(t, first(t, a.Doc, fmt.Sprintf("rating_histogram.count_%d", i)))
		}
		require.Equal(t, num(t, first(t, a.Doc, "num_reviews")), total, "the rating histogram counts every review")
	},
	"airport_info.nearby_airports": func(t *testing.T, a answer) {
		items := values(a.Doc, "data[]")
		require.Len(t, items, int(num(t, first(t, a.Doc, "count"))), "count")
		radius := num(t, first(t, a.Doc, "radius_km"))
		last := -1.0
		for _, it := range items {
			d := num(t, first(t, it, "distance_km"))
			require.LessOrEqual(t, d, radius, "within the radius")
			require.GreaterOrEqual(t, d, last, "nearest first")
			last = d
		}
	},
	"iso_codes.language_codes": countsItems("count", "data[]"),
	"iso_codes.country_codes":  countsItems("count", "data[]"),
	"tasty.recipes_list":       countsAtLeast("count", "results[]"),
	"tasty.tips_list":          countsAtLeast("count", "results[]"),
	"web_search.web_search":    countsAtLeast("total_results", "items[]"),
	"web_search.news_search":   countsAtLeast("total_results", "items[]"),
	"web_search.video_search":  countsAtLeast("total_results", "items[]"),
	"web_search.image_search":  countsAtLeast("total_results", "data[]"),
	"open_weather.five_day_forecast": func(t *testing.T, a answer) {
		require.Len(t, values(a.Doc, "list[]"), int(num(t, first(t, a.Doc, "cnt"))), "cnt")
	},
	"weatherapi_com.forecast_weather_api": func(t *testing.T, a answer) {
		days := 3.0
		if v, ok := a.Args["days"]; ok {
			days = num(t, v)
		}
		if _, ok := a.Args["dt"]; ok {
			days = 1
		}
		require.Len(t, values(a.Doc, "forecast.forecastday[]"), int(days), "one forecast per day asked for")
	},
	"booking_com.search_hotels": func(t *testing.T, a answer) {
		title := str(first(t, a.Doc, "data.meta[].title"))
		n := leadingNumber(t, title[strings.Index(title, ":")+1:])
		require.GreaterOrEqual(t, n, len(values(a.Doc, "data.hotels[]")), "%q", title)
	},
	"booking_com.get_hotel_reviews": func(t *testing.T, a answer) {
		require.LessOrEqual(t, len(values(a.Doc, "data.result[]")), 10, "10 per page")
	},
	"real_time_news_data.search":          newsLimit,
	"real_time_news_data.top_headlines":   newsLimit,
	"real_time_news_data.topic_headlines": newsLimit,
	"real_time_news_data.full_story_coverage": func(t *testing.T, a answer) {
		asked := str(first(t, a.Doc, "parameters.story_id"))
		for _, id := range values(a.Doc, "data[].story_id") {
			require.Equal(t, asked, str(id), "every article of the coverage is of the story asked for")
		}
	},
}

func countsItems(count, items string) func(t *testing.T, a answer) {
	return func(t *testing.T, a answer) {
		require.Len(t, values(a.Doc, items), int(num(t, first(t, a.Doc, count))), "%s", count)
	}
}

func countsAtLeast(count, items string) func(t *testing.T, a answer) {
	return func(t *testing.T, a answer) {
		require.GreaterOrEqual(t, int(num(t, first(t, a.Doc, count))), len(values(a.Doc, items)), "%s", count)
	}
}

func newsLimit(t *testing.T, a answer) {
	require.LessOrEqual(t, len(values(a.Doc, "data[]")), int(num(t, first(t, a.Doc, "parameters.limit"))), "limit")
}

func taPaging(t *testing.T, a answer) {
	shown := num(t, first(t, a.Doc, "paging.results"))
	require.Len(t, values(a.Doc, "data[]"), int(shown), "paging.results")
	offset := 0.0
	if v, ok := a.Args["offset"]; ok {
		offset = num(t, v)
	}
	require.Equal(t, offset, num(t, first(t, a.Doc, "paging.skipped")), "paging.skipped")
	require.GreaterOrEqual(t, num(t, first(t, a.Doc, "paging.total_results")), shown+offset, "paging.total_results")
}

func leadingNumber(t testing.TB, s string) int {
	t.Helper()
	s = strings.TrimSpace(s)
	end := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(s)
	}
	n, err := strconv.Atoi(s[:end])
	require.NoError(t, err, "%q", s)
	return n
}

// flightSummary checks a flight search's context and filterStats against
// its itineraries: the count, the carriers and airports, the shortest and
// longest durations and the cheapest price by number of stops.
func flightSummary(t *testing.T, a answer) {
	d := first(t, a.Doc, "data")
	its := values(d, "itineraries[]")
	require.Len(t, its, int(num(t, first(t, d, "context.totalResults"))), "context.totalResults")
	carriers, airports := map[string]bool{}, map[string]bool{}
	minDur, maxDur := math.Inf(1), math.Inf(-1)
	cheapest := map[int]float64{}
	formatted := map[float64]string{}
	for _, it := range its {
		for _, c := range values(it, "legs[].segments[].marketingCarrier.name") {
			carriers[str(c)] = true
		}
		for _, c := range values(it, "legs[].carriers.marketing[].name") {
			carriers[str(c)] = true
		}
		for _, p := range values(it, "legs[].segments[].origin.displayCode") {
			airports[str(p)] = true
		}
		for _, p := range values(it, "legs[].segments[].destination.displayCode") {
			airports[str(p)] = true
		}
		dur := 0.0
		for _, m := range values(it, "legs[].durationInMinutes") {
			dur += num(t, m)
		}
		minDur, maxDur = math.Min(minDur, dur), math.Max(maxDur, dur)
		stops := int(num(t, first(t, it, "legs[].stopCount")))
		price := num(t, first(t, it, "price.raw"))
		formatted[price] = str(first(t, it, "price.formatted"))
		if p, ok := cheapest[stops]; !ok || price < p {
			cheapest[stops] = price
		}
	}
	require.ElementsMatch(t, keys(carriers), strs(values(d, "filterStats.carriers[].name")), "the summary's carriers are the itineraries'")
	require.ElementsMatch(t, keys(airports), strs(values(d, "filterStats.airports[].id")), "the summary's airports are the itineraries'")
	if len(its) > 0 {
		require.Equal(t, minDur, num(t, first(t, d, "filterStats.duration.min")), "shortest duration")
		require.Equal(t, maxDur, num(t, first(t, d, "filterStats.duration.max")), "longest duration")
	}
	for n, name := range []string{"direct", "one", "twoOrMore"} {
		p, ok := cheapest[n]
		if n == 2 {
			for s, q := range cheapest {
				if s >= 2 && (!ok || q < p) {
					p, ok = q, true
				}
			}
		}
		require.Equal(t, ok, first(t, d, "filterStats.stopPrices."+name+".isPresent"), "stopPrices.%s.isPresent", name)
		if ok {
			require.Equal(t, formatted[p], str(first(t, d, "filterStats.stopPrices."+name+".formattedPrice")), "stopPrices.%s is the cheapest such itinerary", name)
		}
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// same requires the values at two paths to be equal (numbers by value).
func same(t testing.TB, item any, ipath string, doc any, dpath string) {
	t.Helper()
	a, b := values(item, ipath), values(doc, dpath)
	require.NotEmpty(t, a, "item has nothing at %s", ipath)
	require.NotEmpty(t, b, "answer has nothing at %s", dpath)
	x, y := a[0], b[0]
	if fx, ok := asFloat(x); ok {
		if fy, ok := asFloat(y); ok {
			require.InDelta(t, fx, fy, 1e-9, "%s vs %s", ipath, dpath)
			return
		}
	}
	require.Equal(t, str(x), str(y), "%s vs %s", ipath, dpath)
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	if k, ok := v.(fmt.Stringer); ok {
		f, err := strconv.ParseFloat(k.String(), 64)
		return f, err == nil
	}
	return 0, false
}

// sameEntity checks, per edge (source>dependent), that the dependent's
// answer is about the entity of the source's item it was given.
var sameEntity = map[string]func(t *testing.T, h *harness, r resolution){
	"airport_info.nearby_airports>airport_info.airport": func(t *testing.T, _ *harness, r resolution) {
		for _, f := range [][2]string{{"iata", "iata"}, {"name", "name"}, {"latitude", "latitude"}, {"longitude", "longitude"}} {
			same(t, r.Item, f[0], r.Answer.Doc, f[1])
		}
	},
	"geocoding.forward_geocode>airport_info.nearby_airports": func(t *testing.T, _ *harness, r resolution) {
		// Coordinates of a place: the airports listed are measured from it.
		same(t, r.Item, "lat", r.Answer.Args, "lat")
		same(t, r.Item, "lon", r.Answer.Args, "lon")
	},
	"geocoding.forward_geocode>open_weather.five_day_forecast": func(t *testing.T, _ *harness, r resolution) {
		require.Equal(t, placeCity(r.Item), str(first(t, r.Answer.Doc, "city.name")), "the forecast is of the place's city")
	},
	"geocoding.forward_geocode>world_time.timezone_by_location": func(t *testing.T, _ *harness, r resolution) {
		require.Equal(t, placeCity(r.Item), str(first(t, r.Answer.Doc, "nearest_city.name")), "the nearest city is the place's")
	},
	"background_removal.remove_background>background_removal.get_removal_result": func(t *testing.T, _ *harness, r resolution) {
		for _, f := range []string{"result_id", "result_url", "source_url", "width", "height"} {
			same(t, r.Item, f, r.Answer.Doc, f)
		}
	},
	"booking_com.search_hotels>booking_com.get_hotel_details": func(t *testing.T, _ *harness, r resolution) {
		for _, f := range [][2]string{{"property.name", "data.hotel_name"}, {"property.latitude", "data.latitude"}, {"property.longitude", "data.longitude"},
			{"property.reviewCount", "data.review_nr"}, {"property.propertyClass", "data.class"},
			{"property.priceBreakdown.grossPrice.value", "data.composite_price_breakdown.gross_amount.value"}} {
			same(t, r.Item, f[0], r.Answer.Doc, f[1])
		}
	},
	"booking_com.search_hotels>booking_com.get_hotel_reviews": func(t *testing.T, _ *harness, r resolution) {
		same(t, r.Item, "property.reviewCount", r.Answer.Doc, "data.count")
	},
	"booking_com.search_hotels>booking_com.get_room_list": func(t *testing.T, _ *harness, r resolution) {
		cheapest := math.Inf(1)
		for _, v := range values(r.Answer.Doc, "data.block[].product_price_breakdown.gross_amount.value") {
			cheapest = math.Min(cheapest, num(t, v))
		}
		require.Equal(t, num(t, first(t, r.Item, "property.priceBreakdown.grossPrice.value")), cheapest, "the card's price is the cheapest room's")
	},
	"booking_com.search_hotels>booking_com.get_hotel_photos": func(t *testing.T, _ *harness, r resolution) {
		same(t, r.Item, "property.mainPhotoId", r.Answer.Doc, "data[].id")
	},
	"booking_com.search_hotel_destination>booking_com.search_hotels": func(t *testing.T, _ *harness, r resolution) {
		title := str(first(t, r.Answer.Doc, "data.meta[].title"))
		require.Equal(t, int(num(t, first(t, r.Item, "nr_hotels"))), leadingNumber(t, title[strings.Index(title, ":")+1:]), "the destination's hotel count is what the search finds: %q", title)
		if str(first(t, r.Item, "search_type")) == "city" {
			for _, n := range values(r.Answer.Doc, "data.hotels[].property.wishlistName") {
				require.Equal(t, str(first(t, r.Item, "name")), str(n))
			}
		} else {
			same(t, r.Item, "name", r.Answer.Doc, "data.hotels[].property.name")
		}
	},
	"image_file_processing.resize_image>image_file_processing.compress_image": func(t *testing.T, _ *harness, r resolution) {
		same(t, r.Item, "data.width", r.Answer.Doc, "data.width")
		same(t, r.Item, "data.height", r.Answer.Doc, "data.height")
		same(t, r.Item, "data.size_bytes", r.Answer.Doc, "data.original_size_bytes")
	},
	"image_file_processing.compress_image>image_file_processing.convert_image_format": func(t *testing.T, _ *harness, r resolution) {
		same(t, r.Item, "data.width", r.Answer.Doc, "data.width")
		same(t, r.Item, "data.height", r.Answer.Doc, "data.height")
		same(t, r.Item, "data.format", r.Answer.Doc, "data.source_format")
	},
	"web_capture.take_screenshot>image_translation.translate_image_text": func(t *testing.T, _ *harness, r resolution) {
		same(t, r.Item, "data.image_url", r.Answer.Doc, "data.image_url")
		same(t, r.Item, "data.width", r.Answer.Doc, "data.width")
	},
	"web_capture.take_screenshot>object_detection.detect_objects": func(t *testing.T, _ *harness, r resolution) {
		same(t, r.Item, "data.image_url", r.Answer.Doc, "results.image.url")
		same(t, r.Item, "data.height", r.Answer.Doc, "results.image.height")
	},
	"web_capture.take_screenshot>ocr_extract_text.ocr_image_url": func(t *testing.T, _ *harness, r resolution) {
		same(t, r.Item, "data.image_url", r.Answer.Doc, "image.url")
		require.Contains(t, str(first(t, r.Answer.Doc, "text")), imagegen.Fold(str(first(t, r.Item, "data.title"))), "the screenshot shows its page's title")
	},
	"web_capture.take_screenshot>web_capture.get_screenshot": func(t *testing.T, _ *harness, r resolution) {
		for _, f := range []string{"data.screenshot_id", "data.image_url", "data.url", "data.title", "data.width", "data.height", "data.size_bytes"} {
			same(t, r.Item, f, r.Answer.Doc, f)
		}
	},
	"web_search.image_search>object_detection.detect_objects": func(t *testing.T, _ *harness, r resolution) {
		same(t, r.Item, "url", r.Answer.Doc, "results.image.url")
		same(t, r.Item, "width", r.Answer.Doc, "results.image.width")
		same(t, r.Item, "height", r.Answer.Doc, "results.image.height")
	},
	"ip_geolocation.get_client_ip>ip_geolocation.lookup_ip": func(t *testing.T, h *harness, r resolution) {
		same(t, r.Item, "ip", r.Answer.Doc, "ip")
		// The caller's IP is where the user is.
		loc := h.ok("walk/user", "user_info.get_user_location", nil)
		same(t, loc.Doc, "data.city", r.Answer.Doc, "city")
		same(t, loc.Doc, "data.timezone", r.Answer.Doc, "timezone")
	},
	"iso_codes.country_codes>iso_codes.country_by_code": func(t *testing.T, _ *harness, r resolution) {
		for _, f := range []string{"alpha2", "alpha3", "numeric", "name", "official_name", "region"} {
			same(t, r.Item, f, r.Answer.Doc, "data."+f)
		}
	},
	"public_holiday.available_countries>public_holiday.public_holidays": func(t *testing.T, _ *harness, r resolution) {
		for _, c := range values(r.Answer.Doc, "[].countryCode") {
			require.Equal(t, str(first(t, r.Item, "countryCode")), str(c))
		}
	},
	"public_holiday.available_countries>public_holiday.long_weekends": func(t *testing.T, _ *harness, r resolution) {
		// Long weekends are around the country's own holidays.
		require.NotEmpty(t, values(r.Answer.Doc, "[].startDate"), "%s has long weekends", str(first(t, r.Item, "countryCode")))
	},
	"real_time_news_data.search>real_time_news_data.full_story_coverage":           storyHasArticle,
	"real_time_news_data.top_headlines>real_time_news_data.full_story_coverage":    storyHasArticle,
	"real_time_news_data.topic_headlines>real_time_news_data.full_story_coverage":  storyHasArticle,
	"skyscanner80.flights_search_one_way>skyscanner80.flights_detail":              flightDetailed,
	"skyscanner80.flights_search_roundtrip>skyscanner80.flights_detail":            flightDetailed,
	"skyscanner80.flights_search_incomplete>skyscanner80.flights_detail":           flightDetailed,
	"skyscanner80.flights_search_one_way>skyscanner80.flights_search_incomplete":   flightPolled,
	"skyscanner80.flights_search_roundtrip>skyscanner80.flights_search_incomplete": flightPolled,
	"skyscanner80.flights_auto_complete>skyscanner80.flights_search_one_way":       flightsFrom,
	"skyscanner80.flights_auto_complete>skyscanner80.flights_search_roundtrip":     flightsFrom,
	"tasty.recipes_list>tasty.recipes_get_more_info": func(t *testing.T, _ *harness, r resolution) {
		for _, f := range []string{"id", "name", "total_time_minutes", "num_servings"} {
			same(t, r.Item, f, r.Answer.Doc, f)
		}
	},
	"tasty.recipes_list>tasty.recipes_list_similarities": func(t *testing.T, _ *harness, r resolution) {
		require.NotContains(t, strs(values(r.Answer.Doc, "results[].id")), str(first(t, r.Item, "id")), "a recipe is not similar to itself")
	},
	"tasty.recipes_list>tasty.tips_list": func(t *testing.T, _ *harness, r resolution) {
		for _, id := range values(r.Answer.Doc, "results[].recipe_id") {
			require.Equal(t, str(first(t, r.Item, "id")), str(id), "the tips are of the recipe asked for")
		}
	},
	"travel_advisor.attractions_list>travel_advisor.attractions_get_details": func(t *testing.T, _ *harness, r resolution) {
		for _, f := range []string{"location_id", "name", "latitude", "longitude", "location_string", "ranking", "rating", "num_reviews", "address", "offer_group.lowest_price"} {
			if f == "offer_group.lowest_price" && firstOr(r.Item, f) == nil {
				require.Nil(t, firstOr(r.Answer.Doc, f), "no price in the list, none in the details")
				continue
			}
			same(t, r.Item, f, r.Answer.Doc, f)
		}
	},
	"travel_advisor.locations_search>travel_advisor.attractions_list": func(t *testing.T, _ *harness, r resolution) {
		city := str(first(t, r.Item, "result_object.name"))
		for _, s := range values(r.Answer.Doc, "data[].location_string") {
			require.True(t, strings.HasPrefix(str(s), city+","), "%q is in %s", s, city)
		}
	},
	"travel_advisor.attractions_list>travel_advisor.photos_list": func(t *testing.T, _ *harness, r resolution) {
		for _, c := range values(r.Answer.Doc, "data[].caption") {
			require.Equal(t, str(first(t, r.Item, "name")), str(c), "photos of the attraction asked for")
		}
	},
	"travel_advisor.attractions_list>travel_advisor.reviews_list": func(t *testing.T, _ *harness, r resolution) {
		same(t, r.Item, "num_reviews", r.Answer.Doc, "paging.total_results")
		for _, id := range values(r.Answer.Doc, "data[].location_id") {
			require.Equal(t, str(first(t, r.Item, "location_id")), str(id))
		}
		for _, u := range values(r.Answer.Doc, "data[].url") {
			require.Contains(t, str(u), "-d"+str(first(t, r.Item, "location_id"))+"-")
		}
	},
}

// placeCity is the city a geocoding result is in.
func placeCity(item any) string {
	if c := firstOr(item, "address.city"); c != nil {
		return str(c)
	}
	return str(firstOr(item, "name"))
}

func storyHasArticle(t *testing.T, _ *harness, r resolution) {
	require.Contains(t, strs(values(r.Answer.Doc, "data[].link")), str(first(t, r.Item, "link")), "the story's coverage includes the article its id came from")
}

// flightDetailed: an itinerary's details are of the same flights, and the
// price the search showed is among its booking options.
func flightDetailed(t *testing.T, _ *harness, r resolution) {
	d := first(t, r.Answer.Doc, "data.itinerary")
	require.Equal(t, str(first(t, r.Item, "id")), strings.Join(strs(values(d, "legs[].id")), "|"), "the legs of the itinerary asked for")
	require.Equal(t, strs(values(r.Item, "legs[].departure")), strs(values(d, "legs[].departure")))
	require.Equal(t, strs(values(r.Item, "legs[].arrival")), strs(values(d, "legs[].arrival")))
	require.Equal(t, strs(values(r.Item, "legs[].segments[].flightNumber")), strs(values(d, "legs[].segments[].flightNumber")))
	prices := values(d, "pricingOptions[].totalPrice")
	require.True(t, slices.ContainsFunc(prices, func(p any) bool { return num(t, p) == num(t, first(t, r.Item, "price.raw")) }),
		"the search's price %v is one of the booking options %v", first(t, r.Item, "price.raw"), prices)
}

func flightPolled(t *testing.T, _ *harness, r resolution) {
	same(t, r.Item, "data.context.sessionId", r.Answer.Doc, "data.context.sessionId")
	same(t, r.Item, "data.token", r.Answer.Doc, "data.token")
	// Polling reveals more: what the first page showed stays.
	shown := strs(values(r.Answer.Doc, "data.itineraries[].id"))
	for _, id := range values(r.Item, "data.itineraries[].id") {
		require.Contains(t, shown, str(id))
	}
}

// flightsFrom: a search from (or to) an auto-complete place flies from
// (to) that city or airport.
func flightsFrom(t *testing.T, _ *harness, r resolution) {
	end := "origin"
	if slices.Contains(r.Params, "toId") {
		end = "destination"
	}
	kind := str(first(t, r.Item, "navigation.relevantFlightParams.flightPlaceType"))
	want := str(first(t, r.Item, "navigation.relevantFlightParams.skyId"))
	field := "id"
	if kind == "CITY" {
		want, field = str(first(t, r.Item, "navigation.localizedName")), "city"
	}
	for _, it := range values(r.Answer.Doc, "data.itineraries[]") {
		legs := values(it, "legs[]")
		leg := legs[0]
		if end == "destination" {
			require.Equal(t, want, str(first(t, leg, "destination."+field)), "the first leg flies to the place asked for")
			continue
		}
		require.Equal(t, want, str(first(t, leg, "origin."+field)), "the first leg flies from the place asked for")
	}
}

// checkPage screenshots a site's home page in the default viewport and
// checks that what the OCR reads there is the site's (its host, title and
// text, and what its own hero image shows), that at least one line of the
// site's own text is visible, and that translating the screenshot
// translates those same lines as the site does.
func checkPage(t *testing.T, h *harness, site *world.Website) {
	session := "walk/page/" + site.Host
	shot := h.ok(session, "web_capture.take_screenshot", map[string]any{"url": site.URL})
	require.Equal(t, site.Title, str(first(t, shot.Doc, "data.title")))
	url := first(t, shot.Doc, "data.image_url")
	ocr := h.ok(session, "ocr_extract_text.ocr_image_url", map[string]any{"url": url})
	text := str(first(t, ocr.Doc, "text"))
	own := []string{imagegen.Fold(site.Host), imagegen.Fold(site.Title)}
	for _, l := range site.Lines {
		own = append(own, imagegen.Fold(l.Text))
	}
	var hero []string
	if site.HeroImage != "" {
		img := h.world.Images.ByName[site.HeroImage]
		require.NotNil(t, img, site.HeroImage)
		if img.Text != nil && len(img.Text.Lines) > 0 {
			// A picture with writing on it is the site's own (a photo of a
			// café menu on a tourism office's home page reads as its text).
			require.Equal(t, site.Host, world.SiteHost(hostOf(img.SourcePage)), "%s's hero image %s, with text on it, is from %s", site.Host, site.HeroImage, img.SourcePage)
			for _, l := range img.Text.Lines {
				hero = append(hero, l.Text)
			}
		}
	}
	joined := strings.Join(own, " ")
	visible := 0
	for _, l := range values(ocr.Doc, "lines[].text") {
		line := str(l)
		if slices.Contains(hero, line) {
			continue
		}
		require.True(t, strings.Contains(joined, line), "the screenshot of %s shows %q, which is not the site's", site.Host, line)
		if line != own[0] && line != own[1] && len(line) >= 8 && !strings.Contains(own[1], line) {
			visible++ // a line of the site's own text
		}
	}
	require.Positive(t, visible, "the screenshot of %s shows none of the site's own text, only:\n%s", site.Host, text)

	// Translating the screenshot translates what the OCR reads, as the site
	// itself translates it.
	target := "en"
	if site.Language == "en" {
		target = "es"
	}
	tr := h.ok(session, "image_translation.translate_image_text", map[string]any{"image_url": url, "target_lang": target})
	var read []string
	for _, l := range values(ocr.Doc, "lines[]") {
		if str(firstOr(l, "language")) != "" {
			read = append(read, str(first(t, l, "text")))
		}
	}
	require.Equal(t, strings.Join(read, " "), strings.Join(strs(values(tr.Doc, "data.blocks[].original_text")), " "), "translation reads the text the OCR reads")
	translated := 0
	for _, b := range values(tr.Doc, "data.blocks[]") {
		orig := str(first(t, b, "original_text"))
		for _, l := range site.Lines {
			want, ok := l.Translations[target]
			if ok && imagegen.Fold(l.Text) == orig {
				// The OCR reads capitals; the translation is the site's text.
				require.Equal(t, imagegen.Fold(want), imagegen.Fold(str(first(t, b, "translated_text"))), "%s: the site's own translation of %q", site.Host, l.Text)
				translated++
			}
		}
	}
	// Each text of the page is translated once, however it wraps.
	texts := strs(values(tr.Doc, "data.blocks[].translated_text"))
	for i := range texts {
		for j := range i {
			require.False(t, texts[i] == texts[j] && texts[i] != strs(values(tr.Doc, "data.blocks[].original_text"))[i], "%s: %q is translated twice", site.Host, texts[i])
		}
	}
}

func hostOf(u string) string {
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	if i := strings.IndexByte(u, '/'); i >= 0 {
		u = u[:i]
	}
	return u
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// distinctTexts reads every review and tip of the entities the walk met
// and requires each text to appear once per entity.
func distinctTexts(t *testing.T, h *harness, w *walked) {
	attractions, hotels, recipes := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, a := range w.byAPI("travel_advisor.reviews_list") {
		attractions[str(a.Args["location_id"])] = true
	}
	for _, a := range w.byAPI("booking_com.get_hotel_reviews") {
		hotels[str(a.Args["hotel_id"])] = true
	}
	for _, a := range w.byAPI("tasty.tips_list") {
		recipes[str(a.Args["id"])] = true
	}
	require.NotEmpty(t, attractions)
	require.NotEmpty(t, hotels)
	require.NotEmpty(t, recipes)
	for _, id := range keys(attractions) {
		session := "walk/texts/attraction/" + id
		city := h.world.Travel.AttractionByID[id].Place
		h.ok(session, "travel_advisor.locations_search", map[string]any{"query": city.City.Name})
		h.ok(session, "travel_advisor.attractions_list", map[string]any{"location_id": city.TripAdvisorGeoID, "limit": 100})
		a := h.ok(session, "travel_advisor.reviews_list", map[string]any{"location_id": id, "limit": 100})
		unique(t, "reviews of attraction "+id, strs(values(a.Doc, "data[].text")))
	}
	for _, id := range keys(hotels) {
		session := "walk/texts/hotel/" + id
		hid, err := strconv.Atoi(id)
		require.NoError(t, err)
		hotel := h.world.Travel.HotelByID[hid]
		require.NotNil(t, hotel, id)
		dest := h.ok(session, "booking_com.search_hotel_destination", map[string]any{"query": hotel.Place.City.Name})
		h.ok(session, "booking_com.search_hotels", map[string]any{"dest_id": first(t, dest.Doc, "data[].dest_id"), "search_type": "CITY",
			"arrival_date": "2025-06-20", "departure_date": "2025-06-23"})
		var texts []string
		for page := 1; ; page++ {
			args := map[string]any{"hotel_id": hid, "page_number": page}
			a := h.ok(session, "booking_com.get_hotel_reviews", args)
			rs := values(a.Doc, "data.result[]")
			if len(rs) == 0 {
				break
			}
			for _, r := range rs {
				texts = append(texts, str(first(t, r, "pros"))+" / "+str(first(t, r, "cons")))
			}
		}
		unique(t, "reviews of hotel "+id, texts)
	}
	for _, id := range keys(recipes) {
		session := "walk/texts/recipe/" + id
		p := h.prepare(session, "tasty.tips_list")
		args := p.Args
		args["id"], args["size"] = id, 40
		a := h.ok(session, "tasty.tips_list", args)
		unique(t, "tips of recipe "+id, strs(values(a.Doc, "results[].tip_body")))
	}
}

func unique(t *testing.T, what string, texts []string) {
	t.Helper()
	require.NotEmpty(t, texts, what)
	seen := map[string]int{}
	for i, s := range texts {
		j, dup := seen[s]
		require.False(t, dup, "%s: #%d and #%d read the same: %q", what, j+1, i+1, s)
		seen[s] = i
	}
}
