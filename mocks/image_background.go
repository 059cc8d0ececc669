package mocks

import (
	"context"
	"strings"
)

// Stand-in for background_removal (background-removal4.p.rapidapi.com): the
// foreground cut out into a PNG with transparency, kept as a result that
// get_removal_result fetches by id.

func init() {
	register("background_removal", "remove_background", removeBackgroundAPI)
	register("background_removal", "get_removal_result", getRemovalResult)
}

func removeBackgroundAPI(_ context.Context, w *World, c *Call) (any, error) {
	iw := part[*imageWorld](w, imagesPart)
	rec, err := iw.fetch(c.argString("image_url"))
	if err != nil {
		fe, ok := err.(*fetchError)
		if !ok {
			return nil, err
		}
		details := fe.Reason
		if fe.NotImage {
			details = "the URL returned text/html; expected image/jpeg, image/png or image/gif"
		}
		return nil, &APIError{Status: 400, Body: map[string]any{"error": "Failed to download image", "details": details, "image_url": fe.URL}}
	}
	p, id := mint("nobg", recipe{Op: "nobg", Input: rec.URL, Args: map[string]any{}, Ext: "png"})
	imageStore.recipes.Add("id:nobg:"+id, recipe{Op: "nobg", Input: rec.URL, Args: map[string]any{"path": p}, Ext: "png"})
	return removalResult(iw, id, p, rec.URL)
}

func removalResult(iw *imageWorld, id, p, source string) (any, error) {
	out, err := iw.fetch(mintedURL(p))
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
		"foreground": map[string]any{"box": imgBoxJSON(box), "coverage": cov},
		"source_url": source,
	}, nil
}

func getRemovalResult(_ context.Context, w *World, c *Call) (any, error) {
	iw := part[*imageWorld](w, imagesPart)
	id := strings.TrimSpace(c.argString("result_id"))
	r, ok := imageStore.recipes.Get("id:nobg:" + id)
	if !ok {
		return nil, &APIError{Status: 404, Body: map[string]any{"error": "Result not found", "details": "No background removal result with id '" + id + "'. Results are created by remove_background.", "result_id": id}}
	}
	return removalResult(iw, id, r.Args["path"].(string), r.Input)
}
