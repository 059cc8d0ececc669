package world

import (
	"bytes"
	"image"
	"image/png"
	"io/fs"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/bounded"
)

// worldCopy is a copy of every world file, to break one at a time.
func worldCopy(t *testing.T) fstest.MapFS {
	t.Helper()
	sub, err := fs.Sub(fixtures.FS, "world")
	require.NoError(t, err)
	m := fstest.MapFS{}
	require.NoError(t, fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	}))
	return m
}

func TestMasksDecodeOnFirstUse(t *testing.T) {
	w, err := DefaultWorld()
	require.NoError(t, err)
	iw := w.Images
	n := 0
	for name, im := range iw.ByName {
		m, err := iw.Mask(name)
		require.NoError(t, err, name)
		if im.Foreground == nil {
			require.Nil(t, m, name)
			continue
		}
		n++
		require.NotNil(t, m, name)
		require.Equal(t, image.Rect(0, 0, im.Width, im.Height), m.Bounds(), "%s: the mask covers the image", name)
		again, err := iw.Mask(name)
		require.NoError(t, err)
		require.Same(t, m, again, "%s: decoded once", name)
	}
	require.Positive(t, n, "the catalog has images with foreground masks")
	m, err := iw.Mask("no such image")
	require.NoError(t, err)
	require.Nil(t, m)
}

func TestMaskConcurrentFirstUse(t *testing.T) {
	w, err := LoadWorld(worldCopy(t))
	require.NoError(t, err)
	var name string
	for n, im := range w.Images.ByName {
		if im.Foreground != nil {
			name = n
			break
		}
	}
	require.NotEmpty(t, name)
	got := make([]*image.Gray, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			m, err := w.Images.Mask(name)
			if err == nil {
				got[i] = m
			}
		})
	}
	bounded.Wait(t, &wg, "concurrent loads")
	for _, m := range got {
		require.NotNil(t, m)
		require.Same(t, got[0], m)
	}
}

func TestMaskErrors(t *testing.T) {
	base := worldCopy(t)
	var maskFile string
	w, err := LoadWorld(base)
	require.NoError(t, err)
	for _, im := range w.Images.ByName {
		if im.Foreground != nil {
			maskFile = im.Foreground.File
			break
		}
	}
	require.NotEmpty(t, maskFile)
	var rgba bytes.Buffer
	require.NoError(t, png.Encode(&rgba, image.NewRGBA(image.Rect(0, 0, 2, 2))))
	for _, tc := range []struct {
		name, data, msg string
	}{
		{"not greyscale", rgba.String(), "not 8-bit greyscale"},
		{"not an image", "not a png", "mask of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := fstest.MapFS{}
			for k, v := range base {
				m[k] = v
			}
			m[maskFile] = &fstest.MapFile{Data: []byte(tc.data)}
			_, err := LoadWorld(m)
			require.ErrorContains(t, err, "world part images")
			require.ErrorContains(t, err, tc.msg)
		})
	}
}

func TestLoadPartsFirstErrorInOrder(t *testing.T) {
	m := worldCopy(t)
	// holidays comes before recipes and travel in the parts' order,
	// whatever order they finish loading in.
	m["recipes.json"] = &fstest.MapFile{Data: []byte(`{`)}
	m["holidays.json"] = &fstest.MapFile{Data: []byte(`{`)}
	m["travel_places.json"] = &fstest.MapFile{Data: []byte(`{`)}
	for range 5 {
		_, err := LoadWorld(m)
		require.ErrorContains(t, err, "world part holidays:")
	}
}

func TestZoneLoadedOnce(t *testing.T) {
	for _, name := range []string{"Europe/Lisbon", "Asia/Kolkata", "UTC"} {
		l, err := Zone(name)
		require.NoError(t, err)
		require.Equal(t, name, l.String())
		again, err := Zone(name)
		require.NoError(t, err)
		require.Same(t, l, again, name)
	}
	_, err := Zone("Mars/Olympus")
	require.Error(t, err)
	_, err = Zone("Mars/Olympus")
	require.Error(t, err, "a failure is not kept as a zone")
}

// TestWebIndexBuiltOnFirstSearch: the pages' and videos' indexes, built by
// the first search, rank as an index built at once does, under
// concurrent first searches.
func TestWebIndexBuiltOnFirstSearch(t *testing.T) {
	w, err := LoadWorld(worldCopy(t))
	require.NoError(t, err)
	queries := []string{"Lisbon travel guide", "eiffel tower", "how to cook pasta", "python tutorial"}
	got := make([][][]*WebDoc, 4)
	var wg sync.WaitGroup
	for g := range got {
		wg.Go(func() {
			for _, q := range queries {
				got[g] = append(got[g], w.Basic.PageIndex.Rank(q), w.Basic.VideoIndex.Rank(q))
			}
		})
	}
	bounded.Wait(t, &wg, "concurrent loads")
	at := 0
	hits := 0
	for _, q := range queries {
		for _, x := range []*WebIndex{w.Basic.PageIndex, w.Basic.VideoIndex} {
			want := RankDocs(x.docs, q)
			hits += len(want)
			for g := range got {
				require.Equal(t, want, got[g][at], "%q", q)
			}
			at++
		}
	}
	require.Positive(t, hits)
}
