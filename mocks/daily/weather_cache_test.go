package daily

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
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
	bounded.Wait(t, &wg, "concurrent forecasts")
	fresh := placeNear(w, 74.996, -39.996)
	require.Equal(t, fresh.computeHours(date), places["same key"].hours(date))
}

// TestAstroDayCached: the astronomy kept per place and date is the one
// computed afresh, for a city, a point in the polar day and one elsewhere,
// from goroutines at once; what depends on the instant (is the Sun or the
// Moon up) is worked out per call.
func TestAstroDayCached(t *testing.T) {
	w := standintest.World(t)
	tokyo, ok := w.FindCity("Tokyo")
	require.True(t, ok)
	places := map[string]*weatherPlace{
		"city":       placeForCity(w, tokyo),
		"polar day":  placeNear(w, 78.2, 15.6),
		"far point":  placeNear(w, -60.5, -120.25),
		"near point": placeNear(w, 35.7, 139.9),
	}
	date := civilDate(2025, 6, 20)
	fresh := func(p *weatherPlace, day time.Time) astroDay {
		astroDays.Remove(astroKey{lat: p.Lat, lon: p.Lon, loc: p.Loc, y: day.Year(), m: day.Month(), d: day.Day()})
		return astroDayOf(p, day)
	}
	want := map[string][]astroDay{}
	for name, p := range places {
		for d := range 3 {
			want[name] = append(want[name], fresh(p, date.AddDate(0, 0, d)))
		}
	}
	require.False(t, want["polar day"][0].set.ok, "the Sun does not set at 78°N in June")
	var wg sync.WaitGroup
	for name, p := range places {
		for range 4 {
			wg.Go(func() {
				for d := range 3 {
					require.Equal(t, want[name][d], astroDayOf(p, date.AddDate(0, 0, d)), name)
				}
			})
		}
	}
	bounded.Wait(t, &wg, "concurrent forecasts")
	p := places["city"]
	noon, midnight := time.Date(2025, 6, 20, 3, 0, 0, 0, time.UTC), time.Date(2025, 6, 20, 15, 0, 0, 0, time.UTC)
	require.Equal(t, 1, waAstroOf(p, date, noon).IsSunUp, "noon in Tokyo")
	require.Equal(t, 0, waAstroOf(p, date, midnight).IsSunUp, "midnight in Tokyo")
	a, b := waAstroOf(p, date, noon), waAstroOf(p, date, midnight)
	a.IsSunUp, a.IsMoonUp, b.IsSunUp, b.IsMoonUp = 0, 0, 0, 0
	require.Equal(t, a, b, "the rest is the day's")
}
