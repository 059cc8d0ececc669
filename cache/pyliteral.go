package cache

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This is a parser of its own rather than go.starlark.net/syntax (Starlark
// is Python-like, and a dependency already): Starlark rejects what
// StableToolBench's keys hold and literal_eval accepts — u'' prefixes,
// unknown escapes kept as written ('\d' in a regex argument), digit
// underscores (1_000) — it reports errors by line and column rather than
// byte offset, and its recursive parser has no depth bound, so hostile
// nesting would need a scanner of its own before it anyway.

// maxPyDepth bounds nesting so hostile input cannot exhaust the stack.
const maxPyDepth = 256

// PythonSyntaxError reports where and why a Python literal did not parse.
type PythonSyntaxError struct {
	Offset int // byte offset into the input
	Msg    string
}

func (e *PythonSyntaxError) Error() string {
	return fmt.Sprintf("python literal: at byte %d: %s", e.Offset, e.Msg)
}

// ParsePythonDict parses the repr of a Python dict with string keys, as
// StableToolBench writes its cache keys ("{'q': 'Paris', 'days': 3}"). It
// accepts the literals Python's ast.literal_eval accepts for JSON-like data:
// single- and double-quoted strings with all escapes (\n, \xhh, \uXXXX,
// \UXXXXXXXX, octal, line continuation; r/u/b prefixes), ints of any size,
// floats, True/False/None, and nested dicts, lists and tuples (tuples become
// lists). Values come back as map[string]any, []any, string, bool, nil,
// int64, float64, or json.Number for integers beyond int64.
func ParsePythonDict(s string) (map[string]any, error) {
	v, err := ParsePythonLiteral(s)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &PythonSyntaxError{Offset: 0, Msg: fmt.Sprintf("want a dict, got %s", pyTypeName(v))}
	}
	return m, nil
}

// ParsePythonLiteral parses one Python literal (see ParsePythonDict).
func ParsePythonLiteral(s string) (any, error) {
	p := &pyParser{s: s}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) {
		return nil, p.errf("unexpected %q after the value", p.peekRune())
	}
	return v, nil
}

func pyTypeName(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case string:
		return "a string"
	case nil:
		return "None"
	case bool:
		return "a bool"
	case map[string]any:
		return "a dict"
	}
	return "a number"
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) errf(format string, args ...any) error {
	return &PythonSyntaxError{Offset: p.i, Msg: fmt.Sprintf(format, args...)}
}

func (p *pyParser) peekRune() string {
	if p.i >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return string(r)
}

// space skips whitespace; Python allows any between tokens of a bracketed
// literal, including a backslash line continuation.
func (p *pyParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			p.i++
		case '\\':
			if strings.HasPrefix(p.s[p.i:], "\\\n") {
				p.i += 2
			} else if strings.HasPrefix(p.s[p.i:], "\\\r\n") {
				p.i += 3
			} else {
				return
			}
		default:
			return
		}
	}
}

func (p *pyParser) value(depth int) (any, error) {
	if depth > maxPyDepth {
		return nil, p.errf("nested deeper than %d", maxPyDepth)
	}
	if p.i >= len(p.s) {
		return nil, p.errf("unexpected end of input, want a value")
	}
	c := p.s[p.i]
	switch {
	case c == '{':
		return p.dict(depth)
	case c == '[':
		p.i++
		return p.sequence(']', depth)
	case c == '(':
		p.i++
		return p.sequence(')', depth)
	case c == '\'' || c == '"':
		return p.str(false, false)
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	case isIdentStart(c):
		start := p.i
		for p.i < len(p.s) && (isIdentStart(p.s[p.i]) || (p.s[p.i] >= '0' && p.s[p.i] <= '9')) {
			p.i++
		}
		word := p.s[start:p.i]
		if p.i < len(p.s) && (p.s[p.i] == '\'' || p.s[p.i] == '"') && len(word) <= 2 {
			lw := strings.ToLower(word)
			switch lw {
			case "r", "u", "b", "br", "rb":
			default:
				p.i = start
				return nil, p.errf("unknown string prefix %q", word)
			}
			raw, bytesPrefix := strings.Contains(lw, "r"), strings.Contains(lw, "b")
			return p.str(raw, bytesPrefix)
		}
		switch word {
		case "True":
			return true, nil
		case "False":
			return false, nil
		case "None":
			return nil, nil
		case "inf", "nan", "Infinity", "NaN":
			p.i = start
			return nil, p.errf("%s has no JSON form", word)
		}
		p.i = start
		return nil, p.errf("unknown name %q (only True, False and None are literals)", word)
	}
	return nil, p.errf("unexpected %q, want a value", p.peekRune())
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func (p *pyParser) dict(depth int) (any, error) {
	p.i++ // {
	m := map[string]any{}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		p.space()
		keyAt := p.i
		k, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		ks, ok := k.(string)
		if !ok {
			if p.i < len(p.s) && p.s[p.i] != ':' {
				p.space()
			}
			if p.i < len(p.s) && (p.s[p.i] == ',' || p.s[p.i] == '}') {
				return nil, &PythonSyntaxError{Offset: keyAt, Msg: "sets are not supported (want a dict)"}
			}
			return nil, &PythonSyntaxError{Offset: keyAt, Msg: fmt.Sprintf("dict key is %s; only string keys are supported", pyTypeName(k))}
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errf("want ':' after a dict key, got %q", p.peekRune())
		}
		p.i++
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		m[ks] = v // a repeated key keeps the last value, as in Python
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errf("unexpected end of input, want ',' or '}'")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return m, nil
			}
		case '}':
			p.i++
			return m, nil
		default:
			return nil, p.errf("want ',' or '}' in a dict, got %q", p.peekRune())
		}
	}
}

func (p *pyParser) sequence(closer byte, depth int) (any, error) {
	out := []any{}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == closer {
		p.i++
		return out, nil
	}
	for {
		p.space()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		p.space()
		if p.i >= len(p.s) {
			return nil, p.errf("unexpected end of input, want ',' or %q", closer)
		}
		switch p.s[p.i] {
		case ',':
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == closer {
				p.i++
				return out, nil
			}
		case closer:
			if closer == ')' && len(out) == 1 {
				// (x) is just x in Python; (x,) is the tuple.
				p.i++
				return out[0], nil
			}
			p.i++
			return out, nil
		default:
			return nil, p.errf("want ',' or %q, got %q", closer, p.peekRune())
		}
	}
}

// number parses a Python int or float literal (decimal, with optional
// underscores between digits, or 0x/0o/0b ints).
func (p *pyParser) number() (any, error) {
	start := p.i
	neg := false
	if p.s[p.i] == '-' || p.s[p.i] == '+' {
		neg = p.s[p.i] == '-'
		p.i++
		p.space()
	}
	numStart := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if (c >= '0' && c <= '9') || c == '.' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			p.i++
			continue
		}
		if (c == '+' || c == '-') && p.i > numStart && (p.s[p.i-1] == 'e' || p.s[p.i-1] == 'E') && !isRadixPrefixed(p.s[numStart:p.i]) {
			p.i++
			continue
		}
		break
	}
	text := p.s[numStart:p.i]
	if text == "" {
		p.i = start
		return nil, p.errf("a sign must be followed by a number")
	}
	if strings.Contains(text, "__") || strings.HasPrefix(text, "_") || strings.HasSuffix(text, "_") {
		p.i = start
		return nil, p.errf("bad number %q", text)
	}
	clean := strings.ReplaceAll(text, "_", "")
	lower := strings.ToLower(clean)
	if lower == "inf" || lower == "nan" || lower == "infinity" {
		p.i = start
		return nil, p.errf("%s has no JSON form", text)
	}
	if strings.HasSuffix(lower, "j") {
		p.i = start
		return nil, p.errf("complex numbers are not supported")
	}
	if isRadixPrefixed(clean) || !strings.ContainsAny(lower, ".e") {
		base := 10
		digits := clean
		if isRadixPrefixed(clean) {
			switch lower[1] {
			case 'x':
				base = 16
			case 'o':
				base = 8
			case 'b':
				base = 2
			}
			digits = clean[2:]
		} else if len(clean) > 1 && clean[0] == '0' && strings.Trim(clean, "0") != "" {
			p.i = start
			return nil, p.errf("leading zeros in %q are not allowed in Python 3", text)
		}
		if digits == "" || strings.HasPrefix(digits, "-") || strings.HasPrefix(digits, "+") {
			p.i = start
			return nil, p.errf("bad number %q", text)
		}
		if neg {
			digits = "-" + digits
		}
		if n, err := strconv.ParseInt(digits, base, 64); err == nil {
			return n, nil
		}
		if u, ok := bigIntDecimal(digits, base); ok {
			return json.Number(u), nil
		}
		p.i = start
		return nil, p.errf("bad number %q", text)
	}
	for _, c := range lower {
		if !(c >= '0' && c <= '9') && c != '.' && c != 'e' && c != '+' && c != '-' {
			p.i = start
			return nil, p.errf("bad number %q", text)
		}
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil || math.IsInf(f, 0) {
		p.i = start
		return nil, p.errf("bad number %q", text)
	}
	if neg {
		f = -f
	}
	return f, nil
}

func isRadixPrefixed(s string) bool {
	return len(s) >= 2 && s[0] == '0' && strings.ContainsRune("xXoObB", rune(s[1]))
}

// bigIntDecimal converts an integer literal too large for int64 into
// decimal text (digits only, optional leading '-').
func bigIntDecimal(digits string, base int) (string, bool) {
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	// Schoolbook conversion into base 1e9 limbs; literals are short.
	limbs := []uint64{0}
	for _, c := range digits {
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return "", false
		}
		if d >= uint64(base) {
			return "", false
		}
		carry := d
		for i := range limbs {
			v := limbs[i]*uint64(base) + carry
			limbs[i] = v % 1e9
			carry = v / 1e9
		}
		for carry > 0 {
			limbs = append(limbs, carry%1e9)
			carry /= 1e9
		}
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(strconv.FormatUint(limbs[len(limbs)-1], 10))
	for i := len(limbs) - 2; i >= 0; i-- {
		fmt.Fprintf(&b, "%09d", limbs[i])
	}
	return b.String(), true
}

// str parses a quoted string at p.i (the prefix is already consumed).
func (p *pyParser) str(raw, bytesLit bool) (any, error) {
	start := p.i
	q := p.s[p.i]
	triple := strings.HasPrefix(p.s[p.i:], strings.Repeat(string(q), 3))
	if triple {
		p.i += 3
	} else {
		p.i++
	}
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			p.i = start
			return nil, p.errf("unterminated string")
		}
		c := p.s[p.i]
		if c == q {
			if !triple {
				p.i++
				return b.String(), nil
			}
			if strings.HasPrefix(p.s[p.i:], strings.Repeat(string(q), 3)) {
				p.i += 3
				return b.String(), nil
			}
		}
		if !triple && (c == '\n' || c == '\r') {
			return nil, p.errf("newline inside a single-quoted string")
		}
		if c != '\\' {
			if bytesLit && c >= 0x80 {
				return nil, p.errf("bytes literal holds a non-ASCII character")
			}
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				return nil, p.errf("invalid UTF-8")
			}
			b.WriteString(p.s[p.i : p.i+size])
			p.i += size
			continue
		}
		if p.i+1 >= len(p.s) {
			p.i = start
			return nil, p.errf("unterminated string")
		}
		if raw {
			// A raw string keeps the backslash; it only protects a quote.
			b.WriteByte('\\')
			p.i++
			r, size := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && size == 1 {
				return nil, p.errf("invalid UTF-8")
			}
			b.WriteString(p.s[p.i : p.i+size])
			p.i += size
			continue
		}
		if err := p.escape(&b, bytesLit); err != nil {
			return nil, err
		}
	}
}

// escape decodes one backslash escape at p.i.
func (p *pyParser) escape(b *strings.Builder, bytesLit bool) error {
	at := p.i
	p.i++ // backslash
	c := p.s[p.i]
	p.i++
	simple := map[byte]byte{'\\': '\\', '\'': '\'', '"': '"', 'a': 7, 'b': 8, 'f': 12, 'n': '\n', 'r': '\r', 't': '\t', 'v': 11}
	if r, ok := simple[c]; ok {
		b.WriteByte(r)
		return nil
	}
	hex := func(n int) (rune, error) {
		if p.i+n > len(p.s) {
			return 0, &PythonSyntaxError{Offset: at, Msg: "truncated escape"}
		}
		v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
		if err != nil || strings.ContainsAny(p.s[p.i:p.i+n], "+-_") {
			return 0, &PythonSyntaxError{Offset: at, Msg: fmt.Sprintf("bad escape \\%c%s", c, p.s[p.i:p.i+n])}
		}
		p.i += n
		return rune(v), nil
	}
	switch {
	case c == '\n':
		return nil // line continuation
	case c == '\r':
		if p.i < len(p.s) && p.s[p.i] == '\n' {
			p.i++
		}
		return nil
	case c >= '0' && c <= '7':
		v := rune(c - '0')
		for n := 1; n < 3 && p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '7'; n++ {
			v = v*8 + rune(p.s[p.i]-'0')
			p.i++
		}
		b.WriteRune(v)
		return nil
	case c == 'x':
		r, err := hex(2)
		if err != nil {
			return err
		}
		b.WriteRune(r)
		return nil
	case (c == 'u' || c == 'U') && !bytesLit:
		n := 4
		if c == 'U' {
			n = 8
		}
		r, err := hex(n)
		if err != nil {
			return err
		}
		if r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
			return &PythonSyntaxError{Offset: at, Msg: fmt.Sprintf("escape \\%c%0*x is not a Unicode scalar value", c, n, r)}
		}
		b.WriteRune(r)
		return nil
	case c == 'N' && !bytesLit:
		return &PythonSyntaxError{Offset: at, Msg: `named escapes (\N{...}) are not supported`}
	}
	// Python keeps unknown escapes as they are.
	b.WriteByte('\\')
	p.i--
	return nil
}
