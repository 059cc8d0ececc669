package basic

import (
	"context"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-ins for web_search (google-search72.p.rapidapi.com): web, video
// and news search over the world's corpus with token-match ranking. The
// image_search stand-in lives with the image catalog.

func gsMissingQ() *sandbox.Rejection {
	return &sandbox.Rejection{Status: 400, Body: map[string]any{"status": "error", "message": "Missing required parameter: q"}}
}

func gsNum(c *standin.Call) int { return max(1, min(c.ArgInt("num", 10), 20)) }

// gsBolder returns a function that wraps the query's words in <b> as
// Google's html fields do.
func gsBolder(query string) func(string) string {
	var terms []string
	for _, t := range strings.Fields(query) {
		t = strings.Trim(t, `"'.,;:!?()`)
		if len(t) >= 2 && !world.WebStopWords[strings.ToLower(t)] {
			terms = append(terms, regexp.QuoteMeta(t))
		}
	}
	none := func(s string) string { return s }
	if len(terms) == 0 {
		return none
	}
	sort.Strings(terms)
	re, err := regexp.Compile(`(?i)\b(` + strings.Join(terms, "|") + `)\b`)
	if err != nil {
		return none
	}
	return func(s string) string { return re.ReplaceAllString(s, "<b>$1</b>") }
}

func gsDisplayLink(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Host
}

// gsLangPreferred moves documents in the lr language ("lang_pt", "pt-PT",
// "pt") first, keeping the ranking otherwise.
func gsLangPreferred(docs []*world.WebDoc, lr string) []*world.WebDoc {
	lang := gsLang(lr)
	if lang == "" {
		return docs
	}
	out := make([]*world.WebDoc, 0, len(docs))
	var rest []*world.WebDoc
	for _, d := range docs {
		if d.Lang == lang {
			out = append(out, d)
		} else {
			rest = append(rest, d)
		}
	}
	return append(out, rest...)
}

// gsLangOnly keeps the documents in the lr language, as Google News's
// language restrict does.
func gsLangOnly(docs []*world.WebDoc, lr string) []*world.WebDoc {
	lang := gsLang(lr)
	if lang == "" {
		return docs
	}
	var out []*world.WebDoc
	for _, d := range docs {
		if d.Lang == lang {
			out = append(out, d)
		}
	}
	return out
}

// gsLang is the language an lr value names: "lang_pt", "pt-PT", "pt".
func gsLang(lr string) string {
	lr = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(lr), "lang_"))
	lang, _, _ := strings.Cut(lr, "-")
	return lang
}

func handleWebSearch(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	q := c.ArgString("q")
	if q == "" {
		return nil, gsMissingQ()
	}
	hits := gsLangPreferred(w.Basic.PageIndex.Rank(q), c.ArgString("lr"))
	items := []any{}
	bold := gsBolder(q)
	for _, d := range hits[:min(len(hits), gsNum(c))] {
		items = append(items, map[string]any{
			"title":       d.Title,
			"htmlTitle":   bold(d.Title),
			"link":        d.URL,
			"displayLink": gsDisplayLink(d.URL),
			"snippet":     d.Snippet,
			"htmlSnippet": bold(d.Snippet),
		})
	}
	return map[string]any{"status": "success", "query": q, "total_results": len(hits), "items": items}, nil
}

func gsYouTubeID(u string) string {
	if p, err := url.Parse(u); err == nil {
		if v := p.Query().Get("v"); v != "" {
			return v
		}
	}
	return ""
}

func handleVideoSearch(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	q := c.ArgString("q")
	if q == "" {
		return nil, gsMissingQ()
	}
	hits := w.Basic.VideoIndex.Rank(q)
	items := []any{}
	for _, d := range hits[:min(len(hits), gsNum(c))] {
		items = append(items, map[string]any{
			"title":     d.Title,
			"link":      d.URL,
			"snippet":   d.Snippet,
			"channel":   d.Channel,
			"duration":  d.Duration,
			"views":     d.Views,
			"published": d.Published,
			"thumbnail": "https://i.ytimg.com/vi/" + gsYouTubeID(d.URL) + "/hqdefault.jpg",
		})
	}
	return map[string]any{"status": "success", "query": q, "total_results": len(hits), "items": items}, nil
}

func handleNewsSearchGoogle(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	q := c.ArgString("q")
	if q == "" {
		return nil, gsMissingQ()
	}
	// Only what has been published by the sandbox's now.
	var hits []*world.WebDoc
	for _, d := range w.Basic.NewsIndex.Rank(q) {
		if t, err := time.Parse(time.RFC3339, d.Published); err == nil && !t.After(c.Now) {
			hits = append(hits, d)
		}
	}
	hits = gsLangOnly(hits, c.ArgString("lr"))
	items := []any{}
	for _, d := range hits[:min(len(hits), gsNum(c))] {
		items = append(items, map[string]any{
			"title":       d.Title,
			"link":        d.URL,
			"snippet":     d.Snippet,
			"source":      d.Source,
			"displayLink": gsDisplayLink(d.URL),
			"published":   d.Published,
			"thumbnail":   d.Thumbnail,
		})
	}
	return map[string]any{"status": "success", "query": q, "total_results": len(hits), "items": items}, nil
}

// Stand-in for web_search.image_search (google-search72.p.rapidapi.com): the
// catalog's images ranked for the query by title, tags and description.

func imageSearch(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	q := c.ArgString("q")
	if q == "" {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"status": "error", "message": "Missing required parameter: q"}}
	}
	num := c.ArgInt("num", 10)
	num = max(1, min(num, 20))
	hits := iw.SearchImages(q)
	items := []map[string]any{}
	for i, im := range hits {
		if i == num {
			break
		}
		items = append(items, map[string]any{
			"title":         im.Title,
			"url":           im.URL,
			"thumbnail":     world.ThumbURL(im.Name),
			"width":         im.Width,
			"height":        im.Height,
			"size_bytes":    im.Bytes,
			"mime_type":     world.MimeTypes[im.Format],
			"source_page":   im.SourcePage,
			"source_domain": domainOf(im.SourcePage),
			"description":   im.Description,
		})
	}
	return map[string]any{
		"status":        "success",
		"query":         q,
		"total_results": len(hits),
		"data":          items,
	}, nil
}

func domainOf(u string) string {
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	if i := strings.IndexByte(u, '/'); i >= 0 {
		u = u[:i]
	}
	return strings.TrimPrefix(u, "www.")
}
