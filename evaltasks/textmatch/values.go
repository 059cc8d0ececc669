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

// number is a numeric value stated in text.
type number struct {
	val float64
	// unit is "c" or "f" for temperatures, "" otherwise.
	unit string
	// step is the precision the text states: 0.01 for "31.23", 10000
	// for "2.17 million", 1 for "18".
	step float64
	// hi is the upper end of a range ("20–25 °C"), else val.
	hi float64
}

// numberRE reads a number: an optional minus, digits with optional
// thousands separators and decimals, an optional scale word and unit. A
// minus counts as a sign only where no letter or digit precedes it, so
// "476-34" is not negative; that check is in numbers.
var numberRE = regexp.MustCompile(`(?i)(minus\s+|[-−]\s?)?\+?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(million|billion|thousand|bn)\b)?(?:\s*(?:°\s*|º\s*|degrees?\s+)?(celsius|fahrenheit|c|f)\b|\s*(℃|℉))?(?:\s*°?\s*([NSEW])\b)?`)

// rangeRE finds ranges between two numbers: "20-25", "20 – 25", "20 to 25".
var rangeRE = regexp.MustCompile(`^\s*(?:-|–|—|to)\s*$`)

var scales = map[string]float64{"thousand": 1e3, "million": 1e6, "billion": 1e9, "bn": 1e9}

// numbers lists the numbers of text in order; the first end of a range
// ("18-20 °C") spans both ends and takes the unit written after them.
func numbers(text string) []number {
	var out []number
	var ends []int
	for _, m := range numberRE.FindAllStringSubmatchIndex(text, -1) {
		g := func(i int) string {
			if m[2*i] < 0 {
				return ""
			}
			return text[m[2*i]:m[2*i+1]]
		}
		start := m[0]
		neg := g(1) != ""
		if neg && wordBefore(text, start) {
			neg, start = false, m[4]
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
		}
		n := number{val: v, unit: unit, step: step, hi: v}
		if k := len(out) - 1; k >= 0 && ends[k] <= m[0] && rangeRE.MatchString(text[ends[k]:m[4]]) && out[k].val <= math.Abs(v) {
			if neg { // "20-25": the dash is a range, not a sign
				n.val, n.hi = -v, -v
			}
			out[k].hi = n.val
			if out[k].unit == "" {
				out[k].unit = unit
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
func (n number) celsius() (lo, hi float64) {
	if n.unit == "f" {
		return (n.val - 32) * 5 / 9, (n.hi - 32) * 5 / 9
	}
	return n.val, n.hi
}

// Tolerances of approximate questions: a value within ApproxShare of the
// expected one, or within ApproxDegrees for a temperature, or a stated
// range that holds it, matches; opposite signs never do.
const (
	ApproxShare   = 0.05
	ApproxDegrees = 1.0
)

// approxRE recognises a question that asks for an approximate value.
var approxRE = regexp.MustCompile(`(?i)\b(roughly|approximately|approx|ballpark|around|more or less|estimate|about (?:how|\d)|typically|usually|on average|generally)\b`)

// approximate tells whether a question accepts an approximate answer.
func approximate(question string) bool { return approxRE.MatchString(question) }

// matches tells whether a stated number is the expected value want (of
// unit "c", "f" or ""): exactly, or within the tolerance when approx.
// Numbers that differ in sign never match.
func (n number) matches(want float64, unit string, approx bool) bool {
	lo, hi := n.val, n.hi
	if unit != "" && n.unit != "" && n.unit != unit {
		lo, hi = n.celsius()
		if unit == "f" {
			lo, hi = lo*9/5+32, hi*9/5+32
		}
	}
	if (want < 0 && hi > 0) || (want > 0 && lo < 0) {
		return false
	}
	if lo == want || hi == want {
		return true
	}
	if !approx {
		return false
	}
	if lo <= want && want <= hi {
		return true
	}
	tol := math.Abs(want) * ApproxShare
	if unit == "c" || unit == "f" {
		tol = ApproxDegrees
	}
	tol = math.Max(tol, n.step/2)
	return math.Abs(lo-want) <= tol+1e-9 || math.Abs(hi-want) <= tol+1e-9
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
