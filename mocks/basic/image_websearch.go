package basic

import (
	"context"
	"github.com/understudy/understudy/sandbox"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
)

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
