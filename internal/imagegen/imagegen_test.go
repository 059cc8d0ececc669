package imagegen

import (
	"image"
	"image/color"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/golden"
)

// worldDir is where the generated catalog is committed.
const worldDir = "../../fixtures/world"

// TestFixtures regenerates the catalog and compares it byte for byte with
// the committed files; -update rewrites them.
func TestFixtures(t *testing.T) {
	_, files, err := Build()
	require.NoError(t, err)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	total := 0
	for _, n := range names {
		golden.Check(t, filepath.Join(worldDir, filepath.FromSlash(n)), files[n])
		total += len(files[n])
	}
	require.Less(t, total, 3<<20, "the catalog must stay well under 3 MB")
}

// TestFacts checks that the recorded facts agree with the pixels: object
// boxes are where they were authored, and text lines hold their words.
func TestFacts(t *testing.T) {
	cat, _, err := Build()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(cat.Images), 30)
	for i, im := range cat.Images {
		s := scenes[i]
		require.Len(t, im.Objects, len(s.objs), im.Name)
		for j, o := range im.Objects {
			a := s.objs[j].box
			require.InDelta(t, a.X, o.Box.X, 1, "%s object %d x", im.Name, j)
			require.InDelta(t, a.Width, o.Box.Width, 2, "%s object %d width", im.Name, j)
			require.InDelta(t, a.Height, o.Box.Height, 2, "%s object %d height", im.Name, j)
			require.True(t, o.Box.Rect().In(image.Rect(0, 0, im.Width, im.Height)))
		}
		if im.Text != nil {
			for _, l := range im.Text.Lines {
				var ws []string
				for _, w := range l.Words {
					ws = append(ws, w.Text)
				}
				require.Equal(t, l.Text, strings.Join(ws, " "))
				require.Len(t, l.Translations, len(TargetLanguages))
			}
		}
	}
}

func TestDrawTextRejectsUnsupported(t *testing.T) {
	dst := image.NewRGBA(image.Rect(0, 0, 100, 20))
	_, err := DrawText(dst, 0, 0, 1, "café", color.Black)
	var ue *UnsupportedRuneError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, 'c', ue.Rune)
	words, err := DrawText(dst, 0, 0, 1, "AB CD", color.Black)
	require.NoError(t, err)
	require.Equal(t, []Word{{"AB", Box{0, 0, 11, TextHeight(1)}}, {"CD", Box{18, 0, 11, TextHeight(1)}}}, words)
}

func TestResize(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 4, 2))
	for x := 0; x < 4; x++ {
		for y := 0; y < 2; y++ {
			v := uint8(0)
			if x >= 2 {
				v = 200
			}
			src.Set(x, y, color.RGBA{v, v, v, 255})
		}
	}
	out := Resize(src, 2, 1)
	require.Equal(t, color.NRGBA{0, 0, 0, 255}, out.NRGBAAt(0, 0))
	require.Equal(t, color.NRGBA{200, 200, 200, 255}, out.NRGBAAt(1, 0))
	up := Resize(src, 8, 4)
	require.Equal(t, 8, up.Rect.Dx())
}

// FuzzRenderPage: any page text renders without panicking, and every line
// reported lies inside the image.
func FuzzRenderPage(f *testing.F) {
	f.Add("Title", "Some text with ünïcödé and 日本語", 800, 600, false)
	f.Add("", "", 1, 1, true)
	f.Fuzz(func(t *testing.T, title, text string, w, h int, full bool) {
		s := RenderPage(Page{Host: "example.com", Title: title, Lines: []string{text}, Theme: color.RGBA{1, 2, 3, 255}}, w, h, full)
		for _, l := range s.Lines {
			require.True(t, l.Box.Rect().In(s.Image.Rect))
			require.NoError(t, Check(l.Text))
		}
	})
}

func BenchmarkRenderPage(b *testing.B) {
	for b.Loop() {
		RenderPage(Page{Host: "example.com", Title: "Example page title", Lines: []string{"One line of text", "Another line of text that is longer"}}, 1280, 720, false)
	}
}
