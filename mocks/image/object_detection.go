package image

import (
	"context"
	"maps"
	"slices"

	"github.com/understudy/understudy/internal/imagegen"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-in for object_detection (objects-detection.p.rapidapi.com): the
// objects drawn in an image, as the catalog knows them, scaled to the image
// actually fetched (a resized copy or a screenshot that shows the image).

func detectObjects(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	iw := w.Images
	rec, err := fetch(iw, c.ArgString("url"))
	if err != nil {
		return nil, detectionError(err)
	}
	b := rec.Img.Bounds()
	objs := make([]map[string]any, 0, len(rec.Objects))
	counts := map[string]int{}
	for _, o := range rec.Objects {
		objs = append(objs, map[string]any{
			"label":      o.Label,
			"confidence": o.Confidence,
			"box":        boxJSON(o.Box),
			"box_normalized": map[string]any{
				"x_min": round4(float64(o.Box.X) / float64(b.Dx())),
				"y_min": round4(float64(o.Box.Y) / float64(b.Dy())),
				"x_max": round4(float64(o.Box.X+o.Box.Width) / float64(b.Dx())),
				"y_max": round4(float64(o.Box.Y+o.Box.Height) / float64(b.Dy())),
			},
		})
		counts[o.Label]++
	}
	labels := make([]map[string]any, 0, len(counts))
	for _, l := range slices.Sorted(maps.Keys(counts)) {
		labels = append(labels, map[string]any{"label": l, "count": counts[l]})
	}
	return map[string]any{
		"success": true,
		"message": "",
		"results": map[string]any{
			"image":         map[string]any{"url": rec.URL, "width": b.Dx(), "height": b.Dy()},
			"objects_count": len(objs),
			"objects":       objs,
			"labels":        labels,
		},
	}, nil
}

func listLabels(_ context.Context, w *world.World, _ *standin.Call) (any, error) {
	iw := w.Images
	return map[string]any{"success": true, "count": len(iw.Labels), "labels": append([]string(nil), iw.Labels...)}, nil
}

func detectionError(err error) error {
	fe, ok := err.(*fetchError)
	if !ok {
		return err
	}
	msg := "Could not fetch image from url: " + fe.Reason
	if fe.NotImage {
		msg = "The url does not point to an image (content-type: text/html). Provide a direct link to a JPEG, PNG or GIF image."
	}
	return &sandbox.Rejection{Status: 400, Body: map[string]any{"success": false, "message": msg, "results": nil}}
}

func boxJSON(b imagegen.Box) map[string]any {
	return map[string]any{"x": b.X, "y": b.Y, "width": b.Width, "height": b.Height}
}

func round4(f float64) float64 { return float64(int(f*10000+0.5)) / 10000 }
