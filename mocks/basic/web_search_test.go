package basic

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

func gsItems(t *testing.T, api string, args map[string]any) []map[string]any {
	t.Helper()
	r := standintest.New(t, Register).WithDefaults().Object("web_search", api, args)
	require.Equal(t, "success", r["status"])
	var out []map[string]any
	for _, it := range r["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

func TestBasicWebSearch(t *testing.T) {
	items := gsItems(t, "web_search", nil)
	require.NotEmpty(t, items)
	require.Equal(t, "Pastéis de Nata (Portuguese Custard Tarts) Recipe", items[0]["title"])
	require.Contains(t, items[0]["htmlTitle"], "<b>Nata</b>")
	require.Equal(t, "www.allrecipes.com", items[0]["displayLink"])

	// City pages come from the core world and agree with it.
	items = gsItems(t, "web_search", map[string]any{"q": "Lisbon"})
	require.NotEmpty(t, items)
	var wiki map[string]any
	for _, it := range items {
		if it["link"] == "https://en.wikipedia.org/wiki/Lisbon" {
			wiki = it
		}
	}
	require.NotNil(t, wiki)
	require.Contains(t, wiki["snippet"], "capital")
	require.Contains(t, wiki["snippet"], "LIS")

	items = gsItems(t, "web_search", map[string]any{"q": "python programming language", "num": 1})
	require.Len(t, items, 1)
	require.Equal(t, "Python (programming language) - Wikipedia", items[0]["title"])

	require.Empty(t, gsItems(t, "web_search", map[string]any{"q": "xylophone quasar zebra"}))
	standintest.New(t, Register).WithDefaults().Fails(400, "web_search", "web_search", map[string]any{"q": ""})
	require.Equal(t, standintest.New(t, Register).WithDefaults().Bytes("web_search", "web_search", nil), standintest.New(t, Register).WithDefaults().Bytes("web_search", "web_search", nil))
}

func TestBasicVideoSearch(t *testing.T) {
	items := gsItems(t, "video_search", nil)
	require.Len(t, items, 1)
	require.Equal(t, "Food Wishes", items[0]["channel"])
	require.Equal(t, "12:41", items[0]["duration"])
	require.True(t, strings.HasPrefix(items[0]["thumbnail"].(string), "https://i.ytimg.com/vi/Ck3lFHaW8_M/"))

	items = gsItems(t, "video_search", map[string]any{"q": "travel guide", "num": 2})
	require.Len(t, items, 2)
	standintest.New(t, Register).WithDefaults().Fails(400, "web_search", "video_search", map[string]any{"q": " "})
}

func TestBasicNewsSearch(t *testing.T) {
	items := gsItems(t, "news_search", nil)
	require.NotEmpty(t, items)
	require.Contains(t, strings.ToLower(items[0]["title"].(string)), "climate")
	for _, it := range items {
		require.LessOrEqual(t, it["published"], "2025-06-02T09:00:00.000Z", "no news from the future")
		require.NotEmpty(t, it["source"])
	}
	standintest.New(t, Register).WithDefaults().Fails(400, "web_search", "news_search", map[string]any{"q": ""})
}

func TestBasicWebSearchGolden(t *testing.T) {
	standintest.GoldenCalls(t, "web_search.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "web_default", Tool: "web_search", API: "web_search", Args: nil},
		{Name: "web_city", Tool: "web_search", API: "web_search", Args: map[string]any{"q": "Kyoto travel guide", "num": 3}},
		{Name: "web_none", Tool: "web_search", API: "web_search", Args: map[string]any{"q": "qwertyuiop"}},
		{Name: "video_default", Tool: "web_search", API: "video_search", Args: nil},
		{Name: "news_default", Tool: "web_search", API: "news_search", Args: map[string]any{"num": 3}},
		{Name: "missing_q", Tool: "web_search", API: "web_search", Args: map[string]any{"q": ""}},
	})
}

func TestBasicRankDocs(t *testing.T) {
	docs := []*world.WebDoc{
		{Title: "Banana bread", Snippet: "bananas and flour"},
		{Title: "Bread", Snippet: "flour water salt"},
		{Title: "Cars", Snippet: "engines"},
	}
	for _, d := range docs {
		d.Index()
	}
	got := world.RankDocs(docs, "banana bread")
	require.Len(t, got, 2)
	require.Equal(t, "Banana bread", got[0].Title)
	require.Empty(t, world.RankDocs(docs, "the of and"))
	require.Empty(t, world.RankDocs(docs, ""))
}

func BenchmarkBasicWebSearch(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "web_search", "web_search", nil)
}

func BenchmarkBasicNewsSearch(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "web_search", "news_search", nil)
}
