package coherence

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/world"
)

// translationProbes are texts with punctuation, numbers and scripts that
// translation must keep, each into several targets.
var translationProbes = []struct {
	q, source string
	targets   []string
}{
	{"Where is the train station?", "en", []string{"es", "pt", "fr", "de", "ja", "ru", "zh"}},
	{"Thank you very much!", "en", []string{"es", "it", "ja"}},
	{"Good morning. Where is the train station?", "en", []string{"es", "de"}},
	{"hello, how are you?", "en", []string{"es"}},
	{"The ticket costs 2.15 euros.", "en", []string{"es", "fr", "pt"}},
	{"¿Dónde está la estación de tren?", "", []string{"en", "fr", "pt"}},
	{"¡Muchas gracias!", "es", []string{"en", "de"}},
	{"Где вокзал?", "", []string{"en", "es"}},
	{"駅はどこですか?", "ja", []string{"en", "es"}},
	{"I love 東京 and Москва!", "en", []string{"fr", "es"}},
}

// scripts of the targets that are not written in Latin letters.
var scripts = map[string]func(rune) bool{
	"ja": func(r rune) bool { return unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) },
	"zh": func(r rune) bool { return unicode.Is(unicode.Han, r) },
	"ru": func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) },
}

var wordRE = regexp.MustCompile(`[\p{L}\p{Mn}]+`)

// checkTranslations translates every probe and requires the sentence marks
// (with Spanish's opening ¿ and ¡), the numbers, the target's script and
// the words of other scripts to survive.
func checkTranslations(t *testing.T, h *harness) {
	for _, p := range translationProbes {
		for _, target := range p.targets {
			args := map[string]any{"q": p.q, "target": target}
			if p.source != "" {
				args["source"] = p.source
			}
			a := h.ok("walk/translate", "google_translate.translate", args)
			out := str(first(t, a.Doc, "data.translations[].translatedText"))
			require.False(t, strings.HasPrefix(out, "["+target+"]"), "%q → %s is not translated: %q", p.q, target, out)
			for _, mark := range []string{"?", "!", "."} {
				require.Equal(t, marks(p.q, mark), marks(out, mark), "%q → %s: %q keeps its %q", p.q, target, out, mark)
			}
			if target == "es" {
				require.Equal(t, marks(out, "?"), strings.Count(out, "¿"), "%q → es: %q opens its questions with ¿", p.q, out)
				require.Equal(t, marks(out, "!"), strings.Count(out, "¡"), "%q → es: %q opens its exclamations with ¡", p.q, out)
			} else {
				require.NotContains(t, out, "¿", "%q → %s: %q", p.q, target, out)
			}
			for _, n := range regexp.MustCompile(`\d+(?:[.,:]\d+)*`).FindAllString(p.q, -1) {
				require.Contains(t, out, n, "%q → %s: the number %s stays", p.q, target, n)
			}
			if in, ok := scripts[target]; ok {
				require.True(t, strings.ContainsFunc(out, in), "%q → %s: %q is in the target's script", p.q, target, out)
			}
			// Words in a script other than the text's own (names) are kept
			// as written.
			src := p.source
			if src == "" {
				src = str(first(t, a.Doc, "data.translations[].detectedSourceLanguage"))
			}
			for _, word := range wordRE.FindAllString(p.q, -1) {
				if foreignScript(word, src) {
					require.Contains(t, out, word, "%q → %s: %q keeps %q", p.q, target, out, word)
				}
			}
		}
	}
}

// marks counts a sentence mark, ASCII or full-width.
func marks(s, mark string) int {
	full := map[string]string{"?": "？", "!": "！", ".": "。"}[mark]
	n := strings.Count(s, mark) + strings.Count(s, full)
	if mark == "." {
		n -= len(regexp.MustCompile(`\d\.\d`).FindAllString(s, -1)) // decimal points
	}
	return n
}

// foreignScript reports whether a word is written in a script the source
// language does not use.
func foreignScript(word, lang string) bool {
	r, _ := firstRune(word)
	if in, ok := scripts[strings.SplitN(lang, "-", 2)[0]]; ok {
		return !in(r)
	}
	return !unicode.Is(unicode.Latin, r)
}

func firstRune(s string) (rune, bool) {
	for _, r := range s {
		return r, true
	}
	return 0, false
}

// genericNewsWords are words any two news articles may share.
var genericNewsWords = map[string]bool{"after": true, "with": true, "from": true, "says": true, "said": true, "more": true, "than": true, "will": true, "this": true, "that": true, "over": true, "into": true, "first": true, "year": true, "week": true, "what": true, "about": true, "their": true, "have": true, "were": true, "been": true, "como": true, "para": true, "dans": true, "pour": true, "sobre": true, "nach": true, "eine": true}

// checkCoverage: a story's full coverage holds articles of that story
// only, and each article shares a word of substance with another of the
// coverage written in its language (the story's subject; articles in other
// languages are compared among themselves).
func checkCoverage(t *testing.T, h *harness, a answer) {
	arts := values(a.Doc, "data[]")
	require.NotEmpty(t, arts, "a story's coverage is never empty")
	type art struct {
		lang, title string
		words       map[string]bool
	}
	var all []art
	for _, it := range arts {
		link := str(first(t, it, "link"))
		var lang string
		for _, x := range h.world.News.Articles {
			if x.Link == link {
				lang = x.Lang
			}
		}
		require.NotEmpty(t, lang, "%s is an article of the world", link)
		words := map[string]bool{}
		for _, w := range world.NewsTokens(str(first(t, it, "title")) + " " + str(first(t, it, "snippet"))) {
			if len([]rune(w)) >= 4 && !genericNewsWords[w] {
				words[w] = true
			}
		}
		all = append(all, art{lang, str(first(t, it, "title")), words})
	}
	for i, x := range all {
		peers, shared := 0, false
		for j, y := range all {
			if i == j || x.lang != y.lang {
				continue
			}
			peers++
			for w := range x.words {
				shared = shared || y.words[w]
			}
		}
		require.True(t, peers == 0 || shared, "%q shares no subject with the rest of its story's coverage in %s", x.title, x.lang)
	}
}
