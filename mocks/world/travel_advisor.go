package world

import (
	"fmt"
	"strconv"
	"strings"
)

// taPhotoURL is a TripAdvisor media URL for a photo id at one size prefix.
func AttractionPhotoURL(id int, prefix string) string {
	h := fmt.Sprintf("%08x", uint32(id))
	return fmt.Sprintf("https://media-cdn.tripadvisor.com/media/photo-%s/%s/%s/%s/%s/caption.jpg", prefix, h[0:2], h[2:4], h[4:6], h[6:8])
}

func AttractionImages(id int) map[string]any {
	img := func(prefix string, w, h int) map[string]any {
		return map[string]any{"url": AttractionPhotoURL(id, prefix), "width": strconv.Itoa(w), "height": strconv.Itoa(h)}
	}
	return map[string]any{
		"thumbnail": img("t", 50, 50), "small": img("l", 150, 150), "medium": img("f", 250, 167),
		"large": img("s", 550, 367), "original": img("o", 2048, 1365),
	}
}

// taSlug is the URL form of a name: "belem tower" → "Belem_Tower".
func Slug(s string) string {
	words := strings.Fields(Fold(s))
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, "_")
}
