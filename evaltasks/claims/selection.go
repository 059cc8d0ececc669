package claims

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// Task 6 (the evaluation paper, §3.4) asks the model to answer from a
// tool's result. The answer must state what the question asks (every
// expected fact, numbers within the tolerance of the kind of field that
// holds them) and select it: values of the result the question does not
// ask about count against the answer, whatever share of the result it
// lists and however it wraps them (a list, "key: value" lines, a sentence
// per field).

// Words of the keys of fields whose numbers may be stated rounded, or as
// durations.
var (
	roundedKeyWords  = wordSet(`temp temperature feelslike feels heat heatindex chill windchill dew dewpoint maxtemp mintemp avgtemp wind gust speed kph mph maxwind pressure precip totalprecip vis visibility rate exchange conversion confidence ratio`)
	durationKeyWords = wordSet(`duration minutes mins hours seconds secs`)
)

func wordSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}

// keyHas tells whether a field key has one of the words.
func keyHas(key string, words map[string]bool) bool {
	for _, w := range textmatch.SplitName(key) {
		if words[w] {
			return true
		}
	}
	return false
}

// fields are the keys of the fields of a tool result that hold a fact:
// those holding the value itself, or the same number.
func fields(fact string, data textmatch.ToolData) []string {
	f := strings.TrimSpace(fact)
	if ps, ok := data.Paths[f]; ok {
		return ps
	}
	want, err := strconv.ParseFloat(f, 64)
	if err != nil {
		// A fact that writes values of the result in words ("latitude
		// 48.8566 longitude 2.3522") is held by their fields.
		var out []string
		for _, v := range data.Values {
			if len(v) >= 3 && len(v) < len(f) && textmatch.ContainsExact(f, v) {
				out = append(out, data.Paths[v]...)
			}
		}
		return out
	}
	var out []string
	for _, v := range data.Values {
		if x, err := strconv.ParseFloat(v, 64); err == nil && x == want {
			out = append(out, data.Paths[v]...)
		}
	}
	return out
}

// leaf is the last key of a field path, without its array marks.
func leaf(path string) string {
	return strings.TrimRight(path[strings.LastIndexByte(path, '.')+1:], "[]")
}

// FactTolerance is how an expected fact of a tool result may be stated,
// by the kind of field that holds it: a temperature, a rate or a
// confidence rounded (21 °C for 20.9, 0.88 for 0.8811); a duration in any
// unit of time, within a few percent (the fact is rewritten with its
// unit, "155 minutes"); everything else exactly (IDs, coordinates, sums).
// A result that is a bare number (a conversion) is a rate.
func FactTolerance(fact string, data textmatch.ToolData) (tol textmatch.Tolerance, written string) {
	if _, _, _, _, ok := textmatch.NumberFact(fact); !ok {
		return textmatch.Exact, fact
	}
	for _, p := range fields(fact, data) {
		k := leaf(p)
		switch {
		case keyHas(k, durationKeyWords):
			unit := "minutes"
			switch l := strings.ToLower(k); {
			case strings.Contains(l, "sec"):
				unit = "seconds"
			case strings.Contains(l, "hour"):
				unit = "hours"
			}
			return textmatch.Duration, strings.TrimSpace(fact) + " " + unit
		case p == "" || keyHas(k, roundedKeyWords):
			return textmatch.Rounded, fact
		}
	}
	return textmatch.Exact, fact
}

// Facts checks the expected facts of a tool result against an answer:
// missed are facts it does not state, inexact those it states with a
// character-sensitive value not copied exactly (or a number not within
// its tolerance). A number stated with a unit of another kind than the
// fact's field is another value. Status literals are never required.
func Facts(facts []string, rd *reading.Reading, data textmatch.ToolData) (missed, inexact []string) {
	for _, f := range facts {
		if textmatch.IsStatusLiteral(f) {
			continue
		}
		tol, written := FactTolerance(f, data)
		switch rd.States(written, reading.PathsKind(fields(f, data)), tol) {
		case textmatch.FactMissing:
			missed = append(missed, f)
		case textmatch.FactInexact:
			inexact = append(inexact, f)
		}
	}
	return missed, inexact
}

// Limits of what an answer may state that the question does not ask.
// Context from the result is welcome (the country beside the city,
// humidity and wind beside the temperature, the times of each flight
// listed); what fails is a dump: claims that cover most of what the
// result holds beside the answer, or that run through the result in its
// own order, value after value, without choosing.
const (
	// DumpShare is the share of the result's unasked values an answer
	// may state once it states MinDumped of them.
	DumpShare = 0.5
	// MinDumped is how many unasked values an answer may state whatever
	// their share: a result of a few values may be told whole.
	MinDumped = 6
	// MaxRun and MaxOrdered bound an answer that states two unasked
	// values or more: it may not both state MaxRun or more of the
	// result's values between the first and the last it states and
	// state them in the result's order (MaxOrdered of them following the
	// one before).
	MaxRun     = 0.6
	MaxOrdered = 0.9
)

// Selection is what an answer states of a tool result, by field.
type Selection struct {
	// Asked are the fields it states values of that the question asks
	// about: those of the expected facts, fields of the same quantity
	// (temp_f beside temp_c), the name or title of what holds a fact,
	// fields the question names, and fields of a value that itself
	// states a fact (a timestamp holding the time asked); every field
	// when the question asks about a thing as a whole ("tell me about").
	Asked []string
	// Unasked are the other fields it states values of, each with one
	// of its values.
	Unasked []string
	// Values are the unasked values it states, a value whose words all
	// stand in another counted once ("192" within "192 things to do").
	Values []string
	// Offered counts the result's unasked values.
	Offered int
	// Run is the share of the result's values, from the first the
	// answer states to the last in the result's order, that it states:
	// near 1 when it runs through the result without choosing.
	Run float64
	// Ordered is the share of the stated values, taken in the answer's
	// order, that follow the one before in the result's order too.
	Ordered float64
}

// OK tells whether the answer selects what the question asks: it states
// fewer than MinDumped unasked values or at most DumpShare of them, and
// does not run through the result in its order.
func (s Selection) OK() bool {
	if len(s.Values) >= MinDumped && float64(len(s.Values)) > DumpShare*float64(s.Offered)+1e-9 {
		return false
	}
	return len(s.Values) < 2 || s.Run < MaxRun || s.Ordered < MaxOrdered
}

// broadRE recognises a question about a thing as a whole.
var broadRE = regexp.MustCompile(`(?i)\btell me (?:more )?about\b|\bdetails?\b|\binformation\b|\binfo\b|\bdescribe\b|\bwhat do you know\b|\boverview\b|\bmore about\b`)

// Select reads which fields of a tool result an answer states values of,
// by the reading the facts are judged on. Values the question gives,
// status literals, values without a word, and small whole numbers (below
// 10: a count, an index, a flag) are no selection.
func Select(question string, facts []string, rd *reading.Reading, data textmatch.ToolData) Selection {
	broad := broadRE.MatchString(question)
	asked := askedFields(question, facts, data)
	q := textmatch.NewMatcher(question)
	seen := map[string]bool{}
	var s Selection
	var askedValues []string
	var at []int
	var where [][2]int
	countable := 0
	for _, v := range data.Values {
		if textmatch.IsStatusLiteral(v) || len(textmatch.Words(v)) == 0 || smallWhole(v) {
			continue
		}
		if textmatch.ContainsExact(question, v) || q.Fact(v) == textmatch.FactStated {
			continue
		}
		paths := data.Paths[v]
		isAsked := broad && !internal(paths) || restates(v, facts)
		for _, p := range paths {
			isAsked = isAsked || asked[p]
		}
		if !isAsked {
			s.Offered++
		}
		countable++
		if rd.States(v, reading.PathsKind(paths), textmatch.Rounded) != textmatch.FactStated || statesOnlyFacts(rd, v, facts) {
			continue
		}
		at = append(at, countable)
		if w := rd.Where(v, reading.PathsKind(paths), textmatch.Rounded); w >= 0 {
			where = append(where, [2]int{w, countable})
		}
		if isAsked {
			askedValues = append(askedValues, v)
		} else {
			s.Values = append(s.Values, v)
		}
		field := strings.Join(paths, "|")
		if seen[field] {
			continue
		}
		seen[field] = true
		if isAsked {
			s.Asked = append(s.Asked, field)
		} else {
			s.Unasked = append(s.Unasked, fmt.Sprintf("%s: %s", leaf(paths[0]), v))
		}
	}
	s.Values = merged(s.Values, askedValues)
	slices.SortStableFunc(where, func(a, b [2]int) int { return a[0] - b[0] })
	if len(where) > 1 {
		up := 0
		for i := 1; i < len(where); i++ {
			if where[i][1] > where[i-1][1] {
				up++
			}
		}
		s.Ordered = float64(up) / float64(len(where)-1)
	}
	if len(at) > 1 {
		s.Run = float64(len(at)) / float64(at[len(at)-1]-at[0]+1)
	}
	if len(s.Values) == 0 {
		// Every unasked value is words of an asked one ("Cloudy" in
		// "Partly cloudy"): no field is stated beside them.
		s.Unasked = nil
	}
	return s
}

// statesOnlyFacts tells whether every number of the answer that could
// state a value states an expected fact instead: a number that states
// the chance of rain asked is no wind speed that rounds to it.
func statesOnlyFacts(rd *reading.Reading, v string, facts []string) bool {
	want, _, step, _, ok := textmatch.NumberFact(v)
	if !ok {
		return false
	}
	for _, n := range rd.Numbers() {
		if !n.Within(want, "", step, textmatch.Rounded) {
			continue
		}
		spoken := false
		for _, f := range facts {
			if fw, unit, fstep, _, ok := textmatch.NumberFact(f); ok && n.Within(fw, unit, fstep, textmatch.Rounded) {
				spoken = true
			}
		}
		if !spoken {
			return false
		}
	}
	return true
}

// merged drops the values whose words all stand in another value of the
// list (the longer kept; of equal ones, the first) or in one of the asked
// values the answer states.
func merged(vals, asked []string) []string {
	sets := make([]textmatch.WordSet, len(vals))
	for i, v := range vals {
		sets[i] = textmatch.NewWordSet(v)
	}
	var out []string
	for i, v := range vals {
		ws := textmatch.Words(v)
		inside := false
		for _, a := range asked {
			set := textmatch.NewWordSet(a)
			all := len(ws) < len(set)
			for _, w := range ws {
				all = all && set[w]
			}
			inside = inside || all
		}
		for j := range vals {
			if i == j || len(textmatch.Words(vals[j])) < len(ws) || len(textmatch.Words(vals[j])) == len(ws) && j > i {
				continue
			}
			all := true
			for _, w := range ws {
				all = all && sets[j][w]
			}
			if all {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, v)
		}
	}
	return out
}

// Detail says what a selection states that is not asked, for reports.
func (s Selection) Detail() string {
	show := s.Unasked
	if len(show) > 5 {
		show = append(slices.Clone(show[:5]), "…")
	}
	return fmt.Sprintf("states %d of the %d values of the result the question does not ask about (%s), beside %d fields it asks", len(s.Values), s.Offered, strings.Join(show, "; "), len(s.Asked))
}

// internalKeyRE names the fields of a result that no question about a
// thing as a whole asks for: identifiers, links to images, coordinates,
// codes of the service's own.
var internalKeyRE = regexp.MustCompile(`(?i)(^|_)id$|[a-z]Id$|^id$|image|photo|thumbnail|avatar|icon|logo|latitude|longitude|^lat$|^lon$|^lng$|token|session|entity|epoch|timestamp|_at$`)

// geometryKeyRE names the objects of a result that hold positions: a
// detected object's box, a place's coordinates.
var geometryKeyRE = regexp.MustCompile(`(?i)^(bbox|box|box_normalized|bounding_?box|bounds|coordinates|coords|geometry|geo|location_coordinates)$`)

// internal tells whether every field of a value is internal: its key is
// internal, or it is a position inside a box or coordinates.
func internal(paths []string) bool {
	for _, p := range paths {
		if !internalKeyRE.MatchString(leaf(p)) && !geometryKeyRE.MatchString(leaf(parent(p))) {
			return false
		}
	}
	return len(paths) > 0
}

// smallWhole tells whether a value is a whole number below 10.
func smallWhole(v string) bool {
	x, err := strconv.ParseFloat(v, 64)
	return err == nil && x == math.Trunc(x) && math.Abs(x) < 10
}

// restates tells whether a value states an expected fact itself ("Monday,
// 2 June 2025, 18:00 JST" states "18:00:00").
func restates(v string, facts []string) bool {
	m := textmatch.NewMatcher(isoStampRE.ReplaceAllString(v, "$1 "))
	for _, f := range facts {
		if !textmatch.IsStatusLiteral(f) && m.Fact(f) == textmatch.FactStated {
			return true
		}
	}
	return false
}

// isoStampRE finds the "T" between an ISO date and its time.
var isoStampRE = regexp.MustCompile(`(\d{4}-\d{2}-\d{2})T`)

// labelKeys name what holds them: the name or title of a hotel, an
// airport, an article.
var labelKeys = map[string]bool{"name": true, "title": true, "label": true, "display_name": true, "displayname": true,
	"localname": true, "localizedname": true, "headline": true, "full_name": true, "fullname": true, "link": true,
	"url": true, "hotel_name": true}

// glossKeys name the short forms that gloss what holds them ("German
// (de)", "Lisbon (LIS)"): asked with the name they gloss.
var glossKeys = map[string]bool{"code": true, "iso": true, "iso_code": true, "symbol": true, "abbreviation": true, "iata": true}

// label tells whether a field names or points to what holds it.
func label(key string) bool { return labelKeys[strings.ToLower(key)] }

// askedFields are the fields the question asks about: those holding an
// expected fact; their siblings of the same quantity (a field of the same
// parent whose key shares a word: temp_f beside temp_c) and the name or
// title of their parent; and the fields whose key names what the
// question's words name ("humidity").
func askedFields(question string, facts []string, data textmatch.ToolData) map[string]bool {
	asked := map[string]bool{}
	var keys []string
	for _, f := range facts {
		for _, p := range fields(f, data) {
			asked[p] = true
			keys = append(keys, p)
		}
	}
	// The words of a link the question gives name nothing ("images" of
	// https://images.example/boat.jpg).
	qw := map[string]bool{}
	for _, w := range textmatch.Words(textmatch.URLPattern.ReplaceAllString(question, " ")) {
		qw[textmatch.Lemma(w)] = true
	}
	for _, ps := range data.Paths {
		for _, p := range ps {
			// A field is named when the question holds every word of its
			// key ("day of the week"; not "screenshot" for screenshot_id),
			// or of the key of the object that holds it (a forecast's
			// day, a detection's objects). The top-level sections of a
			// response (current, data, results) name no field: "the
			// current temperature" asks for no other current field.
			// Internal fields (IDs, timestamps, image links, the boxes of
			// detected objects) are asked only as facts: "capture it"
			// does not ask when the capture was taken.
			if internal([]string{p}) {
				continue
			}
			segs := strings.Split(p, ".")
			for _, seg := range append(segs[min(1, len(segs)-1):len(segs)-1], leaf(p)) {
				if named(strings.TrimRight(seg, "[]"), qw) {
					asked[p] = true
				}
			}
			for _, k := range keys {
				if parent(k) == parent(p) && (quantity(leaf(k)) == quantity(leaf(p)) || label(leaf(p)) || glossKeys[strings.ToLower(leaf(p))]) {
					asked[p] = true
				}
			}
		}
	}
	return asked
}

// unitWords name a unit, an end of a range, a before and after or a way
// of writing in a field key: keys that differ only by them hold one
// quantity (temp_c and temp_f, wind_kph and wind_mph, startDate and
// endDate, size_bytes and original_size_bytes, reviewScore and
// reviewScoreWord).
var unitWords = map[string]bool{"c": true, "f": true, "k": true, "kph": true, "mph": true, "km": true, "mi": true,
	"mm": true, "in": true, "mb": true, "ms": true, "celsius": true, "fahrenheit": true, "kelvin": true, "start": true,
	"end": true, "min": true, "max": true, "low": true, "high": true, "begin": true, "from": true, "to": true,
	"until": true, "first": true, "last": true, "original": true, "new": true, "old": true, "previous": true,
	"word": true, "text": true, "label": true, "display": true, "formatted": true, "string": true}

// quantity is what a field key measures, units and ends of ranges left
// out ("temp" of temp_c, "date" of endDate).
func quantity(key string) string {
	var out []string
	for _, w := range textmatch.SplitName(key) {
		if !unitWords[w] {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// named tells whether the question's lemmas hold every word of a key
// that names something.
func named(key string, qw map[string]bool) bool {
	if len(keyWords(key)) == 0 {
		return false
	}
	for _, w := range textmatch.SplitName(key) {
		if len(w) >= 2 && !textmatch.IsStopWord(w) && !qw[textmatch.Lemma(w)] {
			return false
		}
	}
	return true
}

// keyWords are the lemmas of a field key's words that name something
// ("temp" of temp_c; not "c", "id" or "name").
func keyWords(key string) []string {
	var out []string
	for _, w := range textmatch.SplitName(key) {
		if len(w) >= 3 && !textmatch.IsGenericWord(w) && !textmatch.IsStopWord(w) && w != "name" && w != "text" {
			out = append(out, textmatch.Lemma(w))
		}
	}
	return out
}

func parent(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return ""
}

// FactCriterion says how Task 6 is decided, for reports.
func FactCriterion() string {
	return fmt.Sprintf("the reply answers in words (not the tool's JSON, its field names or a copy of the conversation; markdown and quotes in prose are text), states every expected fact of the tool result in any equivalent form (times, dates, sums with their currency, numbers, signs, negation, a name by its aliases), numbers within the tolerance of the field that holds them (temperatures, rates and confidences as rounded, durations within %.0f%% in any unit of time, the rest exactly: URLs, coordinates and identifiers copied) and in a unit of that field's kind (a number in km states no temperature), texts of three words or more in their own word order; and selects what the question asks: context from the result is welcome, but a reply stating %d or more of the values the question does not ask about and more than %.0f%% of them, or two or more that run through the result in its own order (%.0f%% of the values between the first and last stated, %.0f%% of them in the result's order), lists the result instead of answering; a number stated with a unit for a kind of field the result has (a temperature, speed, share, pressure or length) that no such field holds is made up; status literals are not required", textmatch.DurationShare*100, MinDumped, DumpShare*100, MaxRun*100, MaxOrdered*100)
}
