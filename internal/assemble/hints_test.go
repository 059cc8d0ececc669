package assemble_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
)

// Without dependency hints the served catalog says nowhere where a value
// comes from, and the graph the sandbox enforces is the one built with them.
func TestNoDependencyHints(t *testing.T) {
	with, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	defer with.Close()
	without, err := assemble.Build(assemble.Config{NoDependencyHints: true})
	require.NoError(t, err)
	defer without.Close()
	require.Nil(t, with.Hints)
	require.NotNil(t, without.Hints)
	require.Positive(t, without.Hints.Texts)
	require.Equal(t, len(with.Graph.Edges()), len(without.Graph.Edges()))
	for _, f := range toolset.OpenAITools(without.Catalog, toolset.ExportOptions{Style: toolset.NameToolBench}) {
		require.NotContains(t, f.Function.Description, "retrieved from")
		props, _ := f.Function.Parameters["properties"].(map[string]any)
		for name, p := range props {
			d, _ := p.(map[string]any)["description"].(string)
			require.False(t, strings.Contains(d, "retrieved from"), "%s.%s: %s", f.Function.Name, name, d)
		}
	}
	hinted := 0
	for _, a := range with.Catalog.APIs() {
		for _, p := range a.Params {
			if strings.Contains(p.Description, "retrieved from") {
				hinted++
			}
		}
	}
	require.Positive(t, hinted, "the built-in catalog has hints to remove")
}
