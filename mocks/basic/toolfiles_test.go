package basic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/travel"
)

func TestBasicToolFiles(t *testing.T) {
	registry := standin.NewRegistry()
	Register(registry)
	apis := 0
	for _, name := range []string{"web_search", "python_interpreter", "calculator", "agent_clock", "world_time", "google_translate", "ip_geolocation", "user_info"} {
		tool := standintest.Tool(t, name)
		require.Equal(t, name, tool.StandardizedName)
		require.NotEmpty(t, tool.Description)
		require.Equal(t, "basic", tool.Scenario)
		for _, a := range tool.APIs {
			apis++
			_, ok := registry.Lookup(name, a.Name)
			require.True(t, ok, "no stand-in for %s.%s", name, a.Name)
			require.NotEmpty(t, a.ExampleResponse, "%s.%s has no example", name, a.Name)
			require.NotNil(t, a.Response(), "%s.%s has no schema", name, a.Name)
			require.True(t, strings.HasPrefix(a.URL, "https://"+tool.Host+"/"), a.URL)

			// The stand-in answers the documented defaults in the documented shape.
			var example any
			require.NoError(t, json.Unmarshal(a.ExampleResponse, &example))
			got := standintest.New(t, Register).WithDefaults().Object(name, a.Name, nil)
			require.NoError(t, standintest.Shape(example, got), "%s.%s", name, a.Name)

			for _, p := range a.Params {
				for _, d := range p.Depends {
					src := standintest.Tool(t, d.Tool).API(d.API)
					require.NotNil(t, src, "%s.%s.%s depends on unknown %s.%s", name, a.Name, p.Name, d.Tool, d.API)
					var ex any
					require.NoError(t, json.Unmarshal(src.ExampleResponse, &ex))
					require.NotEmpty(t, deps.Values(ex, d.Path), "%s.%s.%s: path %s does not resolve in %s.%s's example", name, a.Name, p.Name, d.Path, d.Tool, d.API)
					require.Contains(t, p.Description, d.API, "the description of %s.%s.%s must name its source API", name, a.Name, p.Name)
					// ... and in a live response of the source.
					require.NotEmpty(t, deps.Values(any(standintest.New(t, withSources).WithDefaults().Object(d.Tool, d.API, nil)), d.Path))
				}
			}
		}
	}
	require.Equal(t, 16, apis)
}

// withSources registers the basic stand-ins and the travel ones their
// parameters depend on (world_time.timezone_by_location takes
// geocoding.forward_geocode's coordinates).
func withSources(r *standin.Registry) {
	Register(r)
	travel.Register(r)
}
