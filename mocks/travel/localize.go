package travel

import (
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/understudy/understudy/mocks/world"
)

// Display languages: the travel sites take a locale (en-US, pt_PT, es) and
// localise what has a fixed vocabulary — country names (CLDR's, through
// x/text), score words, rankings and headings — in the languages below.
// Texts the world holds in English only (descriptions, reviews, room
// names) stay as written, as the sites show content in its own language.

// localeLang is the language of a locale argument: "pt_PT", "de-DE",
// "en-us" and "es" give pt, de, en and es; "" gives en.
func localeLang(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(s, "-_"); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return "en"
	}
	return s
}

// countryName is a country's name in a language: the world's own name in
// English, CLDR's elsewhere (the world's when CLDR has none).
func countryName(w *world.World, alpha2, lang string) string {
	k, ok := w.Country(alpha2)
	english := alpha2
	if ok {
		english = k.Name
	}
	if lang == "en" {
		return english
	}
	names := display.Regions(language.Make(lang))
	region, err := language.ParseRegion(alpha2)
	if names == nil || err != nil {
		return english
	}
	if n := names.Name(region); n != "" {
		return n
	}
	return english
}

// phrase is a fixed text by language, English first.
type phrase map[string]string

// in is the phrase in lang, or in English when it has no such translation.
func (p phrase) in(lang string) string {
	if s, ok := p[lang]; ok {
		return s
	}
	return p["en"]
}
