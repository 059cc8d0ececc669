package main

import (
	"fmt"
	"sort"

	"github.com/understudy/understudy/mocks"
)

// typeIIExtra adds Type-II instructions over the world's cities, countries
// and airports, each core phrasing used with a different value and a
// different opener and closer.
func (g *gen) typeIIExtra() []t2 {
	var out []t2
	cities := append([]*mocks.City(nil), g.world.Cities()...)
	sort.Slice(cities, func(i, j int) bool { return cities[i].ID < cities[j].ID })
	type core struct {
		api   string
		f     func(c *mocks.City) string
		args  func(c *mocks.City) A
		facts []string
		also  []string
	}
	q := func(c *mocks.City) A { return A{"q": acc(c.Name, c.Name+", "+c.Country)} }
	cores := []core{
		{"weatherapi_com.realtime_weather_api", func(c *mocks.City) string { return fmt.Sprintf("How warm is it in %s right now?", c.Name) }, q, []string{"current.temp_c"}, weatherAlso},
		{"weatherapi_com.realtime_weather_api", func(c *mocks.City) string { return fmt.Sprintf("Tell me the current conditions in %s.", c.Name) }, q, []string{"current.condition.text"}, weatherAlso},
		{"weatherapi_com.forecast_weather_api", func(c *mocks.City) string { return fmt.Sprintf("Three-day forecast for %s?", c.Name) }, func(c *mocks.City) A { return A{"q": acc(c.Name, c.Name+", "+c.Country), "days": acc(3.0)} }, []string{"forecast.forecastday[].day.maxtemp_c"}, nil},
		{"weatherapi_com.astronomy_api", func(c *mocks.City) string { return fmt.Sprintf("Tell me when the sun sets in %s today.", c.Name) }, q, []string{"astronomy.astro.sunset"}, nil},
		{"weatherapi_com.time_zone_api", func(c *mocks.City) string { return fmt.Sprintf("What's the local time in %s now?", c.Name) }, q, []string{"location.localtime"}, []string{"agent_clock.get_current_time", "world_time.timezone_info"}},
		{"open_weather.city_weather", func(c *mocks.City) string { return fmt.Sprintf("Is it sunny in %s at the moment?", c.Name) }, func(c *mocks.City) A { return A{"city": acc(c.Name, c.Name+", "+c.Country)} }, []string{"weather[].description"}, cityWAlso},
		{"geocoding.forward_geocode", func(c *mocks.City) string {
			return fmt.Sprintf("Geocode %s for me: latitude and longitude to four decimals.", c.Name)
		}, func(c *mocks.City) A { return A{"address": acc(c.Name, c.Name+", "+c.Country)} }, []string{"results[].lat", "results[].lon"}, nil},
		{"booking_com.search_hotel_destination", func(c *mocks.City) string {
			return fmt.Sprintf("How many hotels does the booking site list for %s?", c.Name)
		}, func(c *mocks.City) A { return A{"query": acc(c.Name)} }, []string{"data[].nr_hotels"}, nil},
		{"travel_advisor.locations_search", func(c *mocks.City) string { return fmt.Sprintf("Find %s on the travel guide site.", c.Name) }, func(c *mocks.City) A { return A{"query": acc(c.Name)} }, []string{"data[].result_object.name"}, nil},
		{"skyscanner80.flights_auto_complete", func(c *mocks.City) string {
			return fmt.Sprintf("Which airports show up for %s in the flight search?", c.Name)
		}, func(c *mocks.City) A { return A{"query": acc(c.Name)} }, []string{"data[].navigation.relevantFlightParams.skyId", "data[].presentation.suggestionTitle"}, nil},
		{"world_time.timezone_info", func(c *mocks.City) string { return fmt.Sprintf("What's the current UTC offset of %s?", c.TimeZone) }, func(c *mocks.City) A { return A{"timezone": acc(c.TimeZone)} }, []string{"utc_offset"}, nil},
		{"airport_info.airport", func(c *mocks.City) string {
			return fmt.Sprintf("What's the phone number of airport %s?", c.Airports[0])
		}, func(c *mocks.City) A { return A{"iata": acc(c.Airports[0])} }, []string{"phone"}, nil},
	}
	n := 0
	for i, c := range cities {
		if len(c.Airports) == 0 {
			continue
		}
		cr := cores[i%len(cores)]
		n++
		out = append(out, t2{api: cr.api, text: cr.f(c), args: cr.args(c), facts: cr.facts, also: cr.also})
	}
	curs := [][3]any{{"EUR", "USD", 100.0}, {"GBP", "JPY", 20.0}, {"USD", "BRL", 75.0}, {"CHF", "EUR", 300.0}, {"AUD", "NZD", 1000.0}, {"CAD", "USD", 45.0}, {"EUR", "PLN", 250.0}, {"USD", "MXN", 60.0}}
	for _, x := range curs {
		out = append(out, t2{api: "currency_exchange.exchange", text: fmt.Sprintf("Convert %v %s to %s.", x[2], x[0], x[1]), args: A{"from": acc(x[0]), "to": acc(x[1]), "q": acc(x[2])}})
	}
	hol := []string{"DE", "IT", "NL", "CA", "MX", "NZ", "GR", "PT"}
	for i, cc := range hol {
		api := "public_holiday.public_holidays"
		core := fmt.Sprintf("Public holidays in %s for 2025?", cc)
		if i%2 == 1 {
			api, core = "public_holiday.long_weekends", fmt.Sprintf("Long weekends in %s during 2025?", cc)
			out = append(out, t2{api: api, text: core, args: A{"year": acc(2025.0), "countryCode": acc(cc)}, facts: []string{"[].startDate"}})
			continue
		}
		out = append(out, t2{api: api, text: core, args: A{"year": acc(2025.0), "countryCode": acc(cc)}})
	}
	dates := []string{"2025-12-31", "2025-07-04", "2025-11-27", "2026-01-01", "2025-10-31", "2025-08-15", "2026-02-14"}
	for _, d := range dates {
		out = append(out, t2{api: "calendar_tools.day_of_week", text: fmt.Sprintf("Which weekday is %s?", d), args: A{"date": acc(d)}, facts: []string{"day_of_week"}})
	}
	return out
}
