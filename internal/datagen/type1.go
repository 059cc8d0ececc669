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

	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/mocks/world"
)

// Type I: questions answerable from general knowledge where a tool looks
// tempting. Facts come from the world data, so reference answers agree
// with what the stand-ins would say.

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

// variant is one phrasing of a Type-I record with the key points that
// answer exactly what that phrasing asks.
type variant struct {
	text string
	kps  []string
	ref  string // when the phrasing has its own reference answer
}

// rot lists the phrasings of a record starting at its preferred one, so
// that a phrasing too close to one already kept gives way to the next.
func rot[T any](list []T, start int) []T {
	out := make([]T, 0, len(list))
	for i := range list {
		out = append(out, list[(start+i)%len(list)])
	}
	return out
}

// each applies every core to a value, keeping the key points.
func each(cores []func(string) string, val string, kps ...string) []variant {
	out := make([]variant, len(cores))
	for i, f := range cores {
		out[i] = variant{text: f(val), kps: kps}
	}
	return out
}

func (g *gen) typeI() {
	var n int
	add := func(cat, tempting, ref string, vs []variant) {
		n++
		id := fmt.Sprintf("I-%s-%03d", cat, n)
		cands := make([]dataset.Instruction, len(vs))
		for i, v := range vs {
			r := ref
			if v.ref != "" {
				r = v.ref
			}
			cands[i] = dataset.Instruction{ID: id, Type: dataset.TypeNoTool, Text: v.text, Scenario: g.scenario(tempting), TemptingAPI: tempting, ReferenceAnswer: r, KeyPoints: v.kps}
		}
		g.add(cands...)
	}
	w := g.world
	cities := append([]*world.City(nil), w.Cities()...)

	// Climate: "what is it usually like" (the paper's own example). Each
	// phrasing says what it asks about, and its key points are that: a
	// question about rain is answered by the rainy days, not the
	// temperatures.
	var cl struct {
		Cities map[string]climate `json:"cities"`
	}
	if data, err := fs.ReadFile(fixtures.FS, "world/climate.json"); err == nil {
		_ = json.Unmarshal(data, &cl)
	}
	const (
		both = iota // highs and lows
		hot         // highs
		cold        // lows
		wet         // rainy days
		all         // highs, lows and rainy days
	)
	type climateCore struct {
		f     func(c, m string) string
		topic int
	}
	cc := func(topic int, format string, monthFirst bool) climateCore {
		return climateCore{func(c, m string) string {
			if monthFirst {
				return fmt.Sprintf(format, m, c)
			}
			return fmt.Sprintf(format, c, m)
		}, topic}
	}
	climateCores := []climateCore{
		cc(both, "What's the weather usually like in %s in %s?", false),
		cc(hot, "How hot does %s typically get in %s?", false),
		cc(wet, "Is %s generally rainy in %s, or mostly dry?", false),
		cc(both, "What kind of clothes should I pack for %s in %s, climate-wise?", false),
		cc(both, "Average temperatures in %s during %s?", false),
		cc(all, "Is %s a good time to visit %s weather-wise, in general?", true),
		cc(both, "What's the typical climate of %s in %s?", false),
		cc(cold, "Does it normally get cold at night in %s in %s?", false),
		cc(hot, "Thinking of %s for a %s wedding. Usually warm enough for an outdoor ceremony?", false),
		cc(hot, "In general, what are %s days like in %s — sweater or t-shirt?", true),
		cc(wet, "Historically, how much does it rain in %s during %s?", false),
		cc(both, "my grandparents want to winter somewhere mild. how is %s normally in %s", false),
		cc(hot, "Can you tell me roughly how warm %s usually is in %s?", false),
		cc(wet, "Roughly how many rainy days does %s get in a typical %s?", false),
		cc(both, "Tell me what %s is normally like in %s, temperature-wise.", false),
		cc(cold, "Find me the usual night-time low for %s in %s, ballpark.", false),
		cc(both, "Show me what a typical %s in %s feels like: warm or chilly?", true),
		cc(wet, "Do I need to pack an umbrella for %s in %s, as a rule?", false),
		cc(both, "What temperatures can I expect in %s in an average %s?", false),
		cc(hot, "How warm do afternoons get in %s in %s, on average?", false),
		cc(cold, "How chilly are the nights in %s during a normal %s?", false),
		cc(wet, "Is %s a wet month in %s, generally speaking?", true),
		cc(both, "Find me the average highs and lows for %s in %s.", false),
		cc(all, "Going to %s in %s. What's the climate normally like?", false),
		cc(hot, "Will I be sweating in %s in %s, typically?", false),
		cc(wet, "How often does it rain in %s in %s, on a normal year?", false),
		cc(both, "Can you give me the usual day and night temperatures of %s in %s?", false),
		cc(cold, "What's a normal overnight low in %s for %s?", false),
	}
	ci := 0
	for i, c := range cities {
		k, ok := cl.Cities[c.ID]
		if !ok || len(k.High) != 12 {
			continue
		}
		m := (i*5 + 3 + 4*(i%2)) % 12
		month := time.Month(m + 1).String()
		hi, lo, rain := fmt.Sprintf("%.0f °C", k.High[m]), fmt.Sprintf("%.0f °C", k.Low[m]), fmt.Sprintf("%.0f days", k.Rain[m])
		dry := "fairly dry"
		if k.Rain[m] >= 10 {
			dry = "often wet"
		}
		ref := fmt.Sprintf("In %s, %s usually has daytime highs around %s and lows around %s, with rain on about %s of the month, so it is %s. These are long-term averages; a forecast closer to the date gives the actual weather.", month, c.Name, hi, lo, rain, dry)
		kps := map[int][]string{both: {hi, lo}, hot: {hi}, cold: {lo}, wet: {rain}, all: {hi, lo, rain}}
		var vs []variant
		for _, core := range rot(climateCores, ci) {
			vs = append(vs, variant{text: core.f(c.Name, month), kps: kps[core.topic]})
		}
		add("climate", pick(c.ID, []string{"weatherapi_com.forecast_weather_api", "weatherapi_com.realtime_weather_api", "open_weather.city_weather"}), ref, vs)
		ci++
	}

	// Capitals, currencies, languages, calling codes: encyclopedic facts.
	countries := append([]*world.Country(nil), w.Countries()...)
	sort.Slice(countries, func(i, j int) bool { return countries[i].Alpha2 < countries[j].Alpha2 })
	f1 := func(format string) func(string) string {
		return func(c string) string { return fmt.Sprintf(format, c) }
	}
	capCores := []func(string) string{
		f1("What's the capital of %s?"),
		f1("Which city is the capital of %s?"),
		f1("What was the capital of %s again?"),
		f1("Name the capital of %s."),
		f1("Where is the seat of government of %s — what's the capital called?"),
		f1("Doing a crossword: capital of %s, any idea?"),
		f1("Is the largest city of %s also its capital? Which city is the capital?"),
		f1("My geography homework wants the capital of %s."),
		f1("Can you remind me what the capital of %s is?"),
		f1("Tell me the capital of %s."),
		f1("Find me the name of the capital of %s, it's for a pub quiz."),
		f1("Any idea what the capital city of %s is?"),
		f1("I keep mixing it up: what is the capital of %s?"),
		f1("Show me which city is the capital of %s, I'm making flashcards."),
	}
	curCores := []func(string) string{
		f1("What currency do they use in %s?"),
		f1("Which money should I bring to %s — what's the local currency?"),
		f1("What's the official currency of %s called?"),
		f1("In %s, do they pay in euros or something else?"),
		f1("Heading to %s next month, which notes will I be carrying?"),
		f1("Money in %s — what's it called there?"),
		f1("Can you tell me which currency %s uses?"),
		f1("Tell me the name of the currency in %s."),
		f1("What do people pay with in %s, which currency?"),
		f1("Find me the currency of %s for my packing list."),
	}
	langCores := []func(string) string{
		f1("What language do people speak in %s?"),
		f1("What's the main official language of %s?"),
		f1("If I go to %s, which language should I try to learn a few words of?"),
		f1("Which language is spoken in %s?"),
		f1("Do people in %s mostly speak English, or another language?"),
		f1("Learning a language for my move to %s. Which one do I need?"),
		f1("Can you tell me the official language of %s?"),
		f1("Tell me which language they speak in %s."),
		f1("Show me which language I'd hear on the street in %s."),
	}
	callCores := []func(string) string{
		f1("What's the international dialling code for %s?"),
		f1("Which country code do I dial to call %s from abroad?"),
		f1("Phone prefix for %s?"),
		f1("Calling my aunt in %s tonight; what do I put before her number?"),
		f1("Can you remind me of the country calling code for %s?"),
		f1("Tell me the dialling prefix for %s."),
		f1("What's the plus code I need to phone %s?"),
		f1("Which digits go after the plus sign when I call %s?"),
		f1("Find me the international code for ringing %s."),
		f1("How do I dial %s from another country, which code?"),
		f1("What's the country code for phone numbers in %s?"),
		f1("My friend in %s gave me a local number. What code goes in front?"),
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
			add("capital", pick(c.Alpha2+"cap", []string{"iso_codes.country_by_code", "iso_codes.country_codes", "web_search.web_search"}), ref, each(rot(capCores, capI), c.Name, c.Capital))
			capI++
		}
		if name := currencyName[c.Currency]; name != "" && i%3 != 2 {
			ref := fmt.Sprintf("%s uses the %s (%s).", c.Name, name, c.Currency)
			add("currency", pick(c.Alpha2+"cur", []string{"currency_exchange.listquotes", "currency_exchange.exchange"}), ref, each(rot(curCores, curI), c.Name, name))
			curI++
		}
		if len(c.Languages) > 0 && langName[c.Languages[0]] != "" && i%3 != 0 {
			l := langName[c.Languages[0]]
			ref := fmt.Sprintf("The main official language of %s is %s.", c.Name, l)
			add("language", pick(c.Alpha2+"lang", []string{"iso_codes.language_codes", "google_translate.supported_languages"}), ref, each(rot(langCores, langI), c.Name, l))
			langI++
		}
		if c.CallingCode != "" {
			ref := fmt.Sprintf("The international calling code for %s is %s.", c.Name, c.CallingCode)
			add("calling", "iso_codes.country_by_code", ref, each(rot(callCores, callI), c.Name, c.CallingCode))
			callI++
		}
	}

	// Time zones of cities.
	tzCores := []func(string) string{
		f1("Which time zone is %s in?"),
		f1("What's the IANA time zone name for %s?"),
		f1("Does %s share a time zone with anywhere I'd know? What zone is it?"),
		f1("Setting up a server clock for our %s office. Which tz database zone?"),
		f1("For my calendar app, %s is in which zone?"),
		f1("Can you tell me which time zone %s uses?"),
		f1("Tell me the tz name for %s."),
		f1("Find me the time zone identifier for %s, I'm filling in a config file."),
		f1("In which time zone does %s sit?"),
		f1("What zone should my calendar use for meetings in %s?"),
		f1("Show me the Region/City zone name for %s."),
	}
	tzI := 0
	for i, c := range cities {
		if i%3 == 0 {
			continue
		}
		ref := fmt.Sprintf("%s is in the %s time zone.", c.Name, c.TimeZone)
		add("timezone", pick(c.ID+"tz", []string{"world_time.timezone_info", "weatherapi_com.time_zone_api", "agent_clock.get_current_time"}), ref, each(rot(tzCores, tzI), c.Name, c.TimeZone))
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
		func(a, b int) (string, string) {
			return fmt.Sprintf("Can you work out %d times %d?", a, b), strconv.Itoa(a * b)
		},
		func(a, b int) (string, string) {
			return fmt.Sprintf("Show me %d plus %d, I want to check my homework.", a*10, b), strconv.Itoa(a*10 + b)
		},
		func(a, b int) (string, string) {
			return fmt.Sprintf("Tell me what %d divided by %d is.", a*b, b), strconv.Itoa(a)
		},
		func(a, b int) (string, string) {
			return fmt.Sprintf("I bought %d packs of %d pencils. How many pencils is that?", a, b), strconv.Itoa(a * b)
		},
		func(a, b int) (string, string) {
			return fmt.Sprintf("Find the sum of %d and %d.", a*10, b), strconv.Itoa(a*10 + b)
		},
		func(a, b int) (string, string) {
			return fmt.Sprintf("Double %d, then add %d: what do I get?", a, b), strconv.Itoa(2*a + b)
		},
	}
	for i := 0; i < 42; i++ {
		a, b := 3+i%9, 2+(i*7)%11
		var vs []variant
		for _, f := range rot(arCores, i) {
			q, ans := f(a, b)
			vs = append(vs, variant{q, []string{ans}, "The answer is " + ans + "."})
		}
		tempting := pick(vs[0].text, []string{"calculator.calculate", "python_interpreter.run_python"})
		add("arithmetic", tempting, "", vs)
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
		func(v int) (string, string, string) {
			r := strconv.FormatFloat(math.Round(float64(v)*0.621371*10)/10, 'f', -1, 64)
			return fmt.Sprintf("Can you convert %d km into miles for my running log?", v), fmt.Sprintf("%d km is about %s miles (1 km ≈ 0.62 miles).", v, r), r
		},
		func(v int) (string, string, string) {
			f := strconv.FormatFloat(float64(v)*9/5+32, 'f', -1, 64)
			return fmt.Sprintf("Tell me what %d °C is in Fahrenheit.", v), fmt.Sprintf("%d °C is %s °F (multiply by 9/5 and add 32).", v, f), f
		},
		func(v int) (string, string, string) {
			r := strconv.FormatFloat(math.Round(float64(v)*2.20462*10)/10, 'f', -1, 64)
			return fmt.Sprintf("Roughly how many pounds does a %d kg suitcase weigh?", v), fmt.Sprintf("%d kg is about %s lb (1 kg ≈ 2.2 lb).", v, r), r
		},
		func(v int) (string, string, string) {
			r := strconv.Itoa(v * 60)
			return fmt.Sprintf("Show me how many minutes %d hours make.", v), fmt.Sprintf("%d hours are %s minutes.", v, r), r
		},
		func(v int) (string, string, string) {
			r := strconv.FormatFloat(math.Round(float64(v)*0.621371*10)/10, 'f', -1, 64)
			return fmt.Sprintf("A %d km drive is how far in miles, approximately?", v), fmt.Sprintf("%d km is about %s miles (1 km ≈ 0.62 miles).", v, r), r
		},
		func(v int) (string, string, string) {
			f := strconv.FormatFloat(float64(v)*9/5+32, 'f', -1, 64)
			return fmt.Sprintf("The recipe says %d °C; what's that on a Fahrenheit oven?", v), fmt.Sprintf("%d °C is %s °F (multiply by 9/5 and add 32).", v, f), f
		},
		func(v int) (string, string, string) {
			r := strconv.Itoa(v * 60)
			return fmt.Sprintf("A %d-hour flight is how many minutes?", v), fmt.Sprintf("%d hours are %s minutes.", v, r), r
		},
		func(v int) (string, string, string) {
			r := strconv.FormatFloat(math.Round(float64(v)*0.621371*10)/10, 'f', -1, 64)
			return fmt.Sprintf("My bike ride was %d km. In miles that's about how much?", v), fmt.Sprintf("%d km is about %s miles (1 km ≈ 0.62 miles).", v, r), r
		},
		func(v int) (string, string, string) {
			r := strconv.FormatFloat(math.Round(float64(v)*2.20462*10)/10, 'f', -1, 64)
			return fmt.Sprintf("My dog weighs %d kg; what's that in pounds, roughly?", v), fmt.Sprintf("%d kg is about %s lb (1 kg ≈ 2.2 lb).", v, r), r
		},
		func(v int) (string, string, string) {
			r := strconv.Itoa(v * 60)
			return fmt.Sprintf("Work out the minutes in %d hours for my timesheet.", v), fmt.Sprintf("%d hours are %s minutes.", v, r), r
		},
		func(v int) (string, string, string) {
			f := strconv.FormatFloat(float64(v)*9/5+32, 'f', -1, 64)
			return fmt.Sprintf("It's %d degrees here (Celsius). What would an American call that?", v), fmt.Sprintf("%d °C is %s °F (multiply by 9/5 and add 32).", v, f), f
		},
	}
	for i := 0; i < 32; i++ {
		v := 5 + (i*13)%90
		var vs []variant
		for _, f := range rot(convCores, i) {
			q, ref, kp := f(v)
			vs = append(vs, variant{q, []string{kp}, ref})
		}
		add("conversion", "calculator.calculate", "", vs)
	}

	// Everyday phrases a traveller knows or any phrasebook gives.
	var pb struct {
		Entries []map[string]string `json:"entries"`
	}
	if data, err := fs.ReadFile(fixtures.FS, "world/phrasebook.json"); err == nil {
		_ = json.Unmarshal(data, &pb)
	}
	langs := []struct{ code, name string }{{"es", "Spanish"}, {"fr", "French"}, {"de", "German"}, {"it", "Italian"}, {"pt", "Portuguese"}}
	f2 := func(format string, langFirst bool) func(p, l string) string {
		return func(p, l string) string {
			if langFirst {
				return fmt.Sprintf(format, l, p)
			}
			return fmt.Sprintf(format, p, l)
		}
	}
	phCores := []func(p, l string) string{
		f2("How do you say \"%s\" in %s?", false),
		f2("What's \"%s\" in %s?", false),
		f2("I'm off to a %s-speaking country. What's the word for \"%s\"?", true),
		f2("%s for \"%s\"?", true),
		f2("Show me how to say \"%s\" in %s.", false),
		f2("Can you tell me the %s for \"%s\"?", true),
		f2("Find me the everyday %s phrase for \"%s\".", true),
		f2("Tell me how a local would say \"%s\" in %s.", false),
	}
	ph := 0
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
		var vs []variant
		for _, f := range rot(phCores, i+ph) {
			vs = append(vs, variant{text: f(e["en"], l.name), kps: []string{tr}})
		}
		ph++
		add("phrase", "google_translate.translate", ref, vs)
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
	for _, c := range concepts {
		add("concept", c.tempting, c.ref, []variant{{text: c.text, kps: []string{firstWords(c.ref)}}})
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
