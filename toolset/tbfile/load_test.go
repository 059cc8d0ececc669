package tbfile_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/internal/toolsettest"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/tbfile"
)

func TestLoadToolBenchQuirks(t *testing.T) {
	tools, err := loader.LoadPath("../testdata/toolbench")
	require.NoError(t, err)
	require.Len(t, tools, 3, "README.md and notes.txt are skipped")
	c, err := toolset.NewCatalog(tools)
	require.NoError(t, err)

	qw := c.Tool("Quick Weather")
	require.NotNil(t, qw, `"name" instead of "tool_name"`)
	require.Equal(t, "quick_weather", qw.StandardizedName)
	require.Equal(t, "Weather", qw.Category)
	require.Equal(t, "quick-weather.p.rapidapi.com", qw.Host)
	require.Equal(t, filepath.Join("..", "testdata", "toolbench", "Weather", "quick_weather.json"), qw.Source)

	cur := qw.API("current_weather")
	require.NotNil(t, cur, "found by standardized name")
	require.Equal(t, toolset.KindNumber, cur.Param("days").Kind)
	require.Equal(t, 1.0, cur.Param("days").Default, `"1" becomes a number`)
	require.Equal(t, false, cur.Param("details").Default)
	require.Nil(t, cur.Param("point").Default, `"" is no default`)
	require.Equal(t, toolset.KindString, cur.Param("point").Kind, "unknown type is a string")
	require.Empty(t, cur.Param("days").Description)
	require.JSONEq(t, `{"city": "London", "temp_c": 11.5, "humidity": 81}`, string(cur.ExampleResponse), "test_endpoint as a JSON string")
	require.Nil(t, cur.Response(), `"schema": ""`)
	require.Equal(t, []string{"daily_briefing"}, cur.Groups)

	fc := qw.API("Forecast by id")
	require.Equal(t, toolset.InPath, fc.Param("location_id").In)
	require.True(t, fc.Param("location_id").Opaque)
	require.Equal(t, []toolset.Dependency{{API: "Search locations", Path: "data[].id"}}, fc.Param("location_id").Depends)
	require.Equal(t, "date", fc.Param("date").Format)
	require.NotNil(t, fc.Response())
	require.Equal(t, []string{"daily_briefing", "trip_planning"}, fc.Groups)
	require.Empty(t, fc.Description)

	ff := c.Tool("fare_finder")
	require.Equal(t, "own", ff.Origin)
	require.Equal(t, toolset.InBody, ff.API("search_fares").Param("from").In, "POST params travel in the body")
	require.Equal(t, toolset.KindInteger, ff.API("search_fares").Param("seats").Kind)

	empty := c.Tool("placeholder_tool")
	require.Empty(t, empty.APIs, "null api_list")
	require.Equal(t, c.API("fare_finder", "fare_rules"), c.APIByFunction("fare_rules_for_fare_finder"))
}

func TestLoadToolBenchBadInput(t *testing.T) {
	huge := strings.Repeat("x", toolset.MaxDescriptionLen+1)
	for _, tc := range []struct {
		name  string
		body  string
		field string
		msg   string
	}{
		{"malformed JSON in a parameter", `{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": [{"name": "q", "type": "STRING",, }]}]}`,
			"api_list[0].required_parameters[0].type", "malformed JSON at line 1"},
		{"malformed JSON on line 3", "{\n  \"tool_name\": \"t\",\n  \"api_list\": [}\n}", "api_list", "line 3"},
		{"truncated file", `{"tool_name": "t", "api_list": [{"name": "a"`, "api_list[0].name", "malformed JSON"},
		{"not an object", `["t"]`, "", "expected a JSON object"},
		{"empty file", ``, "", "empty document"},
		{"missing tool name", `{"tool_description": "d", "api_list": []}`, "tool_name", "missing"},
		{"blank tool name", `{"tool_name": "  ", "api_list": []}`, "tool_name", "missing"},
		{"missing API name", `{"tool_name": "t", "api_list": [{"url": "https://x/y"}]}`, "api_list[0].name", "missing"},
		{"missing parameter name", `{"tool_name": "t", "api_list": [{"name": "a", "optional_parameters": [{"type": "STRING"}]}]}`,
			"api_list[0].optional_parameters[0].name", "missing"},
		{"huge tool description", `{"tool_name": "t", "tool_description": "` + huge + `"}`, "tool_description", "more than the 65536-byte limit"},
		{"huge API description", `{"tool_name": "t", "api_list": [{"name": "a", "description": "` + huge + `"}]}`, "api_list[0].description", "65536-byte limit"},
		{"huge parameter description", `{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": [{"name": "q", "description": "` + huge + `"}]}]}`,
			"api_list[0].required_parameters[0].description", "65536-byte limit"},
		{"name of the wrong type", `{"tool_name": "t", "api_list": [{"name": 42}]}`, "api_list[0].name", "expected a string"},
		{"api_list not an array", `{"tool_name": "t", "api_list": {"name": "a"}}`, "api_list", "must be an array"},
		{"parameter not an object", `{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": ["q"]}]}`,
			"api_list[0].required_parameters[0]", "expected a JSON object"},
		{"bad x-in", `{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": [{"name": "q", "x-in": "cookie"}]}]}`,
			"api_list[0].required_parameters[0].x-in", "not one of"},
		{"bad x-depends", `{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": [{"name": "q", "x-depends": [{"api": "b"}]}]}]}`,
			"api_list[0].required_parameters[0].x-depends[0]", "needs both api and path"},
		{"bad x-pattern", `{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": [{"name": "q", "x-pattern": "(["}]}]}`,
			"api_list[0].required_parameters[0].x-pattern", "not a regular expression"},
		{"bad x-group", `{"tool_name": "t", "api_list": [{"name": "a", "x-group": 5}]}`, "api_list[0].x-group", "group name"},
		{"x-enum not an array", `{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": [{"name": "q", "x-enum": "a|b"}]}]}`,
			"api_list[0].required_parameters[0].x-enum", "expected an array"},
		{"bounds crossed", `{"tool_name": "t", "api_list": [{"name": "a", "required_parameters": [{"name": "q", "x-minimum": 5, "x-maximum": 1}]}]}`,
			"api_list[0].required_parameters[0].x-minimum", "above x-maximum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A field inside api_list[i] costs that API only (unless the
			// file is not JSON at all): the tool loads without it and
			// notes why; the strict loader fails.
			inAPI := strings.HasPrefix(tc.field, "api_list[") && !strings.Contains(tc.msg, "malformed JSON")
			tool, err := tbfile.LoadFile([]byte(tc.body), "Cat", "Cat/tool.json")
			if inAPI {
				require.NoError(t, err)
				require.Empty(t, tool.APIs, "the bad API is left out")
				require.Len(t, tool.Notes, 1)
				require.Contains(t, tool.Notes[0], tc.field+": left out: ")
				require.Contains(t, tool.Notes[0], tc.msg)
				_, err = tbfile.LoadDir(fstest.MapFS{"Cat/tool.json": {Data: []byte(tc.body)}}, ".")
			}
			var le *toolset.LoadError
			require.True(t, errors.As(err, &le), "want a *LoadError, got %v", err)
			require.Equal(t, "Cat/tool.json", le.File)
			require.Equal(t, tc.field, le.Field, "%v", err)
			require.Contains(t, err.Error(), tc.msg)
			require.True(t, strings.HasPrefix(err.Error(), "Cat/tool.json"), "%v", err)
		})
	}
}

// TestLoadToolBenchRepairs: defects StableToolBench serves through are
// repaired, noted, and cost nothing else of the tool.
func TestLoadToolBenchRepairs(t *testing.T) {
	body := `{"tool_name": "T", "api_list": [
		{"name": "Get Items", "required_parameters": [{"name": "q", "type": "STRING"}, {"name": "q", "type": "NUMBER"}], "optional_parameters": [{"name": "q"}, {"name": "n", "type": "NUMBER"}]},
		{"name": "get_items_2"},
		{"name": "get_items", "required_parameters": [{"name": "id", "type": "NUMBER"}]},
		{"name": "GET ITEMS"},
		{"name": "other", "required_parameters": [{"name": "x", "x-in": "cookie"}]},
		{"name": "last"}
	]}`
	tool, err := tbfile.LoadFile([]byte(body), "Cat", "Cat/t.json")
	require.NoError(t, err)
	var names, std, fns []string
	for _, a := range tool.APIs {
		names = append(names, a.Name)
		std = append(std, a.StandardizedName())
		fns = append(fns, a.FunctionName())
	}
	require.Equal(t, []string{"Get Items", "get_items_2", "get_items", "GET ITEMS", "last"}, names, "only the API with a bad x-in is left out")
	require.Equal(t, []string{"get_items", "get_items_2", "get_items_3", "get_items_4", "last"}, std, "twins get the next free suffix")
	require.Equal(t, "get_items_3_for_t", fns[2])

	// The first of a parameter documented twice is kept.
	first := tool.APIs[0]
	require.Len(t, first.Params, 2)
	require.Equal(t, toolset.KindString, first.Param("q").Kind)
	require.True(t, first.Param("q").Required)

	// Each API answers to its own name; a shared standardized spelling is
	// the first's; the suffixed spelling is the twin's.
	for name, want := range map[string]string{"Get Items": "Get Items", "get_items": "get_items", "GET ITEMS": "GET ITEMS",
		"get items": "Get Items", "get_items_3": "get_items", "Get Items 4": "GET ITEMS", "get_items_2": "get_items_2"} {
		a := tool.API(name)
		require.NotNil(t, a, name)
		require.Equal(t, want, a.Name, name)
	}

	notes := strings.Join(tool.Notes, "\n")
	require.Contains(t, notes, `api_list[0].required_parameters[1]: API "Get Items": parameter "q" is documented again (first at api_list[0].required_parameters[0]): the first is kept`)
	require.Contains(t, notes, `api_list[0].optional_parameters[0]: API "Get Items": parameter "q" is documented again`)
	require.Contains(t, notes, `API "get_items" standardizes like "Get Items" (get_items): "get_items" calls "Get Items", "get_items_3" calls "get_items"`)
	require.Contains(t, notes, `api_list[4].required_parameters[0].x-in: left out: "cookie" is not one of query, path, header, body`)

	// Through a catalog the twins keep distinct function names.
	c, err := toolset.NewCatalog([]*toolset.Tool{tool})
	require.NoError(t, err)
	for _, a := range tool.APIs {
		require.Same(t, a, c.APIByFunction(a.FunctionName()))
		require.Same(t, a, c.APIByExportName(toolset.ExportName(a, toolset.NameToolBench)))
		require.Same(t, a, c.APIByExportName(toolset.ExportName(a, toolset.NameDotted)))
	}
}

func TestLoadToolBenchDirSkipsAndNames(t *testing.T) {
	good := `{"tool_name": "Good", "api_list": [{"name": "a"}]}`
	dir := toolsettest.WriteTree(t, map[string]string{
		"Data/good.json":        good,
		"Data/README.md":        "# not a tool",
		"Data/logo.png":         "\x89PNG",
		"Data/.DS_Store":        "junk",
		".git/config.json":      "not json at all",
		"index.json":            `{"metadata": true}`,
		"Data/x-groups.json":    `{"groups": []}`,
		"Other/nested/two.json": `{"tool_name": "Two"}`,
	})
	tools, err := loader.LoadPath(dir)
	require.NoError(t, err)
	require.Len(t, tools, 2)
	require.Equal(t, "Data", tools[0].Category)
	require.Equal(t, "nested", tools[1].Category, "category is the folder holding the file")

	bad := toolsettest.WriteTree(t, map[string]string{
		"Data/good.json":   good,
		"Travel/bad.json":  `{"tool_name": "Bad", "api_list": [{"name": "a"}, {"name": 1}]}`,
		"Travel/notes.txt": "skipped",
	})
	_, err = loader.LoadPath(bad)
	var le *toolset.LoadError
	require.ErrorAs(t, err, &le)
	require.Equal(t, filepath.Join(bad, "Travel", "bad.json"), le.File)
	require.Equal(t, "api_list[1].name", le.Field)

	// The same tree through an fs.FS names the file relative to the FS.
	_, err = tbfile.LoadDir(fstest.MapFS{"tools/Travel/bad.json": {Data: []byte(`{"tool_name": 1}`)}}, "tools")
	require.ErrorAs(t, err, &le)
	require.Equal(t, "tools/Travel/bad.json", le.File)
	require.Equal(t, "tool_name", le.Field)
}
