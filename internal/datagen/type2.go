package main

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/toolset"
)

// t2 is one authored Type-II instruction. For an API whose required value
// only another API can mint, setup holds the calls that minted it earlier
// in the conversation and fill names, per parameter, the setup step whose
// response gives it; the text quotes it as {param}.
type t2 struct {
	api  string
	text string
	alts []string // other phrasings, tried when text is a near-duplicate
	// broad are the alternative phrasings that ask about the whole
	// (what it is like outside, the live weather), with the response
	// paths of the facts a user expects then: conditions and
	// temperature, not one field alone.
	broad map[string][]string
	args  A
	facts []string // response paths; nil picks them from the response
	lit   []string // facts given literally (the validator finds them in the response)
	also  []string
	setup []dataset.GoldStep
	fill  map[string]int
}

var (
	weatherAlso = []string{"open_weather.city_weather"}
	cityWAlso   = []string{"weatherapi_com.realtime_weather_api"}
	calcAlso    = []string{"python_interpreter.run_python"}
	pyAlso      = []string{"calculator.calculate"}
)

const img = "https://images.understudy.test/"

func (g *gen) typeII() {
	fri, sat, sun, mon := weekday(time.Friday), weekday(time.Saturday), weekday(time.Sunday), weekday(time.Monday)
	lisbon := acc("Lisbon", "Lisbon, Portugal", "Lisboa")
	items := []t2{
		// weatherapi_com
		{api: "weatherapi_com.realtime_weather_api", text: "what's the weather like in London right now?", args: A{"q": acc("London", "London, UK", "London, United Kingdom")}, facts: []string{"current.temp_c", "current.condition.text"}, also: weatherAlso},
		{api: "weatherapi_com.realtime_weather_api", text: "Is it raining in the Big Apple at the moment? My flight boards in two hours.", args: A{"q": acc("New York", "New York City", "New York, NY", "NYC")}, facts: []string{"current.condition.text", "current.precip_mm"}, also: weatherAlso},
		{api: "weatherapi_com.realtime_weather_api", text: "Current temperature in Tokyo please, in Celsius.", args: A{"q": acc("Tokyo", "Tokyo, Japan")}, facts: []string{"current.temp_c"}, also: weatherAlso},
		{api: "weatherapi_com.realtime_weather_api", text: "my sister is in Reykjavik today and says it's freezing — how cold is it there actually? give me Fahrenheit, she's American lol", args: A{"q": acc("Reykjavik", "Reykjavík", "Reykjavik, Iceland")}, facts: []string{"current.temp_f"}, also: weatherAlso},
		{api: "weatherapi_com.realtime_weather_api", text: "How windy is it in Wellington right now? Thinking about taking the ferry.", args: A{"q": acc("Wellington", "Wellington, New Zealand")}, facts: []string{"current.wind_kph"}, also: weatherAlso},
		{api: "weatherapi_com.forecast_weather_api", text: "Will I need an umbrella in Amsterdam over the next three days?", args: A{"q": acc("Amsterdam", "Amsterdam, Netherlands"), "days": acc(3.0)}, facts: []string{"forecast.forecastday[].day.daily_chance_of_rain"}},
		{api: "weatherapi_com.forecast_weather_api", text: "Could you get me a 5-day forecast for Barcelona? We land on Wednesday.", args: A{"q": acc("Barcelona", "Barcelona, Spain"), "days": acc(5.0)}, facts: []string{"forecast.forecastday[].day.maxtemp_c"}},
		{api: "weatherapi_com.forecast_weather_api", text: "What's tomorrow looking like in Chicago, weather-wise? Just the next 2 days is fine.", args: A{"q": acc("Chicago", "Chicago, IL"), "days": acc(2.0)}, facts: []string{"forecast.forecastday[].day.condition.text"}},
		{api: "weatherapi_com.forecast_weather_api", text: fmt.Sprintf("Forecast for Rome on %s please, one day is enough.", fri), args: A{"q": acc("Rome", "Rome, Italy"), "days": acc(1.0), "dt": acc(fri)}, facts: []string{"forecast.forecastday[].day.maxtemp_c"}},
		{api: "weatherapi_com.astronomy_api", text: "what time is sunset in Santorini— sorry, I mean Athens, today?", args: A{"q": acc("Athens", "Athens, Greece")}, facts: []string{"astronomy.astro.sunset"}},
		{api: "weatherapi_com.astronomy_api", text: "When does the sun come up in Cape Town tomorrow? I want to hike Lion's Head for sunrise.", args: A{"q": acc("Cape Town", "Cape Town, South Africa"), "dt": acc(day(1))}, facts: []string{"astronomy.astro.sunrise"}},
		{api: "weatherapi_com.astronomy_api", text: "What phase is the moon in tonight over Sydney?", args: A{"q": acc("Sydney", "Sydney, Australia")}, facts: []string{"astronomy.astro.moon_phase"}},
		{api: "weatherapi_com.astronomy_api", text: fmt.Sprintf("Moonrise time in Honolulu on %s?", sat), args: A{"q": acc("Honolulu", "Honolulu, HI"), "dt": acc(sat)}, facts: []string{"astronomy.astro.moonrise"}},
		{api: "weatherapi_com.search_autocomplete_api", text: "I only remember the place starts with 'Zur' — which cities match that?", args: A{"q": acc("Zur", "zur")}, facts: []string{"[].name"}},
		{api: "weatherapi_com.search_autocomplete_api", text: "Type-ahead check: which locations come up for 'Mel'?", args: A{"q": acc("Mel", "mel")}, facts: []string{"[].name"}},
		{api: "weatherapi_com.search_autocomplete_api", text: "Can you look up places whose name begins with 'Stock'? I'm filling in a form and need the exact spelling.", args: A{"q": acc("Stock", "stock")}, facts: []string{"[].name", "[].country"}},
		{api: "weatherapi_com.time_zone_api", text: "What's the local time in Seoul right now? I don't want to wake my colleague.", args: A{"q": acc("Seoul", "Seoul, South Korea")}, facts: []string{"location.localtime"}, also: []string{"agent_clock.get_current_time", "world_time.timezone_info"}},
		{api: "weatherapi_com.time_zone_api", text: "Which timezone is Denpasar in, and what time is it there now?", args: A{"q": acc("Denpasar", "Denpasar, Bali", "Bali")}, facts: []string{"location.tz_id"}, also: []string{"agent_clock.get_current_time"}},
		{api: "weatherapi_com.time_zone_api", text: "Local time in Buenos Aires pls", args: A{"q": acc("Buenos Aires", "Buenos Aires, Argentina")}, facts: []string{"location.localtime"}, also: []string{"agent_clock.get_current_time", "world_time.timezone_info"}},

		// open_weather
		{api: "open_weather.city_weather", text: "Hey, how's the weather in Madrid right now? Metric please.", args: A{"city": acc("Madrid", "Madrid, ES"), "units": opt("metric")}, facts: []string{"main.temp", "weather[].description"}, also: cityWAlso},
		{api: "open_weather.city_weather", text: "Temperature in Miami now, in Fahrenheit.", args: A{"city": acc("Miami", "Miami, US"), "units": acc("imperial")}, facts: []string{"main.temp"}, also: cityWAlso},
		{api: "open_weather.city_weather", text: "Quel temps fait-il à Paris en ce moment ? Réponds en français stp.", args: A{"city": acc("Paris", "Paris, FR"), "lang": acc("FR", "fr")}, facts: []string{"weather[].description"}, also: cityWAlso},
		{api: "open_weather.city_weather", text: "how humid is it in Bangkok today? trying to decide if I should go for a run", args: A{"city": acc("Bangkok", "Bangkok, TH")}, facts: []string{"main.humidity"}, also: cityWAlso},
		{api: "open_weather.five_day_forecast", text: "I have the coordinates 41.3874, 2.1686 for our campsite. What's the five-day forecast there?", args: A{"lat": acc(41.3874), "lon": acc(2.1686)}, facts: []string{"list[].main.temp", "city.name"}},
		{api: "open_weather.five_day_forecast", text: "5 day forecast for lat -33.9249 lon 18.4241, imperial units", args: A{"lat": acc(-33.9249), "lon": acc(18.4241), "units": acc("imperial")}, facts: []string{"list[].main.temp"}},
		{api: "open_weather.five_day_forecast", text: "Our boat is moored at 43.7102 N, 7.262 E. Could you pull the forecast for the coming days at that spot?", args: A{"lat": acc(43.7102), "lon": acc(7.262)}, facts: []string{"list[].weather[].description"}},
		{api: "open_weather.five_day_forecast", text: "Forecast for the next few days at 35.0116, 135.7681 please (that's our ryokan in Kyoto).", args: A{"lat": acc(35.0116), "lon": acc(135.7681)}, facts: []string{"list[].main.temp", "city.name"}},

		// real_time_news_data
		{api: "real_time_news_data.search", text: "Any news about the climate talks?", args: A{"query": acc("climate talks", "climate talks news")}, facts: []string{"data[].title"}, also: []string{"web_search.news_search"}},
		{api: "real_time_news_data.search", text: "Find me articles from the past week about EV sales.", args: A{"query": acc("EV sales", "electric vehicle sales"), "time_published": acc("7d")}, facts: []string{"data[].title"}, also: []string{"web_search.news_search"}},
		{api: "real_time_news_data.search", text: "What's being reported on the ECB and interest rates?", args: A{"query": acc("ECB rates", "ECB interest rates", "ECB interest rate")}, facts: []string{"data[].title"}, also: []string{"web_search.news_search"}},
		{api: "real_time_news_data.search", text: "Can you search the news for anything on the Champions League final, UK sources, in English?", args: A{"query": acc("Champions League final", "Champions League"), "country": acc("GB"), "lang": acc("en")}, facts: []string{"data[].title"}, also: []string{"web_search.news_search"}},
		{api: "real_time_news_data.top_headlines", text: "What are today's top headlines?", args: A{}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.top_headlines", text: "Give me the top 5 headlines in Germany, in German please.", args: A{"country": acc("DE"), "lang": acc("de"), "limit": acc(5.0)}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.top_headlines", text: "morning! what's making the news in the UK?", args: A{"country": acc("GB"), "lang": opt("en")}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.top_headlines", text: "Just three headlines, quick, I'm about to go into a meeting.", args: A{"limit": acc(3.0)}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.topic_headlines", text: "What's new in tech today?", args: A{"topic": acc("TECHNOLOGY")}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.topic_headlines", text: "Show me the latest sports headlines.", args: A{"topic": acc("SPORTS")}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.topic_headlines", text: "I follow the markets — any big business stories this morning?", args: A{"topic": acc("BUSINESS")}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.topic_headlines", text: "Health news, please. Anything on vaccines or hospitals?", args: A{"topic": acc("HEALTH")}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.full_story_coverage", text: "You found me that climate talks piece a minute ago — story id {story_id}. Can you pull the full coverage of that story?", args: A{}, setup: []dataset.GoldStep{g.step("real_time_news_data.search", M{"query": "climate talks"})}, fill: map[string]int{"story_id": 0}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.full_story_coverage", text: "For story {story_id} from the headlines, show me all the outlets covering it, newest first.", args: A{"sort": acc("DATE")}, setup: []dataset.GoldStep{g.step("real_time_news_data.top_headlines", M{})}, fill: map[string]int{"story_id": 0}, facts: []string{"data[].title"}},
		{api: "real_time_news_data.full_story_coverage", text: "I'd like the whole story coverage for {story_id} (the tech one you listed).", args: A{}, setup: []dataset.GoldStep{g.step("real_time_news_data.topic_headlines", M{"topic": "TECHNOLOGY"})}, fill: map[string]int{"story_id": 0}, facts: []string{"data[].title"}},

		// public_holiday
		{api: "public_holiday.public_holidays", text: "List the public holidays in France for 2025.", args: A{"year": acc(2025.0), "countryCode": acc("FR")}, facts: []string{"[].localName"}},
		{api: "public_holiday.public_holidays", text: "Which bank holidays does the UK have this year?", args: A{"year": acc(2025.0), "countryCode": acc("GB")}, facts: []string{"[].name"}},
		{api: "public_holiday.public_holidays", text: "I'm moving to Japan next year; what are the national holidays in 2026?", args: A{"year": acc(2026.0), "countryCode": acc("JP")}, facts: []string{"[].name", "[].date"}},
		{api: "public_holiday.public_holidays", text: "feriados no Brasil em 2025?", args: A{"year": acc(2025.0), "countryCode": acc("BR")}, facts: []string{"[].localName"}},
		{api: "public_holiday.available_countries", text: "Which countries do you have holiday calendars for?", args: A{}, facts: []string{"[].name"}},
		{api: "public_holiday.available_countries", text: "Is there a list of the countries you can check public holidays for?", args: A{}, facts: []string{"[].countryCode"}},
		{api: "public_holiday.available_countries", text: "Before I ask about holidays — what countries are supported at all?", args: A{}, facts: []string{"[].name"}},
		{api: "public_holiday.long_weekends", text: "When are the long weekends in Ireland in 2025? Trying to plan some getaways.", args: A{"year": acc(2025.0), "countryCode": acc("IE")}, facts: []string{"[].startDate"}},
		{api: "public_holiday.long_weekends", text: "Any long weekends coming up in Australia this year?", args: A{"year": acc(2025.0), "countryCode": acc("AU")}, facts: []string{"[].startDate", "[].dayCount"}},
		{api: "public_holiday.long_weekends", text: "Puentes en España en 2026 — which long weekends need a bridge day?", args: A{"year": acc(2026.0), "countryCode": acc("ES")}, facts: []string{"[].startDate"}},

		// calendar_tools
		{api: "calendar_tools.check_month_calendar", text: "Show me the calendar for July 2025.", args: A{"year": acc(2025.0), "month": acc(7.0)}, facts: []string{"month_name", "first_weekday"}},
		{api: "calendar_tools.check_month_calendar", text: "What does December 2025 look like — which weekday does it start on?", args: A{"year": acc(2025.0), "month": acc(12.0)}, facts: []string{"first_weekday"}},
		{api: "calendar_tools.check_month_calendar", text: "Can you show me this month's calendar with the German holidays marked?", args: A{"year": acc(2025.0), "month": acc(6.0), "country": acc("DE")}, facts: []string{"month_name", "days_in_month"}},
		{api: "calendar_tools.check_month_calendar", text: "How many days does February 2028 have? Need the month view.", args: A{"year": acc(2028.0), "month": acc(2.0)}, facts: []string{"days_in_month"}},
		{api: "calendar_tools.day_of_week", text: "What day of the week is 2025-12-25?", args: A{"date": acc("2025-12-25")}, facts: []string{"day_of_week"}},
		{api: "calendar_tools.day_of_week", text: "My daughter's birthday is on 14 March 2026 — which weekday is that?", args: A{"date": acc("2026-03-14")}, facts: []string{"day_of_week"}},
		{api: "calendar_tools.day_of_week", text: "was 1 Jan 2030 a saturday?", args: A{"date": acc("2030-01-01")}, facts: []string{"day_of_week"}},
		{api: "calendar_tools.day_of_week", text: "The concert is on 2025-09-19. Is that a weekday or the weekend?", args: A{"date": acc("2025-09-19")}, facts: []string{"day_of_week"}},

		// tasty
		{api: "tasty.recipes_auto_complete", text: "What recipe suggestions come up for 'chick'?", args: A{"prefix": acc("chick")}, facts: []string{"results[].display"}},
		{api: "tasty.recipes_auto_complete", text: "I'm typing 'pan' into the recipe search — what would it suggest?", args: A{"prefix": acc("pan")}, facts: []string{"results[].display"}},
		{api: "tasty.recipes_auto_complete", text: "autocomplete for 'sal' in recipes?", args: A{"prefix": acc("sal")}, facts: []string{"results[].display"}},
		{api: "tasty.recipes_list", text: "Find me some pasta recipes.", args: A{"from": acc(0.0), "size": acc(20.0, 10.0, 5.0), "q": acc("pasta")}, facts: []string{"results[].name"}},
		{api: "tasty.recipes_list", text: "Got chickpeas and not much else. Show me 5 recipes that use them.", args: A{"from": acc(0.0), "size": acc(5.0), "q": acc("chickpeas", "chickpea")}, facts: []string{"results[].name"}},
		{api: "tasty.recipes_list", text: "Vegetarian dinner ideas please, first ten results are plenty.", args: A{"from": acc(0.0), "size": acc(10.0), "tags": acc("vegetarian"), "q": opt("dinner")}, facts: []string{"results[].name"}},
		{api: "tasty.recipes_list", text: "what soups do you have? list 20", args: A{"from": acc(0.0), "size": acc(20.0), "q": acc("soup")}, facts: []string{"results[].name"}},
		{api: "tasty.recipes_get_more_info", text: "Tell me more about recipe {id} from that list — ingredients and steps.", args: A{}, setup: []dataset.GoldStep{g.step("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": "chicken"})}, fill: map[string]int{"id": 0}, facts: []string{"name", "sections[].components[].ingredient.name"}},
		{api: "tasty.recipes_get_more_info", text: "How long does recipe #{id} take to cook?", args: A{}, setup: []dataset.GoldStep{g.step("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": "soup"})}, fill: map[string]int{"id": 0}, facts: []string{"cook_time_minutes"}},
		{api: "tasty.recipes_get_more_info", text: "Full details for {id}, please — I'm shopping for it tonight.", args: A{}, setup: []dataset.GoldStep{g.step("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": "rice"})}, fill: map[string]int{"id": 0}, facts: []string{"name", "sections[].components[].ingredient.name"}},
		{api: "tasty.recipes_list_similarities", text: "Loved recipe {id}. What similar recipes are there?", args: A{}, setup: []dataset.GoldStep{g.step("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": "pasta"})}, fill: map[string]int{"recipe_id": 0}},
		{api: "tasty.recipes_list_similarities", text: "Anything like recipe {recipe_id}? My kids won't eat it twice in a week.", args: A{}, setup: []dataset.GoldStep{g.step("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": "tacos"})}, fill: map[string]int{"recipe_id": 0}},
		{api: "tasty.recipes_list_similarities", text: "Suggest alternatives similar to {recipe_id} please.", args: A{}, setup: []dataset.GoldStep{g.step("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": "salad"})}, fill: map[string]int{"recipe_id": 0}},
		{api: "tasty.tips_list", text: "What tips have people left for recipe {id}?", args: A{}, setup: []dataset.GoldStep{g.step("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": "cookies"})}, fill: map[string]int{"id": 0}},
		{api: "tasty.tips_list", text: "Show me the first 5 cook tips for {id}.", args: A{"size": acc(5.0), "from": opt(0.0)}, setup: []dataset.GoldStep{g.step("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": "bread"})}, fill: map[string]int{"id": 0}},
		{api: "tasty.tips_list", text: "Before I try {id}: any advice from people who made it?", args: A{}, setup: []dataset.GoldStep{g.step("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": "curry"})}, fill: map[string]int{"id": 0}},
	}
	items = append(items, g.typeIIBasic()...)
	items = append(items, g.typeIIImage()...)
	items = append(items, g.typeIITravel(fri, sat, sun, mon, lisbon)...)
	items = append(items, g.typeIIExtra()...)

	// Build in ID order, the order the validator executes them in: some
	// stand-ins keep state across sessions (see the report), so the order
	// of execution must be the same.
	n := map[string]int{}
	ids := make([]string, len(items))
	for i, it := range items {
		n[it.api]++
		ids[i] = fmt.Sprintf("II-%s-%02d", it.api, n[it.api])
	}
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ids[order[a]] < ids[order[b]] })
	for _, i := range order {
		g.buildII(items[i], ids[i])
	}
}

func (g *gen) buildII(it t2, id string) {
	a := g.api(it.api)
	if a == nil {
		return
	}
	text, args := it.text, A{}
	for k, v := range it.args {
		args[k] = v
	}
	session := "datagen/" + id
	var chain []dataset.GoldStep
	if len(it.setup) > 0 {
		chain = g.resolve(it.setup)
		answers, err := g.runChain(chain, session)
		if err != nil {
			g.fail("%s: setup: %v", id, err)
			return
		}
		for _, p := range slices.Sorted(maps.Keys(it.fill)) {
			stepIdx := it.fill[p]
			val := g.provided(a, p, chain[stepIdx].API, answers[stepIdx])
			if val == nil {
				g.fail("%s: no value for %s from step %d", id, p, stepIdx)
				return
			}
			s, _ := scalar(val)
			// The text may name the placeholder by the parameter or by "id".
			text = strings.ReplaceAll(text, "{"+p+"}", s)
			text = strings.ReplaceAll(text, "{id}", s)
			args[p] = acc(val)
		}
	}
	call := map[string]any{}
	for k, v := range args {
		if len(v.Values) > 0 {
			call[k] = v.Values[0]
		}
	}
	ans, err := g.call(it.api, call, session)
	if err != nil {
		g.fail("%s: %v", id, err)
		return
	}
	if called, err := a.Validate(call); err == nil && !dataset.Informative(ans.doc, called) {
		g.fail("%s: the gold call returns nothing beyond its own arguments and envelope", id)
		return
	}
	in := dataset.Instruction{
		ID: id, Type: dataset.TypeSufficient, Text: text, Scenario: a.Tool.Scenario,
		TargetAPI: a.ID(), AlsoCorrect: it.also, Chain: chain,
		GoldCall: &dataset.GoldCall{API: a.ID(), Arguments: map[string]dataset.Acceptable(args)},
	}
	if dataset.EarlierTurn(it.text) != "" {
		// The text speaks of the turns that minted its values: the
		// conversation carries them.
		in.Chain, in.History = nil, chain
		if in.Earlier = earlierRequest(chain); in.Earlier == "" {
			g.fail("%s: no earlier request for a history starting with %s", id, chain[0].API)
			return
		}
	}
	// Task 6 checks the answer by these facts: only values the question
	// asks for count (the validator's rule), never a status, bookkeeping,
	// the question's own words or an unrelated search hit; and only values
	// the model is shown, so they are taken from what it is shown.
	asked := func(f string) bool { return dataset.ExpectedFactFault(&in, ans.doc, f) == "" }
	// Facts named by path must be found there: a path that yields
	// nothing the question asks for means the call answered nothing
	// relevant (an OCR of a French sign told it is English reads no
	// line), and another field picked in its place would be no answer.
	var fs []string
	switch {
	case it.lit != nil:
		fs = it.lit
		for _, f := range fs {
			if fault := dataset.ExpectedFactFault(&in, ans.doc, f); fault != "" {
				err = fmt.Errorf("%q %s", f, fault)
			}
		}
	case len(it.facts) > 0:
		fs, err = facts(ans.shown, asked, it.facts...)
		if err == nil && len(fs) == 0 {
			err = fmt.Errorf("nothing at %v is a fact the question asks for", it.facts)
		}
	default:
		fs, err = autoFacts(ans.shown, asked)
	}
	if err != nil {
		g.fail("%s: facts: %v", id, err)
		return
	}
	in.ExpectedFacts = fs
	cands := []dataset.Instruction{in}
	for _, t := range it.alts {
		alt := in
		alt.Text = t
		if paths, ok := it.broad[t]; ok {
			altAsked := func(f string) bool { return dataset.ExpectedFactFault(&alt, ans.doc, f) == "" }
			afs, err := facts(ans.shown, altAsked, paths...)
			if err != nil || len(afs) < len(paths) {
				g.fail("%s: facts of %q: %v (%d of %d)", id, t, err, len(afs), len(paths))
				return
			}
			alt.ExpectedFacts = afs
		}
		cands = append(cands, alt)
	}
	g.add(cands...)
}

// provided is the value the answer of an earlier call of API from gives
// parameter p of API a, along the annotated edge between them, from what a
// model is shown of that answer; nil when there is none.
func (g *gen) provided(a *toolset.API, p, from string, ans answer) any {
	for _, e := range g.graph.Into(a.ID()) {
		if e.Param == p && e.From == from {
			if vs := valuesAt(ans.shown, e.Path); len(vs) > 0 {
				return vs[0]
			}
		}
	}
	return nil
}

// preferredFacts are the response keys whose values an answer states, in
// order of preference.
var preferredFacts = []string{"name", "title", "translatedText", "translated_text", "text", "result_text", "output", "display_name", "label", "localName", "city", "country", "capital", "tz_id", "timezone", "formatted", "day_of_week", "price", "rating", "iata", "ip", "output_url", "result_url", "image_url", "language", "tip_body", "author_name", ""}

// autoFacts picks up to two facts: the shallowest values of preferred keys.
func autoFacts(doc any, asked func(string) bool) ([]string, error) {
	type leaf struct {
		key   string
		depth int
		val   string
	}
	var leaves []leaf
	var walk func(v any, key string, depth int)
	walk = func(v any, key string, depth int) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(x[k], k, depth+1)
			}
		case []any:
			for _, e := range x {
				walk(e, key, depth+1)
			}
		default:
			if s, ok := scalar(x); ok && len(s) >= 1 && asked(s) {
				leaves = append(leaves, leaf{key, depth, s})
			}
		}
	}
	walk(doc, "", 0)
	var out []string
	for _, k := range preferredFacts {
		best := -1
		for i, l := range leaves {
			if l.key == k && (best < 0 || l.depth < leaves[best].depth) {
				best = i
			}
		}
		if best >= 0 && !contains(out, leaves[best].val) {
			out = append(out, leaves[best].val)
		}
		if len(out) == 2 {
			break
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no fact found in the response")
	}
	return out, nil
}

func contains(s []string, x string) bool {
	for _, e := range s {
		if e == x {
			return true
		}
	}
	return false
}
