package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/understudy/understudy/evaltasks/dataset"
)

// t3 is one Type-III instruction: the intent with a required value left out.
type t3 struct {
	api     string
	missing string // comma-separated
	text    string
	present M
}

func (g *gen) typeIII() {
	items := []t3{
		{"weatherapi_com.realtime_weather_api", "q", "Can you check the weather for me?", nil},
		{"weatherapi_com.realtime_weather_api", "q", "is it raining there right now", nil},
		{"weatherapi_com.realtime_weather_api", "q", "What's the temperature outside at the moment? In Celsius please.", nil},
		{"weatherapi_com.forecast_weather_api", "q", "What's the forecast for the next 3 days?", nil},
		{"weatherapi_com.forecast_weather_api", "q", "Will I need a jacket over the next couple of days where I'm going?", nil},
		{"weatherapi_com.forecast_weather_api", "q", "forecast pls, 5 days", nil},
		{"weatherapi_com.astronomy_api", "q", "What time is sunset today?", nil},
		{"weatherapi_com.astronomy_api", "q", "When does the sun rise tomorrow where my parents live?", nil},
		{"weatherapi_com.astronomy_api", "q", "Is the moon full tonight at my campsite?", nil},
		{"weatherapi_com.search_autocomplete_api", "q", "Can you autocomplete a city name for me?", nil},
		{"weatherapi_com.search_autocomplete_api", "q", "I need the exact spelling of a town for a form, can you suggest matches?", nil},
		{"weatherapi_com.search_autocomplete_api", "q", "location suggestions please", nil},
		{"weatherapi_com.time_zone_api", "q", "What's the local time over there?", nil},
		{"weatherapi_com.time_zone_api", "q", "Which time zone is my client's city in?", nil},
		{"weatherapi_com.time_zone_api", "q", "Check the local time where my brother lives, I don't want to wake him.", nil},
		{"open_weather.city_weather", "city", "How's the weather in the city right now?", nil},
		{"open_weather.city_weather", "city", "Tell me the current conditions in Fahrenheit.", nil},
		{"open_weather.city_weather", "city", "how humid is it in town today", nil},
		{"open_weather.five_day_forecast", "lat,lon", "Give me the five-day forecast for our campsite.", nil},
		{"open_weather.five_day_forecast", "lat,lon", "I'll be at some coordinates my guide gave me; what's the forecast there?", nil},
		{"open_weather.five_day_forecast", "lat,lon", "5 day forecast at my GPS position please", nil},
		{"real_time_news_data.search", "query", "Can you search the news for me?", nil},
		{"real_time_news_data.search", "query", "Find me articles from the past day.", nil},
		{"real_time_news_data.search", "query", "what's being reported about that thing everyone's talking about?", nil},
		{"real_time_news_data.topic_headlines", "topic", "Show me headlines for a topic I care about.", nil},
		{"real_time_news_data.topic_headlines", "topic", "What are the latest headlines in my favourite section?", nil},
		{"real_time_news_data.topic_headlines", "topic", "headlines by topic pls", nil},
		{"real_time_news_data.full_story_coverage", "story_id", "Show me the full coverage of a news story I've been following.", nil},
		{"real_time_news_data.full_story_coverage", "story_id", "How are other outlets covering the article I read this morning?", nil},
		{"real_time_news_data.full_story_coverage", "story_id", "all coverage for the story please, newest first", nil},
		{"public_holiday.public_holidays", "countryCode", "What are the public holidays in 2025?", M{"year": 2025.0}},
		{"public_holiday.public_holidays", "year", "Which public holidays does Germany have?", M{"countryCode": []any{"Germany"}}},
		{"public_holiday.public_holidays", "countryCode", "List the bank holidays for next year.", M{"year": []any{"next year"}}},
		{"public_holiday.public_holidays", "countryCode,year", "Can you list the public holidays for me?", nil},
		{"public_holiday.long_weekends", "countryCode", "When are the long weekends in 2025?", M{"year": 2025.0}},
		{"public_holiday.long_weekends", "year", "Any long weekends coming up in Ireland?", M{"countryCode": []any{"Ireland"}}},
		{"public_holiday.long_weekends", "countryCode,year", "long weekends pls", nil},
		{"calendar_tools.check_month_calendar", "month", "Show me the calendar for 2026.", M{"year": 2026.0}},
		{"calendar_tools.check_month_calendar", "year", "What does the calendar for March look like?", M{"month": []any{"March"}}},
		{"calendar_tools.check_month_calendar", "month,year", "Can you show me a month view?", nil},
		{"calendar_tools.day_of_week", "date", "What day of the week is my birthday?", nil},
		{"calendar_tools.day_of_week", "date", "Which day does the concert fall on?", nil},
		{"calendar_tools.day_of_week", "date", "which weekday was our wedding?", nil},
		{"tasty.recipes_auto_complete", "prefix", "Can you suggest recipe names as I type?", nil},
		{"tasty.recipes_auto_complete", "prefix", "Recipe autocomplete please.", nil},
		{"tasty.recipes_auto_complete", "prefix", "What would the recipe search suggest for what I've typed so far?", nil},
		{"tasty.recipes_get_more_info", "id", "Tell me more about a recipe I spotted on the recipe site.", nil},
		{"tasty.recipes_get_more_info", "id", "What ingredients do I need for the dish I'm making tonight?", nil},
		{"tasty.recipes_get_more_info", "id", "full details of the recipe pls", nil},
		{"tasty.recipes_list_similarities", "recipe_id", "Find recipes similar to the one I made last night.", nil},
		{"tasty.recipes_list_similarities", "recipe_id", "Anything like the recipe I cooked last night?", nil},
		{"tasty.recipes_list_similarities", "recipe_id", "I loved it — what else is similar?", nil},
		{"tasty.tips_list", "id", "What tips do people have for a recipe I want to try?", nil},
		{"tasty.tips_list", "id", "Any advice from others who cooked it?", nil},
		{"tasty.tips_list", "id", "show tips for the recipe", nil},
		{"object_detection.detect_objects", "url", "What objects are in my photo?", nil},
		{"object_detection.detect_objects", "url", "Can you tell me if there's a dog in the picture I took?", nil},
		{"object_detection.detect_objects", "url", "run object detection on the image", nil},
		{"ocr_extract_text.ocr_image_url", "url", "What does the sign in my photo say?", nil},
		{"ocr_extract_text.ocr_image_url", "url", "Please read the text off my receipt.", nil},
		{"ocr_extract_text.ocr_image_url", "url", "extract the text from the picture", nil},
		{"image_translation.translate_image_text", "image_url", "Translate the menu in my photo into English.", M{"target_lang": []any{"English"}}},
		{"image_translation.translate_image_text", "target_lang", "Translate the text in " + img + "paris_cafe_menu.png for me.", M{"image_url": img + "paris_cafe_menu.png"}},
		{"image_translation.translate_image_text", "image_url,target_lang", "Can you translate the writing in a picture?", nil},
		{"image_file_processing.image_info", "image_url", "How big is my image?", nil},
		{"image_file_processing.image_info", "image_url", "What format is the picture I uploaded?", nil},
		{"image_file_processing.image_info", "image_url", "check the resolution of the photo", nil},
		{"image_file_processing.resize_image", "width", "Resize " + img + "product_laptop.jpg for me.", M{"image_url": img + "product_laptop.jpg"}},
		{"image_file_processing.resize_image", "image_url", "Make my picture 320 pixels wide.", M{"width": 320.0}},
		{"image_file_processing.resize_image", "image_url,width", "can you resize an image?", nil},
		{"image_file_processing.compress_image", "image_url", "Compress my photo, it's too big for email.", nil},
		{"image_file_processing.compress_image", "image_url", "Shrink the file size of the picture at quality 50.", nil},
		{"image_file_processing.compress_image", "image_url", "compress the image pls", nil},
		{"image_file_processing.convert_image_format", "format", "Convert " + img + "product_laptop.jpg to another format.", M{"image_url": img + "product_laptop.jpg"}},
		{"image_file_processing.convert_image_format", "image_url", "Turn my picture into a PNG.", M{"format": []any{"png"}}},
		{"image_file_processing.convert_image_format", "image_url,format", "I need to change an image's file type.", nil},
		{"background_removal.remove_background", "image_url", "Remove the background from my product photo.", nil},
		{"background_removal.remove_background", "image_url", "Can you cut me out of the picture?", nil},
		{"background_removal.remove_background", "image_url", "make the background transparent", nil},
		{"background_removal.get_removal_result", "result_id", "Is my background removal done?", nil},
		{"background_removal.get_removal_result", "result_id", "Get me the result of the cut-out job.", nil},
		{"background_removal.get_removal_result", "result_id", "where's the finished transparent image?", nil},
		{"web_capture.take_screenshot", "url", "Take a screenshot of the website.", nil},
		{"web_capture.take_screenshot", "url", "Capture my company's homepage as a full page image.", nil},
		{"web_capture.take_screenshot", "url", "screenshot the site at phone size", nil},
		{"web_capture.get_screenshot", "screenshot_id", "Get me that screenshot again.", nil},
		{"web_capture.get_screenshot", "screenshot_id", "I lost the link to the capture. Can you fetch it?", nil},
		{"web_capture.get_screenshot", "screenshot_id", "re-fetch the screenshot", nil},
		{"skyscanner80.flights_auto_complete", "query", "Look up a place in the flight search.", nil},
		{"skyscanner80.flights_auto_complete", "query", "What's the flight search id for my home airport?", nil},
		{"skyscanner80.flights_auto_complete", "query", "find the airport entry for flights", nil},
		{"skyscanner80.flights_search_one_way", "fromId,toId,departDate", "Find me a one-way flight.", nil},
		{"skyscanner80.flights_search_one_way", "fromId,toId", "One-way flights on 2025-06-20 please.", M{"departDate": "2025-06-20"}},
		{"skyscanner80.flights_search_one_way", "departDate", "Search one-way flights from Lisbon to London with the place ids you found.", nil},
		{"skyscanner80.flights_search_roundtrip", "fromId,toId,departDate,returnDate", "Find round-trip flights for me.", nil},
		{"skyscanner80.flights_search_roundtrip", "departDate,returnDate", "Search return flights from Paris to Rome between the two places you looked up.", nil},
		{"skyscanner80.flights_search_roundtrip", "fromId,toId", "Round trip out 2025-06-20, back 2025-06-27.", M{"departDate": "2025-06-20", "returnDate": "2025-06-27"}},
		{"skyscanner80.flights_search_incomplete", "sessionId", "Get the rest of the flight results.", nil},
		{"skyscanner80.flights_search_incomplete", "sessionId", "The flight search was still loading — can you finish it?", nil},
		{"skyscanner80.flights_search_incomplete", "sessionId", "poll the search again", nil},
		{"skyscanner80.flights_detail", "itineraryId,token", "Show me the details of a flight I'm considering.", nil},
		{"skyscanner80.flights_detail", "itineraryId,token", "What are the booking options for the itinerary?", nil},
		{"skyscanner80.flights_detail", "itineraryId,token", "fare details for the flight pls", nil},
		{"booking_com.search_hotel_destination", "query", "Look up a hotel destination for me.", nil},
		{"booking_com.search_hotel_destination", "query", "How many hotels are listed in the city?", nil},
		{"booking_com.search_hotel_destination", "query", "find the destination on the booking site", nil},
		{"booking_com.search_hotels", "dest_id,arrival_date,departure_date", "Find me a hotel.", nil},
		{"booking_com.search_hotels", "arrival_date,departure_date", "Search hotels in the destination you found.", nil},
		{"booking_com.search_hotels", "dest_id", "Hotels from 2025-06-20 to 2025-06-23 please.", M{"arrival_date": "2025-06-20", "departure_date": "2025-06-23"}},
		{"booking_com.get_hotel_details", "hotel_id", "Tell me more about the hotel for 2025-06-20 to 2025-06-23.", M{"arrival_date": "2025-06-20", "departure_date": "2025-06-23"}},
		{"booking_com.get_hotel_details", "hotel_id,arrival_date,departure_date", "Does the hotel have free WiFi?", nil},
		{"booking_com.get_hotel_details", "arrival_date,departure_date", "Details of the first hotel in your list please, for other dates than that search.", nil},
		{"booking_com.get_room_list", "hotel_id", "What rooms are available from 2025-07-01 to 2025-07-04?", M{"arrival_date": "2025-07-01", "departure_date": "2025-07-04"}},
		{"booking_com.get_room_list", "hotel_id,arrival_date,departure_date", "Room prices at a hotel I'm looking at?", nil},
		{"booking_com.get_room_list", "arrival_date,departure_date", "List the rooms of the hotel you just showed me, for a later stay.", nil},
		{"booking_com.get_hotel_reviews", "hotel_id", "What do guests say about the hotel?", nil},
		{"booking_com.get_hotel_reviews", "hotel_id", "Show me the most recent reviews of the place we're considering.", nil},
		{"booking_com.get_hotel_reviews", "hotel_id", "reviews for the hotel pls", nil},
		{"booking_com.get_hotel_photos", "hotel_id", "Show me photos of the hotel.", nil},
		{"booking_com.get_hotel_photos", "hotel_id", "Any pictures of the rooms at the hotel my wife liked?", nil},
		{"booking_com.get_hotel_photos", "hotel_id", "pics of a hotel I'm eyeing", nil},
		{"travel_advisor.locations_search", "query", "Look up a destination on the travel site.", nil},
		{"travel_advisor.locations_search", "query", "Search travel locations for where I'm going.", nil},
		{"travel_advisor.locations_search", "query", "find the place for sightseeing", nil},
		{"travel_advisor.attractions_list", "location_id", "What attractions are there?", nil},
		{"travel_advisor.attractions_list", "location_id", "Top things to do at my destination?", nil},
		{"travel_advisor.attractions_list", "location_id", "list the sights", nil},
		{"travel_advisor.attractions_get_details", "location_id", "Tell me about an attraction I plan to visit: hours and price.", nil},
		{"travel_advisor.attractions_get_details", "location_id", "What's the address of the museum I'm visiting on Saturday?", nil},
		{"travel_advisor.attractions_get_details", "location_id", "more info on the attraction", nil},
		{"travel_advisor.photos_list", "location_id", "Show me photos of the attraction.", nil},
		{"travel_advisor.photos_list", "location_id", "What does the sight look like?", nil},
		{"travel_advisor.photos_list", "location_id", "pictures of an attraction I want to visit please", nil},
		{"travel_advisor.reviews_list", "location_id", "What are visitors saying about it?", nil},
		{"travel_advisor.reviews_list", "location_id", "Is the attraction worth the queue? Check the reviews.", nil},
		{"travel_advisor.reviews_list", "location_id", "reviews of the sight", nil},
		{"currency_exchange.exchange", "from", "How much is 200 in euros?", M{"to": []any{"euros"}}},
		{"currency_exchange.exchange", "to", "Convert 50 dollars for me.", M{"from": []any{"dollars"}}},
		{"currency_exchange.exchange", "from,to", "What's the exchange rate today?", nil},
		{"airport_info.airport", "iata", "Tell me about the airport.", nil},
		{"airport_info.airport", "iata", "What's the phone number of my departure airport?", nil},
		{"airport_info.airport", "iata", "airport details please", nil},
		{"airport_info.nearby_airports", "lat,lon", "Which airports are near me?", nil},
		{"airport_info.nearby_airports", "lat,lon", "Airports within 50 km of my location?", nil},
		{"airport_info.nearby_airports", "lat,lon", "closest airports to these coordinates", nil},
		{"iso_codes.country_by_code", "code", "Which country is this code for?", nil},
		{"iso_codes.country_by_code", "code", "My package label has a country code on it — what country is that?", nil},
		{"iso_codes.country_by_code", "code", "country details for the code", nil},
		{"geocoding.forward_geocode", "address", "What are the coordinates of the place?", nil},
		{"geocoding.forward_geocode", "address", "Geocode my address for me.", nil},
		{"geocoding.forward_geocode", "address", "lat/long of the venue?", nil},
		{"geocoding.reverse_geocode", "lat,lon", "What's at these coordinates?", nil},
		{"geocoding.reverse_geocode", "lat,lon", "Where was my photo taken?", nil},
		{"geocoding.reverse_geocode", "lat,lon", "reverse geocode the point", nil},
		{"web_search.web_search", "q", "Can you search the web for me?", nil},
		{"web_search.web_search", "q", "Google something for me please.", nil},
		{"web_search.web_search", "q", "look it up online", nil},
		{"web_search.image_search", "q", "Find me some pictures.", nil},
		{"web_search.image_search", "q", "I need a few images for a slide.", nil},
		{"web_search.image_search", "q", "image search pls", nil},
		{"web_search.video_search", "q", "Find me a video.", nil},
		{"web_search.video_search", "q", "Any good YouTube tutorials?", nil},
		{"web_search.video_search", "q", "search videos", nil},
		{"web_search.news_search", "q", "Search the news.", nil},
		{"web_search.news_search", "q", "What do the papers say?", nil},
		{"web_search.news_search", "q", "news search, 5 results", nil},
		{"python_interpreter.run_python", "code", "Run my Python script.", nil},
		{"python_interpreter.run_python", "code", "Can you execute some code for me?", nil},
		{"python_interpreter.run_python", "code", "run this in python", nil},
		{"calculator.calculate", "expression", "Can you calculate something for me?", nil},
		{"calculator.calculate", "expression", "How much does each of us owe for dinner?", nil},
		{"calculator.calculate", "expression", "do the math on my budget", nil},
		{"google_translate.translate", "q", "Translate this into Portuguese.", M{"target": []any{"Portuguese"}}},
		{"google_translate.translate", "target", "Translate \"where is the bathroom\" for me.", M{"q": "where is the bathroom"}},
		{"google_translate.translate", "q,target", "Can you translate something?", nil},
		{"google_translate.detect_language", "q", "What language is this text?", nil},
		{"google_translate.detect_language", "q", "Which language did my pen pal write in?", nil},
		{"google_translate.detect_language", "q", "detect the language pls", nil},
		{"ip_geolocation.lookup_ip", "ip", "Where is this IP address located?", nil},
		{"ip_geolocation.lookup_ip", "ip", "Someone logged into my account from a strange IP — where is it?", nil},
		{"ip_geolocation.lookup_ip", "ip", "geolocate the ip", nil},
		{"world_time.timezone_info", "timezone", "Tell me about this time zone.", nil},
		{"world_time.timezone_info", "timezone", "Is that zone on summer time right now?", nil},
		{"world_time.timezone_info", "timezone", "utc offset of the zone?", nil},
		{"world_time.timezone_by_location", "lat,lon", "Which time zone are these coordinates in?", nil},
		{"world_time.timezone_by_location", "lat,lon", "My GPS position — what time zone is that?", nil},
		{"world_time.timezone_by_location", "lat,lon", "time zone at the location please", nil},
		{"weatherapi_com.realtime_weather_api", "q", "Hey, what's it like out there today? Do I need a coat?", nil},
		{"open_weather.city_weather", "city", "My sister says it's boiling where she is — how hot is it actually?", nil},
		{"calendar_tools.day_of_week", "date", "My flight is on the date printed on my ticket. Which day is that?", nil},
		{"currency_exchange.exchange", "from", "I'm being paid 3,000 in my home currency; how many dollars is that?", M{"to": []any{"dollars"}}},
		{"google_translate.translate", "q", "Put my message into Japanese please.", M{"target": []any{"Japanese"}}},
		{"skyscanner80.flights_search_one_way", "fromId,toId,departDate", "Book me the cheapest flight home.", nil},
		{"booking_com.search_hotels", "dest_id,arrival_date,departure_date", "We need somewhere to stay, 2 adults, one room.", nil},
		{"weatherapi_com.forecast_weather_api", "q", "Should we move the picnic, judging by this week's forecast?", nil},
		{"tasty.recipes_get_more_info", "id", "How long does the recipe I picked take to cook?", nil},
		{"image_file_processing.resize_image", "image_url", "Make a 200x200 thumbnail.", M{"width": 200.0}},
		{"object_detection.detect_objects", "url", "Count the cars in the traffic photo I took this morning.", nil},
	}
	// The instructions that speak of earlier turns carry them: the calls
	// the assistant made, whose results give the values the text refers
	// to (fill: parameter → the step whose answer gives it).
	dest := g.step("booking_com.search_hotel_destination", M{"query": "Lisbon"})
	hotels := g.step("booking_com.search_hotels", M{"search_type": "CITY", "arrival_date": "2025-06-20", "departure_date": "2025-06-23"}, "dest_id", 0)
	auto := func(q string) dataset.GoldStep { return g.step("skyscanner80.flights_auto_complete", M{"query": q}) }
	earlier := map[string]struct {
		steps []dataset.GoldStep
		fill  map[string]int
	}{
		"Search one-way flights from Lisbon to London with the place ids you found.":        {[]dataset.GoldStep{auto("Lisbon"), auto("London")}, map[string]int{"fromId": 0, "toId": 1}},
		"Search return flights from Paris to Rome between the two places you looked up.":    {[]dataset.GoldStep{auto("Paris"), auto("Rome")}, map[string]int{"fromId": 0, "toId": 1}},
		"Search hotels in the destination you found.":                                       {[]dataset.GoldStep{dest}, map[string]int{"dest_id": 0}},
		"Details of the first hotel in your list please, for other dates than that search.": {[]dataset.GoldStep{dest, hotels}, map[string]int{"hotel_id": 1}},
		"List the rooms of the hotel you just showed me, for a later stay.":                 {[]dataset.GoldStep{dest, hotels, g.step("booking_com.get_hotel_photos", M{}, "hotel_id", 1)}, map[string]int{"hotel_id": 1}},
	}
	n := map[string]int{}
	for _, it := range items {
		a := g.api(it.api)
		if a == nil {
			continue
		}
		n[it.api]++
		id := fmt.Sprintf("III-%s-%02d", it.api, n[it.api])
		var present map[string]any
		if len(it.present) > 0 {
			present = map[string]any(it.present)
		}
		in := dataset.Instruction{ID: id, Type: dataset.TypeMissing, Text: it.text, Scenario: a.Tool.Scenario, TargetAPI: a.ID(), Missing: strings.Split(it.missing, ","), Present: present}
		if e, ok := earlier[it.text]; ok {
			in.History = g.resolve(e.steps)
			if in.Earlier = earlierRequest(in.History); in.Earlier == "" {
				g.fail("%s: no earlier request for a history starting with %s", id, in.History[0].API)
				continue
			}
			answers, err := g.runChain(in.History, "datagen/"+id)
			if err != nil {
				g.fail("%s: earlier turns: %v", id, err)
				continue
			}
			for _, p := range slices.Sorted(maps.Keys(e.fill)) {
				i := e.fill[p]
				val := g.provided(a, p, in.History[i].API, answers[i])
				if val == nil {
					g.fail("%s: no value for %s from earlier turn %d", id, p, i)
					continue
				}
				in.Present = mapSet(in.Present, p, val)
			}
		} else if w := dataset.EarlierTurn(it.text); w != "" {
			g.fail("%s: speaks of an earlier turn (%q) it does not carry", id, w)
		}
		g.add(in)
	}
}
