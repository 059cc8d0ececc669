package claims

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// Task 6 asks for an answer from the tool's return, in words (the
// evaluation paper, §3.4): pasting the tool's data back, or the whole
// conversation, is not an answer even when it holds every fact. Listing
// what the result holds is judged by Select, on the same reading of the
// answer as the facts; here only the form of data is.

// Limits of a reply that answers in words.
const (
	// MaxJSONKeys is how many quoted JSON keys ("name":) a reply may hold.
	MaxJSONKeys = 2
	// MaxJSONPunct is the share of JSON syntax (braces, brackets and the
	// quotes of keys and of values between commas) among a reply's
	// visible characters above which it reads as data; quotes in prose
	// ("native name "Português"") are text.
	MaxJSONPunct = 0.06
	// MaxCopiedSpan is the longest run of the tool message's own text,
	// JSON punctuation included, a reply may copy.
	MaxCopiedSpan = 48
	// MaxFieldNames is how many of the tool result's field names (those
	// written as identifiers: snake_case, camelCase) a reply may use.
	MaxFieldNames = 3
	// MinOwnWords is how many words of its own a reply that repeats the
	// user's text or the whole tool message must add.
	MinOwnWords = 3
)

var (
	jsonKeyRE = regexp.MustCompile(`"[^"\n]{1,60}"\s*:`)
	// jsonSyntaxRE finds JSON syntax: braces, brackets, a key's quotes
	// and colon, quotes between array items.
	jsonSyntaxRE = regexp.MustCompile(`[{}\[\]]|"\s*:|"\s*,\s*"`)
	// jsonStructureRE finds JSON syntax between values, as opposed to a
	// value quoted in prose.
	jsonStructureRE = regexp.MustCompile(`"\s*[:,\]}]|[:,\[{]\s*"|[{}\[\]]`)
	fenceRE         = regexp.MustCompile("(?s)^```[a-zA-Z]*\\s*(.*?)\\s*```$")
)

// CopiedData tells why a reply is the tool's data or the conversation
// rather than an answer in words ("" when it answers).
func CopiedData(rd *reading.Reading, user, tool string, d textmatch.ToolData) string {
	r := strings.TrimSpace(rd.Raw)
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
	visible := 0
	for _, c := range r {
		if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			visible++
		}
	}
	punct := 0
	for _, m := range jsonSyntaxRE.FindAllString(r, -1) {
		punct += len(strings.Join(strings.Fields(m), ""))
	}
	if visible >= 40 && float64(punct) > MaxJSONPunct*float64(visible) {
		return "the reply is mostly JSON punctuation"
	}
	if copiedSpan(r, tool) {
		return "the reply copies a long span of the tool message"
	}
	fields := 0
	for _, k := range d.Keys {
		if identifierKey(k) && !strings.Contains(user, k) && textmatch.ContainsExact(r, k) {
			fields++
		}
	}
	if fields > MaxFieldNames {
		return "the reply lists the tool result's fields"
	}
	if fieldLines(rd.Text, d.Keys) {
		return "the reply lists the tool result's fields"
	}
	rest, cut := r, false
	for i, part := range []string{strings.TrimSpace(user), strings.TrimSpace(tool)} {
		if len(textmatch.Words(part)) >= 3-2*i && strings.Contains(rest, part) {
			rest, cut = strings.ReplaceAll(rest, part, " "), true
		}
	}
	if cut && len(textmatch.Words(rest)) < MinOwnWords {
		return "the reply repeats the conversation"
	}
	return ""
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

// fieldLineRE reads a "label: value" line.
var fieldLineRE = regexp.MustCompile(`^\s*([\w .]+?)\s*[:=]\s*\S`)

// fieldLines tells whether a reply is mostly lines that label values with
// the tool result's own field names, as written in its JSON ("time: ...",
// "data translations translatedText: ...").
func fieldLines(text string, keys []string) bool {
	known := map[string]bool{}
	for _, k := range keys {
		known[k] = true
	}
	lines, labelled, ident := 0, 0, 0
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		lines++
		if strings.HasPrefix(strings.TrimSpace(l), ":") {
			// A value after a colon with no label: the flattened root
			// of the result, not a line anyone writes.
			labelled++
			continue
		}
		if m := fieldLineRE.FindStringSubmatch(l); m != nil {
			// The label is the field's path, every word a key of the
			// result ("current temp_c"); "Native name" labels in words.
			f := strings.Fields(m[1])
			path := len(f) > 0
			for _, w := range f {
				path = path && known[w]
			}
			if path {
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
func StatesToolValue(rd *reading.Reading, user string, d textmatch.ToolData) bool {
	for _, v := range d.Values {
		if textmatch.ContainsExact(user, v) || len(textmatch.Words(v)) == 0 {
			continue
		}
		if rd.States(v, reading.PathsKind(d.Paths[v]), textmatch.Exact) == textmatch.FactStated {
			return true
		}
	}
	return false
}
