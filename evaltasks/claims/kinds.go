// Package claims reads what a free-text answer asserts, value by kind (numbers with their units, temperatures, days, UTC offsets and zones, capitals, currencies, languages, phrases), so that the scorers of Tasks 5 and 6 judge an answer on what it commits to and what it selects, not on the words it contains.
package claims

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/mocks/world"
)

// Kind is the kind of a value: what other values contradict it, and how
// far a stated number may be from it.
type Kind int

const (
	// Text is free text: judged by its words, nothing contradicts it.
	Text Kind = iota
	// Temperature is a climate normal in °C or °F ("33 °C").
	Temperature
	// Days is a count of days of a climate normal ("8 days").
	Days
	// Number is a plain number: a sum, a conversion ("3.1").
	Number
	// Code is a number written with a plus: a calling code ("+971").
	Code
	// Zone is an IANA time zone ("Africa/Lagos").
	Zone
	// Capital, Currency, Language and Phrase are names of the world:
	// a country's capital, a currency, a language, a phrase of the
	// phrasebook in another language than English.
	Capital
	Currency
	Language
	Phrase
)

// Tolerance is how far a stated number of the kind may be from the
// expected one: climate normals within a couple of degrees or days, plain
// numbers as rounded, codes exactly. It follows the kind of fact, never
// the question's wording.
func (k Kind) Tolerance() textmatch.Tolerance {
	switch k {
	case Temperature, Days:
		return textmatch.Normal
	case Number:
		return textmatch.Rounded
	}
	return textmatch.Exact
}

// KindOf is the kind of a key point, from its form and the world's names.
func KindOf(point string) Kind {
	if _, unit, _, plus, ok := textmatch.NumberFact(point); ok {
		switch {
		case plus:
			return Code
		case unit == "c" || unit == "f":
			return Temperature
		case unit == "day":
			return Days
		}
		return Number
	}
	if textmatch.IANAZone(point) != nil {
		return Zone
	}
	names := worldNames()
	key := fold(point)
	switch {
	case names.capitals[key]:
		return Capital
	case names.currencyOf(point) != "":
		return Currency
	case names.languageOf(point) != "":
		return Language
	case names.phrases[key]:
		return Phrase
	}
	return Text
}

// stemmed is a text's words, each stemmed, single-spaced.
func stemmed(s string) string {
	ws := textmatch.Words(s)
	for i, w := range ws {
		ws[i] = textmatch.Stem(w)
	}
	return strings.Join(ws, " ")
}

// fold is a name compared: lower case, accents off, words single-spaced.
func fold(s string) string { return strings.Join(textmatch.Words(s), " ") }

// names are the world's names of each kind, folded.
type names struct {
	capitals map[string]bool
	// currencies maps a currency's names (its name, code and aliases)
	// to its code; codes keeps the codes as written (upper case).
	currencies map[string]string
	codes      []string
	// languages maps a language's names (its English name and aliases)
	// to its code.
	languages map[string]string
	phrases   map[string]bool
	// renderings maps a phrase to every rendering, in every language
	// but English, of the phrases it translates ("queria um café" to
	// "quisiera un café", "je voudrais un café", …).
	renderings map[string][]string
	// ordered lists every name of a kind, longest first, for finding
	// them in a reply.
	ordered map[Kind][]string
}

var (
	namesOnce sync.Once
	namesVal  *names
)

// worldNames reads the world's names once.
func worldNames() *names {
	namesOnce.Do(func() {
		n := &names{capitals: map[string]bool{}, currencies: map[string]string{}, languages: map[string]string{},
			phrases: map[string]bool{}, renderings: map[string][]string{}, ordered: map[Kind][]string{}}
		w, err := world.DefaultWorld()
		if err != nil {
			// The embedded world always loads; without it no name has a
			// kind and every key point is judged as text.
			namesVal = n
			return
		}
		for _, c := range w.Countries() {
			if k := fold(c.Capital); k != "" {
				n.capitals[k] = true
			}
		}
		for _, c := range w.Currencies() {
			n.codes = append(n.codes, c.Code)
			for _, name := range append([]string{c.Name}, aliasesOf(c.Name)...) {
				// Names of three letters or fewer ("won", "sol") are
				// ordinary words; only codes in capitals count then.
				if k := fold(name); len(k) > 3 {
					n.currencies[k] = c.Code
				}
			}
		}
		for _, l := range w.Languages() {
			for _, name := range append([]string{l.Name}, aliasesOf(l.Name)...) {
				if k := fold(name); len(k) > 3 {
					n.languages[k] = l.Code
				}
			}
		}
		for _, e := range w.Phrasebook() {
			var all []string
			for lang, p := range e {
				if k := fold(p); lang != "en" && k != "" {
					n.phrases[k] = true
					all = append(all, k)
				}
			}
			for _, k := range all {
				n.renderings[k] = append(n.renderings[k], all...)
			}
		}
		for kind, m := range map[Kind][]string{Capital: keys(n.capitals), Currency: keys(n.currencies), Language: keys(n.languages), Phrase: keys(n.phrases)} {
			slices.SortFunc(m, func(a, b string) int {
				if len(a) != len(b) {
					return len(b) - len(a)
				}
				return strings.Compare(a, b)
			})
			n.ordered[kind] = m
		}
		namesVal = n
	})
	return namesVal
}

func keys[V any](m map[string]V) []string { return slices.Collect(maps.Keys(m)) }

// aliasesOf are the other names terms.json gives a name.
func aliasesOf(name string) []string {
	var out []string
	for _, eq := range textmatch.Vocabulary.Equivalents(name) {
		out = append(out, strings.Join(eq, " "))
	}
	return out
}

// currencyOf is the code of the currency a name names ("" for none).
func (n *names) currencyOf(name string) string {
	if c := n.currencies[fold(name)]; c != "" {
		return c
	}
	if slices.Contains(n.codes, strings.TrimSpace(name)) {
		return strings.TrimSpace(name)
	}
	return ""
}

// languageOf is the code of the language a name names ("" for none).
func (n *names) languageOf(name string) string { return n.languages[fold(name)] }

// claim is a value of a kind that a reply asserts.
type claim struct {
	// id identifies the value: a name's currency or language code, a
	// folded name, a zone, an offset or a number's index.
	id string
	// at is its byte offset in the reply, to find the first claim.
	at  int
	num textmatch.Number
}

// wordAt finds a folded name as whole words in folded text from byte i.
func wordAt(text, name string, from int) int {
	for i := from; i < len(text); {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return -1
		}
		j += i
		end := j + len(name)
		if (j == 0 || !isWordByte(text[j-1])) && (end == len(text) || !isWordByte(text[end])) {
			return j
		}
		i = j + 1
	}
	return -1
}

func isWordByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80 }

// nameClaims are the names of a kind a reply asserts: found as whole
// words, not denied, not given in the question. Positions are those of
// the folded reply, which keeps the order of the reply's words.
func nameClaims(kind Kind, reply, question string, pw textmatch.PolarWords) []claim {
	n := worldNames()
	// Names are matched on stems, as the key point is: "Canberras"
	// claims Canberra as surely as it states it.
	text, q := stemmed(reply), stemmed(question)
	taken := make([]bool, len(text))
	var out []claim
	for _, name := range n.ordered[kind] {
		sn := stemmed(name)
		if wordAt(q, sn, 0) >= 0 || !pw.Affirms(name) && wordAt(text, sn, 0) < 0 {
			continue
		}
		for i := wordAt(text, sn, 0); i >= 0; i = wordAt(text, sn, i+1) {
			if slices.Contains(taken[i:i+len(sn)], true) {
				continue // inside a longer name ("new zealand dollar")
			}
			for k := i; k < i+len(sn); k++ {
				taken[k] = true
			}
			out = append(out, claim{id: idOf(kind, name), at: i})
		}
	}
	if kind == Currency {
		// Codes count written in capitals, as codes are.
		for _, code := range n.codes {
			if strings.Contains(question, code) {
				continue
			}
			for _, at := range codeAt.FindAllStringIndex(reply, -1) {
				if reply[at[0]:at[1]] == code {
					out = append(out, claim{id: code, at: len(fold(reply[:at[0]]))})
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b claim) int { return a.at - b.at })
	return out
}

// renderingClaims keeps, of a reply's phrase claims, those that render
// what the key points translate: the points themselves and the same
// phrases in other languages, the answers a translation can hedge
// between. Phrases of other meanings are the answer's own words — "por
// favor" after "queria um café", "merci" in a sample reply, "um" (one)
// and "café" (coffee) inside "Eu gostaria de um café" — and so are
// variants the phrasebook does not hold ("comment vas-tu" beside
// "comment allez-vous"): alternatives, not rival claims.
func renderingClaims(points []string, cs []claim) []claim {
	n := worldNames()
	rival := map[string]bool{}
	for _, p := range points {
		rival[fold(p)] = true
		for _, r := range n.renderings[fold(p)] {
			rival[r] = true
		}
	}
	var out []claim
	for _, c := range cs {
		if rival[c.id] {
			out = append(out, c)
		}
	}
	return out
}

// codeAt finds words of three capitals.
var codeAt = regexp.MustCompile(`\b[A-Z]{3}\b`)

// idOf is what identifies a name of a kind: the code of a currency or
// language (so "yuan" and "CNY" are one claim), the folded name otherwise.
func idOf(kind Kind, name string) string {
	n := worldNames()
	switch kind {
	case Currency:
		return n.currencyOf(name)
	case Language:
		return n.languageOf(name)
	}
	return fold(name)
}

// zoneRE finds IANA zone names ("America/Argentina/Buenos_Aires").
var zoneRE = regexp.MustCompile(`(?i)\b[a-z]+(?:/[a-z][a-z_-]+)+\b`)

// zoneNamed is the IANA zone a name written in any case names.
func zoneNamed(s string) string {
	if textmatch.IANAZone(s) != nil {
		return s
	}
	zonesOnce.Do(func() {
		zonesByFold = map[string]string{}
		if w, err := world.DefaultWorld(); err == nil {
			for _, c := range w.Countries() {
				for _, z := range c.TimeZones {
					zonesByFold[strings.ToLower(z)] = z
				}
			}
		}
		for z := range textmatch.Vocabulary.Zones {
			zonesByFold[strings.ToLower(z)] = z
		}
	})
	return zonesByFold[strings.ToLower(s)]
}

var (
	zonesOnce   sync.Once
	zonesByFold map[string]string
)

// zoneClaims are the zones and offsets a reply asserts: IANA names,
// everyday names and abbreviations of terms.json, and UTC offsets; each
// identified by the zone or offset it names.
func zoneClaims(reply, question string, pw textmatch.PolarWords) []claim {
	var out []claim
	for _, m := range zoneRE.FindAllStringIndex(reply, -1) {
		z := zoneNamed(reply[m[0]:m[1]])
		if z != "" && !strings.Contains(strings.ToLower(question), strings.ToLower(z)) {
			out = append(out, claim{id: "zone:" + z, at: m[0]})
		}
	}
	for _, z := range slices.Sorted(maps.Keys(textmatch.Vocabulary.Zones)) {
		for _, name := range textmatch.Vocabulary.Zones[z] {
			short := strings.ToUpper(name) == name && len(name) <= 5
			var at int
			switch {
			case short:
				at = strings.Index(reply, name)
				if at >= 0 && !textmatch.ContainsExact(reply, name) {
					at = -1
				}
			case pw.Affirms(name):
				at = strings.Index(strings.ToLower(reply), strings.ToLower(name))
			default:
				at = -1
			}
			if at >= 0 {
				out = append(out, claim{id: "name:" + name, at: at})
			}
		}
	}
	for _, o := range textmatch.UTCOffsets(reply) {
		out = append(out, claim{id: "offset:" + strconv.Itoa(o.Minutes), at: o.Start})
	}
	slices.SortStableFunc(out, func(a, b claim) int { return a.at - b.at })
	return out
}

// zoneMatches tells whether a zone claim names the zone point: the zone
// itself (or an alias of it), one of its everyday names, or one of its
// offsets.
func zoneMatches(c claim, point string) bool {
	point = strings.TrimSpace(point)
	kind, v, _ := strings.Cut(c.id, ":")
	switch kind {
	case "zone":
		return v == point || textmatch.Vocabulary.Same(v, point)
	case "name":
		return slices.Contains(textmatch.Vocabulary.Zones[point], v)
	case "offset":
		if loc := textmatch.IANAZone(point); loc != nil {
			for off := range textmatch.ZoneOffsets(loc) {
				if strconv.Itoa(off) == v {
					return true
				}
			}
		}
	}
	return false
}

// numberClaims are the numbers of a kind a reply asserts: those whose
// unit fits the kind, not given in the question, and not years or parts
// of clock times.
func numberClaims(kind Kind, reply, question string) []claim {
	var given []float64
	for _, n := range textmatch.Numbers(question) {
		given = append(given, n.Val, n.Hi)
	}
	var out []claim
	for i, n := range textmatch.Numbers(reply) {
		if slices.Contains(given, n.Val) || year(n) || clockPart(reply, n) {
			continue
		}
		switch kind {
		case Temperature:
			if n.Unit != "" && n.Unit != "c" && n.Unit != "f" {
				continue
			}
		case Days:
			if n.Unit != "day" {
				continue
			}
		}
		out = append(out, claim{id: strconv.Itoa(i), at: n.Start, num: n})
	}
	return out
}

// year tells whether a number is a year of the calendar ("1991–2020
// normals"), which states no quantity.
func year(n textmatch.Number) bool {
	return n.Unit == "" && n.Step == 1 && n.Val >= 1900 && n.Val <= 2100 && !n.Plus
}

// clockPart tells whether a number is part of a time of day ("18:00").
func clockPart(text string, n textmatch.Number) bool {
	before := strings.TrimRightFunc(text[:n.Start], unicode.IsSpace)
	after := text[n.End:]
	// Only a colon between digits makes a clock ("18:00"); a number set
	// after a label's colon ("It is: 5") is a claim.
	before = text[:n.Start]
	return len(before) > 1 && before[len(before)-1] == ':' && before[len(before)-2] >= '0' && before[len(before)-2] <= '9' ||
		len(after) > 1 && after[0] == ':' && after[1] >= '0' && after[1] <= '9'
}
