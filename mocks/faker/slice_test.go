package faker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/understudy/understudy/toolset/tbfile"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/mocks/faker"
	"github.com/understudy/understudy/mocks/faker/shape"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// loadSlice loads the committed slice of the synthetic StableToolBench
// universe with its query files' template responses, as
// `toolserver -catalog <slice>/tools -queries <slice>/queries` does.
func loadSlice(t testing.TB) *toolset.Catalog {
	t.Helper()
	dir := tbgen.SliceDir()
	cat, err := loader.Load([]string{filepath.Join(dir, "tools")}, false)
	require.NoError(t, err)
	_, err = tbfile.AddQueryTemplates(cat, filepath.Join(dir, "queries"))
	require.NoError(t, err)
	return cat
}

// argValue is a value a user would give a parameter, by its meaning.
func argValue(p *toolset.Param, variant int) any {
	if len(p.Enum) > 0 {
		return p.Enum[variant%len(p.Enum)]
	}
	switch p.Kind {
	case toolset.KindNumber, toolset.KindInteger:
		return float64(3 + variant)
	case toolset.KindBoolean:
		return true
	case toolset.KindArray, toolset.KindObject:
		return nil
	}
	cities := []string{"Tokyo", "Paris", "Lisbon", "Nairobi"}
	switch shape.Classify(p.Name, "", "string") {
	case shape.City, shape.Address:
		return cities[variant%len(cities)]
	case shape.Country:
		return []string{"Japan", "France", "Portugal", "Kenya"}[variant%4]
	case shape.CountryCode:
		return []string{"JP", "FR", "PT", "KE"}[variant%4]
	case shape.Currency:
		return []string{"EUR", "USD", "JPY", "GBP"}[variant%4]
	case shape.Date, shape.DateTime, shape.BirthDate:
		return "2025-06-1" + fmt.Sprint(variant%10)
	case shape.Language:
		return "en"
	case shape.Email:
		return "ana.silva@example.com"
	case shape.ID, shape.UUID:
		return fmt.Sprint(48213 + variant)
	case shape.Symbol:
		return "AAPL"
	case shape.URL, shape.Image:
		return "https://example.com/page"
	}
	return []string{"onyx", "harbor", "Tokyo", "maple"}[variant%4]
}

// argsFor builds arguments for every required parameter (and, with
// optional set, the optional ones too) that the API's validation accepts.
func argsFor(t testing.TB, a *toolset.API, variant int, optional bool) map[string]any {
	t.Helper()
	args := map[string]any{}
	for _, p := range a.Params {
		if !p.Required && !optional {
			continue
		}
		if d, ok := p.Default.(string); ok && d != "" && variant == 0 {
			args[p.Name] = d
			if _, err := a.Validate(args); err == nil {
				continue
			}
		}
		if v := argValue(p, variant); v != nil {
			args[p.Name] = v
		}
		if _, err := a.Validate(args); err != nil && !p.Required {
			delete(args, p.Name)
		}
	}
	return args
}

// fake answers a call the way the Mocker does.
func fake(t testing.TB, f *faker.Faker, a *toolset.API, args map[string]any) any {
	t.Helper()
	c := &standin.Call{API: a, Args: args, Now: clock.Default, Seed: standin.Seed(standin.ToolName(a), a.Name, args), State: standin.NewState()}
	b, err := canon.JSON(f.Fake(standintest.World(t), c))
	require.NoError(t, err)
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber() // an int stays its digits, as the template's types are checked
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

// TestSliceNoEcho: over every API of the slice, with arguments built
// from its parameters (required only, and with the optional ones), no
// answer is an echo of the arguments, and every answer holds values of
// its own.
func TestSliceNoEcho(t *testing.T) {
	cat := loadSlice(t)
	g, err := deps.Build(cat, deps.Options{Annotations: true, Infer: true})
	require.NoError(t, err)
	f := faker.New(faker.Options{Graph: g})
	sources := map[string]int{}
	for _, a := range cat.APIs() {
		sources[f.Source(a)]++
		for variant, optional := range []bool{false, true} {
			args := argsFor(t, a, variant, optional)
			v := fake(t, f, a, args)
			require.False(t, faker.IsEcho(v, args), "%s %v answers %v", a.ID(), args, v)
			require.True(t, hasOwnValue(v, args), "%s %v answers nothing of its own: %v", a.ID(), args, v)
		}
	}
	t.Logf("answers by source over %d APIs: %v", len(cat.APIs()), sources)
	for _, s := range []string{faker.SourceTemplate, faker.SourceExample, faker.SourceSchema, faker.SourceInferred} {
		require.Positive(t, sources[s], "the slice exercises %s answers", s)
	}
}

// hasOwnValue reports whether v holds a scalar that is neither an
// argument's value nor a status literal.
func hasOwnValue(v any, args map[string]any) bool {
	argVals := map[string]bool{}
	for _, a := range args {
		argVals[strings.ToLower(fmt.Sprint(a))] = true
	}
	found := false
	var walk func(any)
	walk = func(x any) {
		switch y := x.(type) {
		case map[string]any:
			for _, e := range y {
				walk(e)
			}
		case []any:
			for _, e := range y {
				walk(e)
			}
		case string:
			s := strings.ToLower(y)
			found = found || !argVals[s] && s != "" && s != "success" && s != "ok"
		case json.Number:
			found = found || !argVals[y.String()]
		case float64:
			found = found || !argVals[fmt.Sprint(y)]
		}
	}
	walk(v)
	return found
}

// TestSliceEchoDetector: the detector the tests above rely on tells an
// echo from an answer.
func TestSliceEchoDetector(t *testing.T) {
	args := map[string]any{"q": "Tokyo", "limit": 3.0}
	for _, tc := range []struct {
		answer any
		echo   bool
	}{
		{map[string]any{"status": "success", "data": map[string]any{"q": "Tokyo", "limit": 3.0}}, true},
		{map[string]any{"q": "Tokyo", "limit": 3.0}, true},
		{map[string]any{"query": "tokyo", "ok": true, "count": json.Number("3")}, true},
		{map[string]any{"query": "Tokyo", "results": []any{map[string]any{"name": "Tokyo Tower"}}}, false},
		{map[string]any{"success": true}, false},
		{[]any{}, false},
	} {
		require.Equal(t, tc.echo, faker.IsEcho(tc.answer, args), "%v", tc.answer)
	}
}

// TestSliceTemplateShapes: an API with a template_response answers its
// shape: every key and list of the template present, each value of the
// type the template says.
func TestSliceTemplateShapes(t *testing.T) {
	cat := loadSlice(t)
	f := faker.New(faker.Options{})
	n := 0
	for _, a := range cat.APIs() {
		if len(a.TemplateResponse) == 0 {
			continue
		}
		n++
		require.Equal(t, faker.SourceTemplate, f.Source(a), a.ID())
		var tmpl any
		require.NoError(t, json.Unmarshal(a.TemplateResponse, &tmpl))
		for variant := range 3 {
			args := argsFor(t, a, variant, variant == 2)
			checkTemplate(t, a.ID(), "", tmpl, fake(t, f, a, args))
		}
	}
	require.Greater(t, n, 100, "the slice's queries give templates to many APIs")
}

func checkTemplate(t *testing.T, id, path string, tmpl, v any) {
	t.Helper()
	switch x := tmpl.(type) {
	case map[string]any:
		m, ok := v.(map[string]any)
		require.True(t, ok, "%s %s: want an object, got %#v", id, path, v)
		for k, sub := range x {
			got, ok := m[k]
			require.True(t, ok, "%s %s.%s missing", id, path, k)
			checkTemplate(t, id, path+"."+k, sub, got)
		}
	case []any:
		l, ok := v.([]any)
		require.True(t, ok, "%s %s: want a list, got %#v", id, path, v)
		if len(x) == 1 {
			for i, e := range l {
				checkTemplate(t, id, fmt.Sprintf("%s[%d]", path, i), x[0], e)
			}
		}
	case string:
		switch x {
		case "str":
			require.IsType(t, "", v, "%s %s", id, path)
		case "int":
			n, ok := v.(json.Number)
			require.True(t, ok, "%s %s: want an int, got %#v", id, path, v)
			require.NotContains(t, n.String(), ".", "%s %s", id, path)
			require.NotContains(t, strings.ToLower(n.String()), "e", "%s %s", id, path)
		case "float":
			require.IsType(t, json.Number(""), v, "%s %s", id, path)
		case "bool":
			require.IsType(t, true, v, "%s %s", id, path)
		case "NoneType":
			require.Nil(t, v, "%s %s", id, path)
		}
	}
}

// TestSliceDeterminism: the same call gets the same bytes, in any
// argument order and through fresh engines.
func TestSliceDeterminism(t *testing.T) {
	cat := loadSlice(t)
	apis := cat.APIs()
	var first []string
	for run := range 3 {
		st, err := assemble.Build(assemble.Config{Catalog: cat})
		require.NoError(t, err)
		var got []string
		for i, a := range apis {
			if i%3 != 0 {
				continue
			}
			args := argsFor(t, a, 1, true)
			// The arguments as a client sends them, keys in another order
			// each run.
			keys := make([]string, 0, len(args))
			for k := range args {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if run%2 == 1 {
				sort.Sort(sort.Reverse(sort.StringSlice(keys)))
			}
			var b strings.Builder
			b.WriteString("{")
			for j, k := range keys {
				if j > 0 {
					b.WriteString(",")
				}
				kb, _ := json.Marshal(k)
				vb, _ := json.Marshal(args[k])
				b.Write(kb)
				b.WriteString(":")
				b.Write(vb)
			}
			b.WriteString("}")
			var decoded map[string]any
			require.NoError(t, json.Unmarshal([]byte(b.String()), &decoded))
			res, err := st.Engine.Call(context.Background(), sandbox.Request{Tool: a.Tool.StandardizedName, API: a.Name, Arguments: decoded, Session: fmt.Sprint("det-", run, "-", i)})
			require.NoError(t, err, a.ID())
			got = append(got, string(res.Response))
		}
		require.NoError(t, st.Close())
		if first == nil {
			first = got
			continue
		}
		require.Equal(t, first, got, "run %d", run)
	}
}

// chainRun calls the source of an edge, takes the value its answer holds
// at the edge's path, and calls the dependent API with it (satisfying the
// dependent's other dependent parameters the same way), in one session.
type chainRun struct {
	t *testing.T
	// anywhere takes the value of the path's field wherever the answer
	// holds it, as an agent reads an answer, when nothing is at the path.
	anywhere bool
	cat      *toolset.Catalog
	st       *assemble.Stack
	edges    map[*toolset.API]map[string][]tbgen.Edge // by dependent API and parameter
}

func (c *chainRun) api(e tbgen.Edge, name string) *toolset.API {
	return c.cat.ToolBenchAPI(e.Category, e.Tool, name)
}

// call calls a with args, first filling its dependent parameters from
// their sources; it returns the answer and its status.
func (c *chainRun) call(a *toolset.API, args map[string]any, session string, depth int) (*sandbox.Result, error) {
	for _, p := range a.Params {
		if _, given := args[p.Name]; given || !p.Required || depth > 3 {
			continue
		}
		for _, e := range c.edges[a][p.Name] {
			src := c.api(e, e.From)
			if src == nil || src == a {
				continue
			}
			v, err := c.value(src, e.Path, e.Param, session, depth+1)
			if err == nil {
				args[p.Name] = v
				break
			}
		}
	}
	return c.st.Engine.Call(context.Background(), sandbox.Request{Tool: a.Tool.StandardizedName, API: a.Name, Arguments: args, Session: session})
}

// value calls src and takes the first value at path in its answer.
func (c *chainRun) value(src *toolset.API, path, param, session string, depth int) (any, error) {
	args := argsFor(c.t, src, 0, false)
	for _, p := range src.Params {
		if len(c.edges[src][p.Name]) > 0 {
			delete(args, p.Name) // filled from its own source
		}
	}
	res, err := c.call(src, args, session, depth)
	if err != nil {
		return nil, err
	}
	if res.Status != 200 {
		return nil, fmt.Errorf("%s answered %d: %s", src.ID(), res.Status, res.Response)
	}
	doc, err := canon.Decode(res.Response)
	if err != nil {
		return nil, err
	}
	for _, v := range deps.Values(doc, path) {
		if _, ok := v.(map[string]any); ok {
			continue
		}
		if _, ok := v.([]any); ok {
			continue
		}
		return v, nil
	}
	if c.anywhere {
		leaf := strings.TrimSuffix(path[strings.LastIndexByte(path, '.')+1:], "[]")
		for _, k := range []string{leaf, param, "id"} {
			if v, ok := fieldAnywhere(doc, k, 0); ok {
				return v, nil
			}
		}
	}
	return nil, fmt.Errorf("%s answered no value at %s: %s", src.ID(), path, res.Response)
}

// fieldAnywhere is the first scalar under key in doc, depth first in key
// order.
func fieldAnywhere(doc any, key string, depth int) (any, bool) {
	if depth > 8 {
		return nil, false
	}
	switch x := doc.(type) {
	case map[string]any:
		if v, ok := x[key]; ok {
			switch v.(type) {
			case map[string]any, []any, nil:
			default:
				return v, true
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if v, ok := fieldAnywhere(x[k], key, depth+1); ok {
				return v, true
			}
		}
	case []any:
		for _, e := range x {
			if v, ok := fieldAnywhere(e, key, depth+1); ok {
				return v, true
			}
		}
	}
	return nil, false
}

func groundTruth(t *testing.T, cat *toolset.Catalog) (map[*toolset.API]map[string][]tbgen.Edge, []tbgen.Edge) {
	m, err := tbgen.ReadManifest(tbgen.SliceDir())
	require.NoError(t, err)
	byTo := map[*toolset.API]map[string][]tbgen.Edge{}
	var usable []tbgen.Edge
	for _, e := range m.Edges {
		to, from := cat.ToolBenchAPI(e.Category, e.Tool, e.To), cat.ToolBenchAPI(e.Category, e.Tool, e.From)
		if to == nil || from == nil || to.Param(e.Param) == nil {
			continue // a tool the loader leaves out
		}
		if byTo[to] == nil {
			byTo[to] = map[string][]tbgen.Edge{}
		}
		byTo[to][e.Param] = append(byTo[to][e.Param], e)
		usable = append(usable, e)
	}
	return byTo, usable
}

// TestSliceChainsGroundTruth: along every ground-truth dependency edge of
// the slice, under the enforce policy, the ID the source's answer holds
// at the edge's path is accepted by the dependent API — by validation
// (an ID a NUMBER parameter takes is made of digits) and by provenance.
func TestSliceChainsGroundTruth(t *testing.T) {
	cat := loadSlice(t)
	byTo, edges := groundTruth(t, cat)
	require.Greater(t, len(edges), 300)
	for to, params := range byTo {
		for name, es := range params {
			p := to.Param(name)
			p.Opaque = true
			for _, e := range es {
				p.Depends = append(p.Depends, toolset.Dependency{API: cat.ToolBenchAPI(e.Category, e.Tool, e.From).Name, Path: e.Path})
			}
		}
	}
	st, err := assemble.Build(assemble.Config{Catalog: cat, NoInference: true, DepsPolicy: deps.Enforce})
	require.NoError(t, err)
	defer st.Close()
	c := &chainRun{t: t, cat: cat, st: st, edges: byTo}
	for i, e := range edges {
		session := fmt.Sprint("chain-", i)
		from, to := c.api(e, e.From), c.api(e, e.To)
		v, err := c.value(from, e.Path, e.Param, session, 0)
		require.NoError(t, err, "edge %d %s.%s ← %s %s", i, to.ID(), e.Param, from.ID(), e.Path)
		args := argsFor(t, to, 0, false)
		args[e.Param] = v
		for _, p := range to.Params {
			if p.Name != e.Param && len(byTo[to][p.Name]) > 0 {
				delete(args, p.Name)
			}
		}
		res, err := c.call(to, args, session, 0)
		require.NoError(t, err)
		require.Equal(t, 200, res.Status, "edge %d %s.%s=%v from %s: %s %v", i, to.ID(), e.Param, v, from.ID(), res.Response, res.Violations)
		require.Empty(t, res.Violations, "edge %d", i)
	}
}

// TestSliceChainsInferred runs the ground-truth chains as toolserver
// serves the slice: dependencies inferred from the documentation,
// enforced. The faker's part must hold on every chain — the source's
// answer holds a value at the edge's path and the dependent API's
// validation takes it; a refusal can only be provenance, where inference
// found another source or none (a matter of the graph, reported).
func TestSliceChainsInferred(t *testing.T) {
	cat := loadSlice(t)
	byTo, edges := groundTruth(t, cat)
	st, err := assemble.Build(assemble.Config{Catalog: cat, DepsPolicy: deps.Enforce})
	require.NoError(t, err)
	defer st.Close()
	c := &chainRun{t: t, cat: cat, st: st, edges: byTo, anywhere: true}
	ok, provenance := 0, 0
	for i, e := range edges {
		session := fmt.Sprint("inferred-", i)
		from, to := c.api(e, e.From), c.api(e, e.To)
		v, err := c.value(from, e.Path, e.Param, session, 0)
		if err != nil && strings.Contains(err.Error(), " answered 400") {
			provenance++ // the source's own dependency was refused
			continue
		}
		require.NoError(t, err, "edge %d %s.%s ← %s %s", i, to.ID(), e.Param, from.ID(), e.Path)
		args := argsFor(t, to, 0, false)
		args[e.Param] = v
		for _, p := range to.Params {
			if p.Name != e.Param && len(byTo[to][p.Name]) > 0 {
				delete(args, p.Name)
			}
		}
		res, err := c.call(to, args, session, 0)
		var ve *toolset.ValidationError
		require.False(t, errors.As(err, &ve), "edge %d: %s.%s=%v is refused by validation: %v", i, to.ID(), e.Param, v, err)
		require.NoError(t, err)
		if res.Status == 200 {
			ok++
			continue
		}
		require.NotEmpty(t, res.Violations, "edge %d %s: %s", i, to.ID(), res.Response)
		provenance++
	}
	t.Logf("chains over inferred edges under enforce: %d of %d accepted, %d refused by provenance (inference found another source or none)", ok, len(edges), provenance)
	require.Greater(t, ok, len(edges)/3)
}
