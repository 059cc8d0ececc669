package assemble_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/recgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/openapi"
)

// TestExportRoundTripAnswersAlike: a catalog loaded back from its own
// OpenAPI export (toolserver -no-builtin -catalog e.json) answers every
// API's documented example, in one session as the examples chain, with
// the same status and bytes as the catalog it was exported from — for
// the built-in tools (their stand-ins) and a ToolBench tree (the faker).
func TestExportRoundTripAnswersAlike(t *testing.T) {
	builtin, err := loader.Builtin()
	require.NoError(t, err)
	tree, err := loader.Load([]string{"../../toolset/testdata/toolbench"}, false)
	require.NoError(t, err)
	for name, c := range map[string]*toolset.Catalog{"built-in": builtin, "ToolBench tree": tree} {
		t.Run(name, func(t *testing.T) {
			b, err := json.Marshal(openapi.Document(c))
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), "e.json")
			require.NoError(t, os.WriteFile(path, b, 0o644))
			back, err := loader.Load([]string{path}, false)
			require.NoError(t, err)

			before, err := assemble.Build(assemble.Config{Catalog: c})
			require.NoError(t, err)
			t.Cleanup(func() { before.Close() })
			after, err := assemble.Build(assemble.Config{Catalog: back})
			require.NoError(t, err)
			t.Cleanup(func() { after.Close() })
			var g1, g2 bytes.Buffer
			require.NoError(t, before.Graph.WriteJSON(&g1))
			require.NoError(t, after.Graph.WriteJSON(&g2))
			require.Equal(t, g1.String(), g2.String(), "the same dependency graph: edges, entities, carriers")

			calls, err := recgen.Examples(c)
			require.NoError(t, err)
			require.NotEmpty(t, calls)
			ctx := context.Background()
			for _, call := range calls {
				a, z := c.API(call.Tool, call.API), back.API(call.Tool, call.API)
				if a == nil {
					continue // a README call of a tool this catalog lacks
				}
				require.NotNil(t, z, "%s.%s is in the loaded export", call.Tool, call.API)
				want, werr := before.Engine.CallAPI(ctx, a, call.Arguments, "trip")
				got, gerr := after.Engine.CallAPI(ctx, z, call.Arguments, "trip")
				if werr != nil {
					require.EqualError(t, gerr, werr.Error(), "%s.%s", call.Tool, call.API)
					continue
				}
				require.NoError(t, gerr, "%s.%s", call.Tool, call.API)
				require.Equal(t, want.Status, got.Status, "%s.%s", call.Tool, call.API)
				require.Equal(t, string(want.Response), string(got.Response), "%s.%s", call.Tool, call.API)
			}
		})
	}
}
