package mocks

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/understudy/understudy/sandbox"
	"io/fs"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
	"unicode"
)

// The real_time_news_data stand-in (Google News results as the RapidAPI
// "Real-Time News Data" tool serves them) over the authored corpus in
// news.json: token-ranked search, edition headlines by recency, topic
// headlines and full story coverage.

func init() {
	register("real_time_news_data", "search", handleNewsSearch)
	register("real_time_news_data", "top_headlines", handleTopHeadlines)
	register("real_time_news_data", "topic_headlines", handleTopicHeadlines)
	register("real_time_news_data", "full_story_coverage", handleFullStoryCoverage)
}

// newsTopic is one related topic of an article.
type newsTopic struct {
	TopicID   string `json:"topic_id"`
	TopicName string `json:"topic_name"`
}

// newsArticle is an article as the real API returns it; Topic, Country and
// Lang are the corpus's own labels and are not sent.
type newsArticle struct {
	Title                string      `json:"title"`
	Link                 string      `json:"link"`
	Snippet              string      `json:"snippet"`
	PhotoURL             string      `json:"photo_url"`
	ThumbnailURL         string      `json:"thumbnail_url"`
	PublishedDatetimeUTC string      `json:"published_datetime_utc"`
	Authors              []string    `json:"authors"`
	SourceURL            string      `json:"source_url"`
	SourceName           string      `json:"source_name"`
	SourceLogoURL        string      `json:"source_logo_url"`
	SourceFaviconURL     string      `json:"source_favicon_url"`
	SourcePublicationID  string      `json:"source_publication_id"`
	RelatedTopics        []newsTopic `json:"related_topics"`
	StoryID              string      `json:"story_id"`

	Topic   string `json:"-"`
	Country string `json:"-"`
	Lang    string `json:"-"`

	published time.Time
	tokens    map[string]float64 // token → weight (title counts double)
}

type newsCorpus struct {
	articles []*newsArticle // newest first
	stories  map[string][]*newsArticle
	df       map[string]int
}

func loadNews(fsys fs.FS, _ *World) (*newsCorpus, error) {
	raw, err := fs.ReadFile(fsys, "news.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Articles []struct {
			newsArticle
			Topic   string `json:"topic"`
			Country string `json:"country"`
			Lang    string `json:"lang"`
		} `json:"articles"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("news.json: %w", err)
	}
	nc := &newsCorpus{stories: map[string][]*newsArticle{}, df: map[string]int{}}
	for i := range doc.Articles {
		d := doc.Articles[i]
		a := d.newsArticle
		a.Topic, a.Country, a.Lang = d.Topic, d.Country, d.Lang
		a.published, err = time.Parse(time.RFC3339, a.PublishedDatetimeUTC)
		if err != nil {
			return nil, fmt.Errorf("news.json: article %d: %w", i, err)
		}
		if a.StoryID == "" || a.Title == "" {
			return nil, fmt.Errorf("news.json: article %d needs a title and a story_id", i)
		}
		a.tokens = map[string]float64{}
		for _, t := range newsTokens(a.Title) {
			a.tokens[t] += 2
		}
		for _, t := range newsTokens(a.Snippet) {
			a.tokens[t]++
		}
		for t := range a.tokens {
			nc.df[t]++
		}
		art := a
		nc.articles = append(nc.articles, &art)
		nc.stories[a.StoryID] = append(nc.stories[a.StoryID], &art)
	}
	sort.SliceStable(nc.articles, func(i, j int) bool { return nc.articles[i].published.After(nc.articles[j].published) })
	return nc, nil
}

var newsStopwords = map[string]bool{"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "in": true, "on": true, "at": true, "to": true, "for": true, "as": true, "is": true, "by": true, "with": true, "news": true, "latest": true, "de": true, "la": true, "le": true, "el": true, "da": true, "do": true, "der": true, "die": true, "und": true, "les": true, "des": true, "en": true, "em": true, "o": true}

// newsTokens lowercases, folds common accents, splits on anything that is
// not a letter or digit, drops stop words and a plural "s", and cuts runs of
// CJK characters into bigrams (they have no spaces to split on).
func newsTokens(s string) []string {
	var out []string
	var word []rune
	var cjk []rune
	flushWord := func() {
		if len(word) > 0 {
			w := string(word)
			if n := len(w); n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
				w = w[:n-1]
			}
			if !newsStopwords[w] {
				out = append(out, w)
			}
			word = word[:0]
		}
	}
	flushCJK := func() {
		switch {
		case len(cjk) == 1:
			out = append(out, string(cjk))
		case len(cjk) > 1:
			for i := 0; i+1 < len(cjk); i++ {
				out = append(out, string(cjk[i:i+2]))
			}
		}
		cjk = cjk[:0]
	}
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			flushWord()
			cjk = append(cjk, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			flushCJK()
			word = append(word, foldAccent(r))
		default:
			flushWord()
			flushCJK()
		}
	}
	flushWord()
	flushCJK()
	return out
}

// accentFold maps accented Latin letters to their base letter.
var accentFold = func() map[rune]rune {
	m := map[rune]rune{'ß': 's', 'œ': 'o', 'æ': 'a'}
	to := []rune("aaaaaaceeeeiiiinoooooouuuuyy")
	for i, r := range []rune("àáâãäåçèéêëìíîïñòóôõöøùúûüýÿ") {
		m[r] = to[i]
	}
	return m
}()

func foldAccent(r rune) rune {
	if f, ok := accentFold[r]; ok {
		return f
	}
	return r
}

// newsRequestID is a request id in the real API's UUID form, from the call's seed.
func newsRequestID(seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0x6e657773))
	a, b := r.Uint64(), r.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", a>>32, (a>>16)&0xffff, a&0xfff, 0x8000|(b>>48)&0x3fff, b&0xffffffffffff)
}

// newsError is the real API's error envelope.
func newsError(c *Call, status int, msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"status": "ERROR", "request_id": newsRequestID(c.Seed), "error": map[string]any{"message": msg, "code": status}}}
}

func newsOK(c *Call, params map[string]any, data any) map[string]any {
	return map[string]any{"status": "OK", "request_id": newsRequestID(c.Seed), "parameters": params, "data": data}
}

// newsEdition reads country and lang (the Google News edition) with the
// real API's defaults and its error for a malformed code.
func newsEdition(c *Call) (country, lang string, err error) {
	country = strings.ToUpper(c.argString("country"))
	lang = strings.ToLower(c.argString("lang"))
	if country == "" {
		country = "US"
	}
	if lang == "" {
		lang = "en"
	}
	if len(country) != 2 || !isASCIILetters(country) {
		return "", "", newsError(c, 400, fmt.Sprintf("Invalid country code %q - should be a 2-letter country code (ISO 3166-1 alpha-2), e.g. US", c.argString("country")))
	}
	base, _, _ := strings.Cut(lang, "-")
	if len(base) != 2 || !isASCIILetters(base) {
		return "", "", newsError(c, 400, fmt.Sprintf("Invalid lang %q - should be a 2-letter language code (ISO 639-1), e.g. en", c.argString("lang")))
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

// editionOrder sorts an edition's articles: the edition country's own
// outlets first, newest first within each.
func editionOrder(list []*newsArticle, country string) {
	sort.SliceStable(list, func(i, j int) bool {
		ci, cj := list[i].Country == country, list[j].Country == country
		if ci != cj {
			return ci
		}
		return list[i].published.After(list[j].published)
	})
}

// visible reports whether an article was published by the call's clock.
func visible(a *newsArticle, now time.Time) bool { return !a.published.After(now) }

func newsLimit(c *Call, def int) (int, error) {
	if !c.has("limit") {
		return def, nil
	}
	f, ok := c.argFloat("limit")
	if !ok || f < 1 || f > 500 || f != math.Trunc(f) {
		return 0, newsError(c, 400, fmt.Sprintf("Invalid limit %q - should be an integer between 1 and 500", c.argString("limit")))
	}
	return int(f), nil
}

var newsWindows = map[string]time.Duration{"anytime": 0, "1h": time.Hour, "1d": 24 * time.Hour, "7d": 7 * 24 * time.Hour, "1y": 365 * 24 * time.Hour}

func handleNewsSearch(_ context.Context, w *World, c *Call) (any, error) {
	nc := w.news
	query := c.argString("query")
	if query == "" {
		return nil, newsError(c, 400, "Missing query parameter - query")
	}
	country, lang, err := newsEdition(c)
	if err != nil {
		return nil, err
	}
	window := strings.ToLower(c.argString("time_published"))
	if window == "" {
		window = "anytime"
	}
	span, ok := newsWindows[window]
	if !ok {
		return nil, newsError(c, 400, fmt.Sprintf("Invalid time_published %q - should be one of: anytime, 1h, 1d, 7d, 1y", c.argString("time_published")))
	}
	limit, err := newsLimit(c, 10)
	if err != nil {
		return nil, err
	}
	qt := newsTokens(query)
	type scored struct {
		a     *newsArticle
		score float64
	}
	var hits []scored
	n := float64(len(nc.articles))
	for _, a := range nc.articles {
		if a.Lang != lang || !visible(a, c.Now) || (span > 0 && c.Now.Sub(a.published) > span) {
			continue
		}
		s, matched := 0.0, 0
		for _, t := range qt {
			if tf := a.tokens[t]; tf > 0 {
				idf := math.Log(1 + n/float64(nc.df[t]))
				s += idf * tf / (tf + 1.2)
				matched++
			}
		}
		if matched == 0 {
			continue
		}
		// Articles matching every query word outrank partial matches;
		// the edition's own outlets get a small lift.
		s *= float64(matched) / float64(len(qt))
		if a.Country == country {
			s *= 1.1
		}
		hits = append(hits, scored{a, s})
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].a.published.After(hits[j].a.published)
	})
	data := []*newsArticle{}
	for i := 0; i < len(hits) && i < limit; i++ {
		data = append(data, hits[i].a)
	}
	return newsOK(c, map[string]any{"query": query, "country": strings.ToLower(country), "lang": lang, "time_published": window, "limit": limit}, data), nil
}

func handleTopHeadlines(_ context.Context, w *World, c *Call) (any, error) {
	nc := w.news
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
	var list []*newsArticle
	for _, a := range nc.articles {
		if a.Lang == lang && visible(a, c.Now) {
			list = append(list, a)
		}
	}
	editionOrder(list, country)
	seen := map[string]bool{}
	data := []*newsArticle{}
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

func handleTopicHeadlines(_ context.Context, w *World, c *Call) (any, error) {
	nc := w.news
	topic := strings.ToUpper(c.argString("topic"))
	if topic == "" {
		return nil, newsError(c, 400, "Missing topic parameter - topic")
	}
	if !dContains(newsTopics, topic) {
		return nil, newsError(c, 400, fmt.Sprintf("Invalid topic %q - should be one of: %s, or a topic id", c.argString("topic"), strings.Join(newsTopics, ", ")))
	}
	country, lang, err := newsEdition(c)
	if err != nil {
		return nil, err
	}
	limit, err := newsLimit(c, 20)
	if err != nil {
		return nil, err
	}
	var list []*newsArticle
	for _, a := range nc.articles {
		if a.Topic == topic && a.Lang == lang && visible(a, c.Now) {
			list = append(list, a)
		}
	}
	editionOrder(list, country)
	if len(list) > limit {
		list = list[:limit]
	}
	data := append([]*newsArticle{}, list...)
	return newsOK(c, map[string]any{"topic": topic, "country": strings.ToLower(country), "lang": lang, "limit": limit}, data), nil
}

func handleFullStoryCoverage(_ context.Context, w *World, c *Call) (any, error) {
	nc := w.news
	id := c.argString("story_id")
	if id == "" {
		return nil, newsError(c, 400, "Missing story parameter - story_id")
	}
	sortBy := strings.ToUpper(c.argString("sort"))
	if sortBy == "" {
		sortBy = "RELEVANCE"
	}
	if sortBy != "RELEVANCE" && sortBy != "DATE" {
		return nil, newsError(c, 400, fmt.Sprintf("Invalid sort %q - should be one of: RELEVANCE, DATE", c.argString("sort")))
	}
	arts, ok := nc.stories[id]
	if !ok {
		return nil, newsError(c, 400, fmt.Sprintf("Invalid story id %q - get story ids from the search, top-headlines or topic-headlines endpoints (story_id field)", id))
	}
	data := []*newsArticle{}
	for _, a := range arts {
		if visible(a, c.Now) {
			data = append(data, a)
		}
	}
	if sortBy == "DATE" {
		sort.SliceStable(data, func(i, j int) bool { return data[i].published.After(data[j].published) })
	}
	return newsOK(c, map[string]any{"story_id": id, "sort": sortBy}, data), nil
}
