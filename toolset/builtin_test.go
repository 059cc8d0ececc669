package toolset

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBuiltinCatalog checks the embedded toolset against the plan in
// fixtures/toolset/README.md: 27 tools, at least 66 APIs, 28 dependency
// pairs and 9 coherent groups, every x-depends naming an existing API, and
// every export working on it.
func TestBuiltinCatalog(t *testing.T) {
	c, err := Builtin()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(c.Tools()), 27, "tools")
	require.GreaterOrEqual(t, len(c.APIs()), 66, "APIs")
	for _, e := range c.Dependencies() {
		require.True(t, e.Resolved, "%s(%s) depends on %s, which is not in the catalog", e.Target, e.Param, e.Source)
	}
	require.GreaterOrEqual(t, len(c.DependencyPairs()), 28, "dependency pairs")
	require.GreaterOrEqual(t, len(c.Groups()), 9, "coherent groups")
	for _, tool := range c.Tools() {
		require.NotEmpty(t, tool.Scenario, "%s has no x-scenario", tool.Name)
		require.NotEmpty(t, tool.APIs, "%s has no API", tool.Name)
	}
	require.NoError(t, OpenAPIDocument(c).Validate(context.Background()))
	require.Len(t, OpenAITools(c, ExportOptions{}), len(c.APIs()))
}
