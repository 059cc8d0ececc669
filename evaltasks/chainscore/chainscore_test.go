package chainscore

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

func TestSameScalar(t *testing.T) {
	tests := []struct {
		v, got any
		same   bool
	}{
		{41.1496, json.Number("41.1496"), true},
		{"41.1496", json.Number("41.1496"), true},
		{41.1496, "41.1496", true},
		{"41.1496", json.Number("41.15"), false},
		{"8970809", json.Number("8970809"), true},
		{"8970809", json.Number("8970810"), false},
		{"OPO", "opo", true},
		{"OPO", "LIS", false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.same, sameScalar(tt.v, tt.got), "%v vs %v", tt.v, tt.got)
	}
}

func TestUserValues(t *testing.T) {
	user := textmatch.NewWordSet("I land near Nice tomorrow and want tacos, then flights on 2025-06-20.")
	tests := []struct {
		name      string
		want, got any
		same      bool
	}{
		{"the same", "Nice, France", "Nice, France", true},
		{"said more briefly", "Nice, France", "Nice", true},
		{"said more fully", "Porto", "Porto, Portugal", false}, // "portugal" is neither the gold's nor the user's
		{"another city", "Nice, France", "Tokyo", false},
		{"a plural", "taco", "tacos", true},
		{"case and punctuation", "New York", "new-york", true},
		{"a date exactly", "2025-06-20", "2025-06-20", true},
		{"another day", "2025-06-20", "2025-06-21", false},
		{"a date in other words", "2025-06-20", "June 20, 2025", false},
		{"a number", 2025.0, json.Number("2025"), true},
		{"another number", 2025.0, json.Number("2024"), false},
		{"empty", "Nice", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.same, sameUserValue(tt.want, tt.got, user))
		})
	}
}

func TestNumberInText(t *testing.T) {
	tests := []struct {
		text string
		n    float64
		in   bool
	}{
		{"make it 320px wide", 320, true},
		{"make it 1320px wide", 320, false},
		{"a ratio of 3.20", 3, false},
		{"at 41.1496, -8.611", -8.611, true},
		{"at 41.1496, -8.611", 8.611, false},
		{"within 100 km", 100, true},
		{"within 100.5 km", 100, false},
		{"in 2025.", 2025, true},
		{"", 0, false},
	}
	for _, tt := range tests {
		require.Equal(t, tt.in, numberInText(tt.text, tt.n), "%q %v", tt.text, tt.n)
	}
}

func FuzzUserValues(f *testing.F) {
	for _, s := range []string{"Nice, France", "2025-06-20", "-8.611", "", "ünïcode 3.5"} {
		f.Add(s, s+" x", 3.5)
	}
	f.Fuzz(func(t *testing.T, want, got string, n float64) {
		user := textmatch.NewWordSet(want + " " + got)
		require.True(t, sameUserValue(want, want, user))
		_ = sameUserValue(want, got, user)
		_ = numberInText(got, n)
		_ = sameScalar(want, got)
	})
}

func TestPickedAsSaid(t *testing.T) {
	countries := []any{
		map[string]any{"countryCode": "AU", "name": "Australia"},
		map[string]any{"countryCode": "BR", "name": "Brazil"},
		map[string]any{"countryCode": "CA", "name": "Canada"},
	}
	sights := map[string]any{"data": []any{
		map[string]any{"location_id": "1", "name": "British Museum", "location_string": "London", "ranking_position": "1"},
		map[string]any{"location_id": "2", "name": "Tower of London", "location_string": "London", "ranking_position": "3"},
	}}
	tests := []struct {
		name string
		text string
		doc  any
		path string
		got  any
		ok   bool
	}{
		{"the country named", "Holidays in Australia in 2025?", countries, "[].countryCode", "AU", true},
		{"another country", "Holidays in Australia in 2025?", countries, "[].countryCode", "BR", false},
		{"no country named", "Holidays somewhere in 2025?", countries, "[].countryCode", "BR", true},
		{"every item holds the user's words", "Reviews of the number one sight in London, 3 of them.", sights, "data[].location_id", "2", true},
		{"a path without a list", "anything", map[string]any{"id": "x"}, "id", "x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &scoring{text: tt.text, words: textmatch.NewWordSet(tt.text)}
			require.Equal(t, tt.ok, s.pickedAsSaid(tt.doc, tt.path, tt.got))
		})
	}
}
