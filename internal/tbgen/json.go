package tbgen

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// Obj is a JSON object whose keys keep their order, as the Python
// json.dump that wrote ToolBench's files keeps a dict's insertion order.
type Obj []KV

// KV is one member of an Obj.
type KV struct {
	Key string
	Val any
}

// MarshalJSON writes the object with its keys in order.
func (o Obj) MarshalJSON() ([]byte, error) {
	b := encode(o, "")
	return b[:len(b)-1], nil
}

// absent marks a member left out of the file (a missing "schema").
type absent struct{}

// Get returns the value of key, or nil.
func (o Obj) Get(key string) any {
	for _, kv := range o {
		if kv.Key == key {
			return kv.Val
		}
	}
	return nil
}

// rawJSON is written as is: the bytes of a malformed file.
type rawJSON []byte

// encoder writes values as Python's json.dump(v, indent=4,
// ensure_ascii=False) does: "key": value, four-space indents, [] and {}
// for empty containers. Values are Obj, []any, []Obj, string, int,
// float64, bool, nil and rawJSON.
type encoder struct {
	buf    []byte
	indent string
}

func encode(v any, indent string) []byte {
	e := &encoder{buf: make([]byte, 0, 4096), indent: indent}
	e.value(v, 0)
	e.buf = append(e.buf, '\n')
	return e.buf
}

func (e *encoder) newline(depth int) {
	if e.indent == "" {
		return
	}
	e.buf = append(e.buf, '\n')
	for range depth {
		e.buf = append(e.buf, e.indent...)
	}
}

func (e *encoder) value(v any, depth int) {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case float64:
		e.float(x)
	case string:
		e.str(x)
	case rawJSON:
		e.buf = append(e.buf, x...)
	case Obj:
		e.obj(x, depth)
	case []Obj:
		if len(x) == 0 {
			e.buf = append(e.buf, "[]"...)
			return
		}
		e.buf = append(e.buf, '[')
		for i, el := range x {
			if i > 0 {
				e.sep()
			}
			e.newline(depth + 1)
			e.obj(el, depth+1)
		}
		e.newline(depth)
		e.buf = append(e.buf, ']')
	case []any:
		if len(x) == 0 {
			e.buf = append(e.buf, "[]"...)
			return
		}
		e.buf = append(e.buf, '[')
		for i, el := range x {
			if i > 0 {
				e.sep()
			}
			e.newline(depth + 1)
			e.value(el, depth+1)
		}
		e.newline(depth)
		e.buf = append(e.buf, ']')
	case []string:
		a := make([]any, len(x))
		for i, s := range x {
			a[i] = s
		}
		e.value(a, depth)
	default:
		panic("tbgen: cannot encode " + strconv.Quote(typeName(v)))
	}
}

func (e *encoder) sep() {
	e.buf = append(e.buf, ',')
	if e.indent == "" {
		e.buf = append(e.buf, ' ')
	}
}

func (e *encoder) obj(o Obj, depth int) {
	n := 0
	for _, kv := range o {
		if _, skip := kv.Val.(absent); !skip {
			n++
		}
	}
	if n == 0 {
		e.buf = append(e.buf, "{}"...)
		return
	}
	e.buf = append(e.buf, '{')
	first := true
	for _, kv := range o {
		if _, skip := kv.Val.(absent); skip {
			continue
		}
		if !first {
			e.sep()
		}
		first = false
		e.newline(depth + 1)
		e.str(kv.Key)
		e.buf = append(e.buf, ": "...)
		e.value(kv.Val, depth+1)
	}
	e.newline(depth)
	e.buf = append(e.buf, '}')
}

func (e *encoder) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.buf = append(e.buf, "null"...)
		return
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		// Python writes 12.0 for a float that happens to be whole.
		e.buf = strconv.AppendFloat(e.buf, f, 'f', 1, 64)
		return
	}
	e.buf = strconv.AppendFloat(e.buf, f, 'f', -1, 64)
}

const hexDigits = "0123456789abcdef"

func (e *encoder) str(s string) {
	e.buf = append(e.buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				e.buf = append(e.buf, '\\', '"')
			case c == '\\':
				e.buf = append(e.buf, '\\', '\\')
			case c == '\n':
				e.buf = append(e.buf, '\\', 'n')
			case c == '\r':
				e.buf = append(e.buf, '\\', 'r')
			case c == '\t':
				e.buf = append(e.buf, '\\', 't')
			case c < 0x20 || c == 0x7f:
				e.buf = append(e.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				e.buf = append(e.buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			e.buf = append(e.buf, `\ufffd`...)
		} else {
			e.buf = append(e.buf, s[i:i+size]...)
		}
		i += size
	}
	e.buf = append(e.buf, '"')
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "map (unordered; use Obj)"
	}
	return "unsupported value"
}
