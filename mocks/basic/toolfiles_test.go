package basic

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/travel"
)

// shapeDiff lists the places where got lacks a field of want or has a
// different JSON type there; arrays are compared through their first element.
func shapeDiff(want, got any, at string, out *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: want object, got %T", at, got))
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				*out = append(*out, fmt.Sprintf("%s.%s: missing", at, k))
				continue
			}
			shapeDiff(w[k], gv, at+"."+k, out)
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: want array, got %T", at, got))
			return
		}
		if len(w) > 0 && len(g) > 0 {
			shapeDiff(w[0], g[0], at+"[]", out)
		}
	case nil:
	default:
		if got != nil && fmt.Sprintf("%T", want) != fmt.Sprintf("%T", got) {
			*out = append(*out, fmt.Sprintf("%s: want %T, got %T", at, want, got))
		}
	}
}

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
			require.NotNil(t, a.ResponseSchema, "%s.%s has no schema", name, a.Name)
			require.True(t, strings.HasPrefix(a.URL, "https://"+tool.Host+"/"), a.URL)

			// The stand-in answers the documented defaults in the documented shape.
			var example any
			require.NoError(t, json.Unmarshal(a.ExampleResponse, &example))
			got := standintest.New(t, Register).WithDefaults().Object(name, a.Name, nil)
			var diffs []string
			shapeDiff(example, any(got), name+"."+a.Name, &diffs)
			require.Empty(t, diffs)

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
