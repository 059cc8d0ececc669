package textmatch

import (
	"math"
	"regexp"
	"strconv"
	"strings"
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
	numberFactRE = regexp.MustCompile(`^\s*([-−+]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(°\s*[CF]|℃|℉)?\s*$`)
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
	nums   []number
	clocks []tod
	dates  []date
	approx bool
}

// NewMatcher reads a reply once for matching facts against it; an
// approximate question (roughly, ballpark) widens number tolerances.
func NewMatcher(reply, question string) *Matcher {
	return &Matcher{reply: reply, polar: NewPolarWords(reply), nums: numbers(reply), clocks: clocks(reply), dates: dates(reply), approx: approximate(question)}
}

// Verdict is how a reply states one fact.
type Verdict int

const (
	FactStated Verdict = iota
	FactInexact
	FactMissing
)

// Fact judges one expected fact or key point.
func (m *Matcher) Fact(f string) Verdict {
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
		return m.number(f)
	}
	if zone := ianaZone(f); zone != nil && m.zone(f, zone) {
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

// number judges a numeric fact: its value and sign; a leading "+" (a
// calling code) is optional; a temperature may be given in the other
// scale. A near miss of a decimal (rounded, truncated) is inexact.
func (m *Matcher) number(f string) Verdict {
	s := numberFactRE.FindStringSubmatch(f)
	want, err := strconv.ParseFloat(strings.ReplaceAll(s[2], ",", "")+s[3], 64)
	if err != nil {
		return FactMissing
	}
	if s[1] == "-" || s[1] == "−" {
		want = -want
	}
	unit := ""
	switch u := strings.ToUpper(strings.Join(strings.Fields(s[4]), "")); u {
	case "°C", "℃":
		unit = "c"
	case "°F", "℉":
		unit = "f"
	}
	decimals := max(0, len(s[3])-1)
	// A value written with a plus (a calling code) is an identifier: it
	// has no tolerance.
	approx := m.approx && s[1] != "+"
	near := false
	for _, n := range m.nums {
		if n.matches(want, unit, approx) {
			return FactStated
		}
		if decimals > MachineDecimals && n.step <= 0.01 && math.Abs(n.val-want) <= n.step/2+1e-12 {
			return FactStated
		}
		if decimals > 0 && n.val != 0 && math.Signbit(n.val) == math.Signbit(want) && math.Abs(n.val-want) <= 0.01*math.Abs(want) {
			near = true
		}
	}
	if near {
		return FactInexact
	}
	return FactMissing
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
	for _, re := range []*regexp.Regexp{utcOffsetRE, bareOffsetRE} {
		for _, g := range re.FindAllStringSubmatch(m.reply, -1) {
			out[offsetMinutes(g[1], g[2], g[3])] = true
		}
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

// ianaZone loads f when it names an IANA time zone ("Europe/Lisbon").
func ianaZone(f string) *time.Location {
	f = strings.TrimSpace(f)
	if !strings.Contains(f, "/") || strings.ContainsAny(f, " \t") {
		return nil
	}
	loc, err := time.LoadLocation(f)
	if err != nil {
		return nil
	}
	return loc
}

// zone tells whether a reply names a time zone: by its IANA name, an
// everyday name or abbreviation (terms.json), or its UTC offset in winter
// or summer ("UTC+1", "GMT+01:00").
func (m *Matcher) zone(f string, loc *time.Location) bool {
	if phraseAt(m.reply, f, true) {
		return true
	}
	for _, n := range Vocabulary.Zones[strings.TrimSpace(f)] {
		if strings.ToUpper(n) == n && len(n) <= 5 {
			if ContainsExact(m.reply, n) {
				return true
			}
		} else if phraseAt(m.reply, n, true) {
			return true
		}
	}
	offsets := map[int]bool{}
	for _, mo := range []time.Month{time.January, time.July} {
		_, off := time.Date(2025, mo, 15, 12, 0, 0, 0, loc).Zone()
		offsets[off/60] = true
	}
	for off := range m.replyOffsets() {
		if offsets[off] {
			return true
		}
	}
	return false
}

// KeyPoints returns the key points a reply misses and the share it covers,
// for a question that is not approximate.
func KeyPoints(points []string, reply string) ([]string, float64) {
	return KeyPointsFor("", points, reply)
}

// KeyPointsFor judges key points in the context of their question.
func KeyPointsFor(question string, points []string, reply string) ([]string, float64) {
	if len(points) == 0 {
		return nil, 1
	}
	m := NewMatcher(reply, question)
	var missed []string
	for _, p := range points {
		if m.Fact(p) != FactStated {
			missed = append(missed, p)
		}
	}
	return missed, float64(len(points)-len(missed)) / float64(len(points))
}

// StatedFacts checks the expected facts of a tool result against a reply,
// for a question that is not approximate.
func StatedFacts(facts []string, reply string) (missed, inexact []string) {
	return StatedFactsFor("", facts, reply)
}

// StatedFactsFor checks the expected facts of a tool result against a
// reply: missed are facts the reply does not state, inexact those it
// states with a character-sensitive value not copied exactly. Status
// literals are never required.
func StatedFactsFor(question string, facts []string, reply string) (missed, inexact []string) {
	m := NewMatcher(reply, question)
	for _, f := range facts {
		if IsStatusLiteral(f) {
			continue
		}
		switch m.Fact(f) {
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
