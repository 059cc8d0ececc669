package image

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/imagegen"
)

// Minted image ids are self-describing: an id carries the whole recipe of
// its image (the catalog source or the screenshot, then every processing
// step), so any process can make the image again from the id alone, and a
// response replayed from a recording still points at a real image.
//
// An id is an 8-hex-digit checksum followed by the recipe in unpadded
// URL-safe base64. A chain is kept flat (a resize of a compress of X is X
// plus two steps, not an id inside an id), so ids grow by a few characters
// per step, and chains are capped at maxRecipeSteps.
//
// The recipe text is one field per line:
//
//	c <catalog path>                               a catalog image or thumbnail
//	s <host> <width> <height> <0|1> <page url>     a screenshot of a site
//
// followed by one line per step: "r<w>x<h>" resize, "q<quality>" compress,
// "f<format>" convert (quality 90) and "n" background removal.

// maxRecipeSteps bounds the processing steps of one minted image.
const maxRecipeSteps = 8

// maxIDLen bounds a minted id; longer ids are rejected before decoding.
const maxIDLen = 1024

// imageSpec is a decoded minted-image recipe.
type imageSpec struct {
	Source string   // the first line: "c ..." or "s ..."
	Steps  []string // processing steps, oldest first
}

// RecipeError reports a processing chain that cannot be minted.
type RecipeError struct{ Steps int }

func (e *RecipeError) Error() string {
	return fmt.Sprintf("the image has been processed %d times already; at most %d processing steps may be chained", e.Steps, maxRecipeSteps)
}

func (s imageSpec) text() string {
	return strings.Join(append([]string{s.Source}, s.Steps...), "\n")
}

// imageChecksum is a short integrity check over the recipe text: it is not
// a secret, it only makes made-up or mistyped ids fail cleanly.
func imageChecksum(text string) string {
	h := sha256.Sum256([]byte("understudy image recipe\x00" + text))
	return hex.EncodeToString(h[:4])
}

// id encodes the spec.
func (s imageSpec) id() string {
	t := s.text()
	return imageChecksum(t) + base64.RawURLEncoding.EncodeToString([]byte(t))
}

// dir is the URL directory of the spec's image: the API that minted it.
func (s imageSpec) dir() string {
	if len(s.Steps) == 0 {
		return "screenshots"
	}
	if s.Steps[len(s.Steps)-1] == "n" {
		return "nobg"
	}
	return "processed"
}

// parent is the spec of the image the last step was applied to, and
// whether there is one that is itself minted.
func (s imageSpec) parent() (imageSpec, bool) {
	if len(s.Steps) == 0 {
		return imageSpec{}, false
	}
	if len(s.Steps) == 1 && strings.HasPrefix(s.Source, "c ") {
		return imageSpec{}, false
	}
	return imageSpec{Source: s.Source, Steps: s.Steps[:len(s.Steps)-1]}, true
}

// decodeImageID parses and verifies an id; ok is false for anything that
// was not minted here.
func decodeImageID(id string) (imageSpec, bool) {
	if len(id) < 10 || len(id) > maxIDLen {
		return imageSpec{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(id[8:])
	if err != nil {
		return imageSpec{}, false
	}
	t := string(raw)
	if imageChecksum(t) != id[:8] {
		return imageSpec{}, false
	}
	lines := strings.Split(t, "\n")
	s := imageSpec{Source: lines[0], Steps: lines[1:]}
	if len(s.Steps) > maxRecipeSteps {
		return imageSpec{}, false
	}
	switch {
	case strings.HasPrefix(s.Source, "c ") && len(s.Steps) > 0:
	case strings.HasPrefix(s.Source, "s "):
	default:
		return imageSpec{}, false
	}
	for _, st := range s.Steps {
		if _, ok := parseStep(st); !ok {
			return imageSpec{}, false
		}
	}
	return s, true
}

// screenshotSource is the decoded source line of a screenshot.
type screenshotSource struct {
	host          string
	width, height int
	full          bool
	pageURL       string
}

func (s screenshotSource) line() string {
	f := "0"
	if s.full {
		f = "1"
	}
	return strings.Join([]string{"s", s.host, strconv.Itoa(s.width), strconv.Itoa(s.height), f, s.pageURL}, " ")
}

func parseScreenshotSource(line string) (screenshotSource, bool) {
	f := strings.Split(line, " ")
	if len(f) != 6 || f[0] != "s" || (f[4] != "0" && f[4] != "1") {
		return screenshotSource{}, false
	}
	w, err1 := strconv.Atoi(f[2])
	h, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || w < imagegen.MinPageWidth || w > imagegen.MaxPageWidth || h < imagegen.MinPageHeight || h > imagegen.MaxPageHeight {
		return screenshotSource{}, false
	}
	return screenshotSource{host: f[1], width: w, height: h, full: f[4] == "1", pageURL: f[5]}, true
}

// imageStep is a decoded processing step.
type imageStep struct {
	op            string // resize, compress, convert, nobg
	width, height int
	quality       int
	format        string
}

func (st imageStep) line() string {
	switch st.op {
	case "resize":
		return "r" + strconv.Itoa(st.width) + "x" + strconv.Itoa(st.height)
	case "compress":
		return "q" + strconv.Itoa(st.quality)
	case "convert":
		return "f" + st.format
	}
	return "n"
}

func parseStep(s string) (imageStep, bool) {
	if s == "" {
		return imageStep{}, false
	}
	num := func(v string, lo, hi int) (int, bool) {
		n, err := strconv.Atoi(v)
		return n, err == nil && n >= lo && n <= hi && strconv.Itoa(n) == v
	}
	switch s[0] {
	case 'r':
		ws, hs, ok := strings.Cut(s[1:], "x")
		w, ok1 := num(ws, 1, maxImageSide)
		h, ok2 := num(hs, 1, maxImageSide)
		return imageStep{op: "resize", width: w, height: h}, ok && ok1 && ok2
	case 'q':
		q, ok := num(s[1:], 1, 100)
		return imageStep{op: "compress", quality: q}, ok
	case 'f':
		f := s[1:]
		return imageStep{op: "convert", format: f, quality: 90}, f == "png" || f == "jpeg" || f == "gif"
	case 'n':
		return imageStep{op: "nobg"}, s == "n"
	}
	return imageStep{}, false
}

// mintedPath is "<dir>/<id>.<ext>" for a spec whose output format is known.
func mintedPath(s imageSpec, format string) string {
	return s.dir() + "/" + s.id() + "." + imagegen.Ext(format)
}

// specOf is the recipe of an image fetched from path: its own when minted,
// else the catalog source (with no steps yet).
func specOf(path string) imageSpec {
	if s, ok := specOfMinted(path); ok {
		return s
	}
	return imageSpec{Source: "c " + path}
}

// specOfMinted decodes "<dir>/<id>.<ext>"; the directory must be the one the
// id's last step mints into.
func specOfMinted(path string) (imageSpec, bool) {
	dir, file, ok := strings.Cut(path, "/")
	if !ok {
		return imageSpec{}, false
	}
	id, _, ok := strings.Cut(file, ".")
	if !ok {
		return imageSpec{}, false
	}
	if newID, ok := resolveLegacy(dir, id); ok {
		id = newID
	}
	s, ok := decodeImageID(id)
	if !ok || s.dir() != dir {
		return imageSpec{}, false
	}
	return s, true
}

// mintStep records a processing step applied to in and returns the minted
// image's path and id; the image is made when it is fetched.
func mintStep(in *imageRec, st imageStep, outFormat string) (string, string, error) {
	s := specOf(in.Path)
	if len(s.Steps) >= maxRecipeSteps {
		return "", "", &RecipeError{Steps: len(s.Steps)}
	}
	s.Steps = append(append([]string(nil), s.Steps...), st.line())
	id := s.id()
	var args map[string]any
	switch st.op {
	case "resize":
		args = map[string]any{"width": st.width, "height": st.height}
	case "compress":
		args = map[string]any{"quality": st.quality}
	case "convert":
		args = map[string]any{"format": st.format, "quality": st.quality}
	default:
		args = map[string]any{}
	}
	rememberLegacy(s.dir(), legacyID(st.op, in.URL, args), id)
	return mintedPath(s, outFormat), id, nil
}

// mintScreenshot returns the path and id of a site's screenshot.
func mintScreenshot(src screenshotSource) (string, string) {
	s := imageSpec{Source: src.line()}
	id := s.id()
	rememberLegacy(s.dir(), legacyID("screenshot", src.host, map[string]any{"width": src.width, "height": src.height, "fullpage": src.full}), id)
	return mintedPath(s, "png"), id
}

// Ids minted before recipes were self-describing were 24 hex digits of a
// hash over the recipe. They cannot be decoded, so they resolve only in a
// process that has minted the same recipe since it started; the index maps
// each such id to its self-describing successor.
var legacyImageIDs = mustLRU[string](1 << 14)

// legacyID is the old-style id of a recipe: the hash over its operation,
// input and arguments.
func legacyID(op, input string, args map[string]any) string {
	h := sha256.New()
	h.Write([]byte(op + "\x00" + input + "\x00"))
	h.Write(canon.MustJSON(args))
	return hex.EncodeToString(h.Sum(nil))[:24]
}

// rememberLegacy records the old-style id of a newly minted one.
func rememberLegacy(dir, old, id string) { legacyImageIDs.Add(dir+"/"+old, id) }

// resolveLegacy maps an old-style id minted into dir to its successor.
func resolveLegacy(dir, old string) (string, bool) {
	if len(old) != 24 {
		return "", false
	}
	return legacyImageIDs.Get(dir + "/" + old)
}
