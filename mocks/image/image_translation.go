package image

import (
	"context"
	"strings"

	"github.com/understudy/understudy/internal/imagegen"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-in for image_translation (own): the text of an image, read as the
// OCR reads it, translated line by line with the authored translations.

func translateImageText(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	target := strings.ToLower(c.ArgString("target_lang"))
	source := strings.ToLower(c.ArgString("source_lang"))
	if source == "" {
		source = "auto"
	}
	if !isTargetLanguage(target) {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"status": "error", "code": "UNSUPPORTED_TARGET_LANGUAGE", "message": "target_lang '" + c.ArgString("target_lang") + "' is not supported. Use image_translation_languages for the list of codes."}}
	}
	if source != "auto" && !ocrLanguageKnown(source) {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"status": "error", "code": "UNSUPPORTED_SOURCE_LANGUAGE", "message": "source_lang '" + c.ArgString("source_lang") + "' is not supported. Use image_translation_languages for the list of codes, or omit it to detect the language."}}
	}
	rec, err := fetch(iw, c.ArgString("image_url"))
	if err != nil {
		fe, ok := err.(*fetchError)
		if !ok {
			return nil, err
		}
		msg := "Could not fetch image: " + fe.Reason
		if fe.NotImage {
			msg = "image_url must point to an image file (JPEG, PNG or GIF), not a web page"
		}
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"status": "error", "code": "IMAGE_FETCH_FAILED", "message": msg}}
	}
	blocks := []map[string]any{}
	var out []string
	for _, l := range joinBlocks(rec.Lines) {
		if l.Language == "" || (source != "auto" && l.Language != source) {
			continue // a bare host name or brand is not translated
		}
		tr, ok := l.Translations[target], true
		switch {
		case l.Language == target:
			tr = l.Text
		case tr == "":
			tr, ok = l.Text, false
		}
		blocks = append(blocks, map[string]any{
			"original_text":   l.Text,
			"translated_text": tr,
			"source_lang":     l.Language,
			"translated":      ok,
			"box":             boxJSON(l.Box),
		})
		out = append(out, tr)
	}
	detected := rec.Lang
	if source != "auto" {
		detected = source
	}
	b := rec.Img.Bounds()
	data := map[string]any{
		"image_url":       rec.URL,
		"width":           b.Dx(),
		"height":          b.Dy(),
		"source_lang":     detected,
		"target_lang":     target,
		"blocks":          blocks,
		"translated_text": strings.Join(out, "\n"),
	}
	msg := ""
	if len(blocks) == 0 {
		msg = "No text found in the image"
	}
	return map[string]any{"status": "ok", "message": msg, "data": data}, nil
}

// joinBlocks joins the lines a text wrapped into (a paragraph of a page)
// back into one text, translated once, boxed by the union of its lines.
func joinBlocks(lines []textLine) []textLine {
	var out []textLine
	for _, l := range lines {
		if n := len(out); n > 0 && l.Block != 0 && out[n-1].Block == l.Block {
			prev := &out[n-1]
			prev.Text += " " + l.Text
			prev.Box = imagegen.BoxOf(prev.Box.Rect().Union(l.Box.Rect()))
			continue
		}
		out = append(out, l)
	}
	return out
}

func isTargetLanguage(code string) bool {
	for _, l := range imagegen.TargetLanguages {
		if l == code {
			return true
		}
	}
	return false
}

func imageTranslationLanguages(_ context.Context, _ *world.World, _ *standin.Call) (any, error) {
	src := make([]map[string]any, len(ocrLanguages))
	for i, l := range ocrLanguages {
		src[i] = map[string]any{"code": l[0], "name": l[1]}
	}
	names := map[string]string{}
	for _, l := range ocrLanguages {
		names[l[0]] = l[1]
	}
	tgt := make([]map[string]any, len(imagegen.TargetLanguages))
	for i, l := range imagegen.TargetLanguages {
		tgt[i] = map[string]any{"code": l, "name": names[l]}
	}
	return map[string]any{"status": "ok", "data": map[string]any{"source_languages": src, "target_languages": tgt}}, nil
}
