package server

import "strings"

// segmentMatcher matches one path segment of a template. A whole-segment
// parameter ("{id}") has one name and no literals; a segment with text
// around or between parameters ("{section}.{format}", "v{major}") has
// literals[0] name[0] literals[1] … name[n-1] literals[n]. Each parameter
// takes at least one byte and as few as let the rest match, so
// "a.b.json" against "{section}.{format}" is section "a", format "b.json"
// — the first split, as in Prism and kin-openapi's router.
type segmentMatcher struct {
	literals []string
	names    []string
}

// parseSegment reads a template segment. "{name}" as the whole segment is
// one parameter (any name, even ""). Otherwise ok is false for a literal
// segment: no "{name}" in it, or braces that do not pair up, or an empty
// name, or two parameters with nothing between them (which no request
// could tell apart).
func parseSegment(seg string) (m segmentMatcher, ok bool) {
	if len(seg) >= 2 && seg[0] == '{' && seg[len(seg)-1] == '}' && !strings.ContainsAny(seg[1:len(seg)-1], "{}") {
		// A whole segment is one parameter.
		return segmentMatcher{literals: []string{"", ""}, names: []string{seg[1 : len(seg)-1]}}, true
	}
	rest := seg
	lit := ""
	for rest != "" {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			lit += rest
			break
		}
		if rest[open] == '}' {
			return segmentMatcher{}, false
		}
		end := strings.IndexAny(rest[open+1:], "{}")
		if end < 0 || rest[open+1+end] != '}' || end == 0 {
			return segmentMatcher{}, false
		}
		lit += rest[:open]
		if len(m.names) > 0 && lit == "" {
			return segmentMatcher{}, false
		}
		m.literals = append(m.literals, lit)
		m.names = append(m.names, rest[open+1:open+1+end])
		lit = ""
		rest = rest[open+1+end+1:]
	}
	if len(m.names) == 0 {
		return segmentMatcher{}, false
	}
	m.literals = append(m.literals, lit)
	return m, true
}

// match binds the segment's parameters into params, or reports false
// leaving params as it found them.
func (m segmentMatcher) match(seg string, params map[string]string) bool {
	vals, ok := m.split(seg)
	if !ok {
		return false
	}
	for i, n := range m.names {
		params[n] = vals[i]
	}
	return true
}

// split cuts a segment into the parameters' values.
func (m segmentMatcher) split(seg string) ([]string, bool) {
	if !strings.HasPrefix(seg, m.literals[0]) {
		return nil, false
	}
	rest := seg[len(m.literals[0]):]
	vals := make([]string, len(m.names))
	for i := range m.names {
		next := m.literals[i+1]
		if i == len(m.names)-1 {
			if !strings.HasSuffix(rest, next) || len(rest)-len(next) < 1 {
				return nil, false
			}
			vals[i] = rest[:len(rest)-len(next)]
			return vals, true
		}
		// At least one byte for this parameter, then the next literal
		// (never empty between two parameters).
		if rest == "" {
			return nil, false
		}
		j := strings.Index(rest[1:], next)
		if j < 0 {
			return nil, false
		}
		vals[i] = rest[:1+j]
		rest = rest[1+j+len(next):]
	}
	return vals, true
}
