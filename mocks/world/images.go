package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/understudy/understudy/internal/imagegen"
)

// The image world: the catalog of image files (images.json, drawn by
// internal/imagegen) and the web sites the screenshot API can capture
// (websites.json).

// ImageHost serves the catalog and every image the image APIs mint.
const ImageHost = "images.understudy.test"

// Images is the image part: the image catalog and the capturable web sites.
type Images struct {
	catalog *imagegen.Catalog
	ByName  map[string]*imagegen.Image
	Files   map[string][]byte                      // encoded image by catalog name
	masks   map[string]func() (*image.Gray, error) // foreground masks by catalog name, decoded on first use
	sites   []*Website
	ByHost  map[string]*Website
	Down    map[string]bool // hosts that do not answer
	Labels  []string
	docs    []searchDoc // lower-cased search fields, by catalog index
}

// Mask returns the foreground mask of the named catalog image, nil when
// it has none. It is decoded on the first call for that image.
func (iw *Images) Mask(name string) (*image.Gray, error) {
	if m := iw.masks[name]; m != nil {
		return m()
	}
	return nil, nil
}

// decodeMask decodes a greyscale PNG mask.
func decodeMask(name string, b []byte) (*image.Gray, error) {
	m, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("images.json: mask of %s: %w", name, err)
	}
	g, ok := m.(*image.Gray)
	if !ok {
		return nil, fmt.Errorf("images.json: mask of %s is %T, want greyscale", name, m)
	}
	return g, nil
}

type searchDoc struct{ title, tags, desc string }

// Website is one capturable site of websites.json.
type Website struct {
	URL       string        `json:"url"`
	Title     string        `json:"title"`
	Language  string        `json:"language"`
	Theme     string        `json:"theme"`
	HeroImage string        `json:"hero_image"`
	Lines     []WebsiteLine `json:"lines"`

	ThemeColor color.RGBA `json:"-"`
	Host       string     `json:"-"`
}

// WebsiteLine is one line of text on a web site, with its translations.
type WebsiteLine struct {
	Text         string            `json:"text"`
	Translations map[string]string `json:"translations,omitempty"`
}

func loadImageWorld(fsys fs.FS, _ *World) (*Images, error) {
	iw := &Images{ByName: map[string]*imagegen.Image{}, Files: map[string][]byte{}, masks: map[string]func() (*image.Gray, error){}, ByHost: map[string]*Website{}, Down: map[string]bool{}}
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
		iw.Files[im.Name] = b
		iw.ByName[im.Name] = im
		if im.Foreground != nil {
			mb, err := fs.ReadFile(fsys, im.Foreground.File)
			if err != nil {
				return nil, fmt.Errorf("images.json: mask of %s: %w", im.Name, err)
			}
			// Only the header is read here: decoding every mask took a
			// fifth of the world's load, and few calls ever need one.
			cfg, _, err := image.DecodeConfig(bytes.NewReader(mb))
			if err != nil {
				return nil, fmt.Errorf("images.json: mask of %s: %w", im.Name, err)
			}
			if cfg.ColorModel != color.GrayModel {
				return nil, fmt.Errorf("images.json: mask of %s is not 8-bit greyscale", im.Name)
			}
			name := im.Name
			iw.masks[name] = sync.OnceValues(func() (*image.Gray, error) { return decodeMask(name, mb) })
		}
		for _, o := range im.Objects {
			labels[o.Label] = true
		}
		iw.docs = append(iw.docs, searchDoc{strings.ToLower(im.Title), strings.ToLower(strings.Join(im.Tags, " | ")), strings.ToLower(im.Description)})
	}
	for l := range labels {
		iw.Labels = append(iw.Labels, l)
	}
	sort.Strings(iw.Labels)

	var sites struct {
		Sites       []*Website `json:"sites"`
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
		s.Host = SiteHost(u.Host)
		if s.HeroImage != "" && iw.ByName[s.HeroImage] == nil {
			return nil, fmt.Errorf("websites.json: %s: unknown hero_image %q", s.URL, s.HeroImage)
		}
		c, err := parseHexColor(s.Theme)
		if err != nil {
			return nil, fmt.Errorf("websites.json: %s: %w", s.URL, err)
		}
		s.ThemeColor = c
		iw.sites = append(iw.sites, s)
		iw.ByHost[s.Host] = s
	}
	for _, d := range sites.Unreachable {
		u, err := url.Parse(d)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("websites.json: bad unreachable url %q", d)
		}
		iw.Down[SiteHost(u.Host)] = true
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

// SiteHost is the host a site is known by: lower case, without "www.".
func SiteHost(h string) string {
	h = strings.ToLower(h)
	if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.Contains(h[i:], "]") {
		h = h[:i]
	}
	return strings.TrimPrefix(h, "www.")
}

// SearchImages ranks catalog images for a query: a term in the title counts
// 3, in a tag 2, in the description 1; ties keep catalog order.
func (iw *Images) SearchImages(q string) []*imagegen.Image {
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

// MimeTypes maps the image formats the stand-ins write to their MIME types.
var MimeTypes = map[string]string{"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif"}

// ThumbURL is the URL of a catalog image's thumbnail.
func ThumbURL(name string) string { return "https://" + ImageHost + "/thumbs/" + name + ".jpg" }
