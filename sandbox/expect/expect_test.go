package expect_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/sandbox/expect"
	"github.com/understudy/understudy/toolset/loader"
)

// TestDecodeShapes: an argument is {"values": [...]} or one plain value;
// a Go expectation written as JSON decodes to itself.
func TestDecodeShapes(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     expect.Acceptable
	}{
		{"values", `{"values":["a","b"]}`, expect.OneOf("a", "b")},
		{"values and optional", `{"values":[1],"optional":true}`, expect.OneOf(json.Number("1")).OrOmitted()},
		{"a string", `"Lisbon"`, expect.OneOf("Lisbon")},
		{"a number keeps its digits", `9007199254740993`, expect.OneOf(json.Number("9007199254740993"))},
		{"an array is one value", `["a","b"]`, expect.OneOf([]any{"a", "b"})},
		{"an object without values is one value", `{"lat":1}`, expect.OneOf(map[string]any{"lat": json.Number("1")})},
		{"false", `false`, expect.OneOf(false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a expect.Acceptable
			require.NoError(t, json.Unmarshal([]byte(tc.in), &a))
			require.Equal(t, tc.want, a)
		})
	}

	e := expect.Expectation{
		Calls:        []expect.Call{{API: "skyscanner80.flights_auto_complete", Arguments: map[string]expect.Acceptable{"query": expect.OneOf("Lisbon")}}},
		Order:        expect.Set,
		NoViolations: true,
		MaxCalls:     expect.At(3),
	}
	b, err := json.Marshal(e)
	require.NoError(t, err)
	require.JSONEq(t, `{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["Lisbon"]}}}],"order":"set","no_violations":true,"max_calls":3}`, string(b))
	back, err := expect.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	require.Equal(t, e, *back)
}

// FuzzDecode: any bytes give either an expectation or an *Error whose
// message has no Go internals, never a panic; an expectation either fails
// Validate with an *Error or is checked against a trace, answering a
// verdict whose diff is empty exactly when it passes.
func FuzzDecode(f *testing.F) {
	cat, err := loader.Load(nil, true)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		``, `{}`, `null`, `[]`, `{"calls":null}`, `{} {}`, `{"no_violation":true}`,
		`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["Lisbon"]}}}],"order":"sequence","no_violations":true,"max_calls":3}`,
		`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["Lisbon","London"],"optional":true}}},{"api":"skyscanner80.get_config"}],"order":"set"}`,
		`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":[]}}}]}`,
		`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":"Lisbon"}}]}`,
		`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":"Lisbon"}}}]}`,
		`{"max_calls":-1}`, `{"max_calls":1e99}`, `{"max_calls":99999999999999999999999}`, `{"order":"random"}`, `{"calls":[{"api":"nope"}]}`,
		`{"calls":[{"api":"skyscanner80.flights_search_one_way","arguments":{"adults":{"values":[1, 1.0, 9007199254740993, "1", null, [1], {"a":1}]}}}]}`,
	} {
		f.Add([]byte(s))
	}
	trace := sandbox.SessionTrace{ID: "s", Calls: []sandbox.CallRecord{
		{Seq: 1, Tool: "skyscanner80", API: "flights_auto_complete", Arguments: []byte(`{"locale":"en-US","market":"US","query":"Lisbon"}`), Status: 200},
		{Seq: 2, Tool: "skyscanner80", API: "flights_search_one_way", Arguments: []byte(`{"adults":1,"fromId":"x"}`), Status: 400,
			Violations: []sandbox.Violation{{Param: "fromId", Kind: "fabricated", Message: "never returned"}}},
		{Seq: 3, Tool: "skyscanner80", API: "flights_auto_complete", Arguments: []byte(`not json`)},
	}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		e, err := expect.Decode(bytes.NewReader(raw))
		var ee *expect.Error
		if err != nil {
			if !errors.As(err, &ee) {
				t.Fatalf("%q: want an *expect.Error, got %T %v", raw, err, err)
			}
			if strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "json: ") {
				t.Fatalf("%q: Go internals in %q", raw, err)
			}
			return
		}
		if err := e.Validate(cat); err != nil {
			if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "expectation: ") {
				t.Fatalf("%q: want an *expect.Error, got %T %v", raw, err, err)
			}
			return
		}
		for _, tr := range []sandbox.SessionTrace{trace, {ID: "empty"}} {
			v := e.Check(cat, tr)
			if v.Diff == nil || v.Pass != (len(v.Diff) == 0) {
				t.Fatalf("%q: verdict %+v", raw, v)
			}
		}
	})
}
