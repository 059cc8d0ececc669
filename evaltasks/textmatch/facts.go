package textmatch

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	_ "time/tzdata" // key points name IANA zones; they must load without a zoneinfo database
)

// Facts and key points are matched by meaning: numbers by value and sign
// (within a stated tolerance when the question is approximate), times and
// dates in any common form, names by their aliases, words only where they
// are not denied.

// statusLiterals are values that report how a call went, not what the user
// asked: the validator rejects them as expected facts, and the Task-6
// scorer never requires them (an answer that says "success" has answered
// nothing).
var statusLiterals = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`true false ok success successful error failed completed complete incomplete done pending null none yes no`) {
		statusLiterals[w] = true
	}
}

// IsStatusLiteral tells whether a fact is a status literal.
func IsStatusLiteral(fact string) bool {
	return statusLiterals[strings.ToLower(strings.TrimSpace(fact))]
}

var (
	numberFactRE = regexp.MustCompile(`(?i)^\s*([-−+]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(°\s*[CF]|℃|℉|days?|minutes?|hours?|seconds?)?\s*$`)
	timeFactRE   = regexp.MustCompile(`(?i)^\s*\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?\s*$`)
	dateFactRE   = regexp.MustCompile(`^\s*\d{4}-\d{2}-\d{2}\s*$`)
	stampFactRE  = regexp.MustCompile(`^\s*(\d{4}-\d{2}-\d{2})[ T](\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s*$`)
	utcOffsetRE  = regexp.MustCompile(`(?i)\b(?:utc|gmt)\s*([+−-])\s*(\d{1,2})(?::?(\d{2}))?`)
	offsetFactRE = regexp.MustCompile(`^\s*([+−-])(\d{2}):?(\d{2})\s*$`)
	bareOffsetRE = regexp.MustCompile(`(?:^|[^\w:])([+−-])(\d{1,2}):(\d{2})\b`)
)

// Matcher holds what a reply states, read once.
type Matcher struct {
	reply  string
	polar  PolarWords
	nums   []Number
	clocks []tod
	dates  []date
}

// NewMatcher reads a reply once for matching facts against it.
func NewMatcher(reply string) *Matcher {
	nums := numbers(reply)
	return &Matcher{reply: reply, polar: NewPolarWords(reply), nums: append(nums, durations(reply, nums)...), clocks: clocks(reply), dates: dates(reply)}
}

// Verdict is how a reply states one fact.
type Verdict int

const (
	FactStated Verdict = iota
	FactInexact
	FactMissing
)

// Fact judges one expected fact or key point, numbers exactly.
func (m *Matcher) Fact(f string) Verdict { return m.FactWithin(f, Exact) }

// FactWithin judges one expected fact or key point, numbers within a
// tolerance.
func (m *Matcher) FactWithin(f string, tol Tolerance) Verdict {
	switch {
	case timeFactRE.MatchString(f):
		return m.clock(f)
	case dateFactRE.MatchString(f):
		return m.date(f)
	case stampFactRE.MatchString(f):
		if ContainsExact(m.reply, strings.TrimSpace(f)) {
			return FactStated
		}
		s := stampFactRE.FindStringSubmatch(f)
		return max(m.date(s[1]), m.clock(s[2]))
	case offsetFactRE.MatchString(f):
		return m.offset(f)
	case numberFactRE.MatchString(f):
		return m.number(f, tol, nil)
	}
	if zone := IANAZone(f); zone != nil && m.zone(f, zone) {
		return FactStated
	}
	for _, a := range Vocabulary.aliases(f) {
		if StatesPhrase(m.reply, m.polar, a) && exactOK(m.reply, a) {
			return FactStated
		}
	}
	if rest := withoutExact(f); len(Words(rest)) > 0 && !StatesPhrase(m.reply, m.polar, rest) {
		return FactMissing
	}
	if !exactOK(m.reply, f) {
		return FactInexact
	}
	return FactStated
}

// withoutExact is a phrase without its character-sensitive values.
func withoutExact(f string) string {
	for _, x := range exactValues(f) {
		f = strings.Replace(f, x, " ", 1)
	}
	return f
}

// exactOK tells whether every character-sensitive value of f is copied.
func exactOK(reply, f string) bool {
	for _, x := range exactValues(f) {
		if !ContainsExact(reply, x) {
			return false
		}
	}
	return true
}

func (m *Matcher) clock(f string) Verdict {
	want := clocks(f)
	if len(want) == 0 {
		return FactMissing
	}
	for _, c := range m.clocks {
		if sameClock(c, want[0]) {
			return FactStated
		}
	}
	return FactMissing
}

func (m *Matcher) date(f string) Verdict {
	want := dates(f)
	if len(want) == 0 {
		return FactMissing
	}
	for _, d := range m.dates {
		if sameDate(d, want[0]) {
			return FactStated
		}
	}
	return FactMissing
}

// MachineDecimals is the number of decimals beyond which a value is
// machine noise (31.2333333333): a reply may round it to two or more.
const MachineDecimals = 6

// NumberFact reads a numeric fact ("-4.5", "33 °C", "8 days", "155
// minutes", "+351"): its value, unit ("c", "f", "day", "minute", "hour",
// "second" or ""), the step its decimals write and whether it has a plus.
func NumberFact(f string) (want float64, unit string, step float64, plus, ok bool) {
	s := numberFactRE.FindStringSubmatch(f)
	if s == nil {
		return 0, "", 0, false, false
	}
	want, err := strconv.ParseFloat(strings.ReplaceAll(s[2], ",", "")+s[3], 64)
	if err != nil {
		return 0, "", 0, false, false
	}
	if s[1] == "-" || s[1] == "−" {
		want = -want
	}
	switch u := strings.ToUpper(strings.Join(strings.Fields(s[4]), "")); {
	case u == "°C" || u == "℃":
		unit = "c"
	case u == "°F" || u == "℉":
		unit = "f"
	case u != "":
		unit = unitOf(strings.ToLower(u))
	}
	step = 1
	if len(s[3]) > 1 {
		step = math.Pow(10, -float64(len(s[3])-1))
	}
	return want, unit, step, s[1] == "+", true
}

// unitFits tells whether a stated number's unit can state a fact of unit
// want: a temperature in either scale or none; days in days; a duration
// in any unit of time or none; a number without unit in any unit.
func unitFits(stated, want string, tol Tolerance) bool {
	switch {
	case want == "c" || want == "f":
		return stated == "" || stated == "c" || stated == "f"
	case tol == Duration || want == "minute" || want == "hour" || want == "second":
		return stated == "" || stated == "minute" || stated == "hour" || stated == "second"
	case want == "day":
		return stated == "day"
	}
	return true
}

// NumberWithin judges a numeric fact against the stated numbers fits
// accepts (nil: all), so that a reader that knows the kind of the field
// holding the fact ignores numbers of another kind.
func (m *Matcher) NumberWithin(f string, tol Tolerance, fits func(Number) bool) Verdict {
	return m.number(f, tol, fits)
}

// number judges a numeric fact: its value and sign, within the
// tolerance; a leading "+" (a calling code) is optional, and makes the
// value an identifier, with no tolerance; a temperature may be given in
// the other scale. A near miss of a decimal (rounded, truncated) is
// inexact.
func (m *Matcher) number(f string, tol Tolerance, fits func(Number) bool) Verdict {
	want, unit, step, plus, ok := NumberFact(f)
	if !ok {
		return FactMissing
	}
	if plus {
		tol = Exact
	}
	decimals := int(math.Round(-math.Log10(step)))
	near := false
	for _, n := range m.nums {
		if !unitFits(n.Unit, unit, tol) || fits != nil && !fits(n) {
			continue
		}
		if n.Within(want, unit, step, tol) {
			return FactStated
		}
		if decimals > MachineDecimals && n.Step <= 0.01 && math.Abs(n.Val-want) <= n.Step/2+1e-12 {
			return FactStated
		}
		if decimals > 0 && n.Val != 0 && math.Signbit(n.Val) == math.Signbit(want) && math.Abs(n.Val-want) <= 0.01*math.Abs(want) {
			near = true
		}
	}
	if near {
		return FactInexact
	}
	return FactMissing
}

// durations are the compound durations of a text ("2 h 35 min", "1 hour
// and 5 minutes"), in minutes.
func durations(text string, nums []Number) []Number {
	var out []Number
	for i := 0; i+1 < len(nums); i++ {
		h, mi := nums[i], nums[i+1]
		gap := strings.TrimSpace(strings.ToLower(text[h.End:mi.Start]))
		if h.Unit == "hour" && mi.Unit == "minute" && (gap == "" || gap == "and" || gap == ",") {
			v := h.Val*60 + mi.Val
			out = append(out, Number{Val: v, Hi: v, Unit: "minute", Step: 1, Start: h.Start, End: mi.End})
		}
	}
	return out
}

// offsetMinutes reads a signed offset.
func offsetMinutes(sign, h, m string) int {
	hh, _ := strconv.Atoi(h)
	mm, _ := strconv.Atoi(m)
	if sign == "+" {
		return hh*60 + mm
	}
	return -(hh*60 + mm)
}

// replyOffsets are the UTC offsets a reply states, in minutes.
func (m *Matcher) replyOffsets() map[int]bool {
	out := map[int]bool{}
	for _, o := range UTCOffsets(m.reply) {
		out[o.Minutes] = true
	}
	return out
}

// Offset is a UTC offset stated in text ("UTC+2", "GMT-03:00", "+05:30").
type Offset struct {
	Minutes int
	// Start is its byte offset in the text.
	Start int
}

// UTCOffsets lists the UTC offsets of a text.
func UTCOffsets(text string) []Offset {
	var out []Offset
	for _, re := range []*regexp.Regexp{utcOffsetRE, bareOffsetRE} {
		for _, g := range re.FindAllStringSubmatchIndex(text, -1) {
			part := func(i int) string { return text[g[2*i]:g[2*i+1]] }
			mm := ""
			if g[6] >= 0 {
				mm = part(3)
			}
			out = append(out, Offset{Minutes: offsetMinutes(part(1), part(2), mm), Start: g[0]})
		}
	}
	slices.SortStableFunc(out, func(a, b Offset) int { return a.Start - b.Start })
	return out
}

// ZoneOffsets are a time zone's UTC offsets in minutes, in winter and in
// summer.
func ZoneOffsets(loc *time.Location) map[int]bool {
	out := map[int]bool{}
	for _, mo := range []time.Month{time.January, time.July} {
		_, off := time.Date(2025, mo, 15, 12, 0, 0, 0, loc).Zone()
		out[off/60] = true
	}
	return out
}

// offset judges a UTC offset fact ("-03:00"): its sign counts.
func (m *Matcher) offset(f string) Verdict {
	g := offsetFactRE.FindStringSubmatch(f)
	if m.replyOffsets()[offsetMinutes(g[1], g[2], g[3])] {
		return FactStated
	}
	return FactMissing
}

// IANAZone loads f when it names an IANA time zone ("Europe/Lisbon").
func IANAZone(f string) *time.Location {
	f = strings.TrimSpace(f)
	if !strings.Contains(f, "/") || strings.ContainsAny(f, " \t") {
		return nil
	}
	if loc, ok := zoneCache.Load(f); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(f)
	if err != nil {
		loc = nil
	}
	if zoneCacheSize.Add(1) <= maxZoneCache {
		zoneCache.Store(f, loc)
	}
	return loc
}

// zoneCache keeps what IANAZone read: time.LoadLocation reads and parses
// the zone's file on every call, and the scorers ask once per fact. A
// *time.Location is immutable, so one is shared; misses (URLs and paths
// hold a slash too) are kept as nil. The cache stops growing at
// maxZoneCache names, which the IANA database and a dataset's facts stay
// under.
var (
	zoneCache     sync.Map
	zoneCacheSize atomic.Int64
)

const maxZoneCache = 1 << 14

// zone tells whether a reply names a time zone: by its IANA name, an
// everyday name or abbreviation (terms.json), or its UTC offset in winter
// or summer ("UTC+1", "GMT+01:00").
func (m *Matcher) zone(f string, loc *time.Location) bool {
	if phraseIn(m.polar.clauses, f, true) {
		return true
	}
	for _, n := range Vocabulary.Zones[strings.TrimSpace(f)] {
		if strings.ToUpper(n) == n && len(n) <= 5 {
			if ContainsExact(m.reply, n) {
				return true
			}
		} else if phraseIn(m.polar.clauses, n, true) {
			return true
		}
	}
	offsets := ZoneOffsets(loc)
	for off := range m.replyOffsets() {
		if offsets[off] {
			return true
		}
	}
	return false
}

// KeyPoints returns the key points a reply misses and the share it
// covers, numbers exactly.
func KeyPoints(points []string, reply string) ([]string, float64) {
	if len(points) == 0 {
		return nil, 1
	}
	m := NewMatcher(reply)
	var missed []string
	for _, p := range points {
		if m.Fact(p) != FactStated {
			missed = append(missed, p)
		}
	}
	return missed, float64(len(points)-len(missed)) / float64(len(points))
}

// StatedFacts checks the expected facts of a tool result against a reply,
// numbers exactly.
func StatedFacts(facts []string, reply string) (missed, inexact []string) {
	return StatedFactsWithin(facts, reply, nil)
}

// StatedFactsWithin checks the expected facts of a tool result against a
// reply, the numbers of each within the tolerance tol gives it (nil:
// exactly): missed are facts the reply does not state, inexact those it
// states with a character-sensitive value not copied exactly. Status
// literals are never required.
func StatedFactsWithin(facts []string, reply string, tol func(fact string) Tolerance) (missed, inexact []string) {
	m := NewMatcher(reply)
	for _, f := range facts {
		if IsStatusLiteral(f) {
			continue
		}
		t := Exact
		if tol != nil {
			t = tol(f)
		}
		switch m.FactWithin(f, t) {
		case FactMissing:
			missed = append(missed, f)
		case FactInexact:
			inexact = append(inexact, f)
		}
	}
	return missed, inexact
}

// SubstantiveFacts counts the facts that are not status literals.
func SubstantiveFacts(facts []string) int {
	n := 0
	for _, f := range facts {
		if !IsStatusLiteral(f) {
			n++
		}
	}
	return n
}

// StatesAll tells whether a reply states every fact word for word.
func StatesAll(facts []string, reply string) bool {
	pw := NewPolarWords(reply)
	for _, f := range facts {
		if !StatesPhrase(reply, pw, f) {
			return false
		}
	}
	return len(facts) > 0
}
