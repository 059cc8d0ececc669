package daily

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The real_time_news_data stand-in (Google News results as the RapidAPI
// "Real-Time News Data" tool serves them) over the authored corpus in
// news.json: token-ranked search, edition headlines by recency, topic
// headlines and full story coverage. An edition is a country and a
// language: searches and headlines answer that country's outlets writing
// in that language; a story's full coverage spans every outlet.

// newsRequestID is a request id in the real API's UUID form, from the call's seed.
func newsRequestID(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0x6e657773))
	a, b := r.Uint64(), r.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xfff, 0x8000|(b>>48)&0x3fff, b&0xffffffffffff)
}

// newsError is the real API's error envelope.
func newsError(c *standin.Call, status int, msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"status": "ERROR", "request_id": newsRequestID(c.Seed), "error": map[string]any{"message": msg, "code": status}}}
}

func newsOK(c *standin.Call, params map[string]any, data any) map[string]any {
	return map[string]any{"status": "OK", "request_id": newsRequestID(c.Seed), "parameters": params, "data": data}
}

// newsEdition reads country and lang (the Google News edition) with the
// real API's defaults and its error for a malformed code.
func newsEdition(c *standin.Call) (country, lang string, err error) {
	country = strings.ToUpper(c.ArgString("country"))
	lang = strings.ToLower(c.ArgString("lang"))
	if country == "" {
		country = "US"
	}
	if lang == "" {
		lang = "en"
	}
	if len(country) != 2 || !isASCIILetters(country) {
		return "", "", newsError(c, 400, fmt.Sprintf("Invalid country code %q - should be a 2-letter country code (ISO 3166-1 alpha-2), e.g. US", c.ArgString("country")))
	}
	base, _, _ := strings.Cut(lang, "-")
	if len(base) != 2 || !isASCIILetters(base) {
		return "", "", newsError(c, 400, fmt.Sprintf("Invalid lang %q - should be a 2-letter language code (ISO 639-1), e.g. en", c.ArgString("lang")))
	}
	return country, base, nil
}

func isASCIILetters(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

// inEdition reports whether an article is of the Google News edition
// (country, lang): an outlet of that country writing in that language.
// A country-restricted search answers that country's outlets only.
func inEdition(a *world.Article, country, lang string) bool {
	return a.Country == country && a.Lang == lang
}

// visible reports whether an article was published by the call's clock.
func visible(a *world.Article, now time.Time) bool { return !a.Published.After(now) }

func newsLimit(c *standin.Call, def int) (int, error) {
	if !c.Has("limit") {
		return def, nil
	}
	f, ok := c.ArgFloat("limit")
	if !ok || f < 1 || f > 500 || f != math.Trunc(f) {
		return 0, newsError(c, 400, fmt.Sprintf("Invalid limit %q - should be an integer between 1 and 500", c.ArgString("limit")))
	}
	return int(f), nil
}

var newsWindows = map[string]time.Duration{"anytime": 0, "1h": time.Hour, "1d": 24 * time.Hour, "7d": 7 * 24 * time.Hour, "1y": 365 * 24 * time.Hour}

func handleNewsSearch(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	nc := w.News
	query := c.ArgString("query")
	if query == "" {
		return nil, newsError(c, 400, "Missing query parameter - query")
	}
	country, lang, err := newsEdition(c)
	if err != nil {
		return nil, err
	}
	window := strings.ToLower(c.ArgString("time_published"))
	if window == "" {
		window = "anytime"
	}
	span, ok := newsWindows[window]
	if !ok {
		return nil, newsError(c, 400, fmt.Sprintf("Invalid time_published %q - should be one of: anytime, 1h, 1d, 7d, 1y", c.ArgString("time_published")))
	}
	limit, err := newsLimit(c, 10)
	if err != nil {
		return nil, err
	}
	qt := world.NewsTokens(query)
	type scored struct {
		a     *world.Article
		score float64
	}
	var hits []scored
	n := float64(len(nc.Articles))
	for _, a := range nc.Articles {
		if !inEdition(a, country, lang) || !visible(a, c.Now) || (span > 0 && c.Now.Sub(a.Published) > span) {
			continue
		}
		s, matched := 0.0, 0
		for _, t := range qt {
			if tf := a.Tokens[t]; tf > 0 {
				idf := math.Log(1 + n/float64(nc.DocFreq[t]))
				s += idf * tf / (tf + 1.2)
				matched++
			}
		}
		if matched == 0 {
			continue
		}
		// Articles matching every query word outrank partial matches.
		s *= float64(matched) / float64(len(qt))
		hits = append(hits, scored{a, s})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].a.Published.After(hits[j].a.Published)
	})
	data := []*world.Article{}
	for i := 0; i < len(hits) && i < limit; i++ {
		data = append(data, hits[i].a)
	}
	return newsOK(c, map[string]any{"query": query, "country": strings.ToLower(country), "lang": lang, "time_published": window, "limit": limit}, data), nil
}

func handleTopHeadlines(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	nc := w.News
	country, lang, err := newsEdition(c)
	if err != nil {
		return nil, err
	}
	limit, err := newsLimit(c, 20)
	if err != nil {
		return nil, err
	}
	// One article per story: the headline view shows the lead, and the
	// rest of the story is in full_story_coverage.
	var list []*world.Article // newest first, as the corpus is
	for _, a := range nc.Articles {
		if inEdition(a, country, lang) && visible(a, c.Now) {
			list = append(list, a)
		}
	}
	seen := map[string]bool{}
	data := []*world.Article{}
	for _, a := range list {
		if seen[a.StoryID] {
			continue
		}
		seen[a.StoryID] = true
		data = append(data, a)
		if len(data) == limit {
			break
		}
	}
	return newsOK(c, map[string]any{"country": strings.ToLower(country), "lang": lang, "limit": limit}, data), nil
}

var newsTopics = []string{"WORLD", "NATIONAL", "BUSINESS", "TECHNOLOGY", "ENTERTAINMENT", "SPORTS", "SCIENCE", "HEALTH"}

func handleTopicHeadlines(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	nc := w.News
	topic := strings.ToUpper(c.ArgString("topic"))
	if topic == "" {
		return nil, newsError(c, 400, "Missing topic parameter - topic")
	}
	if !contains(newsTopics, topic) {
		return nil, newsError(c, 400, fmt.Sprintf("Invalid topic %q - should be one of: %s, or a topic id", c.ArgString("topic"), strings.Join(newsTopics, ", ")))
	}
	country, lang, err := newsEdition(c)
	if err != nil {
		return nil, err
	}
	limit, err := newsLimit(c, 20)
	if err != nil {
		return nil, err
	}
	var list []*world.Article
	for _, a := range nc.Articles {
		if a.Topic == topic && inEdition(a, country, lang) && visible(a, c.Now) {
			list = append(list, a)
		}
	}
	if len(list) > limit {
		list = list[:limit]
	}
	data := append([]*world.Article{}, list...)
	return newsOK(c, map[string]any{"topic": topic, "country": strings.ToLower(country), "lang": lang, "limit": limit}, data), nil
}

func handleFullStoryCoverage(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	nc := w.News
	id := c.ArgString("story_id")
	if id == "" {
		return nil, newsError(c, 400, "Missing story parameter - story_id")
	}
	sortBy := strings.ToUpper(c.ArgString("sort"))
	if sortBy == "" {
		sortBy = "RELEVANCE"
	}
	if sortBy != "RELEVANCE" && sortBy != "DATE" {
		return nil, newsError(c, 400, fmt.Sprintf("Invalid sort %q - should be one of: RELEVANCE, DATE", c.ArgString("sort")))
	}
	arts, ok := nc.Stories[id]
	if !ok {
		return nil, newsError(c, 400, fmt.Sprintf("Invalid story id %q - get story ids from the search, top-headlines or topic-headlines endpoints (story_id field)", id))
	}
	data := []*world.Article{}
	for _, a := range arts {
		if visible(a, c.Now) {
			data = append(data, a)
		}
	}
	if sortBy == "DATE" {
		sort.SliceStable(data, func(i, j int) bool { return data[i].Published.After(data[j].Published) })
	}
	return newsOK(c, map[string]any{"story_id": id, "sort": sortBy}, data), nil
}
