package daily

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

func newsData(t *testing.T, api string, args map[string]any) []map[string]any {
	t.Helper()
	v, err := standintest.New(t, Register).Call("real_time_news_data", api, args)
	require.NoError(t, err)
	doc, _ := standintest.PlainJSON(t, v)
	m := doc.(map[string]any)
	require.Equal(t, "OK", m["status"])
	require.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, m["request_id"])
	var out []map[string]any
	for _, a := range m["data"].([]any) {
		out = append(out, a.(map[string]any))
	}
	return out
}

func TestNewsCorpus(t *testing.T) {
	nc := standintest.World(t).News
	require.GreaterOrEqual(t, len(nc.Articles), 110)
	topics, langs, countries := map[string]int{}, map[string]int{}, map[string]int{}
	frozen := clock.Default
	for _, a := range nc.Articles {
		topics[a.Topic]++
		langs[a.Lang]++
		countries[a.Country]++
		require.True(t, a.Published.Before(frozen), a.Title)
		require.True(t, a.Published.After(frozen.AddDate(0, 0, -42)), a.Title)
		require.True(t, strings.HasPrefix(a.Link, "https://www."), a.Link)
	}
	require.Len(t, topics, 8)
	require.GreaterOrEqual(t, len(langs), 5)
	require.GreaterOrEqual(t, len(countries), 8)
	for id, arts := range nc.Stories {
		require.True(t, len(arts) >= 2 && len(arts) <= 4, "story %s has %d articles", id, len(arts))
	}
}

func TestNewsSearch(t *testing.T) {
	data := newsData(t, "search", map[string]any{"query": "climate talks Bonn", "country": "US", "lang": "en", "time_published": "anytime"})
	require.NotEmpty(t, data)
	require.Contains(t, data[0]["title"], "Bonn")
	for _, k := range []string{"title", "link", "snippet", "photo_url", "thumbnail_url", "published_datetime_utc", "authors", "source_url", "source_name", "source_favicon_url", "story_id"} {
		require.Contains(t, data[0], k)
	}
	// The ranking prefers articles matching every word.
	data = newsData(t, "search", map[string]any{"query": "ECB rate cut inflation", "lang": "en"})
	require.NotEmpty(t, data)
	require.Contains(t, strings.ToLower(data[0]["title"].(string)+data[0]["snippet"].(string)), "ecb")
	// Language selects the edition: accents fold, German articles match.
	data = newsData(t, "search", map[string]any{"query": "Zinssenkung EZB", "country": "DE", "lang": "de"})
	require.NotEmpty(t, data)
	require.Equal(t, "Wirtschaftsblatt Aktuell", data[0]["source_name"])
	// Japanese text is matched on character bigrams.
	data = newsData(t, "search", map[string]any{"query": "半導体", "country": "JP", "lang": "ja"})
	require.NotEmpty(t, data)
	// time_published narrows to recent articles.
	all := newsData(t, "search", map[string]any{"query": "health", "lang": "en"})
	day := newsData(t, "search", map[string]any{"query": "health", "lang": "en", "time_published": "1d"})
	require.Less(t, len(day), len(all))
	for _, a := range day {
		ts, err := time.Parse(time.RFC3339, a["published_datetime_utc"].(string))
		require.NoError(t, err)
		require.Less(t, clock.Default.Sub(ts), 24*time.Hour)
	}
	// Nothing matches: an empty list, not an error.
	require.Empty(t, newsData(t, "search", map[string]any{"query": "zzyzx quux"}))
}

func TestNewsHeadlinesAndStories(t *testing.T) {
	data := newsData(t, "top_headlines", map[string]any{"country": "GB", "lang": "en", "limit": float64(10)})
	require.Len(t, data, 10)
	require.Equal(t, "GB", sourceCountry(t, data[0]))
	stories := map[string]bool{}
	for _, a := range data {
		require.False(t, stories[a["story_id"].(string)], "one article per story")
		stories[a["story_id"].(string)] = true
	}
	topic := newsData(t, "topic_headlines", map[string]any{"topic": "SPORTS", "country": "US", "lang": "en"})
	require.NotEmpty(t, topic)
	prev := "9999"
	for _, a := range topic {
		if sourceCountry(t, a) == "US" {
			require.LessOrEqual(t, a["published_datetime_utc"].(string), prev)
			prev = a["published_datetime_utc"].(string)
		}
	}
	// full_story_coverage returns every article of a story found in headlines.
	id := topic[0]["story_id"].(string)
	cov := newsData(t, "full_story_coverage", map[string]any{"story_id": id, "sort": "DATE"})
	require.GreaterOrEqual(t, len(cov), 2)
	for i, a := range cov {
		require.Equal(t, id, a["story_id"])
		if i > 0 {
			require.LessOrEqual(t, a["published_datetime_utc"].(string), cov[i-1]["published_datetime_utc"].(string))
		}
	}
}

// sourceCountry is the corpus country of an article, found by its link.
func sourceCountry(t *testing.T, a map[string]any) string {
	t.Helper()
	for _, x := range standintest.World(t).News.Articles {
		if x.Link == a["link"] {
			return x.Country
		}
	}
	t.Fatalf("unknown article %v", a["link"])
	return ""
}

func TestNewsErrors(t *testing.T) {
	cases := []struct {
		api  string
		args map[string]any
		msg  string
	}{
		{"full_story_coverage", map[string]any{"story_id": "CAAqNggKIjBDQklTSGpvSmMzUnZjbmt0bogus"}, "Invalid story id"},
		{"full_story_coverage", map[string]any{}, "Missing story"},
		{"full_story_coverage", map[string]any{"story_id": "x", "sort": "POPULAR"}, "Invalid sort"},
		{"search", map[string]any{"query": ""}, "Missing query"},
		{"search", map[string]any{"query": "x", "time_published": "2w"}, "Invalid time_published"},
		{"search", map[string]any{"query": "x", "country": "USA"}, "Invalid country"},
		{"topic_headlines", map[string]any{"topic": "POLITICS"}, "Invalid topic"},
		{"top_headlines", map[string]any{"limit": float64(0)}, "Invalid limit"},
		{"top_headlines", map[string]any{"lang": "english"}, "Invalid lang"},
	}
	for _, tc := range cases {
		_, err := standintest.New(t, Register).Call("real_time_news_data", tc.api, tc.args)
		body := standintest.Rejected(t, err, 400)
		require.Equal(t, "ERROR", body["status"])
		require.Contains(t, body["error"].(map[string]any)["message"], tc.msg, tc.api)
	}
}

func TestNewsClock(t *testing.T) {
	// With the clock set back a week, later articles are not yet published.
	v, err := standintest.New(t, Register).At(clock.Default.AddDate(0, 0, -7)).Call("real_time_news_data", "top_headlines", map[string]any{"lang": "en", "limit": float64(5)})
	require.NoError(t, err)
	for _, a := range v.(map[string]any)["data"].([]*world.Article) {
		require.True(t, a.Published.Before(clock.Default.AddDate(0, 0, -7)))
	}
}

func TestNewsDeterministic(t *testing.T) {
	args := map[string]any{"query": "airlines", "lang": "en"}
	a, err := standintest.New(t, Register).Call("real_time_news_data", "search", args)
	require.NoError(t, err)
	b, err := standintest.New(t, Register).Call("real_time_news_data", "search", args)
	require.NoError(t, err)
	_, ab := standintest.PlainJSON(t, a)
	_, bb := standintest.PlainJSON(t, b)
	require.Equal(t, ab, bb)
	c, err := standintest.New(t, Register).Call("real_time_news_data", "search", map[string]any{"query": "vaccine", "lang": "en"})
	require.NoError(t, err)
	_, cb := standintest.PlainJSON(t, c)
	require.NotEqual(t, ab, cb)
}

func TestNewsGolden(t *testing.T) {
	story := standintest.World(t).News.Articles[0].StoryID
	standintest.GoldenCalls(t, "news.golden.json", standintest.New(t, Register), []standintest.Case{
		{Name: "search", Tool: "real_time_news_data", API: "search", Args: map[string]any{"query": "climate talks", "country": "US", "lang": "en", "time_published": "anytime", "limit": float64(3)}},
		{Name: "top_headlines", Tool: "real_time_news_data", API: "top_headlines", Args: map[string]any{"country": "US", "lang": "en", "limit": float64(3)}},
		{Name: "topic_headlines", Tool: "real_time_news_data", API: "topic_headlines", Args: map[string]any{"topic": "TECHNOLOGY", "country": "US", "lang": "en", "limit": float64(3)}},
		{Name: "full_story_coverage", Tool: "real_time_news_data", API: "full_story_coverage", Args: map[string]any{"story_id": story, "sort": "RELEVANCE"}},
		{Name: "full_story_coverage_unknown", Tool: "real_time_news_data", API: "full_story_coverage", Args: map[string]any{"story_id": "CAAqNggKIjBDQklTSGpvSmMzUnZjbmt0bogus", "sort": "RELEVANCE"}},
	})
}

func FuzzNewsTokens(f *testing.F) {
	for _, s := range []string{"ECB rate cuts", "Zinssenkung – EZB", "北海道の半導体工場", "Élection présidentielle", "", "a-b_c", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range world.NewsTokens(s) {
			require.NotEmpty(t, tok)
			require.False(t, world.NewsStopwords[tok])
		}
	})
}

func BenchmarkNewsSearch(b *testing.B) {
	args := map[string]any{"query": "central bank inflation rate cut", "country": "US", "lang": "en"}
	for b.Loop() {
		if _, err := standintest.New(b, Register).Call("real_time_news_data", "search", args); err != nil {
			b.Fatal(err)
		}
	}
}
