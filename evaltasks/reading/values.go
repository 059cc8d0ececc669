package reading

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/understudy/understudy/evaltasks/textmatch"
)

// The values an answer states, read once for every check of the answer:
// what counts as stating a value for the fact check counts for the
// unasked-value check and the copy guard alike. Markdown (lists, bold,
// tables) and quotes in prose are read as text; a number carries the kind
// of its unit, and a number whose unit is of another kind than the field
// it would state is a different value; a text of several words is stated
// only in its own word order.

// Kind is the kind of quantity a number measures, from its unit or from
// the field that holds it.
type Kind string

// Kinds of quantity.
const (
	// Plain is a number without a unit: it may state a value of any
	// kind.
	Plain       Kind = ""
	Temperature Kind = "temperature"
	Percent     Kind = "percent"
	Speed       Kind = "speed"
	Length      Kind = "length"
	Mass        Kind = "mass"
	Duration    Kind = "duration"
	Pressure    Kind = "pressure"
	Money       Kind = "money"
)

// Value is a number an answer states.
type Value struct {
	textmatch.Number
	Kind Kind
	// Currency is the currency of a sum ("USD", "EUR"), "" when the
	// answer names none.
	Currency string
	// Field is the label the answer gives the value: the words before a
	// colon on its line ("Humidity" of "Humidity: 69 %"), "" for none.
	Field string
}

// Reading is what an answer says, read once.
type Reading struct {
	// Raw is the answer as written.
	Raw string
	// Text is the answer as prose: markdown marks dropped, table cells
	// set apart as clauses, list marks removed.
	Text string
	// Values are the numbers it states, in order.
	Values []Value
	// Words are its words in order.
	Words []string

	m  *textmatch.Matcher
	pw textmatch.PolarWords
}

var (
	tableRuleRE = regexp.MustCompile(`(?m)^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$`)
	bulletRE    = regexp.MustCompile(`(?m)^(\s*)(?:[-*•+]|\d{1,2}[.)])\s+`)
	headingRE   = regexp.MustCompile(`(?m)^\s*#{1,6}\s+`)
	fenceLineRE = regexp.MustCompile("(?m)^\\s*```[a-zA-Z]*\\s*$")
	emphasisRE  = regexp.MustCompile(`\*\*|__|~~`)
)

// Prose is an answer's text as prose: markdown emphasis, headings, list
// marks, fences and table rules dropped, table cells split by "; ".
func Prose(answer string) string {
	s := strings.ReplaceAll(answer, "\r\n", "\n")
	s = fenceLineRE.ReplaceAllString(s, "")
	s = tableRuleRE.ReplaceAllString(s, "")
	s = headingRE.ReplaceAllString(s, "")
	s = bulletRE.ReplaceAllString(s, "$1")
	s = emphasisRE.ReplaceAllString(s, "")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "|") || strings.HasSuffix(t, "|") && strings.Count(t, "|") >= 2 {
			t = strings.Trim(t, "| ")
			cells := strings.Split(t, "|")
			for j := range cells {
				cells[j] = strings.TrimSpace(cells[j])
			}
			lines[i] = strings.Join(cells, "; ") + "."
		}
	}
	return strings.Join(lines, "\n")
}

// Read reads an answer once.
func Read(answer string) *Reading {
	text := Prose(answer)
	r := &Reading{Raw: answer, Text: text, Words: textmatch.Words(text), m: textmatch.NewMatcher(text), pw: textmatch.NewPolarWords(text)}
	for _, n := range textmatch.Numbers(text) {
		v := Value{Number: n, Kind: unitKind(n.Unit)}
		after := strings.ToLower(text[n.End:])
		switch {
		case v.Kind == Length && (strings.HasPrefix(after, "/h") || strings.HasPrefix(after, "ph") || strings.HasPrefix(after, "/s")):
			v.Kind = Speed
		case v.Kind == Plain:
			if w := firstWord(after); speedWords[w] || strings.HasPrefix(strings.TrimSpace(after), "m/s") {
				v.Kind = Speed
			} else if pressureWords[w] {
				v.Kind = Pressure
			} else if c := currencyWords[w]; c != "" {
				v.Kind, v.Currency = Money, c
			}
		}
		if c := currencyBefore(text[:n.Start]); c != "" && (v.Kind == Plain || v.Kind == Money) {
			v.Kind, v.Currency = Money, c
		}
		v.Field = labelOf(text, n.Start)
		r.Values = append(r.Values, v)
	}
	return r
}

// unitKind is the kind of a unit textmatch reads.
func unitKind(unit string) Kind {
	switch unit {
	case "c", "f":
		return Temperature
	case "%":
		return Percent
	case "day", "hour", "minute", "second":
		return Duration
	case "km", "mile", "mm", "cm", "m", "ft":
		return Length
	case "kg", "lb":
		return Mass
	}
	return Plain
}

var (
	speedWords    = map[string]bool{"mph": true, "kph": true, "kmh": true, "knots": true, "kn": true, "kt": true}
	pressureWords = map[string]bool{"mb": true, "hpa": true, "mbar": true, "inhg": true}
	currencyWords = map[string]string{"usd": "USD", "dollars": "USD", "dollar": "USD", "eur": "EUR", "euros": "EUR",
		"euro": "EUR", "gbp": "GBP", "jpy": "JPY", "yen": "JPY", "chf": "CHF", "cad": "CAD", "aud": "AUD", "brl": "BRL"}
	currencySigns = map[string]string{"$": "USD", "us$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "r$": "BRL",
		"usd": "USD", "eur": "EUR", "gbp": "GBP", "jpy": "JPY", "chf": "CHF", "cad": "CAD", "aud": "AUD", "brl": "BRL",
		"ca$": "CAD", "a$": "AUD"}
)

func firstWord(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	end := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		end = len(s)
	}
	return s[:end]
}

// currencyBefore is the currency a sign or code just before a number
// names ("$553", "€ 119", "EUR 119").
func currencyBefore(before string) string {
	b := strings.ToLower(strings.TrimRightFunc(before, unicode.IsSpace))
	for _, n := range []int{3, 2, 1} {
		if len(b) >= n {
			tail := b[len(b)-n:]
			if c, ok := currencySigns[tail]; ok && (n == 1 || len(b) == n || !unicode.IsLetter(rune(b[len(b)-n-1]))) {
				return c
			}
		}
	}
	for sign, c := range map[string]string{"€": "EUR", "£": "GBP", "¥": "JPY"} {
		if strings.HasSuffix(b, sign) {
			return c
		}
	}
	return ""
}

// labelOf is the label of a value: the words between its line's start
// (or the last clause break) and a colon before it.
func labelOf(text string, at int) string {
	line := text[strings.LastIndexByte(text[:at], '\n')+1 : at]
	i := strings.LastIndexByte(line, ':')
	if i < 0 {
		return ""
	}
	label := line[:i]
	if j := strings.LastIndexAny(label, ";.(|"); j >= 0 {
		label = label[j+1:]
	}
	return strings.TrimSpace(label)
}

// keyKinds name the fields whose numbers are of a kind, by the words of
// their keys.
var keyKinds = []struct {
	kind  Kind
	words map[string]bool
}{
	{Temperature, set(`temp temperature feelslike feels heatindex windchill chill dewpoint dew maxtemp mintemp avgtemp celsius fahrenheit`)},
	{Speed, set(`kph mph speed gust maxwind`)},
	{Pressure, set(`pressure mb`)},
	{Percent, set(`humidity avghumidity cloud clouds chance percent pct percentage`)},
	{Duration, set(`duration minutes mins hours seconds secs`)},
	{Length, set(`km miles vis visibility distance precip totalprecip mm cm`)},
	{Money, set(`price cost amount fare total raw formatted`)},
}

func set(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}

// FieldKind is the kind of the numbers a field of a tool result holds,
// from its key ("temp_c": Temperature, "wind_kph": Speed); Plain when
// the key names none.
func FieldKind(key string) Kind {
	ws := textmatch.SplitName(key)
	for _, kk := range keyKinds {
		for _, w := range ws {
			if kk.words[w] {
				return kk.kind
			}
		}
	}
	return Plain
}

// PathsKind is the kind of the fields that hold a value: the kind of the
// first of them that has one.
func PathsKind(paths []string) Kind {
	for _, p := range paths {
		key := strings.TrimRight(p[strings.LastIndexByte(p, '.')+1:], "[]")
		if k := FieldKind(key); k != Plain {
			return k
		}
	}
	// A key of no kind takes its object's ("all" of "clouds").
	for _, p := range paths {
		if i := strings.LastIndexByte(p, '.'); i > 0 {
			parent := strings.TrimRight(p[strings.LastIndexByte(p[:i], '.')+1:i], "[]")
			if k := FieldKind(parent); k != Plain && k != Money {
				return k
			}
		}
	}
	return Plain
}

// fits tells whether a stated value can state a value of a field of kind
// want: a number without a unit states any, a number with a unit only a
// value of its kind (a temperature is never a gust).
func (v Value) fits(want Kind) bool {
	if v.Kind == Plain || want == Plain {
		return v.Kind != Money || want == Plain || want == Money
	}
	return v.Kind == want
}

// moneyFactRE reads a sum written with its currency ("$553", "€119",
// "USD 553", "553 EUR").
var moneyFactRE = regexp.MustCompile(`(?i)^\s*(US\$|CA\$|A\$|R\$|[$€£¥]|USD|EUR|GBP|JPY|CHF|CAD|AUD|BRL)\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*$|^\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(USD|EUR|GBP|JPY|CHF|CAD|AUD|BRL|€)\s*$`)

// Sum reads a sum written with its currency: its amount and currency.
func Sum(v string) (amount float64, currency string, ok bool) {
	g := moneyFactRE.FindStringSubmatch(v)
	if g == nil {
		return 0, "", false
	}
	num, cur := g[2], g[1]
	if num == "" {
		num, cur = g[3], g[4]
	}
	x, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
	if err != nil {
		return 0, "", false
	}
	c := currencySigns[strings.ToLower(cur)]
	if c == "" {
		c = currencyWords[strings.ToLower(cur)]
	}
	return x, c, true
}

// States judges whether the answer states a value of a tool result (an
// expected fact or any other value) held by fields of kind kind, its
// numbers within tol: a sum by amount and currency, as written or
// rounded to the unit; a number by a stated number that fits the kind; a
// text of three words or more in its own order; anything else as
// textmatch matches it (times, dates, zones, names by their aliases,
// words not denied), a name also by its adjective ("misty" for "Mist")
// or without the generic words of a company's name ("Delta" for "Delta
// Air Lines").
func (r *Reading) States(v string, kind Kind, tol textmatch.Tolerance) textmatch.Verdict {
	if amount, cur, ok := Sum(v); ok {
		return r.statesSum(amount, cur)
	}
	if _, _, _, _, ok := textmatch.NumberFact(v); ok {
		return r.m.NumberWithin(v, tol, func(n textmatch.Number) bool { return r.valueAt(n).fits(kind) })
	}
	ws := textmatch.Words(v)
	if prose(v) && !r.inOrder(v) {
		return textmatch.FactMissing
	}
	got := r.m.FactWithin(v, tol)
	if got == textmatch.FactStated || len(ws) == 0 {
		return got
	}
	if len(ws) == 1 && r.adjective(ws[0]) {
		return textmatch.FactStated
	}
	if head := companyHead(ws); head != "" && r.pw.Affirms(head) {
		return textmatch.FactStated
	}
	return got
}

// Where is the byte offset in Text where the answer first states a value
// of a tool result, -1 when it does not write it as written (a number by
// its first stated number within tol that fits the kind).
func (r *Reading) Where(v string, kind Kind, tol textmatch.Tolerance) int {
	if want, unit, step, _, ok := textmatch.NumberFact(v); ok {
		for _, n := range r.Values {
			if n.fits(kind) && n.Within(want, unit, step, tol) {
				return n.Start
			}
		}
		return -1
	}
	return strings.Index(strings.ToLower(r.Text), strings.ToLower(strings.Fields(v + " x")[0]))
}

// valueAt is the value read at a number's position.
func (r *Reading) valueAt(n textmatch.Number) Value {
	for _, v := range r.Values {
		if v.Start == n.Start {
			return v
		}
	}
	// A compound duration ("2 h 35 min") is read by textmatch alone.
	return Value{Number: n, Kind: unitKind(n.Unit)}
}

// statesSum tells whether a stated sum is the amount: the same currency
// (or none named beside it), as written or rounded to the whole unit.
func (r *Reading) statesSum(amount float64, cur string) textmatch.Verdict {
	for _, v := range r.Values {
		if v.Kind != Money || v.Currency != "" && cur != "" && v.Currency != cur {
			continue
		}
		if v.Val == amount || v.Step <= 1 && amount == float64(int64(amount)) && int64(v.Val+0.5) == int64(amount) || v.Step >= 1 && v.Val == float64(int64(amount+0.5)) {
			return textmatch.FactStated
		}
	}
	return textmatch.FactMissing
}

// inOrder tells whether the answer holds most of a text's content words
// in their own order: each part of the text (between commas, dashes,
// brackets) as an ordered run of its words, close together, the parts
// in any order ("the non-refundable Superior Double Room"). A text with
// its words scrambled states nothing.
func (r *Reading) inOrder(v string) bool {
	all, got := map[string]bool{}, map[string]bool{}
	for _, part := range partRE.Split(v, -1) {
		want := textmatch.ContentWords(part)
		for _, w := range want {
			all[w] = true
		}
		for _, w := range r.longestRun(want) {
			got[w] = true
		}
	}
	return len(all) > 0 && float64(len(got)) >= textmatch.PhraseCovered*float64(len(all))-1e-9
}

// partRE splits a text into its parts.
var partRE = regexp.MustCompile(`[,;:()\[\]]|\s[-–—]\s`)

// longestRun is the longest run of a part's stemmed words the answer
// holds in their order, within a window of twice the part's length.
func (r *Reading) longestRun(want []string) []string {
	var best []string
	span := 2*len(want) + 2
	for i := range r.Words {
		var run []string
		k := 0
		for j := i; j < len(r.Words) && j < i+span && k < len(want); j++ {
			for kk := k; kk < len(want); kk++ {
				if sameWord(r.Words[j], want[kk]) {
					run = append(run, want[kk])
					k = kk + 1
					break
				}
			}
			if len(run) == 0 {
				break // a run starts on a word of the part
			}
		}
		if len(run) > len(best) {
			best = run
		}
	}
	return best
}

// prose tells whether a value is prose: three words or more of letters
// (not a date, a time stamp or a code).
func prose(v string) bool {
	n := 0
	for _, w := range textmatch.Words(v) {
		if !textmatch.IsStopWord(w) && strings.IndexFunc(w, unicode.IsDigit) < 0 {
			n++
		}
	}
	return n >= 3 && textmatch.IANAZone(v) == nil
}

// sameWord tells whether a word of the answer is a stemmed content word.
func sameWord(w, stem string) bool { return w == stem || textmatch.Stem(w) == stem }

// adjective tells whether the answer states a one-word name by its
// adjective, not denied ("misty" for "Mist", "foggy" for "Fog").
func (r *Reading) adjective(w string) bool {
	if len(w) < 3 || !unicode.IsLetter(rune(w[len(w)-1])) {
		return false
	}
	for _, a := range []string{w + "y", w + w[len(w)-1:] + "y"} {
		if r.pw.Affirms(a) {
			return true
		}
	}
	return false
}

// companyWords are the generic words of a company's name, which people
// leave out ("United" for "United Airlines").
var companyWords = set(`airlines airline airways air lines line aviation`)

// companyHead is a company's name without its generic trailing words,
// "" when nothing or nothing distinctive is left.
func companyHead(ws []string) string {
	n := len(ws)
	for n > 0 && companyWords[ws[n-1]] {
		n--
	}
	if n == len(ws) || n == 0 {
		return ""
	}
	return strings.Join(ws[:n], " ")
}

// Numbers are the answer's values, for checks that read numbers of a
// kind.
func (r *Reading) Numbers() []Value { return r.Values }

// Matcher is the answer's textmatch reading, for checks of times, dates
// and phrases.
func (r *Reading) Matcher() *textmatch.Matcher { return r.m }

// Polar is which of the answer's words it affirms and which it denies.
func (r *Reading) Polar() textmatch.PolarWords { return r.pw }
