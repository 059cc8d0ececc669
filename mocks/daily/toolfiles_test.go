package daily

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
)

// dailyTools are the tools of the daily-life scenario.
var dailyTools = []string{"weatherapi_com", "open_weather", "real_time_news_data", "public_holiday", "calendar_tools", "tasty"}

// jsonPaths lists every key path in a JSON value ("[]" for array elements).
func jsonPaths(v any, prefix string, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			out[p] = true
			jsonPaths(e, p, out)
		}
	case []any:
		for _, e := range x {
			jsonPaths(e, prefix+"[]", out)
		}
	}
}

// exampleExtras are optional arguments without a default that the
// documented example responses were made with.
var exampleExtras = map[string]map[string]any{
	"calendar_tools.check_month_calendar": {"country": "US"},
}

func TestDailyToolFiles(t *testing.T) {
	registry := standin.NewRegistry()
	Register(registry)
	for _, name := range dailyTools {
		tool := standintest.Tool(t, name)
		require.Equal(t, "daily_life", tool.Scenario, name)
		require.NotEmpty(t, tool.Description, name)
		for _, a := range tool.APIs {
			id := tool.StandardizedName + "." + a.Name
			_, ok := registry.Lookup(tool.StandardizedName, a.Name)
			require.True(t, ok, "no stand-in for %s", id)
			require.NotNil(t, a.Response(), id)
			require.NotEmpty(t, a.ExampleResponse, id)
			require.True(t, strings.HasPrefix(a.URL, "https://"+tool.Host+"/"), id)

			// A call with the documented defaults (plus the optional values the
			// example was made with) answers with the example's shape.
			args := map[string]any{}
			for k, v := range exampleExtras[id] {
				args[k] = v
			}
			for _, p := range a.Params {
				if _, set := args[p.Name]; !set && p.Default != nil {
					args[p.Name] = p.Default
				}
				if p.Required {
					require.NotNil(t, p.Default, "%s.%s needs an example value", id, p.Name)
				}
			}
			v, err := standintest.New(t, Register).Call(tool.StandardizedName, a.Name, args)
			require.NoError(t, err, id)
			got, _ := standintest.PlainJSON(t, v)
			var example any
			require.NoError(t, json.Unmarshal(a.ExampleResponse, &example))
			want, have := map[string]bool{}, map[string]bool{}
			jsonPaths(example, "", want)
			jsonPaths(got, "", have)
			var missing []string
			for p := range want {
				if !have[p] {
					missing = append(missing, p)
				}
			}
			sort.Strings(missing)
			require.Empty(t, missing, "%s: example fields missing from the stand-in's answer", id)
		}
	}
}

func TestDailyToolDependencies(t *testing.T) {
	n := 0
	for _, name := range dailyTools {
		tool := standintest.Tool(t, name)
		for _, a := range tool.APIs {
			for _, p := range a.Params {
				for _, d := range p.Depends {
					sa := standintest.Tool(t, d.Tool).API(d.API)
					require.NotNil(t, sa, "%s.%s", d.Tool, d.API)
					var ex any
					require.NoError(t, json.Unmarshal(sa.ExampleResponse, &ex))
					vals := deps.Values(ex, d.Path)
					require.NotEmpty(t, vals, "%s.%s: path %s does not resolve in %s.%s's example", a.Name, p.Name, d.Path, d.Tool, d.API)
					require.Contains(t, p.Description, d.API, "%s.%s: the description names the source API", a.Name, p.Name)
					n++
				}
			}
		}
	}
	require.GreaterOrEqual(t, n, 8)
}

// TestDailyDependencyChains follows each dependency with real stand-in
// answers: a value taken from the source API works in the dependent one.
func TestDailyDependencyChains(t *testing.T) {
	v, err := standintest.New(t, Register).Call("real_time_news_data", "topic_headlines", map[string]any{"topic": "HEALTH"})
	require.NoError(t, err)
	doc, _ := standintest.PlainJSON(t, v)
	for _, id := range deps.Values(doc, "data[].story_id") {
		_, err := standintest.New(t, Register).Call("real_time_news_data", "full_story_coverage", map[string]any{"story_id": id})
		require.NoError(t, err)
	}
	v, err = standintest.New(t, Register).Call("public_holiday", "available_countries", nil)
	require.NoError(t, err)
	doc, _ = standintest.PlainJSON(t, v)
	for _, cc := range deps.Values(doc, "[].countryCode") {
		_, err := standintest.New(t, Register).Call("public_holiday", "long_weekends", map[string]any{"year": float64(2026), "countryCode": cc})
		require.NoError(t, err)
	}
	v, err = standintest.New(t, Register).Call("tasty", "recipes_list", map[string]any{"from": float64(0), "size": float64(40)})
	require.NoError(t, err)
	doc, _ = standintest.PlainJSON(t, v)
	ids := deps.Values(doc, "results[].id")
	require.Len(t, ids, 40)
	for _, id := range ids {
		for _, call := range []struct{ api, param string }{{"recipes_get_more_info", "id"}, {"recipes_list_similarities", "recipe_id"}, {"tips_list", "id"}} {
			_, err := standintest.New(t, Register).Call("tasty", call.api, map[string]any{call.param: id})
			require.NoError(t, err, "%s %v", call.api, id)
		}
	}
}
