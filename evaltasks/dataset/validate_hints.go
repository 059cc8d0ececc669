package dataset

import (
	"regexp"
	"strings"
	"sync"

	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
)

// Type III needs proof that the text lacks the missing value. A value has
// no fixed spelling, so the check looks for the forms such a value takes
// in user text (a date, a place of the world data, a URL, a quoted phrase,
// a code) according to what the parameter is.

// hintWords are the world's names a place or language parameter could take.
type hintWords struct {
	places    []string // city names and aliases, country names and aliases (lowercase)
	languages []string // language names (lowercase)
	currency  []string // currency names' words that identify them (lowercase)
}

var (
	hintsOnce sync.Once
	hintsVal  *hintWords
)

func (v *validator) hints() *hintWords {
	hintsOnce.Do(func() {
		h := &hintWords{}
		w, err := world.DefaultWorld()
		if err == nil {
			for _, c := range w.Cities() {
				h.places = append(h.places, strings.ToLower(c.Name), strings.ToLower(c.ASCIIName))
				for _, a := range c.Aliases {
					if len(a) > 3 {
						h.places = append(h.places, strings.ToLower(a))
					}
				}
			}
			for _, c := range w.Countries() {
				h.places = append(h.places, strings.ToLower(c.Name))
				for _, a := range c.Aliases {
					if len(a) > 3 {
						h.places = append(h.places, strings.ToLower(a))
					}
				}
			}
			for _, l := range w.Languages() {
				h.languages = append(h.languages, strings.ToLower(l.Name))
			}
		}
		h.currency = []string{"dollar", "euro", "pound", "yen", "bucks", "quid", "franc", "peso", "real", "rupee", "won", "yuan", "krona", "krone", "zloty", "lira", "baht", "dirham", "rand", "ringgit", "sterling"}
		hintsVal = h
	})
	return hintsVal
}

var (
	reISODate   = regexp.MustCompile(`\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}(/\d{2,4})?\b`)
	reDateWord  = regexp.MustCompile(`(?i)\b(today|tomorrow|tonight|yesterday|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|june|july|august|september|october|november|december|next week|this week)\b|\bmay \d`)
	reMonthWord = regexp.MustCompile(`(?i)\b(january|february|march|april|may|june|july|august|september|october|november|december|this month|next month|last month)\b`)
	reYear      = regexp.MustCompile(`(?i)\b(19|20)\d\d\b|\b(this|next|last) year\b`)
	reDecimal   = regexp.MustCompile(`-?\d+\.\d+|\d+\s*°`)
	reDigits    = regexp.MustCompile(`\d`)
	reURL       = regexp.MustCompile(`(?i)https?://|www\.|\.(com|org|net|io|pt|png|jpe?g|gif|webp)\b`)
	reQuoted    = regexp.MustCompile(`"[^"]{2,}"|“[^”]{2,}”|«[^»]{2,}»|(^|\s)'[^']{3,}'`)
	reCode3     = regexp.MustCompile(`\b[A-Z]{3}\b`)
	reCode2     = regexp.MustCompile(`\b[A-Z]{2}\b`)
	reOpaque    = regexp.MustCompile(`\b[A-Za-z0-9_-]*\d[A-Za-z0-9_-]*\b`)
	reTZ        = regexp.MustCompile(`\b[A-Z][a-z]+/[A-Z][A-Za-z_]+\b|\bUTC[+-]?\d*|\bGMT\b`)
	reMath      = regexp.MustCompile(`\d\s*[-+*/x×^%]\s*\d|\d+\s*%|\bsqrt|\bsquare root\b`)
	reIP        = regexp.MustCompile(`\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b|[0-9a-fA-F]{1,4}:[0-9a-fA-F:]{3,}`)
	reWidth     = regexp.MustCompile(`\b\d{2,4}\s*(px|pixels?|wide)?\b`)
)

// valueHint looks in text for a value of the parameter; it returns what
// it found.
func valueHint(h *hintWords, p *toolset.Param, text string) (string, bool) {
	low := strings.ToLower(text)
	find := func(re *regexp.Regexp, s string) (string, bool) {
		if m := re.FindString(s); m != "" {
			return m, true
		}
		return "", false
	}
	word := func(words []string) (string, bool) {
		for _, w := range words {
			if w != "" && hasWord(low, w) {
				return w, true
			}
		}
		return "", false
	}
	if len(p.Enum) > 0 {
		for _, e := range p.Enum {
			if s, ok := e.(string); ok && len(s) > 1 && hasWord(low, strings.ToLower(strings.ReplaceAll(s, "_", " "))) {
				return s, true
			}
		}
	}
	name := strings.ToLower(p.Name)
	switch {
	case p.Opaque:
		if m := reOpaque.FindAllString(text, -1); len(m) > 0 {
			for _, s := range m {
				if len(s) >= 5 && !reISODate.MatchString(s) {
					return s, true
				}
			}
		}
		return "", false
	case p.Format == "date" || strings.Contains(name, "date") || name == "dt":
		if s, ok := find(reISODate, text); ok {
			return s, true
		}
		return find(reDateWord, text)
	case p.Format == "uri" || strings.Contains(name, "url"):
		return find(reURL, text)
	case name == "year":
		return find(reYear, text)
	case name == "month":
		return find(reMonthWord, text)
	case name == "lat" || name == "lon":
		if s, ok := find(reDecimal, text); ok {
			return s, true
		}
		return word(h.places)
	case name == "width" || name == "height":
		return find(reWidth, text)
	case name == "ip":
		return find(reIP, text)
	case name == "iata":
		return find(reCode3, text)
	case name == "code":
		// A country code or a program.
		if s, ok := find(reMath, text); ok {
			return s, true
		}
		if s, ok := find(reCode2, text); ok {
			return s, true
		}
		return word(h.places)
	case name == "countrycode":
		if s, ok := find(reCode2, text); ok {
			return s, true
		}
		return word(h.places)
	case name == "from" || name == "to":
		if s, ok := find(reCode3, text); ok {
			return s, true
		}
		return word(h.currency)
	case name == "timezone":
		if s, ok := find(reTZ, text); ok {
			return s, true
		}
		return word(h.places)
	case name == "target" || name == "target_lang" || name == "source_lang":
		return word(h.languages)
	case name == "expression":
		return find(reMath, text)
	case name == "q" || name == "query" || name == "text" || name == "prefix":
		// A text to translate, a search phrase: a quoted phrase or, for a
		// place search, a place.
		if s, ok := find(reQuoted, text); ok {
			return s, true
		}
		if name == "prefix" {
			return "", false
		}
		return word(h.places)
	case name == "city" || name == "address":
		return word(h.places)
	case p.Kind == toolset.KindNumber || p.Kind == toolset.KindInteger:
		return find(reDigits, text)
	}
	return "", false
}

// containsWord tells whether w occurs in s bounded by non-letters.
func hasWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isLetter(s[start-1])) && (end == len(s) || !isLetter(s[end])) {
			return true
		}
		i = start + 1
	}
}

func isLetter(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}
