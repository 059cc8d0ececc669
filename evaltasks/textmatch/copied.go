package textmatch

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Task 6 asks for an answer from the tool's return, in words (the
// evaluation paper, §3.4): pasting the tool's data back, or the whole
// conversation, is not an answer even when it holds every fact.

// Limits of a reply that answers in words.
const (
	// MaxJSONKeys is how many quoted JSON keys ("name":) a reply may hold.
	MaxJSONKeys = 2
	// MaxJSONPunct is the share of JSON punctuation ({}[]") among a
	// reply's visible characters above which it reads as data.
	MaxJSONPunct = 0.06
	// MaxCopiedSpan is the longest run of the tool message's own text,
	// JSON punctuation included, a reply may copy.
	MaxCopiedSpan = 48
	// MaxFieldNames is how many of the tool result's field names (those
	// written as identifiers: snake_case, camelCase) a reply may use.
	MaxFieldNames = 3
	// MaxValueShare is the share of the tool result's values a reply may
	// list when the result has at least MinValuesForShare of them.
	MaxValueShare     = 0.8
	MinValuesForShare = 8
	// MinOwnWords is how many words of its own a reply that repeats the
	// user's text or the whole tool message must add.
	MinOwnWords = 3
)

var (
	jsonKeyRE = regexp.MustCompile(`"[^"\n]{1,60}"\s*:`)
	// jsonStructureRE finds JSON syntax between values, as opposed to a
	// value quoted in prose.
	jsonStructureRE = regexp.MustCompile(`"\s*[:,\]}]|[:,\[{]\s*"|[{}\[\]]`)
	fenceRE         = regexp.MustCompile("(?s)^```[a-zA-Z]*\\s*(.*?)\\s*```$")
)

// ToolData is what a tool message holds: its field names and leaf values.
type ToolData struct {
	Keys   []string
	Values []string
	// Paths maps each value to the fields that hold it, as their keys
	// from the root joined by ".", an array's items marked "[]" and
	// their positions left out ("data.hotels[].property.name"); a
	// message that is not JSON is at "".
	Paths map[string][]string
}

// maxToolValues bounds the values read from one tool message.
const maxToolValues = 400

// ReadToolData reads the field names and leaf values of a tool message;
// a message that is not JSON is one value.
func ReadToolData(tool string) ToolData {
	d := ToolData{Paths: map[string][]string{}}
	var v any
	if err := json.Unmarshal([]byte(tool), &v); err != nil {
		if s := strings.TrimSpace(tool); s != "" {
			d.Values = []string{s}
			d.Paths[s] = []string{""}
		}
		return d
	}
	seen := map[string]bool{}
	value := func(s, path string) {
		if !seen["v:"+s] {
			if len(d.Values) >= maxToolValues {
				return
			}
			seen["v:"+s] = true
			d.Values = append(d.Values, s)
		}
		if !slices.Contains(d.Paths[s], path) {
			d.Paths[s] = append(d.Paths[s], path)
		}
	}
	var walk func(x any, path string)
	walk = func(x any, path string) {
		if len(d.Values) >= maxToolValues {
			return
		}
		switch t := x.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(t)) {
				if !seen["k:"+k] {
					seen["k:"+k] = true
					d.Keys = append(d.Keys, k)
				}
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(t[k], p)
			}
		case []any:
			for _, e := range t {
				walk(e, path+"[]")
			}
		case string:
			if s := strings.TrimSpace(t); len(s) >= 2 {
				value(s, path)
			}
		case float64:
			value(strconv.FormatFloat(t, 'f', -1, 64), path)
		}
	}
	walk(v, "")
	return d
}

// identifierKey tells whether a field name is written as an identifier
// (snake_case, camelCase, digits) rather than as a word people use.
func identifierKey(k string) bool {
	if strings.ContainsAny(k, "_0123456789") {
		return true
	}
	for i := 1; i < len(k); i++ {
		if k[i] >= 'A' && k[i] <= 'Z' && k[i-1] >= 'a' && k[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// CopiedData tells why a reply is the tool's data or the conversation
// rather than an answer in words ("" when it answers).
func CopiedData(reply, user, tool string, d ToolData) string {
	r := strings.TrimSpace(reply)
	body := r
	if m := fenceRE.FindStringSubmatch(r); m != nil {
		body = m[1]
	}
	if (strings.HasPrefix(body, "{") || strings.HasPrefix(body, "[")) && json.Valid([]byte(body)) {
		return "the reply is JSON"
	}
	if n := len(jsonKeyRE.FindAllString(r, -1)); n > MaxJSONKeys {
		return "the reply holds JSON fields"
	}
	visible, punct := 0, 0
	for _, c := range r {
		switch {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
		case strings.ContainsRune(`{}[]"`, c):
			punct++
			visible++
		default:
			visible++
		}
	}
	if visible >= 40 && float64(punct) > MaxJSONPunct*float64(visible) {
		return "the reply is mostly JSON punctuation"
	}
	if copiedSpan(r, tool) {
		return "the reply copies a long span of the tool message"
	}
	lower := strings.ToLower(r)
	fields := 0
	for _, k := range d.Keys {
		if identifierKey(k) && !strings.Contains(user, k) && ContainsExact(r, k) {
			fields++
		}
	}
	if fields > MaxFieldNames {
		return "the reply lists the tool result's fields"
	}
	if len(d.Values) >= MinValuesForShare {
		n := 0
		for _, v := range d.Values {
			if strings.Contains(lower, strings.ToLower(v)) {
				n++
			}
		}
		if float64(n) > MaxValueShare*float64(len(d.Values)) {
			return "the reply lists the tool result's values"
		}
	}
	if fieldLines(r, d.Keys) {
		return "the reply lists the tool result's fields"
	}
	rest, cut := r, false
	for i, part := range []string{strings.TrimSpace(user), strings.TrimSpace(tool)} {
		if len(Words(part)) >= 3-2*i && strings.Contains(rest, part) {
			rest, cut = strings.ReplaceAll(rest, part, " "), true
		}
	}
	if cut && len(Words(rest)) < MinOwnWords {
		return "the reply repeats the conversation"
	}
	return ""
}

// fieldLineRE reads a "label: value" line.
var fieldLineRE = regexp.MustCompile(`^\s*(?:[-•]\s*)?([\w .]+?)\s*[:=]\s*\S`)

// fieldLines tells whether a reply is mostly lines that label values with
// the tool result's own field names, as written in its JSON ("time: ...",
// "data translations translatedText: ...").
func fieldLines(reply string, keys []string) bool {
	known := map[string]bool{}
	for _, k := range keys {
		known[k] = true
	}
	lines, labelled, ident := 0, 0, 0
	for _, l := range strings.Split(reply, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines++
		if m := fieldLineRE.FindStringSubmatch(l); m != nil {
			f := strings.Fields(m[1])
			if len(f) > 0 && known[f[len(f)-1]] {
				labelled++
				if identifierKey(f[len(f)-1]) {
					ident++
				}
			}
		}
	}
	return (labelled >= 2 || ident >= 1 || labelled == lines) && labelled > 0 && 2*labelled >= lines
}

// copiedSpan tells whether a reply holds more than MaxCopiedSpan
// characters of the tool message verbatim, JSON punctuation included (a
// long value alone, such as a URL or a headline, may be quoted).
func copiedSpan(reply, tool string) bool {
	n := MaxCopiedSpan + 1
	if len(reply) < n || len(tool) < n {
		return false
	}
	for i := 0; i+n <= len(reply); i += n / 4 {
		w := reply[i : i+n]
		if jsonStructureRE.MatchString(w) && strings.Contains(tool, w) {
			return true
		}
	}
	return false
}

// StatesToolValue tells whether a reply states some value of the tool
// result the user did not give.
func StatesToolValue(reply, user string, d ToolData) bool {
	m := NewMatcher(reply)
	for _, v := range d.Values {
		if ContainsExact(user, v) || len(Words(v)) == 0 {
			continue
		}
		if m.Fact(v) == FactStated {
			return true
		}
	}
	return false
}
