// Package canon writes canonical JSON: sorted keys, normalised numbers, no HTML escaping, so equal values give equal bytes.
package canon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
)

// JSON returns the canonical encoding of v. Object keys are sorted, numbers
// that are whole print without a fraction or exponent up to 1e21 (5 and 5.0
// are both "5"), other numbers use the shortest form that round-trips, and
// <, >, & are not escaped. Values decoded with UseNumber are handled too.
func JSON(v any) ([]byte, error) {
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

// normalise turns v into plain JSON values (map[string]any, []any, string,
// float64, bool, nil) with numbers in canonical form.
func normalise(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool:
		return x, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return nil, fmt.Errorf("canon: bad number %q: %w", x, err)
		}
		return f, nil
	case float64:
		return x, nil
	case float32:
		return float64(x), nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
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
		var d any
		dec := json.NewDecoder(bytes.NewReader(x))
		dec.UseNumber()
		if err := dec.Decode(&d); err != nil {
			return nil, fmt.Errorf("canon: %w", err)
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
