package faker

import (
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/mocks/faker/shape"
)

// parentRef is the value of a field that names what the call asks about
// other than an object's own identifier: the players of team 12 have
// team_id 12.
func (g *gen) parentRef(key string, n *node) (any, bool) {
	if !g.reflect || g.subject == nil || shape.Fold(key) != g.subjectKey {
		return nil, false
	}
	if n.kind != nLeaf && n.kind != nLiteral {
		return nil, false
	}
	typ := n.typ
	if n.kind == nLiteral {
		typ = ""
	}
	return fit(g.subject, typ)
}

// carrySubject makes an answer name the identifier the call asks for
// when no field of it does (a parent's children, a detail whose object
// has no identifier of its own): the answer's object gets it under the
// argument's name, or each object of an answer that is a list does, as
// real APIs echo the ID of what they answer about.
func (g *gen) carrySubject(v any) any {
	if !g.reflect || g.subject == nil || g.subjectParam == "" {
		return v
	}
	want, ok := deps.ScalarKey(g.subject)
	if !ok || holdsScalar(v, want, 0) {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if _, taken := x[g.subjectParam]; !taken {
			x[g.subjectParam] = g.subject
		}
	case []any:
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				if _, taken := m[g.subjectParam]; !taken {
					m[g.subjectParam] = g.subject
				}
			}
		}
	}
	return v
}

// holdsScalar reports whether a value holds a scalar whose text is want.
func holdsScalar(v any, want string, depth int) bool {
	if depth > maxDepth+2 {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if holdsScalar(e, want, depth+1) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if holdsScalar(e, want, depth+1) {
				return true
			}
		}
	default:
		if s, ok := deps.ScalarKey(x); ok && s == want {
			return true
		}
	}
	return false
}
