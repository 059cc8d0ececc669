package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecodeArguments: any bytes give either arguments that re-encode as a
// JSON object or a malformed-JSON problem, never a panic.
func FuzzDecodeArguments(f *testing.F) {
	for _, s := range []string{``, `null`, `""`, `{"a":1}`, `"{\"q\": \"Lisbon\"}"`, `[1]`, `"{not json"`, `{"a":`, `"   "`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := decodeArguments(raw)
		if err != nil {
			p := problemOf(err)
			if p.Status != http.StatusBadRequest || !strings.Contains(p.Type, "malformed-json") {
				t.Fatalf("%q: want a malformed-json problem, got %+v", raw, p)
			}
			return
		}
		if args == nil {
			t.Fatalf("%q: nil arguments without an error", raw)
		}
		if _, err := json.Marshal(args); err != nil {
			t.Fatalf("%q: arguments do not re-encode: %v", raw, err)
		}
	})
}

// FuzzToolBenchBody: any /virtual body decodes or is refused as a client
// error, and its tool_input likewise.
func FuzzToolBenchBody(f *testing.F) {
	for _, s := range []string{`{}`, `{"tool_name":"x","api_name":"y","tool_input":"{}"}`, `{"tool_input":5}`, `[`, ``, `{"a":1} {"b":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req toolbenchRequest
		if err := decodeJSON(bytes.NewReader(body), &req); err != nil {
			if problemOf(err).Status >= 500 {
				t.Fatalf("%q: decode error became a %d", body, problemOf(err).Status)
			}
			return
		}
		if _, err := decodeArguments(req.ToolInput); err != nil && problemOf(err).Status != http.StatusBadRequest {
			t.Fatalf("%q: %v", body, err)
		}
	})
}

// FuzzDecodeObject: decodeObject accepts and refuses exactly what
// json.Unmarshal does, with its error word for word, and decodes the same
// values except that integers float64 cannot hold are exact json.Number.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"id":9007199254740993,"b":[1.50,{"c":-0}]}`, `{"a":1e999}`, `{"a":[1e-400]}`, `{"a":1} x`, `{"a":1} `, `[1]`, `{`, `null`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want map[string]any
		got, errGot := decodeObject(data)
		errWant := json.Unmarshal(data, &want)
		if (errGot == nil) != (errWant == nil) || (errGot != nil && errGot.Error() != errWant.Error()) {
			t.Fatalf("%q: decodeObject error %v, json.Unmarshal error %v", data, errGot, errWant)
		}
		if errGot != nil {
			return
		}
		if plain := asFloats(got); !reflect.DeepEqual(plain, asFloats(want)) {
			t.Fatalf("%q: decoded %#v, json.Unmarshal %#v", data, got, want)
		}
	})
}

// FuzzDecodeBodyObject: a body of arguments decodes as decodeJSON decodes
// it into a map, errors word for word, but for integers float64 cannot
// hold, which keep their digits.
func FuzzDecodeBodyObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"id":9007199254740993}`, `{"a":1e999}`, `{"a":{"b":[2e308]}} x`, `{"a":1} {"b":2}`, `[1]`, `{`, ``, `"s"`, `{"a":1.50} `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var want map[string]any
		got, errGot := decodeBodyObject(bytes.NewReader(body))
		errWant := decodeJSON(bytes.NewReader(body), &want)
		if (errGot == nil) != (errWant == nil) || (errGot != nil && errGot.Error() != errWant.Error()) {
			t.Fatalf("%q: decodeBodyObject error %v, decodeJSON %v", body, errGot, errWant)
		}
		if errGot == nil && !reflect.DeepEqual(asFloats(got), want) {
			t.Fatalf("%q: decoded %#v, decodeJSON %#v", body, got, want)
		}
	})
}

// asFloats turns json.Number into float64 throughout a decoded value.
func asFloats(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			panic(err)
		}
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = asFloats(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = asFloats(e)
		}
		return out
	}
	return v
}
