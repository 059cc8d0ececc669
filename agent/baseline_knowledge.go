package agent

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/world"
)

// What the baseline knows without a tool: the sandbox world's facts about
// countries and cities, the world's monthly climate normals and its
// phrasebook (general knowledge a model would carry), trivial arithmetic
// and unit conversions. A question these answer needs no tool call, as long
// as it does not ask about the present ("right now", "today's forecast").

var (
	// presentRE marks a question about the present, which a tool answers.
	presentRE  = regexp.MustCompile(`(?i)\b(right now|now|today|tomorrow|this (week|weekend|morning|afternoon|evening)|current(ly)?|at the moment|forecast|latest|live|next \d+ days)\b`)
	capitalRE  = regexp.MustCompile(`(?i)\bcapital\b`)
	currencyRE = regexp.MustCompile(`(?i)\b(currency|currencies|money|cash|notes|coins|pay (in|with))\b`)
	convertRE  = regexp.MustCompile(`(?i)\b(convert|exchange|rate|rates|worth|how much is \d)`)
	languageRE = regexp.MustCompile(`(?i)\b(language|languages|speak|spoken)\b`)
	callingRE  = regexp.MustCompile(`(?i)\b(dial|dialling|dialing|calling code|phone (prefix|code)|telephone code|country code .*call|call .*country code|international code|prefix|before (his|her|their|my|the) (phone )?number)\b`)
	zoneRE     = regexp.MustCompile(`(?i)\btime ?zones?\b|\bzone\b|\btz\b|\biana\b`)
	clockRE    = regexp.MustCompile(`(?i)what time is it|current time|time (is it )?now|local time`)
	climateRE  = regexp.MustCompile(`(?i)\b(usually|typically|generally|normally|on average|average|climate|tend to|typical|mostly|in general)\b`)
	weatherRE  = regexp.MustCompile(`(?i)\b(weather|hot|cold|warm|cool|rain|rainy|dry|wet|temperature|temperatures|sunny|chilly|pack|sweater|jumper|jacket|coat|t-shirt|shorts)\b`)
	// recordRE asks for a full record or several facts at once: a lookup's job.
	recordRE = regexp.MustCompile(`(?i)\b(full|details?|record|everything|all (the )?(info|information|details)|offset|dst|daylight|airport)\b|\bcode [A-Z]{2,3}\b|\b[A-Z][a-z]+/[A-Z][A-Za-z_]+\b`)
	// doRE asks for work to be done: a translation, a calculation, a program run.
	doRE  = regexp.MustCompile(`(?i)\b(translate|translation|write|put|into|calculate|compute|run|python|exactly|precise|precisely)\b`)
	sayRE = regexp.MustCompile(`(?i)\b(say|said|for|in|translate|translation|mean)\b`)

	arithRE   = regexp.MustCompile(`(?i)(-?\d+(?:\.\d+)?)(\s*(?:times|multiplied by|×|\*|plus|\+|added to|minus|less|divided by|over|/|÷)\s*|\s+[x-]\s+)(-?\d+(?:\.\d+)?)`)
	unitCueRE = regexp.MustCompile(`(?i)\b(in|to|into|how many|how much|convert|equals?)\b`)
	halfRE    = regexp.MustCompile(`(?i)\b(half|a third|third|a quarter|quarter|double|twice|triple)\s+(?:of\s+)?(\d+(?:\.\d+)?)`)
	pctRE     = regexp.MustCompile(`(?i)(\d+(?:\.\d+)?)\s*(?:%|percent)\s+of\s+(\d+(?:\.\d+)?)`)
	splitRE   = regexp.MustCompile(`(?i)\b(?:split|share|divide)\s+(\d+(?:\.\d+)?)\D{0,30}?\b(?:between|among|by|into)\s+(\d+)`)
	sqRE      = regexp.MustCompile(`(?i)\b(\d+)\s+squared\b`)

	unitRE = regexp.MustCompile(`(?i)(-?\d+(?:\.\d+)?)\s*(°\s*[cf]\b|degrees? (?:celsius|fahrenheit|c|f)\b|celsius|fahrenheit|kilometres|kilometers|kilometre|kilometer|km|miles|mile|mi\b|kilograms|kilogram|kilos|kilo|kg|pounds|pound|lbs|lb|centimetres|centimeters|centimetre|centimeter|cm|inches|inch|feet|foot|ft|metres|meters|metre|meter|m\b|litres|liters|litre|liter|l\b|hours|hour|hrs|minutes|minute|mins|seconds|second|secs|weeks|week|days|day|gallons|gallon|ounces|ounce|oz|grams|gram|g\b)`)
)

// unit is one measure the baseline converts.
type unit struct {
	dim    string
	name   string  // the name in answers
	toBase float64 // base units per unit (°C and °F are special)
}

var units = map[string]unit{
	"km": {"len", "km", 1000}, "mile": {"len", "miles", 1609.344}, "cm": {"len", "cm", 0.01}, "inch": {"len", "inches", 0.0254},
	"foot": {"len", "feet", 0.3048}, "metre": {"len", "metres", 1},
	"kg": {"mass", "kg", 1000}, "pound": {"mass", "pounds", 453.59237}, "ounce": {"mass", "ounces", 28.349523125}, "gram": {"mass", "grams", 1},
	"litre": {"vol", "litres", 1}, "gallon": {"vol", "US gallons", 3.785411784},
	"hour": {"time", "hours", 3600}, "minute": {"time", "minutes", 60}, "second": {"time", "seconds", 1}, "day": {"time", "days", 86400}, "week": {"time", "weeks", 604800},
	"c": {"temp", "°C", 1}, "f": {"temp", "°F", 1},
}

// unitKey reads a unit word: "kilometres" → "km", "°F" → "f".
func unitKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(strings.TrimPrefix(s, "degrees "), "degree ")
	s = strings.TrimSpace(strings.TrimPrefix(s, "°"))
	switch {
	case s == "c" || s == "celsius":
		return "c"
	case s == "f" || s == "fahrenheit":
		return "f"
	case strings.HasPrefix(s, "kilom") || s == "km":
		return "km"
	case strings.HasPrefix(s, "mile") || s == "mi":
		return "mile"
	case strings.HasPrefix(s, "kilo") || s == "kg":
		return "kg"
	case strings.HasPrefix(s, "pound") || strings.HasPrefix(s, "lb"):
		return "pound"
	case strings.HasPrefix(s, "centim") || s == "cm":
		return "cm"
	case strings.HasPrefix(s, "inch"):
		return "inch"
	case s == "feet" || s == "foot" || s == "ft":
		return "foot"
	case strings.HasPrefix(s, "met") || s == "m":
		return "metre"
	case strings.HasPrefix(s, "lit") || s == "l":
		return "litre"
	case strings.HasPrefix(s, "hour") || s == "hrs":
		return "hour"
	case strings.HasPrefix(s, "min"):
		return "minute"
	case strings.HasPrefix(s, "sec"):
		return "second"
	case strings.HasPrefix(s, "day"):
		return "day"
	case strings.HasPrefix(s, "week"):
		return "week"
	case strings.HasPrefix(s, "gallon"):
		return "gallon"
	case strings.HasPrefix(s, "ounce") || s == "oz":
		return "ounce"
	case strings.HasPrefix(s, "gram") || s == "g":
		return "gram"
	}
	return ""
}

// knownAnswer answers a question the baseline can answer without a tool;
// false when a tool is needed or the question is outside what it knows.
func knownAnswer(query string, w *world.World) (string, bool) {
	if w == nil || recordRE.MatchString(query) {
		return "", false
	}
	kinds := 0
	for _, re := range []*regexp.Regexp{capitalRE, callingRE, currencyRE, languageRE, zoneRE} {
		if re.MatchString(query) {
			kinds++
		}
	}
	if kinds > 1 {
		return "", false // several facts of a record: a lookup
	}
	if doRE.MatchString(query) {
		return "", false
	}
	if a, ok := arithmeticAnswer(query); ok {
		return a, true
	}
	if a, ok := conversionAnswer(query); ok {
		return a, true
	}
	if a, ok := phraseAnswer(query, w); ok {
		return a, true
	}
	country := findCountry(query, w)
	city := findCity(query, w)
	switch {
	case country != nil && capitalRE.MatchString(query):
		return fmt.Sprintf("The capital of %s is %s.", country.Name, country.Capital), true
	case country != nil && callingRE.MatchString(query):
		return fmt.Sprintf("The international calling code of %s is %s.", country.Name, country.CallingCode), true
	case country != nil && currencyRE.MatchString(query) && !convertRE.MatchString(query) && !regexp.MustCompile(`\d`).MatchString(query):
		if c, ok := w.Currency(country.Currency); ok {
			return fmt.Sprintf("The currency of %s is the %s (%s, %s).", country.Name, c.Name, c.Code, c.Symbol), true
		}
	case country != nil && languageRE.MatchString(query) && !regexp.MustCompile(`(?i)translat|detect`).MatchString(query):
		var names []string
		for _, code := range country.Languages {
			if l, ok := w.Language(code); ok {
				names = append(names, l.Name)
			}
		}
		if len(names) > 0 {
			if len(names) == 1 {
				return fmt.Sprintf("The official language of %s is %s.", country.Name, names[0]), true
			}
			return fmt.Sprintf("The main official language of %s is %s; the official languages are %s.", country.Name, names[0], strings.Join(names, ", ")), true
		}
	}
	if city != nil && zoneRE.MatchString(query) && !clockRE.MatchString(query) && !presentRE.MatchString(query) {
		return fmt.Sprintf("%s is in the %s time zone (IANA name %s).", city.Name, city.TimeZone, city.TimeZone), true
	}
	if city != nil && (climateRE.MatchString(query) || weatherRE.MatchString(query)) && !presentRE.MatchString(query) {
		if m, ok := monthIn(query); ok {
			if row, ok := w.Climate(city.ID); ok {
				i := int(m) - 1
				return fmt.Sprintf("In %s, %s usually has highs around %s and lows around %s, with about %.0f rainy days in the month (%s).",
					m, city.Name, celsius(row.HighC[i]), celsius(row.LowC[i]), row.RainDays[i], rainWord(row.RainDays[i])), true
			}
		}
	}
	return "", false
}

func celsius(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " °C" }

func rainWord(days float64) string {
	switch {
	case days >= 12:
		return "often rainy"
	case days >= 6:
		return "some rain"
	}
	return "mostly dry"
}

// monthIn reads a month name from the question.
func monthIn(q string) (time.Month, bool) {
	for _, m := range monthOnlyRE.FindAllStringSubmatch(q, -1) {
		name := strings.ToLower(m[1])
		if name == "may" && !regexp.MustCompile(`\bMay\b`).MatchString(q) {
			continue // the verb
		}
		if name == "mar" || name == "jun" || name == "jul" || name == "oct" || name == "dec" || name == "jan" || name == "sep" {
			if !regexp.MustCompile(`(?i)\b` + name + `\b\.?`).MatchString(q) {
				continue
			}
		}
		if mo, ok := monthNames[name]; ok {
			return mo, true
		}
	}
	return 0, false
}

// ngrams lists the word runs of up to four words of q, longest first.
func ngrams(q string) []string {
	ws := regexp.MustCompile(`[\p{L}][\p{L}.'’-]*`).FindAllString(q, -1)
	for i, w := range ws {
		w = strings.TrimRight(w, ".")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		ws[i] = w
	}
	var out []string
	for n := 4; n >= 1; n-- {
		for i := 0; i+n <= len(ws); i++ {
			out = append(out, strings.Join(ws[i:i+n], " "))
		}
	}
	return out
}

// findCountry finds the country a question names: a name of four letters
// or more in any case, or a code written in capitals ("UK", "UAE").
func findCountry(q string, w *world.World) *world.Country {
	for _, g := range ngrams(q) {
		if len(g) < 4 && (g != strings.ToUpper(g) || len(g) < 2) {
			continue
		}
		if stopWords[strings.ToLower(g)] || fillerWords[strings.ToLower(g)] {
			continue
		}
		if c, ok := w.Country(g); ok {
			return c
		}
	}
	return nil
}

// findCity finds the city a question names, capitalised as names are.
func findCity(q string, w *world.World) *world.City {
	for _, g := range ngrams(q) {
		if len(g) < 3 || !startsUpper(g) || stopWords[strings.ToLower(g)] {
			continue
		}
		if c, ok := w.FindCity(g); ok {
			return c
		}
	}
	return nil
}

// findLanguage finds a language named in q, in any case ("italian").
func findLanguage(q string, w *world.World) *world.Language {
	for _, g := range regexp.MustCompile(`\p{L}+`).FindAllString(q, -1) {
		if len(g) < 4 {
			continue
		}
		if l, ok := w.Language(g); ok {
			return l
		}
	}
	return nil
}

// phraseAnswer translates a common phrase the phrasebook holds.
func phraseAnswer(q string, w *world.World) (string, bool) {
	if !sayRE.MatchString(q) {
		return "", false
	}
	for _, m := range quotedRE.FindAllStringSubmatch(q, -1) {
		phrase := ""
		for _, g := range m[1:] {
			if g != "" {
				phrase = g
				break
			}
		}
		key := strings.ToLower(strings.Trim(strings.TrimSpace(phrase), ".!?,"))
		l := findLanguage(strings.Replace(q, phrase, " ", 1), w)
		if l == nil {
			continue
		}
		for _, e := range w.Phrasebook() {
			if strings.ToLower(e["en"]) == key {
				if t, ok := e[l.Code]; ok && t != "" {
					return fmt.Sprintf("%q in %s is %q.", phrase, l.Name, t), true
				}
			}
		}
	}
	return "", false
}

// trivial tells whether an operand is small enough to work out by heart.
func trivial(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || strings.Contains(s, ".") || math.Abs(v) > 1000 {
		return 0, false
	}
	return v, true
}

// arithmeticAnswer works out trivial arithmetic: two small whole numbers.
func arithmeticAnswer(q string) (string, bool) {
	if urlRE.MatchString(q) {
		return "", false
	}
	if strings.Count(q, ",") > 0 && regexp.MustCompile(`\d,\d`).MatchString(q) {
		return "", false
	}
	nums := regexp.MustCompile(`\d+(?:\.\d+)?`).FindAllString(q, -1)
	var v float64
	switch {
	case pctRE.MatchString(q):
		m := pctRE.FindStringSubmatch(q)
		p, ok1 := trivial(m[1])
		n, ok2 := trivial(m[2])
		if !ok1 || !ok2 || len(nums) != 2 {
			return "", false
		}
		v = p * n / 100
	case splitRE.MatchString(q):
		m := splitRE.FindStringSubmatch(q)
		a, ok1 := trivial(m[1])
		n, ok2 := trivial(m[2])
		if !ok1 || !ok2 || n == 0 || len(nums) != 2 {
			return "", false
		}
		v = a / n
	case halfRE.MatchString(q):
		m := halfRE.FindStringSubmatch(q)
		a, ok := trivial(m[2])
		if !ok || len(nums) != 1 {
			return "", false
		}
		f := map[string]float64{"half": 0.5, "a third": 1.0 / 3, "third": 1.0 / 3, "a quarter": 0.25, "quarter": 0.25, "double": 2, "twice": 2, "triple": 3}
		v = a * f[strings.ToLower(m[1])]
	case sqRE.MatchString(q):
		a, ok := trivial(sqRE.FindStringSubmatch(q)[1])
		if !ok || len(nums) != 1 {
			return "", false
		}
		v = a * a
	case arithRE.MatchString(q):
		m := arithRE.FindStringSubmatch(q)
		a, ok1 := trivial(m[1])
		c, ok2 := trivial(m[3])
		if !ok1 || !ok2 || len(nums) != 2 {
			return "", false
		}
		switch strings.ToLower(strings.TrimSpace(m[2])) {
		case "times", "multiplied by", "x", "×", "*":
			v = a * c
		case "plus", "+", "added to":
			v = a + c
		case "minus", "-", "less":
			v = a - c
		default:
			if c == 0 {
				return "", false
			}
			v = a / c
		}
	default:
		return "", false
	}
	return "The answer is " + strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) + ".", true
}

// conversionAnswer converts a measure between common units.
func conversionAnswer(q string) (string, bool) {
	all := unitRE.FindAllStringSubmatchIndex(q, -1)
	if len(all) != 1 {
		return "", false
	}
	m := all[0]
	amount, err := strconv.ParseFloat(q[m[2]:m[3]], 64)
	if err != nil {
		return "", false
	}
	from := unitKey(q[m[4]:m[5]])
	if from == "" {
		return "", false
	}
	// The target is a unit word after the measure, else before it, else the default.
	to := ""
	rest := q[m[1]:] + " " + q[:m[0]]
	for _, w := range regexp.MustCompile(`°\s*[CFcf]\b|[\p{L}]+`).FindAllString(rest, -1) {
		if k := unitKey(w); k != "" && k != from && units[k].dim == units[from].dim && len(w) > 1 || (w == "F" || w == "C") && unitKey(w) != from {
			to = unitKey(w)
			break
		}
	}
	if to == "" || !unitCueRE.MatchString(q) || units[from].dim == "time" && presentRE.MatchString(q) {
		return "", false
	}
	if units[to].dim != units[from].dim {
		return "", false
	}
	var v float64
	switch {
	case from == "c" && to == "f":
		v = amount*9/5 + 32
	case from == "f" && to == "c":
		v = (amount - 32) * 5 / 9
	default:
		v = amount * units[from].toBase / units[to].toBase
	}
	return fmt.Sprintf("%s %s is about %s %s.", strconv.FormatFloat(amount, 'f', -1, 64), units[from].name,
		strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64), units[to].name), true
}
