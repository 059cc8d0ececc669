package loader_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/openapi"
)

// TestBuiltinCatalog checks the embedded toolset against the plan in
// fixtures/toolset/README.md: 27 tools and 77 APIs (the paper's 66 and
// more), 38 dependency pairs (the paper's 28 and more) and 12 coherent
// groups (the paper's 9 and more), every x-depends naming an existing API,
// and every export working on it. The counts are exact: adding or losing
// an API is a change this test makes someone confirm.
func TestBuiltinCatalog(t *testing.T) {
	c, err := loader.Builtin()
	require.NoError(t, err)
	require.Len(t, c.Tools(), 27, "tools")
	require.Len(t, c.APIs(), 77, "APIs")
	for _, e := range c.Dependencies() {
		require.True(t, e.Resolved, "%s(%s) depends on %s, which is not in the catalog", e.Target, e.Param, e.Source)
	}
	require.Len(t, c.DependencyPairs(), 38, "dependency pairs")
	require.Len(t, c.Groups(), 12, "coherent groups")
	for _, tool := range c.Tools() {
		require.NotEmpty(t, tool.Scenario, "%s has no x-scenario", tool.Name)
		require.NotEmpty(t, tool.APIs, "%s has no API", tool.Name)
	}
	require.NoError(t, openapi.Document(c).Validate(context.Background()))
	require.Len(t, toolset.OpenAITools(c, toolset.ExportOptions{}), len(c.APIs()))
}
