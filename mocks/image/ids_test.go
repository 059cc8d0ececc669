package image

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

func TestImageIDs(t *testing.T) {
	s := imageSpec{Source: "c product_laptop.jpg", Steps: []string{"r320x240", "q75", "fpng"}}
	got, ok := decodeImageID(s.id())
	require.True(t, ok)
	require.Equal(t, s, got)
	id := s.id()
	tampered := id[:len(id)-2] + "AA"
	for _, bad := range []string{"", "0123456789", "3601dafa20270dd8fe3a2f06", tampered, "00000000" + id[8:]} {
		_, ok := decodeImageID(bad)
		require.False(t, ok, bad)
	}
	// A made-up id gets the API's 404, not a panic.
	sess := standintest.New(t, pipeline)
	_, err := sess.Plain("background_removal", "get_removal_result", map[string]any{"result_id": tampered})
	require.ErrorContains(t, err, "404")
	_, err = sess.Plain("image_file_processing", "image_info", map[string]any{"image_url": mintedURL("processed/" + tampered + ".png")})
	require.ErrorContains(t, err, "404 Not Found")
	// Chains are capped, with a clear error.
	u := "https://images.understudy.test/product_laptop.jpg"
	for i := range maxRecipeSteps + 1 {
		v, err := sess.Plain("image_file_processing", "compress_image", map[string]any{"image_url": u, "quality": 90 - i})
		if i == maxRecipeSteps {
			require.ErrorContains(t, err, "processing steps")
			break
		}
		require.NoError(t, err)
		u = standintest.Get(t, v, "data.output_url").(string)
		require.Less(t, len(u), 256)
	}
}
