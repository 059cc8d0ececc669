package image

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/understudy/understudy/internal/imagegen"
	"github.com/understudy/understudy/mocks/world"
)

// fetchError is a failure to fetch an image by URL; each API words it in
// its own error format.
type fetchError struct {
	URL      string
	Reason   string
	Status   int  // the upstream HTTP status the fetch got, 0 when none
	NotImage bool // the URL answered, but with a web page rather than an image
}

func (e *fetchError) Error() string {
	return fmt.Sprintf("could not fetch image %q: %s", e.URL, e.Reason)
}

// imageURL is a parsed URL on the image host.
type imageURL struct {
	raw  string
	path string // without the leading slash
}

// parseImageURL checks that s is an absolute http(s) URL and, when it is on
// the image host, returns its path; other hosts return a *fetchError that
// says why they cannot be fetched.
func parseImageURL(iw *world.Images, s string) (imageURL, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return imageURL{}, &fetchError{URL: s, Reason: "no image URL given"}
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return imageURL{}, &fetchError{URL: s, Reason: "not a valid http(s) URL"}
	}
	host := strings.ToLower(u.Hostname())
	if host != world.ImageHost {
		h := world.SiteHost(u.Host)
		switch {
		case iw.ByHost[h] != nil:
			return imageURL{}, &fetchError{URL: s, Reason: "the URL points to a web page (text/html), not an image", Status: 200, NotImage: true}
		case iw.Down[h]:
			return imageURL{}, &fetchError{URL: s, Reason: "connection timed out", Status: 504}
		}
		return imageURL{}, &fetchError{URL: s, Reason: "host not found", Status: 0}
	}
	return imageURL{raw: s, path: strings.TrimPrefix(path.Clean("/"+u.Path), "/")}, nil
}

// catalogImage finds a catalog image by the path "<name>.<ext>".
func catalogImage(iw *world.Images, p string) *imagegen.Image {
	ext := path.Ext(p)
	im := iw.ByName[strings.TrimSuffix(p, ext)]
	if im == nil {
		return nil
	}
	ext = strings.ToLower(strings.TrimPrefix(ext, "."))
	if ext == imagegen.Ext(im.Format) || (ext == "jpeg" && im.Format == "jpeg") {
		return im
	}
	return nil
}
