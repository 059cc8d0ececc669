package server

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// FuzzDecodeExpectation: any bytes give either an expectation or an
// *ExpectationError, never a panic; an expectation either fails Validate
// with an *ExpectationError or is checked against a trace, answering a
// verdict whose diff is empty exactly when it passes.
func FuzzDecodeExpectation(f *testing.F) {
	cat, err := toolset.Load(nil, true)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		``, `{}`, `null`, `[]`, `{"calls":null}`, `{} {}`, `{"no_violation":true}`,
		`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["Lisbon"]}}}],"order":"sequence","no_violations":true,"max_calls":3}`,
		`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["Lisbon","London"],"optional":true}}},{"api":"skyscanner80.get_config"}],"order":"set"}`,
		`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":[]}}}]}`,
		`{"max_calls":-1}`, `{"max_calls":1e99}`, `{"order":"random"}`, `{"calls":[{"api":"nope"}]}`,
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
		e, err := DecodeExpectation(bytes.NewReader(raw))
		var ee *ExpectationError
		if err != nil {
			if !errors.As(err, &ee) {
				t.Fatalf("%q: want an *ExpectationError, got %T %v", raw, err, err)
			}
			return
		}
		if err := e.Validate(cat); err != nil {
			if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "expectation: ") {
				t.Fatalf("%q: want an *ExpectationError, got %T %v", raw, err, err)
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
