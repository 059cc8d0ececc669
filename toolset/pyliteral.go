package toolset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrPyLiteral is what PyLiteralJSON answers for text that is not a
// Python literal it reads.
var ErrPyLiteral = errors.New("not a Python literal")

// maxPyDepth bounds the nesting PyLiteralJSON follows.
const maxPyDepth = 64

// PyLiteralJSON turns the repr of a Python value — what ToolBench writes
// when a template_response was str()-ed rather than dumped: {'symbol':
// 'str', 'items': [{'id': 'int'}], 'next': None} — into JSON. It reads
// dicts, lists, tuples, single- and double-quoted strings with their
// escapes, numbers, True, False and None; JSON is a Python literal too,
// and reads the same (true, false and null included).
func PyLiteralJSON(s string) (json.RawMessage, error) {
	p := &pyParser{s: s}
	var out bytes.Buffer
	p.space()
	if err := p.value(&out, 0); err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("%w: trailing text at byte %d", ErrPyLiteral, p.i)
	}
	return out.Bytes(), nil
}

type pyParser struct {
	s string
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) fail(what string) error {
	return fmt.Errorf("%w: %s at byte %d", ErrPyLiteral, what, p.i)
}

func (p *pyParser) value(out *bytes.Buffer, depth int) error {
	if depth > maxPyDepth {
		return p.fail("nested too deep")
	}
	if p.i >= len(p.s) {
		return p.fail("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.seq(out, '}', depth, true)
	case c == '[':
		return p.seq(out, ']', depth, false)
	case c == '(':
		return p.seq(out, ')', depth, false)
	case c == '\'' || c == '"':
		str, err := p.str()
		if err != nil {
			return err
		}
		b, _ := json.Marshal(str)
		out.Write(b)
		return nil
	case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
		return p.number(out)
	}
	for _, w := range [][2]string{{"True", "true"}, {"False", "false"}, {"None", "null"}, {"true", "true"}, {"false", "false"}, {"null", "null"}} {
		if strings.HasPrefix(p.s[p.i:], w[0]) {
			p.i += len(w[0])
			out.WriteString(w[1])
			return nil
		}
	}
	return p.fail("unexpected character")
}

// seq reads a dict (pairs) or a list or tuple up to its closing byte; a
// trailing comma is Python's and allowed.
func (p *pyParser) seq(out *bytes.Buffer, end byte, depth int, pairs bool) error {
	p.i++
	if pairs {
		out.WriteByte('{')
	} else {
		out.WriteByte('[')
	}
	first := true
	for {
		p.space()
		if p.i >= len(p.s) {
			return p.fail("unclosed container")
		}
		if p.s[p.i] == end {
			p.i++
			break
		}
		if !first {
			if p.s[p.i] != ',' {
				return p.fail("expected a comma")
			}
			p.i++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == end {
				p.i++
				break
			}
			out.WriteByte(',')
		}
		first = false
		if pairs {
			var key bytes.Buffer
			if err := p.value(&key, depth+1); err != nil {
				return err
			}
			k := key.Bytes()
			if len(k) == 0 || k[0] != '"' {
				// JSON keys are text: a number or None key is written as one.
				k, _ = json.Marshal(string(k))
			}
			out.Write(k)
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return p.fail("expected a colon")
			}
			p.i++
			p.space()
			out.WriteByte(':')
		}
		if err := p.value(out, depth+1); err != nil {
			return err
		}
	}
	if pairs {
		out.WriteByte('}')
	} else {
		out.WriteByte(']')
	}
	return nil
}

func (p *pyParser) number(out *bytes.Buffer) error {
	start := p.i
	for p.i < len(p.s) && strings.IndexByte("+-.0123456789eE_", p.s[p.i]) >= 0 {
		p.i++
	}
	lit := strings.ReplaceAll(p.s[start:p.i], "_", "")
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return p.fail("bad number")
	}
	if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
		out.WriteString(strconv.FormatInt(n, 10))
		return nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return p.fail("number out of range")
	}
	out.Write(b)
	return nil
}

// str reads a quoted string with Python's and JSON's escapes (\n, \t,
// \', \", \\, \/, \b, \f, \xNN, \uNNNN and surrogate pairs); an unknown
// escape keeps its backslash, as Python does.
func (p *pyParser) str() (string, error) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\' && p.i+1 < len(p.s):
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '\'', '"', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'a':
				b.WriteByte('\a')
			case 'v':
				b.WriteByte('\v')
			case 'x', 'u':
				n := 2
				if e == 'u' {
					n = 4
				}
				if p.i+n > len(p.s) {
					return "", p.fail("short escape")
				}
				v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil {
					return "", p.fail("bad escape")
				}
				p.i += n
				r := rune(v)
				if utf16.IsSurrogate(r) && strings.HasPrefix(p.s[p.i:], "\\u") && p.i+6 <= len(p.s) {
					if lo, err := strconv.ParseUint(p.s[p.i+2:p.i+6], 16, 32); err == nil {
						if pair := utf16.DecodeRune(r, rune(lo)); pair != utf8.RuneError {
							r = pair
							p.i += 6
						}
					}
				}
				b.WriteRune(r)
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			_, size := utf8.DecodeRuneInString(p.s[p.i:])
			b.WriteString(p.s[p.i : p.i+size])
			p.i += size
		}
	}
	return "", p.fail("unclosed string")
}

// NormalizeTemplate is a template_response as the loader keeps it: a
// string holding JSON or a Python dict's repr parsed, nil when it says
// nothing (null, "", {}, [], too large).
func NormalizeTemplate(raw json.RawMessage) json.RawMessage { return templateResponse(raw) }
