package world

import (
	"encoding/json"
	"fmt"
	"github.com/understudy/understudy/internal/fold"
	"io/fs"
	"sort"
	"strings"
	"time"
	"unicode"
)

// Topic is one related topic of an article.
type Topic struct {
	TopicID   string `json:"topic_id"`
	TopicName string `json:"topic_name"`
}

// Article is an article as the real API returns it; Topic, Country and
// Lang are the corpus's own labels and are not sent.
type Article struct {
	Title                string   `json:"title"`
	Link                 string   `json:"link"`
	Snippet              string   `json:"snippet"`
	PhotoURL             string   `json:"photo_url"`
	ThumbnailURL         string   `json:"thumbnail_url"`
	PublishedDatetimeUTC string   `json:"published_datetime_utc"`
	Authors              []string `json:"authors"`
	SourceURL            string   `json:"source_url"`
	SourceName           string   `json:"source_name"`
	SourceLogoURL        string   `json:"source_logo_url"`
	SourceFaviconURL     string   `json:"source_favicon_url"`
	SourcePublicationID  string   `json:"source_publication_id"`
	RelatedTopics        []Topic  `json:"related_topics"`
	StoryID              string   `json:"story_id"`

	Topic   string `json:"-"`
	Country string `json:"-"`
	Lang    string `json:"-"`

	Published time.Time          `json:"-"`
	Tokens    map[string]float64 `json:"-"` // token → weight (title counts double)
}

// News is the news part: the corpus of news.json, indexed for search.
type News struct {
	Articles []*Article // newest first
	Stories  map[string][]*Article
	DocFreq  map[string]int
}

func loadNews(fsys fs.FS, _ *World) (*News, error) {
	raw, err := fs.ReadFile(fsys, "news.json")
	if err != nil {
		return nil, err
	}
	var doc struct {
		Articles []struct {
			Article
			Topic   string `json:"topic"`
			Country string `json:"country"`
			Lang    string `json:"lang"`
		} `json:"articles"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("news.json: %w", err)
	}
	nc := &News{Stories: map[string][]*Article{}, DocFreq: map[string]int{}}
	for i := range doc.Articles {
		d := doc.Articles[i]
		a := d.Article
		a.Topic, a.Country, a.Lang = d.Topic, d.Country, d.Lang
		a.Published, err = time.Parse(time.RFC3339, a.PublishedDatetimeUTC)
		if err != nil {
			return nil, fmt.Errorf("news.json: article %d: %w", i, err)
		}
		if a.StoryID == "" || a.Title == "" {
			return nil, fmt.Errorf("news.json: article %d needs a title and a story_id", i)
		}
		a.Tokens = map[string]float64{}
		for _, t := range NewsTokens(a.Title) {
			a.Tokens[t] += 2
		}
		for _, t := range NewsTokens(a.Snippet) {
			a.Tokens[t]++
		}
		for t := range a.Tokens {
			nc.DocFreq[t]++
		}
		art := a
		nc.Articles = append(nc.Articles, &art)
		nc.Stories[a.StoryID] = append(nc.Stories[a.StoryID], &art)
	}
	sort.SliceStable(nc.Articles, func(i, j int) bool { return nc.Articles[i].Published.After(nc.Articles[j].Published) })
	return nc, nil
}

// NewsStopwords are the words news search ignores, in the corpus languages.
var NewsStopwords = map[string]bool{"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "in": true, "on": true, "at": true, "to": true, "for": true, "as": true, "is": true, "by": true, "with": true, "news": true, "latest": true, "de": true, "la": true, "le": true, "el": true, "da": true, "do": true, "der": true, "die": true, "und": true, "les": true, "des": true, "en": true, "em": true, "o": true}

// NewsTokens lowercases, folds common accents, splits on anything that is
// not a letter or digit, drops stop words and a plural "s", and cuts runs of
// CJK characters into bigrams (they have no spaces to split on).
func NewsTokens(s string) []string {
	var out []string
	var word []rune
	var cjk []rune
	flushWord := func() {
		if len(word) > 0 {
			w := string(word)
			if n := len(w); n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
				w = w[:n-1]
			}
			if !NewsStopwords[w] {
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
			if base, ok := fold.Latin(r); ok {
				word = append(word, []rune(base)...)
			} else {
				word = append(word, r)
			}
		default:
			flushWord()
			flushCJK()
		}
	}
	flushWord()
	flushCJK()
	return out
}
