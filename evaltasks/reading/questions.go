package reading

import (
	"regexp"
	"slices"
	"strings"

	"github.com/understudy/understudy/evaltasks/textmatch"
)

// The questions of a reply: its sentences (markdown lists, bold and
// headings read as text; a list under a lead line that asks is asked item
// by item), each read for whether it asks, whether it offers something as
// optional, and whether it is the user's own text handed back. One
// recogniser (Sentence.Targets) decides which parameter a sentence is
// about; whether that is asking for it, or asking again for a value the
// user gave, follows from the same matches.

// Vocab is how a reply may refer to one parameter, as lemmas.
type Vocab struct {
	// Phrases name the parameter: its name's words and its synonyms.
	Phrases [][]string
	// Terms are key words of its description that no other parameter of
	// the API shares; one counts as the head of a phrase.
	Terms []string
}

// Sentence is one sentence of a reply.
type Sentence struct {
	Text  string
	Words []string // lower-case words
	Lems  []string // their lemmas
	// Asks tells whether the sentence is a question or a request.
	Asks bool
	// Optional tells whether it offers what it names as optional ("if
	// you like", "optionally", "otherwise I'll use …").
	Optional bool
	// Echo tells whether it is the user's text handed back, or holds it:
	// such a sentence counts for nothing.
	Echo bool
	// bare is the sentence without the items of a list of bare words
	// ("city, date, adults"), nil when it holds no such list.
	bare *Sentence
	// users marks the words that stand before the word the user wrote
	// after them ("return" in "return flights"): such a word modifies
	// the user's own phrase, it does not ask.
	users []bool
}

// Questions is a reply read as sentences.
type Questions struct {
	Sentences []Sentence
}

// MaxGap is how many words may stand between the words of a phrase that
// names a parameter ("search videos for" asks what to "search for").
const MaxGap = 2

// ContextReach is how far before a one-word name a determiner, question
// word or preposition must stand for the word to be asked about.
const ContextReach = 3

// EchoRun is the length of a run of the user's words that makes a
// sentence an echo of the user's text.
const EchoRun = 6

// MinEchoPart is how many words a sentence needs for being part of the
// user's text to make it an echo: "Which city?" may well be the user's
// words and the agent's question too.
const MinEchoPart = 3

// MinListItems is the length of a run of bare words that makes a list.
const MinListItems = 3

var (
	contextWords  = map[string]bool{}
	questionWords = map[string]bool{}
	auxiliaries   = map[string]bool{}
	requestVerbs  = map[string]bool{}
	determiners   = map[string]bool{}
)

func init() {
	for _, w := range strings.Fields(`what which where when who whom whose how`) {
		questionWords[w] = true
		contextWords[w] = true
	}
	for _, w := range strings.Fields(`the a an your yours its their this that these those my our some any each
		of for in on to from about with by at into onto per like as s`) {
		contextWords[w] = true
	}
	for _, w := range strings.Fields(`the a an your my its their this that these those it them some`) {
		determiners[w] = true
	}
	for _, w := range strings.Fields(`could can would will do does did is are was should shall may might have has`) {
		auxiliaries[w] = true
	}
	for _, w := range strings.Fields(`tell share provide give send specify confirm paste upload attach enter type
		choose pick select clarify need know mention name list describe drop supply include`) {
		requestVerbs[w] = true
	}
}

// requestRE recognises a request made without a question mark.
var requestRE = regexp.MustCompile(`(?i)\b(could you|can you|would you|please (provide|tell|share|specify|let|give|send|confirm|paste|upload|attach|enter|type|choose|pick|select)|let me know|tell me|i need|i'll need|i will need|i still need|need to know|need (a|an|the|your|some|more)|provide (the|your|a|an)|specify (the|your|a|an|which|what)|share (the|your|a|an)|if you (paste|send|share|give|tell|provide|type|upload|drop|let))\b`)

// optionalRE recognises an offer of something optional.
var optionalRE = regexp.MustCompile(`(?i)\b(optional(ly)?|if you(?:'d| would)? (like|want|wish|prefer|care)|if (it|that) matters|if useful|if needed|if you need|otherwise,? (i'll|i will|i'd|it|the default)|by default|(or|and) i'll (use|assume|default)|too,? if)\b`)

// markdownRE finds emphasis and code marks, and heading marks.
var markdownRE = regexp.MustCompile("\\*\\*|__|`|^#{1,6}\\s+")

// listLineRE finds a list item's marker at the start of a line.
var listLineRE = regexp.MustCompile(`^\s*(?:\d{1,2}[.)]|[-*•+])\s+`)

// sentenceRE splits text into sentences (and lines).
var sentenceRE = regexp.MustCompile(`[.!?\n]+(?:\s|$)`)

// camelRE finds the inside of a camelCase name ("departDate").
var camelRE = regexp.MustCompile(`([a-z])([A-Z])`)

// listItemRE splits a sentence into the items of a list.
var listItemRE = regexp.MustCompile(`\s*(?:[,/:]|\band\b|\bor\b)\s*`)

// PlainMarkdown reads markdown as text: emphasis, code marks and
// heading marks go, a list item keeps its text.
func PlainMarkdown(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, l := range lines {
		l = listLineRE.ReplaceAllString(l, "")
		lines[i] = markdownRE.ReplaceAllString(l, "")
	}
	return strings.Join(lines, "\n")
}

// ReadQuestions reads a reply to the user's text as sentences.
func ReadQuestions(user, reply string) Questions {
	var q Questions
	lines := strings.Split(strings.ReplaceAll(reply, "\r\n", "\n"), "\n")
	// A lead line that asks and ends in a colon ("I still need:") asks
	// for each item of the list under it.
	leadAsks := false
	for _, line := range lines {
		item := listLineRE.MatchString(line)
		plain := strings.TrimSpace(PlainMarkdown(line))
		if plain == "" {
			continue
		}
		if !item {
			leadAsks = false
		}
		for _, text := range splitSentences(plain) {
			s := newSentence(text)
			if item && leadAsks {
				s.Asks = true
			}
			q.Sentences = append(q.Sentences, s)
		}
		if !item && strings.HasSuffix(plain, ":") {
			leadAsks = newSentence(plain).Asks || requestRE.MatchString(plain)
		}
	}
	for i, echo := range echoes(user, q.Sentences) {
		if echo {
			q.Sentences[i].Echo, q.Sentences[i].Asks = true, false
		}
	}
	bigrams := map[[2]string]bool{}
	uw := wordsOf(PlainMarkdown(user))
	for i := 1; i < len(uw); i++ {
		bigrams[[2]string{uw[i-1], uw[i]}] = true
	}
	for k := range q.Sentences {
		s := &q.Sentences[k]
		s.users = make([]bool, len(s.Words))
		for i := 1; i < len(s.Words); i++ {
			s.users[i-1] = bigrams[[2]string{s.Words[i-1], s.Words[i]}]
		}
	}
	return q
}

// splitSentences cuts a line into sentences; a parenthesis belongs to its
// sentence ("the year (Year. Ex: 2025)?" is one question) and a sentence
// keeps its question mark.
func splitSentences(line string) []string {
	var out []string
	from := 0
	add := func(text string) {
		if strings.TrimSpace(text) != "" {
			out = append(out, text)
		}
	}
	for _, m := range sentenceRE.FindAllStringIndex(line, -1) {
		if strings.Count(line[from:m[0]], "(") > strings.Count(line[from:m[0]], ")") {
			continue
		}
		add(line[from:m[0]] + strings.Map(func(r rune) rune {
			if r == '?' {
				return r
			}
			return -1
		}, line[m[0]:m[1]]))
		from = m[1]
	}
	add(line[from:])
	return out
}

// wordsOf are the lower-case words of a text, camelCase names split: the
// reply and the user's text are read into words alike.
func wordsOf(text string) []string { return textmatch.Words(camelRE.ReplaceAllString(text, "$1 $2")) }

func newSentence(text string) Sentence {
	s := Sentence{Text: text, Words: wordsOf(text)}
	for _, w := range s.Words {
		s.Lems = append(s.Lems, textmatch.Lemma(w))
	}
	framed := false
	for i, w := range s.Words {
		if questionWords[w] || requestVerbs[w] || i == 0 && auxiliaries[w] {
			framed = true
			break
		}
	}
	// An imperative addressed to the user ("Send me the link.") is a
	// request; one that addresses nobody (a tool's description) is not.
	imperative := len(s.Words) > 1 && requestVerbs[s.Words[0]] && slices.ContainsFunc(s.Words[1:], func(w string) bool {
		return w == "me" || w == "us" || w == "your" || w == "you" || w == "i"
	})
	s.Asks = (framed && strings.Contains(text, "?") || imperative || requestRE.MatchString(text))
	s.Optional = optionalRE.MatchString(text)
	// A list is a run of at least MinListItems bare items of one or two words.
	items := listItemRE.Split(text, -1)
	inList := make([]bool, len(items))
	for i := 0; i < len(items); {
		j := i
		for j < len(items) && bareItem(items[j]) {
			j++
		}
		if j-i >= MinListItems {
			for k := i; k < j; k++ {
				inList[k] = true
			}
		}
		i = max(j, i+1)
	}
	if slices.Contains(inList, true) {
		var rest []string
		for i, it := range items {
			if !inList[i] {
				rest = append(rest, it)
			}
		}
		b := newSentence(strings.Join(rest, ", "))
		s.bare = &b
	}
	return s
}

// bareItem tells whether a list item is one or two words.
func bareItem(it string) bool {
	n := len(textmatch.Words(it))
	return n >= 1 && n <= 2
}

// echoes tells which sentences hand the user's text back: a sentence
// that is part of the user's text (of at least MinEchoPart words, or all
// of it), or that a run of EchoRun of the user's words (all of them, for
// a shorter text) passes through. A run is found across sentences, so
// the user's text cut at its own full stops is still an echo in every
// sentence it spans.
func echoes(user string, ss []Sentence) []bool {
	out := make([]bool, len(ss))
	uw := wordsOf(PlainMarkdown(user))
	if len(uw) == 0 {
		return out
	}
	nu := " " + strings.Join(uw, " ") + " "
	var words []string
	var owner []int
	for i, s := range ss {
		if len(s.Words) >= min(MinEchoPart, len(uw)) && strings.Contains(nu, " "+strings.Join(s.Words, " ")+" ") {
			out[i] = true
		}
		words = append(words, s.Words...)
		for range s.Words {
			owner = append(owner, i)
		}
	}
	run := min(EchoRun, len(uw))
	if run < 2 {
		return out
	}
	// prev[j] and cur[j] are the lengths of the common runs ending at the
	// previous and the current reply word and at user word j; longest[i]
	// is the longest run ending at reply word i.
	prev, cur := make([]int, len(uw)+1), make([]int, len(uw)+1)
	longest := make([]int, len(words))
	for i, w := range words {
		for j := range uw {
			cur[j+1] = 0
			if w == uw[j] {
				cur[j+1] = prev[j] + 1
			}
			longest[i] = max(longest[i], cur[j+1])
		}
		prev, cur = cur, prev
	}
	// A word is in a run when a run ending at it or after it starts at
	// it or before it.
	start := len(words)
	for i := len(words) - 1; i >= 0; i-- {
		if longest[i] >= run {
			start = min(start, i-longest[i]+1)
		}
		if start <= i {
			out[owner[i]] = true
		}
	}
	return out
}

// Asks tells whether some sentence of the reply's own asks.
func (q Questions) Asks() bool {
	return slices.ContainsFunc(q.Sentences, func(s Sentence) bool { return s.Asks })
}

// Match is where a sentence refers to a parameter.
type Match struct {
	At, End int // word span in the sentence
	// Words are the positions of the words that matched, gaps left out.
	Words []int
}

// Targets are the places where a sentence refers to a parameter: one of
// its phrases in order (at most MaxGap words between their words), a
// phrase of two or more content words all in the sentence, or a one-word
// phrase or description term as the head of a phrase (after a
// determiner, question word or preposition).
func (s Sentence) Targets(v Vocab) []Match {
	var out []Match
	for _, p := range v.Phrases {
		switch {
		case len(p) == 0:
		case len(p) == 1:
			for _, i := range s.headsAt(p[0]) {
				out = append(out, Match{i, i + 1, []int{i}})
			}
		default:
			if runs := textmatch.RunsOf(s.Lems, p, MaxGap, -1); len(runs) > 0 {
				for _, r := range runs {
					out = append(out, Match{r[0], r[len(r)-1] + 1, r})
				}
			} else if content := contentLemmas(p); len(content) >= 2 && s.hasAll(content) {
				m := Match{At: slices.Index(s.Lems, content[0])}
				m.End = m.At + 1
				for _, l := range content {
					m.Words = append(m.Words, slices.Index(s.Lems, l))
				}
				out = append(out, m)
			}
		}
	}
	for _, t := range v.Terms {
		for _, i := range s.headsAt(t) {
			out = append(out, Match{i, i + 1, []int{i}})
		}
	}
	return out
}

// contentLemmas are the lemmas of a phrase that are not stop words.
func contentLemmas(p []string) []string {
	var out []string
	for _, l := range p {
		if !textmatch.IsStopWord(l) {
			out = append(out, l)
		}
	}
	return out
}

func (s Sentence) hasAll(ls []string) bool {
	for _, l := range ls {
		if !slices.Contains(s.Lems, l) {
			return false
		}
	}
	return true
}

// headsAt are the positions of a one-word lemma that stands as a
// question word or with a context word at most ContextReach words before,
// and does not modify the word the user wrote after it.
func (s Sentence) headsAt(l string) []int {
	var out []int
	for i, x := range s.Lems {
		if x != l || i < len(s.users) && s.users[i] {
			continue
		}
		if questionWords[s.Words[i]] {
			out = append(out, i)
			continue
		}
		for j := max(0, i-ContextReach); j < i; j++ {
			if contextWords[s.Words[j]] {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// AsksFor tells whether the reply asks for a parameter: a sentence of its
// own that asks refers to it, and not only among the bare words of a list.
func (q Questions) AsksFor(v Vocab) bool {
	for _, s := range q.Sentences {
		if s.Asks && len(s.Targets(v)) > 0 && (s.bare == nil || len(s.bare.Targets(v)) > 0) {
			return true
		}
	}
	return false
}

// AsksAgainFor tells whether the reply asks for a parameter it should not
// ask for, by the same recogniser as AsksFor, in sentences that ask. A
// reference made by the words of a value the user gave (given) states
// that value ("convert it to PNG"), and words a reference to a missing
// parameter holds (missing) ask for that one ("which currency would you
// like your dollars in?"); any other reference asks again, whatever else
// the sentence repeats of the user's words. For a parameter nobody gave
// (given empty), a sentence that offers it as optional asks for nothing.
func (q Questions) AsksAgainFor(v Vocab, given []string, missing []Vocab) bool {
	for _, s := range q.Sentences {
		if !s.Asks || len(given) == 0 && s.Optional {
			continue
		}
		if s.bare != nil && len(s.bare.Targets(v)) == 0 && len(given) == 0 {
			continue
		}
		stated, shared := s.spansOf(given), s.wordsOfTargets(missing)
		for _, m := range s.Targets(v) {
			if !s.states(m, stated) && !s.sharedWith(m, shared) {
				return true
			}
		}
	}
	return false
}

// spansOf are the places where a sentence states one of the values, as
// words.
func (s Sentence) spansOf(vals []string) [][2]int {
	var out [][2]int
	for _, v := range vals {
		if ws := wordsOf(v); len(ws) > 0 {
			for _, r := range textmatch.RunsOf(s.Words, ws, 0, -1) {
				out = append(out, [2]int{r[0], r[len(r)-1] + 1})
			}
		}
	}
	return out
}

// states tells whether a reference states the value at one of the
// spans: its words are the value ("to PNG"), or the value follows it,
// after a determiner at most ("convert from your dollars").
func (s Sentence) states(m Match, spans [][2]int) bool {
	for _, sp := range spans {
		switch {
		case sp[0] <= m.At && m.End <= sp[1], sp[0] == m.End:
			return true
		case sp[0] == m.End+1 && determiners[s.Words[m.End]]:
			return true
		}
	}
	return false
}

// wordsOfTargets are the positions of the words of the sentence's
// references to the parameters.
func (s Sentence) wordsOfTargets(vs []Vocab) map[int]bool {
	out := map[int]bool{}
	for _, v := range vs {
		for _, o := range s.Targets(v) {
			for _, i := range o.Words {
				out[i] = true
			}
		}
	}
	return out
}

// sharedWith tells whether the words of a match, all but stop words, are
// among the words of references to missing parameters (shared): a phrase
// that names a missing parameter and a given one ("which currency would
// you like") asks for the missing one.
func (s Sentence) sharedWith(m Match, shared map[int]bool) bool {
	if len(shared) == 0 {
		return false
	}
	for _, i := range m.Words {
		if !shared[i] && !textmatch.IsStopWord(s.Lems[i]) && !questionWords[s.Words[i]] {
			return false
		}
	}
	return true
}

// AsksWhich tells whether the reply asks which of the things the user
// names they mean ("which museum?", "its name"): what identifies a thing
// the user cannot give an opaque ID for. A thing another parameter names
// (others) does not count.
func (q Questions) AsksWhich(user string, others []Vocab) bool {
	things := map[string]bool{}
	for _, w := range textmatch.Words(user) {
		if len(w) >= 3 && !textmatch.IsStopWord(w) && !textmatch.IsGenericWord(w) && !questionWords[w] {
			things[textmatch.Lemma(w)] = true
		}
	}
	things["name"] = true
	for _, s := range q.Sentences {
		if !s.Asks {
			continue
		}
		var taken map[int]bool // the words of references to the others, read once
		for i := range s.Words {
			if !things[s.Lems[i]] || i == 0 {
				continue
			}
			if s.Lems[i] != "name" && s.Words[i-1] != "which" && s.Words[i-1] != "what" {
				continue
			}
			if s.Lems[i] == "name" && !contextWords[s.Words[i-1]] {
				continue
			}
			if taken == nil {
				taken = map[int]bool{}
				for _, o := range others {
					for _, m := range s.Targets(o) {
						for k := m.At; k < m.End; k++ {
							taken[k] = true
						}
					}
				}
			}
			if !taken[i] {
				return true
			}
		}
	}
	return false
}

// exampleRE finds a documented example in a sentence ("Ex: USD").
var exampleRE = regexp.MustCompile(`(?i)\b(?:ex|e\.g|eg|example|for example|for instance)\s*[:.]\s*[^,;()]*`)

// StatesAny tells whether a text states one of the values, as words (a
// documented example is no value of the user's).
func StatesAny(text string, vals []string) bool {
	norm := textmatch.Normalized(exampleRE.ReplaceAllString(text, " "))
	for _, s := range vals {
		if n := textmatch.Normalized(s); strings.TrimSpace(n) != "" && strings.Contains(norm, n) {
			return true
		}
	}
	return false
}

// bracketRE finds remarks in brackets, innermost first.
var bracketRE = regexp.MustCompile(`\([^()]*\)|\[[^\[\]]*\]`)

// WithoutBrackets is a text without its remarks in brackets: a remark
// explains ("the language (of the input text)"), it does not ask.
func WithoutBrackets(text string) string { return bracketRE.ReplaceAllString(text, " ") }
