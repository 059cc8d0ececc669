package daily

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

// TestWeatherModelCached: the days and hours kept per place and date are
// the ones computed afresh, for a city and for points that round to the
// same noise key but lie elsewhere (their climate correction is computed
// from the exact coordinates, so they are kept apart), from goroutines at
// once.
func TestWeatherModelCached(t *testing.T) {
	w := standintest.World(t)
	london, ok := w.FindCity("London")
	require.True(t, ok)
	places := map[string]*weatherPlace{
		"city":       placeForCity(w, london),
		"far point":  placeNear(w, 75.001, -40.001),
		"same key":   placeNear(w, 74.996, -39.996),
		"near point": placeNear(w, 51.6, -0.2),
	}
	require.Equal(t, places["far point"].key, places["same key"].key, "the two points share a noise key")
	require.NotEqual(t, places["far point"].model, places["same key"].model, "but not a model")
	date := civilDate(2025, 6, 2)
	var wg sync.WaitGroup
	for name, p := range places {
		for range 4 {
			wg.Go(func() {
				for d := range 3 {
					day := date.AddDate(0, 0, d)
					require.Equal(t, p.computeDay(day), p.day(day), name)
					require.Equal(t, p.computeHours(day), p.hours(day), name)
				}
			})
		}
	}
	wg.Wait()
	fresh := placeNear(w, 74.996, -39.996)
	require.Equal(t, fresh.computeHours(date), places["same key"].hours(date))
}
