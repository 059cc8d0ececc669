package shape

import (
	"strings"
	"unicode"
)

// Words splits a name or a phrase into lower-case words: at spaces and
// punctuation, between a lower-case letter and an upper-case one
// ("playerId" is player, id), and before the last capital of a run of
// them ("HTTPStatus" is http, status). Digits stay with their word.
func Words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && len(cur) > 0 {
				prev := cur[len(cur)-1]
				nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
					flush()
				}
			}
			cur = append(cur, r)
		default:
			flush()
		}
		if len(out) >= 64 {
			return out // a name is not a paragraph
		}
	}
	flush()
	return out
}

// Fold is a name folded for matching: lower-case letters and digits only,
// so "dest_id", "destId" and "Dest-ID" are all "destid".
func Fold(k string) string {
	var b strings.Builder
	b.Grow(len(k))
	for _, r := range k {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// invariant are words whose plural is themselves, or that end in s
// without being plurals.
var invariant = map[string]bool{
	"news": true, "series": true, "species": true, "status": true, "address": true, "business": true,
	"analysis": true, "basis": true, "bus": true, "campus": true, "virus": true, "bonus": true, "census": true,
	"class": true, "glass": true, "process": true, "access": true, "success": true, "loss": true, "boss": true,
	"chess": true, "dress": true, "express": true, "stats": true, "statistics": true, "analytics": true,
	"metrics": true, "lyrics": true, "physics": true, "economics": true, "politics": true, "mathematics": true,
	"gps": true, "dns": true, "sms": true, "ios": true, "os": true, "css": true, "rss": true, "https": true,
	"this": true, "his": true, "its": true, "us": true, "plus": true, "is": true, "was": true, "has": true,
	"does": true, "yes": true, "canvas": true, "atlas": true, "alias": true, "bias": true, "gas": true,
	"axis": true, "thesis": true, "crisis": true, "diagnosis": true, "tennis": true, "lens": true, "odds": true,
	"details": true, "settings": true, "headquarters": true, "sports": true, "weather": true, "info": true,
}

var irregular = map[string]string{
	"people": "person", "children": "child", "men": "man", "women": "woman", "indices": "index",
	"matrices": "matrix", "criteria": "criterion", "data": "data", "media": "media", "feet": "foot",
	"mice": "mouse", "geese": "goose", "teeth": "tooth", "analyses": "analysis", "leaves": "leaf",
	"wives": "wife", "lives": "life", "knives": "knife", "quizzes": "quiz", "movies": "movie",
	"cookies": "cookie", "zombies": "zombie", "calories": "calorie", "series": "series", "species": "species",
}

// Singular is a word's singular form, by English rules good enough for
// API names: players → player, cities → city, matches → match.
func Singular(w string) string {
	if s, ok := irregular[w]; ok {
		return s
	}
	if invariant[w] || len(w) < 4 {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "zzes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// Plural is a noun's plural form (the inverse of Singular on the words
// API names use).
func Plural(w string) string {
	for p, s := range irregular {
		if s == w && p != w {
			return p
		}
	}
	switch {
	case invariant[w]:
		return w
	case strings.HasSuffix(w, "y") && len(w) > 2 && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		return w + "es"
	}
	return w + "s"
}

// isPlural reports whether w reads as a plural noun.
func isPlural(w string) bool {
	if _, ok := irregular[w]; ok {
		return w != "data" && w != "media" && w != "series" && w != "species"
	}
	return Singular(w) != w
}

// Join names a field from words in a naming style: snake_case, or
// camelCase when camel is set.
func Join(camel bool, words ...string) string {
	if !camel {
		return strings.Join(words, "_")
	}
	var b strings.Builder
	for i, w := range words {
		if i > 0 && w != "" {
			b.WriteString(strings.ToUpper(w[:1]))
			b.WriteString(w[1:])
			continue
		}
		b.WriteString(w)
	}
	return b.String()
}

// TitleCase capitalises the first letter of every word.
func TitleCase(s string) string {
	b := []rune(s)
	up := true
	for i, r := range b {
		if up && unicode.IsLetter(r) {
			b[i] = unicode.ToUpper(r)
		}
		up = unicode.IsSpace(r) || r == '-'
	}
	return string(b)
}
