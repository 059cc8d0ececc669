package daily

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

func tastyDoc(t *testing.T, api string, args map[string]any) map[string]any {
	t.Helper()
	v, err := standintest.New(t, Register).Call("tasty", api, args)
	require.NoError(t, err)
	doc, _ := standintest.PlainJSON(t, v)
	return doc.(map[string]any)
}

func TestTastyCorpus(t *testing.T) {
	tc := standintest.World(t).Recipes
	require.Len(t, tc.Recipes, 60)
	for _, r := range tc.Recipes {
		var rec map[string]any
		require.NoError(t, json.Unmarshal(r.Raw, &rec))
		for _, k := range []string{"id", "name", "slug", "description", "tags", "total_time_minutes", "num_servings", "sections", "instructions", "nutrition", "user_ratings", "thumbnail_url", "country"} {
			require.Contains(t, rec, k, r.Name)
		}
		require.NotEmpty(t, r.Tips, r.Name)
		for _, s := range rec["sections"].([]any) {
			for _, c := range s.(map[string]any)["components"].([]any) {
				require.NotEmpty(t, c.(map[string]any)["measurements"], r.Name)
			}
		}
	}
}

func TestTastyAutoComplete(t *testing.T) {
	doc := tastyDoc(t, "recipes_auto_complete", map[string]any{"prefix": "chicken"})
	res := doc["results"].([]any)
	require.NotEmpty(t, res)
	require.LessOrEqual(t, len(res), 10)
	require.True(t, strings.HasPrefix(res[0].(map[string]any)["display"].(string), "chicken"))
	for _, r := range res {
		m := r.(map[string]any)
		d := m["display"].(string)
		require.True(t, strings.HasPrefix(d, "chicken") || strings.Contains(d, " chicken"), d)
		require.Contains(t, []any{"recipe", "ingredient"}, m["type"])
		require.Equal(t, m["display"], m["search_value"])
	}
	doc = tastyDoc(t, "recipes_auto_complete", map[string]any{"prefix": "qqq"})
	require.Empty(t, doc["results"])
}

func TestTastyList(t *testing.T) {
	doc := tastyDoc(t, "recipes_list", map[string]any{"from": float64(0), "size": float64(20)})
	require.Equal(t, float64(60), doc["count"])
	require.Len(t, doc["results"], 20)
	page2 := tastyDoc(t, "recipes_list", map[string]any{"from": float64(20), "size": float64(20)})
	require.NotEqual(t, doc["results"].([]any)[0], page2["results"].([]any)[0])

	doc = tastyDoc(t, "recipes_list", map[string]any{"from": float64(0), "size": float64(20), "q": "chicken"})
	require.Greater(t, doc["count"].(float64), float64(3))
	first := doc["results"].([]any)[0].(map[string]any)
	require.Contains(t, strings.ToLower(first["name"].(string)), "chicken")

	doc = tastyDoc(t, "recipes_list", map[string]any{"from": float64(0), "size": float64(40), "tags": "vegan"})
	require.Greater(t, doc["count"].(float64), float64(5))
	for _, r := range doc["results"].([]any) {
		names := []string{}
		for _, tg := range r.(map[string]any)["tags"].([]any) {
			names = append(names, tg.(map[string]any)["name"].(string))
		}
		require.Contains(t, names, "vegan")
	}
	doc = tastyDoc(t, "recipes_list", map[string]any{"from": float64(0), "size": float64(20), "tags": "under_30_minutes,italian"})
	require.NotZero(t, doc["count"])
	doc = tastyDoc(t, "recipes_list", map[string]any{"from": float64(0), "size": float64(20), "q": "unicorn steak"})
	require.Equal(t, float64(0), doc["count"])
	require.Empty(t, doc["results"])

	_, err := standintest.New(t, Register).Call("tasty", "recipes_list", map[string]any{"from": float64(0), "size": float64(100)})
	standintest.Rejected(t, err, 400)
}

func TestTastyDetailsSimilarTips(t *testing.T) {
	list := tastyDoc(t, "recipes_list", map[string]any{"from": float64(0), "size": float64(5), "q": "tikka masala"})
	id := list["results"].([]any)[0].(map[string]any)["id"]
	require.Equal(t, float64(8054), id)

	rec := tastyDoc(t, "recipes_get_more_info", map[string]any{"id": "8054"})
	require.Equal(t, "Chicken Tikka Masala", rec["name"])
	require.Equal(t, float64(498), rec["nutrition"].(map[string]any)["calories"])

	sim := tastyDoc(t, "recipes_list_similarities", map[string]any{"recipe_id": float64(8054)})
	require.NotZero(t, sim["count"])
	simNames := []string{}
	for _, r := range sim["results"].([]any) {
		require.NotEqual(t, id, r.(map[string]any)["id"])
		simNames = append(simNames, r.(map[string]any)["name"].(string))
	}
	require.Contains(t, simNames, "Butter Chicken")

	tips := tastyDoc(t, "tips_list", map[string]any{"id": "8054", "from": float64(0), "size": float64(30)})
	require.Equal(t, float64(2), tips["count"])
	tip := tips["results"].([]any)[0].(map[string]any)
	require.Equal(t, float64(8054), tip["recipe_id"])
	require.Contains(t, tip["tip_body"], "overnight")

	for _, api := range []string{"recipes_get_more_info", "tips_list"} {
		_, err := standintest.New(t, Register).Call("tasty", api, map[string]any{"id": "1234567"})
		standintest.Rejected(t, err, 404)
	}
	_, err := standintest.New(t, Register).Call("tasty", "recipes_list_similarities", map[string]any{"recipe_id": "abc"})
	standintest.Rejected(t, err, 404)
}

func TestTastyDeterministic(t *testing.T) {
	a := tastyDoc(t, "recipes_list", map[string]any{"from": float64(0), "size": float64(5), "q": "soup"})
	b := tastyDoc(t, "recipes_list", map[string]any{"from": float64(0), "size": float64(5), "q": "soup"})
	require.Equal(t, a, b)
	c := tastyDoc(t, "recipes_list", map[string]any{"from": float64(0), "size": float64(5), "q": "cake"})
	require.NotEqual(t, a, c)
}

func TestTastyGolden(t *testing.T) {
	standintest.GoldenCalls(t, "tasty.golden.json", standintest.New(t, Register), []standintest.Case{
		{Name: "recipes_auto_complete", Tool: "tasty", API: "recipes_auto_complete", Args: map[string]any{"prefix": "chicken"}},
		{Name: "recipes_list", Tool: "tasty", API: "recipes_list", Args: map[string]any{"from": float64(0), "size": float64(2), "q": "chicken", "tags": "dinner"}},
		{Name: "recipes_get_more_info", Tool: "tasty", API: "recipes_get_more_info", Args: map[string]any{"id": "8054"}},
		{Name: "recipes_list_similarities", Tool: "tasty", API: "recipes_list_similarities", Args: map[string]any{"recipe_id": "8054"}},
		{Name: "tips_list", Tool: "tasty", API: "tips_list", Args: map[string]any{"id": "8054", "from": float64(0), "size": float64(30)}},
		{Name: "recipes_get_more_info_unknown", Tool: "tasty", API: "recipes_get_more_info", Args: map[string]any{"id": "1"}},
	})
}

func BenchmarkTastyList(b *testing.B) {
	args := map[string]any{"from": float64(0), "size": float64(20), "q": "chicken", "tags": "dinner"}
	for b.Loop() {
		if _, err := standintest.New(b, Register).Call("tasty", "recipes_list", args); err != nil {
			b.Fatal(err)
		}
	}
}
