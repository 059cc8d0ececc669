package mocks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/understudy/understudy/internal/imagegen"
)

// The image world: the catalog of image files (images.json, drawn by
// internal/imagegen) and the web sites the screenshot API can capture
// (websites.json).

// imageHost serves the catalog and every image the image APIs mint.
const imageHost = "images.understudy.test"

type imageWorld struct {
	catalog *imagegen.Catalog
	byName  map[string]*imagegen.Image
	files   map[string][]byte      // encoded image by catalog name
	masks   map[string]*image.Gray // foreground masks by catalog name
	sites   []*website
	byHost  map[string]*website
	down    map[string]bool // hosts that do not answer
	labels  []string
	docs    []searchDoc // lower-cased search fields, by catalog index
}

type searchDoc struct{ title, tags, desc string }

// website is one capturable site of websites.json.
type website struct {
	URL       string        `json:"url"`
	Title     string        `json:"title"`
	Language  string        `json:"language"`
	Theme     string        `json:"theme"`
	HeroImage string        `json:"hero_image"`
	Lines     []websiteLine `json:"lines"`

	theme color.RGBA
	host  string
}

type websiteLine struct {
	Text         string            `json:"text"`
	Translations map[string]string `json:"translations,omitempty"`
}

func loadImageWorld(fsys fs.FS, _ *World) (*imageWorld, error) {
	iw := &imageWorld{byName: map[string]*imagegen.Image{}, files: map[string][]byte{}, masks: map[string]*image.Gray{}, byHost: map[string]*website{}, down: map[string]bool{}}
	data, err := fs.ReadFile(fsys, "images.json")
	if err != nil {
		return nil, fmt.Errorf("images.json: %w", err)
	}
	iw.catalog = &imagegen.Catalog{}
	if err := json.Unmarshal(data, iw.catalog); err != nil {
		return nil, fmt.Errorf("images.json: %w", err)
	}
	labels := map[string]bool{}
	for i := range iw.catalog.Images {
		im := &iw.catalog.Images[i]
		b, err := fs.ReadFile(fsys, im.File)
		if err != nil {
			return nil, fmt.Errorf("images.json: image %s: %w", im.Name, err)
		}
		iw.files[im.Name] = b
		iw.byName[im.Name] = im
		if im.Foreground != nil {
			mb, err := fs.ReadFile(fsys, im.Foreground.File)
			if err != nil {
				return nil, fmt.Errorf("images.json: mask of %s: %w", im.Name, err)
			}
			m, _, err := image.Decode(bytes.NewReader(mb))
			if err != nil {
				return nil, fmt.Errorf("images.json: mask of %s: %w", im.Name, err)
			}
			g, ok := m.(*image.Gray)
			if !ok {
				return nil, fmt.Errorf("images.json: mask of %s is %T, want greyscale", im.Name, m)
			}
			iw.masks[im.Name] = g
		}
		for _, o := range im.Objects {
			labels[o.Label] = true
		}
		iw.docs = append(iw.docs, searchDoc{strings.ToLower(im.Title), strings.ToLower(strings.Join(im.Tags, " | ")), strings.ToLower(im.Description)})
	}
	for l := range labels {
		iw.labels = append(iw.labels, l)
	}
	sort.Strings(iw.labels)

	var sites struct {
		Sites       []*website `json:"sites"`
		Unreachable []string   `json:"unreachable"`
	}
	data, err = fs.ReadFile(fsys, "websites.json")
	if err != nil {
		return nil, fmt.Errorf("websites.json: %w", err)
	}
	if err := json.Unmarshal(data, &sites); err != nil {
		return nil, fmt.Errorf("websites.json: %w", err)
	}
	for _, s := range sites.Sites {
		u, err := url.Parse(s.URL)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("websites.json: bad url %q", s.URL)
		}
		s.host = siteHost(u.Host)
		if s.HeroImage != "" && iw.byName[s.HeroImage] == nil {
			return nil, fmt.Errorf("websites.json: %s: unknown hero_image %q", s.URL, s.HeroImage)
		}
		c, err := parseHexColor(s.Theme)
		if err != nil {
			return nil, fmt.Errorf("websites.json: %s: %w", s.URL, err)
		}
		s.theme = c
		iw.sites = append(iw.sites, s)
		iw.byHost[s.host] = s
	}
	for _, d := range sites.Unreachable {
		u, err := url.Parse(d)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("websites.json: bad unreachable url %q", d)
		}
		iw.down[siteHost(u.Host)] = true
	}
	return iw, nil
}

func parseHexColor(s string) (color.RGBA, error) {
	if len(s) != 7 || s[0] != '#' {
		return color.RGBA{}, fmt.Errorf("theme %q is not #rrggbb", s)
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return color.RGBA{}, fmt.Errorf("theme %q is not #rrggbb", s)
	}
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}, nil
}

// siteHost is the host a site is known by: lower case, without "www.".
func siteHost(h string) string {
	h = strings.ToLower(h)
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		h = h[:i]
	}
	return strings.TrimPrefix(h, "www.")
}

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
func (iw *imageWorld) parseImageURL(s string) (imageURL, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return imageURL{}, &fetchError{URL: s, Reason: "no image URL given"}
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return imageURL{}, &fetchError{URL: s, Reason: "not a valid http(s) URL"}
	}
	host := strings.ToLower(u.Hostname())
	if host != imageHost {
		h := siteHost(u.Host)
		switch {
		case iw.byHost[h] != nil:
			return imageURL{}, &fetchError{URL: s, Reason: "the URL points to a web page (text/html), not an image", Status: 200, NotImage: true}
		case iw.down[h]:
			return imageURL{}, &fetchError{URL: s, Reason: "connection timed out", Status: 504}
		}
		return imageURL{}, &fetchError{URL: s, Reason: "host not found", Status: 0}
	}
	return imageURL{raw: s, path: strings.TrimPrefix(path.Clean("/"+u.Path), "/")}, nil
}

// catalogImage finds a catalog image by the path "<name>.<ext>".
func (iw *imageWorld) catalogImage(p string) *imagegen.Image {
	ext := path.Ext(p)
	im := iw.byName[strings.TrimSuffix(p, ext)]
	if im == nil {
		return nil
	}
	ext = strings.ToLower(strings.TrimPrefix(ext, "."))
	if ext == imagegen.Ext(im.Format) || (ext == "jpeg" && im.Format == "jpeg") {
		return im
	}
	return nil
}

// searchImages ranks catalog images for a query: a term in the title counts
// 3, in a tag 2, in the description 1; ties keep catalog order.
func (iw *imageWorld) searchImages(q string) []*imagegen.Image {
	terms := strings.Fields(strings.ToLower(q))
	type hit struct {
		im    *imagegen.Image
		score int
		order int
	}
	var hits []hit
	for i := range iw.catalog.Images {
		im := &iw.catalog.Images[i]
		title, tags, desc := iw.docs[i].title, iw.docs[i].tags, iw.docs[i].desc
		score := 0
		for _, t := range terms {
			t = strings.Trim(t, ".,;:!?\"'()")
			if len(t) < 2 || stopWords[t] {
				continue
			}
			if containsWord(title, t) {
				score += 3
			}
			if containsWord(tags, t) {
				score += 2
			}
			if containsWord(desc, t) {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{im, score, i})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].score > hits[b].score })
	out := make([]*imagegen.Image, len(hits))
	for i, h := range hits {
		out[i] = h.im
	}
	return out
}

var stopWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "in": true, "on": true, "and": true, "with": true, "for": true, "to": true, "at": true, "image": true, "images": true, "photo": true, "photos": true, "picture": true, "pictures": true}

// containsWord reports whether t occurs in s at the start of a word, so
// "cat" matches "cat" and "cats" but not "pharmacist".
func containsWord(s, t string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], t)
		if j < 0 {
			return false
		}
		k := i + j
		if k == 0 || !isWordByte(s[k-1]) {
			return true
		}
		i = k + 1
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 0x80
}
