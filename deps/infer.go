package deps

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// Confidence of each kind of evidence an inferred edge can rest on.
const (
	confCuedMention = 0.95 // "can be retrieved from `X`", "returned by X", ".../x/list endpoint"
	confMention     = 0.7  // the parameter's description names a sibling API
	confNameMatch   = 0.6  // a sibling API's response has a field named like the parameter
	// optionalFactor scales the confidence of an edge into an optional
	// parameter: the API works without it, so documentation that points
	// at a source (a config or language list) is a hint, not a dependency.
	optionalFactor   = 0.6
	maxLeavesScanned = 5000
)

// cues are the phrases RapidAPI documentation uses to say where a value
// comes from.
var cues = regexp.MustCompile(`(?i)(retrieved from|returned (?:by|in|from)|obtained (?:from|by|in|via)|comes? from|taken from|get (?:it|this|them) from|available (?:from|in)|output of|result of|value of .{1,40}? (?:field )?returned|from the .{0,40}?(?:endpoint|api)|use the .{0,40}?(?:endpoint|api)|provided by|given by|found in)`)

// pathInText finds response paths written in documentation: data->id,
// (data->context->sessionId), data.hotels[].hotel_id, results[].lat.
var pathInText = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\[\])?(?:(?:->|\.)[A-Za-z_][A-Za-z0-9_]*(?:\[\])?)+|[A-Za-z_][A-Za-z0-9_]*\[\](?:\.[A-Za-z_][A-Za-z0-9_]*)*`)

// Infer finds dependency edges from documentation alone: parameter
// descriptions that name another API ("can be retrieved from
// `flights_auto_complete` (data->id)", "returned in .../properties/list
// endpoint"), and parameter names that match response fields of sibling
// APIs (hotel_id ↔ hotels[].hotel_id). Each edge carries a confidence and
// the evidence text. x-depends annotations are not read.
//
// Each description is matched against an index of the catalog's API
// names (see mentionIndex), so inference takes time linear in the catalog.
func Infer(c *toolset.Catalog) []Edge { return infer(c, false) }

// infer is Infer; compareAll offers every API to every description, as
// inference did before the index, for tests to compare with.
func infer(c *toolset.Catalog, compareAll bool) []Edge {
	apis := c.APIs()
	examples := newExampleDocs(apis)
	byName := map[string][]*toolset.API{}
	named := make([]namedAPI, len(apis))
	for i, a := range apis {
		named[i] = nameAPI(a)
		byName[named[i].name] = append(byName[named[i].name], a)
	}
	ix := newMentionIndex(named, byName)
	var out []Edge
	var cands []int32
	for _, b := range apis {
		for _, p := range b.Params {
			var found []Edge
			if strings.TrimSpace(p.Description) != "" {
				lower, norm := strings.ToLower(p.Description), normalise(p.Description)
				cands = ix.candidates(b.Tool, lower, norm, cands[:0])
				if compareAll {
					cands = cands[:0]
					for i := range named {
						cands = append(cands, int32(i))
					}
				}
				found = inferFromText(b, p, lower, norm, named, cands, byName, examples)
			}
			if len(found) == 0 {
				found = inferFromNames(b, p, examples)
			}
			out = append(out, dropToolNameEchoes(found)...)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].To != out[j].To {
			return out[i].To < out[j].To
		}
		if out[i].Param != out[j].Param {
			return out[i].Param < out[j].Param
		}
		return out[i].From < out[j].From
	})
	return out
}

// namedAPI is an API with the spellings mentions looks for, worked out
// once per API rather than once per parameter of every other API.
type namedAPI struct {
	*toolset.API
	name      string   // StandardizeAPIName
	raw       string   // lower case
	pathTail  string   // "/<last two segments>" of the path, or ""
	toolTitle string   // the tool's standardized title
	quoted    []string // "`raw`", then "`name`" when it differs
	word      string   // "_name_"
}

func nameAPI(a *toolset.API) namedAPI {
	n := namedAPI{API: a, name: toolset.StandardizeAPIName(a.Name), raw: strings.ToLower(a.Name)}
	if a.Path != "" {
		segs := strings.Split(strings.Trim(strings.ToLower(a.Path), "/"), "/")
		if len(segs) >= 2 {
			if tail := "/" + strings.Join(segs[len(segs)-2:], "/"); !strings.Contains(tail, "{") {
				n.pathTail = tail
			}
		}
	}
	if a.Tool != nil {
		n.toolTitle = toolset.Standardize(a.Tool.Title)
	}
	for _, s := range uniq(n.raw, n.name) {
		n.quoted = append(n.quoted, "`"+s+"`")
	}
	n.word = "_" + n.name + "_"
	return n
}

// exampleDocs are the APIs' example responses by API ID, decoded on first
// use: only the sources of an edge need theirs.
type exampleDocs struct {
	raw map[string][]json.RawMessage // in catalog order
	doc map[string]any               // decoded; nil for none that decodes
}

func newExampleDocs(apis []*toolset.API) *exampleDocs {
	e := &exampleDocs{raw: map[string][]json.RawMessage{}, doc: map[string]any{}}
	for _, a := range apis {
		if len(a.ExampleResponse) > 0 {
			e.raw[a.ID()] = append(e.raw[a.ID()], a.ExampleResponse)
		}
	}
	return e
}

// lookup is the example response of the API with that ID, when it has one
// that decodes (the last one, should two APIs share the ID).
func (e *exampleDocs) lookup(id string) (any, bool) {
	if v, ok := e.doc[id]; ok {
		return v, v != nil
	}
	var found any
	for i := len(e.raw[id]) - 1; i >= 0; i-- {
		var v any
		if json.Unmarshal(e.raw[id][i], &v) == nil {
			found = v
			break
		}
	}
	e.doc[id] = found
	return found, found != nil
}

// inferFromText finds the APIs that p's description names among the
// candidates (indexes into apis, in catalog order; see mentionIndex).
// lower is the description in lower case and norm its normalised form.
func inferFromText(b *toolset.API, p *toolset.Param, lower, norm string, apis []namedAPI, candidates []int32, byName map[string][]*toolset.API, examples *exampleDocs) []Edge {
	text := p.Description
	var cueIdx [][]int // found on the first mention: most texts name no API
	cued := func(pos int) bool {
		if cueIdx == nil {
			cueIdx = cues.FindAllStringIndex(text, -1)
			if cueIdx == nil {
				cueIdx = [][]int{}
			}
		}
		return cuedBefore(cueIdx, pos)
	}
	var out []Edge
	var hows []string  // how each edge's API is named
	var oneWord []bool // whether its name is one word
	seen := map[string]bool{}
	for _, c := range candidates {
		na := apis[c]
		a := na.API
		if a == b {
			continue
		}
		pos, how := mentions(lower, norm, len(text), na)
		if pos < 0 {
			continue
		}
		// Another tool's API counts when the text names it exactly (in
		// backticks), names its tool too, or names it by a distinctive
		// compound name after a cue; a plain word like "search" is prose.
		// A path tail ("/v2/search") is another tool's only when the text
		// names that tool: documentation writes its own tool's paths.
		distinctive := strings.Contains(na.name, "_")
		if a.Tool != b.Tool {
			toolNamed := strings.Contains(norm, "_"+a.Tool.StandardizedName+"_") || strings.Contains(norm, "_"+na.toolTitle+"_")
			if len(byName[na.name]) > 1 && !toolNamed {
				continue
			}
			if how != "backtick" && !toolNamed && !(distinctive && cued(pos) && how != "path") {
				continue
			}
		}
		// A one-word name ("Status", "Element") met as a plain word is
		// prose unless a cue points at it ("the status of the order").
		if how == "plain" && !distinctive && !cued(pos) {
			continue
		}
		conf := confMention
		if how == "backtick" || how == "path" || cued(pos) {
			conf = confCuedMention
		}
		if !p.Required {
			conf *= optionalFactor
		}
		if seen[a.ID()] {
			continue
		}
		seen[a.ID()] = true
		out = append(out, Edge{
			From: a.ID(), To: b.ID(), Param: p.Name,
			// "" when nothing in the source's example holds the value: the
			// dependency check then looks for it in the source's answers,
			// and a chain takes it from the user.
			Path:   pathFor(text, p, example(examples, a.ID())),
			Opaque: looksOpaque(p.Name), Origin: "inferred", Confidence: conf,
			Evidence: evidence(text, pos),
		})
		hows = append(hows, how)
		oneWord = append(oneWord, !distinctive)
	}
	// A text that names an API exactly (in backticks or by its path)
	// means that one: a one-word name met in the same text ("status" in
	// "/orders/by-status") is a word of it.
	if slices.ContainsFunc(hows, func(h string) bool { return h != "plain" }) {
		kept := out[:0]
		for i, e := range out {
			if hows[i] != "plain" || !oneWord[i] {
				kept = append(kept, e)
			}
		}
		out = kept
	}
	return out
}

// mentions finds where a text names API a: as `name`, as a word, or by
// the tail of its URL path (".../properties/list endpoint"). lower is the
// text in lower case, norm its normalised form and n its length. It
// returns the byte offset in the text (approximate for normalised
// matches) and how.
func mentions(lower, norm string, n int, a namedAPI) (int, string) {
	for _, q := range a.quoted {
		if i := strings.Index(lower, q); i >= 0 {
			return i, "backtick"
		}
	}
	if len(a.name) >= 4 {
		if i := strings.Index(norm, a.word); i >= 0 {
			return min(i, n-1), "plain"
		}
	}
	if tail := a.pathTail; tail != "" {
		if i := strings.Index(lower, tail); i >= 0 {
			// Must end there: "/flights/search" is not "/flights/search-incomplete".
			end := i + len(tail)
			if end == len(lower) || !isNameChar(lower[end]) {
				return i, "path"
			}
		}
	}
	return -1, ""
}

func isNameChar(c byte) bool {
	return c == '-' || c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
}

func uniq(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" && (len(out) == 0 || out[len(out)-1] != s) {
			out = append(out, s)
		}
	}
	return out
}

// normalise lowercases and turns every run of non-alphanumerics into one
// '_', with '_' at both ends, so "_name_" matches whole names.
func normalise(s string) string {
	return "_" + toolset.Standardize(strings.ReplaceAll(s, "-", "_")) + "_"
}

func cuedBefore(cueIdx [][]int, pos int) bool {
	for _, c := range cueIdx {
		if c[0] <= pos && pos-c[1] <= 80 {
			return true
		}
	}
	return false
}

func evidence(text string, pos int) string {
	start := strings.LastIndexAny(text[:max(0, min(pos, len(text)))], ".!?\n")
	if start < 0 {
		start = 0
	} else {
		start++
	}
	s := strings.TrimSpace(text[start:])
	if len(s) > 240 {
		s = s[:240] + "…"
	}
	return s
}

// pathFor picks the response path of an inferred edge: a path written in
// the text (data->id) resolved against the source's example response, else
// the example's shortest leaf named like the parameter, else the list in
// the example that holds the parameter's documented default ("Ex: USD (see
// listquotes)" and listquotes answers ["SGD", "USD", …]). It is "" when
// none is found.
func pathFor(text string, param *toolset.Param, example any) string {
	for _, m := range pathInText.FindAllString(text, -1) {
		dotted := strings.ReplaceAll(m, "->", ".")
		if example == nil {
			return dotted
		}
		if resolved := resolvePath(example, dotted); resolved != "" {
			return resolved
		}
	}
	if example != nil {
		if p := leafNamed(example, param.Name); p != "" {
			return p
		}
		if p := listHolding(example, text, param); p != "" {
			return p
		}
	}
	return ""
}

// listHolding returns the path of the list in example whose values include
// the parameter's default, else of the list whose field is named by a word
// of the text ("one of the language codes listed in supported_languages":
// "data.languages[].language"). It prefers a path sharing more words with
// the parameter's name (target_lang: "data.target_languages[].code", not
// source_languages), then the shortest.
func listHolding(example any, text string, param *toolset.Param) string {
	def, hasDefault := ScalarKey(param.Default)
	hasDefault = hasDefault && def != ""
	said := map[string]bool{}
	for _, w := range strings.Split(strings.Trim(normalise(text), "_"), "_") {
		said[w] = true
		said[strings.TrimSuffix(w, "s")] = true
	}
	words := strings.FieldsFunc(strings.ToLower(param.Name), func(r rune) bool { return r == '_' || r == '-' })
	named := func(path string) int {
		n := 0
		for _, w := range words {
			if len(w) >= 3 && strings.Contains(strings.ToLower(path), w) {
				n++
			}
		}
		return n
	}
	pick := func(holds func(path string, v any) bool) string {
		var best string
		leaves(example, maxLeavesScanned, func(path string, v any) {
			if !strings.Contains(path, "[]") || !holds(path, v) {
				return
			}
			if best == "" || named(path) > named(best) ||
				named(path) == named(best) && (len(path) < len(best) || len(path) == len(best) && path < best) {
				best = path
			}
		})
		return best
	}
	if hasDefault {
		if p := pick(func(_ string, v any) bool { k, ok := ScalarKey(v); return ok && k == def }); p != "" {
			return p
		}
	}
	return pick(func(path string, _ any) bool {
		segs := strings.Split(strings.ReplaceAll(path, "[]", ""), ".")
		last := strings.ToLower(segs[len(segs)-1])
		return last != "name" && said[last]
	})
}

// resolvePath finds the path in the example whose steps, with array walks
// removed, equal dotted's ("data.id" → "data[].id").
func resolvePath(example any, dotted string) string {
	want := strings.ReplaceAll(dotted, "[]", "")
	best := ""
	leaves(example, maxLeavesScanned, func(path string, _ any) {
		if best != "" {
			return
		}
		plain := strings.TrimPrefix(strings.ReplaceAll(path, "[]", ""), ".")
		if plain == want || strings.HasSuffix(plain, "."+want) && strings.Count(plain, ".") == strings.Count(want, ".") {
			best = path
		}
	})
	return best
}

// leafNamed returns the shortest path to a leaf named name (or "id" under a
// parent named like name's prefix: hotel_id ↔ hotels[].id).
func leafNamed(example any, name string) string {
	lname := strings.ToLower(name)
	prefix := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(lname, "_id"), "id"), "_")
	var best string
	leaves(example, maxLeavesScanned, func(path string, _ any) {
		segs := strings.Split(strings.ReplaceAll(path, "[]", ""), ".")
		last := strings.ToLower(segs[len(segs)-1])
		ok := last == lname
		if !ok && last == "id" && prefix != "" && len(segs) >= 2 {
			parent := strings.ToLower(segs[len(segs)-2])
			ok = parent == prefix || parent == prefix+"s" || parent == prefix+"es"
		}
		if ok && (best == "" || len(path) < len(best) || len(path) == len(best) && path < best) {
			best = path
		}
	})
	return best
}

// inferFromNames links an identifier-like parameter to sibling APIs of the
// same tool whose example response has a field of that name, when the
// sibling does not itself take the parameter (a details API that echoes
// hotel_id is not where hotel_id comes from).
// example is the example response of the API with that ID, or nil.
func example(e *exampleDocs, id string) any {
	v, _ := e.lookup(id)
	return v
}

func inferFromNames(b *toolset.API, p *toolset.Param, examples *exampleDocs) []Edge {
	if !looksOpaque(p.Name) {
		return nil
	}
	var out []Edge
	for _, a := range b.Tool.APIs {
		if a == b || a.Param(p.Name) != nil {
			continue
		}
		ex, ok := examples.lookup(a.ID())
		if !ok {
			continue
		}
		path := leafNamed(ex, p.Name)
		if path == "" || !idOfEntity(b, p, path) {
			continue
		}
		out = append(out, Edge{
			From: a.ID(), To: b.ID(), Param: p.Name, Path: path, Opaque: true,
			Origin: "inferred", Confidence: confNameMatch,
			Evidence: "the response of " + a.Name + " has " + path + ", named like the parameter " + p.Name,
		})
	}
	return out
}

// idOfEntity reports whether a response path can supply parameter p of
// b by name. A parameter named just "id" matches every "id" field, so the
// field must sit under an entity the API or the parameter names
// ("players[].id" for "get player details", not "matches[].id").
func idOfEntity(b *toolset.API, p *toolset.Param, path string) bool {
	if !strings.EqualFold(p.Name, "id") {
		return true
	}
	segs := strings.Split(strings.ReplaceAll(path, "[]", ""), ".")
	if len(segs) < 2 {
		return false
	}
	parent := strings.ToLower(segs[len(segs)-2])
	words := normalise(b.Name + " " + p.Description)
	for _, w := range []string{parent, strings.TrimSuffix(parent, "s"), strings.TrimSuffix(parent, "es")} {
		if len(w) >= 3 && strings.Contains(words, "_"+w+"_") {
			return true
		}
	}
	return false
}

// looksOpaque tells identifier-like parameter names: ids, tokens, session ids.
func looksOpaque(name string) bool {
	l := strings.ToLower(name)
	return strings.HasSuffix(l, "id") || strings.HasSuffix(l, "_ids") || strings.HasSuffix(l, "token") || strings.HasSuffix(l, "session") || strings.HasSuffix(l, "sessionid")
}

// dropToolNameEchoes removes an API whose name is its tool's name (web_search
// of the tool web_search) when the same text also names another API of that
// tool: the text named the tool, and the other API is the source.
func dropToolNameEchoes(es []Edge) []Edge {
	var out []Edge
	for _, e := range es {
		tool, api, _ := strings.Cut(e.From, ".")
		echo := false
		if tool == api {
			for _, o := range es {
				if o.From != e.From && strings.HasPrefix(o.From, tool+".") {
					echo = true
				}
			}
		}
		if !echo {
			out = append(out, e)
		}
	}
	return out
}
