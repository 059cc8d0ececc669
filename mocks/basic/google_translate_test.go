package basic

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/world"
)

func trTranslated(t *testing.T, args map[string]any) map[string]any {
	t.Helper()
	r := standintest.New(t, Register).WithDefaults().Object("google_translate", "translate", args)
	list := r["data"].(map[string]any)["translations"].([]any)
	require.Len(t, list, 1)
	return list[0].(map[string]any)
}

func TestBasicTranslate(t *testing.T) {
	// The documented call names no source: the language is detected.
	tr := trTranslated(t, nil)
	require.Equal(t, "Onde fica a estação de comboios?", tr["translatedText"])
	require.Equal(t, "en", tr["detectedSourceLanguage"])
	tr = trTranslated(t, map[string]any{"source": "en"})
	require.NotContains(t, tr, "detectedSourceLanguage")

	for _, tc := range []struct {
		q, source, target, want string
	}{
		{"Thank you very much!", "en", "ja", "どうもありがとうございます!"},
		{"Good morning", "en", "de", "Guten Morgen"},
		{"hello, how are you?", "en", "es", "hola, ¿cómo estás?"},
		{"Where is the train station? Thank you!", "en", "es", "¿Dónde está la estación de tren? ¡Gracias!"},
		{"The ticket costs 2.15 euros", "en", "pt", "O bilhete costs 2.15 euros"},
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

	body := standintest.New(t, Register).WithDefaults().Fails(400, "google_translate", "translate", map[string]any{"target": "xx"})
	require.Equal(t, "Invalid Value", body["error"].(map[string]any)["message"])
	standintest.New(t, Register).WithDefaults().Fails(400, "google_translate", "translate", map[string]any{"source": "klingon"})
	standintest.New(t, Register).WithDefaults().Fails(400, "google_translate", "translate", map[string]any{"q": ""})

	require.NotEqual(t, standintest.New(t, Register).WithDefaults().Bytes("google_translate", "translate", map[string]any{"target": "es"}), standintest.New(t, Register).WithDefaults().Bytes("google_translate", "translate", map[string]any{"target": "fr"}))
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
		r := standintest.New(t, Register).WithDefaults().Object("google_translate", "detect_language", map[string]any{"q": tc.q})
		d := r["data"].(map[string]any)["detections"].([]any)[0].([]any)[0].(map[string]any)
		require.Equal(t, tc.lang, d["language"], tc.q)
		require.Equal(t, false, d["isReliable"])
		c := d["confidence"].(float64)
		require.True(t, c >= 0 && c <= 1, "%s: confidence %v", tc.q, c)
	}
	standintest.New(t, Register).WithDefaults().Fails(400, "google_translate", "detect_language", map[string]any{"q": " "})
}

func TestBasicSupportedLanguages(t *testing.T) {
	r := standintest.New(t, Register).WithDefaults().Object("google_translate", "supported_languages", nil)
	langs := r["data"].(map[string]any)["languages"].([]any)
	require.Greater(t, len(langs), 60)
	require.Contains(t, langs, map[string]any{"language": "pt", "name": "Portuguese"})
	require.Contains(t, langs, map[string]any{"language": "zh-TW", "name": "Chinese (Traditional)"})

	r = standintest.New(t, Register).WithDefaults().Object("google_translate", "supported_languages", map[string]any{"target": nil})
	require.Contains(t, r["data"].(map[string]any)["languages"], map[string]any{"language": "pt"})
	standintest.New(t, Register).WithDefaults().Fails(400, "google_translate", "supported_languages", map[string]any{"target": "zz"})

	// Names are in the target language, as the documentation says.
	r = standintest.New(t, Register).WithDefaults().Object("google_translate", "supported_languages", map[string]any{"target": "es"})
	langs = r["data"].(map[string]any)["languages"].([]any)
	require.Contains(t, langs, map[string]any{"language": "es", "name": "Español"})
	require.Contains(t, langs, map[string]any{"language": "en", "name": "Inglés"})
	require.Contains(t, langs, map[string]any{"language": "zh-CN", "name": "Chino simplificado"})
	r = standintest.New(t, Register).WithDefaults().Object("google_translate", "supported_languages", map[string]any{"target": "ja"})
	require.Contains(t, r["data"].(map[string]any)["languages"], map[string]any{"language": "en", "name": "英語"})
}

func TestBasicTranslateGolden(t *testing.T) {
	standintest.GoldenCalls(t, "google_translate.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "translate_default", Tool: "google_translate", API: "translate", Args: nil},
		{Name: "translate_detect", Tool: "google_translate", API: "translate", Args: map[string]any{"q": "Bonjour, où est l'aéroport?", "source": nil, "target": "en"}},
		{Name: "translate_ru", Tool: "google_translate", API: "translate", Args: map[string]any{"q": "Thank you, the food is delicious", "target": "ru"}},
		{Name: "translate_bad_target", Tool: "google_translate", API: "translate", Args: map[string]any{"target": "xx"}},
		{Name: "detect_default", Tool: "google_translate", API: "detect_language", Args: nil},
		{Name: "languages_codes_only", Tool: "google_translate", API: "supported_languages", Args: map[string]any{"target": nil}},
	})
}

func FuzzBasicTranslate(f *testing.F) {
	w, err := world.DefaultWorld()
	if err != nil {
		f.Fatal(err)
	}
	pb := w.Basic.Phrases
	for _, s := range []string{"Where is the train station?", "¿Dónde?", "駅はどこですか", "", "a.b,c!", "'-'"} {
		f.Add(s, "en", "pt")
	}
	f.Fuzz(func(t *testing.T, q, src, tgt string) {
		_ = translate(pb, q, src, tgt)
		d := detectLanguage(pb, q)
		if d.confidence < 0 || d.confidence > 1 {
			t.Fatalf("confidence %v", d.confidence)
		}
	})
}

func BenchmarkBasicTranslate(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "google_translate", "translate", nil)
}
