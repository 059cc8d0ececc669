package mocks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func trTranslated(t *testing.T, args map[string]any) map[string]any {
	t.Helper()
	r := basicOK(t, "google_translate", "translate", args)
	list := r["data"].(map[string]any)["translations"].([]any)
	require.Len(t, list, 1)
	return list[0].(map[string]any)
}

func TestBasicTranslate(t *testing.T) {
	tr := trTranslated(t, nil)
	require.Equal(t, "Onde fica a estação de comboios?", tr["translatedText"])
	require.NotContains(t, tr, "detectedSourceLanguage")

	for _, tc := range []struct {
		q, source, target, want string
	}{
		{"Thank you very much!", "en", "ja", "どうもありがとうございます!"},
		{"Good morning", "en", "de", "Guten Morgen"},
		{"hello, how are you?", "en", "es", "hola, cómo estás?"},
		{"¿Dónde está el baño?", "es", "en", "Where is the bathroom?"},
		{"Merci beaucoup", "fr", "it", "Grazie mille"},
		{"I would like a coffee and a glass of water", "en", "fr", "Je voudrais un café et un verre d'eau"},
		{"谢谢", "zh-CN", "en", "Thank you"},
		{"cheese and bread with Lisbon", "en", "pt", "queijo e pão com Lisbon"},
		{"hello", "en", "en", "hello"},
	} {
		tr := trTranslated(t, map[string]any{"q": tc.q, "source": tc.source, "target": tc.target})
		require.Equal(t, tc.want, tr["translatedText"], tc.q)
	}

	// Without a source the language is detected and reported.
	tr = trTranslated(t, map[string]any{"q": "Obrigado, bom dia", "source": nil, "target": "en"})
	require.Equal(t, "pt", tr["detectedSourceLanguage"])
	require.Equal(t, "Thank you, good morning", tr["translatedText"])

	// Text the phrasebook does not cover is marked, not passed off as trTranslated.
	tr = trTranslated(t, map[string]any{"q": "Quantum chromodynamics", "source": "en", "target": "de"})
	require.Equal(t, "[de] Quantum chromodynamics", tr["translatedText"])
	tr = trTranslated(t, map[string]any{"q": "Good morning", "source": "en", "target": "sv"})
	require.Equal(t, "[sv] Good morning", tr["translatedText"])

	body := basicErr(t, "google_translate", "translate", map[string]any{"target": "xx"}, 400)
	require.Equal(t, "Invalid Value", body["error"].(map[string]any)["message"])
	basicErr(t, "google_translate", "translate", map[string]any{"source": "klingon"}, 400)
	basicErr(t, "google_translate", "translate", map[string]any{"q": ""}, 400)

	require.NotEqual(t, basicBytes(t, "google_translate", "translate", map[string]any{"target": "es"}), basicBytes(t, "google_translate", "translate", map[string]any{"target": "fr"}))
}

func TestBasicDetectLanguage(t *testing.T) {
	for _, tc := range []struct{ q, lang string }{
		{"Onde fica a estação de comboios?", "pt"},
		{"Where is the train station? I would like a ticket.", "en"},
		{"¿Dónde está la estación de tren?", "es"},
		{"Je voudrais un café, s'il vous plaît", "fr"},
		{"Wo ist der Bahnhof? Ich möchte eine Fahrkarte.", "de"},
		{"Dov'è la stazione? Grazie mille", "it"},
		{"Waar is het station? Dank je wel", "nl"},
		{"Где вокзал?", "ru"},
		{"駅はどこですか", "ja"},
		{"火车站在哪里", "zh-CN"},
		{"역이 어디에 있어요?", "ko"},
		{"Πού είναι ο σταθμός;", "el"},
		{"1234 !!", "und"},
	} {
		r := basicOK(t, "google_translate", "detect_language", map[string]any{"q": tc.q})
		d := r["data"].(map[string]any)["detections"].([]any)[0].([]any)[0].(map[string]any)
		require.Equal(t, tc.lang, d["language"], tc.q)
		require.Equal(t, false, d["isReliable"])
		c := d["confidence"].(float64)
		require.True(t, c >= 0 && c <= 1, "%s: confidence %v", tc.q, c)
	}
	basicErr(t, "google_translate", "detect_language", map[string]any{"q": " "}, 400)
}

func TestBasicSupportedLanguages(t *testing.T) {
	r := basicOK(t, "google_translate", "supported_languages", nil)
	langs := r["data"].(map[string]any)["languages"].([]any)
	require.Greater(t, len(langs), 60)
	require.Contains(t, langs, map[string]any{"language": "pt", "name": "Portuguese"})
	require.Contains(t, langs, map[string]any{"language": "zh-TW", "name": "Chinese (Traditional)"})

	r = basicOK(t, "google_translate", "supported_languages", map[string]any{"target": nil})
	require.Contains(t, r["data"].(map[string]any)["languages"], map[string]any{"language": "pt"})
	basicErr(t, "google_translate", "supported_languages", map[string]any{"target": "zz"}, 400)
}

func TestBasicTranslateGolden(t *testing.T) {
	basicGolden(t, "google_translate", []basicCase{
		{"translate_default", "translate", nil},
		{"translate_detect", "translate", map[string]any{"q": "Bonjour, où est l'aéroport?", "source": nil, "target": "en"}},
		{"translate_ru", "translate", map[string]any{"q": "Thank you, the food is delicious", "target": "ru"}},
		{"translate_bad_target", "translate", map[string]any{"target": "xx"}},
		{"detect_default", "detect_language", nil},
		{"languages_codes_only", "supported_languages", map[string]any{"target": nil}},
	})
}

func FuzzBasicTranslate(f *testing.F) {
	w, err := DefaultWorld()
	if err != nil {
		f.Fatal(err)
	}
	pb := w.basic.phrases
	for _, s := range []string{"Where is the train station?", "¿Dónde?", "駅はどこですか", "", "a.b,c!", "'-'"} {
		f.Add(s, "en", "pt")
	}
	f.Fuzz(func(t *testing.T, q, src, tgt string) {
		_ = pb.translate(q, src, tgt)
		d := pb.detectLanguage(q)
		if d.confidence < 0 || d.confidence > 1 {
			t.Fatalf("confidence %v", d.confidence)
		}
	})
}

func BenchmarkBasicTranslate(b *testing.B) { basicBench(b, "google_translate", "translate") }
