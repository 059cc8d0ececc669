package coherence

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/mocks/world"
)

// absent leaves a parameter out of a call, so that its documented default
// (if any) applies.
type absentT struct{}

var absent = absentT{}

// minted is a value only the session can give: an ID another call of the
// session returned. It gets the harness, the session and the answers of
// the chain that prepared the call.
type minted func(h *harness, session string, chain []answer) any

// change is one row of the metamorphic table: the pair of calls of API
// that differ in Param alone (From in the base call, To in the other), on
// top of the prepared arguments and Base, and what that does.
type change struct {
	API, Param string
	From, To   any // a value, absent, or a minted; a nil From keeps the prepared value
	Base       map[string]any
	Effect     effect
}

// chainAnswer is the answer of the chain's call of id (the last one).
func chainAnswer(t testing.TB, chain []answer, id string) answer {
	t.Helper()
	for i := len(chain) - 1; i >= 0; i-- {
		if chain[i].API == id {
			return chain[i]
		}
	}
	require.Failf(t, "not in the chain", "%s", id)
	return answer{}
}

// nth is a minted value: the n-th value at path of the chain's answer of
// source (another ID from the same list).
func nth(source, path string, n int) minted {
	return func(h *harness, _ string, chain []answer) any {
		vs := values(chainAnswer(h.t, chain, source).Doc, path)
		require.Greater(h.t, len(vs), n, "%s has fewer than %d values at %s", source, n+1, path)
		return vs[n]
	}
}

// fresh is a minted value: the first value at path of a new call of source
// in the session.
func fresh(source string, args map[string]any, path string) minted {
	return func(h *harness, session string, _ []answer) any {
		return first(h.t, h.ok(session, source, args).Doc, path)
	}
}

// freshAfter is fresh with arguments taken from the chain's answers
// (bindings: argument → minted value).
func freshAfter(source string, args map[string]any, bind map[string]minted, path string) minted {
	return func(h *harness, session string, chain []answer) any {
		a := maps.Clone(args)
		for k, m := range bind {
			a[k] = m(h, session, chain)
		}
		return first(h.t, h.ok(session, source, a).Doc, path)
	}
}

// TestMetamorphicTable checks, for every parameter of every built-in API,
// the effect its row declares on a pair of calls that differ in that
// parameter alone, each made in a fresh session after the same dependency
// chain. A parameter without a row, or a row of no parameter, fails.
func TestMetamorphicTable(t *testing.T) {
	h := newHarness(t)
	rows := map[string]change{}
	for _, c := range metamorphicTable(h) {
		key := c.API + "." + c.Param
		require.NotContains(t, rows, key, "two rows for %s", key)
		rows[key] = c
	}
	declared := map[string]bool{}
	for _, a := range h.st.Catalog.APIs() {
		if !a.Tool.Builtin {
			continue
		}
		for _, p := range a.Params {
			key := a.ID() + "." + p.Name
			declared[key] = true
			t.Run(key, func(t *testing.T) {
				c, ok := rows[key]
				require.True(t, ok, "%s has no row in the metamorphic table: declare what changing it does", key)
				require.NotEmpty(t, c.Effect.What, "%s: say what it does (or why it does nothing)", key)
				runChange(newHarness(t), c)
			})
		}
	}
	for key := range rows {
		require.True(t, declared[key], "row %s names no parameter of the catalog", key)
	}
}

func runChange(h *harness, c change) {
	h.t.Helper()
	make1 := func(side string, v any) answer {
		session := "metamorphic/" + c.API + "/" + c.Param + "/" + side
		p := h.prepare(session, c.API)
		args := p.Args
		set := func(k string, v any) {
			switch v := v.(type) {
			case nil: // the prepared value stays
			case absentT:
				delete(args, k)
			case minted:
				args[k] = v(h, session, p.Steps)
			default:
				args[k] = v
			}
		}
		for _, k := range slices.Sorted(maps.Keys(c.Base)) {
			set(k, c.Base[k])
		}
		set(c.Param, v)
		return h.call(session, c.API, args)
	}
	a := make1("a", c.From)
	b := make1("b", c.To)
	c.Effect.run(h.t, a, b)
}

// metamorphicTable is the table: one row per parameter of every built-in
// API, in the order of fixtures/toolset.
func metamorphicTable(h *harness) []change {
	w := h.world
	rate := func(from, to string) func(float64) float64 {
		r, err := w.Rate(from, to)
		require.NoError(h.t, err)
		return func(x float64) float64 { return x * r }
	}
	fahrenheit := func(c float64) float64 { return c*9/5 + 32 }
	articleOf := func(t testing.TB, item any) (country, lang, topic string, published time.Time) {
		return articleOf(t, h, item)
	}
	outletCountry := func(want string) func(t testing.TB, item any) bool {
		return func(t testing.TB, item any) bool { c, _, _, _ := articleOf(t, item); return c == want }
	}
	articleLang := func(want string) func(t testing.TB, item any) bool {
		return func(t testing.TB, item any) bool { _, l, _, _ := articleOf(t, item); return l == want }
	}
	mentions := func(word string) func(t testing.TB, item any) bool {
		return func(_ testing.TB, item any) bool { return containsFold(canonical(item), word) }
	}
	field := func(path string, keep func(string) bool) func(t testing.TB, item any) bool {
		return func(t testing.TB, item any) bool { return keep(str(first(t, item, path))) }
	}
	is := func(want string) func(string) bool { return func(s string) bool { return s == want } }
	isOneOf := func(want ...string) func(string) bool {
		return func(s string) bool {
			for _, x := range want {
				if s == x {
					return true
				}
			}
			return false
		}
	}
	published := func(path string) func(t testing.TB, x, y any) bool {
		return func(t testing.TB, x, y any) bool { return str(first(t, x, path)) > str(first(t, y, path)) }
	}
	// The changed call's value at path is want.
	becomes := func(k Kind, what, path string, want any) effect {
		return custom(k, what, func(t testing.TB, a, b answer) {
			require.Equal(t, str(want), str(first(t, b.Doc, path)), "%s", path)
		})
	}
	now := clock.Default

	var rows []change
	add := func(api string, cs ...change) {
		for _, c := range cs {
			c.API = api
			rows = append(rows, c)
		}
	}

	// Data
	add("geocoding.forward_geocode",
		change{Param: "address", From: "Lisbon, Portugal", To: "Paris, France", Effect: selects("results[].name", "Paris")})
	add("geocoding.reverse_geocode",
		change{Param: "lat", Base: map[string]any{"lon": -9.216}, From: 38.6916, To: 41.1579, Effect: selects("name", "Porto")},
		change{Param: "lon", Base: map[string]any{"lat": 38.6916}, From: -9.216, To: -8.75, Effect: selects("name", "Lisbon")})
	add("ip_geolocation.lookup_ip",
		change{Param: "ip", From: "85.17.142.23", To: "8.8.8.8", Effect: selects("city", "San Francisco")})
	add("iso_codes.language_codes",
		change{Param: "search", From: absent, To: "portug", Effect: filters("data[]", "names containing portug", mentions("portug"))})
	add("iso_codes.country_codes",
		change{Param: "search", From: absent, To: "united", Effect: filters("data[]", "names containing united", mentions("united"))})
	add("iso_codes.country_by_code",
		change{Param: "code", From: "PT", To: "FR", Effect: selects("data.name", "France")})

	// Events
	add("calendar_tools.check_month_calendar",
		change{Param: "year", From: 2025, To: 2026, Effect: selects("first_weekday", "Monday")},
		change{Param: "month", From: 6, To: 7, Effect: selects("month_name", "July")},
		change{Param: "country", Base: map[string]any{"month": 7}, From: absent, To: "US", Effect: custom(Selects, "marks that country's public holidays", func(t testing.TB, a, b answer) {
			require.Empty(t, values(a.Doc, "holidays[]"))
			require.Contains(t, canonical(values(b.Doc, "holidays[]")), "2025-07-04")
		})})
	add("calendar_tools.day_of_week",
		change{Param: "date", From: "2025-06-02", To: "2025-06-07", Effect: selects("day_of_week", "Saturday")})
	add("public_holiday.public_holidays",
		change{Param: "year", Base: map[string]any{"countryCode": "US"}, From: 2025, To: 2026, Effect: selects("[].date", "2026-01-01")},
		change{Param: "countryCode", From: "US", To: "PT", Effect: selects("[].countryCode", "PT")})
	add("public_holiday.long_weekends",
		change{Param: "year", Base: map[string]any{"countryCode": "US"}, From: 2025, To: 2026, Effect: selects("[].startDate")},
		change{Param: "countryCode", From: "US", To: "PT", Effect: selects("[].startDate")})

	// Finance
	add("currency_exchange.exchange",
		change{Param: "from", From: "USD", To: "GBP", Effect: converts(Selects, "another source currency's rate", "", func(x float64) float64 { return x * must(w.Rate("GBP", "USD")) })},
		change{Param: "to", From: "EUR", To: "JPY", Effect: converts(Selects, "another destination currency's rate", "", rate("EUR", "JPY"))},
		change{Param: "q", From: 1.0, To: 250.0, Effect: scales("", 250)})

	// Food
	add("tasty.recipes_auto_complete",
		change{Param: "prefix", From: "chicken", To: "choc", Effect: selects("results[].display")})
	add("tasty.recipes_list",
		change{Param: "from", From: 0, To: 20, Effect: pages("results[]", "id")},
		change{Param: "size", From: 20, To: 5, Effect: limits("results[]", 5)},
		change{Param: "q", From: absent, To: "chicken", Effect: filters("results[]", "recipes mentioning chicken", mentions("chicken"))},
		change{Param: "tags", From: absent, To: "vegetarian", Effect: filters("results[]", "recipes tagged vegetarian", func(t testing.TB, item any) bool {
			return containsFold(strings.Join(strs(values(item, "tags[].name")), ","), "vegetarian")
		})})
	add("tasty.recipes_get_more_info",
		change{Param: "id", From: nth("tasty.recipes_list", "results[].id", 0), To: nth("tasty.recipes_list", "results[].id", 1), Effect: selects("name")})
	add("tasty.recipes_list_similarities",
		change{Param: "recipe_id", From: nth("tasty.recipes_list", "results[].id", 0), To: nth("tasty.recipes_list", "results[].id", 1), Effect: selects("results[].id")})
	add("tasty.tips_list",
		change{Param: "id", From: nth("tasty.recipes_list", "results[].id", 0), To: nth("tasty.recipes_list", "results[].id", 1), Effect: selects("results[].tip_body")},
		change{Param: "from", Base: map[string]any{"size": 1}, From: 0, To: 1, Effect: pages("results[]", "tip_id")},
		change{Param: "size", From: absent, To: 1, Effect: limits("results[]", 1)})

	// Media
	laptop, apple := "https://images.understudy.test/product_laptop.jpg", "https://images.understudy.test/product_red_apple.png"
	add("image_file_processing.image_info",
		change{Param: "image_url", From: laptop, To: apple, Effect: selects("data.url", apple)})
	add("image_file_processing.resize_image",
		change{Param: "image_url", From: laptop, To: apple, Effect: selects("data.original.url", apple)},
		change{Param: "width", From: 320, To: 160, Effect: custom(Scales, "the output's width, the height following the aspect ratio", func(t testing.TB, a, b answer) {
			require.EqualValues(t, 160, num(t, first(t, b.Doc, "data.width")))
			require.InDelta(t, num(t, first(t, a.Doc, "data.height"))/2, num(t, first(t, b.Doc, "data.height")), 1)
		})},
		change{Param: "height", From: absent, To: 100, Effect: custom(Scales, "fits the output inside width × height", func(t testing.TB, a, b answer) {
			require.EqualValues(t, 100, num(t, first(t, b.Doc, "data.height")))
			require.Less(t, num(t, first(t, b.Doc, "data.width")), num(t, first(t, a.Doc, "data.width")))
		})},
		change{Param: "keep_aspect", Base: map[string]any{"height": 100}, From: true, To: false, Effect: custom(Scales, "stretches the output to width × height exactly", func(t testing.TB, a, b answer) {
			require.Less(t, num(t, first(t, a.Doc, "data.width")), 320.0)
			require.EqualValues(t, 320, num(t, first(t, b.Doc, "data.width")))
			require.EqualValues(t, 100, num(t, first(t, b.Doc, "data.height")))
		})})
	add("image_file_processing.compress_image",
		change{Param: "image_url", To: apple, Effect: selects("data.original_size_bytes")},
		change{Param: "quality", From: 75, To: 20, Effect: custom(Scales, "a lower quality, a smaller file", func(t testing.TB, a, b answer) {
			require.Less(t, num(t, first(t, b.Doc, "data.size_bytes")), num(t, first(t, a.Doc, "data.size_bytes")))
		})})
	add("image_file_processing.convert_image_format",
		change{Param: "image_url", To: apple, Effect: selects("data.source_format", "png")},
		change{Param: "format", From: "png", To: "gif", Effect: selects("data.format", "gif")})

	// News_Media
	add("real_time_news_data.search",
		change{Param: "query", From: "climate talks", To: "champions league", Effect: selects("data[].title")},
		change{Param: "country", Base: map[string]any{"query": "climate talks"}, From: "US", To: "GB", Effect: filters("data[]", "outlets of the United Kingdom", outletCountry("GB"))},
		change{Param: "lang", Base: map[string]any{"query": "Hokkaido 北海道 chip", "country": "JP"}, From: "en", To: "ja", Effect: filters("data[]", "articles in Japanese", articleLang("ja"))},
		change{Param: "time_published", Base: map[string]any{"query": "talks vaccine election rates"}, From: "anytime", To: "1d", Effect: filters("data[]", "published in the last day", func(t testing.TB, item any) bool {
			_, _, _, p := articleOf(t, item)
			return now.Sub(p) <= 24*time.Hour
		})},
		change{Param: "limit", Base: map[string]any{"query": "measles vaccine"}, From: 10, To: 1, Effect: limits("data[]", 1)})
	add("real_time_news_data.top_headlines",
		change{Param: "country", From: "US", To: "GB", Effect: filters("data[]", "outlets of the United Kingdom", outletCountry("GB"))},
		change{Param: "lang", Base: map[string]any{"country": "JP"}, From: "en", To: "ja", Effect: filters("data[]", "articles in Japanese", articleLang("ja"))},
		change{Param: "limit", From: 10, To: 3, Effect: limits("data[]", 3)})
	add("real_time_news_data.topic_headlines",
		change{Param: "topic", From: "TECHNOLOGY", To: "SPORTS", Effect: custom(Selects, "another topic's headlines", func(t testing.TB, a, b answer) {
			for _, it := range values(b.Doc, "data[]") {
				_, _, topic, _ := articleOf(t, it)
				require.Equal(t, "SPORTS", topic)
			}
		})},
		change{Param: "country", From: "US", To: "GB", Effect: filters("data[]", "outlets of the United Kingdom", outletCountry("GB"))},
		change{Param: "lang", Base: map[string]any{"country": "JP"}, From: "en", To: "ja", Effect: filters("data[]", "articles in Japanese", articleLang("ja"))})
	add("real_time_news_data.full_story_coverage",
		change{Param: "story_id", From: nth("real_time_news_data.search", "data[].story_id", 0), To: freshAfter("real_time_news_data.search", map[string]any{"query": "champions league"}, nil, "data[].story_id"), Effect: selects("data[].story_id")},
		change{Param: "sort", From: "RELEVANCE", To: "DATE", Effect: sortedBy("data[]", "newest first", published("published_datetime_utc"))})

	// Other, Search, Tools
	add("web_search.web_search",
		change{Param: "q", From: "pasteis de nata recipe", To: "fado", Effect: selects("items[].link")},
		change{Param: "num", Base: map[string]any{"q": "Lisbon"}, From: 10, To: 2, Effect: limits("items[]", 2)},
		change{Param: "lr", Base: map[string]any{"q": "Lisboa"}, From: "en-US", To: "pt-PT", Effect: sortedBy("items[]", "pages in Portuguese first", func(t testing.TB, x, y any) bool {
			return pageLang(w, str(first(t, x, "link"))) == "pt" && pageLang(w, str(first(t, y, "link"))) != "pt"
		})})
	add("web_search.image_search",
		change{Param: "q", From: "lisbon street sign", To: "coffee mug", Effect: selects("data[].url")},
		change{Param: "num", From: 10, To: 2, Effect: limits("data[]", 2)})
	add("web_search.video_search",
		change{Param: "q", From: "portuguese custard tarts", To: "fado", Effect: selects("items[].link")},
		change{Param: "num", Base: map[string]any{"q": "Lisbon"}, From: 10, To: 1, Effect: limits("items[]", 1)})
	add("web_search.news_search",
		change{Param: "q", From: "climate talks", To: "champions league", Effect: selects("items[].link")},
		change{Param: "num", Base: map[string]any{"q": "climate"}, From: 10, To: 1, Effect: limits("items[]", 1)},
		change{Param: "lr", Base: map[string]any{"q": "PSG Champions"}, From: "en-US", To: "fr", Effect: filters("items[]", "articles in French", func(t testing.TB, item any) bool {
			_, l, _, _ := articleOf(t, map[string]any{"link": first(t, item, "link")})
			return l == "fr"
		})})
	add("agent_clock.get_current_time",
		change{Param: "timezone", From: "Europe/Lisbon", To: "Asia/Tokyo", Effect: selects("timezone", "Asia/Tokyo")},
		change{Param: "format", From: "human", To: "iso", Effect: custom(Units, "the same instant written another way", func(t testing.TB, a, b answer) {
			require.Equal(t, first(t, a.Doc, "datetime"), first(t, b.Doc, "datetime"))
			require.NotEqual(t, first(t, a.Doc, "formatted"), first(t, b.Doc, "formatted"))
		})})
	add("calculator.calculate",
		change{Param: "expression", From: "2 + 2", To: "15% of 80", Effect: selects("result", 12)})
	add("python_interpreter.run_python",
		change{Param: "code", From: "print(1)", To: "print(2)", Effect: selects("output", "2\n")})
	add("web_capture.take_screenshot",
		change{Param: "url", From: "https://www.visitlisboa.com", To: "https://www.bahn.de", Effect: selects("data.title")},
		change{Param: "width", From: 1280, To: 640, Effect: becomes(Scales, "the viewport's width", "data.width", 640)},
		change{Param: "height", From: 720, To: 480, Effect: becomes(Scales, "the viewport's height", "data.height", 480)},
		change{Param: "fullpage", Base: map[string]any{"height": 240}, From: false, To: true, Effect: custom(Scales, "the whole page instead of the viewport", func(t testing.TB, a, b answer) {
			require.Greater(t, num(t, first(t, b.Doc, "data.height")), num(t, first(t, a.Doc, "data.height")))
		})})
	add("web_capture.get_screenshot",
		change{Param: "screenshot_id", To: fresh("web_capture.take_screenshot", map[string]any{"url": "https://www.bahn.de"}, "data.screenshot_id"), Effect: selects("data.url", "https://www.bahn.de")})
	add("world_time.timezone_info",
		change{Param: "timezone", From: "Asia/Tokyo", To: "America/New_York", Effect: selects("timezone", "America/New_York")})
	add("world_time.timezone_by_location",
		change{Param: "lat", Base: map[string]any{"lon": -9.1393}, From: 38.7223, To: 41.15, Effect: selects("nearest_city.name", "Porto")},
		change{Param: "lon", Base: map[string]any{"lat": 40.4168}, From: -9.1393, To: -3.7038, Effect: selects("timezone", "Europe/Madrid")})

	// Translation
	add("google_translate.translate",
		change{Param: "q", From: "Where is the train station?", To: "thank you", Effect: selects("data.translations[].translatedText")},
		change{Param: "target", From: "pt", To: "es", Effect: translates("data.translations[].translatedText", "¿")},
		change{Param: "source", Base: map[string]any{"q": "¿Dónde está la estación de tren?", "target": "en"}, From: absent, To: "es", Effect: custom(Translates, "reads the text as that language instead of detecting it", func(t testing.TB, a, b answer) {
			require.Equal(t, "es", str(first(t, a.Doc, "data.translations[].detectedSourceLanguage")))
			require.Empty(t, values(b.Doc, "data.translations[].detectedSourceLanguage"))
			require.Equal(t, first(t, a.Doc, "data.translations[].translatedText"), first(t, b.Doc, "data.translations[].translatedText"))
		})})
	add("google_translate.detect_language",
		change{Param: "q", From: "Onde fica a estação de comboios?", To: "Where is the train station?", Effect: selects("data.detections[][].language", "en")})
	add("google_translate.supported_languages",
		change{Param: "target", From: "en", To: "es", Effect: translates("data.languages[].name", "Español", "Inglés")})
	add("image_translation.translate_image_text",
		change{Param: "image_url", To: "https://images.understudy.test/madrid_tapas_menu.png", Effect: selects("data.blocks[].original_text")},
		change{Param: "target_lang", From: "en", To: "de", Effect: translates("data.blocks[].translated_text")},
		change{Param: "source_lang", Base: map[string]any{"image_url": screenshotOf("https://www.japan-guide.com")}, From: absent, To: "ja", Effect: filters("data.blocks[]", "only the text in Japanese", field("source_lang", is("ja")))})
	add("image_translation.image_translation_languages")

	// Travel
	add("airport_info.airport",
		change{Param: "iata", From: "LIS", To: "OPO", Effect: selects("name")},
		change{Param: "icao", From: absent, To: "EGLL", Effect: refused(Filters, "an airport must have both codes: LIS is not EGLL", 404)})
	add("airport_info.nearby_airports",
		change{Param: "lat", Base: map[string]any{"lon": -8.6}, From: 38.7223, To: 41.2, Effect: selects("data[].iata", "OPO")},
		change{Param: "lon", Base: map[string]any{"lat": 40.4168, "radius_km": 100}, From: -3.7038, To: 2.07, Effect: custom(Selects, "the airports around another point", func(t testing.TB, a, b answer) {
			require.Contains(t, strs(values(a.Doc, "data[].iata")), "MAD")
			require.NotContains(t, strs(values(b.Doc, "data[].iata")), "MAD")
		})},
		change{Param: "radius_km", From: 400, To: 100, Effect: filters("data[]", "airports within 100 km", func(t testing.TB, item any) bool { return num(t, first(t, item, "distance_km")) <= 100 })})
	hotelPrice := "data.hotels[].property.priceBreakdown.grossPrice.value"
	add("booking_com.search_hotel_destination",
		change{Param: "query", From: "Lisbon", To: "Paris", Effect: selects("data[].dest_id")})
	add("booking_com.search_hotels",
		change{Param: "dest_id", To: fresh("booking_com.search_hotel_destination", map[string]any{"query": "Paris"}, "data[].dest_id"), Effect: selects("data.hotels[].property.wishlistName", "Paris")},
		change{Param: "search_type", From: "CITY", To: "HOTEL", Effect: refused(Selects, "reads dest_id as a hotel's: a city's is refused", 400)},
		change{Param: "arrival_date", From: "2025-06-20", To: "2025-06-21", Effect: selects("data.hotels[].property.checkinDate", "2025-06-21")},
		change{Param: "departure_date", From: "2025-06-23", To: "2025-06-25", Effect: selects("data.hotels[].property.checkoutDate", "2025-06-25")},
		change{Param: "adults", From: 1, To: 3, Effect: scales(hotelPrice, 1.3)},
		change{Param: "children_age", Base: map[string]any{"adults": 2}, From: absent, To: "8,10", Effect: scales(hotelPrice, 1.3)},
		change{Param: "room_qty", Base: map[string]any{"adults": 2}, From: 1, To: 2, Effect: scales(hotelPrice, 2)},
		change{Param: "page_number", From: 1, To: 2, Effect: pages("data.hotels[]", "hotel_id", "a city has at most 6 hotels, under one page of 20")},
		change{Param: "units", From: "metric", To: "imperial", Effect: none("the hotel cards carry no distance or size to convert")},
		change{Param: "temperature_unit", From: "c", To: "f", Effect: none("the hotel cards carry no temperature")},
		change{Param: "languagecode", From: "en-us", To: "es", Effect: translates("data.hotels[].property.reviewScoreWord")},
		change{Param: "currency_code", From: "EUR", To: "USD", Effect: converts(Units, "prices in US dollars", hotelPrice, rate("EUR", "USD"))})
	detailsPrice := "data.composite_price_breakdown.gross_amount.value"
	add("booking_com.get_hotel_details",
		change{Param: "hotel_id", To: nth("booking_com.search_hotels", "data.hotels[].hotel_id", 1), Effect: selects("data.hotel_name")},
		change{Param: "arrival_date", From: "2025-06-20", To: "2025-06-21", Effect: selects("data.arrival_date", "2025-06-21")},
		change{Param: "departure_date", From: "2025-06-23", To: "2025-06-25", Effect: selects("data.departure_date", "2025-06-25")},
		change{Param: "adults", From: 1, To: 3, Effect: scales(detailsPrice, 1.3)},
		change{Param: "room_qty", Base: map[string]any{"adults": 2}, From: 1, To: 2, Effect: scales(detailsPrice, 2)},
		change{Param: "languagecode", From: "en-us", To: "es", Effect: translates("data.rawData.reviewScoreWord")},
		change{Param: "currency_code", From: "EUR", To: "USD", Effect: converts(Units, "prices in US dollars", detailsPrice, rate("EUR", "USD"))})
	roomPrice := "data.block[].product_price_breakdown.gross_amount.value"
	add("booking_com.get_room_list",
		change{Param: "hotel_id", To: nth("booking_com.search_hotels", "data.hotels[].hotel_id", 1), Effect: selects("data.block[].room_id")},
		change{Param: "arrival_date", From: "2025-06-20", To: "2025-06-21", Effect: selects("data.arrival_date", "2025-06-21")},
		change{Param: "departure_date", From: "2025-06-23", To: "2025-06-25", Effect: selects("data.departure_date", "2025-06-25")},
		change{Param: "adults", From: 1, To: 3, Effect: scales(roomPrice, 1.3)},
		change{Param: "room_qty", Base: map[string]any{"adults": 2}, From: 1, To: 2, Effect: scales(roomPrice, 2)},
		change{Param: "languagecode", From: "en-us", To: "es", Effect: none("room names and descriptions are the hotel's own texts, written in English")},
		change{Param: "currency_code", From: "EUR", To: "USD", Effect: converts(Units, "prices in US dollars", roomPrice, rate("EUR", "USD"))})
	add("booking_com.get_hotel_reviews",
		change{Param: "hotel_id", To: nth("booking_com.search_hotels", "data.hotels[].hotel_id", 1), Effect: selects("data.result[].review_id")},
		change{Param: "sort_option_id", From: "sort_most_relevant", To: "sort_score_desc", Effect: sortedBy("data.result[]", "best score first", func(t testing.TB, x, y any) bool {
			return num(t, first(t, x, "average_score")) > num(t, first(t, y, "average_score"))
		})},
		change{Param: "page_number", From: 1, To: 2, Effect: pages("data.result[]", "review_id")},
		change{Param: "languagecode", From: "en-us", To: "es", Effect: none("reviews are shown as their guests wrote them (in English); Booking does not translate them")})
	add("booking_com.get_hotel_photos",
		change{Param: "hotel_id", To: nth("booking_com.search_hotels", "data.hotels[].hotel_id", 1), Effect: selects("data[].id")},
		change{Param: "languagecode", From: "en-us", To: "es", Effect: none("photos carry no text")})

	itinPrice := "data.itineraries[].price.raw"
	otherPlace := fresh("skyscanner80.flights_auto_complete", map[string]any{"query": "Paris"}, "data[].id")
	add("skyscanner80.flights_auto_complete",
		change{Param: "query", From: "New York", To: "Paris", Effect: selects("data[].presentation.title", "Paris")},
		change{Param: "market", From: "US", To: "UK", Effect: none("the places are the same in every market")},
		change{Param: "locale", Base: map[string]any{"query": "Munich"}, From: "en-US", To: "de-DE", Effect: translates("data[].presentation.subtitle", "Deutschland")})
	searchRows := func(api string) []change {
		return []change{
			{Param: "fromId", To: otherPlace, Effect: selects("data.itineraries[].legs[].origin.city", "Paris")},
			{Param: "toId", To: otherPlace, Effect: custom(Selects, "flights to another place", func(t testing.TB, a, b answer) {
				require.Contains(t, strs(values(b.Doc, "data.itineraries[].legs[].destination.city")), "Paris")
			})},
			{Param: "departDate", From: "2025-06-20", To: "2025-06-25", Effect: custom(Selects, "flights on another day", func(t testing.TB, a, b answer) {
				require.True(t, strings.HasPrefix(str(first(t, b.Doc, "data.itineraries[].legs[].departure")), "2025-06-25"))
			})},
			{Param: "adults", From: 1, To: 2, Effect: scales(itinPrice, 2)},
			{Param: "cabinClass", From: "economy", To: "business", Effect: scales(itinPrice, 3.6)},
			{Param: "currency", From: "USD", To: "EUR", Effect: converts(Units, "prices in euros", itinPrice, rate("USD", "EUR"))},
			{Param: "market", From: "US", To: "UK", Effect: none("one fare in every market: the answer has no market-specific content (booking links are in flights_detail)")},
			{Param: "locale", From: "en-US", To: "de-DE", Effect: translates("data.itineraries[].legs[].destination.country", "Vereinigtes Königreich")},
		}
	}
	add("skyscanner80.flights_search_one_way", searchRows("one_way")...)
	add("skyscanner80.flights_search_roundtrip", append(searchRows("roundtrip"),
		change{Param: "returnDate", From: "2025-06-27", To: "2025-06-30", Effect: custom(Selects, "return flights on another day", func(t testing.TB, a, b answer) {
			deps := strs(values(b.Doc, "data.itineraries[].legs[].departure"))
			require.True(t, strings.HasPrefix(deps[1], "2025-06-30"), "%v", deps)
		})})...)
	add("skyscanner80.flights_search_incomplete",
		change{Param: "sessionId", To: freshAfter("skyscanner80.flights_search_one_way", map[string]any{"departDate": "2025-06-20"},
			map[string]minted{"fromId": nth("skyscanner80.flights_auto_complete", "data[].id", 0), "toId": otherPlace}, "data.context.sessionId"),
			Effect: custom(Selects, "another search's results", func(t testing.TB, a, b answer) {
				require.Contains(t, strs(values(b.Doc, "data.itineraries[].legs[].destination.city")), "Paris")
			})},
		change{Param: "currency", From: "USD", To: "EUR", Effect: converts(Units, "prices in euros", itinPrice, rate("USD", "EUR"))},
		change{Param: "market", From: "US", To: "UK", Effect: none("one fare in every market: the answer has no market-specific content (booking links are in flights_detail)")},
		change{Param: "locale", From: "en-US", To: "de-DE", Effect: translates("data.itineraries[].legs[].destination.country", "Vereinigtes Königreich")})
	detailPrice := "data.itinerary.pricingOptions[].totalPrice"
	add("skyscanner80.flights_detail",
		change{Param: "itineraryId", To: nth("skyscanner80.flights_search_one_way", "data.itineraries[].id", 1), Effect: selects("data.itinerary.legs[].id")},
		change{Param: "token", To: freshAfter("skyscanner80.flights_search_one_way", map[string]any{"departDate": "2025-06-21"},
			map[string]minted{"fromId": nth("skyscanner80.flights_auto_complete", "data[].id", 0), "toId": otherPlace}, "data.token"),
			Effect: refused(Selects, "names another search, which has not that itinerary", 400)},
		change{Param: "currency", From: "USD", To: "EUR", Effect: converts(Units, "prices in euros", detailPrice, rate("USD", "EUR"))},
		change{Param: "market", From: "US", To: "UK", Effect: custom(Selects, "the market's site in the booking links", func(t testing.TB, a, b answer) {
			require.Contains(t, str(first(t, b.Doc, "data.itinerary.pricingOptions[].agents[].url")), "/UK/")
		})},
		change{Param: "locale", From: "en-US", To: "de-DE", Effect: translates("data.itinerary.legs[].destination.country", "Vereinigtes Königreich")})
	add("skyscanner80.get_config")

	taPrice := func(path string) effect {
		return custom(Units, "prices in euros", func(t testing.TB, a, b answer) {
			pa, pb := values(a.Doc, path), values(b.Doc, path)
			require.NotEmpty(t, pa, "no prices at %s", path)
			require.Len(t, pb, len(pa))
			for i := range pa {
				require.True(t, strings.HasPrefix(str(pa[i]), "$"), "%v", pa[i])
				require.True(t, strings.HasPrefix(str(pb[i]), "€"), "%v", pb[i])
				want := rate("USD", "EUR")(num(t, strings.TrimLeft(strings.ReplaceAll(str(pa[i]), ",", ""), "$")))
				require.InDelta(t, want, num(t, strings.TrimLeft(strings.ReplaceAll(str(pb[i]), ",", ""), "€")), 1)
			}
		})
	}
	add("travel_advisor.locations_search",
		change{Param: "query", From: "Lisbon", To: "Paris", Effect: selects("data[].result_object.name", "Paris")},
		change{Param: "limit", From: 30, To: 2, Effect: limits("data[]", 2)},
		change{Param: "offset", Base: map[string]any{"limit": 2}, From: 0, To: 2, Effect: pages("data[]", "result_object.location_id")},
		change{Param: "units", From: "km", To: "mi", Effect: none("the results carry no distances")},
		change{Param: "currency", From: "USD", To: "EUR", Effect: taPrice("data[].result_object.offer_group.lowest_price")},
		change{Param: "lang", Base: map[string]any{"query": "Munich"}, From: "en_US", To: "pt_PT", Effect: translates("data[].result_object.location_string", "Alemanha")})
	add("travel_advisor.attractions_list",
		change{Param: "location_id", To: freshAfter("travel_advisor.locations_search", map[string]any{"query": "Paris"}, nil, "data[].result_object.location_id"), Effect: selects("data[].location_string")},
		change{Param: "currency", From: "USD", To: "EUR", Effect: taPrice("data[].offer_group.lowest_price")},
		change{Param: "lang", From: "en_US", To: "fr_FR", Effect: translates("data[].ranking")},
		change{Param: "lunit", From: "km", To: "mi", Effect: none("the list carries no distances: it lists a city's attractions, not those around a point")},
		change{Param: "limit", From: 30, To: 2, Effect: limits("data[]", 2)},
		change{Param: "offset", Base: map[string]any{"limit": 2}, From: 0, To: 2, Effect: pages("data[]", "location_id")})
	otherAttraction := nth("travel_advisor.attractions_list", "data[].location_id", 1)
	add("travel_advisor.attractions_get_details",
		change{Param: "location_id", To: otherAttraction, Effect: selects("name")},
		change{Param: "currency", From: "USD", To: "EUR", Effect: taPrice("offer_group.lowest_price")},
		change{Param: "lang", From: "en_US", To: "fr_FR", Effect: translates("ranking")})
	add("travel_advisor.photos_list",
		change{Param: "location_id", To: otherAttraction, Effect: selects("data[].id")},
		change{Param: "limit", From: 50, To: 2, Effect: limits("data[]", 2)},
		change{Param: "offset", Base: map[string]any{"limit": 2}, From: 0, To: 2, Effect: pages("data[]", "id")},
		change{Param: "currency", From: "USD", To: "EUR", Effect: none("photos carry no prices")},
		change{Param: "lang", From: "en_US", To: "fr_FR", Effect: none("a photo's caption is the attraction's name, a proper name")})
	add("travel_advisor.reviews_list",
		change{Param: "location_id", To: otherAttraction, Effect: selects("data[].id")},
		change{Param: "limit", From: 20, To: 2, Effect: limits("data[]", 2)},
		change{Param: "offset", Base: map[string]any{"limit": 2}, From: 0, To: 2, Effect: pages("data[]", "id")},
		change{Param: "currency", From: "USD", To: "EUR", Effect: none("reviews carry no prices")},
		change{Param: "lang", From: "en_US", To: "fr_FR", Effect: none("reviews are shown as their authors wrote them (in English); TripAdvisor does not translate them")})

	// Visual_Recognition
	add("background_removal.remove_background",
		change{Param: "image_url", From: apple, To: laptop, Effect: selects("source_url", laptop)})
	add("background_removal.get_removal_result",
		change{Param: "result_id", To: fresh("background_removal.remove_background", map[string]any{"image_url": laptop}, "result_id"), Effect: selects("source_url", laptop)})
	add("object_detection.detect_objects",
		change{Param: "url", To: apple, Effect: selects("results.labels[].label", "apple")})
	add("object_detection.list_labels")
	add("ocr_extract_text.ocr_image_url",
		change{Param: "url", To: "https://images.understudy.test/paris_cafe_menu.png", Effect: selects("text")},
		change{Param: "language", Base: map[string]any{"url": screenshotOf("https://www.japan-guide.com")}, From: "auto", To: "ja", Effect: filters("lines[]", "only the text in Japanese", field("language", isOneOf("ja", ""))) /* unlabelled text (a host name) is kept */})
	add("ocr_extract_text.supported_languages")

	// Weather
	add("open_weather.city_weather",
		change{Param: "city", From: "new york", To: "Lisbon", Effect: selects("name", "Lisbon")},
		change{Param: "lang", From: "EN", To: "FR", Effect: translates("weather[].description")},
		change{Param: "units", From: "metric", To: "imperial", Effect: converts(Units, "degrees Fahrenheit", "main.temp", fahrenheit)})
	add("open_weather.five_day_forecast",
		change{Param: "lat", Base: map[string]any{"lon": -8.6}, From: 38.72, To: 41.15, Effect: selects("city.name", "Porto")},
		change{Param: "lon", Base: map[string]any{"lat": 40.4168}, From: -9.14, To: -3.7038, Effect: selects("city.name", "Madrid")},
		change{Param: "units", From: "metric", To: "imperial", Effect: converts(Units, "degrees Fahrenheit", "list[].main.temp", fahrenheit)})
	add("weatherapi_com.realtime_weather_api",
		change{Param: "q", From: "London", To: "Paris", Effect: selects("location.name", "Paris")})
	add("weatherapi_com.forecast_weather_api",
		change{Param: "q", From: "London", To: "Paris", Effect: selects("location.name", "Paris")},
		change{Param: "days", From: 3, To: 5, Effect: limits("forecast.forecastday[]", 5)},
		change{Param: "dt", From: absent, To: "2025-06-05", Effect: custom(Selects, "that one day's forecast", func(t testing.TB, a, b answer) {
			require.Equal(t, []string{"2025-06-05"}, strs(values(b.Doc, "forecast.forecastday[].date")))
		})},
		change{Param: "lang", From: absent, To: "fr", Effect: translates("forecast.forecastday[].day.condition.text")})
	add("weatherapi_com.astronomy_api",
		change{Param: "q", From: "London", To: "Paris", Effect: selects("location.name", "Paris")},
		change{Param: "dt", From: absent, To: "2025-12-21", Effect: selects("astronomy.astro.sunrise")})
	add("weatherapi_com.search_autocomplete_api",
		change{Param: "q", From: "lond", To: "paris", Effect: selects("[].name", "Paris")})
	add("weatherapi_com.time_zone_api",
		change{Param: "q", From: "Tokyo", To: "London", Effect: selects("location.tz_id", "Europe/London")})

	sort.SliceStable(rows, func(i, j int) bool { return rows[i].API < rows[j].API })
	return rows
}

// screenshotOf is a minted value: the image URL of a screenshot of page
// taken in the session.
func screenshotOf(page string) minted {
	return fresh("web_capture.take_screenshot", map[string]any{"url": page}, "data.image_url")
}

func must(v float64, err error) float64 {
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return v
}

// pageLang is the language of a page of the world's web index.
func pageLang(w *world.World, url string) string {
	if d, ok := w.Basic.Page(url); ok {
		return d.Lang
	}
	return ""
}

// articleOf is what the world knows of a news article an answer shows
// (by its link): its outlet's country, its language, topic and time.
func articleOf(t testing.TB, h *harness, item any) (country, lang, topic string, published time.Time) {
	link := str(first(t, item, "link"))
	for _, a := range h.world.News.Articles {
		if a.Link == link {
			return a.Country, a.Lang, a.Topic, a.Published
		}
	}
	require.Failf(t, "article not in the world", "%s", link)
	return
}
