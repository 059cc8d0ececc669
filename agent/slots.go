package agent

import (
	"fmt"
	"net"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/world"
)

// Slot filling: reading the values an instruction gives — dates (relative
// ones against the sandbox clock), numbers, amounts, currencies, places,
// languages, quoted strings, URLs, emails, IP addresses and IATA codes —
// and matching them to an API's parameters by name, description and type.

// Facts are the values found in one instruction, each list in text order.
type Facts struct {
	Text       string
	Dates      []time.Time
	Years      []int
	Months     []time.Month
	Numbers    []Number
	Currencies []string // ISO 4217 codes
	Places     []Place
	Languages  []string // ISO 639-1 codes
	Quoted     []string
	URLs       []string
	Emails     []string
	IPs        []string
	IATA       []string
	Expression string // an arithmetic expression, "" if none
}

// Number is a number in the text with the word after it ("3 days" → "days").
type Number struct {
	Value  float64
	Unit   string
	Before string // the word before it
	Pos    int
}

// Place is a city or country named in the text.
type Place struct {
	Text    string
	City    *world.City
	Country *world.Country
	// Role is "origin", "destination" or "" from the words around it.
	Role string
	Pos  int
}

// Roles of places and dates.
const (
	roleOrigin      = "origin"
	roleDestination = "destination"
)

var (
	isoDateRE  = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	slashRE    = regexp.MustCompile(`\b(\d{1,2})/(\d{1,2})/(\d{4})\b`)
	monthNames = map[string]time.Month{
		"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
		"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
		"september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
		"december": 12, "dec": 12,
	}
	monthAlt        = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`
	dayMonthRE      = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+` + monthAlt + `\.?(?:,?\s+(\d{4}))?\b`)
	monthDayRE      = regexp.MustCompile(`(?i)\b` + monthAlt + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?\b`)
	monthOnlyRE     = regexp.MustCompile(`(?i)\b` + monthAlt + `\b(?:\s+(\d{4}))?`)
	weekdayRE       = regexp.MustCompile(`(?i)\b(next|this|on|coming)?\s*(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`)
	inDaysRE        = regexp.MustCompile(`(?i)\bin\s+(\d+|a|one|two|three|four|five|six|seven|ten)\s+(day|week)s?\b`)
	relativeDayRE   = regexp.MustCompile(`(?i)\b(day after tomorrow|today|tonight|tomorrow|yesterday|next week|next weekend|this weekend|next month|next year|this year|last year)\b`)
	yearRE          = regexp.MustCompile(`\b(1[6-9]\d\d|2\d\d\d)\b`)
	numberRE        = regexp.MustCompile(`(?:^|[^\w.])(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)(%?)`)
	wordAfterRE     = regexp.MustCompile(`^\s*([A-Za-z]+)`)
	wordBeforeRE    = regexp.MustCompile(`([A-Za-z]+)\s*$`)
	quotedRE        = regexp.MustCompile("\"([^\"]+)\"|“([^”]+)”|'([^']{2,})'|`([^`]+)`")
	urlRE           = regexp.MustCompile(`https?://[^\s"'<>)\]]+`)
	emailRE         = regexp.MustCompile(`\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b`)
	ipRE            = regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}\b|\b[0-9a-fA-F]{1,4}(?::[0-9a-fA-F]{0,4}){2,7}\b`)
	upperCodeRE     = regexp.MustCompile(`\b[A-Z]{3}\b`)
	wordRE          = regexp.MustCompile(`[\p{L}\p{N}][\p{L}\p{N}'’.-]*`)
	expressionRE    = regexp.MustCompile(`\d+(?:\.\d+)?\s*%\s*of\s*\d[\d,.]*|(?:sqrt|\(|\d)[\d\s.,+\-*/^()%x×÷]*\d\)?`)
	smallNumberWord = map[string]float64{"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
	currencySymbols = map[string]string{"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", "R$": "BRL"}
	currencyWords   = map[string]string{
		"dollar": "USD", "dollars": "USD", "usd": "USD", "euro": "EUR", "euros": "EUR", "pound": "GBP", "pounds": "GBP",
		"sterling": "GBP", "yen": "JPY", "yuan": "CNY", "renminbi": "CNY", "rupee": "INR", "rupees": "INR",
		"franc": "CHF", "francs": "CHF", "real": "BRL", "reais": "BRL", "peso": "MXN", "pesos": "MXN", "won": "KRW",
		"krona": "SEK", "kronor": "SEK", "krone": "NOK", "zloty": "PLN", "lira": "TRY", "rand": "ZAR", "baht": "THB",
	}
	originCues      = map[string]bool{"from": true, "leaving": true, "departing": true, "out": true}
	destinationCues = map[string]bool{"to": true, "into": true, "arriving": true, "towards": true, "reach": true, "visit": true, "visiting": true}
)

// stopWords are words that never start a place name, however capitalised.
var stopWords = map[string]bool{
	"i": true, "a": true, "an": true, "the": true, "in": true, "on": true, "at": true, "to": true, "from": true,
	"for": true, "of": true, "and": true, "or": true, "what": true, "which": true, "how": true, "is": true, "are": true,
	"me": true, "my": true, "please": true, "can": true, "could": true, "would": true, "will": true, "do": true,
	"find": true, "get": true, "show": true, "tell": true, "give": true, "search": true, "look": true, "book": true,
	"with": true, "by": true, "it": true, "this": true, "that": true, "be": true, "there": true, "any": true, "some": true,
	"flight": true, "flights": true, "hotel": true, "hotels": true, "weather": true, "news": true, "next": true,
	"today": true, "tomorrow": true, "now": true, "current": true, "currently": true, "us": true, "we": true, "you": true,
	"want": true, "need": true, "like": true, "about": true, "all": true, "then": true, "also": true, "time": true,
	"list": true, "use": true, "check": true, "convert": true, "translate": true, "may": true, "march": true,
}

// ExtractFacts reads the values of an instruction; now is the sandbox's
// present, against which relative dates are resolved.
func ExtractFacts(text string, w *world.World, now time.Time) *Facts {
	f := &Facts{Text: text}
	taken := make([]bool, len(text)) // bytes consumed by dates, URLs, ...
	mark := func(a, b int) {
		for i := a; i < b && i < len(taken); i++ {
			taken[i] = true
		}
	}
	free := func(a, b int) bool {
		for i := a; i < b && i < len(taken); i++ {
			if taken[i] {
				return false
			}
		}
		return true
	}

	for _, m := range urlRE.FindAllStringIndex(text, -1) {
		f.URLs = append(f.URLs, strings.TrimRight(text[m[0]:m[1]], ".,;:!?"))
		mark(m[0], m[1])
	}
	for _, m := range emailRE.FindAllStringIndex(text, -1) {
		if free(m[0], m[1]) {
			f.Emails = append(f.Emails, text[m[0]:m[1]])
			mark(m[0], m[1])
		}
	}
	for _, m := range ipRE.FindAllStringIndex(text, -1) {
		if free(m[0], m[1]) && net.ParseIP(text[m[0]:m[1]]) != nil {
			f.IPs = append(f.IPs, text[m[0]:m[1]])
			mark(m[0], m[1])
		}
	}
	for _, m := range quotedRE.FindAllStringSubmatchIndex(text, -1) {
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				f.Quoted = append(f.Quoted, text[m[g]:m[g+1]])
				break
			}
		}
	}
	f.extractDates(text, now, mark, free)
	for _, m := range expressionRE.FindAllString(text, -1) {
		m = strings.TrimSpace(m)
		if strings.ContainsAny(m, "+-*/^%x×÷") && len(m) > len(f.Expression) {
			f.Expression = m
		}
	}
	f.extractNumbers(text, free)
	f.extractCurrencies(text, w)
	f.extractPlaces(text, w, free)
	f.extractLanguages(text, w)
	return f
}

func (f *Facts) extractDates(text string, now time.Time, mark func(a, b int), free func(a, b int) bool) {
	type found struct {
		pos int
		t   time.Time
	}
	var dates []found
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	add := func(a, b int, t time.Time) {
		if free(a, b) {
			dates = append(dates, found{a, t})
			mark(a, b)
		}
	}
	// next occurrence on or after today when no year is given
	dateOf := func(y int, m time.Month, d int) (time.Time, bool) {
		if d < 1 || d > 31 {
			return time.Time{}, false
		}
		explicit := y != 0
		if !explicit {
			y = today.Year()
		}
		t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		if t.Day() != d {
			return time.Time{}, false
		}
		if !explicit && t.Before(today) {
			t = t.AddDate(1, 0, 0)
		}
		return t, true
	}
	for _, m := range isoDateRE.FindAllStringSubmatchIndex(text, -1) {
		y, _ := strconv.Atoi(text[m[2]:m[3]])
		mo, _ := strconv.Atoi(text[m[4]:m[5]])
		d, _ := strconv.Atoi(text[m[6]:m[7]])
		if mo >= 1 && mo <= 12 {
			if t, ok := dateOf(y, time.Month(mo), d); ok {
				add(m[0], m[1], t)
			}
		}
	}
	for _, m := range slashRE.FindAllStringSubmatchIndex(text, -1) {
		// Day first, as most of the world writes it, unless that cannot be a month.
		a, _ := strconv.Atoi(text[m[2]:m[3]])
		b, _ := strconv.Atoi(text[m[4]:m[5]])
		y, _ := strconv.Atoi(text[m[6]:m[7]])
		d, mo := a, b
		if mo > 12 {
			d, mo = b, a
		}
		if mo >= 1 && mo <= 12 {
			if t, ok := dateOf(y, time.Month(mo), d); ok {
				add(m[0], m[1], t)
			}
		}
	}
	for _, re := range []*regexp.Regexp{dayMonthRE, monthDayRE} {
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			var dayS, monS string
			if re == dayMonthRE {
				dayS, monS = text[m[2]:m[3]], text[m[4]:m[5]]
			} else {
				monS, dayS = text[m[2]:m[3]], text[m[4]:m[5]]
			}
			y := 0
			if m[6] >= 0 {
				y, _ = strconv.Atoi(text[m[6]:m[7]])
			}
			d, _ := strconv.Atoi(dayS)
			// "may" alone is a verb too often; only with a day it is a month.
			if t, ok := dateOf(y, monthNames[strings.ToLower(monS)], d); ok {
				add(m[0], m[1], t)
			}
		}
	}
	for _, m := range relativeDayRE.FindAllStringSubmatchIndex(text, -1) {
		var t time.Time
		switch strings.ToLower(text[m[2]:m[3]]) {
		case "today", "tonight":
			t = today
		case "tomorrow":
			t = today.AddDate(0, 0, 1)
		case "day after tomorrow":
			t = today.AddDate(0, 0, 2)
		case "yesterday":
			t = today.AddDate(0, 0, -1)
		case "next week":
			t = today.AddDate(0, 0, 7-int(today.Weekday()-time.Monday+7)%7)
		case "this weekend":
			t = today.AddDate(0, 0, (int(time.Saturday)-int(today.Weekday())+7)%7)
		case "next weekend":
			t = today.AddDate(0, 0, (int(time.Saturday)-int(today.Weekday())+7)%7+7)
		case "next month":
			t = time.Date(today.Year(), today.Month()+1, 1, 0, 0, 0, 0, time.UTC)
		case "next year":
			f.Years = append(f.Years, today.Year()+1)
			mark(m[0], m[1])
			continue
		case "this year":
			f.Years = append(f.Years, today.Year())
			mark(m[0], m[1])
			continue
		case "last year":
			f.Years = append(f.Years, today.Year()-1)
			mark(m[0], m[1])
			continue
		}
		add(m[0], m[1], t)
	}
	for _, m := range inDaysRE.FindAllStringSubmatchIndex(text, -1) {
		n, err := strconv.Atoi(text[m[2]:m[3]])
		if err != nil {
			n = int(smallNumberWord[strings.ToLower(text[m[2]:m[3]])])
		}
		if strings.EqualFold(text[m[4]:m[5]], "week") {
			n *= 7
		}
		add(m[0], m[1], today.AddDate(0, 0, n))
	}
	for _, m := range weekdayRE.FindAllStringSubmatchIndex(text, -1) {
		wd := weekdayOf(text[m[4]:m[5]])
		ahead := (int(wd) - int(today.Weekday()) + 7) % 7
		if m[2] >= 0 && strings.EqualFold(text[m[2]:m[3]], "next") && ahead == 0 {
			ahead = 7
		}
		add(m[0], m[1], today.AddDate(0, 0, ahead))
	}
	sort.SliceStable(dates, func(i, j int) bool { return dates[i].pos < dates[j].pos })
	for _, d := range dates {
		f.Dates = append(f.Dates, d.t)
	}
	for _, m := range monthOnlyRE.FindAllStringSubmatchIndex(text, -1) {
		word := strings.ToLower(text[m[2]:m[3]])
		if !free(m[0], m[1]) || word == "may" && text[m[2]] == 'm' || word == "mar" || word == "jan" && text[m[2]] == 'j' {
			continue
		}
		f.Months = append(f.Months, monthNames[word])
	}
	for _, m := range yearRE.FindAllStringIndex(text, -1) {
		if free(m[0], m[1]) || len(f.Dates) == 0 {
			y, _ := strconv.Atoi(text[m[0]:m[1]])
			f.Years = append(f.Years, y)
		}
	}
	for _, d := range f.Dates {
		if !containsInt(f.Years, d.Year()) {
			f.Years = append(f.Years, d.Year())
		}
		if !containsMonth(f.Months, d.Month()) {
			f.Months = append(f.Months, d.Month())
		}
	}
}

func weekdayOf(s string) time.Weekday {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(d.String(), s) {
			return d
		}
	}
	return time.Monday
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func containsMonth(s []time.Month, v time.Month) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func (f *Facts) extractNumbers(text string, free func(a, b int) bool) {
	for _, m := range numberRE.FindAllStringSubmatchIndex(text, -1) {
		a, b := m[2], m[3]
		if !free(a, b) {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(text[a:b], ",", ""), 64)
		if err != nil {
			continue
		}
		n := Number{Value: v, Pos: a}
		if m[4] < m[5] {
			n.Unit = "%"
		} else if w := wordAfterRE.FindStringSubmatch(text[b:]); w != nil {
			n.Unit = strings.ToLower(w[1])
		}
		if w := wordBeforeRE.FindStringSubmatch(text[:a]); w != nil {
			n.Before = strings.ToLower(w[1])
		}
		f.Numbers = append(f.Numbers, n)
	}
	for _, w := range wordRE.FindAllStringIndex(text, -1) {
		word := strings.ToLower(text[w[0]:w[1]])
		v, ok := smallNumberWord[word]
		if !ok || word == "a" {
			continue
		}
		n := Number{Value: v, Pos: w[0]}
		if u := wordAfterRE.FindStringSubmatch(text[w[1]:]); u != nil {
			n.Unit = strings.ToLower(u[1])
		}
		f.Numbers = append(f.Numbers, n)
	}
	sort.SliceStable(f.Numbers, func(i, j int) bool { return f.Numbers[i].Pos < f.Numbers[j].Pos })
}

func (f *Facts) extractCurrencies(text string, w *world.World) {
	type hit struct {
		pos  int
		code string
	}
	var hits []hit
	for sym, code := range currencySymbols {
		for i := strings.Index(text, sym); i >= 0; {
			hits = append(hits, hit{i, code})
			j := strings.Index(text[i+len(sym):], sym)
			if j < 0 {
				break
			}
			i += len(sym) + j
		}
	}
	for _, m := range upperCodeRE.FindAllStringIndex(text, -1) {
		if _, ok := w.Currency(text[m[0]:m[1]]); ok {
			hits = append(hits, hit{m[0], text[m[0]:m[1]]})
		}
	}
	for _, m := range wordRE.FindAllStringIndex(text, -1) {
		if code, ok := currencyWords[strings.ToLower(text[m[0]:m[1]])]; ok && text[m[0]:m[1]] != strings.ToUpper(text[m[0]:m[1]]) {
			hits = append(hits, hit{m[0], code})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].pos != hits[j].pos {
			return hits[i].pos < hits[j].pos
		}
		return hits[i].code < hits[j].code
	})
	for _, h := range hits {
		// "R$" also holds "$": keep the first code at a position only.
		if n := len(f.Currencies); n > 0 && f.Currencies[n-1] == h.code {
			continue
		}
		f.Currencies = append(f.Currencies, h.code)
	}
}

// extractPlaces finds city and country names: the longest run of up to
// four words, starting with a capital (or an all-capital code), that the
// world knows, left to right.
func (f *Facts) extractPlaces(text string, w *world.World, free func(a, b int) bool) {
	words := wordRE.FindAllStringIndex(text, -1)
	for i := 0; i < len(words); {
		first := text[words[i][0]:words[i][1]]
		if !startsUpper(first) || stopWords[strings.ToLower(first)] && first != strings.ToUpper(first) || !free(words[i][0], words[i][1]) {
			i++
			continue
		}
		matched := 0
		var p Place
		for n := min(4, len(words)-i); n >= 1; n-- {
			a, b := words[i][0], words[i+n-1][1]
			span := strings.TrimRight(text[a:b], ".’'")
			if n > 1 && !startsUpper(text[words[i+n-1][0]:words[i+n-1][1]]) {
				continue
			}
			if c, ok := w.FindCity(span); ok && (len(span) > 3 || span == strings.ToUpper(span)) {
				p = Place{Text: span, City: c, Pos: a}
				if k, ok := w.Country(c.Country); ok {
					p.Country = k
				}
				matched = n
				break
			}
			if k, ok := w.Country(span); ok && (len(span) > 3 || span == strings.ToUpper(span) && len(span) >= 2) {
				if _, isCur := w.Currency(span); isCur {
					continue
				}
				p = Place{Text: span, Country: k, Pos: a}
				matched = n
				break
			}
		}
		if matched == 0 {
			i++
			continue
		}
		if i > 0 {
			before := strings.ToLower(text[words[i-1][0]:words[i-1][1]])
			switch {
			case originCues[before]:
				p.Role = roleOrigin
			case destinationCues[before]:
				p.Role = roleDestination
			}
		}
		f.Places = append(f.Places, p)
		i += matched
	}
	for _, m := range upperCodeRE.FindAllStringIndex(text, -1) {
		code := text[m[0]:m[1]]
		if _, ok := w.CityByAirport(code); ok {
			f.IATA = append(f.IATA, code)
		}
	}
}

func startsUpper(s string) bool {
	for _, r := range s {
		return r >= 'A' && r <= 'Z' || r > 0x7f && strings.ToUpper(string(r)) == string(r) && strings.ToLower(string(r)) != string(r)
	}
	return false
}

func (f *Facts) extractLanguages(text string, w *world.World) {
	for _, m := range wordRE.FindAllStringIndex(text, -1) {
		word := text[m[0]:m[1]]
		if !startsUpper(word) || len(word) < 4 {
			continue
		}
		if l, ok := w.Language(word); ok && !containsString(f.Languages, l.Code) {
			f.Languages = append(f.Languages, l.Code)
		}
	}
}

func containsString(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// place returns the place for a role: the one marked with it, else by
// order (origin first, destination second), else the first.
func (f *Facts) place(role string) (Place, bool) {
	if len(f.Places) == 0 {
		return Place{}, false
	}
	for _, p := range f.Places {
		if role != "" && p.Role == role {
			return p, true
		}
	}
	switch role {
	case roleOrigin:
		for _, p := range f.Places {
			if p.Role == "" {
				return p, true
			}
		}
		return Place{}, false
	case roleDestination:
		var unmarked []Place
		for _, p := range f.Places {
			if p.Role == "" {
				unmarked = append(unmarked, p)
			}
		}
		hasOrigin := false
		for _, p := range f.Places {
			hasOrigin = hasOrigin || p.Role == roleOrigin
		}
		switch {
		case hasOrigin && len(unmarked) > 0:
			return unmarked[0], true
		case len(unmarked) > 1:
			return unmarked[1], true
		case len(unmarked) == 1 && len(f.Places) == 1:
			// "flights to nowhere else": a lone place is where one goes.
			return unmarked[0], true
		}
		return Place{}, false
	}
	for _, p := range f.Places {
		if p.Role != roleOrigin || len(f.Places) == 1 {
			return p, true
		}
	}
	return f.Places[0], true
}

// number returns the number whose unit or preceding word matches one of cues.
func (f *Facts) number(cues ...string) (float64, bool) {
	for _, n := range f.Numbers {
		for _, c := range cues {
			if n.Unit == c || strings.TrimSuffix(n.Unit, "s") == c || n.Before == c {
				return n.Value, true
			}
		}
	}
	return 0, false
}

// SlotParam is what slot filling knows of a parameter.
type SlotParam struct {
	Name        string
	Kind        string // JSON Schema type
	Description string
	Format      string
	Enum        []any
	Required    bool
}

// Fill finds a value for a parameter in the facts; role ("origin",
// "destination" or "") says which place a place-like parameter wants.
func (f *Facts) Fill(p SlotParam, role string) (any, bool) {
	name := strings.ToLower(p.Name)
	desc := strings.ToLower(p.Description)
	has := func(s string, subs ...string) bool {
		for _, x := range subs {
			if strings.Contains(s, x) {
				return true
			}
		}
		return false
	}
	if len(p.Enum) > 0 {
		return f.fillEnum(p)
	}
	switch {
	case has(name, "email"):
		return first(f.Emails)
	case name == "ip" || strings.HasSuffix(name, "_ip") || has(desc, "ip address"):
		return first(f.IPs)
	case has(name, "url") || name == "image" || has(desc, "url of"):
		return first(f.URLs)
	case idParam(p.Name):
		return f.fillID(p, role)
	case has(name, "date") || name == "dt" || p.Format == "date" || has(desc, "yyyy-mm-dd"):
		return f.fillDate(name)
	case name == "year":
		if len(f.Years) > 0 {
			return f.Years[0], true
		}
		return nil, false
	case name == "month":
		if len(f.Months) > 0 {
			return int(f.Months[0]), true
		}
		return nil, false
	case has(name, "iata"):
		if len(f.IATA) > 0 {
			return f.IATA[0], true
		}
		if pl, ok := f.place(role); ok && pl.City != nil && len(pl.City.Airports) > 0 {
			return pl.City.Airports[0], true
		}
		return nil, false
	case name == "from" && has(desc, "quote", "currency") || name == "to" && has(desc, "quote", "currency") ||
		has(name, "currency", "base", "symbol") && has(desc, "currency", "iso 4217", "quote"):
		return f.fillCurrency(name)
	case has(name, "country") || name == "code" && has(desc, "country", "3166"):
		return f.fillCountry(p)
	case name == "lat" || name == "latitude" || name == "lon" || name == "lng" || name == "longitude":
		return f.fillCoordinate(name, role)
	case has(name, "timezone", "tz"):
		if pl, ok := f.place(role); ok && pl.City != nil {
			return pl.City.TimeZone, true
		}
		return firstQuoted(f)
	case has(name, "lang", "target", "source") && has(desc, "language", "639"):
		return f.fillLanguage(name)
	case name == "expression" || has(desc, "expression"):
		if f.Expression != "" {
			return f.Expression, true
		}
		if e := wordExpression(f.Text); e != "" {
			return e, true
		}
		return firstQuoted(f)
	case name == "code" && has(desc, "program", "python"):
		return firstQuoted(f)
	case p.Kind == "number" || p.Kind == "integer":
		return f.fillNumber(p)
	case p.Kind == "boolean":
		return nil, false
	}
	return f.fillText(p, role)
}

func first(s []string) (any, bool) {
	if len(s) == 0 {
		return nil, false
	}
	return s[0], true
}

func firstQuoted(f *Facts) (any, bool) { return first(f.Quoted) }

func (f *Facts) fillEnum(p SlotParam) (any, bool) {
	low := strings.ToLower(f.Text)
	for _, e := range p.Enum {
		s := strings.ToLower(fmt.Sprint(e))
		if s != "" && regexp.MustCompile(`\b`+regexp.QuoteMeta(s)+`\b`).MatchString(low) {
			return e, true
		}
	}
	return nil, false
}

func (f *Facts) fillDate(name string) (any, bool) {
	if len(f.Dates) == 0 {
		return nil, false
	}
	i := 0
	if strings.Contains(name, "return") || strings.Contains(name, "checkout") || strings.Contains(name, "end") || name == "departure_date" || name == "to_date" {
		i = 1
	}
	if i >= len(f.Dates) {
		return nil, false
	}
	return f.Dates[i].Format(time.DateOnly), true
}

func (f *Facts) fillCurrency(name string) (any, bool) {
	i := 0
	if name == "to" || strings.Contains(name, "target") || strings.Contains(name, "to_") {
		i = 1
	}
	if i >= len(f.Currencies) {
		return nil, false
	}
	return f.Currencies[i], true
}

func (f *Facts) fillCountry(p SlotParam) (any, bool) {
	for _, pl := range f.Places {
		if pl.Country == nil {
			continue
		}
		desc := strings.ToLower(p.Description)
		switch {
		case strings.Contains(desc, "alpha-3") || strings.Contains(desc, "three-letter"):
			return pl.Country.Alpha3, true
		case strings.Contains(desc, "name") && !strings.Contains(desc, "code"):
			return pl.Country.Name, true
		}
		return pl.Country.Alpha2, true
	}
	return nil, false
}

func (f *Facts) fillCoordinate(name, role string) (any, bool) {
	for _, n := range f.Numbers {
		if n.Value != float64(int(n.Value)) || n.Before == "lat" || n.Before == "latitude" || n.Before == "lon" || n.Before == "longitude" {
			// Decimal coordinates come as a pair, latitude first.
			for j, m := range f.Numbers {
				if m.Pos == n.Pos && j+1 < len(f.Numbers) {
					if name == "lat" || name == "latitude" {
						return n.Value, true
					}
					return f.Numbers[j+1].Value, true
				}
			}
		}
	}
	if pl, ok := f.place(role); ok && pl.City != nil {
		if name == "lat" || name == "latitude" {
			return pl.City.Lat, true
		}
		return pl.City.Lon, true
	}
	return nil, false
}

func (f *Facts) fillLanguage(name string) (any, bool) {
	if len(f.Languages) == 0 {
		return nil, false
	}
	// "from French into German": the source comes first when both are named.
	if strings.Contains(name, "source") || strings.Contains(name, "from") {
		if len(f.Languages) > 1 {
			return f.Languages[0], true
		}
		return nil, false
	}
	return f.Languages[len(f.Languages)-1], true
}

func (f *Facts) fillNumber(p SlotParam) (any, bool) {
	name := strings.ToLower(p.Name)
	cues := []string{name, strings.TrimSuffix(name, "s")}
	switch {
	case strings.Contains(name, "adult"):
		cues = append(cues, "adult", "adults", "people", "person", "persons", "travellers", "travelers", "passengers", "guests")
	case strings.Contains(name, "day"):
		cues = append(cues, "day", "days")
	case strings.Contains(name, "width"):
		cues = append(cues, "px", "pixels", "wide")
	case strings.Contains(name, "room"):
		cues = append(cues, "room", "rooms")
	case name == "q" || strings.Contains(name, "amount"):
		for _, n := range f.Numbers {
			if n.Unit != "%" {
				return n.Value, true
			}
		}
	case name == "from" || strings.Contains(name, "offset"):
		return 0, true
	case name == "size" || name == "limit" || name == "num":
		if v, ok := f.number("results", "items", "recipes", "articles", "headlines"); ok {
			return v, true
		}
		return 10, true
	}
	if v, ok := f.number(cues...); ok {
		return v, true
	}
	return nil, false
}

// fillText fills a free-text parameter: a place when the parameter names
// one, a quoted string, or the instruction's key words.
func (f *Facts) fillText(p SlotParam, role string) (any, bool) {
	name := strings.ToLower(p.Name)
	desc := strings.ToLower(p.Description)
	placeLike := name == "city" || name == "address" || name == "location" || name == "place" || name == "destination" ||
		strings.Contains(desc, "city") || strings.Contains(desc, "location") || strings.Contains(desc, "airport") || strings.Contains(desc, "place")
	if placeLike {
		if pl, ok := f.place(role); ok {
			if pl.City != nil {
				return pl.City.Name, true
			}
			return pl.Country.Name, true
		}
		if len(f.IATA) > 0 {
			return f.IATA[0], true
		}
		if strings.Contains(desc, "city") || name == "city" || name == "address" || role != "" {
			return nil, false
		}
	}
	if len(f.Quoted) > 0 {
		return f.Quoted[0], true
	}
	if name == "q" || name == "query" || name == "prefix" || name == "topic" || name == "text" || strings.Contains(desc, "query") || strings.Contains(desc, "text") {
		if kw := keywords(f.Text); kw != "" {
			return kw, true
		}
	}
	return nil, false
}

// fillerWords are dropped from free-text queries built from an instruction.
var fillerWords = map[string]bool{
	"please": true, "can": true, "could": true, "would": true, "you": true, "me": true, "i": true, "my": true,
	"find": true, "search": true, "look": true, "up": true, "show": true, "tell": true, "get": true, "give": true,
	"what": true, "whats": true, "what's": true, "are": true, "is": true, "the": true, "a": true, "an": true,
	"some": true, "any": true, "for": true, "about": true, "on": true, "of": true, "latest": true, "want": true,
	"to": true, "know": true, "need": true, "like": true, "do": true, "us": true, "we": true, "there": true,
}

// keywords is the instruction without question words and politeness,
// up to eight words.
func keywords(text string) string {
	var kept []string
	for _, w := range wordRE.FindAllString(text, -1) {
		lw := strings.ToLower(strings.Trim(w, ".’'-"))
		if fillerWords[lw] || lw == "" {
			continue
		}
		kept = append(kept, strings.Trim(w, ".’'"))
		if len(kept) == 8 {
			break
		}
	}
	return strings.Join(kept, " ")
}

var (
	// idTokenRE finds opaque values a user quotes: "8970809", "-2167973",
	// "eyJzIjoi...", "23963-2506201815--31722-0-39431-2506210630".
	idTokenRE = regexp.MustCompile(`-?[A-Za-z0-9][A-Za-z0-9_\-=+/|]{2,}`)
	// idCueRE is a word that introduces an ID: "hotel 8970809", "recipe #9338".
	idCueRE = regexp.MustCompile(`(?i)\b(id|ids|hotel|recipe|attraction|location|story|job|itinerary|destination|place|result|number|no)\b[\s#:.]*$|#\s*$`)
	// tokenCueRE introduces a session token: "token eyJh...".
	tokenCueRE = regexp.MustCompile(`(?i)\btoken\b[^A-Za-z0-9]{0,12}$`)
)

// idParam tells whether a parameter takes an opaque identifier or token.
func idParam(name string) bool {
	n := strings.ToLower(name)
	return n == "id" || strings.HasSuffix(n, "_id") || strings.HasSuffix(n, "id") && name != strings.ToLower(name) ||
		strings.HasSuffix(n, "ids") && name != strings.ToLower(name) || n == "token" || strings.HasSuffix(n, "_token")
}

// idCandidate is one opaque value quoted in an instruction.
type idCandidate struct {
	value string
	token bool // introduced as a token
}

// idCandidates lists the opaque values of the instruction in order: long
// mixed strings, and numbers of four digits or more (or after a cue word
// such as "hotel" or "#"); dates, URLs, e-mail addresses and IPs are not IDs.
func (f *Facts) idCandidates() []idCandidate {
	var out []idCandidate
	for _, m := range idTokenRE.FindAllStringIndex(f.Text, -1) {
		v := strings.TrimRight(f.Text[m[0]:m[1]], "-|/")
		before := f.Text[:m[0]]
		if !strings.ContainsAny(v, "0123456789") || isoDateRE.MatchString(v) || strings.Contains(v, "://") ||
			strings.HasSuffix(before, "/") || strings.HasSuffix(before, ".") || strings.HasSuffix(before, "@") ||
			containsString(f.IPs, v) || m[0] > 0 && (isAlnumByte(f.Text[m[0]-1]) || f.Text[m[0]-1] == '_') {
			continue
		}
		digits := strings.TrimLeft(v, "-")
		pure := strings.Trim(digits, "0123456789") == ""
		cued := idCueRE.MatchString(before)
		switch {
		case pure && len(digits) >= 5, pure && len(digits) >= 3 && cued:
		case pure && len(digits) == 4:
			if n, _ := strconv.Atoi(digits); n >= 1900 && n <= 2100 && !cued {
				continue // a year
			}
		case !pure && len(v) >= 10 && !regexp.MustCompile(`^\d+(\.\d+)?[a-zA-Z]+$`).MatchString(v):
		default:
			continue
		}
		out = append(out, idCandidate{value: v, token: tokenCueRE.MatchString(before)})
	}
	return out
}

func isAlnumByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// fillID fills an opaque identifier the user quotes: a token for a token
// parameter, the first ID for an origin, the second for a destination.
func (f *Facts) fillID(p SlotParam, role string) (any, bool) {
	cands := f.idCandidates()
	name := strings.ToLower(p.Name)
	var ids, tokens []string
	for _, c := range cands {
		if c.token {
			tokens = append(tokens, c.value)
		} else {
			ids = append(ids, c.value)
		}
	}
	var v string
	switch {
	case strings.Contains(name, "token"):
		if len(tokens) == 0 {
			return nil, false
		}
		v = tokens[0]
	case role == roleDestination && !strings.HasPrefix(name, "dest"):
		if len(ids) < 2 {
			return nil, false
		}
		v = ids[1]
	default:
		if len(ids) == 0 {
			return nil, false
		}
		v = ids[0]
	}
	if p.Kind == "integer" || p.Kind == "number" {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, false
		}
		if p.Kind == "integer" {
			return int64(n), true
		}
		return n, true
	}
	return v, true
}

// opWords spells arithmetic in symbols: "1,250 times 1.23" → "1250 * 1.23".
var opWords = strings.NewReplacer(" multiplied by ", " * ", " times ", " * ", " plus ", " + ", " minus ", " - ",
	" divided by ", " / ", " over ", " / ", "square root of ", "sqrt(")

// wordExpression reads an arithmetic expression written in words, "" if none.
func wordExpression(text string) string {
	t := regexp.MustCompile(`(\d),(\d{3})`).ReplaceAllString(" "+strings.ToLower(text)+" ", "$1$2")
	t = opWords.Replace(t)
	best := ""
	for _, m := range expressionRE.FindAllString(t, -1) {
		m = strings.TrimSpace(m)
		if strings.Count(m, "(") > strings.Count(m, ")") {
			m += ")"
		}
		if (strings.ContainsAny(m, "+-*/^%") || strings.HasPrefix(m, "sqrt")) && len(m) > len(best) {
			best = m
		}
	}
	return best
}
