package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRegenerateReproducesFixtures regenerates the dataset and requires
// the committed files byte for byte: the generator is the source of the
// dataset, so an edit to either alone is caught here. After changing the
// generator, run `go run ./internal/datagen` and commit both.
func TestRegenerateReproducesFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("executes every gold call of the dataset")
	}
	dir := t.TempDir()
	require.NoError(t, run(dir))
	for typ := 1; typ <= 5; typ++ {
		name := fmt.Sprintf("type%d.jsonl", typ)
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		want, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "instructions", name))
		require.NoError(t, err)
		require.True(t, string(want) == string(got), "%s differs from a fresh run of the generator; run go run ./internal/datagen", name)
	}
}

func TestFrameSharedOdds(t *testing.T) {
	// The framing depends on the ID alone: the same core gets the same
	// framing under the same ID, and over many IDs every type sees bare
	// texts, openers and closers at the pools' odds.
	require.Equal(t, frame("I-x-001", 0, "What is 2 plus 2?"), frame("I-x-001", 0, "What is 2 plus 2?"))
	for _, prefix := range []string{"I-climate-", "II-weatherapi_com.realtime_weather_api-", "III-weatherapi_com.realtime_weather_api-"} {
		bare, opened, closed := 0, 0, 0
		const n = 2000
		for i := 0; i < n; i++ {
			core := "What is the weather?"
			s := frame(fmt.Sprintf("%s%03d", prefix, i), i%3, core)
			if s == core {
				bare++
			}
			if !strings.HasSuffix(strings.ToLower(s), strings.ToLower(core)) {
				closed++
			}
			if !strings.HasPrefix(s, "What") {
				opened++
			}
		}
		require.InDelta(t, noOpenerPercent*noCloserPercent/100, bare*100/n, 4, prefix)
		require.InDelta(t, 100-noOpenerPercent, opened*100/n, 4, prefix)
		require.InDelta(t, 100-noCloserPercent, closed*100/n, 4, prefix)
	}
}
