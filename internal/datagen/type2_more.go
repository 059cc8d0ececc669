package main

import (
	"fmt"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
)

var valuesAt = deps.Values

func (g *gen) typeIIBasic() []t2 {
	return []t2{
		{api: "web_search.web_search", text: "Search the web for a pasteis de nata recipe.", args: A{"q": acc("pasteis de nata recipe", "pastéis de nata recipe")}},
		{api: "web_search.web_search", text: "google 'best time to visit Kyoto' for me", args: A{"q": acc("best time to visit Kyoto")}},
		{api: "web_search.web_search", text: "Can you look up what the Go programming language's latest release is? Top 5 results is enough.", args: A{"q": acc("Go programming language latest release", "golang latest release"), "num": acc(5.0)}},
		{api: "web_search.web_search", text: "Find web pages about the 1755 Lisbon earthquake.", args: A{"q": acc("1755 Lisbon earthquake", "Lisbon earthquake 1755", "Lisbon earthquake")}},
		{api: "web_search.image_search", text: "Find me pictures of Lisbon street signs.", args: A{"q": acc("lisbon street sign", "Lisbon street signs")}},
		{api: "web_search.image_search", text: "I need a few images of a stop sign for a slide, 3 is enough.", args: A{"q": acc("stop sign"), "num": acc(3.0)}},
		{api: "web_search.image_search", text: "Show me photos of a Paris cafe menu.", args: A{"q": acc("paris cafe menu", "Paris café menu")}},
		{api: "web_search.image_search", text: "image search: red apple product photo", args: A{"q": acc("red apple product photo", "red apple")}},
		{api: "web_search.video_search", text: "Find a video on how to make Portuguese custard tarts.", args: A{"q": acc("portuguese custard tarts", "how to make portuguese custard tarts")}},
		{api: "web_search.video_search", text: "Any YouTube videos of fado in Alfama?", args: A{"q": acc("fado Alfama", "fado in Alfama")}},
		{api: "web_search.video_search", text: "Looking for a morning yoga video, something short.", args: A{"q": acc("morning yoga", "short morning yoga", "morning yoga video")}},
		{api: "web_search.news_search", text: "Search news about the climate talks.", args: A{"q": acc("climate talks")}, also: []string{"real_time_news_data.search"}},
		{api: "web_search.news_search", text: "What do the papers say about people falling ill in the heat?", args: A{"q": acc("heat illness", "heat illness news")}, also: []string{"real_time_news_data.search"}},
		{api: "web_search.news_search", text: "news on stocks today, 5 results", args: A{"q": acc("stocks", "stocks today"), "num": acc(5.0)}, also: []string{"real_time_news_data.search"}},
		{api: "python_interpreter.run_python", text: "Run this for me:\nprint(sum(range(1, 101)))", args: A{"code": acc("print(sum(range(1, 101)))")}, facts: []string{"output"}},
		{api: "python_interpreter.run_python", text: "Can you execute `sorted([5, 3, 9, 1])` in Python and tell me what it gives?", args: A{"code": acc("print(sorted([5, 3, 9, 1]))", "sorted([5, 3, 9, 1])")}, facts: []string{"output"}},
		{api: "python_interpreter.run_python", text: "I have prices 12.5, 8.0 and 23.9. Write and run a bit of Python that prints their average rounded to 2 decimals.", args: A{"code": acc("print(round(sum([12.5, 8.0, 23.9]) / 3, 2))")}, facts: []string{"output"}, also: pyAlso},
		{api: "python_interpreter.run_python", text: "run python: print('hello ' * 3)", args: A{"code": acc("print('hello ' * 3)")}, facts: []string{"output"}},
		{api: "calculator.calculate", text: "What's 48,213 times 7.365, exactly?", args: A{"expression": acc("48213 * 7.365", "48,213 * 7.365", "48213*7.365")}, facts: []string{"result"}, also: calcAlso},
		{api: "calculator.calculate", text: "Calculate 17.5% of 2,384.60 for me, exactly.", args: A{"expression": acc("17.5% of 2384.60", "0.175 * 2384.60", "2384.60 * 0.175", "0.175 * 2384.6", "2384.6 * 0.175")}, facts: []string{"result"}, also: calcAlso},
		{api: "calculator.calculate", text: "Our group dinner came to 1,187.46 and there are 7 of us. How much each, to the cent?", args: A{"expression": acc("1187.46 / 7", "1,187.46 / 7", "1187.46/7")}, facts: []string{"result_text"}, also: calcAlso},
		{api: "calculator.calculate", text: "square root of 7,295,401?", args: A{"expression": acc("sqrt(7295401)")}, facts: []string{"result"}, also: calcAlso},
		{api: "calculator.calculate", text: "If I save 347.25 a month for 38 months, plus the 1,219.80 I already have, what do I end up with exactly?", args: A{"expression": acc("347.25 * 38 + 1219.80", "1219.80 + 347.25 * 38", "347.25*38+1219.80", "347.25 * 38 + 1219.8")}, facts: []string{"result"}, also: calcAlso},
		{api: "google_translate.translate", text: "Run \"Where is the train station?\" through the translator into Portuguese; my app must show exactly the service's output.", args: A{"q": acc("Where is the train station?"), "target": acc("pt")}, facts: []string{"data.translations[].translatedText"}},
		{api: "google_translate.translate", text: "What does the translation service give for \"thank you very much\" in Japanese? I need its exact output for a subtitle file.", args: A{"q": acc("thank you very much"), "target": acc("ja")}, facts: []string{"data.translations[].translatedText"}},
		{api: "google_translate.translate", text: "Machine-translate \"good morning\" into German with the translator, so I can compare it with my own attempt.", args: A{"q": acc("good morning"), "target": acc("de")}, facts: []string{"data.translations[].translatedText"}},
		{api: "google_translate.translate", text: "pasa \"the bill, please\" por el traductor automático al español", args: A{"q": acc("the bill, please"), "target": acc("es")}, facts: []string{"data.translations[].translatedText"}},
		{api: "google_translate.translate", text: "My Italian neighbour wrote \"buongiorno\" on a note. What does the translator make of it in English?", args: A{"q": acc("buongiorno"), "target": acc("en"), "source": opt("it")}, facts: []string{"data.translations[].translatedText"}},
		{api: "google_translate.detect_language", text: "Which language does the language detector report for \"Onde fica a estação de comboios?\", and how confident is it?", args: A{"q": acc("Onde fica a estação de comboios?")}, facts: []string{"data.detections[][].language", "data.detections[][].confidence"}},
		{api: "google_translate.detect_language", text: "Got a text saying \"Wo ist der Bahnhof?\" — run it through language detection and tell me the confidence.", args: A{"q": acc("Wo ist der Bahnhof?")}, facts: []string{"data.detections[][].language", "data.detections[][].confidence"}},
		{api: "google_translate.detect_language", text: "what confidence does the detector give for the language of \"merci beaucoup\"?", args: A{"q": acc("merci beaucoup")}, facts: []string{"data.detections[][].language", "data.detections[][].confidence"}},
		{api: "google_translate.supported_languages", text: "Which languages can you translate between?", args: A{}},
		{api: "google_translate.supported_languages", text: "List the supported translation languages, with their names in Spanish.", args: A{"target": acc("es")}},
		{api: "google_translate.supported_languages", text: "Is Welsh one of the languages the translator handles? Show me the list.", args: A{}, lit: []string{"cy"}},
		{api: "ip_geolocation.lookup_ip", text: "Where is the IP address 85.17.142.23 located?", args: A{"ip": acc("85.17.142.23")}, facts: []string{"city", "country"}},
		{api: "ip_geolocation.lookup_ip", text: "Someone logged into my account from 8.8.8.8 — which country is that?", args: A{"ip": acc("8.8.8.8")}, facts: []string{"country"}},
		{api: "ip_geolocation.lookup_ip", text: "geolocate 1.1.1.1 please, and which ISP", args: A{"ip": acc("1.1.1.1")}, facts: []string{"country", "isp"}},
		{api: "ip_geolocation.get_client_ip", text: "What's my public IP address?", args: A{}, facts: []string{"ip"}},
		{api: "ip_geolocation.get_client_ip", text: "I need to whitelist my IP on the office firewall. What is it?", args: A{}, facts: []string{"ip"}},
		{api: "ip_geolocation.get_client_ip", text: "which ip am I coming from right now?", args: A{}, facts: []string{"ip"}},
		{api: "user_info.get_user_profile", text: "What name and e-mail do you have on file for me?", args: A{}, facts: []string{"data.name", "data.email"}},
		{api: "user_info.get_user_profile", text: "Do I have any dietary preferences saved in my profile?", args: A{}, facts: []string{"data.preferences.dietary[]"}},
		{api: "user_info.get_user_profile", text: "Remind me which travel class I set as my preference.", args: A{}, facts: []string{"data.preferences.travel_class"}},
		{api: "user_info.get_user_location", text: "Where am I right now, according to you?", args: A{}, facts: []string{"data.city"}},
		{api: "user_info.get_user_location", text: "What city does my device think I'm in?", args: A{}, facts: []string{"data.city", "data.country"}},
		{api: "user_info.get_user_location", text: "Get my current coordinates please.", args: A{}, facts: []string{"data.lat", "data.lon"}},
		{api: "agent_clock.get_current_time", text: "What time is it?", args: A{}, facts: []string{"time"}},
		{api: "agent_clock.get_current_time", text: "What's the time in Tokyo now?", args: A{"timezone": acc("Asia/Tokyo")}, facts: []string{"time"}, also: []string{"weatherapi_com.time_zone_api", "world_time.timezone_info"}},
		{api: "agent_clock.get_current_time", text: "Give me the current date and time in New York as ISO 8601.", args: A{"timezone": acc("America/New_York"), "format": acc("iso")}, facts: []string{"datetime"}, also: []string{"world_time.timezone_info"}},
		{api: "agent_clock.get_current_time", text: "Today's date please", args: A{}, facts: []string{"date"}},
		{api: "world_time.timezone_info", text: "Tell me about the Asia/Tokyo time zone — offset and whether it has DST.", args: A{"timezone": acc("Asia/Tokyo")}, facts: []string{"utc_offset", "abbreviation"}},
		{api: "world_time.timezone_info", text: "Is Europe/London on summer time right now?", args: A{"timezone": acc("Europe/London")}, facts: []string{"abbreviation", "utc_offset"}},
		{api: "world_time.timezone_info", text: "What's the UTC offset of America/Los_Angeles today?", args: A{"timezone": acc("America/Los_Angeles")}, facts: []string{"utc_offset"}},
		{api: "world_time.timezone_info", text: "Australia/Sydney: current local time and offset?", args: A{"timezone": acc("Australia/Sydney")}, facts: []string{"datetime", "utc_offset"}},
		{api: "world_time.timezone_by_location", text: "Which time zone is at latitude 38.7223, longitude -9.1393?", args: A{"lat": acc(38.7223), "lon": acc(-9.1393)}, facts: []string{"timezone"}},
		{api: "world_time.timezone_by_location", text: "My GPS says 40.4168, -3.7038. What's the local time zone there?", args: A{"lat": acc(40.4168), "lon": acc(-3.7038)}, facts: []string{"timezone"}},
		{api: "world_time.timezone_by_location", text: "time zone for coordinates 1.3521, 103.8198?", args: A{"lat": acc(1.3521), "lon": acc(103.8198)}, facts: []string{"timezone", "utc_offset"}},
	}
}

func (g *gen) typeIIImage() []t2 {
	shot := func(url string) []dataset.GoldStep {
		return []dataset.GoldStep{g.step("web_capture.take_screenshot", M{"url": url})}
	}
	bg := func(u string) []dataset.GoldStep {
		return []dataset.GoldStep{g.step("background_removal.remove_background", M{"image_url": u})}
	}
	return []t2{
		{api: "object_detection.detect_objects", text: "What objects can you spot in " + img + "city_street_traffic.jpg?", args: A{"url": acc(img + "city_street_traffic.jpg")}, facts: []string{"results.labels[].label"}},
		{api: "object_detection.detect_objects", text: "Is there a dog in this photo? What else is in it? " + img + "park_dog_walk.jpg", args: A{"url": acc(img + "park_dog_walk.jpg")}, facts: []string{"results.labels[].label"}},
		{api: "object_detection.detect_objects", text: "Count the things on the breakfast table: " + img + "kitchen_table_breakfast.jpg", args: A{"url": acc(img + "kitchen_table_breakfast.jpg")}, facts: []string{"results.labels[].label"}},
		{api: "object_detection.detect_objects", text: "Run object detection on " + img + "harbour_boats.jpg and tell me what's there.", args: A{"url": acc(img + "harbour_boats.jpg")}, facts: []string{"results.labels[].label"}},
		{api: "object_detection.list_labels", text: "Which kinds of objects can your detector recognise?", args: A{}, facts: []string{"labels[]"}},
		{api: "object_detection.list_labels", text: "How many kinds of object can the detector label? Show me the list of labels it knows.", args: A{}, facts: []string{"count"}},
		{api: "object_detection.list_labels", text: "full label list for object detection pls", args: A{}, facts: []string{"labels[]"}},
		{api: "ocr_extract_text.ocr_image_url", text: "What does the sign say in this picture? " + img + "paris_metro_exit_sign.png", args: A{"url": acc(img + "paris_metro_exit_sign.png")}, facts: []string{"lines[].text"}},
		{api: "ocr_extract_text.ocr_image_url", text: "Pull the text off my receipt: " + img + "grocery_receipt.png", args: A{"url": acc(img + "grocery_receipt.png")}, facts: []string{"lines[].text"}},
		{api: "ocr_extract_text.ocr_image_url", text: "What opening hours does the sign in " + img + "museum_opening_hours.png give? Word for word, please; it's in French.", args: A{"url": acc(img + "museum_opening_hours.png"), "language": opt("fr", "auto")}, lit: []string{"OUVERT 9H - 18H"}},
		{api: "ocr_extract_text.ocr_image_url", text: "OCR this Spanish pharmacy sign for me: " + img + "madrid_pharmacy_sign.png", args: A{"url": acc(img + "madrid_pharmacy_sign.png"), "language": opt("es", "auto")}, facts: []string{"lines[].text"}},
		{api: "ocr_extract_text.supported_languages", text: "Which languages can the text reader handle?", args: A{}, facts: []string{"languages[].name"}},
		{api: "ocr_extract_text.supported_languages", text: "Can your OCR read Japanese? What languages does it support?", args: A{}, lit: []string{"ja"}},
		{api: "ocr_extract_text.supported_languages", text: "list of OCR languages?", args: A{}, facts: []string{"languages[].code"}},
		{api: "image_translation.translate_image_text", text: "Translate the menu in this photo into English: " + img + "paris_cafe_menu.png", args: A{"image_url": acc(img + "paris_cafe_menu.png"), "target_lang": acc("en")}, facts: []string{"data.blocks[].translated_text"}},
		{api: "image_translation.translate_image_text", text: "I can't read this tapas menu — English please: " + img + "madrid_tapas_menu.png", args: A{"image_url": acc(img + "madrid_tapas_menu.png"), "target_lang": acc("en")}, facts: []string{"data.blocks[].translated_text"}},
		{api: "image_translation.translate_image_text", text: "Put the text of " + img + "berlin_construction_sign.jpg into French, the source is German.", args: A{"image_url": acc(img + "berlin_construction_sign.jpg"), "target_lang": acc("fr"), "source_lang": opt("de")}, facts: []string{"data.blocks[].translated_text"}},
		{api: "image_translation.translate_image_text", text: "What does this Lisbon street sign mean in Spanish? " + img + "lisbon_street_sign.png", args: A{"image_url": acc(img + "lisbon_street_sign.png"), "target_lang": acc("es")}, facts: []string{"data.blocks[].translated_text"}},
		{api: "image_translation.image_translation_languages", text: "Which languages can you translate pictures into?", args: A{}, facts: []string{"data.target_languages[].name"}},
		{api: "image_translation.image_translation_languages", text: "Does photo translation work from Japanese? List the languages.", args: A{}, lit: []string{"Japanese (romaji)"}},
		{api: "image_translation.image_translation_languages", text: "supported languages for translating text in images?", args: A{}, facts: []string{"data.target_languages[].code"}},
		{api: "image_file_processing.image_info", text: "How big is " + img + "product_laptop.jpg? Dimensions and file size.", args: A{"image_url": acc(img + "product_laptop.jpg")}, facts: []string{"data.width", "data.size_bytes"}},
		{api: "image_file_processing.image_info", text: "How many pixels wide and high is " + img + "cat_on_chair.png?", args: A{"image_url": acc(img + "cat_on_chair.png")}, facts: []string{"data.width", "data.height"}},
		{api: "image_file_processing.image_info", text: "check the resolution of " + img + "suburban_house.jpg", args: A{"image_url": acc(img + "suburban_house.jpg")}, facts: []string{"data.width", "data.height"}},
		{api: "image_file_processing.resize_image", text: "Resize " + img + "product_laptop.jpg to 320 pixels wide.", args: A{"image_url": acc(img + "product_laptop.jpg"), "width": acc(320.0)}, facts: []string{"data.output_url", "data.height"}},
		{api: "image_file_processing.resize_image", text: "Make a 200x200 thumbnail of " + img + "product_coffee_mug.jpg — it's fine if it gets squashed.", args: A{"image_url": acc(img + "product_coffee_mug.jpg"), "width": acc(200.0), "height": acc(200.0), "keep_aspect": acc(false)}, facts: []string{"data.output_url"}},
		{api: "image_file_processing.resize_image", text: "I need " + img + "beach_umbrellas.jpg at 800px width for the blog header.", args: A{"image_url": acc(img + "beach_umbrellas.jpg"), "width": acc(800.0)}, facts: []string{"data.output_url", "data.height"}},
		{api: "image_file_processing.compress_image", text: "Compress " + img + "pizza_dinner.jpg, it's too heavy for email.", args: A{"image_url": acc(img + "pizza_dinner.jpg")}, facts: []string{"data.output_url", "data.size_bytes"}},
		{api: "image_file_processing.compress_image", text: "Shrink the file size of " + img + "office_desk.png at quality 50.", args: A{"image_url": acc(img + "office_desk.png"), "quality": acc(50.0)}, facts: []string{"data.output_url"}},
		{api: "image_file_processing.compress_image", text: "please compress " + img + "product_backpack.jpg to about 60% quality", args: A{"image_url": acc(img + "product_backpack.jpg"), "quality": acc(60.0)}, facts: []string{"data.output_url", "data.size_bytes"}},
		{api: "image_file_processing.convert_image_format", text: "Convert " + img + "product_laptop.jpg to PNG.", args: A{"image_url": acc(img + "product_laptop.jpg"), "format": acc("png")}, facts: []string{"data.output_url"}},
		{api: "image_file_processing.convert_image_format", text: "I need " + img + "stop_sign.png as a JPEG for an old system that only takes jpg.", args: A{"image_url": acc(img + "stop_sign.png"), "format": acc("jpeg")}, facts: []string{"data.output_url"}},
		{api: "image_file_processing.convert_image_format", text: "turn " + img + "go_conference_poster.png into a gif", args: A{"image_url": acc(img + "go_conference_poster.png"), "format": acc("gif")}, facts: []string{"data.output_url"}},
		{api: "background_removal.remove_background", text: "Remove the background from " + img + "product_red_apple.png.", args: A{"image_url": acc(img + "product_red_apple.png")}, facts: []string{"result_url"}},
		{api: "background_removal.remove_background", text: "Can you cut out the mug from its background? " + img + "product_coffee_mug.jpg", args: A{"image_url": acc(img + "product_coffee_mug.jpg")}, facts: []string{"result_url"}},
		{api: "background_removal.remove_background", text: "I'm listing my chair for sale; make the background transparent on " + img + "product_wooden_chair.png", args: A{"image_url": acc(img + "product_wooden_chair.png")}, facts: []string{"result_url"}},
		{api: "background_removal.get_removal_result", text: "Is background removal job {result_id} done yet? Give me the link.", args: A{}, setup: bg(img + "product_water_bottle.jpg"), fill: map[string]int{"result_id": 0}},
		{api: "background_removal.get_removal_result", text: "Fetch the result for {result_id} please.", args: A{}, setup: bg(img + "product_backpack.jpg"), fill: map[string]int{"result_id": 0}},
		{api: "background_removal.get_removal_result", text: "Earlier you started a cut-out and gave me the id {result_id}. Where's the finished image?", args: A{}, setup: bg(img + "product_wall_clock.png"), fill: map[string]int{"result_id": 0}},
		{api: "web_capture.take_screenshot", text: "Take a screenshot of https://www.visitlisboa.com.", args: A{"url": acc("https://www.visitlisboa.com", "https://www.visitlisboa.com/")}, facts: []string{"data.image_url"}},
		{api: "web_capture.take_screenshot", text: "Grab a full-page capture of https://www.ratp.fr for my notes.", args: A{"url": acc("https://www.ratp.fr", "https://www.ratp.fr/"), "fullpage": acc(true)}, facts: []string{"data.image_url"}},
		{api: "web_capture.take_screenshot", text: "Screenshot https://www.bahn.de at phone size, 390 by 844.", args: A{"url": acc("https://www.bahn.de", "https://www.bahn.de/"), "width": acc(390.0), "height": acc(844.0)}, facts: []string{"data.image_url"}},
		{api: "web_capture.take_screenshot", text: "How does https://www.timeout.com look right now? Capture it.", args: A{"url": acc("https://www.timeout.com", "https://www.timeout.com/")}, facts: []string{"data.image_url", "data.title"}},
		{api: "web_capture.get_screenshot", text: "Get me the screenshot {screenshot_id} again.", args: A{}, setup: shot("https://www.esmadrid.com"), fill: map[string]int{"screenshot_id": 0}, facts: []string{"data.image_url"}},
		{api: "web_capture.get_screenshot", text: "Where's the capture with id {screenshot_id}? I lost the link.", args: A{}, setup: shot("https://www.japan-guide.com"), fill: map[string]int{"screenshot_id": 0}, facts: []string{"data.image_url"}},
		{api: "web_capture.get_screenshot", text: "re-fetch screenshot {screenshot_id}", args: A{}, setup: shot("https://www.visitberlin.de"), fill: map[string]int{"screenshot_id": 0}, facts: []string{"data.image_url"}},
	}
}

func (g *gen) typeIITravel(fri, sat, sun, mon string, lisbon dataset.Acceptable) []t2 {
	hotels := func(city, in, out string) []dataset.GoldStep {
		return []dataset.GoldStep{
			g.step("booking_com.search_hotel_destination", M{"query": city}),
			g.step("booking_com.search_hotels", M{"search_type": "CITY", "arrival_date": in, "departure_date": out}, "dest_id", 0),
		}
	}
	dest := func(city string) []dataset.GoldStep {
		return []dataset.GoldStep{g.step("booking_com.search_hotel_destination", M{"query": city})}
	}
	auto := func(from, to string) []dataset.GoldStep {
		return []dataset.GoldStep{g.step("skyscanner80.flights_auto_complete", M{"query": from}), g.step("skyscanner80.flights_auto_complete", M{"query": to})}
	}
	flights := func(from, to, date string) []dataset.GoldStep {
		return append(auto(from, to), g.step("skyscanner80.flights_search_one_way", M{"departDate": date}, "fromId", 0, "toId", 1))
	}
	round := func(from, to, d1, d2 string) []dataset.GoldStep {
		return append(auto(from, to), g.step("skyscanner80.flights_search_roundtrip", M{"departDate": d1, "returnDate": d2}, "fromId", 0, "toId", 1))
	}
	loc := func(city string) []dataset.GoldStep {
		return []dataset.GoldStep{g.step("travel_advisor.locations_search", M{"query": city})}
	}
	attr := func(city string) []dataset.GoldStep {
		return append(loc(city), g.step("travel_advisor.attractions_list", M{}, "location_id", 0))
	}
	june20, june23 := "2025-06-20", "2025-06-23"
	// What a user wants of a flight search: the fares and the airlines.
	flightFacts := []string{"data.itineraries[].price.formatted", "data.itineraries[].legs[].carriers.marketing[].name"}
	return []t2{
		{api: "geocoding.forward_geocode", text: "What are the coordinates of Lisbon, Portugal?", args: A{"address": acc("Lisbon, Portugal", "Lisbon")}, facts: []string{"results[].lat", "results[].lon"}},
		{api: "geocoding.forward_geocode", text: "Geocode the Eiffel Tower for me.", args: A{"address": acc("Eiffel Tower", "Eiffel Tower, Paris", "Tour Eiffel")}, facts: []string{"results[].lat"}},
		{api: "geocoding.forward_geocode", text: "lat/long of Marrakech?", args: A{"address": acc("Marrakech", "Marrakech, Morocco", "Marrakesh")}, facts: []string{"results[].lat", "results[].lon"}},
		{api: "geocoding.forward_geocode", text: "I'm plotting pins on a map. Where exactly is Cusco, Peru?", args: A{"address": acc("Cusco, Peru", "Cusco", "Cuzco")}, facts: []string{"results[].lat"}},
		{api: "geocoding.reverse_geocode", text: "What's at 38.6916, -9.216?", args: A{"lat": acc(38.6916), "lon": acc(-9.216)}, facts: []string{"display_name"}},
		{api: "geocoding.reverse_geocode", text: "My photo's metadata says 48.8584 N, 2.2945 E. Where was it taken?", args: A{"lat": acc(48.8584), "lon": acc(2.2945)}, facts: []string{"display_name"}},
		{api: "geocoding.reverse_geocode", text: "Which city is at latitude -22.9519, longitude -43.2105?", args: A{"lat": acc(-22.9519), "lon": acc(-43.2105)}, facts: []string{"address.city"}},
		{api: "ip_geolocation.lookup_ip", text: "Look up 203.0.113.7 for me, just the country.", args: A{"ip": acc("203.0.113.7")}, facts: []string{"message"}},
		{api: "iso_codes.language_codes", text: "Look up Portuguese in the language-code registry: which code and native name does it list?", args: A{"search": acc("portuguese", "Portuguese")}, facts: []string{"data[].code", "data[].native_name"}},
		{api: "iso_codes.language_codes", text: "what does the language-code registry have for Swahili (code and native name)?", args: A{"search": acc("swahili", "Swahili")}, facts: []string{"data[].code", "data[].native_name"}},
		{api: "iso_codes.language_codes", text: "I need the code the language registry lists for Icelandic, for a config file validated against it.", args: A{"search": acc("icelandic", "Icelandic")}, facts: []string{"data[].code"}},
		{api: "iso_codes.country_codes", text: "Which numeric code does the ISO country registry list for Portugal?", args: A{"search": acc("portugal", "Portugal")}, facts: []string{"data[].numeric"}},
		{api: "iso_codes.country_codes", text: "registry entry for New Zealand please: its alpha-3 and numeric codes", args: A{"search": acc("new zealand", "New Zealand")}, facts: []string{"data[].alpha3", "data[].numeric"}},
		{api: "iso_codes.country_codes", text: "For the shipping form: what numeric code and official name does the ISO registry give for South Africa?", args: A{"search": acc("south africa", "South Africa")}, facts: []string{"data[].numeric", "data[].official_name"}},
		{api: "iso_codes.country_by_code", text: "Look up country code PT in the ISO registry: which numeric code and time zones does its entry list?", args: A{"code": acc("PT", "pt")}, facts: []string{"data.numeric", "data.timezones[]"}},
		{api: "iso_codes.country_by_code", text: "My package label says 'KE'. What official name and numeric code does the country registry give for it?", args: A{"code": acc("KE", "ke")}, facts: []string{"data.official_name", "data.numeric"}},
		{api: "iso_codes.country_by_code", text: "registry details for country code CHE: numeric code and subregion", args: A{"code": acc("CHE", "CH")}, facts: []string{"data.numeric", "data.subregion"}},
		{api: "currency_exchange.exchange", text: "How many euros is one US dollar today?", args: A{"from": acc("USD"), "to": acc("EUR"), "q": opt(1.0)}},
		{api: "currency_exchange.exchange", text: "I have two hundred bucks. How much is that in Japanese yen?", args: A{"from": acc("USD"), "to": acc("JPY"), "q": acc(200.0)}},
		{api: "currency_exchange.exchange", text: "Convert 50 quid to euros.", args: A{"from": acc("GBP"), "to": acc("EUR"), "q": acc(50.0)}},
		{api: "currency_exchange.exchange", text: "exchange rate BRL to USD?", args: A{"from": acc("BRL"), "to": acc("USD"), "q": opt(1.0)}},
		{api: "currency_exchange.listquotes", text: "Which currencies can you convert between?", args: A{}},
		{api: "currency_exchange.listquotes", text: "Is the Icelandic króna among the currencies you support? Show me the list.", args: A{}, lit: []string{"ISK"}},
		{api: "currency_exchange.listquotes", text: "list supported currency codes", args: A{}},
		{api: "airport_info.airport", text: "Tell me about the airport LIS.", args: A{"iata": acc("LIS", "lis")}, facts: []string{"name", "city"}},
		{api: "airport_info.airport", text: "My boarding pass says NRT. Which airport is that and what's its phone number?", args: A{"iata": acc("NRT", "nrt")}, facts: []string{"name", "phone"}},
		{api: "airport_info.airport", text: "Where's JFK exactly? Need the street address for the cab.", args: A{"iata": acc("JFK", "jfk")}, facts: []string{"street"}},
		{api: "airport_info.airport", text: "street address and phone of the airport CDG?", args: A{"iata": acc("CDG", "cdg")}, facts: []string{"street", "phone"}},
		{api: "airport_info.nearby_airports", text: "Which airports are near 38.7223, -9.1393?", args: A{"lat": acc(38.7223), "lon": acc(-9.1393)}, facts: []string{"data[].iata"}},
		{api: "airport_info.nearby_airports", text: "I'm at 51.5072, -0.1276. Airports within 50 km?", args: A{"lat": acc(51.5072), "lon": acc(-0.1276), "radius_km": acc(50.0)}, facts: []string{"data[].iata"}},
		{api: "airport_info.nearby_airports", text: "closest airports to lat 35.6762 lon 139.6503", args: A{"lat": acc(35.6762), "lon": acc(139.6503)}, facts: []string{"data[].name"}},
		{api: "booking_com.search_hotel_destination", text: "Look up Lisbon as a hotel destination.", args: A{"query": lisbon}, facts: []string{"data[].label", "data[].nr_hotels"}},
		{api: "booking_com.search_hotel_destination", text: "How many hotels are listed for Kraków?", args: A{"query": acc("Kraków", "Krakow", "Cracow")}, facts: []string{"data[].nr_hotels"}},
		{api: "booking_com.search_hotel_destination", text: "Find the destination entry for Rio de Janeiro on the booking site.", args: A{"query": acc("Rio de Janeiro", "Rio")}, facts: []string{"data[].label"}},
		{api: "booking_com.search_hotels", text: fmt.Sprintf("Destination id {dest_id} is Lisbon. Search hotels there from %s to %s.", june20, june23), args: A{"search_type": acc("CITY", "city"), "arrival_date": acc(june20), "departure_date": acc(june23)}, setup: dest("Lisbon"), fill: map[string]int{"dest_id": 0}, facts: []string{"data.hotels[].property.name"}},
		{api: "booking_com.search_hotels", text: fmt.Sprintf("Using dest_id {dest_id} (Paris), hotels for 2 adults, check-in %s, check-out %s?", fri, mon), args: A{"search_type": acc("CITY", "city"), "arrival_date": acc(fri), "departure_date": acc(mon), "adults": acc(2.0)}, setup: dest("Paris"), fill: map[string]int{"dest_id": 0}, facts: []string{"data.hotels[].property.name"}},
		{api: "booking_com.search_hotels", text: "Rome's destination id is {dest_id}. Hotels 2025-07-10 to 2025-07-14 in USD please.", args: A{"search_type": acc("CITY", "city"), "arrival_date": acc("2025-07-10"), "departure_date": acc("2025-07-14"), "currency_code": acc("USD")}, setup: dest("Rome"), fill: map[string]int{"dest_id": 0}, facts: []string{"data.hotels[].property.name"}},
		{api: "booking_com.get_hotel_details", text: fmt.Sprintf("Tell me more about hotel {hotel_id} for %s–%s.", june20, june23), args: A{"arrival_date": acc(june20), "departure_date": acc(june23)}, setup: hotels("Lisbon", june20, june23), fill: map[string]int{"hotel_id": 1}, facts: []string{"data.hotel_name", "data.address"}},
		{api: "booking_com.get_hotel_details", text: "Details on hotel {hotel_id}, staying 2025-07-01 to 2025-07-04? Does it have free WiFi?", args: A{"arrival_date": acc("2025-07-01"), "departure_date": acc("2025-07-04")}, setup: hotels("Barcelona", "2025-07-01", "2025-07-04"), fill: map[string]int{"hotel_id": 1}, facts: []string{"data.hotel_name"}},
		{api: "booking_com.get_hotel_details", text: fmt.Sprintf("hotel {hotel_id} — address and check-in time? dates %s to %s", sat, mon), args: A{"arrival_date": acc(sat), "departure_date": acc(mon)}, setup: hotels("Berlin", sat, mon), fill: map[string]int{"hotel_id": 1}, facts: []string{"data.address", "data.checkin.from"}},
		{api: "booking_com.get_room_list", text: fmt.Sprintf("What rooms are available at hotel {hotel_id} from %s to %s?", june20, june23), args: A{"arrival_date": acc(june20), "departure_date": acc(june23)}, setup: hotels("Lisbon", june20, june23), fill: map[string]int{"hotel_id": 1}},
		{api: "booking_com.get_room_list", text: "Room options and prices at {hotel_id} for 2025-08-01 → 2025-08-05, in pounds.", args: A{"arrival_date": acc("2025-08-01"), "departure_date": acc("2025-08-05"), "currency_code": acc("GBP")}, setup: hotels("Dublin", "2025-08-01", "2025-08-05"), fill: map[string]int{"hotel_id": 1}},
		{api: "booking_com.get_room_list", text: fmt.Sprintf("Can you check rooms at hotel {hotel_id}? Arriving %s, leaving %s.", fri, sun), args: A{"arrival_date": acc(fri), "departure_date": acc(sun)}, setup: hotels("Amsterdam", fri, sun), fill: map[string]int{"hotel_id": 1}},
		{api: "booking_com.get_hotel_reviews", text: "What do guests say about hotel {hotel_id}?", args: A{}, setup: hotels("Lisbon", june20, june23), fill: map[string]int{"hotel_id": 1}, facts: []string{"data.result[].title"}},
		{api: "booking_com.get_hotel_reviews", text: "Show me the most recent reviews for hotel {hotel_id}.", args: A{"sort_option_id": acc("sort_recent_desc")}, setup: hotels("Madrid", june20, june23), fill: map[string]int{"hotel_id": 1}, facts: []string{"data.result[].title"}},
		{api: "booking_com.get_hotel_reviews", text: "Worst reviews first for {hotel_id} please — I want to know the dealbreakers.", args: A{"sort_option_id": acc("sort_score_asc")}, setup: hotels("Prague", june20, june23), fill: map[string]int{"hotel_id": 1}, facts: []string{"data.result[].title"}},
		{api: "booking_com.get_hotel_photos", text: "Show me photos of hotel {hotel_id}.", args: A{}, setup: hotels("Lisbon", june20, june23), fill: map[string]int{"hotel_id": 1}, facts: []string{"data[].url"}},
		{api: "booking_com.get_hotel_photos", text: "Any pictures of the rooms at {hotel_id}? My wife wants to see before we book.", args: A{}, setup: hotels("Vienna", june20, june23), fill: map[string]int{"hotel_id": 1}, facts: []string{"data[].url"}},
		{api: "booking_com.get_hotel_photos", text: "pics of hotel {hotel_id}", args: A{}, setup: hotels("Athens", june20, june23), fill: map[string]int{"hotel_id": 1}, facts: []string{"data[].url"}},
		{api: "skyscanner80.flights_auto_complete", text: "Which places does the flight search suggest for New York?", args: A{"query": acc("New York", "New York City", "NYC")}, facts: []string{"data[].presentation.suggestionTitle"}},
		{api: "skyscanner80.flights_auto_complete", text: "Which airports come up when I type 'Lond' in the flight search?", args: A{"query": acc("Lond", "London")}},
		{api: "skyscanner80.flights_auto_complete", text: "Look up Lisbon as a departure point for flights, UK market.", args: A{"query": lisbon, "market": acc("UK", "GB")}, facts: []string{"data[].presentation.suggestionTitle"}},
		{api: "skyscanner80.flights_search_one_way", text: fmt.Sprintf("I have the place ids already: from {fromId} to {toId}. One-way flights on %s please.", june20), args: A{"departDate": acc(june20)}, setup: auto("New York", "London"), fill: map[string]int{"fromId": 0, "toId": 1}, facts: flightFacts},
		{api: "skyscanner80.flights_search_one_way", text: fmt.Sprintf("Search one-way, fromId {fromId}, toId {toId}, departing %s, 2 adults, business class.", fri), args: A{"departDate": acc(fri), "adults": acc(2.0), "cabinClass": acc("business")}, setup: auto("Lisbon", "Paris"), fill: map[string]int{"fromId": 0, "toId": 1}, facts: flightFacts},
		{api: "skyscanner80.flights_search_one_way", text: "one way {fromId} → {toId} on 2025-07-15, prices in EUR", args: A{"departDate": acc("2025-07-15"), "currency": acc("EUR")}, setup: auto("Berlin", "Rome"), fill: map[string]int{"fromId": 0, "toId": 1}, facts: flightFacts},
		{api: "skyscanner80.flights_search_roundtrip", text: fmt.Sprintf("Round trip from {fromId} to {toId}, out %s, back %s.", june20, "2025-06-27"), args: A{"departDate": acc(june20), "returnDate": acc("2025-06-27")}, setup: auto("New York", "London"), fill: map[string]int{"fromId": 0, "toId": 1}, facts: flightFacts},
		{api: "skyscanner80.flights_search_roundtrip", text: "Return flights {fromId} ↔ {toId}, leaving 2025-08-02 and coming back 2025-08-16, for 3 adults.", args: A{"departDate": acc("2025-08-02"), "returnDate": acc("2025-08-16"), "adults": acc(3.0)}, setup: auto("Toronto", "Lisbon"), fill: map[string]int{"fromId": 0, "toId": 1}, facts: flightFacts},
		{api: "skyscanner80.flights_search_roundtrip", text: fmt.Sprintf("with the ids you found ({fromId} and {toId}) search a roundtrip %s to %s in GBP", fri, "2025-06-15"), args: A{"departDate": acc(fri), "returnDate": acc("2025-06-15"), "currency": acc("GBP")}, setup: auto("Madrid", "Dublin"), fill: map[string]int{"fromId": 0, "toId": 1}, facts: flightFacts},
		{api: "skyscanner80.flights_search_incomplete", text: "The flight search with session {sessionId} was still loading. Can you get the rest of the results?", args: A{}, setup: flights("New York", "London", june20), fill: map[string]int{"sessionId": 2}, facts: flightFacts},
		{api: "skyscanner80.flights_search_incomplete", text: "Fetch the complete results for search session {sessionId}, in euros.", args: A{"currency": acc("EUR")}, setup: flights("Lisbon", "Paris", fri), fill: map[string]int{"sessionId": 2}, facts: flightFacts},
		{api: "skyscanner80.flights_search_incomplete", text: "poll session {sessionId} again pls, it said incomplete", args: A{}, setup: round("Berlin", "Rome", "2025-07-15", "2025-07-20"), fill: map[string]int{"sessionId": 2}, facts: flightFacts},
		{api: "skyscanner80.flights_detail", text: "Show me the details for itinerary {itineraryId} (token {token}).", args: A{}, setup: flights("New York", "London", june20), fill: map[string]int{"itineraryId": 2, "token": 2}},
		{api: "skyscanner80.flights_detail", text: "What are the booking options for itinerary {itineraryId}? The token was {token}.", args: A{}, setup: flights("Lisbon", "Paris", fri), fill: map[string]int{"itineraryId": 2, "token": 2}},
		{api: "skyscanner80.flights_detail", text: "Details please: itinerary {itineraryId}, token {token}, prices in EUR.", args: A{"currency": acc("EUR")}, setup: round("Berlin", "Rome", "2025-07-15", "2025-07-20"), fill: map[string]int{"itineraryId": 2, "token": 2}},
		{api: "skyscanner80.get_config", text: "Which markets and currencies does the flight search support?", args: A{}, facts: []string{"data[].market"}},
		{api: "skyscanner80.get_config", text: "What locale should I use for Brazil in the flight search?", args: A{}, lit: []string{"pt-BR"}},
		{api: "skyscanner80.get_config", text: "list the flight search config (markets, locales)", args: A{}, facts: []string{"data[].country"}},
		{api: "travel_advisor.locations_search", text: "Find Lisbon on TripAdvisor. How many things to do does it list?", args: A{"query": lisbon}, lit: []string{"192"}},
		{api: "travel_advisor.locations_search", text: "Search travel locations matching 'Kyoto'.", args: A{"query": acc("Kyoto", "Kyoto, Japan")}, facts: []string{"data[].result_object.name"}},
		{api: "travel_advisor.locations_search", text: "look up Marrakech for sightseeing, distances in miles", args: A{"query": acc("Marrakech", "Marrakesh"), "units": acc("mi")}, facts: []string{"data[].result_object.location_string"}},
		{api: "travel_advisor.attractions_list", text: "Location {location_id} is Lisbon. What attractions are there?", args: A{}, setup: loc("Lisbon"), fill: map[string]int{"location_id": 0}, facts: []string{"data[].name"}},
		{api: "travel_advisor.attractions_list", text: "Top 5 things to do in location {location_id} (Rome), prices in EUR.", args: A{"limit": acc(5.0), "currency": acc("EUR")}, setup: loc("Rome"), fill: map[string]int{"location_id": 0}, facts: []string{"data[].name"}},
		{api: "travel_advisor.attractions_list", text: "attractions for {location_id} please", args: A{}, setup: loc("Tokyo"), fill: map[string]int{"location_id": 0}, facts: []string{"data[].name"}},
		{api: "travel_advisor.attractions_get_details", text: "Tell me about attraction {location_id}: opening hours and price.", args: A{}, setup: attr("Lisbon"), fill: map[string]int{"location_id": 1}, facts: []string{"name", "offer_group.lowest_price"}},
		{api: "travel_advisor.attractions_get_details", text: "What's the address of attraction {location_id}?", args: A{}, setup: attr("Paris"), fill: map[string]int{"location_id": 1}, facts: []string{"address_obj.street1"}},
		{api: "travel_advisor.attractions_get_details", text: "More info on {location_id}, the first one in your list?", args: A{}, setup: attr("Barcelona"), fill: map[string]int{"location_id": 1}, facts: []string{"name", "rating"}},
		{api: "travel_advisor.photos_list", text: "Show me photos of attraction {location_id}.", args: A{}, setup: attr("Lisbon"), fill: map[string]int{"location_id": 1}, facts: []string{"data[].images.large.url"}},
		{api: "travel_advisor.photos_list", text: "Just 5 pictures of {location_id}, please.", args: A{"limit": acc(5.0)}, setup: attr("Amsterdam"), fill: map[string]int{"location_id": 1}, facts: []string{"data[].images.large.url"}},
		{api: "travel_advisor.photos_list", text: "what does {location_id} look like? photos", args: A{}, setup: attr("Kyoto"), fill: map[string]int{"location_id": 1}, facts: []string{"data[].images.large.url"}},
		{api: "travel_advisor.reviews_list", text: "What are visitors saying about attraction {location_id}?", args: A{}, setup: attr("Lisbon"), fill: map[string]int{"location_id": 1}, facts: []string{"data[].title"}},
		{api: "travel_advisor.reviews_list", text: "Give me 3 reviews of {location_id}.", args: A{"limit": acc(3.0)}, setup: attr("Rome"), fill: map[string]int{"location_id": 1}, facts: []string{"data[].title"}},
		{api: "travel_advisor.reviews_list", text: "Is {location_id} worth the queue? Check the reviews.", args: A{}, setup: attr("London"), fill: map[string]int{"location_id": 1}, facts: []string{"data[].title"}},
	}
}
