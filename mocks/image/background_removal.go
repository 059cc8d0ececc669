package image

import (
	"context"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-in for background_removal (background-removal4.p.rapidapi.com): the
// foreground cut out into a PNG with transparency, kept as a result that
// get_removal_result fetches by id.

func removeBackgroundAPI(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	rec, err := fetch(iw, c.ArgString("image_url"))
	if err != nil {
		fe, ok := err.(*fetchError)
		if !ok {
			return nil, err
		}
		details := fe.Reason
		if fe.NotImage {
			details = "the URL returned text/html; expected image/jpeg, image/png or image/gif"
		}
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"error": "Failed to download image", "details": details, "image_url": fe.URL}}
	}
	p, id, err := mintStep(rec, imageStep{op: "nobg"}, "png")
	if err != nil {
		return nil, &sandbox.Rejection{Status: 400, Body: map[string]any{"error": "Invalid image", "details": err.Error(), "image_url": rec.URL}}
	}
	return removalResult(iw, id, p, mintedURL(rec.Path))
}

func removalResult(iw *world.Images, id, p, source string) (any, error) {
	out, err := fetch(iw, mintedURL(p))
	if err != nil {
		return nil, err
	}
	box, cov := maskBox(out.Mask)
	b := out.Img.Bounds()
	return map[string]any{
		"result_id":  id,
		"status":     "completed",
		"result_url": out.URL,
		"format":     "png",
		"width":      b.Dx(),
		"height":     b.Dy(),
		"size_bytes": len(out.Bytes),
		"foreground": map[string]any{"box": boxJSON(box), "coverage": cov},
		"source_url": source,
	}, nil
}

func getRemovalResult(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	id := strings.TrimSpace(c.ArgString("result_id"))
	// The id is the result's recipe; any process can make the result again.
	key := id
	if newID, ok := resolveLegacy("nobg", id); ok {
		key = newID
	}
	s, ok := decodeImageID(key)
	if !ok || s.dir() != "nobg" {
		return nil, &sandbox.Rejection{Status: 404, Body: map[string]any{"error": "Result not found", "details": "No background removal result with id '" + id + "'. Results are created by remove_background.", "result_id": id}}
	}
	srcPath := strings.TrimPrefix(s.Source, "c ")
	if ps, ok := s.parent(); ok {
		in, err := cook(iw, ps)
		if err != nil {
			return nil, err
		}
		srcPath = in.Path
	}
	out, err := removalResult(iw, id, mintedPath(s, "png"), mintedURL(srcPath))
	if err != nil {
		return nil, &sandbox.Rejection{Status: 404, Body: map[string]any{"error": "Result not found", "details": "No background removal result with id '" + id + "'. Results are created by remove_background.", "result_id": id}}
	}
	return out, nil
}
