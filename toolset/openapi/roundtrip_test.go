package openapi_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/openapi"
)

// exportAndLoad writes c's OpenAPI export to a file, as
// `curl /v1/tools?format=openapi > e.json` does, and loads it alone.
func exportAndLoad(t *testing.T, c *toolset.Catalog) *toolset.Catalog {
	t.Helper()
	b, err := json.MarshalIndent(openapi.Document(c), "", "  ")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "e.json")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	back, err := loader.Load([]string{path}, false)
	require.NoError(t, err)
	return back
}

// TestOpenAPIExportRoundTrip: loading the catalog's own OpenAPI export
// gives back the same catalog document (categories, tools, APIs,
// parameters, dependencies, groups, refusals), for the built-in tools
// and for a ToolBench tree.
func TestOpenAPIExportRoundTrip(t *testing.T) {
	builtin, err := loader.Builtin()
	require.NoError(t, err)
	tree, err := loader.Load([]string{"../testdata/toolbench"}, false)
	require.NoError(t, err)
	for name, c := range map[string]*toolset.Catalog{"built-in": builtin, "ToolBench tree": tree} {
		t.Run(name, func(t *testing.T) {
			back := exportAndLoad(t, c)
			want, err := json.MarshalIndent(toolset.CatalogDocument(c), "", " ")
			require.NoError(t, err)
			got, err := json.MarshalIndent(toolset.CatalogDocument(back), "", " ")
			require.NoError(t, err)
			require.Equal(t, string(want), string(got))
		})
	}
}
