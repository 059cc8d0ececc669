package image

import (
	"context"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-in for ocr_extract_text (ocr-extract-text.p.rapidapi.com): the text
// drawn in an image, line by line with word boxes.

// ocrLanguages are the languages the OCR reads (Latin script; Japanese as
// romaji), with their names.
var ocrLanguages = [][2]string{{"de", "German"}, {"en", "English"}, {"es", "Spanish"}, {"fr", "French"}, {"it", "Italian"}, {"ja", "Japanese (romaji)"}, {"pt", "Portuguese"}}

func ocrLanguageKnown(code string) bool {
	for _, l := range ocrLanguages {
		if l[0] == code {
			return true
		}
	}
	return false
}

func ocrImageURL(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	lang := strings.ToLower(c.ArgString("language"))
	if lang == "" {
		lang = "auto"
	}
	if lang != "auto" && !ocrLanguageKnown(lang) {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"status": "error", "message": "Unsupported language '" + c.ArgString("language") + "'. See /languages for the supported language codes."}}
	}
	rec, err := fetch(iw, c.ArgString("url"))
	if err != nil {
		return nil, ocrError(err)
	}
	lines := make([]map[string]any, 0, len(rec.Lines))
	var texts []string
	for _, l := range rec.Lines {
		if lang != "auto" && l.Language != "" && l.Language != lang {
			continue
		}
		words := make([]map[string]any, len(l.Words))
		for i, wd := range l.Words {
			words[i] = map[string]any{"text": wd.Text, "bounding_box": boxJSON(wd.Box)}
		}
		lines = append(lines, map[string]any{"text": l.Text, "language": l.Language, "bounding_box": boxJSON(l.Box), "words": words})
		texts = append(texts, l.Text)
	}
	detected := rec.Lang
	if lang != "auto" {
		detected = lang
	}
	b := rec.Img.Bounds()
	return map[string]any{
		"status":   "success",
		"language": detected,
		"text":     strings.Join(texts, "\n"),
		"lines":    lines,
		"image":    map[string]any{"url": rec.URL, "width": b.Dx(), "height": b.Dy()},
	}, nil
}

func ocrSupportedLanguages(_ context.Context, _ *world.World, _ *standin.Call) (any, error) {
	langs := make([]map[string]any, len(ocrLanguages))
	for i, l := range ocrLanguages {
		langs[i] = map[string]any{"code": l[0], "name": l[1]}
	}
	return map[string]any{"status": "success", "languages": langs}, nil
}

func ocrError(err error) error {
	fe, ok := err.(*fetchError)
	if !ok {
		return err
	}
	msg := "Unable to download image from the provided URL (" + fe.Reason + ")"
	if fe.NotImage {
		msg = "The provided URL is not an image. Supported formats: JPEG, PNG, GIF."
	}
	return &sandbox.Rejection{Status: 400, Body: map[string]any{"status": "error", "message": msg}}
}
