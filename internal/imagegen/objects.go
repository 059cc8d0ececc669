package imagegen

import (
	"image/color"
	"sort"
)

// A drawer paints one object so that its tight bounding box is b: every
// drawer touches all four sides of b, which is what makes the catalog's
// boxes true.
type drawer func(p *painter, b Box, c color.RGBA)

var (
	black = rgb(20, 20, 24)
	white = rgb(250, 250, 250)
	glass = rgb(170, 205, 230)
	wood  = rgb(120, 78, 40)
	skin  = rgb(224, 172, 128)
	leaf  = rgb(46, 139, 60)
	grey  = rgb(90, 90, 96)
)

// drawers maps a drawing kind to its painter. Kinds are the labels the
// detector reports unless a placement names another label.
var drawers = map[string]drawer{
	"person": func(p *painter, b Box, c color.RGBA) {
		p.ellipse(frac(b, 0.3, 0, 0.7, 0.2), skin)
		p.rect(frac(b, 0.2, 0.2, 0.8, 0.6), c)
		p.rect(frac(b, 0, 0.22, 0.2, 0.55), c)
		p.rect(frac(b, 0.8, 0.22, 1, 0.55), c)
		p.rect(frac(b, 0.25, 0.6, 0.45, 1), rgb(40, 50, 90))
		p.rect(frac(b, 0.55, 0.6, 0.75, 1), rgb(40, 50, 90))
	},
	"car": func(p *painter, b Box, c color.RGBA) {
		p.poly(c, fp(b, 0.2, 0.38), fp(b, 0.3, 0), fp(b, 0.7, 0), fp(b, 0.82, 0.38))
		p.poly(glass, fp(b, 0.28, 0.34), fp(b, 0.35, 0.08), fp(b, 0.65, 0.08), fp(b, 0.74, 0.34))
		p.rect(frac(b, 0, 0.35, 1, 0.8), c)
		p.rect(frac(b, 0.9, 0.45, 1, 0.55), rgb(255, 230, 120))
		p.ellipse(frac(b, 0.1, 0.6, 0.32, 1), black)
		p.ellipse(frac(b, 0.68, 0.6, 0.9, 1), black)
	},
	"bus": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0, 0, 1, 0.85), c)
		for i := 0; i < 5; i++ {
			x := 0.05 + float64(i)*0.18
			p.rect(frac(b, x, 0.12, x+0.14, 0.45), glass)
		}
		p.ellipse(frac(b, 0.1, 0.7, 0.25, 1), black)
		p.ellipse(frac(b, 0.75, 0.7, 0.9, 1), black)
	},
	"tree": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0.42, 0.6, 0.58, 1), wood)
		p.ellipse(frac(b, 0, 0, 1, 0.7), c)
	},
	"house": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0.1, 0.45, 0.9, 1), c)
		p.poly(rgb(160, 50, 40), fp(b, 0, 0.46), fp(b, 0.5, 0), fp(b, 1, 0.46))
		p.rect(frac(b, 0.45, 0.7, 0.58, 1), wood)
		p.rect(frac(b, 0.2, 0.55, 0.35, 0.7), glass)
		p.rect(frac(b, 0.66, 0.55, 0.81, 0.7), glass)
	},
	"dog": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0, 0.3, 0.2, 0.38), c)
		p.ellipse(frac(b, 0.15, 0.3, 0.8, 0.7), c)
		p.rect(frac(b, 0.2, 0.55, 0.3, 1), c)
		p.rect(frac(b, 0.62, 0.55, 0.72, 1), c)
		p.ellipse(frac(b, 0.68, 0, 1, 0.42), c)
		p.ellipse(frac(b, 0.7, 0.05, 0.8, 0.35), mix(c, black, 0.4))
		p.ellipse(frac(b, 0.88, 0.12, 0.93, 0.2), black)
	},
	"cat": func(p *painter, b Box, c color.RGBA) {
		p.ellipse(frac(b, 0, 0.35, 0.75, 1), c)
		p.poly(c, fp(b, 0.62, 0.2), fp(b, 0.66, 0), fp(b, 0.74, 0.15))
		p.poly(c, fp(b, 0.86, 0.15), fp(b, 0.94, 0), fp(b, 0.98, 0.2))
		p.ellipse(frac(b, 0.58, 0.1, 1, 0.5), c)
		p.ellipse(frac(b, 0.7, 0.25, 0.75, 0.32), rgb(120, 200, 80))
		p.ellipse(frac(b, 0.84, 0.25, 0.89, 0.32), rgb(120, 200, 80))
	},
	"bird": func(p *painter, b Box, c color.RGBA) {
		p.ellipse(frac(b, 0, 0.3, 0.8, 1), c)
		p.ellipse(frac(b, 0.5, 0.1, 0.85, 0.55), c)
		p.poly(rgb(240, 170, 40), fp(b, 0.83, 0.25), fp(b, 1, 0.33), fp(b, 0.83, 0.4))
		p.poly(mix(c, black, 0.3), fp(b, 0.15, 0.5), fp(b, 0.45, 0), fp(b, 0.5, 0.55))
	},
	"boat": func(p *painter, b Box, c color.RGBA) {
		p.poly(c, fp(b, 0, 0.6), fp(b, 1, 0.6), fp(b, 0.85, 1), fp(b, 0.15, 1))
		p.rect(frac(b, 0.48, 0, 0.52, 0.6), wood)
		p.poly(white, fp(b, 0.52, 0.05), fp(b, 0.52, 0.55), fp(b, 0.9, 0.55))
	},
	"umbrella": func(p *painter, b Box, c color.RGBA) {
		p.ellipseClip(frac(b, 0, 0, 1, 0.8), frac(b, 0, 0, 1, 0.4), c)
		p.rect(frac(b, 0.48, 0.4, 0.52, 1), grey)
	},
	"bench": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0, 0, 1, 0.15), c)
		p.rect(frac(b, 0, 0.28, 1, 0.4), c)
		p.rect(frac(b, 0.08, 0.15, 0.14, 0.28), black)
		p.rect(frac(b, 0.86, 0.15, 0.92, 0.28), black)
		p.rect(frac(b, 0.05, 0.4, 0.12, 1), black)
		p.rect(frac(b, 0.88, 0.4, 0.95, 1), black)
	},
	"cup": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0.7, 0.25, 1, 0.33), c)
		p.rect(frac(b, 0.9, 0.25, 1, 0.7), c)
		p.rect(frac(b, 0.7, 0.62, 1, 0.7), c)
		p.rect(frac(b, 0, 0.08, 0.78, 1), c)
		p.ellipse(frac(b, 0, 0, 0.78, 0.16), mix(c, black, 0.25))
	},
	"bottle": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0.35, 0, 0.65, 0.08), rgb(30, 60, 140))
		p.rect(frac(b, 0.38, 0.08, 0.62, 0.35), c)
		p.poly(c, fp(b, 0.38, 0.3), fp(b, 0.62, 0.3), fp(b, 1, 0.42), fp(b, 0, 0.42))
		p.rect(frac(b, 0, 0.42, 1, 1), c)
		p.rect(frac(b, 0, 0.55, 1, 0.8), white)
	},
	"apple": func(p *painter, b Box, c color.RGBA) {
		p.ellipse(frac(b, 0, 0.15, 1, 1), c)
		p.rect(frac(b, 0.47, 0, 0.53, 0.22), wood)
		p.ellipse(frac(b, 0.55, 0.04, 0.8, 0.16), leaf)
	},
	"orange": func(p *painter, b Box, c color.RGBA) {
		p.ellipse(frac(b, 0, 0, 1, 1), c)
		p.ellipse(frac(b, 0.45, 0.05, 0.55, 0.12), leaf)
	},
	"book": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0, 0, 1, 1), c)
		p.rect(frac(b, 0, 0, 0.08, 1), mix(c, black, 0.35))
		p.rect(frac(b, 0.92, 0.02, 1, 0.98), white)
	},
	"laptop": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0.1, 0, 0.9, 0.66), c)
		p.rect(frac(b, 0.14, 0.05, 0.86, 0.6), rgb(40, 90, 160))
		p.poly(mix(c, white, 0.2), fp(b, 0.08, 0.68), fp(b, 0.92, 0.68), fp(b, 1, 1), fp(b, 0, 1))
	},
	"chair": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0, 0, 0.12, 1), c)
		p.rect(frac(b, 0, 0.5, 1, 0.6), c)
		p.rect(frac(b, 0.88, 0.6, 1, 1), c)
	},
	"clock": func(p *painter, b Box, c color.RGBA) {
		p.ellipse(frac(b, 0, 0, 1, 1), c)
		p.ellipse(frac(b, 0.08, 0.08, 0.92, 0.92), white)
		p.rect(frac(b, 0.48, 0.2, 0.52, 0.52), black)
		p.rect(frac(b, 0.48, 0.48, 0.75, 0.52), black)
	},
	"traffic light": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0, 0, 1, 1), c)
		p.ellipse(frac(b, 0.15, 0.04, 0.85, 0.31), rgb(220, 40, 30))
		p.ellipse(frac(b, 0.15, 0.36, 0.85, 0.64), rgb(90, 80, 20))
		p.ellipse(frac(b, 0.15, 0.69, 0.85, 0.96), rgb(20, 80, 40))
	},
	"stop sign": func(p *painter, b Box, c color.RGBA) {
		k := 0.29
		p.poly(c, fp(b, k, 0), fp(b, 1-k, 0), fp(b, 1, k), fp(b, 1, 1-k), fp(b, 1-k, 1), fp(b, k, 1), fp(b, 0, 1-k), fp(b, 0, k))
	},
	"sign": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0, 0, 1, 1), white)
		p.rect(frac(b, 0.02, 0.04, 0.98, 0.96), c)
	},
	"paper": func(p *painter, b Box, c color.RGBA) {
		p.rect(frac(b, 0, 0, 1, 1), c)
	},
	"potted plant": func(p *painter, b Box, c color.RGBA) {
		p.poly(rgb(180, 90, 50), fp(b, 0.15, 0.6), fp(b, 0.85, 0.6), fp(b, 0.75, 1), fp(b, 0.25, 1))
		p.ellipse(frac(b, 0, 0.15, 0.55, 0.65), c)
		p.ellipse(frac(b, 0.45, 0.15, 1, 0.65), c)
		p.ellipse(frac(b, 0.25, 0, 0.75, 0.5), mix(c, white, 0.15))
	},
	"backpack": func(p *painter, b Box, c color.RGBA) {
		p.ellipseClip(frac(b, 0.25, 0, 0.75, 0.2), frac(b, 0.25, 0, 0.75, 0.1), mix(c, black, 0.3))
		p.rect(frac(b, 0, 0.1, 1, 1), c)
		p.rect(frac(b, 0.15, 0.55, 0.85, 0.9), mix(c, black, 0.2))
	},
	"wine glass": func(p *painter, b Box, c color.RGBA) {
		p.ellipseClip(frac(b, 0.1, -0.45, 0.9, 0.5), frac(b, 0, 0, 1, 0.5), glass)
		p.ellipseClip(frac(b, 0.18, -0.2, 0.82, 0.42), frac(b, 0, 0.22, 1, 0.5), c)
		p.rect(frac(b, 0.46, 0.5, 0.54, 0.92), glass)
		p.rect(frac(b, 0, 0.92, 1, 1), glass)
	},
	"pizza": func(p *painter, b Box, c color.RGBA) {
		p.ellipse(frac(b, 0, 0, 1, 1), rgb(210, 160, 90))
		p.ellipse(frac(b, 0.06, 0.06, 0.94, 0.94), c)
		for _, q := range [][2]float64{{0.3, 0.3}, {0.6, 0.25}, {0.45, 0.55}, {0.25, 0.6}, {0.65, 0.65}} {
			p.ellipse(frac(b, q[0], q[1], q[0]+0.12, q[1]+0.12), rgb(170, 40, 40))
		}
	},
}

// Labels returns the sorted set of drawing kinds.
func Labels() []string {
	out := make([]string, 0, len(drawers))
	for k := range drawers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
