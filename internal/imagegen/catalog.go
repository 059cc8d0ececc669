package imagegen

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"sort"
	"strings"
)

// BaseURL is where the catalog's images are served.
const BaseURL = "https://images.understudy.test/"

// TargetLanguages are the languages every catalog text line is translated into.
var TargetLanguages = []string{"de", "en", "es", "fr", "it", "pt"}

// Catalog is images.json: the images and the facts about them.
type Catalog struct {
	BaseURL string  `json:"base_url"`
	Images  []Image `json:"images"`
}

// Image is one catalog image and what is in it.
type Image struct {
	Name        string   `json:"name"`
	URL         string   `json:"url"`
	File        string   `json:"file"` // relative to the world directory
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	Format      string   `json:"format"` // "png" or "jpeg"
	Width       int      `json:"width"`
	Height      int      `json:"height"`
	Bytes       int      `json:"bytes"`
	SourcePage  string   `json:"source_page"`
	Objects     []Object `json:"objects"`
	Text        *Text    `json:"text,omitempty"`
	Foreground  *Mask    `json:"foreground,omitempty"`
}

// Object is one detected object: its label, the detector's confidence and
// its bounding box in pixels.
type Object struct {
	Label      string  `json:"label"`
	Confidence float64 `json:"confidence"`
	Box        Box     `json:"box"`
}

// Text is the text drawn in an image.
type Text struct {
	Language string `json:"language"` // ISO 639-1
	FullText string `json:"full_text"`
	Lines    []Line `json:"lines"`
}

// Line is one line of text with its words and its translations.
type Line struct {
	Text         string            `json:"text"`
	Language     string            `json:"language"`
	Box          Box               `json:"box"`
	Words        []Word            `json:"words"`
	Translations map[string]string `json:"translations"`
}

// Mask locates the foreground: the file of its mask (white is foreground),
// its bounding box, and the fraction of the image it covers.
type Mask struct {
	File     string  `json:"file"`
	Box      Box     `json:"box"`
	Coverage float64 `json:"coverage"`
}

// Ext is the file extension of a format.
func Ext(format string) string {
	if format == "jpeg" {
		return "jpg"
	}
	return format
}

// Build draws every scene and returns the catalog and the files to write,
// keyed by path relative to the world directory ("images.json",
// "images/<name>.<ext>", "images/masks/<name>.png").
func Build() (*Catalog, map[string][]byte, error) {
	cat := &Catalog{BaseURL: BaseURL}
	files := map[string][]byte{}
	seen := map[string]bool{}
	for _, s := range scenes {
		if seen[s.name] {
			return nil, nil, fmt.Errorf("imagegen: scene %q defined twice", s.name)
		}
		seen[s.name] = true
		img, err := render(s, files)
		if err != nil {
			return nil, nil, err
		}
		cat.Images = append(cat.Images, img)
	}
	data, err := json.MarshalIndent(cat, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	files["images.json"] = append(data, '\n')
	return cat, files, nil
}

// render draws one scene, adds its image and mask to files and returns its facts.
func render(s scene, files map[string][]byte) (Image, error) {
	p := newPainter(s.w, s.h)
	s.bg(p)
	out := Image{
		Name: s.name, URL: BaseURL + s.name + "." + Ext(s.format), File: "images/" + s.name + "." + Ext(s.format),
		Title: s.title, Description: s.desc, Tags: s.tags, Format: s.format, Width: s.w, Height: s.h, SourcePage: s.page,
		Objects: []Object{},
	}
	for i, ob := range s.objs {
		d, ok := drawers[ob.kind]
		if !ok {
			return out, fmt.Errorf("imagegen: scene %s: no drawer for %q", s.name, ob.kind)
		}
		p.fg, p.bounds = true, image.Rectangle{}
		d(p, ob.box, ob.col)
		p.fg = false
		if p.bounds.Empty() {
			return out, fmt.Errorf("imagegen: scene %s: object %d (%s) drew nothing inside the image", s.name, i, ob.kind)
		}
		label := ob.label
		if label == "" {
			label = ob.kind
		}
		out.Objects = append(out.Objects, Object{Label: label, Confidence: confidence(s.name, i), Box: BoxOf(p.bounds)})
	}
	if len(s.lines) > 0 {
		txt := &Text{Language: s.lang}
		var full []string
		for _, l := range s.lines {
			x := l.in.X + (l.in.Width-TextWidth(l.text, l.scale))/2
			words, err := DrawText(p.img, x, l.y, l.scale, l.text, l.col)
			if err != nil {
				return out, fmt.Errorf("imagegen: scene %s: %w", s.name, err)
			}
			line := Line{Text: l.text, Language: s.lang, Words: words, Translations: map[string]string{}}
			r := image.Rectangle{}
			for _, w := range words {
				r = r.Union(w.Box.Rect())
			}
			if !r.In(p.img.Rect) {
				return out, fmt.Errorf("imagegen: scene %s: line %q (%v) does not fit in the image", s.name, l.text, r)
			}
			line.Box = BoxOf(r)
			for _, lang := range TargetLanguages {
				switch {
				case l.keep || lang == s.lang:
					line.Translations[lang] = l.text
				case l.tr[lang] != "":
					line.Translations[lang] = l.tr[lang]
				default:
					return out, fmt.Errorf("imagegen: scene %s: line %q has no %s translation", s.name, l.text, lang)
				}
			}
			txt.Lines = append(txt.Lines, line)
			full = append(full, l.text)
		}
		txt.FullText = strings.Join(full, "\n")
		out.Text = txt
	}
	var enc bytes.Buffer
	switch s.format {
	case "png":
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&enc, p.img); err != nil {
			return out, err
		}
	case "jpeg":
		if err := jpeg.Encode(&enc, p.img, &jpeg.Options{Quality: 88}); err != nil {
			return out, err
		}
	default:
		return out, fmt.Errorf("imagegen: scene %s: unknown format %q", s.name, s.format)
	}
	files[out.File] = enc.Bytes()
	out.Bytes = enc.Len()
	if len(s.objs) > 0 {
		gray, box, cov := maskImage(p.mask)
		var m bytes.Buffer
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&m, gray); err != nil {
			return out, err
		}
		f := "images/masks/" + s.name + ".png"
		files[f] = m.Bytes()
		out.Foreground = &Mask{File: f, Box: box, Coverage: cov}
	}
	return out, nil
}

// maskImage turns the drawn alpha mask into a grey image and measures it.
func maskImage(a *image.Alpha) (*image.Gray, Box, float64) {
	g := image.NewGray(a.Rect)
	r := image.Rectangle{}
	n := 0
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		for x := a.Rect.Min.X; x < a.Rect.Max.X; x++ {
			if a.AlphaAt(x, y).A > 0 {
				g.SetGray(x, y, color.Gray{Y: 0xff})
				r = r.Union(image.Rect(x, y, x+1, y+1))
				n++
			}
		}
	}
	cov := float64(n) / float64(a.Rect.Dx()*a.Rect.Dy())
	return g, BoxOf(r), math.Round(cov*1000) / 1000
}

// confidence is the detector's score for object i of an image: fixed per
// image and object, between 0.80 and 0.99.
func confidence(name string, i int) float64 {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s#%d", name, i)))
	v := binary.BigEndian.Uint64(h[:8]) % 190
	return math.Round((0.80+float64(v)/1000)*1000) / 1000
}

// Names returns the scene names in catalog order.
func Names() []string {
	out := make([]string, len(scenes))
	for i, s := range scenes {
		out[i] = s.name
	}
	return out
}

// SortedTags returns every tag used in the catalog, sorted.
func SortedTags() []string {
	set := map[string]bool{}
	for _, s := range scenes {
		for _, t := range s.tags {
			set[t] = true
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
