package faker

import (
	"regexp"
	"strconv"
	"strings"
)

// listLengthKey is ToolBench's marker of how long a list of the
// template's objects was: {"id": "int", "_list_length": 20}. It is a
// length hint, never a field.
const listLengthKey = "_list_length"

// listOfType is ToolBench's template of a list of scalars: "list of int
// with length 3".
var listOfType = regexp.MustCompile(`^list of ([a-z]+) with length (\d+)$`)

// listLength reads a length hint: at least one, at most maxItems.
func listLength(v any) (int, bool) {
	var n int
	switch x := v.(type) {
	case string:
		i, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return 0, false
		}
		n = i
	case float64:
		n = int(x)
	case interface{ Int64() (int64, error) }:
		i, err := x.Int64()
		if err != nil {
			return 0, false
		}
		n = int(i)
	default:
		return 0, false
	}
	return min(max(n, 1), maxItems), true
}

// hintedList is a list of the element node, as long as the hint says.
func hintedList(elem *node, length int) *node {
	return &node{kind: nArray, elems: []*node{elem}, lo: length, hi: length}
}

// listOf reads "list of int with length 3" into a list of three leaves
// of that type; ok is false for any other string.
func listOf(s string) (*node, bool) {
	m := listOfType.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
	if m == nil {
		return nil, false
	}
	n, _ := strconv.Atoi(m[2])
	var elem *node
	switch typ, ok := templateTypes[m[1]]; {
	case ok:
		elem = &node{kind: nLeaf, typ: typ}
	case m[1] == "dict":
		elem = object(nil)
	default:
		elem = &node{kind: nLeaf, typ: "string"}
	}
	return hintedList(elem, min(max(n, 1), maxItems)), true
}
