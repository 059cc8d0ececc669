package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/clock"
)

// today is the sandbox's frozen day (Monday 2025-06-02); relative dates in
// the texts are resolved against it.
var today = clock.Default

// day returns the date n days from today as YYYY-MM-DD.
func day(n int) string { return today.AddDate(0, 0, n).Format("2006-01-02") }

// weekday returns the date of the next given weekday after today (this
// week's when it is still ahead).
func weekday(wd time.Weekday) string {
	for n := 1; n <= 7; n++ {
		if today.AddDate(0, 0, n).Weekday() == wd {
			return day(n)
		}
	}
	return day(7)
}

func hash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// typo misspells one ordinary word in about one text in twenty, the way
// fast typing does (two letters swapped); it never touches capitalised
// words, numbers, quoted text or URLs, where the values are.
func typo(id, text string, allow bool) string {
	h := hash(id)
	if !allow || h%20 != 7 {
		return text
	}
	words := strings.Split(text, " ")
	quoted := false
	var cands []int
	for i, w := range words {
		q := strings.Count(w, `"`)%2 == 1 || strings.Count(w, "“")+strings.Count(w, "”") == 1
		if !quoted && len(w) >= 6 && isPlainLower(w) {
			cands = append(cands, i)
		}
		if q {
			quoted = !quoted
		}
	}
	if len(cands) == 0 {
		return text
	}
	i := cands[int(h/20)%len(cands)]
	r := []rune(words[i])
	k := 1 + int(h/400)%(len(r)-3)
	r[k], r[k+1] = r[k+1], r[k]
	words[i] = string(r)
	return strings.Join(words, " ")
}

func isPlainLower(w string) bool {
	for _, r := range w {
		if !unicode.IsLower(r) || r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// acc is a list of acceptable values; opt one that may be omitted.
func acc(vals ...any) dataset.Acceptable { return dataset.Acceptable{Values: vals} }
func opt(vals ...any) dataset.Acceptable {
	return dataset.Acceptable{Values: vals, Optional: true}
}

// A is a gold call's arguments.
type A map[string]dataset.Acceptable

// M is literal arguments.
type M map[string]any

// facts reads, at each path of a response, the first value that asked
// accepts, as text; a path with no such value is left out, and an error
// is returned only when a path holds nothing at all.
func facts(doc any, asked func(string) bool, paths ...string) ([]string, error) {
	var out []string
	for _, p := range paths {
		vals := deps.Values(doc, p)
		if len(vals) == 0 {
			return nil, fmt.Errorf("no value at %s", p)
		}
		for _, v := range vals {
			if s, ok := scalar(v); ok && s != "" && asked(s) {
				out = append(out, s)
				break
			}
		}
	}
	return out, nil
}

func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case json.Number:
		return string(x), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// pick chooses deterministically among variants by a key.
func pick[T any](key string, vs []T) T { return vs[hash(key)%uint64(len(vs))] }

// Task 1 must be decided from what a text asks, not from how it is
// framed: Types I, II and III draw their openers and closers from these
// same pools with the same odds, chosen by a hash of the record ID alone.
// No phrase says whether a tool is needed ("no need to look anything up",
// "a ballpark is fine" would), and none carries a value a Type-III text
// must not give (a place, a date, a number).
var (
	openers = []string{"Quick question: ", "Hey! ", "Hi, ", "Out of curiosity, ", "ok so ", "Sorry to bother you, but ", "Hello! ", "One more thing: ", "Question for you: ", "Hi there — ", "So, ", "Help me out here: "}
	closers = []string{" Thanks!", " thx", " Thanks in advance.", " Cheers.", " Much appreciated.", " ty", " Appreciate it!", " (asking for a friend)"}
)

// Of 100 records, about 45 get no opener and about 55 no closer, in every type.
const (
	noOpenerPercent = 45
	noCloserPercent = 55
)

// frame wraps a core text in the opener and closer that the record ID
// picks, or leaves it bare. Whether a text has an opener and a closer
// depends on the ID alone; a later attempt (to avoid a near-duplicate)
// draws other phrases from the pools, never framing a bare text.
func frame(id string, attempt int, core string) string {
	h := hash("frame/" + id)
	p := h
	if attempt > 0 {
		p = hash(fmt.Sprintf("frame/%s#%d", id, attempt))
	}
	o, c := "", ""
	if h%100 >= noOpenerPercent {
		o = openers[(p/100)%uint64(len(openers))]
	}
	h /= 100 * uint64(len(openers))
	p /= 100 * uint64(len(openers))
	if h%100 >= noCloserPercent {
		c = closers[(p/100)%uint64(len(closers))]
	}
	if o != "" && !strings.HasSuffix(o, ": ") && !strings.HasSuffix(o, "— ") && !strings.HasSuffix(o, "! ") {
		core = lowerFirst(core)
	}
	if c != "" && !strings.ContainsAny(core[len(core)-1:], ".?!)") {
		// "run this in python" + " Thanks!" reads as one sentence.
		core += "."
	}
	return o + core + c
}

// synonyms are everyday rewordings that change no value of a text; a
// record whose every phrasing is a near-duplicate of one already kept
// tries them before giving up.
var synonyms = [][2]string{
	{"What's", "What is"}, {"what's", "what is"}, {"Which", "What"}, {"which", "what"},
	{"usually", "normally"}, {"typically", "usually"}, {"normally", "typically"}, {"generally", "as a rule"},
	{"Can you", "Could you"}, {"can you", "could you"}, {"Tell me", "Let me know"}, {"tell me", "let me know"},
	{"please", "pls"}, {"right now", "at the moment"}, {"time zone", "timezone"}, {"dialling", "dialing"},
	{"capital of", "capital city of"}, {"money", "cash"}, {"How much", "How much exactly"}, {"official", "national"},
	{"speak", "talk"}, {"forecast", "outlook"}, {"Find me", "Look up"}, {"Show me", "Give me"},
	{"km", "kilometres"}, {"kg", "kilos"}, {"hours", "hrs"}, {"minutes", "mins"}, {"pounds", "lbs"},
}

// rewordings lists a text with one synonym swapped, for each synonym that
// occurs in it as whole words outside quotes, then with all of them.
func rewordings(text string) []string {
	var out []string
	all := text
	for _, s := range synonyms {
		if i := wordIndex(text, s[0]); i >= 0 {
			out = append(out, text[:i]+s[1]+text[i+len(s[0]):])
		}
		if i := wordIndex(all, s[0]); i >= 0 {
			all = all[:i] + s[1] + all[i+len(s[0]):]
		}
	}
	if len(out) > 1 {
		out = append(out, all)
	}
	return out
}

// wordIndex finds w in s as whole words before any quotation mark.
func wordIndex(s, w string) int {
	if q := strings.IndexAny(s, "\"“'"); q >= 0 {
		s = s[:q]
	}
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(w)
		if (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end])) {
			return i
		}
		from = i + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
