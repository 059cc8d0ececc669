package main

import (
	"fmt"
	"time"

	"github.com/understudy/understudy/evaltasks/dataset"
)

// t4 is one Type-IV instruction: what the user says, and the chain that
// answers it with only the values the user gave.
type t4 struct {
	text  string
	steps []dataset.GoldStep
}

func (g *gen) typeIV() {
	s := g.step
	fri, sat, mon := weekday(time.Friday), weekday(time.Saturday), weekday(time.Monday)
	geo := func(addr string) dataset.GoldStep { return s("geocoding.forward_geocode", M{"address": addr}) }
	hd := func(city string) dataset.GoldStep {
		return s("booking_com.search_hotel_destination", M{"query": city})
	}
	hs := func(in, out string) dataset.GoldStep {
		return s("booking_com.search_hotels", M{"search_type": "CITY", "arrival_date": in, "departure_date": out}, "dest_id", 0)
	}
	hotel := func(api, city, in, out string, extra M) []dataset.GoldStep {
		args := M{}
		if api == "booking_com.get_hotel_details" || api == "booking_com.get_room_list" {
			args = M{"arrival_date": in, "departure_date": out}
		}
		for k, v := range extra {
			args[k] = v
		}
		return []dataset.GoldStep{hd(city), hs(in, out), s(api, args, "hotel_id", 1)}
	}
	ac := func(q string) dataset.GoldStep { return s("skyscanner80.flights_auto_complete", M{"query": q}) }
	ow := func(date string) dataset.GoldStep {
		return s("skyscanner80.flights_search_one_way", M{"departDate": date}, "fromId", 0, "toId", 1)
	}
	rt := func(d1, d2 string) dataset.GoldStep {
		return s("skyscanner80.flights_search_roundtrip", M{"departDate": d1, "returnDate": d2}, "fromId", 0, "toId", 1)
	}
	inc := s("skyscanner80.flights_search_incomplete", M{}, "sessionId", 2)
	// det reads the itinerary from the list of step items and the token
	// from step token: the search's token, which its polls carry too, so
	// that the chains also cover the search → detail dependency.
	det := func(items, token int) dataset.GoldStep {
		return s("skyscanner80.flights_detail", M{}, "itineraryId", items, "token", token)
	}
	ls := func(q string) dataset.GoldStep { return s("travel_advisor.locations_search", M{"query": q}) }
	al := s("travel_advisor.attractions_list", M{}, "location_id", 0)
	rl := func(q string) dataset.GoldStep {
		return s("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "q": q})
	}
	shot := func(u string) dataset.GoldStep { return s("web_capture.take_screenshot", M{"url": u}) }
	resize := func(u string, w float64) dataset.GoldStep {
		return s("image_file_processing.resize_image", M{"image_url": u, "width": w})
	}
	bgr := func(u string) dataset.GoldStep { return s("background_removal.remove_background", M{"image_url": u}) }
	ac2 := s("public_holiday.available_countries", M{})
	// A question that needs the last step's whole result (every day of a
	// forecast) is generated only when a model is shown that result whole,
	// never cut to the budget (dataset.ShownResult).
	needsWhole := map[string]bool{}
	whole := func(it t4) t4 {
		needsWhole[it.text] = true
		return it
	}
	// A flight search answers incomplete and its documentation says to poll
	// until complete, so every chain that searches polls: a model that
	// follows the docs does what the gold does. The record keeps the name
	// of the API the user asked for.
	namedBy := map[string]string{}
	polled := func(it t4) t4 {
		namedBy[it.text] = it.steps[len(it.steps)-1].API
		it.steps = append(it.steps, inc)
		return it
	}

	items := []t4{
		// geocoding → nearby airports → airport
		{"Which airports are close to Porto?", []dataset.GoldStep{geo("Porto"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0)}},
		{"I'm staying in Cascais— no wait, in Lisbon itself. Any airports within reach?", []dataset.GoldStep{geo("Lisbon"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0)}},
		{"what airports are near Kyoto, within 100 km", []dataset.GoldStep{geo("Kyoto"), s("airport_info.nearby_airports", M{"radius_km": 100.0}, "lat", 0, "lon", 0)}},
		{"My conference is in Frankfurt. Which airports could I fly into?", []dataset.GoldStep{geo("Frankfurt"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0)}},
		{"What's the main airport near Edinburgh, and its phone number?", []dataset.GoldStep{geo("Edinburgh"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0), s("airport_info.airport", M{}, "iata", 1)}},
		{"Give me the full details — name, address, time zone — of the airport closest to Cancún.", []dataset.GoldStep{geo("Cancún"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0), s("airport_info.airport", M{}, "iata", 1)}},
		{"I land near Nice tomorrow. What's the nearest airport's website?", []dataset.GoldStep{geo("Nice, France"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0), s("airport_info.airport", M{}, "iata", 1)}},
		{"Closest airport to Honolulu — tell me about it.", []dataset.GoldStep{geo("Honolulu"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0), s("airport_info.airport", M{}, "iata", 1)}},
		// geocoding → open_weather forecast
		whole(t4{"What's the 5-day forecast for Porto?", []dataset.GoldStep{geo("Porto"), s("open_weather.five_day_forecast", M{}, "lat", 0, "lon", 0)}}),
		whole(t4{"Going hiking near Zermatt— no, Zurich, this week. What does the forecast look like?", []dataset.GoldStep{geo("Zurich"), s("open_weather.five_day_forecast", M{}, "lat", 0, "lon", 0)}}),
		whole(t4{"forecast for the next days in Seattle in fahrenheit", []dataset.GoldStep{geo("Seattle"), s("open_weather.five_day_forecast", M{"units": "imperial"}, "lat", 0, "lon", 0)}}),
		whole(t4{"Will the coming days be sunny at the Colosseum in Rome?", []dataset.GoldStep{geo("Colosseum, Rome"), s("open_weather.five_day_forecast", M{}, "lat", 0, "lon", 0)}}),
		// geocoding → timezone by location
		{"What time zone is Marrakech in, and what time is it there?", []dataset.GoldStep{geo("Marrakech"), s("world_time.timezone_by_location", M{}, "lat", 0, "lon", 0)}},
		{"My client is in Bengaluru. Which time zone should I put in the invite?", []dataset.GoldStep{geo("Bengaluru"), s("world_time.timezone_by_location", M{}, "lat", 0, "lon", 0)}},
		{"is Reykjavik on daylight saving time right now?", []dataset.GoldStep{geo("Reykjavik"), s("world_time.timezone_by_location", M{}, "lat", 0, "lon", 0)}},
		{"Find the UTC offset for the Sydney Opera House's location.", []dataset.GoldStep{geo("Sydney Opera House"), s("world_time.timezone_by_location", M{}, "lat", 0, "lon", 0)}},
		{"Airports near Vancouver?", []dataset.GoldStep{geo("Vancouver"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0)}},
		{"We're driving to Munich. Which airport there should my friend fly into, and where is it exactly?", []dataset.GoldStep{geo("Munich"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0), s("airport_info.airport", M{}, "iata", 1)}},
		whole(t4{"What will the weather do in Cape Town over the next five days?", []dataset.GoldStep{geo("Cape Town"), s("open_weather.five_day_forecast", M{}, "lat", 0, "lon", 0)}}),
		{"Which time zone does Nairobi use?", []dataset.GoldStep{geo("Nairobi"), s("world_time.timezone_by_location", M{}, "lat", 0, "lon", 0)}},
		{"Hotels in Seoul from 2025-10-10 to 2025-10-12, please.", []dataset.GoldStep{hd("Seoul"), hs("2025-10-10", "2025-10-12")}},
		{"Things to do in Rio de Janeiro?", []dataset.GoldStep{ls("Rio de Janeiro"), al}},
		// background removal
		{"Remove the background from " + img + "product_water_bottle.jpg and give me the finished image.", []dataset.GoldStep{bgr(img + "product_water_bottle.jpg"), s("background_removal.get_removal_result", M{}, "result_id", 0)}},
		{"I need a transparent cut-out of my backpack photo: " + img + "product_backpack.jpg. Make sure the result is ready before you send it.", []dataset.GoldStep{bgr(img + "product_backpack.jpg"), s("background_removal.get_removal_result", M{}, "result_id", 0)}},
		{"Cut out the clock from " + img + "product_wall_clock.png and check the job finished.", []dataset.GoldStep{bgr(img + "product_wall_clock.png"), s("background_removal.get_removal_result", M{}, "result_id", 0)}},
		{"strip the background off " + img + "product_city_guide_book.png, I want the final file link", []dataset.GoldStep{bgr(img + "product_city_guide_book.png"), s("background_removal.get_removal_result", M{}, "result_id", 0)}},
		// hotels
		{"Find hotels in Lisbon from June 20 to June 23, 2025.", []dataset.GoldStep{hd("Lisbon"), hs("2025-06-20", "2025-06-23")}},
		{fmt.Sprintf("Any hotels in Porto for this weekend? Check-in %s, out %s.", sat, mon), []dataset.GoldStep{hd("Porto"), hs(sat, mon)}},
		{"hotels in Vienna 2025-09-12 to 2025-09-15", []dataset.GoldStep{hd("Vienna"), hs("2025-09-12", "2025-09-15")}},
		{"My parents visit Copenhagen 1–4 August 2025. What hotels are there?", []dataset.GoldStep{hd("Copenhagen"), hs("2025-08-01", "2025-08-04")}},
		{"Tell me about the top hotel in Lisbon for 20–23 June 2025.", hotel("booking_com.get_hotel_details", "Lisbon", "2025-06-20", "2025-06-23", nil)},
		{"Find a hotel in Seville— sorry, Madrid — for July 1 to 4, 2025 and give me its details.", hotel("booking_com.get_hotel_details", "Madrid", "2025-07-01", "2025-07-04", nil)},
		{fmt.Sprintf("Details of the first hotel you find in Athens for %s to %s?", fri, mon), hotel("booking_com.get_hotel_details", "Athens", fri, mon, nil)},
		{"Check-in time and facilities of a hotel in Prague, 2025-10-03 to 2025-10-06?", hotel("booking_com.get_hotel_details", "Prague", "2025-10-03", "2025-10-06", nil)},
		{"What rooms does the first hotel in Lisbon have for June 20–23, 2025?", hotel("booking_com.get_room_list", "Lisbon", "2025-06-20", "2025-06-23", nil)},
		{"Room prices at a Barcelona hotel for 2025-07-10 to 2025-07-13, in USD.", hotel("booking_com.get_room_list", "Barcelona", "2025-07-10", "2025-07-13", M{"currency_code": "USD"})},
		{fmt.Sprintf("Look up room options in a Dublin hotel from %s until %s.", sat, mon), hotel("booking_com.get_room_list", "Dublin", sat, mon, nil)},
		{"Which room types can I book in Budapest, 5 to 8 September 2025?", hotel("booking_com.get_room_list", "Budapest", "2025-09-05", "2025-09-08", nil)},
		{"What do guests say about the top hotel in Lisbon (June 20–23, 2025)?", hotel("booking_com.get_hotel_reviews", "Lisbon", "2025-06-20", "2025-06-23", nil)},
		{"Read me recent reviews of a hotel in Florence for 2025-07-20 to 2025-07-22.", hotel("booking_com.get_hotel_reviews", "Florence", "2025-07-20", "2025-07-22", M{"sort_option_id": "sort_recent_desc"})},
		{"find a hotel in Istanbul for 3–6 Oct 2025 and check its reviews", hotel("booking_com.get_hotel_reviews", "Istanbul", "2025-10-03", "2025-10-06", nil)},
		{"Are people happy with the best Tokyo hotel for Aug 10–14, 2025? Reviews please.", hotel("booking_com.get_hotel_reviews", "Tokyo", "2025-08-10", "2025-08-14", nil)},
		{"Show me pictures of a hotel in Lisbon for June 20–23, 2025.", hotel("booking_com.get_hotel_photos", "Lisbon", "2025-06-20", "2025-06-23", nil)},
		{"I want to see photos of a Santorini— I mean Athens — hotel, 2025-06-27 to 2025-06-30.", hotel("booking_com.get_hotel_photos", "Athens", "2025-06-27", "2025-06-30", nil)},
		{"photos of the first hotel in Munich, 12 to 14 Sept 2025", hotel("booking_com.get_hotel_photos", "Munich", "2025-09-12", "2025-09-14", nil)},
		{"Can I see what a hotel in Rome looks like? Dates 2025-11-01 to 2025-11-03.", hotel("booking_com.get_hotel_photos", "Rome", "2025-11-01", "2025-11-03", nil)},
		// image processing pipeline
		{"Make " + img + "product_laptop.jpg 320px wide and then compress it.", []dataset.GoldStep{resize(img+"product_laptop.jpg", 320), s("image_file_processing.compress_image", M{}, "image_url", 0)}},
		{"Shrink " + img + "beach_umbrellas.jpg to 640 pixels wide and compress it at quality 60 for the web.", []dataset.GoldStep{resize(img+"beach_umbrellas.jpg", 640), s("image_file_processing.compress_image", M{"quality": 60.0}, "image_url", 0)}},
		{"resize then compress " + img + "harbour_boats.jpg, width 480", []dataset.GoldStep{resize(img+"harbour_boats.jpg", 480), s("image_file_processing.compress_image", M{}, "image_url", 0)}},
		{"I need a small, light version of " + img + "suburban_house.jpg for a listing: 400px wide, compressed.", []dataset.GoldStep{resize(img+"suburban_house.jpg", 400), s("image_file_processing.compress_image", M{}, "image_url", 0)}},
		{"Resize " + img + "product_coffee_mug.jpg to 300 wide, compress it, and give it to me as a PNG.", []dataset.GoldStep{resize(img+"product_coffee_mug.jpg", 300), s("image_file_processing.compress_image", M{}, "image_url", 0), s("image_file_processing.convert_image_format", M{"format": "png"}, "image_url", 1)}},
		{"Turn " + img + "pizza_dinner.jpg into a 250px-wide compressed GIF for a chat sticker.", []dataset.GoldStep{resize(img+"pizza_dinner.jpg", 250), s("image_file_processing.compress_image", M{}, "image_url", 0), s("image_file_processing.convert_image_format", M{"format": "gif"}, "image_url", 1)}},
		{"Make a 500px, compressed JPEG out of " + img + "office_desk.png.", []dataset.GoldStep{resize(img+"office_desk.png", 500), s("image_file_processing.compress_image", M{}, "image_url", 0), s("image_file_processing.convert_image_format", M{"format": "jpeg"}, "image_url", 1)}},
		{"thumbnail " + img + "park_dog_walk.jpg at 160 wide, compress, convert to png", []dataset.GoldStep{resize(img+"park_dog_walk.jpg", 160), s("image_file_processing.compress_image", M{}, "image_url", 0), s("image_file_processing.convert_image_format", M{"format": "png"}, "image_url", 1)}},
		// screenshot → image understanding
		{"Take a screenshot of https://www.parisinfo.com and translate the text on it into English.", []dataset.GoldStep{shot("https://www.parisinfo.com"), s("image_translation.translate_image_text", M{"target_lang": "en"}, "image_url", 0)}},
		{"What does https://www.esmadrid.com say? Capture it and translate it to English for me.", []dataset.GoldStep{shot("https://www.esmadrid.com"), s("image_translation.translate_image_text", M{"target_lang": "en"}, "image_url", 0)}},
		{"Screenshot https://www.visitberlin.de and give me the text in French.", []dataset.GoldStep{shot("https://www.visitberlin.de"), s("image_translation.translate_image_text", M{"target_lang": "fr"}, "image_url", 0)}},
		{"Grab https://www.turismoroma.it as an image and translate it into Portuguese.", []dataset.GoldStep{shot("https://www.turismoroma.it"), s("image_translation.translate_image_text", M{"target_lang": "pt"}, "image_url", 0)}},
		{"What objects are visible on the homepage of https://www.example-homeware.com? Capture it and detect them.", []dataset.GoldStep{shot("https://www.example-homeware.com"), s("object_detection.detect_objects", M{}, "url", 0)}},
		{"Screenshot https://www.example-outdoor-shop.com and tell me which objects are shown.", []dataset.GoldStep{shot("https://www.example-outdoor-shop.com"), s("object_detection.detect_objects", M{}, "url", 0)}},
		{"run object detection on a capture of https://www.example-realty.com", []dataset.GoldStep{shot("https://www.example-realty.com"), s("object_detection.detect_objects", M{}, "url", 0)}},
		{"Capture https://www.visitlisboa.com and list what's in the picture.", []dataset.GoldStep{shot("https://www.visitlisboa.com"), s("object_detection.detect_objects", M{}, "url", 0)}},
		{"Find a picture of a stop sign online and tell me what objects are in it.", []dataset.GoldStep{s("web_search.image_search", M{"q": "stop sign"}), s("object_detection.detect_objects", M{}, "url", 0)}},
		{"Search for a photo of a cat on a chair and run object detection on the first result.", []dataset.GoldStep{s("web_search.image_search", M{"q": "cat on chair"}), s("object_detection.detect_objects", M{}, "url", 0)}},
		{"get me an image of city street traffic and count the cars in it", []dataset.GoldStep{s("web_search.image_search", M{"q": "city street traffic"}), s("object_detection.detect_objects", M{}, "url", 0)}},
		{"Look up a pizza dinner photo and detect what's on the table.", []dataset.GoldStep{s("web_search.image_search", M{"q": "pizza dinner"}), s("object_detection.detect_objects", M{}, "url", 0)}},
		{"Read the text on https://www.japan-guide.com — take a screenshot and OCR it.", []dataset.GoldStep{shot("https://www.japan-guide.com"), s("ocr_extract_text.ocr_image_url", M{}, "url", 0)}},
		{"What does the page https://www.ratp.fr say? Capture it and pull out the text.", []dataset.GoldStep{shot("https://www.ratp.fr"), s("ocr_extract_text.ocr_image_url", M{}, "url", 0)}},
		{"extract the text from a screenshot of https://www.goconf.example.com", []dataset.GoldStep{shot("https://www.goconf.example.com"), s("ocr_extract_text.ocr_image_url", M{}, "url", 0)}},
		{"Screenshot https://news.example.org and read me the headlines on it.", []dataset.GoldStep{shot("https://news.example.org"), s("ocr_extract_text.ocr_image_url", M{}, "url", 0)}},
		{"Take a screenshot of https://www.timeout.com and then fetch it again by its id to confirm it's stored.", []dataset.GoldStep{shot("https://www.timeout.com"), s("web_capture.get_screenshot", M{}, "screenshot_id", 0)}},
		{"Capture https://www.example-recipes.com, then retrieve that saved screenshot.", []dataset.GoldStep{shot("https://www.example-recipes.com"), s("web_capture.get_screenshot", M{}, "screenshot_id", 0)}},
		{"snap https://www.bahn.de and get the stored capture back", []dataset.GoldStep{shot("https://www.bahn.de"), s("web_capture.get_screenshot", M{}, "screenshot_id", 0)}},
		{"Screenshot https://www.parisinfo.com full page and give me the stored copy's link.", []dataset.GoldStep{s("web_capture.take_screenshot", M{"url": "https://www.parisinfo.com", "fullpage": true}), s("web_capture.get_screenshot", M{}, "screenshot_id", 0)}},
		// ip
		{"Where am I, judging by my IP address?", []dataset.GoldStep{s("ip_geolocation.get_client_ip", M{}), s("ip_geolocation.lookup_ip", M{}, "ip", 0)}},
		{"What's my IP and which ISP does it belong to?", []dataset.GoldStep{s("ip_geolocation.get_client_ip", M{}), s("ip_geolocation.lookup_ip", M{}, "ip", 0)}},
		{"geolocate my own connection pls", []dataset.GoldStep{s("ip_geolocation.get_client_ip", M{}), s("ip_geolocation.lookup_ip", M{}, "ip", 0)}},
		{"Which currency is used where my internet connection is?", []dataset.GoldStep{s("ip_geolocation.get_client_ip", M{}), s("ip_geolocation.lookup_ip", M{}, "ip", 0)}},
		// iso codes
		{"What's the capital and calling code of Portugal?", []dataset.GoldStep{s("iso_codes.country_codes", M{"search": "portugal"}), s("iso_codes.country_by_code", M{}, "code", 0)}},
		{"Tell me the currency and time zones of Kenya.", []dataset.GoldStep{s("iso_codes.country_codes", M{"search": "kenya"}), s("iso_codes.country_by_code", M{}, "code", 0)}},
		{"which languages are official in Switzerland? full country record please", []dataset.GoldStep{s("iso_codes.country_codes", M{"search": "switzerland"}), s("iso_codes.country_by_code", M{}, "code", 0)}},
		{"Top-level domain and capital of New Zealand?", []dataset.GoldStep{s("iso_codes.country_codes", M{"search": "new zealand"}), s("iso_codes.country_by_code", M{}, "code", 0)}},
		// holidays
		{"What are the public holidays in Australia in 2025?", []dataset.GoldStep{ac2, s("public_holiday.public_holidays", M{"year": 2025.0}, "countryCode", 0)}},
		{"List 2026 holidays for the first country you support.", []dataset.GoldStep{ac2, s("public_holiday.public_holidays", M{"year": 2026.0}, "countryCode", 0)}},
		{"Which long weekends does Australia get in 2025?", []dataset.GoldStep{ac2, s("public_holiday.long_weekends", M{"year": 2025.0}, "countryCode", 0)}},
		{"long weekends in 2026 for the first country the holiday service covers?", []dataset.GoldStep{ac2, s("public_holiday.long_weekends", M{"year": 2026.0}, "countryCode", 0)}},
		// news
		{"Find news about the climate talks and show me the full coverage of the top story.", []dataset.GoldStep{s("real_time_news_data.search", M{"query": "climate talks"}), s("real_time_news_data.full_story_coverage", M{}, "story_id", 0)}},
		{"Search the news for the Bonn climate negotiations and give me every outlet's take on the first story.", []dataset.GoldStep{s("real_time_news_data.search", M{"query": "climate negotiations"}), s("real_time_news_data.full_story_coverage", M{}, "story_id", 0)}},
		{"What's the top headline right now, and how are different outlets covering it?", []dataset.GoldStep{s("real_time_news_data.top_headlines", M{}), s("real_time_news_data.full_story_coverage", M{}, "story_id", 0)}},
		{"Take today's lead UK headline and show me the full story coverage, newest first.", []dataset.GoldStep{s("real_time_news_data.top_headlines", M{"country": "GB"}), s("real_time_news_data.full_story_coverage", M{"sort": "DATE"}, "story_id", 0)}},
		{"Biggest tech story today — show me all the coverage.", []dataset.GoldStep{s("real_time_news_data.topic_headlines", M{"topic": "TECHNOLOGY"}), s("real_time_news_data.full_story_coverage", M{}, "story_id", 0)}},
		{"Lead sports story: full coverage please.", []dataset.GoldStep{s("real_time_news_data.topic_headlines", M{"topic": "SPORTS"}), s("real_time_news_data.full_story_coverage", M{}, "story_id", 0)}},
		{"What's the top business headline, and what are all the outlets saying about it?", []dataset.GoldStep{s("real_time_news_data.topic_headlines", M{"topic": "BUSINESS"}), s("real_time_news_data.full_story_coverage", M{}, "story_id", 0)}},
		{"Science news: take the top story and show me its full coverage.", []dataset.GoldStep{s("real_time_news_data.topic_headlines", M{"topic": "SCIENCE"}), s("real_time_news_data.full_story_coverage", M{}, "story_id", 0)}},
		// flights
		polled(t4{"Find one-way flights from New York to London on June 20, 2025.", []dataset.GoldStep{ac("New York"), ac("London"), ow("2025-06-20")}}),
		polled(t4{fmt.Sprintf("Which one-way flights go from Lisbon to Paris this Friday (%s)?", fri), []dataset.GoldStep{ac("Lisbon"), ac("Paris"), ow(fri)}}),
		polled(t4{"one way Berlin → Rome on 2025-07-15 please", []dataset.GoldStep{ac("Berlin"), ac("Rome"), ow("2025-07-15")}}),
		polled(t4{"My mom needs to fly from Toronto to Dublin on 2025-08-02. What flights are there?", []dataset.GoldStep{ac("Toronto"), ac("Dublin"), ow("2025-08-02")}}),
		polled(t4{"Round trip New York to London, June 20 to June 27, 2025?", []dataset.GoldStep{ac("New York"), ac("London"), rt("2025-06-20", "2025-06-27")}}),
		polled(t4{"Return flights Madrid–Amsterdam, out 2025-09-05, back 2025-09-09.", []dataset.GoldStep{ac("Madrid"), ac("Amsterdam"), rt("2025-09-05", "2025-09-09")}}),
		polled(t4{"We want to go from Chicago to Tokyo on 2025-10-01 and come back 2025-10-15. Flights?", []dataset.GoldStep{ac("Chicago"), ac("Tokyo"), rt("2025-10-01", "2025-10-15")}}),
		polled(t4{"roundtrip sydney auckland 2025-07-03 to 2025-07-10", []dataset.GoldStep{ac("Sydney"), ac("Auckland"), rt("2025-07-03", "2025-07-10")}}),
		{"Search New York to London one-way for June 20, 2025, wait until the search is complete, and tell me how many options it found.", []dataset.GoldStep{ac("New York"), ac("London"), ow("2025-06-20"), inc}},
		{"One-way Lisbon→Paris on 2025-06-13: don't stop at the first batch of results — finish the search and give me the cheapest fare.", []dataset.GoldStep{ac("Lisbon"), ac("Paris"), ow("2025-06-13"), inc}},
		{"Round trip Berlin–Rome, 2025-07-15 to 2025-07-20: let the search complete, then tell me which airlines fly it.", []dataset.GoldStep{ac("Berlin"), ac("Rome"), rt("2025-07-15", "2025-07-20"), inc}},
		{"roundtrip Boston to Dublin, Aug 8–18 2025 — once the search is done, what's the shortest travel time on offer?", []dataset.GoldStep{ac("Boston"), ac("Dublin"), rt("2025-08-08", "2025-08-18"), inc}},
		{"Find a one-way flight New York → London on 2025-06-20 and show me the booking details of the first option once the search is complete.", []dataset.GoldStep{ac("New York"), ac("London"), ow("2025-06-20"), inc, det(3, 2)}},
		{"Pick the first Lisbon to Madrid flight on 2025-06-18 from the complete search results and give me its fare details.", []dataset.GoldStep{ac("Lisbon"), ac("Madrid"), ow("2025-06-18"), inc, det(3, 2)}},
		{"Return trip Paris–Rome 2025-09-10 to 2025-09-14: details of the top itinerary of the complete results?", []dataset.GoldStep{ac("Paris"), ac("Rome"), rt("2025-09-10", "2025-09-14"), inc, det(3, 2)}},
		{"roundtrip London to Barcelona 2025-07-04 → 2025-07-07, show me the first option of the complete results in detail", []dataset.GoldStep{ac("London"), ac("Barcelona"), rt("2025-07-04", "2025-07-07"), inc, det(3, 2)}},
		{"Complete the search for one-way flights Vienna to Athens on 2025-08-20, then give me the details of the first itinerary.", []dataset.GoldStep{ac("Vienna"), ac("Athens"), ow("2025-08-20"), inc, det(3, 3)}},
		{"Get all results for Seoul to Tokyo one way on 2025-09-01 and the booking options of the first one.", []dataset.GoldStep{ac("Seoul"), ac("Tokyo"), ow("2025-09-01"), inc, det(3, 3)}},
		{"full results then details: roundtrip Miami–Mexico City, 2025-11-02 to 2025-11-09", []dataset.GoldStep{ac("Miami"), ac("Mexico City"), rt("2025-11-02", "2025-11-09"), inc, det(3, 3)}},
		{"Once the round-trip search Oslo–Stockholm (2025-06-25 to 2025-06-29) is complete, show me the first itinerary's details.", []dataset.GoldStep{ac("Oslo"), ac("Stockholm"), rt("2025-06-25", "2025-06-29"), inc, det(3, 3)}},
		// recipes
		{"Find a chicken recipe and tell me its full ingredient list.", []dataset.GoldStep{rl("chicken"), s("tasty.recipes_get_more_info", M{}, "id", 0)}},
		{"Look up a soup recipe and give me the step-by-step instructions.", []dataset.GoldStep{rl("soup"), s("tasty.recipes_get_more_info", M{}, "id", 0)}},
		{"what's in the top pasta recipe? all the details", []dataset.GoldStep{rl("pasta"), s("tasty.recipes_get_more_info", M{}, "id", 0)}},
		{"Pick a vegetarian dish and show me how long it takes and what I need.", []dataset.GoldStep{s("tasty.recipes_list", M{"from": 0.0, "size": 20.0, "tags": "vegetarian"}), s("tasty.recipes_get_more_info", M{}, "id", 0)}},
		{"Find a taco recipe and suggest similar ones.", []dataset.GoldStep{rl("tacos"), s("tasty.recipes_list_similarities", M{}, "recipe_id", 0)}},
		{"I like curry. Find one and recommend dishes like it.", []dataset.GoldStep{rl("curry"), s("tasty.recipes_list_similarities", M{}, "recipe_id", 0)}},
		{"recipes similar to the first salad recipe you can find?", []dataset.GoldStep{rl("salad"), s("tasty.recipes_list_similarities", M{}, "recipe_id", 0)}},
		{"Search rice dishes, then show me what's similar to the top one.", []dataset.GoldStep{rl("rice"), s("tasty.recipes_list_similarities", M{}, "recipe_id", 0)}},
		{"Find a cookie recipe and show me the tips people left.", []dataset.GoldStep{rl("cookies"), s("tasty.tips_list", M{}, "id", 0)}},
		{"Any community tips for the top bread recipe?", []dataset.GoldStep{rl("bread"), s("tasty.tips_list", M{}, "id", 0)}},
		{"look up a pancake recipe and the first 5 cook tips", []dataset.GoldStep{rl("pancakes"), s("tasty.tips_list", M{"size": 5.0}, "id", 0)}},
		{"I'm making soup tonight. Find a recipe and tell me what other cooks advise.", []dataset.GoldStep{rl("soup"), s("tasty.tips_list", M{}, "id", 0)}},
		// sightseeing
		{"What attractions are there in Lisbon?", []dataset.GoldStep{ls("Lisbon"), al}},
		{"Top things to do in Kyoto?", []dataset.GoldStep{ls("Kyoto"), al}},
		{"sights in Porto pls, 5 max", []dataset.GoldStep{ls("Porto"), s("travel_advisor.attractions_list", M{"limit": 5.0}, "location_id", 0)}},
		{"My wife and I have a day in Vienna. What can we see?", []dataset.GoldStep{ls("Vienna"), al}},
		{"Tell me about the number one attraction in Lisbon: hours and price.", []dataset.GoldStep{ls("Lisbon"), al, s("travel_advisor.attractions_get_details", M{}, "location_id", 1)}},
		{"What's the top-ranked sight in Rome, and where exactly is it?", []dataset.GoldStep{ls("Rome"), al, s("travel_advisor.attractions_get_details", M{}, "location_id", 1)}},
		{"details of the best attraction in Amsterdam", []dataset.GoldStep{ls("Amsterdam"), al, s("travel_advisor.attractions_get_details", M{}, "location_id", 1)}},
		{"Is the top attraction in Paris open on Mondays?", []dataset.GoldStep{ls("Paris"), al, s("travel_advisor.attractions_get_details", M{}, "location_id", 1)}},
		{"Show me photos of the top attraction in Lisbon.", []dataset.GoldStep{ls("Lisbon"), al, s("travel_advisor.photos_list", M{}, "location_id", 1)}},
		{"What does Barcelona's most popular sight look like? A few photos.", []dataset.GoldStep{ls("Barcelona"), al, s("travel_advisor.photos_list", M{"limit": 5.0}, "location_id", 1)}},
		{"pictures of the #1 thing to do in Tokyo", []dataset.GoldStep{ls("Tokyo"), al, s("travel_advisor.photos_list", M{}, "location_id", 1)}},
		{"I want to see the best-rated attraction in Prague before going. Photos?", []dataset.GoldStep{ls("Prague"), al, s("travel_advisor.photos_list", M{}, "location_id", 1)}},
		{"What do visitors say about Lisbon's top attraction?", []dataset.GoldStep{ls("Lisbon"), al, s("travel_advisor.reviews_list", M{}, "location_id", 1)}},
		{"Reviews of the number one sight in London, 3 of them.", []dataset.GoldStep{ls("London"), al, s("travel_advisor.reviews_list", M{"limit": 3.0}, "location_id", 1)}},
		{"is the top attraction in Istanbul worth it? check reviews", []dataset.GoldStep{ls("Istanbul"), al, s("travel_advisor.reviews_list", M{}, "location_id", 1)}},
		{"Read me what people think of the best thing to do in Sydney.", []dataset.GoldStep{ls("Sydney"), al, s("travel_advisor.reviews_list", M{}, "location_id", 1)}},
		// spares, so that a question left out above keeps the paper's count
		{"I have a video call with someone in Lima. Which time zone are they in?", []dataset.GoldStep{geo("Lima"), s("world_time.timezone_by_location", M{}, "lat", 0, "lon", 0)}},
		{"Dialling code and currency of Japan, from the country registry?", []dataset.GoldStep{s("iso_codes.country_codes", M{"search": "japan"}), s("iso_codes.country_by_code", M{}, "code", 0)}},
		{"If I'm visiting Milan, which airports can I use?", []dataset.GoldStep{geo("Milan"), s("airport_info.nearby_airports", M{}, "lat", 0, "lon", 0)}},
	}
	for i, it := range items {
		api, ok := namedBy[it.text]
		if !ok {
			api = it.steps[len(it.steps)-1].API
		}
		g.buildIV(fmt.Sprintf("IV-%03d-%s", i+1, api), it, needsWhole[it.text])
	}
}

// buildIV runs a Type-IV chain and adds its record, unless the question
// needs the last step's whole result and a model is shown only part of
// it: then the record is left out (g.beyondBudget).
func (g *gen) buildIV(id string, it t4, whole bool) {
	steps := g.resolve(it.steps)
	answers, err := g.runChain(steps, "datagen/"+id)
	if err != nil {
		g.fail("%s: %v", id, err)
		return
	}
	if whole && answers[len(answers)-1].note != "" {
		g.beyondBudget = append(g.beyondBudget, id)
		return
	}
	g.add(dataset.Instruction{ID: id, Type: dataset.TypeDependencies, Text: it.text, Scenario: g.scenario(steps[len(steps)-1].API), Chain: steps})
}
