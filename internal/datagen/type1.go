package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/mocks/world"
)

// Type I: questions answerable from general knowledge where a tool looks
// tempting. Facts come from the world data, so reference answers agree
// with what the stand-ins would say.

var openers = []string{"", "Quick question: ", "Hey! ", "Out of curiosity, ", "Random thought — ", "hi, ", "Sorry if this is basic, but ", "My kid just asked me this: ", "Settle a bet for us: ", "I always forget — ", "ok so ", "Before my trip, "}

var closers = []string{"", " Thanks!", " No need to look anything up, just roughly.", " thx", " Just curious.", " (for a quiz tonight)", " Asking for a school project.", " A ballpark is fine."}

// compose wraps a core question in the i-th opener/closer combination, so
// that every text of a category is phrased a little differently.
func compose(i int, core string) string {
	o := openers[i%len(openers)]
	c := closers[(i/len(openers)+i)%len(closers)]
	if o != "" && !strings.HasSuffix(o, ": ") && !strings.HasSuffix(o, "— ") && !strings.HasSuffix(o, "! ") {
		core = lowerFirst(core)
	}
	return o + core + c
}

func lowerFirst(s string) string {
	if s == "" || strings.HasPrefix(s, "I ") || strings.HasPrefix(s, "I'") {
		return s
	}
	r := []rune(s)
	if len(r) > 1 && r[1] >= 'A' && r[1] <= 'Z' {
		return s
	}
	return strings.ToLower(string(r[:1])) + string(r[1:])
}

type climate struct {
	High []float64 `json:"high_c"`
	Low  []float64 `json:"low_c"`
	Rain []float64 `json:"rain_days"`
}

func (g *gen) typeI() {
	var n int
	add := func(cat, tempting, text, ref string, kps ...string) {
		n++
		id := fmt.Sprintf("I-%s-%03d", cat, n)
		g.add(evaltasks.Instruction{ID: id, Type: evaltasks.TypeNoTool, Text: text, Scenario: g.scenario(tempting), TemptingAPI: tempting, ReferenceAnswer: ref, KeyPoints: kps})
	}
	w := g.world
	cities := append([]*world.City(nil), w.Cities()...)

	// Climate: "what is it usually like" (seed 004's own example).
	var cl struct {
		Cities map[string]climate `json:"cities"`
	}
	if data, err := fs.ReadFile(fixtures.FS, "world/climate.json"); err == nil {
		_ = json.Unmarshal(data, &cl)
	}
	climateCores := []func(c, m string) string{
		func(c, m string) string { return fmt.Sprintf("What's the weather usually like in %s in %s?", c, m) },
		func(c, m string) string { return fmt.Sprintf("How hot does %s typically get in %s?", c, m) },
		func(c, m string) string { return fmt.Sprintf("Is %s generally rainy in %s, or mostly dry?", c, m) },
		func(c, m string) string {
			return fmt.Sprintf("What kind of clothes should I pack for %s in %s, climate-wise?", c, m)
		},
		func(c, m string) string { return fmt.Sprintf("Average temperatures in %s during %s?", c, m) },
		func(c, m string) string {
			return fmt.Sprintf("Is %s a good time to visit %s weather-wise, in general?", m, c)
		},
		func(c, m string) string { return fmt.Sprintf("What's the typical climate of %s in %s?", c, m) },
		func(c, m string) string { return fmt.Sprintf("Does it normally get cold in %s in %s?", c, m) },
	}
	climateCores = append(climateCores,
		func(c, m string) string {
			return fmt.Sprintf("Thinking of %s for a %s wedding. Usually warm enough for an outdoor ceremony?", c, m)
		},
		func(c, m string) string {
			return fmt.Sprintf("In general, what are %s days like in %s — sweater or t-shirt?", m, c)
		},
		func(c, m string) string {
			return fmt.Sprintf("Historically, how much does it rain in %s during %s?", c, m)
		},
		func(c, m string) string {
			return fmt.Sprintf("my grandparents want to winter somewhere mild. how is %s normally in %s", c, m)
		},
	)
	ci := 0
	for i, c := range cities {
		k, ok := cl.Cities[c.ID]
		if !ok || len(k.High) != 12 {
			continue
		}
		m := (i*5 + 3 + 4*(i%2)) % 12
		month := time.Month(m + 1).String()
		hi, lo := fmt.Sprintf("%.0f °C", k.High[m]), fmt.Sprintf("%.0f °C", k.Low[m])
		wet := "fairly dry"
		if k.Rain[m] >= 10 {
			wet = "often wet"
		}
		ref := fmt.Sprintf("In %s, %s usually has daytime highs around %s and lows around %s, with rain on about %.0f days of the month, so it is %s. These are long-term averages; a forecast closer to the date gives the actual weather.", month, c.Name, hi, lo, k.Rain[m], wet)
		text := compose(ci, climateCores[ci%len(climateCores)](c.Name, month))
		add("climate", pick(c.ID, []string{"weatherapi_com.forecast_weather_api", "weatherapi_com.realtime_weather_api", "open_weather.city_weather"}), text, ref, hi, lo)
		ci++
	}

	// Capitals, currencies, languages, calling codes: encyclopedic facts.
	countries := append([]*world.Country(nil), w.Countries()...)
	sort.Slice(countries, func(i, j int) bool { return countries[i].Alpha2 < countries[j].Alpha2 })
	capCores := []func(c string) string{
		func(c string) string { return fmt.Sprintf("What's the capital of %s?", c) },
		func(c string) string { return fmt.Sprintf("Which city is the capital of %s?", c) },
		func(c string) string { return fmt.Sprintf("%s's capital city is what again?", c) },
		func(c string) string { return fmt.Sprintf("Name the capital of %s.", c) },
		func(c string) string {
			return fmt.Sprintf("Where is the seat of government of %s — what's the capital called?", c)
		},
		func(c string) string { return fmt.Sprintf("Doing a crossword: capital of %s, any idea?", c) },
		func(c string) string {
			return fmt.Sprintf("Is the largest city of %s also its capital? Which city is the capital?", c)
		},
		func(c string) string { return fmt.Sprintf("My geography homework wants the capital of %s.", c) },
	}
	curCores := []func(c string) string{
		func(c string) string { return fmt.Sprintf("What currency do they use in %s?", c) },
		func(c string) string {
			return fmt.Sprintf("Which money should I bring to %s — what's the local currency?", c)
		},
		func(c string) string { return fmt.Sprintf("What's the official currency of %s called?", c) },
		func(c string) string { return fmt.Sprintf("In %s, do they pay in euros or something else?", c) },
		func(c string) string {
			return fmt.Sprintf("Heading to %s next month, which notes will I be carrying?", c)
		},
		func(c string) string { return fmt.Sprintf("Money in %s — what's it called there?", c) },
	}
	langCores := []func(c string) string{
		func(c string) string { return fmt.Sprintf("What language do people speak in %s?", c) },
		func(c string) string { return fmt.Sprintf("What's the main official language of %s?", c) },
		func(c string) string {
			return fmt.Sprintf("If I go to %s, which language should I try to learn a few words of?", c)
		},
		func(c string) string { return fmt.Sprintf("Which language is spoken in %s?", c) },
		func(c string) string {
			return fmt.Sprintf("Do people in %s mostly speak English, or another language?", c)
		},
		func(c string) string {
			return fmt.Sprintf("Learning a language for my move to %s. Which one do I need?", c)
		},
	}
	callCores := []func(c string) string{
		func(c string) string { return fmt.Sprintf("What's the international dialling code for %s?", c) },
		func(c string) string { return fmt.Sprintf("Which country code do I dial to call %s from abroad?", c) },
		func(c string) string { return fmt.Sprintf("Phone prefix for %s?", c) },
		func(c string) string {
			return fmt.Sprintf("Calling my aunt in %s tonight; what do I put before her number?", c)
		},
	}
	currencyName := map[string]string{}
	for _, c := range w.Currencies() {
		currencyName[c.Code] = c.Name
	}
	langName := map[string]string{}
	for _, l := range w.Languages() {
		langName[l.Code] = l.Name
	}
	var capI, curI, langI, callI int
	for i, c := range countries {
		if c.Capital != "" {
			ref := fmt.Sprintf("The capital of %s is %s.", c.Name, c.Capital)
			add("capital", pick(c.Alpha2+"cap", []string{"iso_codes.country_by_code", "iso_codes.country_codes", "web_search.web_search"}), compose(capI+3, capCores[capI%len(capCores)](c.Name)), ref, c.Capital)
			capI++
		}
		if name := currencyName[c.Currency]; name != "" && i%3 != 2 {
			ref := fmt.Sprintf("%s uses the %s (%s).", c.Name, name, c.Currency)
			add("currency", pick(c.Alpha2+"cur", []string{"currency_exchange.listquotes", "currency_exchange.exchange"}), compose(curI+5, curCores[curI%len(curCores)](c.Name)), ref, name)
			curI++
		}
		if len(c.Languages) > 0 && langName[c.Languages[0]] != "" && i%3 != 0 {
			l := langName[c.Languages[0]]
			ref := fmt.Sprintf("The main official language of %s is %s.", c.Name, l)
			add("language", pick(c.Alpha2+"lang", []string{"iso_codes.language_codes", "google_translate.supported_languages"}), compose(langI+7, langCores[langI%len(langCores)](c.Name)), ref, l)
			langI++
		}
		if c.CallingCode != "" {
			ref := fmt.Sprintf("The international calling code for %s is %s.", c.Name, c.CallingCode)
			add("calling", "iso_codes.country_by_code", compose(callI+2, callCores[callI%len(callCores)](c.Name)), ref, c.CallingCode)
			callI++
		}
	}

	// Time zones of cities.
	tzCores := []func(c string) string{
		func(c string) string { return fmt.Sprintf("Which time zone is %s in?", c) },
		func(c string) string { return fmt.Sprintf("What's the IANA time zone name for %s?", c) },
		func(c string) string {
			return fmt.Sprintf("Does %s share a time zone with anywhere I'd know? What zone is it?", c)
		},
		func(c string) string {
			return fmt.Sprintf("Setting up a server clock for our %s office. Which tz database zone?", c)
		},
		func(c string) string { return fmt.Sprintf("For my calendar app, %s is in which zone?", c) },
	}
	tzI := 0
	for i, c := range cities {
		if i%3 == 0 {
			continue
		}
		ref := fmt.Sprintf("%s is in the %s time zone.", c.Name, c.TimeZone)
		add("timezone", pick(c.ID+"tz", []string{"world_time.timezone_info", "weatherapi_com.time_zone_api", "agent_clock.get_current_time"}), compose(tzI+1, tzCores[tzI%len(tzCores)](c.Name)), ref, c.TimeZone)
		tzI++
	}

	// Simple arithmetic and conversions: trivial enough to do in one's head.
	arCores := []func(a, b int) (string, string){
		func(a, b int) (string, string) { return fmt.Sprintf("What's %d times %d?", a, b), strconv.Itoa(a * b) },
		func(a, b int) (string, string) {
			return fmt.Sprintf("what is %d plus %d", a*10, b), strconv.Itoa(a*10 + b)
		},
		func(a, b int) (string, string) { return fmt.Sprintf("Half of %d?", a*b*2), strconv.Itoa(a * b) },
		func(a, b int) (string, string) {
			return fmt.Sprintf("How much is %d minus %d?", a*b+50, b), strconv.Itoa(a*b + 50 - b)
		},
		func(a, b int) (string, string) {
			return fmt.Sprintf("If I split %d euros between %d friends, how much does each get?", a*b, b), strconv.Itoa(a)
		},
		func(a, b int) (string, string) { return fmt.Sprintf("What's 10%% of %d?", a*b*10), strconv.Itoa(a * b) },
	}
	for i := 0; i < 42; i++ {
		a, b := 3+i%9, 2+(i*7)%11
		q, ans := arCores[i%len(arCores)](a, b)
		add("arithmetic", pick(q, []string{"calculator.calculate", "python_interpreter.run_python"}), compose(i+4, q), "The answer is "+ans+".", ans)
	}
	convCores := []func(v int) (string, string, string){
		func(v int) (string, string, string) {
			r := strconv.FormatFloat(math.Round(float64(v)*0.621371*10)/10, 'f', -1, 64)
			return fmt.Sprintf("How many miles is %d km?", v), fmt.Sprintf("%d km is about %s miles (1 km ≈ 0.62 miles).", v, r), r
		},
		func(v int) (string, string, string) {
			f := strconv.FormatFloat(float64(v)*9/5+32, 'f', -1, 64)
			return fmt.Sprintf("%d degrees Celsius in Fahrenheit?", v), fmt.Sprintf("%d °C is %s °F (multiply by 9/5 and add 32).", v, f), f
		},
		func(v int) (string, string, string) {
			r := strconv.FormatFloat(math.Round(float64(v)*2.20462*10)/10, 'f', -1, 64)
			return fmt.Sprintf("Convert %d kg to pounds roughly.", v), fmt.Sprintf("%d kg is about %s lb (1 kg ≈ 2.2 lb).", v, r), r
		},
		func(v int) (string, string, string) {
			r := strconv.Itoa(v * 60)
			return fmt.Sprintf("How many minutes are in %d hours?", v), fmt.Sprintf("%d hours are %s minutes.", v, r), r
		},
	}
	for i := 0; i < 32; i++ {
		v := 5 + (i*13)%90
		q, ref, kp := convCores[i%len(convCores)](v)
		add("conversion", "calculator.calculate", compose(i+9, q), ref, kp)
	}

	// Everyday phrases a traveller knows or any phrasebook gives.
	var pb struct {
		Entries []map[string]string `json:"entries"`
	}
	if data, err := fs.ReadFile(fixtures.FS, "world/phrasebook.json"); err == nil {
		_ = json.Unmarshal(data, &pb)
	}
	langs := []struct{ code, name string }{{"es", "Spanish"}, {"fr", "French"}, {"de", "German"}, {"it", "Italian"}, {"pt", "Portuguese"}}
	phCores := []func(p, l string) string{
		func(p, l string) string { return fmt.Sprintf("How do you say \"%s\" in %s?", p, l) },
		func(p, l string) string { return fmt.Sprintf("What's \"%s\" in %s?", p, l) },
		func(p, l string) string {
			return fmt.Sprintf("I'm off to a %s-speaking country. What's the word for \"%s\"?", l, p)
		},
		func(p, l string) string { return fmt.Sprintf("%s for \"%s\"?", l, p) },
	}
	for i, e := range pb.Entries {
		if i >= 60 || i%3 == 2 {
			continue
		}
		l := langs[i%len(langs)]
		tr := e[l.code]
		if tr == "" || len(e["en"]) < 2 {
			continue
		}
		ref := fmt.Sprintf("In %s, \"%s\" is \"%s\".", l.name, e["en"], tr)
		add("phrase", "google_translate.translate", compose(i, phCores[i%len(phCores)](e["en"], l.name)), ref, tr)
	}

	// Concepts: what a thing is, how to do an everyday thing.
	concepts := []struct{ tempting, text, ref string }{
		{"airport_info.airport", "What is an IATA airport code, actually?", "An IATA code is the three-letter code the International Air Transport Association assigns to an airport, like LHR for London Heathrow."},
		{"tasty.recipes_list", "How do I cook rice on the stove?", "Rinse the rice, use about 1.5 to 2 cups of water per cup of rice, bring to a boil, then cover and simmer on low for about 15 to 18 minutes and let it rest."},
		{"tasty.recipes_get_more_info", "how long should I boil an egg for a runny yolk", "For a runny yolk, boil the egg for about 6 minutes, then cool it in cold water."},
		{"ocr_extract_text.ocr_image_url", "What does OCR stand for?", "OCR stands for optical character recognition: software that reads text from images."},
		{"image_file_processing.convert_image_format", "What's the difference between PNG and JPEG?", "PNG is lossless and supports transparency; JPEG uses lossy compression and gives smaller files for photos."},
		{"ip_geolocation.get_client_ip", "What is an IP address, in simple terms?", "An IP address is the numeric address that identifies a device on a network so data can reach it."},
		{"public_holiday.long_weekends", "What's a bridge day?", "A bridge day is a working day between a public holiday and a weekend that people take off to make a long weekend."},
		{"currency_exchange.exchange", "Why do exchange rates change every day?", "Exchange rates float with supply and demand for currencies, driven by interest rates, trade and market expectations."},
		{"world_time.timezone_info", "What does UTC mean?", "UTC is Coordinated Universal Time, the time standard the world's time zones are defined against."},
		{"calendar_tools.check_month_calendar", "How many days does February have in a leap year?", "In a leap year February has 29 days."},
		{"calendar_tools.day_of_week", "How do I know if a year is a leap year?", "A year is a leap year if it is divisible by 4, except century years, which must be divisible by 400."},
		{"public_holiday.public_holidays", "When is Christmas Day?", "Christmas Day is on 25 December."},
		{"background_removal.remove_background", "What does removing the background of a photo mean?", "It means cutting the subject out so the background becomes transparent or plain."},
		{"web_search.web_search", "Who wrote the novel 1984?", "George Orwell wrote 1984, published in 1949."},
		{"web_search.web_search", "What's the boiling point of water at sea level?", "Water boils at 100 °C (212 °F) at sea level."},
		{"geocoding.forward_geocode", "What are latitude and longitude?", "Latitude measures position north or south of the equator and longitude east or west of the Greenwich meridian, in degrees."},
		{"google_translate.detect_language", "Which language uses the word 'obrigado' for thanks?", "Obrigado is Portuguese for thank you."},
		{"skyscanner80.flights_search_one_way", "Is it usually cheaper to book flights on a Tuesday?", "Not reliably: prices depend mostly on demand and how far ahead you book, not the weekday you book on."},
		{"booking_com.search_hotels", "What's the difference between a hotel and a hostel?", "A hostel rents cheaper beds, often in shared dorms with shared facilities; a hotel rents private rooms with more services."},
		{"travel_advisor.attractions_list", "Why is the Eiffel Tower famous?", "The Eiffel Tower, built for the 1889 World's Fair in Paris, is an iconic wrought-iron tower and the symbol of France."},
		{"object_detection.detect_objects", "How does object detection differ from image classification?", "Classification gives one label for the whole image; object detection finds each object and draws a box around it."},
		{"real_time_news_data.top_headlines", "What is a news headline supposed to do?", "A headline summarises the story in a few words to catch the reader's attention."},
		{"python_interpreter.run_python", "What does the print function do in Python?", "print writes its arguments as text to the standard output."},
		{"user_info.get_user_profile", "What's a good way to make a strong password?", "Use a long passphrase of several random words, unique for each site, ideally stored in a password manager."},
	}
	for i, c := range concepts {
		add("concept", c.tempting, compose(i+2, c.text), c.ref, firstWords(c.ref))
	}
}

// firstWords is a reference answer's key point: its opening clause.
func firstWords(s string) string {
	for _, sep := range []string{":", ",", ";", "."} {
		if i := strings.Index(s, sep); i > 10 {
			s = s[:i]
			break
		}
	}
	return s
}
