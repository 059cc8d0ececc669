package textmatch

import "strings"

// Lemmas for matching by meaning: "searching", "searched" and "searches"
// are one word, as are "translation" and "translate". A lemma here is a
// matching key, not a dictionary form: both sides of a comparison are
// reduced the same way ("translate" and "translated" both become
// "translat").

// irregular maps irregular forms to their base word.
var irregular = map[string]string{
	"found": "find", "got": "get", "gotten": "get", "chose": "choose", "chosen": "choose", "bought": "buy",
	"sent": "send", "took": "take", "taken": "take", "made": "make", "went": "go", "gone": "go", "ran": "run",
	"wrote": "write", "written": "write", "left": "leave", "saw": "see", "seen": "see", "gave": "give",
	"given": "give", "told": "tell", "kept": "keep", "brought": "bring", "paid": "pay", "said": "say",
	"built": "build", "spent": "spend", "flew": "fly", "flown": "fly", "children": "child", "people": "person",
	"did": "do", "done": "do", "does": "do", "has": "have", "had": "have", "was": "be", "were": "be", "is": "be",
	"are": "be", "been": "be", "am": "be", "held": "hold", "caught": "catch", "thought": "think", "felt": "feel",
	"met": "meet", "knew": "know", "known": "know", "drove": "drive", "driven": "drive", "ate": "eat",
	"eaten": "eat", "slept": "sleep", "stood": "stand", "won": "win", "shown": "show", "lain": "lie",
	"using": "use", "used": "use", "uses": "use",
}

// keepS are words ending in "s" that are no plurals.
var keepS = map[string]bool{"news": true, "series": true, "species": true, "always": true, "perhaps": true,
	"status": true, "bus": true, "gas": true, "plus": true, "canvas": true, "atlas": true, "bonus": true,
	"campus": true, "census": true, "chaos": true, "thus": true, "yes": true, "us": true, "its": true,
	"this": true, "his": true, "hers": true, "ours": true, "yours": true, "theirs": true, "whereas": true,
	"towards": true, "afterwards": true, "maps": false, "lens": true, "analysis": true, "basis": true,
	"oasis": true, "crisis": true, "thesis": true, "synopsis": true, "diagnosis": true, "paris": true,
	"athens": true, "brussels": true, "wales": true, "texas": true, "christmas": true, "nas": true,
	"dns": true, "gps": true, "ios": true, "sms": true, "https": true, "vs": true, "aws": true}

// Lemma reduces a lower-case word to its matching key: irregular forms to
// their base, then plural, past and gerund endings and the derivational
// "-ion"/"-ation" off, a doubled final consonant undone and a final "e"
// dropped. Words of three letters or fewer, and numbers, stay as they are.
func Lemma(w string) string {
	if b, ok := irregular[w]; ok {
		w = b
	}
	if len(w) <= 3 || HasDigit(w) {
		return w
	}
	switch {
	case keepS[w]:
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	}
	stripped := false
	switch {
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ying") && len(w) > 5:
		w = w[:len(w)-3]
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w, stripped = w[:len(w)-3], true
	case strings.HasSuffix(w, "ed") && len(w) >= 5 && !strings.HasSuffix(w, "eed"):
		w, stripped = w[:len(w)-2], true
	case strings.HasSuffix(w, "ation") && len(w) >= 8:
		w = w[:len(w)-5] + "at"
	case strings.HasSuffix(w, "ion") && len(w) >= 7 && !strings.HasSuffix(w, "sion"):
		w = w[:len(w)-3]
	}
	switch {
	case stripped && len(w) >= 4 && w[len(w)-1] == w[len(w)-2] && !strings.ContainsRune("aeioulsz", rune(w[len(w)-1])):
		w = w[:len(w)-1] // "stopped", "planning"
	case stripped && len(w) == 3 && cvc(w):
		w += "e" // "making", "dated": the "e" the ending replaced
	}
	if len(w) > 4 && strings.HasSuffix(w, "e") && !strings.HasSuffix(w, "ee") {
		w = w[:len(w)-1]
	}
	return w
}

// cvc tells whether a three-letter stem is consonant, vowel, consonant
// (not w, x or y), the shape of a stem that lost its final "e".
func cvc(w string) bool {
	vowel := func(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }
	return !vowel(w[0]) && vowel(w[1]) && !vowel(w[2]) && strings.IndexByte("wxy", w[2]) < 0
}

// Lemmas are the lemmas of a text's words, in order.
func Lemmas(text string) []string {
	ws := Words(text)
	for i, w := range ws {
		ws[i] = Lemma(w)
	}
	return ws
}

// IndexRun finds a run of words in text: run's words in order, each at
// most gap words after the one before. It returns the position of the
// run's first word, or -1.
func IndexRun(text, run []string, gap int) int {
	if rs := RunsOf(text, run, gap, 1); len(rs) > 0 {
		return rs[0][0]
	}
	return -1
}

// RunsOf finds up to n runs of words in text (every run when n < 0), as
// IndexRun does, each as the positions of its words; a run starts at
// each place run's first word stands.
func RunsOf(text, run []string, gap, n int) [][]int {
	if len(run) == 0 {
		return nil
	}
	var out [][]int
	for i, w := range text {
		if n >= 0 && len(out) == n {
			break
		}
		if w != run[0] {
			continue
		}
		at := []int{i}
		for _, r := range run[1:] {
			last, next := at[len(at)-1], -1
			for j := last + 1; j < len(text) && j <= last+1+gap; j++ {
				if text[j] == r {
					next = j
					break
				}
			}
			if next < 0 {
				break
			}
			at = append(at, next)
		}
		if len(at) == len(run) {
			out = append(out, at)
		}
	}
	return out
}
