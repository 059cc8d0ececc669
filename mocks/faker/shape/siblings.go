package shape

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/toolset"
)

// siblings is what a tool's documented answers say about how it answers:
// the fields its objects have, by entity, and the envelope its answers
// share.
type siblings struct {
	byEntity map[string]map[string]any // entity noun → field → template type
	wrapper  string                    // the member answers put their content in ("data")
	extra    map[string]any            // members every answer has besides ("success": "bool")
}

// Limits on reading documentation, so that a hostile tool file costs little.
const (
	maxDocDepth   = 8
	maxDocNodes   = 2000
	maxFieldsKept = 16
)

func (r *reading) siblings() *siblings {
	if r.sibDone {
		return r.sib
	}
	r.sibDone = true
	r.sib = &siblings{byEntity: map[string]map[string]any{}}
	if r.api.Tool == nil {
		return r.sib
	}
	wrappers := map[string]int{}
	extras := map[string]int{}
	extraType := map[string]any{}
	documented := 0
	for _, s := range r.api.Tool.APIs {
		if s == r.api {
			continue
		}
		doc := Documented(s)
		if doc == nil {
			continue
		}
		documented++
		entity := read(s).entity
		budget := maxDocNodes
		r.sib.collect(doc, "", entity, 0, &budget)
		if m, ok := doc.(map[string]any); ok {
			for _, k := range sortedKeys(m) {
				switch v := m[k].(type) {
				case map[string]any, []any:
					if genericKeys[Fold(k)] {
						wrappers[k]++
					}
				case string:
					if statusMember[Fold(k)] {
						extras[k]++
						extraType[k] = v
					}
				}
			}
		}
	}
	best := 0
	for _, k := range sortedKeys(wrappers) {
		if wrappers[k] > best {
			r.sib.wrapper, best = k, wrappers[k]
		}
	}
	for k, n := range extras {
		if 2*n >= documented {
			if r.sib.extra == nil {
				r.sib.extra = map[string]any{}
			}
			r.sib.extra[k] = extraType[k]
		}
	}
	return r.sib
}

// envelopeMember are members that describe an answer, not a thing in it.
var envelopeMember = map[string]bool{"success": true, "status": true, "ok": true, "message": true, "code": true,
	"error": true, "errors": true, "statuscode": true, "total": true, "count": true, "page": true, "perpage": true,
	"pagesize": true, "results": true, "get": true, "parameters": true, "paging": true, "limit": true, "offset": true,
	"query": true, "took": true, "totalpages": true, "next": true, "previous": true, "cursor": true}

var statusMember = map[string]bool{"success": true, "status": true, "ok": true, "message": true, "code": true, "error": true, "statuscode": true}

// fieldsOf are the fields the tool documents for an entity.
func (s *siblings) fieldsOf(entity string) map[string]any {
	if m := s.byEntity[entity]; len(m) >= 2 {
		return m
	}
	return nil
}

// collect records the objects of a documented answer under the entity
// each is about: its member's name when that names something, else the
// entity of the API that answers it.
func (s *siblings) collect(v any, key, entity string, depth int, budget *int) {
	*budget--
	if depth > maxDocDepth || *budget < 0 {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		noun := entity
		if ws := Words(key); len(ws) > 0 && !genericKeys[Fold(key)] {
			noun = Singular(ws[len(ws)-1])
		}
		scalars := map[string]any{}
		envelope := false
		for _, v := range x {
			switch v.(type) {
			case map[string]any, []any:
				envelope = depth == 0 // the answer's own members are protocol
			}
		}
		for _, k := range sortedKeys(x) {
			if envelope || envelopeMember[Fold(k)] || k == "_list_length" {
				continue
			}
			switch c := x[k].(type) {
			case string:
				scalars[k] = c
			case []any:
				if len(c) > 0 {
					if e, ok := c[0].(string); ok {
						scalars[k] = []any{e}
					}
				}
			}
		}
		if len(scalars) >= 2 && noun != "" {
			m := s.byEntity[noun]
			if m == nil {
				m = map[string]any{}
				s.byEntity[noun] = m
			}
			for _, k := range sortedKeys(scalars) {
				if _, ok := m[k]; !ok && len(m) < maxFieldsKept {
					m[k] = scalars[k]
				}
			}
		}
		for _, k := range sortedKeys(x) {
			s.collect(x[k], k, noun, depth+1, budget)
		}
	case []any:
		if len(x) > 0 {
			s.collect(x[0], key, entity, depth+1, budget)
		}
	}
}

// Documented is what an API's documentation shows of its answer, as a
// type template: its template_response, else its example (an error reply
// such as {"message": "You are not subscribed to this API."} is no
// example), else its response schema; nil when none says anything.
func Documented(a *toolset.API) any {
	if t := decode(a.TemplateResponse); t != nil && !ErrorReply(t) {
		return t
	}
	if ex := a.ExampleResponse; len(ex) > 0 {
		if _, bad := cache.LooksLikeUpstreamError(ex); !bad {
			if v := decode(ex); v != nil {
				budget := maxDocNodes
				return typesOf(v, 0, &budget)
			}
		}
	}
	if s := a.Response(); s != nil {
		budget := maxDocNodes
		if t := schemaTypes(s, 0, &budget); t != nil {
			if m, ok := t.(map[string]any); !ok || len(m) > 0 {
				return t
			}
		}
	}
	return nil
}

func decode(raw json.RawMessage) any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			return nil
		}
	case []any:
		if len(x) == 0 {
			return nil
		}
	case nil:
		return nil
	}
	return v
}

// typesOf turns an example answer into its type template.
func typesOf(v any, depth int, budget *int) any {
	*budget--
	if depth > maxDocDepth || *budget < 0 {
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = typesOf(e, depth+1, budget)
		}
		return out
	case []any:
		if len(x) == 0 {
			return []any{}
		}
		return []any{typesOf(x[0], depth+1, budget)}
	case string:
		return "str"
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			return "float"
		}
		return "int"
	case float64:
		return "float"
	case bool:
		return "bool"
	}
	return "NoneType"
}

// schemaTypes turns a response schema into a type template.
func schemaTypes(s *openapi3.Schema, depth int, budget *int) any {
	*budget--
	if s == nil || depth > maxDocDepth || *budget < 0 {
		return nil
	}
	for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		if len(refs) > 0 && refs[0] != nil && len(s.Properties) == 0 {
			return schemaTypes(refs[0].Value, depth+1, budget)
		}
	}
	t := ""
	if s.Type != nil && len(s.Type.Slice()) > 0 {
		t = s.Type.Slice()[0]
	}
	switch {
	case t == "object" || t == "" && len(s.Properties) > 0:
		out := make(map[string]any, len(s.Properties))
		for k, p := range s.Properties {
			if p == nil {
				continue
			}
			if v := schemaTypes(p.Value, depth+1, budget); v != nil {
				out[k] = v
			}
		}
		return out
	case t == "array" || s.Items != nil:
		if s.Items == nil {
			return []any{}
		}
		if v := schemaTypes(s.Items.Value, depth+1, budget); v != nil {
			return []any{v}
		}
		return []any{}
	case t == "integer":
		return "int"
	case t == "number":
		return "float"
	case t == "boolean":
		return "bool"
	case t == "string":
		return "str"
	}
	return nil
}

// ensurePath makes sure template t holds a value at path (deps path
// syntax), adding what is missing; a path that contradicts t (a list
// where t has an object) is left out.
func ensurePath(t any, path string, r *reading) any {
	steps := strings.Split(strings.TrimSpace(path), ".")
	if len(steps) == 0 || len(steps) > maxDocDepth || steps[0] == "" && len(steps) == 1 {
		return t
	}
	var put func(v any, i int) (any, bool)
	put = func(v any, i int) (any, bool) {
		name, isList := strings.CutSuffix(steps[i], "[]")
		last := i == len(steps)-1
		if name == "" {
			if !isList {
				return v, false
			}
			l, ok := v.([]any)
			if !ok || len(l) == 0 {
				return v, false
			}
			if last {
				return v, true
			}
			e, ok := put(l[0], i+1)
			if ok {
				l[0] = e
			}
			return l, ok
		}
		m, ok := v.(map[string]any)
		if !ok {
			return v, false
		}
		cur, exists := m[name]
		switch {
		case last && !isList:
			if !exists {
				m[name] = Leaf{Classify(name, r.entity, "")}
			}
			return m, true
		case last && isList:
			if !exists {
				m[name] = []any{Leaf{Classify(name, r.entity, "")}}
			}
			return m, true
		case !exists && isList:
			cur = []any{map[string]any{}}
		case !exists:
			cur = map[string]any{}
		}
		if isList {
			l, ok := cur.([]any)
			if !ok {
				return m, false
			}
			if len(l) == 0 {
				l = []any{map[string]any{}}
			}
			e, ok := put(l[0], i+1)
			if !ok {
				return m, false
			}
			l[0] = e
			m[name] = l
			return m, true
		}
		nv, ok := put(cur, i+1)
		if ok {
			m[name] = nv
		}
		return m, ok
	}
	out, _ := put(t, 0)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
