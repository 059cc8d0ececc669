package imagegen

import (
	"image"
	"image/color"
	"math"
)

// painter draws filled shapes on a canvas and, while fg is set, marks the
// same pixels in the foreground mask, so the mask is exactly what was drawn.
type painter struct {
	img  *image.RGBA
	mask *image.Alpha
	fg   bool
	// bounds accumulates the pixels set since the last reset, which gives
	// each object its true bounding box.
	bounds image.Rectangle
}

func newPainter(w, h int) *painter {
	r := image.Rect(0, 0, w, h)
	return &painter{img: image.NewRGBA(r), mask: image.NewAlpha(r)}
}

func (p *painter) set(x, y int, c color.RGBA) {
	if !(image.Point{x, y}).In(p.img.Rect) {
		return
	}
	p.img.SetRGBA(x, y, c)
	p.bounds = p.bounds.Union(image.Rect(x, y, x+1, y+1))
	if p.fg {
		p.mask.SetAlpha(x, y, color.Alpha{A: 0xff})
	}
}

// rect fills r.
func (p *painter) rect(r image.Rectangle, c color.RGBA) {
	r = r.Intersect(p.img.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p.set(x, y, c)
		}
	}
}

// ellipse fills the ellipse inscribed in r, sampling pixel centres.
func (p *painter) ellipse(r image.Rectangle, c color.RGBA) {
	p.ellipseClip(r, r, c)
}

// ellipseClip fills the part of the ellipse inscribed in r that lies in clip.
func (p *painter) ellipseClip(r, clip image.Rectangle, c color.RGBA) {
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	rx, ry := float64(r.Dx())/2, float64(r.Dy())/2
	if rx <= 0 || ry <= 0 {
		return
	}
	b := r.Intersect(clip)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			dx, dy := (float64(x)+0.5-cx)/rx, (float64(y)+0.5-cy)/ry
			if dx*dx+dy*dy <= 1 {
				p.set(x, y, c)
			}
		}
	}
}

type fpt struct{ x, y float64 }

// poly fills a polygon with the even-odd rule, sampling pixel centres.
func (p *painter) poly(c color.RGBA, pts ...fpt) {
	if len(pts) < 3 {
		return
	}
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		minY, maxY = math.Min(minY, q.y), math.Max(maxY, q.y)
	}
	var xs []float64
	for y := int(math.Floor(minY)); y < int(math.Ceil(maxY)); y++ {
		sy := float64(y) + 0.5
		xs = xs[:0]
		for i := range pts {
			a, b := pts[i], pts[(i+1)%len(pts)]
			if (a.y <= sy) != (b.y <= sy) {
				xs = append(xs, a.x+(sy-a.y)*(b.x-a.x)/(b.y-a.y))
			}
		}
		sortFloats(xs)
		for i := 0; i+1 < len(xs); i += 2 {
			for x := int(math.Ceil(xs[i] - 0.5)); float64(x)+0.5 <= xs[i+1]; x++ {
				p.set(x, y, c)
			}
		}
	}
}

func sortFloats(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// gradient fills r with a vertical gradient from top to bottom colour.
func (p *painter) gradient(r image.Rectangle, top, bottom color.RGBA) {
	r = r.Intersect(p.img.Rect)
	h := r.Dy()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		t := 0.0
		if h > 1 {
			t = float64(y-r.Min.Y) / float64(h-1)
		}
		c := mix(top, bottom, t)
		for x := r.Min.X; x < r.Max.X; x++ {
			p.set(x, y, c)
		}
	}
}

func mix(a, b color.RGBA, t float64) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-t) + float64(y)*t)) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 0xff}
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// frac maps fractions of box b to a pixel rectangle.
func frac(b Box, x0, y0, x1, y1 float64) image.Rectangle {
	fx := func(f float64) int { return b.X + int(math.Round(f*float64(b.Width))) }
	fy := func(f float64) int { return b.Y + int(math.Round(f*float64(b.Height))) }
	return image.Rect(fx(x0), fy(y0), fx(x1), fy(y1))
}

// fp maps a fraction of box b to a point.
func fp(b Box, x, y float64) fpt {
	return fpt{float64(b.X) + x*float64(b.Width), float64(b.Y) + y*float64(b.Height)}
}
