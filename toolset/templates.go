package toolset

import (
	"bytes"
	"encoding/json"
	"strings"
)

// MaxTemplateBytes bounds one template_response kept on an API: real ones
// are a few hundred bytes, the largest a few KiB.
const MaxTemplateBytes = 256 << 10

// templateResponse keeps a template_response that says something: an
// object or array with content, a string holding one (JSON, or the repr
// of a Python dict as ToolBench writes some), or a bare type name ("str");
// null, "", {}, [] and oversized ones are dropped.
func templateResponse(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || len(raw) > MaxTemplateBytes {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil
		}
		if s[0] == '{' || s[0] == '[' {
			if json.Valid([]byte(s)) {
				raw = json.RawMessage(s)
			} else if j, err := PyLiteralJSON(s); err == nil {
				raw = j // a str()-ed dict: {'symbol': 'str'}
			}
		}
	}
	switch string(bytes.Join(bytes.Fields(raw), nil)) {
	case "null", "{}", "[]":
		return nil
	}
	if !json.Valid(raw) {
		return nil
	}
	return append(json.RawMessage(nil), raw...)
}
