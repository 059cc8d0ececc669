package toolset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/understudy/understudy/toolset/internal/readkit"
)

// MaxToolFileSize bounds one tool file; real ToolBench files stay well under 1 MiB.
const MaxToolFileSize = 8 << 20

// MaxDescriptionLen bounds one description (tool, API or parameter) in bytes.
// The longest descriptions in ToolBench's 16,464 APIs are a few KiB; a
// description past 64 KiB is a generated or corrupted file, and letting it
// through would bloat every exported tool list and search index.
const MaxDescriptionLen = 64 << 10

// CheckDescription fails a description (tool, API or parameter) longer than
// MaxDescriptionLen, naming its file and field.
func CheckDescription(desc, field, source string) error {
	if len(desc) > MaxDescriptionLen {
		return &LoadError{File: source, Field: field, Err: fmt.Errorf("description is %d bytes, more than the %d-byte limit", len(desc), MaxDescriptionLen)}
	}
	return nil
}

// ParseRefusal reads an x-invalid-value: {"status": 4xx or 5xx, "body": a
// JSON object}, the x-invalid-value of a tool file or an
// OpenAPI operation. Absent (or null) is nil; anything else is a
// *LoadError naming field.
func ParseRefusal(raw json.RawMessage, field, source string) (*Refusal, error) {
	if d := bytes.TrimSpace(raw); len(d) == 0 || bytes.Equal(d, []byte("null")) {
		return nil, nil
	}
	var r Refusal
	if sub, err := readkit.StrictObject(raw, &r); err != nil {
		return nil, &LoadError{File: source, Field: readkit.JoinField(field, sub), Err: err}
	}
	if r.Status < 400 || r.Status > 599 {
		return nil, &LoadError{File: source, Field: field + ".status", Err: fmt.Errorf("%d is not an error status (400-599)", r.Status)}
	}
	var body map[string]any
	if d := bytes.TrimSpace(r.Body); len(d) == 0 || d[0] != '{' || json.Unmarshal(d, &body) != nil {
		return nil, &LoadError{File: source, Field: field + ".body", Err: errors.New("must be a JSON object")}
	}
	r.Body = append(json.RawMessage(nil), bytes.TrimSpace(r.Body)...)
	return &r, nil
}

// responseSchemaJSON keeps a response schema when it is a JSON object, for
// API.Response to parse; ToolBench files often hold "" or free text there.
func responseSchemaJSON(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	return raw
}

// lenientSchema reads a response schema when it is a JSON object that
// parses as one, else nil.
func lenientSchema(raw json.RawMessage) *openapi3.Schema {
	if raw = responseSchemaJSON(raw); raw == nil {
		return nil
	}
	var s openapi3.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil
	}
	return &s
}

// Skipped is a tool file a load left out, and why: ToolBench trees hold
// malformed files, copies ("pokemontcg copy.json") and the odd non-tool,
// and one of them must not cost the thousands of good ones.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
	// Err is the load error (a *LoadError) behind Reason.
	Err error `json:"-"`
}
