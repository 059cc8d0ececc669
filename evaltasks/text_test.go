package evaltasks

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestStatedFacts(t *testing.T) {
	tests := []struct {
		name          string
		facts         []string
		reply         string
		missed, inexa []string
	}{
		{"exact decimals", []string{"latitude 48.8566", "longitude 2.3522"}, "Paris lies at latitude 48.8566 and longitude 2.3522.", nil, nil},
		{"rounded decimal", []string{"latitude 48.8566"}, "Paris lies at latitude 48.86.", nil, []string{"latitude 48.8566"}},
		{"prefix of a decimal is not the decimal", []string{"0.8811"}, "The rate is 0.88115.", nil, []string{"0.8811"}},
		{"ip address", []string{"85.17.142.23"}, "Your IP is 85.17.142.23.", nil, nil},
		{"url", []string{"https://img.example.org/a.png"}, "Here: https://img.example.org/a.png.", nil, nil},
		{"url changed", []string{"https://img.example.org/a.png"}, "Here: https://img.example.org/a.jpg", nil, []string{"https://img.example.org/a.png"}},
		{"identifier", []string{"hotel 8970809AB"}, "Book hotel 8970809AB now", nil, nil},
		{"integer with separator", []string{"7006652"}, "It is 7,006,652.", nil, nil},
		{"missing words", []string{"Paris Orly Airport"}, "There is an airport.", []string{"Paris Orly Airport"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			missed, inexact := statedFacts(tt.facts, tt.reply)
			require.Equal(t, tt.missed, missed)
			require.Equal(t, tt.inexa, inexact)
		})
	}
}

func TestKeyPoints(t *testing.T) {
	points := []string{"Canberra is the capital", "not Sydney"}
	missed, share := keyPoints(points, "Canberra is Australia's capital, not Sydney.")
	require.Equal(t, 1.0, share)
	require.Empty(t, missed)
	missed, share = keyPoints(points, "The capital is Canberra; people often guess Sydney.")
	require.Equal(t, 0.5, share)
	require.Equal(t, []string{"not Sydney"}, missed, "a negation is content")
}

func TestClarification(t *testing.T) {
	ev := &evaluator{cat: testStack(t).Catalog}
	in := &Instruction{TargetAPI: "geocoding.forward_geocode", Missing: []string{"address"}}
	require.Empty(t, ev.unaskedParams(in, "Which address or city do you mean?"))
	require.Empty(t, ev.unaskedParams(in, "Which landmark are you thinking of?"), "a key term of the description")
	require.Equal(t, []string{"address"}, ev.unaskedParams(in, "Sure, happy to help!"))
	require.True(t, asks("Could you tell me the city?"))
	require.False(t, asks("Paris is in France."))
}

func TestWords(t *testing.T) {
	require.Equal(t, []string{"paris", "48.8566", "1234", "ok"}, words("Paris: 48.8566, 1,234 OK!"))
	require.Equal(t, []string{"country", "code"}, splitName("countryCode"))
	require.Equal(t, []string{"image", "url"}, splitName("image_url"))
	require.Equal(t, []string{"ip", "address"}, splitName("IPAddress"))
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"Paris 48.8566", "https://x.y/z.", "a1b2c3d4", "1,234.5", "ünïcødé 3.14", "", "-.-1..2"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, fact, reply string) {
		for _, w := range words(reply) {
			require.True(t, utf8.ValidString(w) || !utf8.ValidString(reply))
		}
		for _, v := range exactValues(fact) {
			require.NotEmpty(t, v)
		}
		_, _ = statedFacts([]string{fact}, reply)
		_, _ = keyPoints([]string{fact}, reply)
		_ = containsExact(reply, fact)
		_ = splitName(fact)
	})
}
