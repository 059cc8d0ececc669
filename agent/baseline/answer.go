package baseline

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/understudy/understudy/agent/internal/clip"
)

// An answer from a tool result (Task 6 of the evaluation paper, §3.4)
// states in a sentence the values the question asks for: the fields whose
// names share a word with the question, with the name of the thing they
// belong to; a question no field name speaks to gets the result's leading
// fields. It never pastes the result's JSON or lists its fields.

// askedFor widens a question word to the words field names use for it:
// everyday English, not facts about the world.
var askedFor = map[string][]string{
	"wide": {"width"}, "high": {"height"}, "tall": {"height"}, "big": {"size", "width", "height"},
	"long": {"length", "duration"}, "where": {"address", "street", "location", "city"},
	"when": {"date", "time"}, "coordinates": {"lat", "lon", "latitude", "longitude"},
	"coordniates": {"lat", "lon"}, "position": {"lat", "lon"}, "located": {"lat", "lon", "address"},
	"umbrella": {"rain", "precip"}, "raincoats": {"rain", "precip"}, "cost": {"price", "amount", "total"},
	"costs": {"price", "amount", "total"}, "cheap": {"price"}, "cheapest": {"price"}, "much": {"price", "amount", "total"},
	"pictures": {"url"}, "photos": {"url"}, "pics": {"url"}, "images": {"url"}, "image": {"url"}, "link": {"url"},
	"e-mail": {"email"}, "mail": {"email"}, "phone": {"phone"}, "contact": {"phone", "email"}, "say": {"text", "title", "body"},
	"weekday": {"weekday", "day"}, "timezone": {"timezone", "tz"}, "zone": {"timezone", "tz"}, "conditions": {"condition"},
	"translate": {"translated", "translation"}, "translation": {"translated"}, "rate": {"rate"}, "temperature": {"temp"},
	"geocode": {"lat", "lon"}, "geocoded": {"lat", "lon"}, "many": {"count", "total", "number"},
	"sunny": {"description", "condition", "main"}, "clouds": {"description", "condition", "main"}, "weather": {"description", "condition", "temp"},
	"flight": {"price"}, "flights": {"price"}, "hotel": {"price", "name"}, "hotels": {"price", "name"},
	"hot": {"temp"}, "cold": {"temp"}, "warm": {"temp"}, "sun": {"sunrise", "sunset"}, "sets": {"sunset"}, "rises": {"sunrise"},
}

// unaskedKeyRE names fields an answer leaves out unless asked: bookkeeping
// of the call rather than what it found.
var unaskedKeyRE = regexp.MustCompile(`(?i)^(status|message|success|ok|code|count|total_results|query|request_id|timestamp|epoch)$|epoch|_at$|^is_`)

// answerFrom answers a question from one tool result in a sentence.
func answerFrom(query string, r toolResult) string {
	if r.err != "" {
		return "The call failed: " + clip.Text(r.err, 300)
	}
	if s, ok := r.doc.(string); ok {
		return "The tool says: " + clip.Text(strings.TrimSpace(s), 400)
	}
	leaves := readLeaves(r.raw)
	if len(leaves) == 0 {
		return "The tool found nothing for this."
	}
	qwords := questionWords(query)
	lowerQ := strings.ToLower(query)
	type scored struct {
		l     leaf
		score int
		i     int
	}
	var hits []scored
	for i, l := range leaves {
		if l.value == "" || len(l.value) > 300 {
			continue
		}
		s := 0
		for _, kw := range pathWords(l.path) {
			for qw := range qwords {
				if wordMatch(qw, kw) {
					s++
				}
			}
		}
		if s == 0 || strings.Contains(lowerQ, strings.ToLower(l.value)) || unaskedKeyRE.MatchString(l.key) && !qwords[strings.ToLower(l.key)] {
			continue
		}
		if skipKeyRE.MatchString(l.key) && !keyAsked(l.key, qwords) {
			continue // an id, token or link the question does not ask for
		}
		hits = append(hits, scored{l, s, i})
	}
	// The fields of at most three list items, the best-scored first.
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].score > hits[b].score })
	var chosen []leaf
	items := map[string]bool{}
	seen := map[string]bool{}
	for _, h := range hits {
		if len(chosen) == 6 {
			break
		}
		item := itemOf(h.l.path)
		if !items[item] && len(items) == 3 {
			continue
		}
		if seen[h.l.path] || seen["v:"+h.l.value] {
			continue
		}
		items[item], seen[h.l.path], seen["v:"+h.l.value] = true, true, true
		chosen = append(chosen, h.l)
	}
	sort.SliceStable(chosen, func(a, b int) bool { return leafIndex(leaves, chosen[a]) < leafIndex(leaves, chosen[b]) })
	if len(chosen) < 2 {
		// Few fields speak to the question: the result's leading fields too.
		var usable []leaf
		for _, l := range leaves {
			if !unaskedKeyRE.MatchString(l.key) && !seen[l.path] && !seen["v:"+l.value] && !strings.Contains(lowerQ, strings.ToLower(l.value)) {
				usable = append(usable, l)
			}
		}
		chosen = append(chosen, pickFields(usable, 3-len(chosen))...)
	}
	if len(chosen) == 0 {
		return "The tool returned no values that answer this."
	}
	var parts []string
	for _, l := range chosen {
		label := fieldLabel(l.path)
		if owner := ownerName(leaves, l); owner != "" && owner != l.value {
			label += " of " + owner
		}
		parts = append(parts, fmt.Sprintf("the %s is %s", label, plainValue(l.value)))
	}
	return upperFirst(joinAnd(parts)) + "."
}

// questionWords are the lower-case content words of a question with the
// words field names use for them.
func questionWords(q string) map[string]bool {
	out := map[string]bool{}
	for _, w := range lowerWords(strings.ReplaceAll(strings.ToLower(q), "e-mail", "email")) {
		if len(w) < 3 && w != "ip" || fillerWords[w] || questionStop[w] {
			continue
		}
		out[w] = true
		if len(w) > 3 && strings.HasSuffix(w, "s") {
			out[strings.TrimSuffix(w, "s")] = true
		}
		for _, x := range askedFor[w] {
			out[x] = true
		}
	}
	return out
}

// keyAsked tells whether the question asks for a field by its own name,
// not by the object holding it.
func keyAsked(key string, qwords map[string]bool) bool {
	for _, kw := range nameWords(key) {
		for qw := range qwords {
			if wordMatch(qw, kw) {
				return true
			}
		}
	}
	return false
}

// questionStop are words of a question that name no field.
var questionStop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`and or but the this that with from into have has had does did was were will would should
		which who whom how when why where's here there they them their it's its yes not one more thing quick question hey hello
		thanks thank cheers appreciate appreciated much thx asking friend sorry bother help out right now just tell let`) {
		questionStop[w] = true
	}
}

// pathWords are the words of a leaf's key and of the object holding it.
func pathWords(path string) []string {
	segs := strings.Split(stripAllIndexes(path), ".")
	if len(segs) > 2 {
		segs = segs[len(segs)-2:]
	}
	var out []string
	for _, s := range segs {
		out = append(out, nameWords(s)...)
	}
	return out
}

// wordMatch tells whether a question word names a field word: equal, or
// one a prefix of the other (lat / latitude), or the question word inside
// a compound field word (sun in sunset).
func wordMatch(q, k string) bool {
	if len(k) < 2 {
		return false
	}
	if q == k {
		return true
	}
	if len(k) >= 3 && strings.HasPrefix(q, k) || len(q) >= 4 && strings.HasPrefix(k, q) {
		return true
	}
	return len(q) >= 4 && len(k) > len(q)+2 && strings.Contains(k, q)
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

func stripAllIndexes(p string) string { return indexRE.ReplaceAllString(p, "") }

// itemOf is the list item a leaf belongs to ("" when none).
func itemOf(path string) string {
	if i := strings.LastIndexByte(path, ']'); i >= 0 {
		return path[:i+1]
	}
	return ""
}

func leafIndex(ls []leaf, l leaf) int {
	for i, x := range ls {
		if x.path == l.path {
			return i
		}
	}
	return len(ls)
}

// fieldLabel writes a field as words: its key, with the object holding it
// when the key alone says little ("condition.text" → "condition").
func fieldLabel(path string) string {
	segs := strings.Split(stripAllIndexes(path), ".")
	key := segs[len(segs)-1]
	words := nameWords(key)
	if len(segs) > 1 && (key == "text" || key == "value" || key == "formatted" || key == "raw") {
		words = nameWords(segs[len(segs)-2])
	}
	if len(words) == 0 {
		return "value"
	}
	return strings.Join(words, " ")
}

// ownerName is the name or title of the object holding a leaf, if any.
func ownerName(ls []leaf, l leaf) string {
	parent := ""
	if i := strings.LastIndexByte(l.path, '.'); i >= 0 {
		parent = l.path[:i+1]
	}
	for _, x := range ls {
		rest, ok := strings.CutPrefix(x.path, parent)
		if !ok || strings.ContainsAny(rest, ".[") || x.path == l.path {
			continue
		}
		switch x.key {
		case "name", "title", "display_name", "localizedName", "city_name":
			if len(x.value) <= 80 {
				return x.value
			}
		}
	}
	return ""
}

// plainValue writes a value for a sentence: flags as yes or no.
func plainValue(v string) string {
	switch v {
	case "true":
		return "yes"
	case "false":
		return "no"
	}
	return v
}
