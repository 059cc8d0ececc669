package tbgen_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

func digest(t *testing.T, u *tbgen.Universe) (map[string][32]byte, [32]byte) {
	t.Helper()
	files := map[string][32]byte{}
	all := sha256.New()
	require.NoError(t, u.EachFile(func(rel string, data []byte) error {
		files[rel] = sha256.Sum256(data)
		fmt.Fprintf(all, "%s\x00%d\x00", rel, len(data))
		all.Write(data)
		return nil
	}))
	var sum [32]byte
	copy(sum[:], all.Sum(nil))
	return files, sum
}

// TestDeterministic generates twice with the same options and once with
// another seed: the same options give the same bytes, another seed other
// bytes with the same counts.
func TestDeterministic(t *testing.T) {
	opts := tbgen.SliceOptions()
	a, err := tbgen.Generate(opts)
	require.NoError(t, err)
	b, err := tbgen.Generate(opts)
	require.NoError(t, err)
	fa, sa := digest(t, a)
	fb, sb := digest(t, b)
	require.Equal(t, fa, fb)
	require.Equal(t, sa, sb)

	opts.Seed = 2
	c, err := tbgen.Generate(opts)
	require.NoError(t, err)
	_, sc := digest(t, c)
	require.NotEqual(t, sa, sc)
	ma, mc := a.Manifest(), c.Manifest()
	require.Equal(t, ma.Files, mc.Files)
	require.Equal(t, ma.APIs, mc.APIs)
	require.Equal(t, ma.Queries, mc.Queries)
}

// TestSliceGolden requires the committed slice to be what SliceOptions
// generate, byte for byte, and nothing else. go test -update rewrites it.
func TestSliceGolden(t *testing.T) {
	dir := tbgen.SliceDir()
	if golden.Update() {
		require.NoError(t, os.RemoveAll(dir))
		_, err := tbgen.Write(dir, tbgen.SliceOptions())
		require.NoError(t, err)
	}
	tmp := t.TempDir()
	_, err := tbgen.Write(tmp, tbgen.SliceOptions())
	require.NoError(t, err)
	want := listFiles(t, tmp)
	require.Equal(t, want, listFiles(t, dir), "the committed slice has other files than SliceOptions generate; run go test ./internal/tbgen -run TestSliceGolden -update")
	for _, rel := range want {
		got, err := os.ReadFile(filepath.Join(tmp, rel))
		require.NoError(t, err)
		golden.Check(t, filepath.Join(dir, rel), got)
	}
	var total int64
	for _, rel := range want {
		st, err := os.Stat(filepath.Join(dir, rel))
		require.NoError(t, err)
		total += st.Size()
	}
	require.Less(t, total, int64(1600<<10), "the slice must stay small")
}

func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	}))
	sort.Strings(out)
	return out
}

// toolFile is what the tests read from a tool file, independently of
// the generator's model.
type toolFile struct {
	ToolName         string    `json:"tool_name"`
	StandardizedName string    `json:"standardized_name"`
	Description      string    `json:"tool_description"`
	Host             string    `json:"host"`
	APIs             []apiFile `json:"api_list"`
}

type apiFile struct {
	Name         string          `json:"name"`
	URL          string          `json:"url"`
	Method       string          `json:"method"`
	Description  string          `json:"description"`
	Required     []paramFile     `json:"required_parameters"`
	Optional     []paramFile     `json:"optional_parameters"`
	Schema       json.RawMessage `json:"schema"`
	TestEndpoint json.RawMessage `json:"test_endpoint"`
}

type paramFile struct {
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Description string          `json:"description"`
	Default     json.RawMessage `json:"default"`
}

type tree struct {
	tools     map[string]*toolFile // by file
	broken    map[string]string    // file → kind found
	byCatName map[[2]string]*toolFile
}

func readTree(t *testing.T, dir string) *tree {
	t.Helper()
	tr := &tree{tools: map[string]*toolFile{}, broken: map[string]string{}, byCatName: map[[2]string]*toolFile{}}
	for _, rel := range listFiles(t, dir) {
		if !strings.HasPrefix(rel, "tools/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, rel))
		require.NoError(t, err)
		trimmed := bytes.TrimSpace(data)
		switch {
		case len(trimmed) == 0:
			tr.broken[rel] = tbgen.EmptyFile
			continue
		case !json.Valid(trimmed):
			tr.broken[rel] = tbgen.MalformedJSON
			continue
		case trimmed[0] != '{':
			tr.broken[rel] = tbgen.NotObject
			continue
		}
		var tf toolFile
		require.NoError(t, json.Unmarshal(data, &tf), rel)
		tr.tools[rel] = &tf
		if !strings.HasSuffix(rel, " copy.json") {
			tr.byCatName[[2]string{path.Base(path.Dir(rel)), tf.ToolName}] = &tf
		}
	}
	return tr
}

func defectFiles(m *tbgen.Manifest, kind string) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range m.Defects {
		if d.Kind == kind && !seen[d.File] {
			seen[d.File] = true
			out = append(out, d.File)
		}
	}
	sort.Strings(out)
	return out
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestSliceCountsAndDefects reads the committed slice as a client would
// and finds every defect the manifest lists, and no other, by looking at
// the files themselves; the counts are exact at this size.
func TestSliceCountsAndDefects(t *testing.T) {
	dir := tbgen.SliceDir()
	m, err := tbgen.ReadManifest(dir)
	require.NoError(t, err)
	opts := tbgen.SliceOptions()
	rates := tbgen.DefaultRates()
	count := func(rate float64) int { return max(opts.MinPerKind, int(math.Round(rate*float64(opts.Tools)))) }
	tr := readTree(t, dir)

	require.Equal(t, opts.Tools, m.Files)
	require.Equal(t, opts.Tools, len(tr.tools)+len(tr.broken))
	require.Equal(t, int(math.Round(float64(opts.Tools)*tbgen.RealAPIs/tbgen.RealToolFiles)), m.APIs)
	cats := map[string]bool{}
	apis, noSchema := 0, 0
	for rel, tf := range tr.tools {
		cats[path.Base(path.Dir(rel))] = true
		apis += len(tf.APIs)
		for _, a := range tf.APIs {
			s := bytes.TrimSpace(a.Schema)
			if len(s) == 0 || string(s) == `""` || string(s) == "{}" {
				noSchema++
			}
		}
	}
	require.Len(t, cats, tbgen.RealCategories)
	require.Equal(t, m.APIs, apis)
	require.Equal(t, m.APIsWithoutSchema, noSchema)
	require.Equal(t, m.DefectCounts[tbgen.NoSchema], noSchema)

	want := map[string]int{
		tbgen.DuplicateParam: count(rates.DuplicateParam), tbgen.APINameTwin: count(rates.APINameTwin),
		tbgen.NumberDefault: count(rates.NumberDefault), tbgen.StandardizeTwinParams: count(rates.StandardizeTwinParams),
		tbgen.FileNameMismatch: count(rates.FileNameMismatch), tbgen.CopyFile: count(rates.CopyFile),
		tbgen.CategoryTwin: count(rates.CategoryTwin), tbgen.MalformedJSON: count(rates.MalformedFile),
		tbgen.NotObject: count(rates.MalformedFile), tbgen.EmptyFile: count(rates.MalformedFile),
	}
	for _, kind := range tbgen.ToolDefectKinds {
		require.GreaterOrEqual(t, want[kind], 2, kind)
		require.Equal(t, want[kind], m.DefectCounts[kind], kind)
	}

	// Find each defect in the files.
	found := map[string]map[string]bool{}
	mark := func(kind, file string) {
		if found[kind] == nil {
			found[kind] = map[string]bool{}
		}
		found[kind][file] = true
	}
	for rel, kind := range tr.broken {
		mark(kind, rel)
	}
	byStd := map[string][]string{}
	for rel, tf := range tr.tools {
		isCopy := strings.HasSuffix(rel, " copy.json")
		std := toolset.Standardize(tf.ToolName)
		stem := strings.TrimSuffix(path.Base(rel), ".json")
		switch {
		case isCopy:
			mark(tbgen.CopyFile, rel)
			require.Contains(t, tr.tools, path.Dir(rel)+"/"+strings.TrimSuffix(stem, " copy")+".json", "a copy sits next to its original")
		case stem != std:
			mark(tbgen.FileNameMismatch, rel)
		}
		if !isCopy {
			byStd[std] = append(byStd[std], rel)
		}
		apiNames := map[string]bool{}
		for _, a := range tf.APIs {
			k := toolset.StandardizeAPIName(a.Name)
			if apiNames[k] && !isCopy {
				mark(tbgen.APINameTwin, rel)
			}
			apiNames[k] = true
			names := map[string]bool{}
			stdReq := map[string]string{}
			for i, p := range append(append([]paramFile{}, a.Required...), a.Optional...) {
				if names[p.Name] && !isCopy {
					mark(tbgen.DuplicateParam, rel)
				}
				names[p.Name] = true
				if i < len(a.Required) {
					s := toolset.Standardize(p.Name)
					if other, ok := stdReq[s]; ok && other != p.Name && !isCopy {
						mark(tbgen.StandardizeTwinParams, rel)
					}
					stdReq[s] = p.Name
				}
				if p.Type == "NUMBER" && string(p.Default) == "[]" && !isCopy {
					mark(tbgen.NumberDefault, rel)
				}
			}
		}
	}
	for _, files := range byStd {
		if len(files) < 2 {
			continue
		}
		require.Len(t, files, 2, "a tool name is in two categories at most")
		require.NotEqual(t, path.Dir(files[0]), path.Dir(files[1]))
		listed := defectFiles(m, tbgen.CategoryTwin)
		n := 0
		for _, f := range files {
			for _, l := range listed {
				if l == f {
					n++
					mark(tbgen.CategoryTwin, f)
				}
			}
		}
		require.Equal(t, 1, n, "one of %v is listed as the twin", files)
	}
	for _, kind := range tbgen.ToolDefectKinds {
		require.Equal(t, defectFiles(m, kind), sorted(found[kind]), kind)
	}

	// Every edge: the consumer has the parameter, the producer's
	// template has the path.
	require.NotEmpty(t, m.Edges)
	for _, e := range m.Edges {
		tf := tr.tools[e.File]
		require.NotNil(t, tf, e.File)
		var to *apiFile
		for i := range tf.APIs {
			if tf.APIs[i].Name == e.To {
				to = &tf.APIs[i]
			}
		}
		require.NotNil(t, to, "%s: no API %q", e.File, e.To)
		hasParam := false
		for _, p := range append(append([]paramFile{}, to.Required...), to.Optional...) {
			hasParam = hasParam || p.Name == e.Param
		}
		require.True(t, hasParam, "%s: %s has no parameter %s", e.File, e.To, e.Param)
		require.Contains(t, []string{"endpoint", "api-name", "name"}, e.Cue)
	}
}

// TestEdgesResolve follows every ground-truth edge of the slice with the
// dependency graph's own path reader: the producer's example answer has
// a value at the path, and a named producer is named in the parameter's
// description (by its path or its name).
func TestEdgesResolve(t *testing.T) {
	u, err := tbgen.Generate(tbgen.SliceOptions())
	require.NoError(t, err)
	apis := map[string]*tbgen.API{}
	for _, tl := range u.Tools {
		for _, a := range tl.APIs {
			apis[tl.File+"\x00"+a.Name] = a
		}
	}
	cues := map[string]int{}
	for _, e := range u.Edges {
		from, to := apis[e.File+"\x00"+e.From], apis[e.File+"\x00"+e.To]
		require.NotNil(t, from, "%s: %s", e.File, e.From)
		require.NotNil(t, to, "%s: %s", e.File, e.To)
		raw, err := json.Marshal(from.Example())
		require.NoError(t, err)
		var example any
		require.NoError(t, json.Unmarshal(raw, &example))
		require.NotEmpty(t, deps.Values(example, e.Path), "%s: %s has nothing at %s in %s", e.File, e.From, e.Path, raw)
		var desc string
		for _, p := range append(append([]*tbgen.Param{}, to.Required...), to.Optional...) {
			if p.Name == e.Param {
				desc = p.Description
			}
		}
		cues[e.Cue]++
		switch {
		case e.Cue == "api-name" && e.Named:
			require.Contains(t, desc, e.From, "%s: %s.%s", e.File, e.To, e.Param)
		case e.Cue == "endpoint" && e.Named:
			require.Contains(t, desc, "endpoint")
		case e.Cue == "name":
			require.True(t, strings.HasSuffix(e.Path, "."+e.Param) || e.Path == e.Param, "%s: a name cue needs %s at %s", e.File, e.Param, e.Path)
		}
	}
	for _, cue := range []string{"endpoint", "api-name", "name"} {
		require.Positive(t, cues[cue], cue)
	}
}

// TestSliceQueries checks the query files against the tree: what the
// manifest calls missing is absent, everything else resolves by
// category, tool and API, and the calls' values are in the query text.
func TestSliceQueries(t *testing.T) {
	dir := tbgen.SliceDir()
	m, err := tbgen.ReadManifest(dir)
	require.NoError(t, err)
	tr := readTree(t, dir)
	opts := tbgen.SliceOptions()
	rates := tbgen.DefaultRates()
	truth := map[string]tbgen.QueryTruth{}
	for _, q := range m.QueryTruth {
		truth[fmt.Sprintf("%s/%d", q.Group, q.ID)] = q
	}
	unscorable, onlyOther, wantUnscorable, wantOnlyOther := 0, 0, 0, 0
	for gi, g := range tbgen.Groups {
		n := opts.Queries[gi]
		missRel := int(math.Round(rates.QueryMissingRelevant * float64(n)))
		wantUnscorable += missRel + min(int(math.Round(rates.QueryMissingOther*float64(n))), n-missRel)
		wantOnlyOther += min(int(math.Round(rates.QueryMissingOther*float64(n))), n-missRel)
		data, err := os.ReadFile(filepath.Join(dir, "queries", g+".json"))
		require.NoError(t, err)
		var recs []struct {
			Query   string `json:"query"`
			ID      int    `json:"query_id"`
			APIList []struct {
				Category string          `json:"category_name"`
				Tool     string          `json:"tool_name"`
				API      string          `json:"api_name"`
				Template json.RawMessage `json:"template_response"`
				Method   string          `json:"method"`
			} `json:"api_list"`
			Relevant [][]string `json:"relevant APIs"`
		}
		require.NoError(t, json.Unmarshal(data, &recs))
		require.Len(t, recs, n, g)
		for _, r := range recs {
			qt, ok := truth[fmt.Sprintf("%s/%d", g, r.ID)]
			require.True(t, ok, "%s/%d has no truth", g, r.ID)
			require.GreaterOrEqual(t, len(strings.Fields(r.Query)), 15, r.Query)
			require.NotEmpty(t, r.Relevant)
			var missing []tbgen.Missing
			relevant := map[[2]string]bool{}
			for _, rel := range r.Relevant {
				require.Len(t, rel, 2)
				relevant[[2]string{rel[0], rel[1]}] = true
			}
			cats := map[string]bool{}
			for _, a := range r.APIList {
				cats[a.Category] = true
				require.True(t, templateTypes(t, a.Template), "%s/%d %s: template_response %s", g, r.ID, a.API, a.Template)
				tf := tr.byCatName[[2]string{a.Category, a.Tool}]
				switch {
				case tf == nil:
					missing = append(missing, tbgen.Missing{Category: a.Category, Tool: a.Tool, Relevant: relevant[[2]string{a.Tool, a.API}], Reason: "tool absent"})
				case !hasAPI(tf, a.API):
					missing = append(missing, tbgen.Missing{Category: a.Category, Tool: a.Tool, API: a.API, Relevant: relevant[[2]string{a.Tool, a.API}], Reason: "API absent"})
				}
			}
			switch g[:2] {
			case "G1":
				require.Len(t, cats, 1, "a G1 query uses one tool")
			case "G2":
				require.Len(t, cats, 1, "a G2 query stays in one category")
			case "G3":
				require.Greater(t, len(cats), 1, "a G3 query spans categories")
			}
			// The manifest lists a ghost tool once; the files list each of its APIs.
			require.Equal(t, len(qt.Missing) == 0, len(missing) == 0, "%s/%d", g, r.ID)
			for _, x := range qt.Missing {
				matched := false
				for _, y := range missing {
					matched = matched || (x.Tool == y.Tool && x.Reason == y.Reason && (x.API == y.API || x.API == "") && x.Relevant == y.Relevant) || (x.Reason == "tool absent" && y.Tool == x.Tool)
				}
				require.True(t, matched, "%s/%d: %+v not absent from the tree (found %+v)", g, r.ID, x, missing)
			}
			if !qt.Scorable {
				unscorable++
				rel := false
				for _, x := range missing {
					rel = rel || x.Relevant
				}
				if !rel {
					onlyOther++
				}
			}
			for i, c := range qt.Calls {
				for p, src := range c.From {
					api, _, _ := strings.Cut(src, ": ")
					earlier := false
					for _, prev := range qt.Calls[:i] {
						earlier = earlier || (prev.Tool == c.Tool && prev.Category == c.Category && prev.API == api)
					}
					require.True(t, earlier, "%s/%d: %s.%s takes %s, which no earlier call of the same tool makes", g, r.ID, c.API, p, src)
				}
				for p, v := range c.Arguments {
					require.Contains(t, r.Query, fmt.Sprint(v), "%s/%d names the value of %s.%s", g, r.ID, c.API, p)
				}
			}
			for _, f := range qt.TwinTools {
				require.Contains(t, tr.tools, f)
			}
		}
	}
	require.Equal(t, wantUnscorable, unscorable)
	require.Equal(t, wantOnlyOther, onlyOther)
	require.Equal(t, m.QueriesUnscorable, unscorable)
	require.Equal(t, m.QueriesMissingOnlyOther, onlyOther)
	require.Positive(t, m.QueriesWithCategoryTwin)
}

func hasAPI(tf *toolFile, name string) bool {
	for _, a := range tf.APIs {
		if a.Name == name {
			return true
		}
	}
	return false
}

// templateTypes tells whether a template_response holds only ToolBench's
// type names in objects and arrays.
func templateTypes(t *testing.T, raw json.RawMessage) bool {
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	var ok func(v any) bool
	ok = func(v any) bool {
		switch x := v.(type) {
		case string:
			return x == "str" || x == "int" || x == "float" || x == "bool"
		case []any:
			for _, e := range x {
				if !ok(e) {
					return false
				}
			}
			return true
		case map[string]any:
			for _, e := range x {
				if !ok(e) {
					return false
				}
			}
			return true
		}
		return false
	}
	return ok(v)
}

// TestLoaderReadsSlice loads the slice with today's loader. It only
// checks loosely what the loader does with the defects (the loader is
// changing): most tools load, and every file it leaves out is one the
// manifest says is defective.
func TestLoaderReadsSlice(t *testing.T) {
	dir := tbgen.SliceDir()
	m, err := tbgen.ReadManifest(dir)
	require.NoError(t, err)
	c, err := loader.Load([]string{filepath.Join(dir, "tools")}, false)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(c.Tools()), m.Tools*9/10)
	defective := map[string]bool{}
	for _, d := range m.Defects {
		if d.Kind != tbgen.NoSchema {
			defective[d.File] = true
		}
	}
	for _, s := range c.Skipped() {
		rel, err := filepath.Rel(dir, s.File)
		require.NoError(t, err)
		require.True(t, defective[filepath.ToSlash(rel)], "the loader skipped %s (%s), which has no tool defect", rel, s.Reason)
	}
	for _, kind := range []string{tbgen.MalformedJSON, tbgen.NotObject, tbgen.EmptyFile} {
		for _, f := range defectFiles(m, kind) {
			skipped := false
			for _, s := range c.Skipped() {
				skipped = skipped || strings.HasSuffix(filepath.ToSlash(s.File), f)
			}
			require.True(t, skipped, "%s (%s) is not a tool", f, kind)
		}
	}
}

// TestFullSize generates StableToolBench's size in memory and checks the
// counts and rates the issue tracker measured on the real tree.
func TestFullSize(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 12,301 tools")
	}
	u, err := tbgen.Generate(tbgen.Options{})
	require.NoError(t, err)
	m := u.Manifest()
	require.Equal(t, tbgen.RealToolFiles, m.Files)
	require.Equal(t, tbgen.RealAPIs, m.APIs)
	require.Equal(t, tbgen.RealCategories, m.Categories)
	require.Equal(t, 88, m.DefectCounts[tbgen.DuplicateParam])
	require.Equal(t, 45, m.DefectCounts[tbgen.APINameTwin])
	require.InDelta(t, 0.39, float64(m.APIsWithoutSchema)/float64(m.APIs), 0.01)
	total := 0
	for gi, g := range tbgen.Groups {
		require.Equal(t, tbgen.RealGroupSizes[gi], m.Queries[g], g)
		total += m.Queries[g]
	}
	require.Equal(t, tbgen.RealQueries, total)
	require.InDelta(t, tbgen.RealUnscorable, m.QueriesUnscorable, 4)
	require.InDelta(t, tbgen.RealMissingOnlyOther, m.QueriesMissingOnlyOther, 3)

	// Text lengths: tool descriptions ~25 words, API ~20, parameters ~8.
	var toolWords, apiWords, paramWords, tools, apis, params, deps int
	for _, tl := range u.Tools {
		if tl.Malformed != "" || tl.CopyOf != nil {
			continue
		}
		tools++
		toolWords += len(strings.Fields(tl.Description))
		for _, a := range tl.APIs {
			apis++
			apiWords += len(strings.Fields(a.Description))
			for _, p := range append(append([]*tbgen.Param{}, a.Required...), a.Optional...) {
				params++
				paramWords += len(strings.Fields(p.Description))
			}
		}
	}
	t.Logf("words per description: tool %.1f, API %.1f, parameter %.1f; %d dependent parameters over %d APIs; %d edges",
		float64(toolWords)/float64(tools), float64(apiWords)/float64(apis), float64(paramWords)/float64(params), countConsumers(m), m.APIs, len(m.Edges))
	require.InDelta(t, 25, float64(toolWords)/float64(tools), 4)
	require.InDelta(t, 20, float64(apiWords)/float64(apis), 4)
	require.InDelta(t, 8, float64(paramWords)/float64(params), 2)
	deps = countConsumers(m)
	require.InDelta(t, 0.15, float64(deps)/float64(m.APIs), 0.1, "a realistic share of APIs take another API's output")
}

// TestOptions covers the options' errors and rates.
func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts tbgen.Options
		err  string
	}{
		{"too few tools", tbgen.Options{Tools: 20}, "too few"},
		{"too few APIs", tbgen.Options{Tools: 200, APIs: 100}, "too few"},
		{"group sizes", tbgen.Options{Tools: 200, Queries: []int{1, 2}}, "group sizes"},
		{"negative", tbgen.Options{Tools: -1}, "negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tbgen.Generate(tc.opts)
			require.ErrorContains(t, err, tc.err)
		})
	}
	none := tbgen.Rates{}
	u, err := tbgen.Generate(tbgen.Options{Tools: 120, Rates: &none, Queries: []int{3, 3, 3, 3, 3, 3}})
	require.NoError(t, err)
	m := u.Manifest()
	require.Empty(t, m.Defects, "zero rates place no defect")
	require.Zero(t, m.QueriesUnscorable)
	require.Equal(t, 120, m.Tools)
}

// countConsumers counts the parameters that take another API's output.
func countConsumers(m *tbgen.Manifest) int {
	consumers := map[string]bool{}
	for _, e := range m.Edges {
		consumers[e.File+"\x00"+e.To+"\x00"+e.Param] = true
	}
	return len(consumers)
}
