package canon

import (
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// errSlow sends a value to slowJSON: the encoder does not handle it, or it
// is an error that slowJSON words.
var errSlow = errors.New("canon: not handled in one pass")

// encoder writes canonical JSON in one pass over a value, giving exactly
// the bytes slowJSON gives: maps of decoded JSON are walked as normalise
// walks them, other Go values (structs, typed maps and slices) as
// json.Marshal followed by decoding would see them.
type encoder struct {
	buf []byte
}

// encoders reuse their buffers: JSON copies out what it wrote, so a call
// allocates its result once instead of growing a buffer to it.
var encoders = sync.Pool{New: func() any { return &encoder{buf: make([]byte, 0, 1024)} }}

func (e *encoder) release() {
	if cap(e.buf) > 1<<20 {
		return // a rare huge answer does not pin its buffer
	}
	e.buf = e.buf[:0]
	encoders.Put(e)
}

// value writes a value the way normalise reads it.
func (e *encoder) value(v any) error {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case string:
		e.buf = appendString(e.buf, x)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case json.Number:
		return e.numberLit(string(x))
	case float64:
		return e.float(x)
	case float32:
		return e.float(float64(x))
	case int:
		e.int(int64(x))
	case int64:
		e.int(x)
	case map[string]any:
		// normalise copies a nil map as an empty one: "{}".
		return e.object(x)
	case []any:
		e.buf = append(e.buf, '[')
		for i, el := range x {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if err := e.value(el); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, ']')
	case json.RawMessage:
		d, err := decodeNumbers(x)
		if err != nil {
			return errSlow
		}
		return e.value(d)
	default:
		return e.marshaled(reflect.ValueOf(v))
	}
	return nil
}

// object writes a map with sorted keys.
func (e *encoder) object(m map[string]any) error {
	var arr [32]string
	keys := arr[:0]
	if len(m) > len(arr) {
		keys = make([]string, 0, len(m))
	}
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendString(e.buf, k)
		e.buf = append(e.buf, ':')
		if err := e.value(m[k]); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// float writes a float64 as normaliseFloat reads it.
func (e *encoder) float(f float64) error {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return errSlow
	}
	if a := math.Abs(f); a >= maxExact && a < 1e21 && f == math.Trunc(f) {
		return e.canonical(normaliseFloat(f))
	}
	e.buf = appendFloat(e.buf, f, 64)
	return nil
}

// int writes an integer as normaliseInt reads it.
func (e *encoder) int(x int64) {
	if x > -maxExact && x < maxExact {
		e.buf = appendFloat(e.buf, float64(x), 64)
		return
	}
	e.buf = strconv.AppendInt(e.buf, x, 10)
}

// canonical writes a number normalise produced: a float64 or the digits
// of a json.Number.
func (e *encoder) canonical(n any) error {
	switch x := n.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return errSlow
		}
		e.buf = appendFloat(e.buf, x, 64)
	case json.Number:
		e.buf = append(e.buf, x...)
	default:
		return errSlow
	}
	return nil
}

// numberLit writes a number literal as normalise reads a json.Number.
func (e *encoder) numberLit(lit string) error {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return errSlow
	}
	if math.Abs(f) < maxExact {
		return e.float(f)
	}
	n, err := normaliseNumber(lit)
	if err != nil {
		return errSlow
	}
	return e.canonical(n)
}

// marshaled writes a Go value as json.Marshal encodes it and normalise then
// reads the decoded document: nil slices and maps are null, numbers are
// read back from the literal Marshal writes, an invalid UTF-8 byte in a
// string is U+FFFD, fields sorted by name.
func (e *encoder) marshaled(rv reflect.Value) error {
	if !rv.IsValid() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	t := rv.Type()
	if marshalsItself(t) {
		return errSlow
	}
	switch rv.Kind() {
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		// Marshal's digits, read back: normaliseInt's reading.
		e.int(rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := rv.Uint(); u <= math.MaxInt64 {
			e.int(int64(u))
			return nil
		}
		var tmp [24]byte
		return e.numberLit(string(strconv.AppendUint(tmp[:0], rv.Uint(), 10)))
	case reflect.Float32, reflect.Float64:
		f := rv.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return errSlow
		}
		if rv.Kind() == reflect.Float64 && math.Abs(f) < maxExact {
			// Marshal's shortest digits read back as f itself.
			return e.float(f)
		}
		bits := 64
		if rv.Kind() == reflect.Float32 {
			bits = 32
		}
		var tmp [32]byte
		return e.numberLit(string(appendFloat(tmp[:0], f, bits)))
	case reflect.String:
		if t == numberType {
			lit := rv.String()
			if lit == "" {
				lit = "0" // as json.Marshal writes an empty Number
			}
			if !isJSONNumber(lit) {
				return errSlow
			}
			return e.numberLit(lit)
		}
		e.buf = appendString(e.buf, validUTF8(rv.String()))
	case reflect.Interface, reflect.Pointer:
		if rv.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.marshaled(rv.Elem())
	case reflect.Map:
		if t.Key().Kind() != reflect.String || t.Key() != reflect.TypeFor[string]() {
			return errSlow
		}
		if rv.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		type member struct {
			k string
			v reflect.Value
		}
		members := make([]member, 0, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			k := it.Key().String()
			if !utf8.ValidString(k) {
				return errSlow
			}
			members = append(members, member{k, it.Value()})
		}
		slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.k, b.k) })
		e.buf = append(e.buf, '{')
		for i, m := range members {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = appendString(e.buf, m.k)
			e.buf = append(e.buf, ':')
			if err := e.marshaled(m.v); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
	case reflect.Slice:
		if rv.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		fallthrough
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return errSlow // []byte is base64; leave both to encoding/json
		}
		e.buf = append(e.buf, '[')
		for i := range rv.Len() {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if err := e.marshaled(rv.Index(i)); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, ']')
	case reflect.Struct:
		fields, ok := structFields(t)
		if !ok {
			return errSlow
		}
		e.buf = append(e.buf, '{')
		first := true
		for _, f := range fields {
			fv := rv.Field(f.index)
			if f.omitEmpty && isEmptyValue(fv) {
				continue
			}
			if !first {
				e.buf = append(e.buf, ',')
			}
			first = false
			e.buf = appendString(e.buf, f.name)
			e.buf = append(e.buf, ':')
			if err := e.marshaled(fv); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
	default:
		return errSlow // channels, functions, complex numbers: Marshal's errors
	}
	return nil
}

// marshalsItself reports whether json.Marshal may call a method of t (or
// *t) to encode it, which the encoder leaves to encoding/json.
func marshalsItself(t reflect.Type) bool {
	// A predeclared or unnamed type other than a pointer, a struct (whose
	// embedded fields can promote methods) or an interface has no methods,
	// nor has a pointer to it: the common case (float64, string, []T,
	// map[string]T) needs no look-up.
	if t.PkgPath() == "" {
		switch t.Kind() {
		case reflect.Pointer, reflect.Struct, reflect.Interface:
		default:
			return false
		}
	}
	if v, ok := selfMarshalers.Load(t); ok {
		return v.(bool)
	}
	pt := reflect.PointerTo(t)
	m := t.Implements(marshalerType) || t.Implements(textMarshalerType) || pt.Implements(marshalerType) || pt.Implements(textMarshalerType)
	selfMarshalers.Store(t, m)
	return m
}

var selfMarshalers sync.Map // reflect.Type → bool

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	numberType        = reflect.TypeFor[json.Number]()
)

// field is a struct field as json.Marshal writes it.
type field struct {
	name      string
	index     int
	omitEmpty bool
}

// fieldCache holds, by struct type, its fields sorted by name, or nil for
// a struct the encoder leaves to encoding/json.
var fieldCache sync.Map // reflect.Type → []field

// structFields lists the fields json.Marshal writes, sorted by name: the
// order canonical JSON gives the decoded object. Embedded fields, the
// ",string" and ",omitzero" options and clashing names are left to
// encoding/json.
func structFields(t reflect.Type) ([]field, bool) {
	if c, ok := fieldCache.Load(t); ok {
		fs := c.([]field)
		return fs, fs != nil
	}
	fs := []field{}
	seen := map[string]bool{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			fs = nil
			break
		}
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !isValidTag(name) {
			name = ""
		}
		if name == "" {
			name = sf.Name
		}
		f := field{name: name, index: i}
		for opts != "" {
			var o string
			o, opts, _ = strings.Cut(opts, ",")
			switch o {
			case "omitempty":
				f.omitEmpty = true
			case "string", "omitzero":
				fs = nil
			}
		}
		if fs == nil || seen[name] || !utf8.ValidString(name) {
			fs = nil
			break
		}
		seen[name] = true
		fs = append(fs, f)
	}
	if fs != nil {
		slices.SortFunc(fs, func(a, b field) int { return strings.Compare(a.name, b.name) })
	}
	fieldCache.Store(t, fs)
	return fs, fs != nil
}

// isValidTag is encoding/json's rule for a usable field name in a tag.
func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
			// Backslash and quote chars are reserved, but otherwise any
			// punctuation chars are allowed in a tag name.
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// isEmptyValue is json.Marshal's test for omitempty.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// validUTF8 replaces each byte of s that is not UTF-8 with U+FFFD, as a
// string json.Marshal wrote reads back.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// appendFloat writes a float64 as encoding/json does: the shortest form
// that round-trips, in exponent form below 1e-6 and from 1e21.
func appendFloat(b []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, as encoding/json writes it with
// HTML escaping off (what canonical JSON uses).
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// appendString writes a JSON string as encoding/json does without HTML
// escaping: quote, backslash and control characters escaped, an invalid
// UTF-8 byte as \ufffd, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
