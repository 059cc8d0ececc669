// Package observe shows a tool result to a model: whole up to a byte budget, and when cut, saying what it left out and how to get more.
package observe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Budget is the bytes of one tool result a model is shown (16 KiB): every
// result the evaluation gives a model, in Task 6's conversation and in the
// solvers' observations, is whole up to it. A 5-day forecast with its
// hourly detail (80 KB) or a flight search with 16 itineraries (30 KB) is
// cut; the cut says so.
const Budget = 16 << 10

// maxString bounds a long string once every list is cut to one item.
const maxString = 300

// Paging names the arguments an API pages its results with: Offset and
// Limit for an offset-style API (offset/limit, from/size), Page for one
// that numbers pages. Empty fields mean the API has no such argument.
type Paging struct {
	Offset, Limit, Page string
}

// offsetNames pairs the offset-style arguments APIs use, Page the
// page-number ones.
var (
	offsetNames = [][2]string{{"offset", "limit"}, {"from", "size"}, {"start", "count"}, {"skip", "take"}}
	pageNames   = []string{"page", "page_number", "pagenumber", "page_no"}
)

// PagingOf finds an API's paging arguments among its parameter names.
func PagingOf(params []string) Paging {
	has := map[string]string{}
	for _, p := range params {
		has[strings.ToLower(p)] = p
	}
	var pg Paging
	for _, pair := range offsetNames {
		if off, ok := has[pair[0]]; ok {
			pg.Offset = off
			if lim, ok := has[pair[1]]; ok {
				pg.Limit = lim
			}
			break
		}
	}
	for _, n := range pageNames {
		if p, ok := has[n]; ok {
			pg.Page = p
			break
		}
	}
	return pg
}

// Cut is one list a fitted result shows in part.
type Cut struct {
	// Path is the list's place in the result, arrays written "[]":
	// "data.itineraries", "forecast.forecastday[].hour" (every day's hours),
	// "" for a result that is itself a list.
	Path string `json:"path"`
	// Shown is how many items of each list at Path are shown; Total the
	// length of the longest of them.
	Shown int `json:"shown"`
	Total int `json:"total"`
	// Ranked are the ranking tags of the items kept out of list order
	// ("cheapest", "shortest"): an item the API tags as the answer to the
	// request is never the one cut.
	Ranked []string `json:"ranked,omitempty"`
}

// rankTags are the tags with which APIs mark the items that answer a
// request best (Skyscanner's "cheapest" and "shortest" itineraries).
var rankTags = map[string]bool{"cheapest": true, "shortest": true, "fastest": true, "best": true, "recommended": true}

// rankedOf is the ranking tags an item carries in its "tags" list.
func rankedOf(v any) []string {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	tags, _ := m["tags"].([]any)
	var out []string
	for _, t := range tags {
		if s, ok := t.(string); ok && rankTags[strings.ToLower(s)] {
			out = append(out, s)
		}
	}
	return out
}

// pick chooses the k items of a list to show: those the API tags as
// ranking first for the request, then the rest in the API's order (which
// is its ranking), shown in list order; and the tags of the ones kept
// out of order.
func pick(x []any, k int) ([]int, []string) {
	chosen := make([]bool, len(x))
	n := 0
	var ranked []string
	for i, e := range x {
		if tags := rankedOf(e); len(tags) > 0 && n < k {
			chosen[i] = true
			n++
			if i >= k {
				ranked = append(ranked, tags...)
			}
		}
	}
	for i := range x {
		if n >= k {
			break
		}
		if !chosen[i] {
			chosen[i] = true
			n++
		}
	}
	idx := make([]int, 0, k)
	for i, c := range chosen {
		if c {
			idx = append(idx, i)
		}
	}
	return idx, ranked
}

// Fitted is a tool result fitted to a budget.
type Fitted struct {
	// Text is what the model is shown: the result itself when it fits, else
	// the result with its longest lists cut (valid JSON), or, for a result
	// that is no JSON, its first bytes.
	Text string
	// Cuts are the lists shown in part, longest first; Strings tells whether
	// long strings were cut too, Bytes whether the text had to be cut as
	// bytes (a result that is no JSON, or one still too large).
	Cuts    []Cut
	Strings bool
	Bytes   bool
	// Note says what was left out and, when the API pages its results, how
	// to get more; "" when the result is whole.
	Note string
}

// Whole tells whether nothing was left out.
func (f Fitted) Whole() bool { return f.Note == "" }

// Result fits a tool result to budget bytes, its note included (the
// caller shows the note beside the text; see Fitted.Note). Lists are cut
// first, the longest first, each to as many items as fit (the hours of a
// forecast before its days, the itineraries of a flight search before
// their legs), keeping the items the API ranks first for the request (its
// order, and items tagged "cheapest", "shortest"…); then long strings;
// only then the text itself. args are the
// call's arguments and paging the API's paging arguments, for the note's
// way to get more. The same result, budget and arguments always give the
// same text.
func Result(raw []byte, budget int, args map[string]any, paging Paging) Fitted {
	return ResultReserving(raw, budget, 0, args, paging)
}

// ResultReserving is Result for a caller that wraps the text in reserve
// bytes of its own (an envelope): text and note fit budget-reserve, and the
// note states budget, the one figure the model is told (observe.Budget,
// 16,384 bytes), not what is left after the envelope.
func ResultReserving(raw []byte, budget, reserve int, args map[string]any, paging Paging) Fitted {
	stated, budget := budget, budget-reserve
	raw = bytes.TrimSpace(raw)
	if len(raw) <= budget {
		return Fitted{Text: string(raw)}
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) == nil && compact.Len() <= budget {
		return Fitted{Text: compact.String()}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil || dec.More() {
		return cutBytes(string(raw), len(raw), budget, stated)
	}
	f := &fitter{doc: doc, keep: map[string]int{}, budget: budget, statedBudget: stated, args: args, paging: paging}
	return f.fit(compact.Len())
}

// fitter cuts one decoded result.
type fitter struct {
	doc    any
	keep   map[string]int // items kept per list path
	strs   bool           // long strings cut
	budget int
	// statedBudget is the budget the note states (see ResultReserving).
	statedBudget int
	args         map[string]any
	paging       Paging
	lists        []listInfo
}

// listInfo is every list at one path of the result.
type listInfo struct {
	path  string
	max   int // the longest list's length
	bytes int // the lists' size, for ordering equals
}

func (f *fitter) fit(size int) Fitted {
	f.lists = collectLists(f.doc)
	var cut []string // the lists cut so far, in order
	for _, l := range f.lists {
		if l.max <= 1 {
			continue
		}
		f.keep[l.path] = 1
		cut = append(cut, l.path)
		if _, ok := f.render(); !ok {
			continue // even one item is too many: cut the next list too
		}
		// It fits. The lists cut last are the ones worth most: each gets
		// back as many items as fit, those first.
		for i := len(cut) - 1; i >= 0; i-- {
			f.grow(cut[i])
		}
		out, _ := f.render()
		return out
	}
	f.strs = true
	out, ok := f.render()
	if ok {
		return out
	}
	return cutBytes(out.Text, size, f.budget, f.stated())
}

// stated is the budget the note states.
func (f *fitter) stated() int {
	if f.statedBudget > 0 {
		return f.statedBudget
	}
	return f.budget
}

// grow raises the items kept of one list to the most that fit.
func (f *fitter) grow(path string) {
	lo, hi := f.keep[path], 0
	for _, l := range f.lists {
		if l.path == path {
			hi = l.max
		}
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		f.keep[path] = mid
		if _, ok := f.render(); ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	f.keep[path] = lo
}

// render shows the document with the current cuts; ok tells whether text
// and note fit the budget.
func (f *fitter) render() (Fitted, bool) {
	shown, cuts := f.shrink(f.doc, "")
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(shown)
	text := strings.TrimSuffix(b.String(), "\n")
	out := Fitted{Text: text, Strings: f.strs}
	for _, l := range f.lists {
		if c, ok := cuts[l.path]; ok {
			out.Cuts = append(out.Cuts, c)
		}
	}
	out.Note = f.note(out)
	return out, len(out.Text)+len(out.Note) <= f.budget
}

// shrink copies v with its lists cut as f.keep says, recording each cut.
func (f *fitter) shrink(v any, path string) (any, map[string]Cut) {
	cuts := map[string]Cut{}
	var walk func(v any, path string) any
	walk = func(v any, path string) any {
		switch x := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = walk(e, join(path, k))
			}
			return out
		case []any:
			idx := make([]int, len(x))
			for i := range idx {
				idx[i] = i
			}
			if k, ok := f.keep[path]; ok && k < len(x) {
				var ranked []string
				idx, ranked = pick(x, k)
				c := cuts[path]
				c.Path, c.Shown, c.Total = path, k, max(c.Total, len(x))
				for _, t := range ranked {
					if !slices.Contains(c.Ranked, t) {
						c.Ranked = append(c.Ranked, t)
					}
				}
				cuts[path] = c
			}
			out := make([]any, len(idx))
			for j, i := range idx {
				out[j] = walk(x[i], path+"[]")
			}
			return out
		case string:
			if f.strs && len(x) > maxString {
				return cutString(x, maxString) + "…"
			}
		}
		return v
	}
	return walk(v, path), cuts
}

// note says what a fitted result leaves out and how to get more.
func (f *fitter) note(out Fitted) string {
	if len(out.Cuts) == 0 && !out.Strings {
		return ""
	}
	var parts []string
	for _, c := range out.Cuts {
		parts = append(parts, cutPhrase(c))
	}
	if out.Strings {
		parts = append(parts, fmt.Sprintf("texts longer than %d bytes end with …", maxString))
	}
	s := fmt.Sprintf("the result is cut to fit %s bytes: %s", thousands(f.stated()), strings.Join(parts, "; "))
	if more := f.more(out.Cuts); more != "" {
		s += "; " + more
	}
	return s
}

// cutPhrase says how much of a list is shown.
func cutPhrase(c Cut) string {
	name := c.Path
	if name == "" {
		name = "the result"
	}
	if strings.Contains(c.Path, "[]") {
		return fmt.Sprintf("%s shows the first %d of up to %d items in each list", name, c.Shown, c.Total)
	}
	s := fmt.Sprintf("showing %d of %d %s, %d left out", c.Shown, c.Total, noun(c.Path), c.Total-c.Shown)
	if len(c.Ranked) > 0 {
		s += fmt.Sprintf(" (the first in the API's order, and the ones tagged %s)", strings.Join(c.Ranked, " and "))
	}
	return s
}

// thousands writes n with comma thousands separators: 16,384.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// noun names the items of a list by its key ("itineraries"), or "items".
func noun(path string) string {
	key := path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		key = path[i+1:]
	}
	if key == "" || key == "data" || key == "results" || key == "result" {
		if key == "" {
			return "items"
		}
		return "items of " + path
	}
	return key + " (" + path + ")"
}

// more is the way to the items cut from the result's main list (the
// first cut list that lies in no other list), when the API pages.
func (f *fitter) more(cuts []Cut) string {
	for _, c := range cuts {
		if strings.Contains(c.Path, "[]") {
			continue
		}
		switch {
		case f.paging.Offset != "":
			from := intArg(f.args[f.paging.Offset]) + c.Shown
			s := fmt.Sprintf("to see the next ones, call again with %s=%d", f.paging.Offset, from)
			if f.paging.Limit != "" {
				s += fmt.Sprintf(" and %s=%d", f.paging.Limit, c.Shown)
			}
			return s
		case f.paging.Page != "":
			return fmt.Sprintf("%s=%d gives the next page", f.paging.Page, max(intArg(f.args[f.paging.Page]), 1)+1)
		}
		return ""
	}
	return ""
}

// intArg reads a whole-number argument; 0 when absent or not one.
func intArg(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case int:
		return x
	case json.Number:
		n, _ := strconv.Atoi(string(x))
		return n
	case string:
		n, _ := strconv.Atoi(x)
		return n
	}
	return 0
}

// longList is the length from which a list is a collection of results
// (hours, itineraries, photos) rather than the structure of one (the legs
// of a flight): collections are cut first.
const longList = 4

// collectLists finds every list path of the document in the order lists
// are cut: collections before short lists; among them the most nested
// first (every day's hours before the days, every recipe's steps before
// the recipes), then the largest.
func collectLists(doc any) []listInfo {
	at := map[string]*listInfo{}
	var walk func(v any, path string) int
	walk = func(v any, path string) int {
		switch x := v.(type) {
		case map[string]any:
			n := 2
			for k, e := range x {
				n += walk(e, join(path, k)) + len(k) + 4
			}
			return n
		case []any:
			size := 2
			for _, e := range x {
				size += walk(e, path+"[]") + 1
			}
			l := at[path]
			if l == nil {
				l = &listInfo{path: path}
				at[path] = l
			}
			l.max = max(l.max, len(x))
			l.bytes += size
			return size
		case string:
			return len(x) + 2
		}
		return 8
	}
	walk(doc, "")
	var out []listInfo
	for _, l := range at {
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if la, lb := a.max >= longList, b.max >= longList; la != lb {
			return la
		}
		if na, nb := strings.Count(a.path, "[]"), strings.Count(b.path, "[]"); na != nb {
			return na > nb
		}
		if a.bytes != b.bytes {
			return a.bytes > b.bytes
		}
		return a.path < b.path
	})
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// cutBytes keeps the first bytes of a text that is no JSON (or still too
// large as JSON), saying how many.
func cutBytes(s string, total, budget, stated int) Fitted {
	note := func(n int) string {
		return fmt.Sprintf("the result is cut to fit %s bytes: showing its first %d of %d bytes", thousands(stated), n, total)
	}
	text := cutString(s, max(budget-len(note(budget)), 0))
	return Fitted{Text: text, Bytes: true, Note: note(len(text))}
}

// cutString keeps at most n bytes of s, on a character boundary.
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
