package starlarkbox

import "fmt"

// scanJSON measures a JSON text before Starlark's json.decode builds it:
// decode recurses once per nesting level in Go, where a deep enough input
// ('[' * 1500000) overflows the stack and ends the whole process, which no
// recover can catch. It refuses input nested more than maxNesting levels
// and returns the size the decoded value will take: elemSize per value and
// the bytes of its strings. Malformed input is left to decode to report.
func scanJSON(s string) (int64, error) {
	depth := 0
	values := int64(1)
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			if depth > maxNesting {
				return 0, &LimitError{Msg: fmt.Sprintf("nesting limit: json.decode: the input is nested more than %d levels deep (at byte %d)", maxNesting, i)}
			}
		case ']', '}':
			depth--
		case ',', ':':
			values++
		}
	}
	return int64(len(s)) + values*elemSize, nil
}
