package loader_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/internal/toolsettest"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/tbfile"
)

// TestLoadMessyTree loads a ToolBench tree as real ones come: the valid
// tools load, every other tool file is reported with its reason, and the
// same tool name in two categories stays two tools.
func TestLoadMessyTree(t *testing.T) {
	root := filepath.Join("..", "testdata", "toolbench_messy")
	c, err := loader.Load([]string{root}, false)
	require.NoError(t, err)

	var names []string
	for _, tl := range c.Tools() {
		names = append(names, tl.Category+"/"+tl.StandardizedName)
	}
	require.Equal(t, []string{
		"Data/quote_generator",
		"Entertainment/pokemontcg",
		"Finance/stocks_tool",
		"Gaming/pokemontcg_for_gaming",
		"Travel/dup_api",
	}, names)

	type skip struct{ file, reason string }
	var got []skip
	for _, s := range c.Skipped() {
		rel, err := filepath.Rel(root, s.File)
		require.NoError(t, err)
		got = append(got, skip{filepath.ToSlash(rel), s.Reason})
	}
	require.Equal(t, []skip{
		{"Data/broken.json", `api_list[0].method: malformed JSON at line 4, column 40 (byte 86): invalid character '}' looking for beginning of object key string`},
		{"Data/empty.json", "empty document, expected a JSON object"},
		{"Entertainment/pokemontcg copy.json", `tool_name: duplicate tool: tool "PokemonTCG" of category Entertainment is loaded from Entertainment/pokemontcg.json`},
		{"Travel/list_not_tool.json", `expected a JSON object, found "[{\"tool_name\": \""`},
	}, got)

	// The copy is the one left out, though it comes first: ToolBench opens
	// "<standardized name>.json".
	ent := c.ToolIn("Entertainment", "PokemonTCG")
	require.NotNil(t, ent)
	require.Equal(t, filepath.Join(root, "Entertainment", "pokemontcg.json"), ent.Source)
	require.NotNil(t, ent.API("Get Cards").Param("pageSize"))

	gaming := c.ToolIn("Gaming", "pokemontcg")
	require.NotNil(t, gaming)
	require.NotSame(t, ent, gaming)
	require.Equal(t, "Get Deck", gaming.APIs[0].Name)
	require.Same(t, gaming, c.ToolIn("Gaming", "pokemontcg_for_Gaming"), "StableToolBench's folder form")
	require.Same(t, gaming, c.Tool("pokemontcg_for_gaming"))
	require.Same(t, ent, c.Tool("pokemontcg"), "the bare name is the first category's")
	require.Same(t, ent, c.Tool("pokemontcg_for_entertainment"))
	require.Nil(t, c.ToolIn("Finance", "pokemontcg"))
	require.NotEmpty(t, gaming.Notes)

	// Two APIs whose names standardize alike both load and answer.
	dup := c.Tool("dup_api")
	require.Len(t, dup.APIs, 2)
	require.Equal(t, "Search", c.API("dup_api", "Search").Name)
	require.Equal(t, "search", c.API("dup_api", "search").Name)
	require.Equal(t, "search", c.API("dup_api", "search_2").Name)
	require.Equal(t, "Search", c.ToolBenchAPI("Travel", "Dup API", "SEARCH").Name)

	// The strict loaders still fail on the first bad file.
	_, err = loader.LoadPath(root)
	var le *toolset.LoadError
	require.ErrorAs(t, err, &le)
	require.Equal(t, filepath.Join(root, "Data", "broken.json"), le.File)
}

// TestUserToolWinsItsName: a user's tool file of a built-in tool's
// category and name replaces the built-in stand-in, which is listed as
// giving way; a user's tool of that name in another category is a twin,
// qualified with its category, and both stay reachable.
func TestUserToolWinsItsName(t *testing.T) {
	dir := toolsettest.WriteTree(t, map[string]string{
		"Aardvark/skyscanner80.json": `{"tool_name": "Skyscanner80", "api_list": [{"name": "ping"}]}`,
		"Travel/skyscanner80.json":   `{"tool_name": "Skyscanner80", "api_list": [{"name": "pong"}]}`,
	})
	c, err := loader.Load([]string{dir}, true)
	require.NoError(t, err)
	mineTravel := c.ToolIn("Travel", "Skyscanner80")
	require.NotNil(t, mineTravel)
	require.False(t, mineTravel.Builtin, "the user's file wins")
	require.NotNil(t, mineTravel.API("pong"))
	// Between user tools of two categories, the first category keeps the name.
	mine := c.ToolIn("Aardvark", "skyscanner80")
	require.NotNil(t, mine)
	require.Same(t, c.Tool("skyscanner80"), mine)
	require.Equal(t, "skyscanner80_for_travel", mineTravel.StandardizedName)
	require.Len(t, c.Skipped(), 1)
	require.ErrorIs(t, c.Skipped()[0].Err, tbfile.ErrDuplicateTool)
	require.Contains(t, c.Skipped()[0].Err.Error(), "built-in stand-in")
	require.Contains(t, c.Skipped()[0].Err.Error(), filepath.Join(dir, "Travel", "skyscanner80.json"))
}

// TestEmptyStandardizedNameFile: a tool whose standardized name is empty
// is in ToolBench's tree as ".json"; it is loaded or listed with its
// reason, never passed over as a hidden file.
func TestEmptyStandardizedNameFile(t *testing.T) {
	dir := toolsettest.WriteTree(t, map[string]string{
		"Data/.json":     `{"tool_name": "!!!", "api_list": [{"name": "ping"}]}`,
		"Data/ok.json":   `{"tool_name": "ok", "api_list": [{"name": "ping"}]}`,
		"Data/.DS_Store": `not a tool`,
	})
	c, err := loader.Load([]string{dir}, false)
	require.NoError(t, err)
	loaded := 0
	for _, tl := range c.Tools() {
		if filepath.Base(tl.Source) == ".json" {
			loaded++
		}
	}
	listed := 0
	for _, s := range c.Skipped() {
		if filepath.Base(s.File) == ".json" {
			listed++
			require.Error(t, s.Err)
		}
	}
	require.Equal(t, 1, loaded+listed, "the .json file is loaded or listed: %v", c.Skipped())
	require.NotNil(t, c.Tool("ok"))
}
