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

func TestLoadPaths(t *testing.T) {
	c, err := loader.Load([]string{"../testdata/toolbench", "../testdata/openapi/petstore.yaml", "../testdata/openapi/cyclic.json"}, false)
	require.NoError(t, err)
	require.Len(t, c.Tools(), 5)
	require.NotNil(t, c.Tool("pet_store"))

	single := toolsettest.WriteTree(t, map[string]string{"Finance/fx.json": `{"tool_name": "FX", "api_list": [{"name": "rate"}]}`})
	tools, err := loader.LoadPath(filepath.Join(single, "Finance", "fx.json"))
	require.NoError(t, err)
	require.Equal(t, "Finance", tools[0].Category)

	// A tool file given again (same category, same tool) is one tool: the
	// repeat is reported, not loaded twice and not fatal.
	c, err = loader.Load([]string{"../testdata/toolbench", filepath.Join(single, "Finance", "fx.json"), "../testdata/toolbench/Travel/fare_finder.json"}, false)
	require.NoError(t, err)
	require.Len(t, c.Tools(), 4)
	require.Len(t, c.Skipped(), 1)
	require.Equal(t, "../testdata/toolbench/Travel/fare_finder.json", c.Skipped()[0].File)
	require.ErrorIs(t, c.Skipped()[0].Err, tbfile.ErrDuplicateTool)

	for _, p := range []string{"../testdata/nope", "../testdata/toolbench/README.md"} {
		_, err := loader.LoadPath(p)
		var le *toolset.LoadError
		require.ErrorAs(t, err, &le)
		require.Equal(t, p, le.File)
	}
}
