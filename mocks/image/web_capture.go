package image

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/understudy/understudy/internal/imagegen"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-in for web_capture (website-screenshot6.p.rapidapi.com): a rendered
// screenshot of one of the world's web sites, minted as an image the other
// image APIs can fetch.

// maxPageURLLen bounds the page address a screenshot id carries.
const maxPageURLLen = 512

func captureError(status int, msg string) error {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"status": "error", "message": msg}}
}

func takeScreenshot(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	raw := c.ArgString("url")
	target := raw
	if !strings.Contains(target, "://") {
		target = "https://" + target // the service assumes https, like a browser's address bar
	}
	u, err := url.Parse(target)
	if raw == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !strings.Contains(u.Host, ".") {
		return nil, captureError(400, fmt.Sprintf("Invalid URL: %q. Provide a full address such as https://www.example.com", raw))
	}
	width := c.ArgInt("width", 1280)
	height := c.ArgInt("height", 720)
	if width < imagegen.MinPageWidth || width > imagegen.MaxPageWidth {
		return nil, captureError(400, fmt.Sprintf("width must be between %d and %d", imagegen.MinPageWidth, imagegen.MaxPageWidth))
	}
	if height < imagegen.MinPageHeight || height > imagegen.MaxPageHeight {
		return nil, captureError(400, fmt.Sprintf("height must be between %d and %d", imagegen.MinPageHeight, imagegen.MaxPageHeight))
	}
	full := c.ArgBool("fullpage", false)
	host := world.SiteHost(u.Host)
	site := iw.ByHost[host]
	if site == nil {
		reason := "net::ERR_NAME_NOT_RESOLVED"
		if iw.Down[host] {
			reason = "net::ERR_CONNECTION_TIMED_OUT"
		}
		return nil, captureError(422, fmt.Sprintf("Could not load the page: %s at %s", reason, target))
	}
	page := u.String()
	if len(page) > maxPageURLLen {
		return nil, captureError(400, fmt.Sprintf("Invalid URL: the address is longer than %d characters", maxPageURLLen))
	}
	p, id := mintScreenshot(screenshotSource{host: host, width: width, height: height, full: full, pageURL: page})
	return screenshotResponse(iw, id, p, page, site, full, c.Now)
}

func screenshotResponse(iw *world.Images, id, p, pageURL string, site *world.Website, full bool, now time.Time) (any, error) {
	rec, err := fetch(iw, mintedURL(p))
	if err != nil {
		return nil, err
	}
	b := rec.Img.Bounds()
	return map[string]any{"status": "success", "data": map[string]any{
		"screenshot_id": id,
		"image_url":     rec.URL,
		"url":           pageURL,
		"title":         site.Title,
		"width":         b.Dx(),
		"height":        b.Dy(),
		"fullpage":      full,
		"format":        "png",
		"size_bytes":    len(rec.Bytes),
		"captured_at":   now.UTC().Format(time.RFC3339),
	}}, nil
}

func getScreenshot(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	id := strings.TrimSpace(c.ArgString("screenshot_id"))
	// The id is the screenshot's recipe; any process can render it again.
	key := id
	if newID, ok := resolveLegacy("screenshots", id); ok {
		key = newID
	}
	s, ok := decodeImageID(key)
	var src screenshotSource
	if ok && len(s.Steps) == 0 {
		src, ok = parseScreenshotSource(s.Source)
	}
	if !ok || len(s.Steps) != 0 || iw.ByHost[src.host] == nil {
		return nil, captureError(404, fmt.Sprintf("Screenshot not found: no screenshot with id '%s'. Take one with take_screenshot first.", id))
	}
	p, _ := mintScreenshot(src)
	return screenshotResponse(iw, id, p, src.pageURL, iw.ByHost[src.host], src.full, c.Now)
}
