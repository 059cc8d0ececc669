package faker_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/brianvoe/gofakeit/v7/data"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/mocks/faker"
	"github.com/understudy/understudy/mocks/faker/shape"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/tbfile"
)

// Template kinds as ToolBench's query files hold them, which the quality
// measurement gives the generated universe's templates in turn: the type
// shape as it is, as a JSON string, as the repr of a Python dict, with
// _list_length markers, with "list of int with length 3" lists, with
// hollow items (a list's objects written {} or as a _list_length marker
// alone, its other fields kept), and error replies in place of the
// answer's shape.
const (
	tmplPlain = iota
	tmplJSONString
	tmplPyRepr
	tmplListLength
	tmplListOf
	tmplHollow
	tmplErrorMessage
	tmplErrorObject
	tmplErrorText
	tmplKinds
)

// errorTemplates are error replies ToolBench's query files carry as
// template_response.
var errorTemplates = map[int]any{
	tmplErrorMessage: map[string]any{"message": "str"},
	tmplErrorObject:  map[string]any{"error": "str", "status": "int"},
	tmplErrorText:    "You are not subscribed to this API.",
}

// retemplate rewrites a type template into one of the kinds.
func retemplate(t any, kind, seed int) any {
	if e, ok := errorTemplates[kind]; ok {
		return e
	}
	switch kind {
	case tmplJSONString:
		b, _ := json.Marshal(t)
		return string(b)
	case tmplPyRepr:
		return pyRepr(t)
	case tmplListLength, tmplListOf, tmplHollow:
		return markLists(t, kind, seed)
	}
	return t
}

// markLists writes lists as ToolBench does: [{"id": "int",
// "_list_length": 7}] and ["list of int with length 3"].
func markLists(v any, kind, seed int) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = markLists(e, kind, seed+len(k))
		}
		return out
	case []any:
		if len(x) != 1 {
			return x
		}
		switch e := markLists(x[0], kind, seed+1).(type) {
		case map[string]any:
			if kind == tmplHollow {
				if seed%2 == 0 {
					return []any{map[string]any{}}
				}
				return []any{map[string]any{"_list_length": 1 + seed%9}}
			}
			if kind == tmplListLength {
				e["_list_length"] = 1 + seed%9
			}
			return []any{e}
		case string:
			if kind == tmplListOf {
				return []any{fmt.Sprintf("list of %s with length %d", e, 1+seed%5)}
			}
			return []any{e}
		default:
			return []any{e}
		}
	}
	return v
}

// pyRepr is what Python's str() writes of a decoded JSON value.
func pyRepr(v any) string {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = pyRepr(k) + ": " + pyRepr(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(x) + "'"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case nil:
		return "None"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// retemplateQueries rewrites every template_response of a query file,
// the kind chosen by the API's name.
func retemplateQueries(t testing.TB, raw []byte) []byte {
	t.Helper()
	var recs []map[string]any
	require.NoError(t, json.Unmarshal(raw, &recs))
	for _, r := range recs {
		list, _ := r["api_list"].([]any)
		for _, e := range list {
			m, _ := e.(map[string]any)
			if m == nil || m["template_response"] == nil {
				continue
			}
			key := fmt.Sprint(m["tool_name"], "\x00", m["api_name"])
			h := int(hashString(key))
			m["template_response"] = retemplate(m["template_response"], h%tmplKinds, h/tmplKinds)
		}
	}
	b, err := json.Marshal(recs)
	require.NoError(t, err)
	return b
}

func hashString(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h & 0x7fffffff
}

// qualityUniverse is a sample of whole tools of the generated universe
// (its defects kept: no schemas, error-reply test endpoints), their
// templates rewritten into every kind ToolBench writes, with the
// dependency graph of the sample.
type qualityUniverse struct {
	cat   *toolset.Catalog
	graph *deps.Graph
	apis  []*toolset.API
	// kinds are the template kind each API was given, by API ID.
	kinds map[string]int
}

func loadQualityUniverse(t testing.TB, tools int) *qualityUniverse {
	t.Helper()
	u, err := tbgen.Generate(tbgen.Options{Tools: 3000})
	require.NoError(t, err)
	var picks []*tbgen.Tool
	for _, tl := range u.Tools {
		if tl.Malformed == "" && tl.CopyOf == nil {
			picks = append(picks, tl)
		}
	}
	rng := rand.New(rand.NewPCG(32, 400))
	rng.Shuffle(len(picks), func(i, j int) { picks[i], picks[j] = picks[j], picks[i] })
	picks = picks[:tools]
	want := map[string]bool{}
	for _, tl := range picks {
		want[tl.File] = true
	}
	queries := t.TempDir()
	var loaded []*toolset.Tool
	require.NoError(t, u.EachFile(func(rel string, raw []byte) error {
		switch {
		case want[rel]:
			parts := strings.Split(rel, "/")
			if tl, err := tbfile.LoadFile(raw, parts[len(parts)-2], rel); err == nil {
				loaded = append(loaded, tl)
			}
		case path.Dir(rel) == "queries":
			return os.WriteFile(filepath.Join(queries, path.Base(rel)), retemplateQueries(t, raw), 0o644)
		}
		return nil
	}))
	cat, err := toolset.NewCatalog(loaded)
	require.NoError(t, err)
	_, err = tbfile.AddQueryTemplates(cat, queries)
	require.NoError(t, err)
	// Tools the query files do not name get their templates from the
	// generator, rewritten the same way.
	byName := map[string]*tbgen.Tool{}
	for _, tl := range picks {
		byName[tl.Category+"\x00"+tl.Name] = tl
	}
	q := &qualityUniverse{cat: cat, kinds: map[string]int{}}
	for _, tl := range picks {
		for _, a := range tl.APIs {
			api := cat.ToolBenchAPI(tl.Category, tl.Name, a.Name)
			if api == nil {
				continue
			}
			h := int(hashString(tl.Name + "\x00" + a.Name))
			q.kinds[api.ID()] = h % tmplKinds
			if len(api.TemplateResponse) == 0 {
				b, err := json.Marshal(retemplate(plainTemplate(a.Template()), h%tmplKinds, h/tmplKinds))
				require.NoError(t, err)
				api.TemplateResponse = toolset.NormalizeTemplate(b)
			}
			q.apis = append(q.apis, api)
		}
	}
	q.graph, err = deps.Build(cat, deps.Options{Annotations: true, Infer: true})
	require.NoError(t, err)
	return q
}

// plainTemplate is a generator template as decoded JSON.
func plainTemplate(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// Defects a fake answer can have.
var (
	fillerSentence = regexp.MustCompile(`(?i)\bbased in\b.*\bknown for its\b|or something resembling one|^Request processed successfully$`)
	typeNameValue  = regexp.MustCompile(`^(str|int|float|bool|NoneType|dict|list|list of [a-z]+ with length \d+)$|^[\[{].*['"](str|int|float|bool)['"]`)
	adjectives     = wordSet("adjective_descriptive", "adjective")
	nouns          = wordSet("noun_concrete", "noun_common", "noun")
)

func wordSet(lists ...string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lists {
		for _, w := range data.Word[l] {
			m[strings.ToLower(w)] = true
		}
	}
	return m
}

// adjectiveNoun reports whether a value is gofakeit's "⟨Adjective⟩
// ⟨Noun⟩", the filler of a field the faker did not understand.
func adjectiveNoun(s string) bool {
	ws := strings.Fields(s)
	if len(ws) < 2 || len(ws) > 3 {
		return false
	}
	for _, w := range ws {
		if w == "" || strings.ToUpper(w[:1]) != w[:1] {
			return false
		}
	}
	return adjectives[strings.ToLower(ws[0])] && nouns[strings.ToLower(strings.Join(ws[1:], " "))]
}

// nameField reports whether a field is a name, whose value may be any
// words.
func nameField(key string) bool {
	switch k := shape.Fold(key); {
	case strings.HasSuffix(k, "name"), strings.HasSuffix(k, "title"), strings.HasSuffix(k, "label"), k == "album", k == "artist":
		return true
	}
	return false
}

// answerDefects are what is wrong in one answer.
type answerDefects struct {
	filler, adjNoun, empty, marker, typeName bool
	examples                                 []string
	w                                        *world.World
}

// cityNamed reports whether a value starts with a city's name ("Nice
// Park"), which makes it no adjective.
func (d *answerDefects) cityNamed(s string) bool {
	if d.w == nil {
		return false
	}
	c, ok := d.w.FindCity(strings.Fields(s)[0])
	return ok && strings.EqualFold(c.Name, strings.Fields(s)[0])
}

func (d *answerDefects) walk(v any, key string) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			d.empty = true
			d.examples = append(d.examples, key+": {}")
		}
		for k, e := range x {
			if k == "_list_length" {
				d.marker = true
			}
			d.walk(e, k)
		}
	case []any:
		for _, e := range x {
			d.walk(e, key)
		}
	case string:
		switch {
		case fillerSentence.MatchString(x):
			d.filler = true
			d.examples = append(d.examples, key+": "+x)
		case typeNameValue.MatchString(x):
			d.typeName = true
			d.examples = append(d.examples, key+": "+x)
		case !nameField(key) && adjectiveNoun(x) && !d.cityNamed(x):
			d.adjNoun = true
			d.examples = append(d.examples, key+": "+x)
		}
	}
}

// qualityShares are the shares of answers with each defect, and the
// handoffs kept.
type qualityShares struct {
	APIs, Filler, AdjNoun, Empty, Marker, TypeName, ErrorAsSuccess float64
	ErrorTemplates                                                 int
	ListAnswers, ListWithIDs                                       int
	Details, DetailWithID                                          int
	examples                                                       []string
}

func (s qualityShares) String() string {
	return fmt.Sprintf("%d APIs: filler sentence %.1f %%, adjective-noun in a typed field %.1f %%, empty objects %.1f %%, _list_length %.1f %%, type names as values %.1f %%; error-reply templates served as success %.1f %% (of %d); list answers with their handoff IDs %d/%d; detail answers with the ID asked %d/%d",
		int(s.APIs), 100*s.Filler/s.APIs, 100*s.AdjNoun/s.APIs, 100*s.Empty/s.APIs, 100*s.Marker/s.APIs, 100*s.TypeName/s.APIs,
		100*s.ErrorAsSuccess/max(1, float64(s.ErrorTemplates)), s.ErrorTemplates, s.ListWithIDs, s.ListAnswers, s.DetailWithID, s.Details)
}

func callOf(a *toolset.API, args map[string]any) *standin.Call {
	return &standin.Call{API: a, Args: args, Now: clock.Default, Seed: standin.Seed(standin.ToolName(a), a.Name, args), State: standin.NewState()}
}

// plainAnswer is an answer as the Mocker encodes it, decoded again.
func plainAnswer(t testing.TB, v any) any {
	b, err := standin.Encode(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// measureQuality fakes one call of every API of the sample and, for every
// dependency edge out of it, the dependent's call with the value handed
// on.
func measureQuality(t testing.TB, q *qualityUniverse, f *faker.Faker, templated bool) qualityShares {
	w := standintest.World(t)
	var s qualityShares
	for i, a := range q.apis {
		args := argsFor(t, a, i%4, false)
		ans := plainAnswer(t, f.Fake(w, callOf(a, args)))
		d := answerDefects{w: w}
		d.walk(ans, "")
		s.APIs++
		for _, b := range []struct {
			bad bool
			n   *float64
		}{{d.filler, &s.Filler}, {d.adjNoun, &s.AdjNoun}, {d.empty, &s.Empty}, {d.marker, &s.Marker}, {d.typeName, &s.TypeName}} {
			if b.bad {
				*b.n++
			}
		}
		if len(d.examples) > 0 && len(s.examples) < 40 {
			s.examples = append(s.examples, a.ID()+" → "+d.examples[0])
		}
		if _, isErr := errorTemplates[q.kinds[a.ID()]]; isErr && templated {
			s.ErrorTemplates++
			if f.Source(a) == faker.SourceTemplate {
				s.ErrorAsSuccess++
			}
		}
		seen := map[string]bool{}
		for _, e := range q.graph.OutOf(a.ID()) {
			if e.Path == "" || seen[e.Path] || !strings.Contains(e.Path, "[]") {
				continue
			}
			seen[e.Path] = true
			s.ListAnswers++
			vals := deps.Values(ans, e.Path)
			if len(vals) == 0 {
				if len(s.examples) < 40 {
					s.examples = append(s.examples, fmt.Sprintf("%s: no %s in %s", a.ID(), e.Path, clip(ans)))
				}
				continue
			}
			s.ListWithIDs++
			to := q.graph.API(e.To)
			if to == nil {
				continue
			}
			id := scalarText(vals[0])
			if id == "" {
				continue
			}
			targs := argsFor(t, to, 1, false)
			targs[e.Param] = vals[0]
			if _, err := to.Validate(targs); err != nil {
				continue
			}
			s.Details++
			det, _ := json.Marshal(plainAnswer(t, f.Fake(w, callOf(to, targs))))
			if strings.Contains(string(det), id) {
				s.DetailWithID++
			} else if len(s.examples) < 40 {
				s.examples = append(s.examples, fmt.Sprintf("%s(%s=%s) → %s", to.ID(), e.Param, id, clip(string(det))))
			}
		}
	}
	return s
}

func scalarText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

func clip(v any) string {
	s := fmt.Sprint(v)
	if b, err := json.Marshal(v); err == nil {
		s = string(b)
	}
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// TestGeneratedTreeAnswerQuality samples whole tools of the generated
// universe (a few hundred APIs), gives their templates every kind
// ToolBench writes, and reads every fake answer as an agent would: no
// filler sentence, no "⟨Adjective⟩ ⟨Noun⟩" in a field that is no name, no
// empty object, no _list_length, no type name as a value, no error-reply
// template served as the success shape; every list answer carries the
// IDs its dependents take and every detail answer the ID asked.
func TestGeneratedTreeAnswerQuality(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a universe")
	}
	q := loadQualityUniverse(t, 110)
	require.GreaterOrEqual(t, len(q.apis), 300)
	for _, bare := range []bool{false, true} {
		name := "templates"
		if bare {
			// As most of StableToolBench's APIs are: no template, no
			// example; a schema on some.
			name = "bare"
			for _, a := range q.apis {
				a.TemplateResponse, a.ExampleResponse = nil, nil
			}
		}
		t.Run(name, func(t *testing.T) {
			f := faker.New(faker.Options{Graph: q.graph})
			s := measureQuality(t, q, f, !bare)
			t.Log(s)
			for _, e := range s.examples {
				t.Log(e)
			}
			require.Zero(t, s.Filler, "filler sentences")
			require.Zero(t, s.AdjNoun, "adjective-noun values in typed fields")
			require.Zero(t, s.Empty, "empty objects")
			require.Zero(t, s.Marker, "_list_length leaked")
			require.Zero(t, s.TypeName, "type names as values")
			if !bare {
				require.Positive(t, s.ErrorTemplates)
			}
			require.Zero(t, s.ErrorAsSuccess, "error-reply templates served as success")
			require.Positive(t, s.ListAnswers)
			require.Equal(t, s.ListAnswers, s.ListWithIDs, "list answers with their handoff IDs")
			require.Positive(t, s.Details)
			require.Equal(t, s.Details, s.DetailWithID, "detail answers with the ID asked")
		})
	}
}

// BenchmarkAnswerQuality prints the shares of TestGeneratedTreeAnswerQuality
// (with the templates, then bare) and the cost of measuring them.
//
//	go test ./mocks/faker -run '^$' -bench AnswerQuality -benchtime 1x
func BenchmarkAnswerQuality(b *testing.B) {
	q := loadQualityUniverse(b, 110)
	templates := map[string][2][]byte{}
	for _, a := range q.apis {
		templates[a.ID()] = [2][]byte{a.TemplateResponse, a.ExampleResponse}
	}
	for _, bare := range []bool{false, true} {
		name := "templates"
		if bare {
			name = "bare"
		}
		for _, a := range q.apis {
			a.TemplateResponse, a.ExampleResponse = templates[a.ID()][0], templates[a.ID()][1]
			if bare {
				a.TemplateResponse, a.ExampleResponse = nil, nil
			}
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f := faker.New(faker.Options{Graph: q.graph})
				s := measureQuality(b, q, f, !bare)
				b.ReportMetric(100*s.Filler/s.APIs, "%filler")
				b.ReportMetric(100*s.AdjNoun/s.APIs, "%adjnoun")
				b.ReportMetric(100*s.Empty/s.APIs, "%empty")
				b.ReportMetric(100*float64(s.ListWithIDs)/max(1, float64(s.ListAnswers)), "%handoff")
				b.ReportMetric(100*float64(s.DetailWithID)/max(1, float64(s.Details)), "%detailid")
				b.Log(s)
			}
		})
	}
}
