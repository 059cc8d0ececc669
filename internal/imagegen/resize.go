package imagegen

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// Resize resamples src to w×h: an area-averaging (box) filter along an
// axis that shrinks, bilinear interpolation along one that grows.
func Resize(src image.Image, w, h int) *image.NRGBA {
	in := toNRGBA(src)
	sw, sh := in.Rect.Dx(), in.Rect.Dy()
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	if sw == 0 || sh == 0 || w <= 0 || h <= 0 {
		return dst
	}
	xs := weights(sw, w)
	ys := weights(sh, h)
	// Premultiplied accumulation so transparent pixels do not bleed colour.
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var r, g, b, a float64
			for _, wy := range ys[y] {
				row := in.Pix[wy.i*in.Stride:]
				for _, wx := range xs[x] {
					k := wx.w * wy.w
					px := row[wx.i*4 : wx.i*4+4]
					al := float64(px[3])
					r += k * float64(px[0]) * al
					g += k * float64(px[1]) * al
					b += k * float64(px[2]) * al
					a += k * al
				}
			}
			o := dst.Pix[y*dst.Stride+x*4:]
			if a > 0 {
				o[0], o[1], o[2] = clamp8(r/a), clamp8(g/a), clamp8(b/a)
			}
			o[3] = clamp8(a)
		}
	}
	return dst
}

type tap struct {
	i int
	w float64
}

// weights lists, for every output position, the input positions it reads
// and their normalised weights.
func weights(in, out int) [][]tap {
	res := make([][]tap, out)
	scale := float64(in) / float64(out)
	for o := 0; o < out; o++ {
		var taps []tap
		if scale > 1 { // shrink: average the covered input span
			lo, hi := float64(o)*scale, float64(o+1)*scale
			for i := int(lo); i < in && float64(i) < hi; i++ {
				cov := math.Min(hi, float64(i+1)) - math.Max(lo, float64(i))
				if cov > 0 {
					taps = append(taps, tap{i, cov / scale})
				}
			}
		} else { // grow: bilinear between the two nearest inputs
			c := (float64(o)+0.5)*scale - 0.5
			i0 := int(math.Floor(c))
			f := c - float64(i0)
			a, b := max(0, min(in-1, i0)), max(0, min(in-1, i0+1))
			taps = append(taps, tap{a, 1 - f}, tap{b, f})
		}
		res[o] = taps
	}
	return res
}

func clamp8(v float64) uint8 {
	switch {
	case v <= 0:
		return 0
	case v >= 255:
		return 255
	}
	return uint8(v + 0.5)
}

// toNRGBA returns src as an *image.NRGBA anchored at the origin.
func toNRGBA(src image.Image) *image.NRGBA {
	if n, ok := src.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	b := src.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Rect, src, b.Min, draw.Src)
	return n
}

// Flatten composites src over an opaque background colour, for formats
// without transparency.
func Flatten(src image.Image, bg color.Color) *image.RGBA {
	b := src.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Rect, image.NewUniform(bg), image.Point{}, draw.Src)
	draw.Draw(out, out.Rect, src, b.Min, draw.Over)
	return out
}
