package image

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
	"path"
	"sort"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/understudy/understudy/internal/imagegen"
	"github.com/understudy/understudy/mocks/world"
)

// imageRec is an image as the image APIs see it: its encoding, pixels and
// the facts about it (objects, text, foreground) in its own pixel space.
type imageRec struct {
	URL     string
	Path    string // canonical path on the image host
	Format  string // png, jpeg or gif
	Bytes   []byte
	Img     image.Image
	Objects []imagegen.Object
	Lines   []textLine
	Mask    *image.Gray // the known foreground, nil when not known
	Lang    string      // dominant language of the text, "" when none
}

// textLine is one line of text in an image, with translations when known.
type textLine struct {
	Text         string
	Language     string
	Box          imagegen.Box
	Words        []imagegen.Word
	Translations map[string]string
	// Block groups the lines one text wraps into on a page (0: the line
	// is a block of its own): translation takes a block as one text.
	Block int
}

// The rendered-image cache is process-wide and keyed by what fully
// determines an image (a catalog path or a recipe), so it only saves work:
// what a fetch returns never depends on what was fetched before. Cached
// records are shared and never modified; fetch hands out copies.
var imageCache = mustLRU[*imageRec](128)

func mustLRU[V any](n int) *lru.Cache[string, V] {
	c, err := lru.New[string, V](n)
	if err != nil {
		panic(err)
	}
	return c
}

// mintedURL is the public URL of a minted image path.
func mintedURL(p string) string { return "https://" + world.ImageHost + "/" + p }

// fetch resolves an image URL: a catalog image, a thumbnail, or an image
// minted by one of the image APIs. The record's URL is the URL as given and
// its Path the canonical path.
func fetch(iw *world.Images, raw string) (*imageRec, error) {
	u, err := parseImageURL(iw, raw)
	if err != nil {
		return nil, err
	}
	rec, err := fetchPath(iw, u.path)
	if err != nil {
		var fe *fetchError
		if errors.As(err, &fe) && fe.URL == "" {
			fe.URL = raw
		}
		return nil, err
	}
	if catalogImage(iw, u.path) == nil {
		out := *rec
		out.URL = u.raw
		rec = &out
	}
	return rec, nil
}

// imageNotFound is the fetch error of a path nothing is served at.
func imageNotFound() error { return &fetchError{Reason: "404 Not Found", Status: 404} }

// fetchPath resolves a canonical image path.
func fetchPath(iw *world.Images, p string) (*imageRec, error) {
	if im := catalogImage(iw, p); im != nil {
		return catalogRec(iw, im)
	}
	if strings.HasPrefix(p, "thumbs/") {
		return thumbRec(iw, p)
	}
	s, ok := specOfMinted(p)
	if !ok {
		return nil, imageNotFound()
	}
	rec, err := cook(iw, s)
	if err != nil {
		return nil, err
	}
	if path.Ext(p) != "."+imagegen.Ext(rec.Format) {
		return nil, imageNotFound()
	}
	return rec, nil
}

// thumbRec makes a catalog image's 200-pixel JPEG thumbnail.
func thumbRec(iw *world.Images, p string) (*imageRec, error) {
	if rec, ok := imageCache.Get(p); ok {
		return rec, nil
	}
	name := strings.TrimSuffix(strings.TrimPrefix(p, "thumbs/"), ".jpg")
	im := iw.ByName[name]
	if im == nil || !strings.HasSuffix(p, ".jpg") {
		return nil, imageNotFound()
	}
	src, err := catalogRec(iw, im)
	if err != nil {
		return nil, err
	}
	w, h := thumbSize(im.Width, im.Height)
	rec, err := resizeRec(src, w, h)
	if err != nil {
		return nil, err
	}
	if rec, err = reencode(rec, "jpeg", 80); err != nil {
		return nil, err
	}
	rec.URL, rec.Path = mintedURL(p), p
	imageCache.Add(p, rec)
	return rec, nil
}

// thumbSize fits an image into 200×200, keeping its aspect ratio.
func thumbSize(w, h int) (int, int) {
	if w >= h {
		return 200, max(1, h*200/w)
	}
	return max(1, w*200/h), 200
}

// catalogRec decodes a catalog image with its facts.
func catalogRec(iw *world.Images, im *imagegen.Image) (*imageRec, error) {
	key := "catalog/" + im.Name
	if rec, ok := imageCache.Get(key); ok {
		return rec, nil
	}
	b := iw.Files[im.Name]
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("catalog image %s: %w", im.Name, err)
	}
	mask, err := iw.Mask(im.Name)
	if err != nil {
		return nil, err
	}
	rec := &imageRec{URL: im.URL, Path: strings.TrimPrefix(im.URL, "https://"+world.ImageHost+"/"), Format: im.Format, Bytes: b, Img: img, Objects: im.Objects, Mask: mask}
	if im.Text != nil {
		rec.Lang = im.Text.Language
		for _, l := range im.Text.Lines {
			rec.Lines = append(rec.Lines, textLine{Text: l.Text, Language: l.Language, Box: l.Box, Words: l.Words, Translations: l.Translations})
		}
	}
	imageCache.Add(key, rec)
	return rec, nil
}

// cook makes the image a recipe describes: the source, then each step.
func cook(iw *world.Images, s imageSpec) (*imageRec, error) {
	key := "recipe/" + s.text()
	if rec, ok := imageCache.Get(key); ok {
		return rec, nil
	}
	var rec *imageRec
	var err error
	if len(s.Steps) == 0 {
		src, ok := parseScreenshotSource(s.Source)
		site := iw.ByHost[src.host]
		if !ok || site == nil {
			return nil, imageNotFound()
		}
		rec, err = screenshot(iw, site, src.width, src.height, src.full)
	} else {
		var in *imageRec
		if ps, ok := s.parent(); ok {
			in, err = cook(iw, ps)
		} else {
			in, err = fetchPath(iw, strings.TrimPrefix(s.Source, "c "))
		}
		if err != nil {
			return nil, err
		}
		st, _ := parseStep(s.Steps[len(s.Steps)-1])
		switch st.op {
		case "resize":
			rec, err = resizeRec(in, st.width, st.height)
		case "compress":
			rec, err = compressRec(in, st.quality)
		case "convert":
			rec, err = reencode(in, st.format, st.quality)
		default:
			rec, err = removeBackground(in)
		}
	}
	if err != nil {
		return nil, err
	}
	rec.Path = mintedPath(s, rec.Format)
	rec.URL = mintedURL(rec.Path)
	imageCache.Add(key, rec)
	return rec, nil
}

// encodeImage writes img in format; quality applies to JPEG.
func encodeImage(img image.Image, format string, quality int) ([]byte, error) {
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "jpeg":
		if quality <= 0 {
			quality = 90
		}
		err = jpeg.Encode(&b, opaque(img), &jpeg.Options{Quality: quality})
	case "gif":
		err = gif.Encode(&b, img, &gif.Options{NumColors: 256})
	default:
		return nil, fmt.Errorf("unsupported output format %q", format)
	}
	return b.Bytes(), err
}

// opaque flattens transparency onto white, as converters do for JPEG.
func opaque(img image.Image) image.Image {
	if !hasAlpha(img) {
		return img
	}
	return imagegen.Flatten(img, color.White)
}

// hasAlpha reports whether any pixel of img is not fully opaque.
func hasAlpha(img image.Image) bool {
	switch m := img.(type) {
	case *image.YCbCr, *image.Gray:
		return false
	case *image.NRGBA:
		for i := 3; i < len(m.Pix); i += 4 {
			if m.Pix[i] != 0xff {
				return true
			}
		}
		return false
	case *image.RGBA:
		for i := 3; i < len(m.Pix); i += 4 {
			if m.Pix[i] != 0xff {
				return true
			}
		}
		return false
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0xffff {
				return true
			}
		}
	}
	return false
}

// decodeRec re-reads encoded bytes, so a derived image has exactly the
// pixels of its file (JPEG loss included).
func decodeRec(in *imageRec, format string, b []byte) (*imageRec, error) {
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	out := *in
	out.Format, out.Bytes, out.Img = format, b, img
	return &out, nil
}

// reencode converts an image to format, keeping its facts.
func reencode(in *imageRec, format string, quality int) (*imageRec, error) {
	b, err := encodeImage(in.Img, format, quality)
	if err != nil {
		return nil, err
	}
	return decodeRec(in, format, b)
}

// compressRec re-encodes an image in its own format, smaller: JPEG at the
// quality, PNG reduced to a 256-colour palette below quality 90 (when it
// has no transparency) and maximally deflated, GIF as it is.
func compressRec(in *imageRec, quality int) (*imageRec, error) {
	var b bytes.Buffer
	switch in.Format {
	case "jpeg":
		if err := jpeg.Encode(&b, in.Img, &jpeg.Options{Quality: quality}); err != nil {
			return nil, err
		}
	case "png":
		img := in.Img
		if quality < 90 && !hasAlpha(img) {
			img = quantize(img)
		}
		if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, img); err != nil {
			return nil, err
		}
	default:
		if err := gif.Encode(&b, in.Img, nil); err != nil {
			return nil, err
		}
	}
	return decodeRec(in, in.Format, b.Bytes())
}

// quantize maps an image onto the web-safe palette plus its own most common
// colours, without dithering, which keeps flat areas flat.
func quantize(img image.Image) *image.Paletted {
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bb, _ := img.At(x, y).RGBA()
			counts[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bb >> 8), 0xff}]++
		}
	}
	type kv struct {
		c color.RGBA
		n int
	}
	all := make([]kv, 0, len(counts))
	for c, n := range counts {
		all = append(all, kv{c, n})
	}
	// Most common first; ties broken by the colour value so the palette
	// does not depend on map order.
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.n != b.n {
			return a.n > b.n
		}
		return rgbKey(a.c) < rgbKey(b.c)
	})
	pal := color.Palette{}
	for _, e := range all {
		if len(pal) == 256 {
			break
		}
		pal = append(pal, e.c)
	}
	out := image.NewPaletted(image.Rect(0, 0, b.Dx(), b.Dy()), pal)
	draw.Draw(out, out.Rect, img, b.Min, draw.Src)
	return out
}

// resizeRec resamples an image to w×h and scales its facts to match.
func resizeRec(in *imageRec, w, h int) (*imageRec, error) {
	ib := in.Img.Bounds()
	img := imagegen.Resize(in.Img, w, h)
	b, err := encodeImage(img, in.Format, 90)
	if err != nil {
		return nil, err
	}
	out, err := decodeRec(in, in.Format, b)
	if err != nil {
		return nil, err
	}
	sx, sy := float64(w)/float64(ib.Dx()), float64(h)/float64(ib.Dy())
	out.Objects = make([]imagegen.Object, len(in.Objects))
	for i, o := range in.Objects {
		o.Box = scaleBox(o.Box, sx, sy, 0, 0)
		out.Objects[i] = o
	}
	out.Lines = make([]textLine, len(in.Lines))
	for i, l := range in.Lines {
		l.Box = scaleBox(l.Box, sx, sy, 0, 0)
		ws := make([]imagegen.Word, len(l.Words))
		for j, wd := range l.Words {
			wd.Box = scaleBox(wd.Box, sx, sy, 0, 0)
			ws[j] = wd
		}
		l.Words = ws
		out.Lines[i] = l
	}
	if in.Mask != nil {
		out.Mask = scaleMask(in.Mask, w, h)
	}
	return out, nil
}

// scaleBox maps a box by the scale factors and then the offset, rounding
// outward-neutral (to the nearest pixel) and never to zero size.
func scaleBox(b imagegen.Box, sx, sy float64, dx, dy int) imagegen.Box {
	x0, y0 := int(math.Round(float64(b.X)*sx)), int(math.Round(float64(b.Y)*sy))
	x1, y1 := int(math.Round(float64(b.X+b.Width)*sx)), int(math.Round(float64(b.Y+b.Height)*sy))
	return imagegen.Box{X: x0 + dx, Y: y0 + dy, Width: max(1, x1-x0), Height: max(1, y1-y0)}
}

// scaleMask resamples a mask to w×h by nearest neighbour.
func scaleMask(m *image.Gray, w, h int) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, w, h))
	mw, mh := m.Rect.Dx(), m.Rect.Dy()
	for y := 0; y < h; y++ {
		sy := min(mh-1, y*mh/h)
		for x := 0; x < w; x++ {
			sx := min(mw-1, x*mw/w)
			out.Pix[y*out.Stride+x] = m.Pix[sy*m.Stride+sx]
		}
	}
	return out
}

// foreground returns the foreground mask of an image: the known one, or one
// estimated by separating the pixels from the border's dominant colour.
func foreground(in *imageRec) *image.Gray {
	if in.Mask != nil {
		return in.Mask
	}
	b := in.Img.Bounds()
	counts := map[color.RGBA]int{}
	var bg color.RGBA
	best := -1
	at := func(x, y int) color.RGBA {
		r, g, bl, _ := in.Img.At(x, y).RGBA()
		return color.RGBA{uint8(r >> 12 << 4), uint8(g >> 12 << 4), uint8(bl >> 12 << 4), 0xff}
	}
	for x := b.Min.X; x < b.Max.X; x++ {
		for _, y := range []int{b.Min.Y, b.Max.Y - 1} {
			c := at(x, y)
			counts[c]++
			if n := counts[c]; n > best || (n == best && rgbKey(c) < rgbKey(bg)) {
				best, bg = n, c
			}
		}
	}
	m := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := at(x, y)
			d := absDiff(c.R, bg.R) + absDiff(c.G, bg.G) + absDiff(c.B, bg.B)
			if d > 48 {
				m.Pix[(y-b.Min.Y)*m.Stride+(x-b.Min.X)] = 0xff
			}
		}
	}
	return m
}

func rgbKey(c color.RGBA) uint32 { return uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B) }

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// removeBackground cuts the foreground out: a PNG whose alpha is the mask.
func removeBackground(in *imageRec) (*imageRec, error) {
	b := in.Img.Bounds()
	mask := foreground(in)
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Rect, in.Img, b.Min, draw.Src)
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			if mask.Pix[y*mask.Stride+x] == 0 {
				i := y*out.Stride + x*4
				out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3] = 0, 0, 0, 0
			}
		}
	}
	enc, err := encodeImage(out, "png", 0)
	if err != nil {
		return nil, err
	}
	rec, err := decodeRec(in, "png", enc)
	if err != nil {
		return nil, err
	}
	rec.Mask = mask
	return rec, nil
}

// maskBox is the bounding box of a mask's foreground and its coverage.
func maskBox(m *image.Gray) (imagegen.Box, float64) {
	r := image.Rectangle{}
	n := 0
	for y := 0; y < m.Rect.Dy(); y++ {
		row := m.Pix[y*m.Stride:]
		for x := 0; x < m.Rect.Dx(); x++ {
			if row[x] != 0 {
				r = r.Union(image.Rect(x, y, x+1, y+1))
				n++
			}
		}
	}
	return imagegen.BoxOf(r), math.Round(float64(n)/float64(m.Rect.Dx()*m.Rect.Dy())*1000) / 1000
}

// screenshot renders a site's page and places the hero image's facts.
func screenshot(iw *world.Images, site *world.Website, width, height int, full bool) (*imageRec, error) {
	pg := imagegen.Page{Host: site.Host, Title: site.Title, Theme: site.ThemeColor}
	var hero *imageRec
	if site.HeroImage != "" {
		var err error
		hero, err = catalogRec(iw, iw.ByName[site.HeroImage])
		if err != nil {
			return nil, err
		}
		pg.Hero = hero.Img
	}
	for _, l := range site.Lines {
		pg.Lines = append(pg.Lines, l.Text)
	}
	shot := imagegen.RenderPage(pg, width, height, full)
	rec := &imageRec{Format: "png", Img: shot.Image, Lang: site.Language}
	for _, l := range shot.Lines {
		tl := textLine{Text: l.Text, Language: site.Language, Box: l.Box, Words: l.Words, Block: l.Source + 3}
		switch {
		case l.Source == -1:
			tl.Language = ""
		case l.Source >= 0:
			tl.Translations = site.Lines[l.Source].Translations
		}
		rec.Lines = append(rec.Lines, tl)
	}
	img := shot.Image.Rect
	if hero != nil && !shot.Hero.Empty() {
		hb := hero.Img.Bounds()
		sx, sy := float64(shot.Hero.Dx())/float64(hb.Dx()), float64(shot.Hero.Dy())/float64(hb.Dy())
		for _, o := range hero.Objects {
			o.Box = scaleBox(o.Box, sx, sy, shot.Hero.Min.X, shot.Hero.Min.Y)
			if o.Box.Rect().In(img) {
				rec.Objects = append(rec.Objects, o)
			}
		}
		for _, l := range hero.Lines {
			l.Box = scaleBox(l.Box, sx, sy, shot.Hero.Min.X, shot.Hero.Min.Y)
			if !l.Box.Rect().In(img) {
				continue
			}
			ws := make([]imagegen.Word, len(l.Words))
			for j, wd := range l.Words {
				wd.Box = scaleBox(wd.Box, sx, sy, shot.Hero.Min.X, shot.Hero.Min.Y)
				ws[j] = wd
			}
			l.Words = ws
			rec.Lines = append(rec.Lines, l)
		}
		if hero.Mask != nil {
			m := image.NewGray(img)
			vis := shot.Hero.Intersect(img)
			sm := scaleMask(hero.Mask, shot.Hero.Dx(), shot.Hero.Dy())
			draw.Draw(m, vis, sm, vis.Min.Sub(shot.Hero.Min), draw.Src)
			rec.Mask = m
		}
	}
	sort.SliceStable(rec.Lines, func(i, j int) bool {
		a, b := rec.Lines[i].Box, rec.Lines[j].Box
		if a.Y != b.Y {
			return a.Y < b.Y
		}
		return a.X < b.X
	})
	b, err := encodeImage(shot.Image, "png", 0)
	if err != nil {
		return nil, err
	}
	rec.Bytes = b
	return rec, nil
}
