package server

import (
	"bytes"
	"encoding/json"
	"net/http"
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
