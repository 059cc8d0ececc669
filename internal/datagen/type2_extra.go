package main

import (
	"fmt"
	"sort"

	"github.com/understudy/understudy/mocks/world"
)

// typeIIExtra adds Type-II instructions over the world's cities, countries
// and airports, each core phrasing used with a different value and a
// different opener and closer.
func (g *gen) typeIIExtra() []t2 {
	var out []t2
	cities := append([]*world.City(nil), g.world.Cities()...)
	sort.Slice(cities, func(i, j int) bool { return cities[i].ID < cities[j].ID })
	type core struct {
		api   string
		f     func(c *world.City) string
		args  func(c *world.City) A
		facts []string
		also  []string
	}
	q := func(c *world.City) A { return A{"q": acc(c.Name, c.Name+", "+c.Country)} }
	cores := []core{
		{"weatherapi_com.realtime_weather_api", func(c *world.City) string {
			return fmt.Sprintf("Can you check how warm it is in %s right now?", c.Name)
		}, q, []string{"current.temp_c"}, weatherAlso},
		{"weatherapi_com.realtime_weather_api", func(c *world.City) string { return fmt.Sprintf("Tell me the current conditions in %s.", c.Name) }, q, []string{"current.condition.text"}, weatherAlso},
		{"weatherapi_com.forecast_weather_api", func(c *world.City) string { return fmt.Sprintf("Show me the three-day forecast for %s.", c.Name) }, func(c *world.City) A { return A{"q": acc(c.Name, c.Name+", "+c.Country), "days": acc(3.0)} }, []string{"forecast.forecastday[].day.maxtemp_c"}, nil},
		{"weatherapi_com.astronomy_api", func(c *world.City) string { return fmt.Sprintf("Tell me when the sun sets in %s today.", c.Name) }, q, []string{"astronomy.astro.sunset"}, nil},
		{"weatherapi_com.time_zone_api", func(c *world.City) string { return fmt.Sprintf("What's the local time in %s now?", c.Name) }, q, []string{"location.localtime"}, []string{"agent_clock.get_current_time", "world_time.timezone_info"}},
		{"open_weather.city_weather", func(c *world.City) string {
			return fmt.Sprintf("Can you tell me if it's sunny in %s at the moment?", c.Name)
		}, func(c *world.City) A { return A{"city": acc(c.Name, c.Name+", "+c.Country)} }, []string{"weather[].description"}, cityWAlso},
		{"geocoding.forward_geocode", func(c *world.City) string {
			return fmt.Sprintf("Geocode %s for me: latitude and longitude to four decimals.", c.Name)
		}, func(c *world.City) A { return A{"address": acc(c.Name, c.Name+", "+c.Country)} }, []string{"results[].lat", "results[].lon"}, nil},
		{"booking_com.search_hotel_destination", func(c *world.City) string {
			return fmt.Sprintf("How many hotels does the booking site list for %s?", c.Name)
		}, func(c *world.City) A { return A{"query": acc(c.Name)} }, []string{"data[].nr_hotels"}, nil},
		{"travel_advisor.locations_search", func(c *world.City) string { return fmt.Sprintf("Find %s on the travel guide site.", c.Name) }, func(c *world.City) A { return A{"query": acc(c.Name)} }, []string{"data[].result_object.location_string"}, nil},
		{"skyscanner80.flights_auto_complete", func(c *world.City) string {
			return fmt.Sprintf("Which airports show up for %s in the flight search?", c.Name)
		}, func(c *world.City) A { return A{"query": acc(c.Name)} }, []string{"data[].navigation.relevantFlightParams.skyId", "data[].presentation.suggestionTitle"}, nil},
		{"world_time.timezone_info", func(c *world.City) string { return fmt.Sprintf("What's the current UTC offset of %s?", c.TimeZone) }, func(c *world.City) A { return A{"timezone": acc(c.TimeZone)} }, []string{"utc_offset"}, nil},
		{"airport_info.airport", func(c *world.City) string {
			return fmt.Sprintf("What's the phone number of airport %s?", c.Airports[0])
		}, func(c *world.City) A { return A{"iata": acc(c.Airports[0])} }, []string{"phone"}, nil},
	}
	n := 0
	for i, c := range cities {
		if len(c.Airports) == 0 {
			continue
		}
		cr := cores[i%len(cores)]
		n++
		val := c.Name
		switch cr.api {
		case "world_time.timezone_info":
			val = c.TimeZone
		case "airport_info.airport":
			val = c.Airports[0]
		}
		var alts []string
		broad := map[string][]string{}
		for _, f := range extraAlts[cr.api] {
			alts = append(alts, fmt.Sprintf(f, val))
			if paths, ok := broadAlts[f]; ok {
				broad[fmt.Sprintf(f, val)] = paths
			}
		}
		out = append(out, t2{api: cr.api, text: cr.f(c), alts: alts, broad: broad, args: cr.args(c), facts: cr.facts, also: cr.also})
	}
	curs := [][3]any{{"EUR", "USD", 100.0}, {"GBP", "JPY", 20.0}, {"USD", "BRL", 75.0}, {"CHF", "EUR", 300.0}, {"AUD", "NZD", 1000.0}, {"CAD", "USD", 45.0}, {"EUR", "PLN", 250.0}, {"USD", "MXN", 60.0}}
	for _, x := range curs {
		out = append(out, t2{api: "currency_exchange.exchange", text: fmt.Sprintf("Convert %v %s to %s.", x[2], x[0], x[1]), args: A{"from": acc(x[0]), "to": acc(x[1]), "q": acc(x[2])}})
	}
	hol := []string{"DE", "IT", "NL", "CA", "MX", "NZ", "GR", "PT"}
	for i, cc := range hol {
		api := "public_holiday.public_holidays"
		core := fmt.Sprintf("Public holidays in %s for 2025?", cc)
		alts := []string{fmt.Sprintf("Which public holidays does %s have in 2025?", cc), fmt.Sprintf("List the 2025 public holidays for country code %s.", cc), fmt.Sprintf("I need the 2025 holiday calendar of %s.", cc)}
		if i%2 == 1 {
			api, core = "public_holiday.long_weekends", fmt.Sprintf("Long weekends in %s during 2025?", cc)
			alts = []string{fmt.Sprintf("Which long weekends does %s get in 2025?", cc), fmt.Sprintf("List the 2025 long weekends for country code %s.", cc), fmt.Sprintf("When can I take a long weekend in %s in 2025?", cc)}
			out = append(out, t2{api: api, text: core, alts: alts, args: A{"year": acc(2025.0), "countryCode": acc(cc)}, facts: []string{"[].startDate"}})
			continue
		}
		out = append(out, t2{api: api, text: core, alts: alts, args: A{"year": acc(2025.0), "countryCode": acc(cc)}})
	}
	dates := []string{"2025-12-31", "2025-07-04", "2025-11-27", "2026-01-01", "2025-10-31", "2025-08-15", "2026-02-14"}
	for _, d := range dates {
		out = append(out, t2{api: "calendar_tools.day_of_week", text: fmt.Sprintf("Which weekday is %s?", d), args: A{"date": acc(d)}, facts: []string{"day_of_week"}})
	}
	return out
}

// broadAlts are the phrasings of extraAlts that ask about the weather as
// a whole, with the facts a user expects of the answer: the conditions
// and the temperature (of each day, for an outlook).
var broadAlts = map[string][]string{
	"Current weather in %s, please: what's it like outside?":   {"current.condition.text", "current.temp_c"},
	"Give me the live weather for %s.":                         {"current.condition.text", "current.temp_c"},
	"What will the weather do in %s over the next three days?": {"forecast.forecastday[].day.condition.text", "forecast.forecastday[].day.maxtemp_c"},
	"Give me the 3-day outlook for %s.":                        {"forecast.forecastday[].day.condition.text", "forecast.forecastday[].day.maxtemp_c"},
}

// extraAlts are other phrasings of the per-city cores (%s is the value
// the core asks about), for a city whose phrasing is a near-duplicate of
// one already kept.
var extraAlts = map[string][]string{
	"weatherapi_com.realtime_weather_api":  {"What's the temperature in %s at this moment?", "Current weather in %s, please: what's it like outside?", "Is it cold out in %s today, right now?", "Give me the live weather for %s."},
	"weatherapi_com.forecast_weather_api":  {"What will the weather do in %s over the next three days?", "Give me the 3-day outlook for %s.", "Will it rain in %s in the coming three days?"},
	"weatherapi_com.astronomy_api":         {"What time does the sun set in %s this evening?", "Sunset time for %s today?", "When does it get dark in %s today?"},
	"weatherapi_com.time_zone_api":         {"What time is it in %s at the moment?", "Current local time in %s?", "Is it morning or evening in %s right now?"},
	"open_weather.city_weather":            {"What's the sky like over %s right now?", "Current conditions in %s: sun or clouds?", "Is it clear in %s today?"},
	"geocoding.forward_geocode":            {"Latitude and longitude of %s from the geocoder, please.", "Geocode %s and give me the coordinates.", "I need the exact geocoded position of %s."},
	"booking_com.search_hotel_destination": {"How many hotels are listed for %s on the booking site?", "Look up %s as a hotel destination and tell me how many hotels it has.", "Hotel count for %s on the booking site?"},
	"travel_advisor.locations_search":      {"Look up %s on the travel guide site.", "Search the travel guide for %s.", "What does the travel guide site have for %s?"},
	"skyscanner80.flights_auto_complete":   {"What comes up for %s when I search flights?", "Flight search suggestions for %s?", "Which airport codes does the flight search give for %s?", "I'm booking flights to %s: which places does the flight search suggest?", "Look up %s in the flight search and list the airports."},
	"world_time.timezone_info":             {"What's the UTC offset in %s today?", "How far from UTC is %s right now?", "Current offset of the %s zone, please."},
	"airport_info.airport":                 {"Which phone number does airport %s list?", "How do I phone airport %s?", "Give me the contact number of airport %s."},
}
