package expect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// The accepted shapes, as the errors of Decode name them.
const (
	expectationShape = `{"calls": [call, ...], "order": "sequence" or "set", "no_violations": true or false, "max_calls": a whole number}`
	callShape        = `{"api": "tool.api", "arguments": {"name": acceptable, ...}}`
	acceptableShapes = `a plain value (one acceptable value) or {"values": [value, ...], "optional": true or false}`
)

// Decode reads one expectation, as JSON, from r. Numbers keep their digits
// (an ID above 2^53 is matched exactly) and unknown fields are refused,
// so that a misspelt "no_violation" fails loudly instead of asserting
// nothing. An argument's acceptable values are {"values": [...]} or one
// plain value. Every error is an *Error naming the field and the shapes
// it accepts, except those of r itself (an *http.MaxBytesError of a body
// over its limit), returned as they are.
func Decode(r io.Reader) (*Expectation, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var e Expectation
	if err := e.UnmarshalJSON(data); err != nil {
		return nil, err
	}
	return &e, nil
}

// UnmarshalJSON decodes an expectation as Decode does.
func (e *Expectation) UnmarshalJSON(data []byte) error {
	v, err := decodeValue(data)
	if err != nil {
		return err
	}
	out, err := parseExpectation(v)
	if err != nil {
		return err
	}
	*e = out
	return nil
}

// UnmarshalJSON decodes {"values": [...], "optional": bool} or one plain
// value.
func (a *Acceptable) UnmarshalJSON(data []byte) error {
	v, err := decodeValue(data)
	if err != nil {
		return err
	}
	out, perr := parseAcceptable("", v)
	if perr != nil {
		return perr
	}
	*a = out
	return nil
}

// decodeValue decodes one JSON value, numbers as json.Number, and refuses
// data after it.
func decodeValue(data []byte) (any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{Err: fmt.Errorf("%w: want %s", errEmpty, expectationShape)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, &Error{Err: errors.New("not JSON: unexpected EOF (the JSON value is cut short)")}
		}
		return nil, &Error{Err: fmt.Errorf("not JSON: %s", strings.TrimPrefix(err.Error(), "json: "))}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &Error{Err: errors.New("unexpected data after the JSON value")}
	}
	return v, nil
}

// describe names a decoded JSON value's type for an error.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + clip(x.String())
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func unknownField(field, name string, known ...string) *Error {
	return fieldErr(join(field, name), "unknown field; the fields are %s", strings.Join(known, ", "))
}

func join(field, name string) string {
	if field == "" {
		return clip(name)
	}
	return field + "." + clip(name)
}

func parseExpectation(v any) (Expectation, error) {
	var e Expectation
	obj, ok := v.(map[string]any)
	if !ok {
		return e, &Error{Err: fmt.Errorf("%s is not an expectation: want %s", describe(v), expectationShape)}
	}
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		val := obj[name]
		switch name {
		case "calls":
			if val == nil {
				continue
			}
			list, ok := val.([]any)
			if !ok {
				return e, fieldErr("calls", "%s: want a list of calls, each %s", describe(val), callShape)
			}
			if len(list) > MaxCalls {
				return e, fieldErr("calls", "%d calls: at most %d", len(list), MaxCalls)
			}
			e.Calls = make([]Call, len(list))
			for i, c := range list {
				call, err := parseCall(fmt.Sprintf("calls[%d]", i), c)
				if err != nil {
					return e, err
				}
				e.Calls[i] = call
			}
		case "order":
			s, ok := val.(string)
			if !ok {
				return e, fieldErr("order", "%s: want %q or %q", describe(val), Sequence, Set)
			}
			e.Order = Order(s)
		case "no_violations":
			b, ok := val.(bool)
			if !ok {
				return e, fieldErr("no_violations", "%s: want true or false", describe(val))
			}
			e.NoViolations = b
		case "max_calls":
			n, ok := val.(json.Number)
			if !ok || strings.ContainsAny(string(n), ".eE") {
				return e, fieldErr("max_calls", "%s: want a whole number, 0 or more", describe(val))
			}
			i, err := n.Int64()
			switch {
			case err != nil && strings.HasPrefix(string(n), "-"):
				i = -1
			case err != nil || i > 1<<31:
				i = 1 << 31 // a bound above any trace
			}
			e.MaxCalls = At(int(i))
		default:
			return e, unknownField("", name, "calls", "order", "no_violations", "max_calls")
		}
	}
	return e, nil
}

func parseCall(field string, v any) (Call, error) {
	var c Call
	obj, ok := v.(map[string]any)
	if !ok {
		return c, fieldErr(field, "%s: want %s", describe(v), callShape)
	}
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		val := obj[name]
		switch name {
		case "api":
			s, ok := val.(string)
			if !ok {
				return c, fieldErr(field+".api", "%s: want a string \"tool.api\"", describe(val))
			}
			c.API = s
		case "arguments":
			if val == nil {
				continue
			}
			args, ok := val.(map[string]any)
			if !ok {
				return c, fieldErr(field+".arguments", "%s: want an object {\"name\": acceptable, ...}, each acceptable %s", describe(val), acceptableShapes)
			}
			c.Arguments = make(map[string]Acceptable, len(args))
			for _, arg := range slices.Sorted(maps.Keys(args)) {
				acc, err := parseAcceptable(join(field+".arguments", arg), args[arg])
				if err != nil {
					return c, err
				}
				c.Arguments[arg] = acc
			}
		default:
			return c, unknownField(field, name, "api", "arguments")
		}
	}
	if c.API == "" {
		return c, fieldErr(field+".api", "missing: want %s", callShape)
	}
	return c, nil
}

// parseAcceptable reads {"values": [...], "optional": bool} — an object
// with a "values" or an "optional" key — or any other value as the one
// acceptable value.
func parseAcceptable(field string, v any) (Acceptable, *Error) {
	obj, ok := v.(map[string]any)
	_, hasValues := obj["values"]
	_, hasOptional := obj["optional"]
	if !ok || (!hasValues && !hasOptional) {
		if v == nil {
			return Acceptable{}, fieldErr(field, "null: want %s", acceptableShapes)
		}
		return Acceptable{Values: []any{v}}, nil
	}
	var a Acceptable
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		val := obj[name]
		switch name {
		case "values":
			list, ok := val.([]any)
			if !ok {
				return a, fieldErr(join(field, "values"), "%s: want a list of acceptable values, e.g. {\"values\": [%s]}", describe(val), clip(compact(val)))
			}
			a.Values = list
		case "optional":
			b, ok := val.(bool)
			if !ok {
				return a, fieldErr(join(field, "optional"), "%s: want true or false", describe(val))
			}
			a.Optional = b
		default:
			return a, fieldErr(join(field, name), "unknown field beside \"values\": want %s", acceptableShapes)
		}
	}
	return a, nil
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "…"
	}
	return string(b)
}
