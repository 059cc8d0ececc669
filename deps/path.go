package deps

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Paths into responses are dotted, with "[]" walking every element of an
// array: "data[].id", "data.context.sessionId", "[].countryCode" (the
// response itself is an array), "result_id".

type pathStep struct {
	key   string // "" for a bare "[]" step (the value itself is an array)
	array bool   // walk each element after taking key
}

func parsePath(p string) ([]pathStep, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return nil, fmt.Errorf("empty path")
	}
	var steps []pathStep
	for _, part := range strings.Split(p, ".") {
		st := pathStep{key: part}
		for strings.HasSuffix(st.key, "[]") {
			st.key = strings.TrimSuffix(st.key, "[]")
			if st.array {
				// "a[][]": nested arrays; represent as an extra bare step.
				steps = append(steps, st)
				st = pathStep{}
			}
			st.array = true
		}
		if st.key == "" && !st.array {
			return nil, fmt.Errorf("path %q has an empty segment", p)
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// Values returns every value found at path in a decoded JSON document, in
// document order. A path that does not match gives no values.
func Values(doc any, path string) []any {
	steps, err := parsePath(path)
	if err != nil {
		return nil
	}
	return valuesAt(doc, steps)
}

// valuesAt is Values for a parsed path.
func valuesAt(doc any, steps []pathStep) []any {
	cur := []any{doc}
	for _, st := range steps {
		var next []any
		for _, v := range cur {
			if st.key != "" {
				m, ok := v.(map[string]any)
				if !ok {
					continue
				}
				v, ok = m[st.key]
				if !ok {
					continue
				}
			}
			if st.array {
				if arr, ok := v.([]any); ok {
					next = append(next, arr...)
				}
				continue
			}
			next = append(next, v)
		}
		cur = next
	}
	return cur
}

// ScalarKey is the form values are compared in, by provenance and by
// the stand-ins that link objects along the graph's edges: strings as
// they are, numbers in shortest form (5, 5.0 and a json.Number "5" agree;
// an integer above 2^53, a json.Number from canon.Decode or validation,
// by its digits), booleans as true/false. Other values have no key.
func ScalarKey(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, x != ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case json.Number:
		return string(x), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// leaves calls f with the dotted path (arrays as "[]") and value of every
// scalar leaf of doc, up to limit leaves.
func leaves(doc any, limit int, f func(path string, v any)) {
	n := 0
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if n >= limit {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, e)
			}
		case []any:
			for _, e := range x {
				walk(prefix+"[]", e)
			}
		default:
			n++
			f(prefix, x)
		}
	}
	walk("", doc)
}
