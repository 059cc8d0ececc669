package textmatch

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Values in replies: numbers with their sign, scale and unit, clock times
// and calendar dates, read in the forms people write them, so that a fact
// is matched by meaning (18:00:00 = 6 PM; 2,167,973 = 2167973) and a sign
// is never lost (-1 °C is not 1 °C).

// Number is a numeric value stated in text.
type Number struct {
	Val float64
	// Hi is the upper end of a range ("20–25 °C"), else Val.
	Hi float64
	// Unit is "c" or "f" for temperatures, the singular of a unit word
	// written after the number otherwise ("day", "minute", "hour", "km",
	// "mile", "kg", "lb", "%"), "" for none.
	Unit string
	// Step is the precision the text states: 0.01 for "31.23", 10000
	// for "2.17 million", 1 for "18".
	Step float64
	// Start and End are the number's byte offsets in the text.
	Start, End int
	// Plus tells that the number is written with a plus ("+351").
	Plus bool
}

// numberRE reads a number: an optional minus, digits with optional
// thousands separators and decimals, an optional scale word and unit. A
// minus counts as a sign only where no letter or digit precedes it, so
// "476-34" is not negative; that check is in Numbers.
var numberRE = regexp.MustCompile(`(?i)(minus\s+|[-−]\s?|\+)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(million|billion|thousand|bn)\b)?(?:\s*(?:°\s*|º\s*|degrees?\s+)?(celsius|fahrenheit|c|f)\b|\s*(℃|℉))?(?:\s*°?\s*([NSEW])\b)?(?:\s*(%|percent\b|(?:(?:rainy|wet|dry|sunny|cloudy)\s+)?days?\b|hours?\b|hrs?\b|h\b|minutes?\b|mins?\b|seconds?\b|secs?\b|km\b|kilomet(?:er|re)s?\b|miles?\b|mi\b|kg\b|kilos?\b|kilograms?\b|lbs?\b|pounds?\b|mm\b|cm\b|metres?\b|meters?\b|ft\b|feet\b))?`)

// labelUnitRE finds a label naming a unit of time just before a value
// ("Rainy days: about ").
var labelUnitRE = regexp.MustCompile(`(?i)\b(days|hours|minutes)\s*:\s*(?:about|around|roughly|approximately|approx\.?|~)?\s*$`)

// labelUnit is the unit of time a label names at the end of prefix
// ("Rainy days: about "), "" for none. labelUnitRE is anchored at the end,
// but a regexp search tries every start, so matching the whole prefix for
// every number is quadratic in a reply's length; it is matched against
// the prefix from just before its last colon instead, which holds every
// match: neither the qualifiers nor \s hold a colon, and the label word,
// at most 8 bytes ("minuteſ" under (?i)), sits before the colon's spaces.
func labelUnit(prefix string) string {
	c := strings.LastIndexByte(prefix, ':')
	if c < 0 || len(strings.Trim(prefix[c+1:], reSpace)) > len("approximately") {
		return ""
	}
	lo := c
	for lo > 0 && strings.IndexByte(reSpace, prefix[lo-1]) >= 0 {
		lo--
	}
	// 16 bytes hold the word and the rune before it, which \b reads (a
	// rune cut in two reads as non-word, as any non-ASCII rune does).
	if g := labelUnitRE.FindStringSubmatch(prefix[max(0, lo-16):]); g != nil {
		return unitOf(g[1])
	}
	return ""
}

// reSpace is what \s matches in Go's regexp syntax.
const reSpace = "\t\n\f\r "

// rangeRE finds ranges between two numbers: "20-25", "20 – 25", "20 to 25".
var rangeRE = regexp.MustCompile(`^\s*(?:-|–|—|to)\s*$`)

var scales = map[string]float64{"thousand": 1e3, "million": 1e6, "billion": 1e9, "bn": 1e9}

// unitWords maps the unit words numberRE reads to their one name.
var unitWords = map[string]string{"%": "%", "percent": "%", "hour": "hour", "hours": "hour", "hr": "hour", "hrs": "hour",
	"h": "hour", "minute": "minute", "minutes": "minute", "min": "minute", "mins": "minute", "second": "second",
	"seconds": "second", "sec": "second", "secs": "second", "km": "km", "mile": "mile", "miles": "mile",
	"mi": "mile", "kg": "kg", "kilo": "kg", "kilos": "kg", "kilogram": "kg", "kilograms": "kg", "lb": "lb",
	"lbs": "lb", "pound": "lb", "pounds": "lb", "mm": "mm", "cm": "cm", "metre": "m", "metres": "m", "meter": "m",
	"meters": "m", "ft": "ft", "feet": "ft"}

// unitOf names the unit word of a match ("day" for "rainy days").
func unitOf(w string) string {
	w = strings.ToLower(w)
	if f := strings.Fields(w); len(f) > 0 && strings.HasPrefix(f[len(f)-1], "day") {
		return "day"
	}
	return unitWords[w]
}

// numbers lists the numbers of text in order.
func numbers(text string) []Number { return Numbers(text) }

// Numbers lists the numbers of text in order; the first end of a range
// ("18-20 °C") spans both ends and takes the unit written after them.
func Numbers(text string) []Number {
	var out []Number
	var ends []int
	for _, m := range numberRE.FindAllStringSubmatchIndex(text, -1) {
		g := func(i int) string {
			if m[2*i] < 0 {
				return ""
			}
			return text[m[2*i]:m[2*i+1]]
		}
		start := m[0]
		plus := g(1) == "+"
		neg := g(1) != "" && !plus
		if g(1) != "" && wordBefore(text, start) {
			neg, plus, start = false, false, m[4]
		}
		if wordBefore(text, start) || strings.HasSuffix(text[:start], ".") && wordBefore(text, start-1) {
			continue // part of an identifier or a longer value
		}
		num := strings.ReplaceAll(g(2), ",", "")
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			continue
		}
		step := 1.0
		if i := strings.IndexByte(num, '.'); i >= 0 {
			step = math.Pow(10, -float64(len(num)-i-1))
		}
		if s := scales[strings.ToLower(g(3))]; s > 0 {
			v, step = v*s, step*s
		}
		// A southern latitude or western longitude is negative: "9.1393° W".
		if c := strings.ToUpper(g(6)); (c == "S" || c == "W") && (step < 1 || strings.Contains(text[m[0]:m[1]], "°")) {
			neg = !neg
		}
		if neg {
			v = -v
		}
		unit := strings.ToLower(g(4))
		switch {
		case unit == "celsius" || g(5) == "℃":
			unit = "c"
		case unit == "fahrenheit" || g(5) == "℉":
			unit = "f"
		case unit == "" && g(7) != "":
			unit = unitOf(g(7))
		}
		if unit == "" {
			// A label names the unit of the value after it ("Rainy
			// days: around 8–10").
			unit = labelUnit(text[:start])
		}
		n := Number{Val: v, Unit: unit, Step: step, Hi: v, Start: start, End: m[1], Plus: plus}
		if k := len(out) - 1; k >= 0 && ends[k] <= m[0] && rangeRE.MatchString(text[ends[k]:m[4]]) && out[k].Val <= math.Abs(v) {
			if neg { // "20-25": the dash is a range, not a sign
				n.Val, n.Hi = -v, -v
			}
			out[k].Hi = n.Val
			if out[k].Unit == "" {
				out[k].Unit = unit
			}
		}
		out = append(out, n)
		ends = append(ends, m[1])
	}
	return out
}

// wordBefore tells whether a letter, digit or underscore ends text[:i].
func wordBefore(text string, i int) bool {
	r, n := utf8.DecodeLastRuneInString(text[:i])
	return n > 0 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

// celsius is a temperature in °C.
func (n Number) celsius() (lo, hi float64) {
	if n.Unit == "f" {
		return (n.Val - 32) * 5 / 9, (n.Hi - 32) * 5 / 9
	}
	return n.Val, n.Hi
}

// Tolerance is how far a stated number may be from an expected one. It
// follows the kind of fact, never the question's wording.
type Tolerance int

const (
	// Exact: the value as written (machine noise of more than
	// MachineDecimals decimals may be rounded to two or more).
	Exact Tolerance = iota
	// Rounded: the value rounded to the precision either side writes,
	// with at least two significant digits (0.88 for 0.8811, 190 for
	// 189.6, 21 °C for 20.9): conversions, rates, readings.
	Rounded
	// Normal: a climate normal, within ClimateDegrees (a temperature) or
	// ClimateDays (a count of days); a narrow range holding it matches.
	Normal
	// Duration: within DurationShare, in any unit of time.
	Duration
)

// Tolerances of kinds of facts.
const (
	ClimateDegrees = 2.0
	ClimateDays    = 2.0
	// MaxRangeDegrees and MaxRangeDays are the widest ranges that commit
	// to a normal ("12–16 °C" does; "0–30 °C" does not).
	MaxRangeDegrees = 6.0
	MaxRangeDays    = 4.0
	// MaxRangeShare is the widest range, relative to the value, that
	// commits to a rounded value or a duration.
	MaxRangeShare = 0.1
	DurationShare = 0.05
)

// Within tells whether a stated number is the expected value want (of
// unit "c", "f", "day", "minute" or ""), within the tolerance. Numbers
// that differ in sign never match; an end of a range matches as the
// number it is, and a narrow range holding want matches when the
// tolerance allows any.
func (n Number) Within(want float64, unit string, wantStep float64, tol Tolerance) bool {
	lo, hi := n.Val, n.Hi
	switch {
	case (unit == "c" || unit == "f") && (n.Unit == "c" || n.Unit == "f") && n.Unit != unit:
		lo, hi = n.celsius()
		if unit == "f" {
			lo, hi = lo*9/5+32, hi*9/5+32
		}
	case tol == Duration:
		f := durationFactor(n.Unit) / durationFactor(unit)
		lo, hi = lo*f, hi*f
	}
	if (want < 0 && hi > 0) || (want > 0 && lo < 0) {
		return false
	}
	if lo == want || hi == want {
		return true
	}
	var near float64
	width := hi - lo
	switch tol {
	case Exact:
		return false
	case Rounded:
		if width > 0 {
			return width <= MaxRangeShare*math.Abs(want) && lo <= want && want <= hi
		}
		if significant(lo, n.Step) < 2 {
			return false
		}
		return math.Abs(lo-want) <= math.Max(n.Step, wantStep)/2+1e-9
	case Normal:
		near = ClimateDegrees
		if unit == "day" {
			near = ClimateDays
			if width > MaxRangeDays {
				width = -1
			}
		} else if width > MaxRangeDegrees {
			width = -1
		}
	case Duration:
		near = math.Max(DurationShare*math.Abs(want), 1)
		if width > MaxRangeShare*math.Abs(want) {
			width = -1
		}
	}
	if width >= 0 && lo-near <= want && want <= hi+near {
		return true
	}
	return math.Abs(lo-want) <= near+1e-9 || math.Abs(hi-want) <= near+1e-9
}

// significant counts the significant digits of a number written with a
// step ("0.88": 2; "190": 3; "3": 1).
func significant(v, step float64) int {
	if v == 0 {
		return 1
	}
	return max(1, int(math.Floor(math.Log10(math.Abs(v)/step)))+1)
}

// durationFactor is a unit of time in minutes ("" is minutes).
func durationFactor(unit string) float64 {
	switch unit {
	case "hour":
		return 60
	case "second":
		return 1.0 / 60
	case "day":
		return 24 * 60
	}
	return 1
}

// tod is a time of day in seconds after midnight; sec tells whether
// seconds were stated.
type tod struct {
	secs int
	sec  bool
}

var (
	clockRE = regexp.MustCompile(`(?i)\b(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(?:\s*([ap])\.?\s?m\b\.?)?`)
	hourRE  = regexp.MustCompile(`(?i)\b(\d{1,2})\s*([ap])\.?\s?m\b\.?|\b(noon|midday|midnight)\b|\b(\d{1,2})\s*o'?\s?clock\b`)
)

// clocks lists the times of day of text.
func clocks(text string) []tod {
	var out []tod
	for _, m := range clockRE.FindAllStringSubmatch(text, -1) {
		h, _ := strconv.Atoi(m[1])
		mi, _ := strconv.Atoi(m[2])
		s, _ := strconv.Atoi(m[3])
		if h > 24 || mi > 59 || s > 59 {
			continue
		}
		h = meridiem(h, m[4])
		out = append(out, tod{secs: h*3600 + mi*60 + s, sec: m[3] != ""})
	}
	for _, m := range hourRE.FindAllStringSubmatch(text, -1) {
		switch {
		case m[1] != "":
			h, _ := strconv.Atoi(m[1])
			if h <= 12 {
				out = append(out, tod{secs: meridiem(h, m[2]) * 3600})
			}
		case strings.EqualFold(m[3], "midnight"):
			out = append(out, tod{secs: 0})
		case m[3] != "":
			out = append(out, tod{secs: 12 * 3600})
		case m[4] != "":
			h, _ := strconv.Atoi(m[4])
			out = append(out, tod{secs: h % 12 * 3600}, tod{secs: (h%12 + 12) * 3600})
		}
	}
	return out
}

func meridiem(h int, ap string) int {
	switch strings.ToLower(ap) {
	case "a":
		if h == 12 {
			return 0
		}
	case "p":
		if h < 12 {
			return h + 12
		}
	}
	return h
}

// sameClock tells whether a stated time is the expected one: hours and
// minutes agree, and seconds too when both state them.
func sameClock(got, want tod) bool {
	if got.secs/60 != want.secs/60 {
		return false
	}
	return !got.sec || !want.sec || got.secs == want.secs
}

// date is a calendar date; year 0 when the text leaves it out.
type date struct{ y, m, d int }

var months = map[string]int{}

// weekdayPattern matches a weekday's name or its abbreviation.
const weekdayPattern = `(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?`

func init() {
	for i, m := range strings.Fields("january february march april may june july august september october november december") {
		months[m] = i + 1
		months[m[:3]] = i + 1
	}
	months["sept"] = 9
}

var (
	isoDateRE   = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})`)
	dayMonthRE  = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3,9})\.?(?:,?\s+(\d{4}))?`)
	monthDayRE  = regexp.MustCompile(`(?i)\b([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?`)
	slashDateRE = regexp.MustCompile(`\b(\d{1,2})[/.](\d{1,2})[/.](\d{4})\b`)
	// A range of days in one month: "25–27 January", "January 25–27",
	// "Fri 18 – Sun 20 Apr".
	dayRangeRE   = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s*[-–—]\s*(?:` + weekdayPattern + `\.?,?\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]{3,9})\.?(?:,?\s+(\d{4}))?`)
	monthRangeRE = regexp.MustCompile(`(?i)\b([a-z]{3,9})\.?\s+\d{1,2}(?:st|nd|rd|th)?\s*[-–—]\s*(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4}))?`)
)

// dates lists the dates of text; a numeric d/m/y date is read both ways.
func dates(text string) []date {
	var out []date
	for _, m := range isoDateRE.FindAllStringSubmatch(text, -1) {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		out = append(out, date{y, mo, d})
	}
	add := func(day, month, year string) {
		mo, ok := months[strings.ToLower(month)]
		d, _ := strconv.Atoi(day)
		if !ok || d < 1 || d > 31 {
			return
		}
		y, _ := strconv.Atoi(year)
		out = append(out, date{y, mo, d})
	}
	for _, m := range dayMonthRE.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2], m[3])
	}
	for _, m := range monthDayRE.FindAllStringSubmatch(text, -1) {
		add(m[2], m[1], m[3])
	}
	// The other end of a range: its first day in "25–27 January", its
	// last in "January 25–27" (the other end reads as a date already).
	for _, m := range dayRangeRE.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2], m[3])
	}
	for _, m := range monthRangeRE.FindAllStringSubmatch(text, -1) {
		add(m[2], m[1], m[3])
	}
	for _, m := range slashDateRE.FindAllStringSubmatch(text, -1) {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		y, _ := strconv.Atoi(m[3])
		out = append(out, date{y, b, a}, date{y, a, b})
	}
	return out
}

// sameDate tells whether a stated date is the expected one; a stated
// date without a year matches any year.
func sameDate(got, want date) bool {
	return got.m == want.m && got.d == want.d && (got.y == 0 || got.y == want.y)
}
