package fuzzy

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLevenshtein(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"forecast", "forcast", 1},
		{"same", "same", 0}, {"ab", "ba", 2}, {string(make([]byte, 100)), "x", 100},
	} {
		require.Equal(t, tc.want, Levenshtein(tc.a, tc.b), "%q %q", tc.a, tc.b)
		require.Equal(t, tc.want, Levenshtein(tc.b, tc.a), "symmetric: %q %q", tc.b, tc.a)
	}
	require.Equal(t, 1.0, Similarity("", ""))
	require.Equal(t, 0.0, Similarity("abc", "xyz"))
	require.InDelta(t, 0.875, Similarity("forecast", "forcast"), 1e-9)
}

func TestNearest(t *testing.T) {
	names := []string{"current_weather", "forecast", "search_hotels", "hotel_reviews", "weather_alerts", "forecast_daily"}
	ix := New(names)
	for _, tc := range []struct {
		query string
		n     int
		want  []string
	}{
		{"forcast", 2, []string{"forecast", "forecast_daily"}},
		{"search_hotel", 1, []string{"search_hotels"}},
		{"curent_weather", 2, []string{"current_weather", "weather_alerts"}},
		{"zzzz", 3, nil},
		{"forecast", 0, nil},
	} {
		var got []string
		for _, i := range ix.Nearest(tc.query, tc.n, nil) {
			got = append(got, ix.Name(i))
		}
		require.Equal(t, tc.want, got, tc.query)
	}
	require.Empty(t, New(nil).Nearest("x", 3, nil))
	require.Equal(t, []int{7, 0}, ix.Nearest("current_weather", 1, []int{7}), "appends to out")
}

// TestNearestMatchesSorting compares Nearest with scoring every name and
// sorting, on random names.
func TestNearestMatchesSorting(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, 3+r.IntN(10))
		for i := range b {
			b[i] = "abcdefg_"[r.IntN(8)]
		}
		return string(b)
	}
	names := make([]string, 500)
	for i := range names {
		names[i] = word()
	}
	ix := New(names)
	for q := 0; q < 200; q++ {
		query := word()
		qg := trigrams(query, nil)
		type scored struct {
			i        int
			num, den int
		}
		var all []scored
		for i, n := range names {
			ng := trigrams(n, nil)
			shared := 0
			for _, g := range qg {
				if slices.Contains(ng, g) {
					shared++
				}
			}
			if shared > 0 {
				all = append(all, scored{i, shared, len(qg) + len(ng)})
			}
		}
		sort.SliceStable(all, func(a, b int) bool {
			l, r := all[a].num*all[b].den, all[b].num*all[a].den
			if l != r {
				return l > r
			}
			return all[a].i < all[b].i
		})
		var want []int
		for _, s := range all[:min(10, len(all))] {
			want = append(want, s.i)
		}
		require.Equal(t, want, ix.Nearest(query, 10, nil), fmt.Sprintf("query %q", query))
	}
}

func FuzzNearest(f *testing.F) {
	ix := New([]string{"current_weather", "forecast", "", "a", "search_hotels", "\x00\x00"})
	for _, s := range []string{"", "a", "forcast", "\x00", "ééé"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got := ix.Nearest(q, 3, nil)
		require.LessOrEqual(t, len(got), 3)
		seen := map[int]bool{}
		for _, i := range got {
			require.False(t, seen[i], "no repeats")
			seen[i] = true
			require.GreaterOrEqual(t, Similarity(q, ix.Name(i)), 0.0)
		}
		require.Equal(t, Levenshtein(q, "forecast"), Levenshtein("forecast", q))
	})
}

func BenchmarkNearest(b *testing.B) {
	names := make([]string, 50000)
	for i := range names {
		names[i] = fmt.Sprintf("get_item_%d_details", i)
	}
	ix := New(names)
	out := make([]int, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		out = ix.Nearest("get_itme_4242_detail", 64, out[:0])
	}
}
