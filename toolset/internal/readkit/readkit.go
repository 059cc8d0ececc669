// Package readkit holds the low-level helpers the catalog's readers and writers share: strict JSON decoding whose errors name the offending field's path, and the small text rules of tool files.
package readkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// PathTemplate matches one variable of a path template ("{id}").
var PathTemplate = regexp.MustCompile(`\{([^{}/]+)\}`)

// StrictObject decodes a JSON object, with errors that say what was wrong
// and where: field is the JSON path of the offending value relative to data
// (e.g. "api_list[2].required_parameters[0]"), empty for the whole document.
func StrictObject(data []byte, v any) (field string, err error) {
	d := bytes.TrimSpace(data)
	if len(d) == 0 {
		return "", errors.New("empty document, expected a JSON object")
	}
	if d[0] != '{' {
		return "", fmt.Errorf("expected a JSON object, found %q", string(d[:min(len(d), 16)]))
	}
	if err := json.Unmarshal(d, v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := LineCol(d, se.Offset)
			return PathAt(d), fmt.Errorf("malformed JSON at line %d, column %d (byte %d): %v", line, col, se.Offset, err)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return te.Field, fmt.Errorf("expected %s, found JSON %s", jsonTypeName(te.Type.Kind().String()), te.Value)
		}
		return PathAt(d), err
	}
	return "", nil
}

func jsonTypeName(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "slice":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	case "bool":
		return "a boolean"
	case "float64", "int", "int64":
		return "a number"
	}
	return goKind
}

// JoinField appends a relative JSON path to a base path.
func JoinField(base, rel string) string {
	switch {
	case rel == "":
		return base
	case base == "":
		return rel
	case rel[0] == '[':
		return base + rel
	default:
		return base + "." + rel
	}
}

// LineCol turns a byte offset into a 1-based line and column.
func LineCol(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset < 0 {
		offset = 0
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// PathAt walks data token by token and returns the JSON path of the
// value being read when the document stops being valid JSON, so that an
// error in a 2,000-line tool file names "api_list[41].optional_parameters[3]"
// rather than only a byte offset.
func PathAt(data []byte) string {
	type frame struct {
		array     bool
		index     int
		key       string
		expectKey bool
	}
	var stack []*frame
	path := func() string {
		var b strings.Builder
		for _, f := range stack {
			switch {
			case f.array && f.index >= 0:
				fmt.Fprintf(&b, "[%d]", f.index)
			case !f.array && f.key != "":
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			}
		}
		return b.String()
	}
	startValue := func() {
		if len(stack) == 0 {
			return
		}
		top := stack[len(stack)-1]
		if top.array {
			top.index++
		} else {
			top.expectKey = true
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return path()
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				startValue()
				stack = append(stack, &frame{expectKey: true})
			case '[':
				startValue()
				stack = append(stack, &frame{array: true, index: -1})
			default:
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
				if len(stack) == 0 {
					return ""
				}
			}
		default:
			if len(stack) > 0 {
				if top := stack[len(stack)-1]; !top.array && top.expectKey {
					top.key, _ = t.(string)
					top.expectKey = false
					continue
				}
			}
			startValue()
		}
	}
}

// FirstNonEmpty is the first of ss that is not blank, else "".
func FirstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// FileStem is ToolBench's name of a tool file: its name up to the first '.'.
func FileStem(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	stem, _, _ := strings.Cut(base, ".")
	return stem
}

// Cut shortens s to at most n bytes without splitting a UTF-8 sequence.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
