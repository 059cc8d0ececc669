package imagegen

import (
	"image"
	"image/color"
	"image/draw"
	"strings"
)

// Page is a web page to screenshot: a header bar with the host, a title,
// an optional hero image and paragraphs of text.
type Page struct {
	Host  string
	Title string
	Theme color.RGBA
	Hero  image.Image // may be nil
	Lines []string
}

// PageLine is one rendered line of a screenshot: Source is the index of
// the page's text it comes from (-1 for the header host, -2 for the
// title); a long text wraps into several PageLines with the same Source.
type PageLine struct {
	Text   string
	Source int
	Box    Box
	Words  []Word
}

// Screenshot is a rendered page and where things ended up.
type Screenshot struct {
	Image *image.RGBA
	Lines []PageLine // only the lines fully inside the image
	Hero  image.Rectangle
}

// Page size limits, the same as the screenshot API's.
const (
	MinPageWidth  = 320
	MaxPageWidth  = 1920
	MinPageHeight = 240
	MaxPageHeight = 1080
	// MaxFullPageHeight bounds a full-page capture.
	MaxFullPageHeight = 4000
)

// RenderPage lays the page out for a viewport of width×height and draws
// it: header, title, hero image (at most half the viewport high), text. A
// full-page capture grows to the content's height (at least the
// viewport's); otherwise the viewport crops it.
func RenderPage(pg Page, width, height int, fullPage bool) *Screenshot {
	width = max(MinPageWidth, min(MaxPageWidth, width))
	height = max(MinPageHeight, min(MaxPageHeight, height))
	s := max(1, width/480)
	margin := 12 * s
	type item struct {
		text  string
		src   int
		x, y  int
		scale int
		col   color.RGBA
	}
	var items []item
	header := 16 * s
	y := header + margin
	wrap := func(text string, src, scale int, col color.RGBA) {
		for _, seg := range wrapText(Fold(text), (width-2*margin)/(GlyphAdvance*scale)) {
			items = append(items, item{seg, src, margin, y, scale, col})
			y += (LineHeight + 3) * scale
		}
	}
	ink := color.RGBA{30, 30, 34, 0xff}
	wrap(pg.Title, -2, 2*s, pg.Theme)
	y += margin
	var hero image.Rectangle
	if pg.Hero != nil {
		// The hero is at most half the viewport high (a max-height of 50vh),
		// so the page's own text shows below it, as on the sites' pages.
		hb := pg.Hero.Bounds()
		w := min(width-2*margin, hb.Dx()*s)
		h := hb.Dy() * w / max(1, hb.Dx())
		if h > height/2 {
			h = height / 2
			w = hb.Dx() * h / max(1, hb.Dy())
		}
		hero = image.Rect(margin, y, margin+w, y+h)
		y += h + margin
	}
	for i, l := range pg.Lines {
		wrap(l, i, s, ink)
		y += 4 * s
	}
	contentH := y + margin
	H := height
	if fullPage {
		H = max(height, min(contentH, MaxFullPageHeight))
	}
	img := image.NewRGBA(image.Rect(0, 0, width, H))
	draw.Draw(img, img.Rect, image.NewUniform(color.RGBA{252, 252, 250, 0xff}), image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(0, 0, width, header), image.NewUniform(pg.Theme), image.Point{}, draw.Src)
	out := &Screenshot{Image: img}
	hostWords, _ := DrawText(img, margin, (header-TextHeight(s))/2, s, Fold(pg.Host), color.RGBA{255, 255, 255, 0xff})
	if len(hostWords) > 0 {
		out.Lines = append(out.Lines, PageLine{Text: Fold(pg.Host), Source: -1, Box: unionWords(hostWords), Words: hostWords})
	}
	if pg.Hero != nil {
		scaled := Resize(pg.Hero, hero.Dx(), hero.Dy())
		draw.Draw(img, hero, scaled, image.Point{}, draw.Src)
		out.Hero = hero
	}
	for _, it := range items {
		words, _ := DrawText(img, it.x, it.y, it.scale, it.text, it.col)
		if len(words) == 0 {
			continue
		}
		b := unionWords(words)
		if !b.Rect().In(img.Rect) {
			continue
		}
		out.Lines = append(out.Lines, PageLine{Text: it.text, Source: it.src, Box: b, Words: words})
	}
	return out
}

func unionWords(ws []Word) Box {
	r := image.Rectangle{}
	for _, w := range ws {
		r = r.Union(w.Box.Rect())
	}
	return BoxOf(r)
}

// wrapText splits s into lines of at most n characters at spaces; a word
// longer than n is cut.
func wrapText(s string, n int) []string {
	n = max(1, n)
	var out []string
	cur := ""
	for _, w := range strings.Fields(s) {
		for len([]rune(w)) > n {
			if cur != "" {
				out = append(out, cur)
				cur = ""
			}
			out = append(out, string([]rune(w)[:n]))
			w = string([]rune(w)[n:])
		}
		switch {
		case cur == "":
			cur = w
		case len([]rune(cur))+1+len([]rune(w)) <= n:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = w
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}
