// Package canon writes canonical JSON: sorted keys, normalised numbers, no HTML escaping, so equal values give equal bytes.
package canon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
)

// JSON returns the canonical encoding of v. Object keys are sorted, numbers
// that are whole print without a fraction or exponent up to 1e21 (5 and 5.0
// are both "5"), other numbers use the shortest form that round-trips, and
// <, >, & are not escaped. Values decoded with UseNumber are handled too.
//
// Integers of 2^53 and more (IDs, Unix nanoseconds) keep all their digits,
// however they were spelt (9007199254740993, 9007199254740993.0 and
// 9.007199254740993e15 are all "9007199254740993"), so two different
// integers never encode the same: float64 would round them together. From
// 1e21 on, integers float64 holds exactly print in its exponent form.
//
// The value is written in one pass (see encoder); what that pass does not
// handle (a type with its own MarshalJSON, embedded struct fields, []byte)
// and every error take the path of encoding/json: marshal, decode,
// normalise, encode, which gives the same bytes.
func JSON(v any) ([]byte, error) {
	e := encoders.Get().(*encoder)
	defer e.release()
	if err := e.value(v); err == nil {
		return bytes.Clone(e.buf), nil
	}
	return slowJSON(v)
}

// slowJSON is JSON through encoding/json: normalise a copy of v, then
// encode it.
func slowJSON(v any) ([]byte, error) {
	n, err := normalise(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// MustJSON is JSON for values known to encode (maps of decoded JSON).
func MustJSON(v any) []byte {
	b, err := JSON(v)
	if err != nil {
		panic(err)
	}
	return b
}

// maxExact is 2^53: every integer below it in magnitude is a float64.
// maxLiteral bounds the literals read exactly: float64's largest integer
// has 309 digits.
const (
	maxExact   = 1 << 53
	maxLiteral = 400
)

// normaliseInt is float64(x) when that is small enough to print exactly,
// else x's digits.
func normaliseInt(x int64) any {
	if x > -maxExact && x < maxExact {
		return float64(x)
	}
	return json.Number(strconv.FormatInt(x, 10))
}

// normaliseNumber is the canonical value of a number literal: a float64,
// or the digits of an integer float64 cannot print exactly.
func normaliseNumber(lit string) (any, error) {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return nil, fmt.Errorf("canon: bad number %q: %w", lit, err)
	}
	if math.Abs(f) >= maxExact {
		if n, ok := bigInteger(lit, f); ok {
			return n, nil
		}
	}
	return normaliseFloat(f), nil
}

// normaliseFloat prints a whole float64 from 2^53 up to 1e21 by its exact
// digits: encoding/json would print the shortest digits that round-trip
// (2^60 as 1152921504606847000), which are another integer's.
func normaliseFloat(f float64) any {
	if a := math.Abs(f); a >= maxExact && a < 1e21 && f == math.Trunc(f) {
		return json.Number(big.NewFloat(f).Text('f', 0))
	}
	return f
}

// bigInteger reads a JSON number literal whose float64 value f is at least
// 2^53 in magnitude. When the literal is an integer that would not print
// exactly through f, it returns the integer's decimal digits: below 1e21
// always (see normaliseFloat); above, unless it is the integer f holds or
// the one f's exponent form spells.
func bigInteger(lit string, f float64) (json.Number, bool) {
	// A literal longer than any float64 integer needs is left to float64,
	// so that hostile input cannot make big.Rat work on megabyte numbers.
	if len(lit) > maxLiteral || math.IsInf(f, 0) || math.IsNaN(f) || !isJSONNumber(lit) {
		return "", false
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok || !r.IsInt() {
		return "", false
	}
	if math.Abs(f) >= 1e21 {
		// f prints as its shortest exponent form (1.2e+22), which is itself
		// an integer literal: the integer f holds and the one that form
		// spells both print so, any other keeps its digits.
		shortest, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
		if r.Cmp(new(big.Rat).SetFloat64(f)) == 0 || r.Cmp(shortest) == 0 {
			return "", false
		}
	}
	return json.Number(r.Num().String()), true
}

// Number reads a JSON number literal as the value canonical JSON keeps for
// it: a float64, or, for an integer float64 cannot hold exactly (an ID or a
// Unix-nanosecond time above 2^53), a json.Number of its decimal digits.
// Decoders that UseNumber call it so that 9007199254740993 and
// 9007199254740992 stay two values while every other number is the
// float64 it always was. ok is false for anything but a finite number in
// JSON's grammar ("0x10", "NaN", "+5", "1e999").
//
// JSON(Number(lit)) is JSON(json.Number(lit)) for every literal it accepts.
func Number(lit string) (any, bool) {
	if !isJSONNumber(lit) {
		return nil, false
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, false
	}
	if math.Abs(f) >= maxExact {
		if n, ok := bigInteger(lit, f); ok {
			if r, _ := new(big.Rat).SetString(string(n)); r.Cmp(new(big.Rat).SetFloat64(f)) != 0 {
				return n, true
			}
		}
	}
	return f, true
}

// Decode reads one JSON document as json.Unmarshal reads it into an any
// (maps, slices, strings, float64, bool, nil), except that an integer
// float64 cannot hold exactly stays a json.Number of its digits (see
// Number): a response's or a request's 64-bit IDs survive decoding. It
// refuses what json.Unmarshal refuses, in its own words.
func Decode(data []byte) (any, error) {
	if !mayHoldBigInteger(data) {
		var v any // the common case: json.Unmarshal, which allocates less
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("canon: %w", err)
		}
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("canon: %w", err)
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return nil, errors.New("canon: data after the JSON value")
	}
	return Exact(v)
}

// mayHoldBigInteger reports whether a JSON document may hold a number
// float64 cannot hold exactly: one needs 16 digits in a row (2^53 has 16)
// or an exponent (9.007199254740993e15). Strings may trip it; that only
// costs the slower decoder.
func mayHoldBigInteger(data []byte) bool {
	run := 0
	for i, c := range data {
		switch {
		case c >= '0' && c <= '9':
			if run++; run >= 16 {
				return true
			}
			continue
		case (c == 'e' || c == 'E') && run > 0 && i+1 < len(data):
			return true
		}
		if c != '.' {
			run = 0
		}
	}
	return false
}

// Exact replaces, in place, every json.Number in a value decoded with
// UseNumber by Number's reading of it, as Decode does; it fails on a number
// float64 cannot hold at all (1e999), which json.Unmarshal refuses.
func Exact(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		n, ok := Number(string(x))
		if !ok {
			return nil, fmt.Errorf("canon: number %s is out of range", x)
		}
		return n, nil
	case map[string]any:
		for k, e := range x {
			n, err := Exact(e)
			if err != nil {
				return nil, err
			}
			x[k] = n
		}
	case []any:
		for i, e := range x {
			n, err := Exact(e)
			if err != nil {
				return nil, err
			}
			x[i] = n
		}
	}
	return v, nil
}

// isJSONNumber accepts exactly JSON's number grammar, so that big.Rat reads
// nothing else (no fractions "1/3", no hex, no underscores).
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	if n := digits(); n == 0 || (n > 1 && s[start] == '0') {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// normalise turns v into plain JSON values (map[string]any, []any, string,
// float64, bool, nil, and json.Number for integers float64 cannot hold) with
// numbers in canonical form.
func normalise(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool:
		return x, nil
	case json.Number:
		return normaliseNumber(string(x))
	case float64:
		return normaliseFloat(x), nil
	case float32:
		return normaliseFloat(float64(x)), nil
	case int:
		return normaliseInt(int64(x)), nil
	case int64:
		return normaliseInt(x), nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			ne, err := normalise(e)
			if err != nil {
				return nil, err
			}
			out[k] = ne
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			ne, err := normalise(e)
			if err != nil {
				return nil, err
			}
			out[i] = ne
		}
		return out, nil
	case json.RawMessage:
		d, err := decodeNumbers(x)
		if err != nil {
			return nil, err
		}
		return normalise(d)
	default:
		// Structs and typed maps/slices: round-trip through encoding/json.
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return nil, nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("canon: %w", err)
		}
		return normalise(json.RawMessage(b))
	}
}

// decodeNumbers reads the first JSON value of data with UseNumber.
func decodeNumbers(data []byte) (any, error) {
	var d any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("canon: %w", err)
	}
	return d, nil
}
