package imagegen

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"
)

// The built-in font is a 5×7 bitmap font for upper-case Latin letters,
// digits and common punctuation, with accents drawn as separate marks above
// (or, for the cedilla, below) the base letter. Each character occupies a
// cell GlyphAdvance×LineHeight units wide and high at scale 1.
const (
	glyphW       = 5
	glyphH       = 7
	markRows     = 2 // rows reserved above the glyph for accents
	tailRows     = 2 // rows reserved below the glyph for the cedilla and descenders
	GlyphAdvance = glyphW + 1
	LineHeight   = markRows + glyphH + tailRows + 1
)

// glyphs maps a rune to its 7 rows of 5 pixels ('#' is ink).
var glyphs = map[rune][glyphH]string{
	'A':  {".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'B':  {"####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."},
	'C':  {".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."},
	'D':  {"####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."},
	'E':  {"#####", "#....", "#....", "####.", "#....", "#....", "#####"},
	'F':  {"#####", "#....", "#....", "####.", "#....", "#....", "#...."},
	'G':  {".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"},
	'H':  {"#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"},
	'I':  {".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'J':  {"..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."},
	'K':  {"#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"},
	'L':  {"#....", "#....", "#....", "#....", "#....", "#....", "#####"},
	'M':  {"#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"},
	'N':  {"#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"},
	'O':  {".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'P':  {"####.", "#...#", "#...#", "####.", "#....", "#....", "#...."},
	'Q':  {".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"},
	'R':  {"####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"},
	'S':  {".####", "#....", "#....", ".###.", "....#", "....#", "####."},
	'T':  {"#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."},
	'U':  {"#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."},
	'V':  {"#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."},
	'W':  {"#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."},
	'X':  {"#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"},
	'Y':  {"#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."},
	'Z':  {"#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"},
	'0':  {".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."},
	'1':  {"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."},
	'2':  {".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"},
	'3':  {"#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."},
	'4':  {"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."},
	'5':  {"#####", "#....", "####.", "....#", "....#", "#...#", ".###."},
	'6':  {"..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."},
	'7':  {"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."},
	'8':  {".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."},
	'9':  {".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."},
	' ':  {".....", ".....", ".....", ".....", ".....", ".....", "....."},
	'.':  {".....", ".....", ".....", ".....", ".....", ".##..", ".##.."},
	',':  {".....", ".....", ".....", ".....", ".##..", "..#..", ".#..."},
	':':  {".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."},
	';':  {".....", ".##..", ".##..", ".....", ".##..", "..#..", ".#..."},
	'!':  {"..#..", "..#..", "..#..", "..#..", "..#..", ".....", "..#.."},
	'?':  {".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."},
	'-':  {".....", ".....", ".....", "#####", ".....", ".....", "....."},
	'\'': {"..#..", "..#..", ".#...", ".....", ".....", ".....", "....."},
	'"':  {".#.#.", ".#.#.", ".#.#.", ".....", ".....", ".....", "....."},
	'/':  {"....#", "....#", "...#.", "..#..", ".#...", "#....", "#...."},
	'(':  {"...#.", "..#..", ".#...", ".#...", ".#...", "..#..", "...#."},
	')':  {".#...", "..#..", "...#.", "...#.", "...#.", "..#..", ".#..."},
	'&':  {".##..", "#..#.", "#.#..", ".#...", "#.#.#", "#..#.", ".##.#"},
	'€':  {"..###", ".#...", "####.", ".#...", "####.", ".#...", "..###"},
	'$':  {"..#..", ".####", "#.#..", ".###.", "..#.#", "####.", "..#.."},
	'%':  {"##..#", "##..#", "...#.", "..#..", ".#...", "#..##", "#..##"},
	'+':  {".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."},
	'=':  {".....", ".....", "#####", ".....", "#####", ".....", "....."},
	'#':  {".#.#.", ".#.#.", "#####", ".#.#.", "#####", ".#.#.", ".#.#."},
	'@':  {".###.", "#...#", "#.###", "#.#.#", "#.###", "#....", ".###."},
	'*':  {".....", "#.#.#", ".###.", "#####", ".###.", "#.#.#", "....."},
	'_':  {".....", ".....", ".....", ".....", ".....", ".....", "#####"},
	'<':  {"...#.", "..#..", ".#...", "#....", ".#...", "..#..", "...#."},
	'>':  {".#...", "..#..", "...#.", "....#", "...#.", "..#..", ".#..."},
	'°':  {".##..", "#..#.", ".##..", ".....", ".....", ".....", "....."},
	'£':  {"..##.", ".#..#", ".#...", "###..", ".#...", ".#...", "#####"},
}

// marks are the accents, two rows each: above the glyph, except the cedilla
// which hangs below it.
var marks = map[string][2]string{
	"acute":      {"...#.", "..#.."},
	"grave":      {".#...", "..#.."},
	"circumflex": {"..#..", ".#.#."},
	"diaeresis":  {".....", ".#.#."},
	"tilde":      {".##.#", "#..#."},
	"cedilla":    {"..#..", ".##.."},
}

// accented maps an accented capital to its base letter and mark.
var accented = map[rune]struct {
	base rune
	mark string
}{
	'Á': {'A', "acute"}, 'À': {'A', "grave"}, 'Â': {'A', "circumflex"}, 'Ã': {'A', "tilde"}, 'Ä': {'A', "diaeresis"},
	'É': {'E', "acute"}, 'È': {'E', "grave"}, 'Ê': {'E', "circumflex"}, 'Ë': {'E', "diaeresis"},
	'Í': {'I', "acute"}, 'Ì': {'I', "grave"}, 'Î': {'I', "circumflex"}, 'Ï': {'I', "diaeresis"},
	'Ó': {'O', "acute"}, 'Ò': {'O', "grave"}, 'Ô': {'O', "circumflex"}, 'Õ': {'O', "tilde"}, 'Ö': {'O', "diaeresis"},
	'Ú': {'U', "acute"}, 'Ù': {'U', "grave"}, 'Û': {'U', "circumflex"}, 'Ü': {'U', "diaeresis"},
	'Ñ': {'N', "tilde"}, 'Ç': {'C', "cedilla"},
}

// UnsupportedRuneError reports a character the built-in font cannot draw.
type UnsupportedRuneError struct {
	Text string
	Rune rune
}

func (e *UnsupportedRuneError) Error() string {
	return fmt.Sprintf("imagegen: the font has no glyph for %q in %q (only upper-case letters, digits and punctuation)", e.Rune, e.Text)
}

// Supported reports whether the font can draw r.
func Supported(r rune) bool {
	if _, ok := glyphs[r]; ok {
		return true
	}
	_, ok := accented[r]
	return ok
}

// Fold makes s drawable: letters are upper-cased and any remaining
// character the font lacks becomes '?'. Catalog text is authored drawable;
// Fold is for arbitrary page text.
func Fold(s string) string {
	s = strings.ToUpper(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || Supported(r):
			b.WriteRune(r)
		case r == 'ß':
			b.WriteString("SS")
		case r == '\t':
			b.WriteRune(' ')
		default:
			b.WriteRune('?')
		}
	}
	return b.String()
}

// Check returns an *UnsupportedRuneError for the first character of s the
// font cannot draw.
func Check(s string) error {
	for _, r := range s {
		if !Supported(r) {
			return &UnsupportedRuneError{Text: s, Rune: r}
		}
	}
	return nil
}

// TextWidth is the width in pixels of one line of s at scale, without the
// spacing after the last character.
func TextWidth(s string, scale int) int {
	n := len([]rune(s))
	if n == 0 {
		return 0
	}
	return (n*GlyphAdvance - 1) * scale
}

// TextHeight is the height in pixels of one line at scale: the cell from the
// accent rows to the tail rows.
func TextHeight(scale int) int { return (markRows + glyphH + tailRows) * scale }

// Box is an axis-aligned rectangle in pixels.
type Box struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// Rect converts the box to an image.Rectangle.
func (b Box) Rect() image.Rectangle { return image.Rect(b.X, b.Y, b.X+b.Width, b.Y+b.Height) }

// BoxOf converts a rectangle to a Box.
func BoxOf(r image.Rectangle) Box { return Box{X: r.Min.X, Y: r.Min.Y, Width: r.Dx(), Height: r.Dy()} }

// Word is one drawn word and its box.
type Word struct {
	Text string `json:"text"`
	Box  Box    `json:"box"`
}

// DrawText draws one line of s with its top-left cell corner at (x, y) and
// returns the boxes of its words (runs separated by spaces). Each box spans
// the words' full cells, accents and tails included, so boxes of one line
// share a top and height.
func DrawText(dst draw.Image, x, y, scale int, s string, col color.Color) ([]Word, error) {
	if err := Check(s); err != nil {
		return nil, err
	}
	if scale < 1 {
		scale = 1
	}
	src := image.NewUniform(col)
	var words []Word
	start, startX := -1, 0
	flush := func(end int, endX int) {
		if start >= 0 {
			words = append(words, Word{Text: string([]rune(s)[start:end]), Box: Box{X: startX, Y: y, Width: endX - startX, Height: TextHeight(scale)}})
			start = -1
		}
	}
	cx := x
	for i, r := range []rune(s) {
		if r == ' ' {
			flush(i, cx-scale)
			cx += GlyphAdvance * scale
			continue
		}
		if start < 0 {
			start, startX = i, cx
		}
		drawGlyph(dst, src, cx, y, scale, r)
		cx += GlyphAdvance * scale
	}
	flush(len([]rune(s)), cx-scale)
	return words, nil
}

func drawGlyph(dst draw.Image, src image.Image, x, y, scale int, r rune) {
	base, mark := r, ""
	if a, ok := accented[r]; ok {
		base, mark = a.base, a.mark
	}
	rows := glyphs[base]
	for j, row := range rows {
		plotRow(dst, src, x, y+(markRows+j)*scale, scale, row)
	}
	if mark == "" {
		return
	}
	m := marks[mark]
	top := y
	if mark == "cedilla" {
		top = y + (markRows+glyphH)*scale
	}
	for j, row := range m {
		plotRow(dst, src, x, top+j*scale, scale, row)
	}
}

func plotRow(dst draw.Image, src image.Image, x, y, scale int, row string) {
	for i := 0; i < len(row); i++ {
		if row[i] == '#' {
			r := image.Rect(x+i*scale, y, x+(i+1)*scale, y+scale)
			draw.Draw(dst, r, src, image.Point{}, draw.Over)
		}
	}
}
