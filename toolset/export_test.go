package toolset_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// goldenCatalog is the small catalog behind the golden files: the
// ToolBench testdata tree, the petstore and the cyclic document.
func goldenCatalog(t testing.TB) *toolset.Catalog {
	c, err := loader.Load([]string{"testdata/toolbench", "testdata/openapi/petstore.yaml", "testdata/openapi/cyclic.json"}, false)
	require.NoError(t, err)
	return c
}

// checkGolden compares got with testdata/golden/name, rewriting it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), got)
}

func marshalIndent(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return buf.Bytes()
}

func TestOpenAIToolsGolden(t *testing.T) {
	c := goldenCatalog(t)
	for _, tc := range []struct {
		file string
		opts toolset.ExportOptions
	}{
		{"openai_dotted.json", toolset.ExportOptions{}},
		{"openai_toolbench.json", toolset.ExportOptions{Style: toolset.NameToolBench, MaxDescription: 256}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tools := toolset.OpenAITools(c, tc.opts)
			require.Len(t, tools, len(c.APIs()))
			seen := map[string]bool{}
			for _, tl := range tools {
				require.Equal(t, "function", tl.Type)
				require.Regexp(t, `^[a-zA-Z0-9_-]{1,64}$`, tl.Function.Name)
				require.False(t, seen[tl.Function.Name], "duplicate name %s", tl.Function.Name)
				seen[tl.Function.Name] = true
				require.NotNil(t, c.APIByExportName(tl.Function.Name), tl.Function.Name)
				require.Contains(t, tl.Function.Description, "This is the subfunction for tool")
			}
			checkGolden(t, tc.file, marshalIndent(t, tools))
		})
	}
	a := c.API("fare_finder", "search_fares")
	require.Equal(t, "fare_finder-search_fares", toolset.ExportName(a, toolset.NameDotted))
	require.Equal(t, "search_fares_for_fare_finder", toolset.ExportName(a, toolset.NameToolBench))
}

func TestExportNamesLong(t *testing.T) {
	long := &toolset.Tool{Name: "An extremely long tool name that goes on and on and on", Category: "X"}
	cjk := &toolset.Tool{Name: "天气预报", Category: "X"}
	long.APIs = []*toolset.API{{Name: "and an equally long api name that never seems to end", Tool: long}}
	cjk.APIs = []*toolset.API{{Name: "查询", Tool: cjk}, {Name: "查找", Tool: cjk}}
	c, err := toolset.NewCatalog([]*toolset.Tool{long, cjk})
	require.NoError(t, err)
	names := map[string]bool{}
	for _, a := range c.APIs() {
		for _, st := range []toolset.NameStyle{toolset.NameDotted, toolset.NameToolBench} {
			n := toolset.ExportName(a, st)
			require.Regexp(t, `^[a-zA-Z0-9_-]{1,64}$`, n)
			require.Same(t, a, c.APIByExportName(n), n)
			names[n] = true
		}
	}
	require.Len(t, names, 6, "every API keeps distinct names")
	// ToolBench cuts from the front, keeping the tool's end of the name.
	n := toolset.ExportName(long.APIs[0], toolset.NameToolBench)
	require.Len(t, n, 64)
	require.Regexp(t, `_for_an_extremely_long_tool_name_that_goes_on_and_on_and_on$`, n)
	require.Same(t, long.APIs[0], c.APIByFunction(n))
}

// A category twin is offered under ToolBench's own name, the one its
// file gives it, though the catalog calls it "<name>_for_<category>";
// offered with its twin, the second keeps the catalog's name, and the
// description names each tool as ToolBench does.
func TestToolBenchNamesOfTwins(t *testing.T) {
	tools := []*toolset.Tool{{Name: "Bitly", Category: "Other"}, {Name: "Bitly", Category: "Tools"}}
	for _, tl := range tools {
		tl.APIs = []*toolset.API{{Name: "Shorten", Tool: tl}}
	}
	c, err := toolset.NewCatalog(tools)
	require.NoError(t, err)
	other, mine := c.ToolIn("Other", "bitly").APIs[0], c.ToolIn("Tools", "bitly").APIs[0]
	require.Equal(t, "shorten_for_bitly_for_tools", toolset.ExportName(mine, toolset.NameToolBench), "the catalog keeps the twins apart")
	for _, tc := range []struct {
		name string
		apis []*toolset.API
		want []string
	}{
		{"the renamed twin alone", []*toolset.API{mine}, []string{"shorten_for_bitly"}},
		{"the kept twin alone", []*toolset.API{other}, []string{"shorten_for_bitly"}},
		{"both, renamed first", []*toolset.API{mine, other}, []string{"shorten_for_bitly", "shorten_for_bitly_for_other"}},
		{"both, kept first", []*toolset.API{other, mine}, []string{"shorten_for_bitly", "shorten_for_bitly_for_tools"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, toolset.ToolBenchNames(tc.apis))
		})
	}
	require.Equal(t, "shorten_for_bitly", toolset.ToolBenchFunctionName(mine))
	for _, f := range toolset.OpenAITools(c, toolset.ExportOptions{Style: toolset.NameToolBench}) {
		require.Contains(t, f.Function.Description, `subfunction for tool "bitly"`, f.Function.Name)
	}
}

// TestOpenAIParametersAreJSONSchema compiles every exported parameter
// schema with a JSON Schema 2020-12 implementation (which checks it against
// the meta-schema), then checks that arguments Validate accepts are valid
// against it and a few it refuses are not.
func TestOpenAIParametersAreJSONSchema(t *testing.T) {
	c := goldenCatalog(t)
	schemas := map[string]*jsonschema.Schema{}
	for i, tl := range toolset.OpenAITools(c, toolset.ExportOptions{}) {
		b, err := json.Marshal(tl.Function.Parameters)
		require.NoError(t, err)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		require.NoError(t, err)
		comp := jsonschema.NewCompiler()
		comp.DefaultDraft(jsonschema.Draft2020)
		comp.AssertFormat()
		url := fmt.Sprintf("mem://tool%d.json", i)
		require.NoError(t, comp.AddResource(url, doc))
		sch, err := comp.Compile(url)
		require.NoError(t, err, "%s: %s", tl.Function.Name, b)
		schemas[tl.Function.Name] = sch
	}
	check := func(fn string, args map[string]any, valid bool) {
		t.Helper()
		b, err := json.Marshal(args)
		require.NoError(t, err)
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		require.NoError(t, err)
		err = schemas[fn].Validate(v)
		if valid {
			require.NoError(t, err)
		} else {
			require.Error(t, err)
		}
	}
	fare := c.API("fare_finder", "search_fares")
	ok, err := fare.Validate(map[string]any{"from": "LHR", "to": "JFK", "date": "2025-03-01", "adults": "2", "contact": "a@b.example", "filters": `{"stops": 0}`})
	require.NoError(t, err)
	check("fare_finder-search_fares", ok, true)
	check("fare_finder-search_fares", map[string]any{"from": "LHR", "to": "JFK"}, false)
	check("fare_finder-search_fares", map[string]any{"from": "LHR", "to": "JFK", "date": "2025-03-01", "cabin": "premium"}, false)
	check("fare_finder-search_fares", map[string]any{"from": "LHR", "to": "JFK", "date": "2025-03-01", "extra": 1}, false)
	check("pet_store-addpet", map[string]any{"name": "rex", "photoUrls": []any{}}, true)
	check("pet_store-addpet", map[string]any{"name": "rex"}, false)
}

func TestCatalogDocumentAndSummaryGolden(t *testing.T) {
	c := goldenCatalog(t)
	doc := toolset.CatalogDocument(c)
	require.Equal(t, 5, doc.Tools)
	require.Equal(t, 12, doc.APIs)
	b1 := marshalIndent(t, doc)
	b2 := marshalIndent(t, toolset.CatalogDocument(goldenCatalog(t)))
	require.Equal(t, string(b1), string(b2), "deterministic")
	checkGolden(t, "catalog.json", b1)

	var buf bytes.Buffer
	require.NoError(t, toolset.WriteSummary(&buf, c))
	require.Regexp(t, regexp.MustCompile(`Dependencies: 6 \(source API, dependent API\) pairs`), buf.String())
	checkGolden(t, "summary.txt", buf.Bytes())

	require.Equal(t, [][2]string{
		{"fare_finder.search_fares", "fare_finder.fare_rules"},
		{"pet_store.findPetsByStatus", "pet_store.delete_pet_petId"},
		{"pet_store.findPetsByStatus", "pet_store.getPetById"},
		{"pet_store.findPetsByStatus", "pet_store.place_order"},
		{"quick_weather.Search locations", "fare_finder.fare_rules"},
		{"quick_weather.Search locations", "quick_weather.Forecast by id"},
	}, c.DependencyPairs())
}

func TestSummaryReportsUnresolved(t *testing.T) {
	tool := &toolset.Tool{Name: "lonely", Category: "X", APIs: []*toolset.API{{Name: "a", Params: []*toolset.Param{{Name: "id", Depends: []toolset.Dependency{{Tool: "ghost", API: "list", Path: "[].id"}}}}}}}
	c, err := toolset.NewCatalog([]*toolset.Tool{tool})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, toolset.WriteSummary(&buf, c))
	require.Contains(t, buf.String(), "unresolved: lonely.a(id) ← ghost.list")
	require.Empty(t, c.DependencyPairs())
}

// TestOpenAIDescriptionsFitOpenAI: every exported description is at most
// 1,024 bytes (OpenAI's limit), in every naming style, cut at a sentence;
// the catalog keeps the full text.
func TestOpenAIDescriptionsFitOpenAI(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	for _, style := range []toolset.NameStyle{toolset.NameDotted, toolset.NameToolBench} {
		for _, tool := range toolset.OpenAITools(c, toolset.ExportOptions{Style: style}) {
			require.LessOrEqual(t, len(tool.Function.Description), toolset.MaxOpenAIDescription, "%s (style %v)", tool.Function.Name, style)
		}
	}

	long := strings.Repeat("Finds the thing. ", 50) + "Then it stops!"
	tl := &toolset.Tool{Name: "Long", StandardizedName: "long", Description: strings.Repeat("A tool that is described at length. ", 40)}
	a := &toolset.API{Name: "find", Description: long, Tool: tl}
	tl.APIs = []*toolset.API{a}
	got := dottedDescription(t, tl)
	require.LessOrEqual(t, len(got), toolset.MaxOpenAIDescription)
	require.True(t, strings.HasSuffix(got, `Then it stops!"`), "whole sentences only: %q", got[len(got)-40:])
	require.Contains(t, got, `The description of this function is: "`+long+`"`, "the function's own description is kept whole while the tool's gives way")
	require.Equal(t, long, a.Description, "the catalog keeps the full text")

	tl.Description = "Short. " + strings.Repeat("x", 400)
	a.Description = strings.Repeat("One sentence. ", 60)
	got = dottedDescription(t, tl)
	require.LessOrEqual(t, len(got), toolset.MaxOpenAIDescription)
	require.Contains(t, got, `The tool is described as: "Short."`, "the tool's description cut at its sentence")
	require.Contains(t, got, `One sentence."`)
}

// dottedDescription is the description OpenAITools exports for the one API
// of tool in the dotted style.
func dottedDescription(t *testing.T, tool *toolset.Tool) string {
	c, err := toolset.NewCatalog([]*toolset.Tool{tool})
	require.NoError(t, err)
	tools := toolset.OpenAITools(c, toolset.ExportOptions{Style: toolset.NameDotted})
	require.Len(t, tools, 1)
	return tools[0].Function.Description
}
