package basic

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// Stand-in for google_translate (google-translate1.p.rapidapi.com, the
// Cloud Translation v2 API): a deterministic translator over an authored
// phrasebook with longest-phrase-first matching and word-by-word fallback,
// and a script plus stop-word language detector.

// trSegment is a run of words and the punctuation that ends it.
type trSegment struct {
	words []string // as written
	punct string
}

// trSplitSegments cuts text at punctuation, keeping each mark with the
// segment it ends so it can be put back. A mark between two digits is part
// of a number ("2.15", "10:30", "1,250"); Spanish opening marks are
// dropped (the target's rules put them back, see trInvertedMarks).
func trSplitSegments(text, lang string) []trSegment {
	var segs []trSegment
	var cur trSegment
	var word strings.Builder
	flushWord := func() {
		if word.Len() > 0 {
			cur.words = append(cur.words, word.String())
			word.Reset()
		}
	}
	rs := []rune(text)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '\'' || r == '’' || r == '-':
			if world.Unspaced(lang) && (unicode.Is(unicode.Han, r) || unicode.In(r, unicode.Hiragana, unicode.Katakana)) {
				flushWord()
				cur.words = append(cur.words, string(r))
				continue
			}
			word.WriteRune(r)
		case strings.ContainsRune(".,:", r) && i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]):
			word.WriteRune(r)
		case unicode.IsSpace(r):
			flushWord()
		default:
			flushWord()
			if r == '¿' || r == '¡' {
				continue
			}
			cur.punct += string(r)
			segs = append(segs, cur)
			cur = trSegment{}
		}
	}
	flushWord()
	if len(cur.words) > 0 {
		segs = append(segs, cur)
	}
	return segs
}

// trResult is the result of translating one text.
type trResult struct {
	text            string
	covered, tokens int
}

// translate renders text from src into tgt, phrase by phrase. Words the
// phrasebook lacks are kept as written (names, numbers, other scripts);
// punctuation is kept, with Spanish's opening marks added.
func translate(pb *world.Phrasebook, text, src, tgt string) trResult {
	tr := trResult{}
	srcIdx := pb.Index[src]
	var pieces []trPiece
	for _, seg := range trSplitSegments(text, src) {
		var parts []string
		lower := make([]string, len(seg.words))
		for i, w := range seg.words {
			lower[i] = strings.ToLower(w)
		}
		for i := 0; i < len(lower); {
			n := min(pb.MaxWords[src], len(lower)-i)
			matched := false
			for ; n >= 1 && srcIdx != nil; n-- {
				if e, ok := srcIdx[strings.Join(lower[i:i+n], " ")]; ok {
					if t := pb.Entries[e][tgt]; t != "" {
						parts = append(parts, t)
					}
					tr.covered += n
					tr.tokens += n
					i += n
					matched = true
					break
				}
			}
			if !matched {
				parts = append(parts, seg.words[i])
				tr.tokens++
				i++
			}
		}
		joined := strings.Join(parts, " ")
		if world.Unspaced(tgt) {
			joined = strings.Join(parts, "")
		}
		if len(seg.words) > 0 && (trStartsUpper(seg.words[0]) || world.Unspaced(src)) && !world.Unspaced(tgt) {
			joined = trCapitalize(joined)
		}
		pieces = append(pieces, trPiece{text: joined, punct: strings.TrimSpace(seg.punct), words: len(seg.words)})
	}
	if tgt == "es" {
		trInvertedMarks(pieces)
	}
	var out strings.Builder
	for i, p := range pieces {
		if i > 0 && out.Len() > 0 && !world.Unspaced(tgt) && p.text != "" {
			out.WriteByte(' ')
		}
		out.WriteString(p.text)
		out.WriteString(p.punct)
	}
	tr.text = strings.TrimSpace(out.String())
	return tr
}

// trPiece is a translated segment: its text, the punctuation that ends it
// and how many source words it had.
type trPiece struct {
	text, punct string
	words       int
}

// trInvertedMarks opens each Spanish question and exclamation with ¿ or ¡
// where it begins: at the start of its sentence, or after a short opening
// clause ("Hola, ¿cómo estás?", "Disculpe, ¿dónde está...?").
func trInvertedMarks(ps []trPiece) {
	start := 0
	for i := range ps {
		p := ps[i].punct
		if !strings.ContainsAny(p, ".?!;") {
			continue
		}
		open := ""
		switch {
		case strings.Contains(p, "?"):
			open = "¿"
		case strings.Contains(p, "!"):
			open = "¡"
		}
		if open != "" {
			at := start
			if at < i && ps[at].words <= 2 && strings.HasPrefix(ps[at].punct, ",") {
				at++
			}
			for at < i && ps[at].text == "" {
				at++
			}
			ps[at].text = open + ps[at].text
		}
		start = i + 1
	}
}

func trStartsUpper(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

func trCapitalize(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// Stop words of the Latin-script languages the detector scores.
var trStopWords = map[string][]string{
	"en": {"the", "and", "is", "are", "of", "to", "in", "it", "you", "that", "this", "with", "for", "have", "was", "what", "where", "how", "i", "my", "your", "please", "thank", "be", "not", "do", "does", "a", "an"},
	"es": {"el", "la", "los", "las", "de", "que", "y", "en", "un", "una", "es", "por", "para", "con", "no", "se", "del", "al", "lo", "como", "dónde", "está", "gracias", "hola", "muy", "yo", "tengo", "qué", "cuánto"},
	"fr": {"le", "la", "les", "de", "des", "et", "est", "un", "une", "du", "que", "qui", "pas", "je", "vous", "nous", "il", "elle", "pour", "dans", "sur", "avec", "merci", "bonjour", "où", "c'est", "très", "suis", "ne"},
	"de": {"der", "die", "das", "und", "ist", "nicht", "ich", "sie", "es", "ein", "eine", "zu", "mit", "den", "dem", "von", "auf", "für", "wo", "bitte", "danke", "wie", "haben", "sind", "sehr", "auch", "heute", "gut"},
	"it": {"il", "lo", "la", "gli", "le", "di", "che", "e", "è", "un", "una", "per", "non", "sono", "mi", "ti", "con", "del", "della", "dove", "grazie", "ciao", "come", "molto", "anche", "questo", "ho"},
	"pt": {"o", "a", "os", "as", "de", "que", "e", "é", "um", "uma", "do", "da", "em", "não", "para", "com", "por", "obrigado", "obrigada", "olá", "onde", "muito", "você", "eu", "está", "isso", "fica", "são", "tem"},
	"nl": {"de", "het", "een", "en", "van", "ik", "je", "is", "niet", "dat", "die", "op", "te", "met", "voor", "waar", "zijn", "wat", "hoe", "dank", "hallo", "graag", "heel", "ook", "maar", "wij", "mijn"},
}

var trStopIndex = func() map[string][]string {
	m := map[string][]string{}
	for lang, ws := range trStopWords {
		for _, w := range ws {
			m[w] = append(m[w], lang)
		}
	}
	for _, ls := range m {
		sort.Strings(ls)
	}
	return m
}()

// trDetection is one candidate language with a confidence in [0, 1].
type trDetection struct {
	lang       string
	confidence float64
}

// detectLanguage scores text by writing system first, then, for Latin
// script, by stop words, phrasebook words and telltale letters.
func detectLanguage(pb *world.Phrasebook, text string) trDetection {
	var letters, kana, han, hangul, cyr, arabic, hebrew, greek, thai, deva, latin int
	var ukr int
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana++
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
			if strings.ContainsRune("іїєґІЇЄҐ", r) {
				ukr++
			}
		case unicode.Is(unicode.Arabic, r):
			arabic++
		case unicode.Is(unicode.Hebrew, r):
			hebrew++
		case unicode.Is(unicode.Greek, r):
			greek++
		case unicode.Is(unicode.Thai, r):
			thai++
		case unicode.Is(unicode.Devanagari, r):
			deva++
		case unicode.Is(unicode.Latin, r):
			latin++
		}
	}
	if letters == 0 {
		return trDetection{lang: "und", confidence: 0}
	}
	share := func(n int) float64 { return math.Round(float64(n)/float64(letters)*100) / 100 }
	switch {
	case kana > 0:
		return trDetection{"ja", share(kana + han)}
	case han*2 > letters:
		return trDetection{"zh-CN", share(han)}
	case hangul*2 > letters:
		return trDetection{"ko", share(hangul)}
	case cyr*2 > letters:
		if ukr > 0 {
			return trDetection{"uk", share(cyr)}
		}
		return trDetection{"ru", share(cyr)}
	case arabic*2 > letters:
		return trDetection{"ar", share(arabic)}
	case hebrew*2 > letters:
		return trDetection{"he", share(hebrew)}
	case greek*2 > letters:
		return trDetection{"el", share(greek)}
	case thai*2 > letters:
		return trDetection{"th", share(thai)}
	case deva*2 > letters:
		return trDetection{"hi", share(deva)}
	}
	scores := map[string]float64{}
	words := world.PhraseTokens(text, "en")
	for _, w := range words {
		if a, b, ok := strings.Cut(strings.ReplaceAll(w, "’", "'"), "'"); ok {
			// Elided forms: "dov'è" counts its "è", "l'aéroport" its "l".
			for _, part := range []string{a, b} {
				for _, l := range trStopIndex[part] {
					scores[l] += 0.5
				}
			}
		}
		for _, l := range trStopIndex[w] {
			scores[l] += 1
		}
		for _, l := range pb.Langs {
			if world.Unspaced(l) || l == "ru" {
				continue
			}
			if _, ok := pb.Index[l][w]; ok {
				scores[l] += 0.5
			}
		}
	}
	lower := strings.ToLower(text)
	for _, hint := range []struct {
		chars string
		lang  string
	}{{"ñ¿¡", "es"}, {"ãõ", "pt"}, {"ßäöü", "de"}, {"çœêë", "fr"}, {"ìò", "it"}, {"ĳ", "nl"}} {
		for _, r := range hint.chars {
			if strings.ContainsRune(lower, r) {
				scores[hint.lang] += 1.5
			}
		}
	}
	best, total := "", 0.0
	langs := make([]string, 0, len(scores))
	for l := range scores {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	for _, l := range langs {
		total += scores[l]
		if best == "" || scores[l] > scores[best] {
			best = l
		}
	}
	if best == "" {
		return trDetection{"en", 0.2} // unscored Latin text: the likeliest guess, with low confidence
	}
	conf := scores[best] / total
	conf *= math.Min(1, scores[best]/3) // little evidence, little confidence
	return trDetection{best, math.Round(math.Max(conf, 0.1)*100) / 100}
}

// trError is the Cloud Translation API's error body.
func trError(status int, msg, reason string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: status, Body: map[string]any{"error": map[string]any{
		"code":    status,
		"message": msg,
		"errors":  []any{map[string]any{"message": msg, "domain": "global", "reason": reason}},
	}}}
}

// trLang resolves a language code as Google accepts it: "pt",
// "PT", "pt-BR", "zh-CN", "zh-TW".
func trLang(w *world.World, code string) (string, bool) {
	c := strings.ToLower(strings.TrimSpace(code))
	if c == "zh-cn" || c == "zh-tw" || c == "zh" {
		return "zh", true
	}
	if base, _, ok := strings.Cut(c, "-"); ok {
		c = base
	}
	if len(c) != 2 {
		return "", false
	}
	if _, ok := w.Language(c); !ok {
		return "", false
	}
	return c, true
}

func handleTranslate(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	pb := w.Basic.Phrases
	q := c.ArgString("q")
	if q == "" {
		return nil, trError(400, "Required Text", "required")
	}
	tgt, ok := trLang(w, c.ArgString("target"))
	if !ok {
		return nil, trError(400, "Invalid Value", "invalid")
	}
	item := map[string]any{}
	src := ""
	if s := c.ArgString("source"); s != "" {
		if src, ok = trLang(w, s); !ok {
			return nil, trError(400, "Invalid Value", "invalid")
		}
	} else {
		d := detectLanguage(pb, q)
		src = strings.ToLower(strings.TrimSuffix(d.lang, "-CN"))
		item["detectedSourceLanguage"] = d.lang
	}
	text := q
	_, tgtKnown := pb.Index[tgt]
	if src != tgt {
		tr := translate(pb, q, src, tgt)
		text = tr.text
		if !tgtKnown || (tr.covered == 0 && tr.tokens > 0) {
			// Nothing matched: say so instead of passing the text off as trTranslated.
			text = fmt.Sprintf("[%s] %s", tgt, q)
		}
	}
	item["translatedText"] = text
	return map[string]any{"data": map[string]any{"translations": []any{item}}}, nil
}

func handleDetectLanguage(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	q := c.ArgString("q")
	if q == "" {
		return nil, trError(400, "Required Text", "required")
	}
	d := detectLanguage(w.Basic.Phrases, q)
	return map[string]any{"data": map[string]any{"detections": []any{[]any{
		map[string]any{"language": d.lang, "confidence": d.confidence, "isReliable": false},
	}}}}, nil
}

func handleSupportedLanguages(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	target := c.ArgString("target")
	var names display.Namer
	if target != "" {
		code, ok := trLang(w, target)
		if !ok {
			return nil, trError(400, "Invalid Value", "invalid")
		}
		if code != "en" {
			names = display.Languages(language.Make(code))
		}
	}
	var langs []any
	add := func(code, tag, english string) {
		if target == "" {
			langs = append(langs, map[string]any{"language": code})
			return
		}
		langs = append(langs, map[string]any{"language": code, "name": trDisplayName(names, tag, english)})
	}
	for _, l := range w.Languages() {
		if l.Code == "zh" {
			add("zh-CN", "zh-Hans", "Chinese (Simplified)")
			add("zh-TW", "zh-Hant", "Chinese (Traditional)")
			continue
		}
		add(l.Code, l.Code, l.Name)
	}
	return map[string]any{"data": map[string]any{"languages": langs}}, nil
}

// trDisplayName is a language's name in the target language, as CLDR
// writes it (capitalised, as Google lists them), or its English name when
// names is nil (English) or CLDR has none.
func trDisplayName(names display.Namer, tag, english string) string {
	if names == nil {
		return english
	}
	n := names.Name(language.Make(tag))
	if n == "" {
		return english
	}
	return trCapitalize(n)
}
