package textmatch

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ToolData is what a tool message holds: its field names and leaf values.
type ToolData struct {
	Keys   []string
	Values []string
	// Paths maps each value to the fields that hold it, as their keys
	// from the root joined by ".", an array's items marked "[]" and
	// their positions left out ("data.hotels[].property.name"); a
	// message that is not JSON is at "".
	Paths map[string][]string
}

// maxToolValues bounds the values read from one tool message.
const maxToolValues = 400

// ReadToolData reads the field names and leaf values of a tool message;
// a message that is not JSON is one value.
func ReadToolData(tool string) ToolData {
	d := ToolData{Paths: map[string][]string{}}
	var v any
	if err := json.Unmarshal([]byte(tool), &v); err != nil {
		if s := strings.TrimSpace(tool); s != "" {
			d.Values = []string{s}
			d.Paths[s] = []string{""}
		}
		return d
	}
	seen := map[string]bool{}
	value := func(s, path string) {
		if !seen["v:"+s] {
			if len(d.Values) >= maxToolValues {
				return
			}
			seen["v:"+s] = true
			d.Values = append(d.Values, s)
		}
		if !slices.Contains(d.Paths[s], path) {
			d.Paths[s] = append(d.Paths[s], path)
		}
	}
	var walk func(x any, path string)
	walk = func(x any, path string) {
		if len(d.Values) >= maxToolValues {
			return
		}
		switch t := x.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(t)) {
				if !seen["k:"+k] {
					seen["k:"+k] = true
					d.Keys = append(d.Keys, k)
				}
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(t[k], p)
			}
		case []any:
			for _, e := range t {
				walk(e, path+"[]")
			}
		case string:
			if s := strings.TrimSpace(t); len(s) >= 2 {
				value(s, path)
			}
		case float64:
			value(strconv.FormatFloat(t, 'f', -1, 64), path)
		}
	}
	walk(v, "")
	return d
}

// StatesToolValue tells whether a reply states some value of the tool
// result the user did not give.
func StatesToolValue(reply, user string, d ToolData) bool {
	m := NewMatcher(reply)
	for _, v := range d.Values {
		if ContainsExact(user, v) || len(Words(v)) == 0 {
			continue
		}
		if m.Fact(v) == FactStated {
			return true
		}
	}
	return false
}
