package deps

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/understudy/understudy/internal/canon"
)

// edgeKeys is, for a response, the keys (see ScalarKey) of the values at
// paths, path by path and each in document order: what decoding the whole
// response with canon.Decode and taking valuesAt of each path gives, with
// ok false where canon.Decode refuses the response. It reads the raw JSON
// once and builds only the keys it returns: a source API's answer (a page
// of hotels, recipes or headlines) is mostly subtrees no edge reads, and
// decoding them into maps was most of the cost of observing it.
//
// It follows encoding/json where the decoded document would: a key
// repeated in an object means its last value, keys and strings compare
// unescaped (invalid UTF-8 as U+FFFD), and a number is canon.Number of its
// literal, so a 64-bit ID keeps its digits.
func edgeKeys(body []byte, paths [][]pathStep) (keys []string, ok bool) {
	byPath, ok := pathKeys(body, paths)
	for _, o := range byPath {
		keys = append(keys, o...)
	}
	return keys, ok
}

// pathKeys is edgeKeys with the keys of each path apart: byPath[p] holds
// those of paths[p]. Both are nil where canon.Decode refuses the response.
func pathKeys(body []byte, paths [][]pathStep) (byPath [][]string, ok bool) {
	return scan(body, paths, false)
}

// carriedKeys is pathKeys for a response the engine answered, which is
// valid JSON but for a rare upstream's: the values no path reads are
// skipped rather than checked, which makes reading an answer whose bulk is
// texts (reviews, recipes, articles) several times faster. On a document
// canon.Decode accepts it gives what pathKeys gives; on another, the keys
// found before what made it invalid, or none.
func carriedKeys(body []byte, paths [][]pathStep) [][]string {
	byPath, _ := scan(body, paths, true)
	return byPath
}

func scan(body []byte, paths [][]pathStep, skim bool) (byPath [][]string, ok bool) {
	s := scanner{b: body, paths: paths, out: make([][]string, len(paths)), skim: skim}
	act := make([]state, len(paths))
	for p := range paths {
		act[p] = s.start(p, 0)
	}
	i := s.value(s.space(0), act, 0)
	if s.bad || s.space(i) != len(body) {
		return nil, false
	}
	return s.out, true
}

// maxDepth is encoding/json's bound on nesting, past which it refuses a
// document.
const maxDepth = 10000

// state is where one path stands at a value: steps [k:] of path p remain;
// elems means the value must be an array whose elements go on at step k+1.
type state struct {
	p, k  int
	elems bool
}

type scanner struct {
	b     []byte
	paths [][]pathStep
	out   [][]string // keys found, by path
	bad   bool       // the document is not one canon.Decode accepts
	// skim skips the values no path reads without checking them.
	skim  bool
	stack []state // the states of the members being read, reused
	marks []int   // per state of an object, where its key's values start
}

// start is the state of path p at a value where step k comes next.
func (s *scanner) start(p, k int) state {
	steps := s.paths[p]
	return state{p: p, k: k, elems: k < len(steps) && steps[k].key == ""}
}

func (s *scanner) space(i int) int {
	for i < len(s.b) {
		switch s.b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// value reads the value starting at i (after white space) in which act
// are the paths standing, and returns the offset after it.
func (s *scanner) value(i int, act []state, depth int) int {
	if s.bad || i >= len(s.b) {
		s.bad = true
		return i
	}
	if s.skim && len(act) == 0 {
		return s.skip(i)
	}
	switch c := s.b[i]; {
	case c == '{':
		return s.object(i, act, depth+1)
	case c == '[':
		return s.array(i, act, depth+1)
	case c == '"':
		end, plain := s.str(i)
		if !s.bad && s.ends(act) {
			if v := s.unquote(i, end, plain); v != "" {
				s.result(act, v)
			}
		}
		return end
	case c == '-' || c >= '0' && c <= '9':
		end, simple := s.number(i)
		if s.bad || simple && !s.ends(act) {
			return end
		}
		// Past 15 digits or with an exponent, a literal may not be a
		// finite float64 (canon.Decode refuses it) or may be a big
		// integer (it keeps its digits).
		n, ok := canon.Number(string(s.b[i:end]))
		if !ok {
			s.bad = true
			return end
		}
		if s.ends(act) {
			k, _ := ScalarKey(n)
			s.result(act, k)
		}
		return end
	default:
		for _, lit := range [...]string{"true", "false", "null"} {
			if len(s.b)-i >= len(lit) && string(s.b[i:i+len(lit)]) == lit {
				if lit != "null" {
					s.result(act, lit)
				}
				return i + len(lit)
			}
		}
		s.bad = true
		return i
	}
}

// ends reports whether a path ends at the value act stand at.
func (s *scanner) ends(act []state) bool {
	for _, st := range act {
		if !st.elems && st.k == len(s.paths[st.p]) {
			return true
		}
	}
	return false
}

// result adds the key of the scalar act stand at to every path that ends
// there.
func (s *scanner) result(act []state, key string) {
	for _, st := range act {
		if !st.elems && st.k == len(s.paths[st.p]) {
			s.out[st.p] = append(s.out[st.p], key)
		}
	}
}

func (s *scanner) object(i int, act []state, depth int) int {
	if depth > maxDepth {
		s.bad = true
		return i
	}
	// The paths that take a member of this object, and where the values
	// of each started: a repeated key replaces them, as in a decoded map.
	base := len(s.marks)
	for range act {
		s.marks = append(s.marks, -1)
	}
	defer func() { s.marks = s.marks[:base] }()
	i = s.space(i + 1)
	if i < len(s.b) && s.b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(s.b) || s.b[i] != '"' {
			s.bad = true
			return i
		}
		kstart := i
		kend, plain := s.str(i)
		if s.bad {
			return kend
		}
		i = s.space(kend)
		if i >= len(s.b) || s.b[i] != ':' {
			s.bad = true
			return i
		}
		i = s.space(i + 1)
		sub := len(s.stack)
		// The key as it is written is its name unless it has escapes
		// or invalid UTF-8; only then is it unquoted.
		name := s.b[kstart+1 : kend-1]
		unquoted := ""
		if len(act) > 0 && (!plain || !utf8.Valid(name)) {
			unquoted, name = s.unquote(kstart, kend, plain), nil
		}
		for j, st := range act {
			steps := s.paths[st.p]
			if st.elems || st.k >= len(steps) {
				continue
			}
			if want := steps[st.k].key; name != nil && string(name) != want || name == nil && unquoted != want {
				continue
			}
			if m := s.marks[base+j]; m < 0 {
				s.marks[base+j] = len(s.out[st.p])
			} else {
				s.out[st.p] = s.out[st.p][:m] // the later value wins
			}
			if steps[st.k].array {
				s.stack = append(s.stack, state{p: st.p, k: st.k, elems: true})
			} else {
				s.stack = append(s.stack, s.start(st.p, st.k+1))
			}
		}
		i = s.value(i, s.stack[sub:], depth)
		s.stack = s.stack[:sub]
		if s.bad {
			return i
		}
		i = s.space(i)
		if i < len(s.b) && s.b[i] == ',' {
			i = s.space(i + 1)
			continue
		}
		if i < len(s.b) && s.b[i] == '}' {
			return i + 1
		}
		s.bad = true
		return i
	}
}

func (s *scanner) array(i int, act []state, depth int) int {
	if depth > maxDepth {
		s.bad = true
		return i
	}
	sub := len(s.stack)
	for _, st := range act {
		if st.elems {
			s.stack = append(s.stack, s.start(st.p, st.k+1))
		}
	}
	defer func() { s.stack = s.stack[:sub] }()
	elems := s.stack[sub:]
	i = s.space(i + 1)
	if i < len(s.b) && s.b[i] == ']' {
		return i + 1
	}
	for {
		i = s.space(s.value(i, elems, depth))
		if s.bad {
			return i
		}
		if i < len(s.b) && s.b[i] == ',' {
			i = s.space(i + 1)
			continue
		}
		if i < len(s.b) && s.b[i] == ']' {
			return i + 1
		}
		s.bad = true
		return i
	}
}

// skip returns the offset after the value starting at i, which no path
// reads: strings end where bytes.IndexByte finds their closing quote, and
// nothing else is checked but that brackets close.
func (s *scanner) skip(i int) int {
	switch s.b[i] {
	case '"':
		return s.skipString(i)
	case '{', '[':
		depth := 0
		for i < len(s.b) {
			switch s.b[i] {
			case '"':
				if i = s.skipString(i); s.bad {
					return i
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		s.bad = true
		return i
	}
	// A number or a literal: up to what follows it.
	for i < len(s.b) {
		switch s.b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}

// skipString returns the offset after the string starting at i.
func (s *scanner) skipString(i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(s.b[j:], '"')
		if k < 0 {
			s.bad = true
			return len(s.b)
		}
		j += k
		escapes := 0
		for e := j - 1; e > i && s.b[e] == '\\'; e-- {
			escapes++
		}
		if escapes%2 == 0 {
			return j + 1
		}
		j++
	}
}

// str reads the string starting at i and returns the offset after its
// closing quote; plain is true when it has no escapes, so that its bytes
// between the quotes are its value if they are valid UTF-8.
func (s *scanner) str(i int) (end int, plain bool) {
	plain = true
	for i++; i < len(s.b); {
		c := s.b[i]
		if !special[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			return i + 1, plain
		case c < 0x20:
			s.bad = true
			return i, false
		}
		// A backslash.
		plain = false
		i++
		if i >= len(s.b) {
			s.bad = true
			return i, false
		}
		switch s.b[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			if len(s.b)-i < 5 {
				s.bad = true
				return i, false
			}
			for _, h := range s.b[i+1 : i+5] {
				if !isHex(h) {
					s.bad = true
					return i, false
				}
			}
			i += 5
		default:
			s.bad = true
			return i, false
		}
	}
	s.bad = true
	return i, false
}

// special are the bytes a string's scan stops at: its end, an escape, and
// the control characters JSON does not allow in it.
var special = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// unquote is the value of the string from i to end, as encoding/json
// decodes it.
func (s *scanner) unquote(i, end int, plain bool) string {
	if raw := s.b[i+1 : end-1]; plain && utf8.Valid(raw) {
		return string(raw)
	}
	var v string
	if err := json.Unmarshal(s.b[i:end], &v); err != nil {
		s.bad = true // str accepted what encoding/json refuses: not expected
	}
	return v
}

// number reads the number starting at i by JSON's grammar; simple is true
// when it has no exponent and at most 15 digits, so that it is a finite
// float64 and no big integer.
func (s *scanner) number(i int) (end int, simple bool) {
	digits := 0
	run := func() int {
		n := 0
		for i < len(s.b) && s.b[i] >= '0' && s.b[i] <= '9' {
			i++
			n++
		}
		digits += n
		return n
	}
	if s.b[i] == '-' {
		i++
	}
	first := i
	if n := run(); n == 0 || n > 1 && s.b[first] == '0' {
		s.bad = true
		return i, false
	}
	simple = true
	if i < len(s.b) && s.b[i] == '.' {
		i++
		if run() == 0 {
			s.bad = true
			return i, false
		}
	}
	if i < len(s.b) && (s.b[i] == 'e' || s.b[i] == 'E') {
		simple = false
		i++
		if i < len(s.b) && (s.b[i] == '+' || s.b[i] == '-') {
			i++
		}
		if run() == 0 {
			s.bad = true
			return i, false
		}
	}
	return i, simple && digits <= 15
}
