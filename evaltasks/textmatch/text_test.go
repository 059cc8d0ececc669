package textmatch

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
			missed, inexact := StatedFacts(tt.facts, tt.reply)
			require.Equal(t, tt.missed, missed)
			require.Equal(t, tt.inexa, inexact)
		})
	}
}

func TestKeyPoints(t *testing.T) {
	points := []string{"Canberra is the capital", "not Sydney"}
	missed, share := KeyPoints(points, "Canberra is Australia's capital, not Sydney.")
	require.Equal(t, 1.0, share)
	require.Empty(t, missed)
	missed, share = KeyPoints(points, "The capital is Canberra; people often guess Sydney.")
	require.Equal(t, 0.5, share)
	require.Equal(t, []string{"not Sydney"}, missed, "a negation is content")
}

func TestParseTerms(t *testing.T) {
	tests := []struct {
		name, in string
		ok       bool
	}{
		{"empty", `{}`, true},
		{"unknown field", `{"synonyms":{}}`, false},
		{"alias in two groups", `{"aliases":[["yuan","CNY"],["CNY","renminbi"]]}`, false},
		{"lonely alias", `{"aliases":[["yuan"]]}`, false},
		{"empty synonym", `{"params":{"a.b":{"c":[" "]}}}`, false},
		{"not JSON", `{`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseTerms([]byte(tt.in))
			if tt.ok {
				require.NoError(t, err)
				return
			}
			var te *TermsError
			require.ErrorAs(t, err, &te)
		})
	}
}

// TestKeyPointMutations: key points are judged by value, sign, unit,
// alias and negation, numbers within the tolerance of their kind.
func TestKeyPointMutations(t *testing.T) {
	tests := []struct {
		name, point, reply string
		tol                Tolerance
		pass               bool
	}{
		{"negative low", "-1 °C", "Lows are around -1 °C.", Normal, true},
		{"sign lost", "-1 °C", "Lows are around 1 °C.", Normal, false},
		{"unicode minus", "-1 °C", "Lows around −1 °C.", Normal, true},
		{"minus in words", "-1 °C", "Lows of minus 1 degrees C.", Normal, true},
		{"Fahrenheit for Celsius, a normal", "33 °C", "Highs of about 91 °F.", Normal, true},
		{"Fahrenheit for Celsius, exactly", "33 °C", "Highs of 91 °F.", Exact, false},
		{"a normal within two degrees", "33 °C", "Highs of 31 °C.", Normal, true},
		{"a normal three degrees off", "33 °C", "Highs of 30 °C.", Normal, false},
		{"narrow range holds the normal", "22 °C", "Highs of 20–25 °C.", Normal, true},
		{"narrow range near the normal", "3 °C", "Highs of 4–6 °C.", Normal, true},
		{"wide range holds nothing", "22 °C", "Anywhere from 5 to 35 °C.", Normal, false},
		{"days of rain", "8 days", "Expect about 8 rainy days.", Normal, true},
		{"days of rain, two off", "8 days", "Rain on about 10 days.", Normal, true},
		{"days are no degrees", "8 days", "Around 8 °C.", Normal, false},
		{"rounded to the answer's precision", "64.4", "About 64 °F.", Rounded, true},
		{"rounded too far", "64.4", "About 60 °F.", Rounded, false},
		{"one significant digit is no rounding", "3.1", "About 3 miles.", Rounded, false},
		{"more digits than the point", "12.4", "About 12.43 miles.", Rounded, true},
		{"exact needs the value", "64.4", "About 64 °F.", Exact, false},
		{"thousands separator", "2640", "There are 2,640 minutes.", Exact, true},
		{"calling code without plus", "+971", "Dial 971 first.", Exact, true},
		{"a calling code is never rounded", "+971", "Dial +970.", Rounded, false},
		{"a rate rounded", "0.8811", "About 0.88 euros.", Rounded, true},
		{"a rate to one digit", "0.8811", "About 0.9 euros.", Rounded, false},
		{"a duration in hours and minutes", "155 minutes", "It takes 2 h 35 min.", Duration, true},
		{"a duration in hours", "155 minutes", "About 2.5 hours.", Duration, true},
		{"a duration too far", "155 minutes", "About 3 hours.", Duration, false},
		{"alias: yuan", "Chinese Yuan", "China uses the renminbi (yuan).", Exact, true},
		{"alias: CNY", "Chinese Yuan", "The currency is CNY.", Exact, true},
		{"alias: Mandarin", "Chinese", "People speak Mandarin.", Exact, true},
		{"negated name", "Portuguese", "They speak Spanish, not Portuguese.", Exact, false},
		{"name beside a negation", "Spanish", "They speak Spanish, not Portuguese.", Exact, true},
		{"n't denies", "Portuguese", "They don't speak Portuguese there.", Exact, false},
		{"not only adds", "German", "Not only German is spoken there.", Exact, true},
		{"denial stated", "not Sydney", "The capital is Canberra, not Sydney.", Exact, true},
		{"denial missing", "not Sydney", "The capital is Sydney.", Exact, false},
		{"accent folded", "Bogotá", "The capital is Bogota.", Exact, true},
		{"zone by name", "Europe/Madrid", "Barcelona uses Europe/Madrid.", Exact, true},
		{"zone by everyday name", "Europe/Madrid", "It's on Central European Time.", Exact, true},
		{"zone by summer offset", "Europe/Madrid", "It's UTC+2 in summer.", Exact, true},
		{"zone by wrong offset", "Europe/Madrid", "It's UTC+3.", Exact, false},
		{"zone by abbreviation", "Asia/Tokyo", "Tokyo is on JST.", Exact, true},
		{"I don't know", "Canberra", "I don't know.", Exact, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewMatcher(tt.reply).FactWithin(tt.point, tt.tol)
			require.Equal(t, tt.pass, got == FactStated, "verdict %d", got)
		})
	}
}

// TestFactMutations: tool-return facts in equivalent forms pass; changed
// Values, signs, times and dates fail.
func TestFactMutations(t *testing.T) {
	tests := []struct {
		name, fact, reply string
		tol               Tolerance
		want              Verdict
	}{
		{"time as is", "18:00:00", "It's 18:00:00.", Exact, FactStated},
		{"time without seconds", "18:00:00", "It's 18:00.", Exact, FactStated},
		{"time as 6 PM", "18:00:00", "It's 6 PM in Tokyo.", Exact, FactStated},
		{"time as 6:00 p.m.", "18:00:00", "It's 6:00 p.m.", Exact, FactStated},
		{"time wrong half of day", "18:00:00", "It's 6 AM.", Exact, FactMissing},
		{"time wrong hour", "18:00:00", "It's 8 PM.", Exact, FactMissing},
		{"12-hour fact in 24-hour reply", "08:42 PM", "Sunset is at 20:42.", Exact, FactStated},
		{"date ISO", "2025-06-02", "Today is 2025-06-02.", Exact, FactStated},
		{"date month first", "2025-06-02", "Today is June 2, 2025.", Exact, FactStated},
		{"date day first", "2025-06-02", "Today is Monday, 2 June 2025.", Exact, FactStated},
		{"date ordinal", "2025-06-02", "It's the 2nd of June.", Exact, FactStated},
		{"date wrong day", "2025-06-02", "Today is June 3, 2025.", Exact, FactMissing},
		{"date wrong year", "2025-06-02", "It was June 2, 2024.", Exact, FactMissing},
		{"stamp", "2025-06-02 18:00", "It's 6:00 PM on June 2, 2025.", Exact, FactStated},
		{"stamp wrong time", "2025-06-02 18:00", "It's 7:00 PM on June 2, 2025.", Exact, FactMissing},
		{"integer with separators", "2167973", "There are 2,167,973.", Exact, FactStated},
		{"an integer is no rounded number", "2167973", "About 2.17 million.", Exact, FactMissing},
		{"a rounded number in millions", "2167973", "About 2.17 million.", Rounded, FactStated},
		{"negative id", "-2167973", "Its dest_id is -2167973.", Exact, FactStated},
		{"negative id without sign", "-2167973", "Its dest_id is 2167973.", Exact, FactMissing},
		{"western longitude", "-9.1393", "It lies at 9.1393° W.", Exact, FactStated},
		{"eastern longitude is not western", "-9.1393", "It lies at 9.1393° E.", Exact, FactMissing},
		{"rounded coordinate is inexact", "48.8566", "Latitude 48.86.", Exact, FactInexact},
		{"machine decimals may be rounded", "31.2333333333", "About 31.23 each.", Exact, FactStated},
		{"machine decimals are not integers", "31.2333333333", "About 31 each.", Exact, FactInexact},
		{"rate exact", "0.8811", "One dollar buys 0.8811 euros.", Exact, FactStated},
		{"rate rounded, as rates may be", "0.728067", "About 0.73 USD per CAD.", Rounded, FactStated},
		{"rate rounded where it must be exact", "0.728067", "About 0.73 USD per CAD.", Exact, FactInexact},
		{"offset", "-03:00", "It is at UTC−03:00.", Exact, FactStated},
		{"offset sign flipped", "-03:00", "It is at UTC+03:00.", Exact, FactMissing},
		{"words", "broken clouds", "There are broken clouds.", Exact, FactStated},
		{"words denied", "Overcast", "It is not overcast.", Exact, FactMissing},
		{"stop-word value quoted", "is", "The code for Icelandic is \"is\".", Exact, FactStated},
		{"stop-word value in prose", "is", "I'm not sure what it is.", Exact, FactMissing},
		{"temperature", "14.3", "It's 14.3 °C.", Exact, FactStated},
		{"temperature sign", "-4.5", "It's 4.5 °C.", Exact, FactMissing},
		{"a reading rounded to the degree", "20.9", "It's about 21 °C.", Rounded, FactStated},
		{"a reading rounded, where it must be exact", "20.9", "It's about 21 °C.", Exact, FactInexact},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, NewMatcher(tt.reply).FactWithin(tt.fact, tt.tol))
		})
	}
}

func TestStatusLiteralsAreNotRequired(t *testing.T) {
	missed, inexact := StatedFacts([]string{"true", "success", "OK", "Lisbon"}, "It is in Lisbon.")
	require.Empty(t, missed)
	require.Empty(t, inexact)
	missed, _ = StatedFacts([]string{"true", "Lisbon"}, "It worked.")
	require.Equal(t, []string{"Lisbon"}, missed)
}

func TestNumbersClocksDates(t *testing.T) {
	vals := func(ns []Number) []float64 {
		var out []float64
		for _, n := range ns {
			out = append(out, n.Val)
		}
		return out
	}
	require.Equal(t, []float64{-1, 2167973, 2170000, 81, 476, 34, 8000}, vals(numbers("-1, 2,167,973, 2.17 million, +81 476-34-8000")))
	require.Equal(t, []float64{20, 25}, vals(numbers("20-25 °C")))
	require.Equal(t, 25.0, numbers("20-25 °C")[0].Hi)
	require.Equal(t, "c", numbers("20-25 °C")[0].Unit)
	require.Equal(t, []float64{-9.1393, 38.7223}, vals(numbers("9.1393° W, 38.7223° N")))
	require.Empty(t, numbers("A320 covid19"))
	require.Equal(t, []tod{{secs: 18 * 3600}, {secs: 6*3600 + 30*60 + 5, sec: true}}, clocks("18:00 and 06:30:05"))
	require.Equal(t, []tod{{secs: 12 * 3600}}, clocks("at noon"))
	require.Equal(t, []date{{2025, 6, 2}, {0, 6, 2}}, dates("2025-06-02 or 2 June"))
}

func TestWords(t *testing.T) {
	require.Equal(t, []string{"paris", "48.8566", "1234", "ok"}, Words("Paris: 48.8566, 1,234 OK!"))
	require.Equal(t, []string{"country", "code"}, SplitName("countryCode"))
	require.Equal(t, []string{"image", "url"}, SplitName("image_url"))
	require.Equal(t, []string{"ip", "address"}, SplitName("IPAddress"))
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"Paris 48.8566", "https://x.y/z.", "a1b2c3d4", "1,234.5", "ünïcødé 3.14", "", "-.-1..2"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, fact, reply string) {
		for _, w := range Words(reply) {
			require.True(t, utf8.ValidString(w) || !utf8.ValidString(reply))
		}
		for _, v := range exactValues(fact) {
			require.NotEmpty(t, v)
		}
		_, _ = StatedFacts([]string{fact}, reply)
		_, _ = KeyPoints([]string{fact}, reply)
		_ = ContainsExact(reply, fact)
		_ = SplitName(fact)
		_ = numbers(reply)
		_ = clocks(reply)
		_ = dates(reply)
		_ = NewMatcher(reply).Fact(fact)
		_ = NewMatcher(reply).FactWithin(fact, Normal)
	})
}

func TestZonesAreIANAZones(t *testing.T) {
	for zone := range Vocabulary.Zones {
		require.NotNil(t, IANAZone(zone), zone)
	}
}

func TestFoldAccents(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Bogotá", "bogota"},
		{"Reykjavík, Ísland", "reykjavik, island"},
		{"Straße", "strasse"},
		{"Łódź", "lodz"},
		{"plain", "plain"},
		{"", ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, FoldAccents(tt.in), tt.in)
	}
}
