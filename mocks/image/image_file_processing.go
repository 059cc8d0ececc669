package image

import (
	"context"
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-in for image_file_processing (own): real resizing, compression and
// format conversion of catalog images and of images the image APIs minted.
// Outputs are minted at deterministic URLs under /processed/.

// maxImageSide bounds the output of resize_image.
const maxImageSide = 4096

func processingError(code, msg string) error {
	return &sandbox.Rejection{Status: 400, Body: map[string]any{"status": "error", "code": code, "message": msg}}
}

func fetchForProcessing(iw *world.Images, raw string) (*imageRec, error) {
	rec, err := fetch(iw, raw)
	if err == nil {
		return rec, nil
	}
	fe, ok := err.(*fetchError)
	if !ok {
		return nil, err
	}
	if fe.NotImage {
		return nil, processingError("NOT_AN_IMAGE", fmt.Sprintf("%s is not an image (content-type: text/html); supported inputs are PNG, JPEG and GIF", fe.URL))
	}
	return nil, processingError("FETCH_FAILED", fmt.Sprintf("Could not fetch image from %s: %s", fe.URL, fe.Reason))
}

func colorMode(img image.Image) string {
	switch img.(type) {
	case *image.Gray, *image.Gray16:
		return "L"
	case *image.Paletted:
		return "P"
	}
	if hasAlpha(img) {
		return "RGBA"
	}
	return "RGB"
}

// process mints the image a step makes of in and fetches it.
func process(iw *world.Images, in *imageRec, st imageStep, outFormat string) (*imageRec, error) {
	p, _, err := mintStep(in, st, outFormat)
	if err != nil {
		return nil, processingError("INVALID_PARAMETER", err.Error())
	}
	return fetch(iw, mintedURL(p))
}

func imageInfo(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	rec, err := fetchForProcessing(iw, c.ArgString("image_url"))
	if err != nil {
		return nil, err
	}
	b := rec.Img.Bounds()
	return map[string]any{"status": "ok", "data": map[string]any{
		"url":          rec.URL,
		"format":       rec.Format,
		"mime_type":    world.MimeTypes[rec.Format],
		"width":        b.Dx(),
		"height":       b.Dy(),
		"size_bytes":   len(rec.Bytes),
		"color_mode":   colorMode(rec.Img),
		"has_alpha":    hasAlpha(rec.Img),
		"aspect_ratio": math.Round(float64(b.Dx())/float64(b.Dy())*1000) / 1000,
		"megapixels":   math.Round(float64(b.Dx()*b.Dy())/1e6*1000) / 1000,
	}}, nil
}

// sizeArg reads a pixel size argument; ok is false when it is absent.
func sizeArg(c *standin.Call, name string) (int, bool, error) {
	if !c.Has(name) || c.ArgString(name) == "" {
		return 0, false, nil
	}
	f, ok := c.ArgFloat(name)
	if !ok || f != math.Trunc(f) || f < 1 || f > maxImageSide {
		return 0, true, processingError("INVALID_PARAMETER", fmt.Sprintf("%s must be a whole number of pixels between 1 and %d, got %q", name, maxImageSide, c.ArgString(name)))
	}
	return int(f), true, nil
}

func resizeImage(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	width, hasW, err := sizeArg(c, "width")
	if err != nil {
		return nil, err
	}
	if !hasW {
		return nil, processingError("INVALID_PARAMETER", "width is required")
	}
	height, hasH, err := sizeArg(c, "height")
	if err != nil {
		return nil, err
	}
	keep := c.ArgBool("keep_aspect", true)
	rec, err := fetchForProcessing(iw, c.ArgString("image_url"))
	if err != nil {
		return nil, err
	}
	b := rec.Img.Bounds()
	switch {
	case !hasH:
		height = max(1, int(math.Round(float64(width)*float64(b.Dy())/float64(b.Dx()))))
	case keep: // fit inside width×height
		s := math.Min(float64(width)/float64(b.Dx()), float64(height)/float64(b.Dy()))
		width = max(1, int(math.Round(float64(b.Dx())*s)))
		height = max(1, int(math.Round(float64(b.Dy())*s)))
	}
	if height > maxImageSide || width > maxImageSide {
		return nil, processingError("INVALID_PARAMETER", fmt.Sprintf("the output would be %d×%d; neither side may exceed %d pixels", width, height, maxImageSide))
	}
	out, err := process(iw, rec, imageStep{op: "resize", width: width, height: height}, rec.Format)
	if err != nil {
		return nil, err
	}
	return map[string]any{"status": "ok", "data": map[string]any{
		"output_url": out.URL,
		"width":      width,
		"height":     height,
		"format":     out.Format,
		"size_bytes": len(out.Bytes),
		"original":   map[string]any{"url": rec.URL, "width": b.Dx(), "height": b.Dy(), "size_bytes": len(rec.Bytes)},
	}}, nil
}

func compressImage(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	quality := 75
	if c.Has("quality") && c.ArgString("quality") != "" {
		f, ok := c.ArgFloat("quality")
		if !ok || f != math.Trunc(f) || f < 1 || f > 100 {
			return nil, processingError("INVALID_PARAMETER", fmt.Sprintf("quality must be a whole number from 1 to 100, got %q", c.ArgString("quality")))
		}
		quality = int(f)
	}
	rec, err := fetchForProcessing(iw, c.ArgString("image_url"))
	if err != nil {
		return nil, err
	}
	out, err := process(iw, rec, imageStep{op: "compress", quality: quality}, rec.Format)
	if err != nil {
		return nil, err
	}
	b := out.Img.Bounds()
	before, after := len(rec.Bytes), len(out.Bytes)
	return map[string]any{"status": "ok", "data": map[string]any{
		"output_url":             out.URL,
		"format":                 out.Format,
		"width":                  b.Dx(),
		"height":                 b.Dy(),
		"quality":                quality,
		"original_size_bytes":    before,
		"size_bytes":             after,
		"size_reduction_percent": math.Round(float64(before-after)/float64(before)*1000) / 10,
	}}, nil
}

func convertImageFormat(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	format := strings.ToLower(c.ArgString("format"))
	switch format {
	case "jpg":
		format = "jpeg"
	case "png", "jpeg", "gif":
	default:
		return nil, processingError("INVALID_PARAMETER", fmt.Sprintf("format must be one of png, jpeg, gif, got %q", c.ArgString("format")))
	}
	rec, err := fetchForProcessing(iw, c.ArgString("image_url"))
	if err != nil {
		return nil, err
	}
	out, err := process(iw, rec, imageStep{op: "convert", format: format, quality: 90}, format)
	if err != nil {
		return nil, err
	}
	b := out.Img.Bounds()
	return map[string]any{"status": "ok", "data": map[string]any{
		"output_url":    out.URL,
		"format":        out.Format,
		"mime_type":     world.MimeTypes[out.Format],
		"source_format": rec.Format,
		"width":         b.Dx(),
		"height":        b.Dy(),
		"size_bytes":    len(out.Bytes),
	}}, nil
}
