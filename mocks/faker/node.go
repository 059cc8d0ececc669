package faker

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/understudy/understudy/mocks/faker/shape"
)

// Limits that keep the faker bounded on any documentation, however odd.
const (
	maxDepth     = 8    // nesting below which objects and lists come out empty
	maxItems     = 10   // a list's length, whatever a limit argument asks
	maxExtraKeys = 3    // entries made for additionalProperties
	maxLength    = 256  // minLength honoured up to this
	maxPlanNodes = 4000 // nodes of one plan
	// maxNodes bounds the values one answer holds: depth alone does not,
	// since lists of lists branch exponentially.
	maxNodes = 2000
)

type nodeKind uint8

const (
	nObject  nodeKind = iota
	nArray            // elems[0] repeated, or elems as they are when fixed
	nMap              // additionalProperties: a few entries of elems[0]
	nChoice           // one of elems (oneOf, anyOf)
	nLeaf             // a value of typ, by the field's meaning
	nLiteral          // a documented value, varied
	nNull
)

// node is one place of an answer's shape, built once per API.
type node struct {
	kind  nodeKind
	keys  []string // nObject: sorted
	kids  []*node  // nObject: by keys
	idKey int      // nObject: index in keys of the identifier, or -1
	elems []*node  // nArray, nMap, nChoice
	fixed bool     // nArray: elems as documented, not a repeated element
	lo    int      // nArray: fewest elements
	hi    int      // nArray: most elements (0: no bound)

	typ       string // nLeaf: "string", "integer", "number", "boolean", or "" when unknown
	format    string
	enum      []any
	min, max  *float64
	minLength int
	maxLength int // 0: no bound
	lit       any // nLiteral
	// hint is what an nLeaf or nLiteral holds: what an inferred shape
	// says, else what its field's name says in its place (annotate).
	hint   shape.Kind
	hinted bool
	ent    string // nObject: the entity it is about, once annotated
	seen   bool   // annotated
}

// annotate works out, once per plan, what every object of a shape is
// about and what every field holds, from the names of the members they
// sit under (entities of the objects above, the field's own name): the
// answers made from the plan then classify nothing.
func annotate(n *node, key, entity string) {
	if n == nil || n.seen {
		return
	}
	n.seen = true
	switch n.kind {
	case nObject:
		if e := entityOfKey(key); e != "" {
			entity = e
		}
		n.ent = entity
		for i, k := range n.keys {
			annotate(n.kids[i], k, entity)
		}
	case nArray, nChoice:
		for _, e := range n.elems {
			annotate(e, key, entity)
		}
	case nLeaf:
		if !n.hinted {
			n.hint, n.hinted = shape.Classify(key, entity, n.typ), true
		}
	case nLiteral:
		typ := "string"
		switch n.lit.(type) {
		case json.Number, float64:
			typ = "number"
		}
		n.hint, n.hinted = shape.Classify(key, entity, typ), true
	}
}

// saysSomething reports whether a shape holds more than empty containers.
func (n *node) saysSomething() bool {
	if n == nil {
		return false
	}
	switch n.kind {
	case nObject:
		for _, k := range n.kids {
			if k.saysSomething() {
				return true
			}
		}
		return false
	case nArray, nMap, nChoice:
		for _, e := range n.elems {
			if e.saysSomething() {
				return true
			}
		}
		return false
	case nNull:
		return false
	}
	return true
}

// object makes an object node and finds its identifier.
func object(m map[string]*node) *node {
	n := &node{kind: nObject, idKey: -1}
	n.keys = make([]string, 0, len(m))
	for k := range m {
		n.keys = append(n.keys, k)
	}
	sort.Strings(n.keys)
	n.kids = make([]*node, len(n.keys))
	for i, k := range n.keys {
		n.kids[i] = m[k]
	}
	n.idKey = identifier(n)
	return n
}

// identifier is the field that names an object: "id", else a field whose
// name ends in id, else a UUID, symbol or slug; -1 when it has none.
func identifier(n *node) int {
	best, rank := -1, 99
	for i, k := range n.keys {
		kid := n.kids[i]
		if kid.kind != nLeaf && kid.kind != nLiteral {
			continue
		}
		if kid.kind == nLiteral {
			switch kid.lit.(type) {
			case string, json.Number:
			default:
				continue
			}
		}
		r := 99
		switch kind := shape.Classify(k, "", kid.typ); {
		case shape.Fold(k) == "id":
			r = 0
		case kind == shape.ID && !strings.Contains(shape.Fold(k), "parent"):
			r = 1
		case kind == shape.UUID:
			r = 2
		case kind == shape.Symbol || kind == shape.Slug:
			r = 3
		}
		if r < rank {
			best, rank = i, r
		}
	}
	return best
}

// ToolBench template type names, as Python's type(x).__name__ writes them.
var templateTypes = map[string]string{
	"str": "string", "string": "string", "unicode": "string",
	"int": "integer", "integer": "integer", "long": "integer",
	"float": "number", "number": "number", "double": "number", "decimal": "number",
	"bool": "boolean", "boolean": "boolean",
}

// fromTemplate reads a ToolBench type template: type names are leaves to
// fill, "NoneType" is null, other strings and scalars are documented
// values; a list of one element repeats it, a longer one is kept as is.
func fromTemplate(v any, depth int, budget *int) *node {
	*budget--
	if depth > maxDepth || *budget < 0 {
		return &node{kind: nNull}
	}
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]*node, len(x))
		length, hinted := 0, false
		for k, e := range x {
			if k == listLengthKey {
				length, hinted = listLength(e)
				continue
			}
			m[k] = fromTemplate(e, depth+1, budget)
		}
		if hinted {
			// The object stood for a list of such objects.
			return hintedList(object(m), length)
		}
		return object(m)
	case []any:
		n := &node{kind: nArray}
		switch len(x) {
		case 0:
			n.fixed = true
		case 1:
			e := fromTemplate(x[0], depth+1, budget)
			if e.kind == nArray && e.lo > 0 {
				return e // [{"id": "int", "_list_length": 3}]: the hint is the list's
			}
			n.elems = []*node{e}
		default:
			n.fixed = true
			for _, e := range x {
				n.elems = append(n.elems, fromTemplate(e, depth+1, budget))
			}
		}
		return n
	case string:
		t := strings.ToLower(strings.TrimSpace(x))
		if typ, ok := templateTypes[t]; ok {
			return &node{kind: nLeaf, typ: typ}
		}
		switch t {
		case "nonetype", "none", "null":
			return &node{kind: nNull}
		case "list":
			return &node{kind: nArray, fixed: true}
		case "dict", "object":
			return object(nil)
		}
		if l, ok := listOf(t); ok {
			return l
		}
		return &node{kind: nLiteral, lit: x}
	case shape.Leaf:
		return &node{kind: nLeaf, typ: x.Kind.JSONType(), hint: x.Kind, hinted: true}
	case nil:
		return &node{kind: nNull}
	}
	return &node{kind: nLiteral, lit: v}
}

// fromExample reads a documented example: its structure kept, its
// scalars varied.
func fromExample(v any, depth int, budget *int) *node {
	*budget--
	if depth > maxDepth || *budget < 0 {
		return &node{kind: nNull}
	}
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]*node, len(x))
		for k, e := range x {
			m[k] = fromExample(e, depth+1, budget)
		}
		return object(m)
	case []any:
		n := &node{kind: nArray, fixed: true}
		for _, e := range x {
			if *budget < 0 {
				break
			}
			n.elems = append(n.elems, fromExample(e, depth+1, budget))
		}
		return n
	case nil:
		return &node{kind: nNull}
	}
	return &node{kind: nLiteral, lit: v}
}

// schemaSaysMore reports whether a schema says more than "some object".
func schemaSaysMore(s *openapi3.Schema) bool {
	if s == nil {
		return false
	}
	if len(s.Properties) > 0 || s.Items != nil || len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) > 0 || len(s.Enum) > 0 || s.Example != nil || s.AdditionalProperties.Schema != nil {
		return true
	}
	if s.Type == nil {
		return false
	}
	for _, t := range s.Type.Slice() {
		if t != "object" && t != "null" {
			return true
		}
	}
	return false
}

// fromSchema reads a response schema; a cyclic one is cut at maxDepth.
func fromSchema(s *openapi3.Schema, depth int, budget *int) *node {
	*budget--
	if s == nil || depth > maxDepth || *budget < 0 {
		return &node{kind: nNull}
	}
	if s.Example != nil {
		if v := plainJSON(s.Example); v != nil {
			return fromExample(v, depth, budget)
		}
	}
	if len(s.Enum) > 0 {
		n := &node{kind: nLeaf}
		for _, e := range s.Enum {
			n.enum = append(n.enum, plainJSON(e))
		}
		return n
	}
	if s.Const != nil {
		return &node{kind: nLiteral, lit: plainJSON(s.Const)}
	}
	if len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) > 0 {
		return fromComposed(s, depth, budget)
	}
	switch schemaType(s) {
	case "object":
		m := make(map[string]*node, len(s.Properties))
		for k, p := range s.Properties {
			m[k] = fromSchema(schemaOf(p), depth+1, budget)
		}
		if len(m) == 0 && s.AdditionalProperties.Schema != nil {
			return &node{kind: nMap, elems: []*node{fromSchema(schemaOf(s.AdditionalProperties.Schema), depth+1, budget)}}
		}
		return object(m)
	case "array":
		n := &node{kind: nArray, lo: int(min(s.MinItems, maxItems))}
		if s.MaxItems != nil {
			n.hi = int(min(*s.MaxItems, maxItems))
			if n.hi == 0 {
				n.fixed = true
				return n
			}
		}
		if s.Items == nil {
			// Items of no documented type (the plan fills them with
			// the API's entities: see fillHollow).
			n.elems = []*node{{kind: nLeaf}}
		} else {
			n.elems = []*node{fromSchema(schemaOf(s.Items), depth+1, budget)}
		}
		return n
	case "null":
		return &node{kind: nNull}
	}
	n := &node{kind: nLeaf, typ: schemaType(s), format: strings.ToLower(s.Format), min: s.Min, max: s.Max, minLength: int(min(s.MinLength, maxLength))}
	if s.MaxLength != nil {
		n.maxLength = int(min(*s.MaxLength, 1<<20))
		if n.maxLength == 0 {
			n.maxLength = -1 // "" is the only value
		}
	}
	return n
}

// fromComposed reads allOf (objects merged) and oneOf/anyOf (one chosen
// per call).
func fromComposed(s *openapi3.Schema, depth int, budget *int) *node {
	var parts []*node
	own := *s
	own.AllOf, own.OneOf, own.AnyOf = nil, nil, nil
	if schemaSaysMore(&own) {
		parts = append(parts, fromSchema(&own, depth+1, budget))
	}
	for _, r := range s.AllOf {
		parts = append(parts, fromSchema(schemaOf(r), depth+1, budget))
	}
	for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		if len(alts) == 0 {
			continue
		}
		c := &node{kind: nChoice}
		for _, a := range alts {
			c.elems = append(c.elems, fromSchema(schemaOf(a), depth+1, budget))
		}
		parts = append(parts, c)
	}
	return merge(parts)
}

// merge combines composed parts: objects merge, later keys winning, and
// a choice between objects becomes choices merged with them; otherwise
// the last part that is not null stands.
func merge(parts []*node) *node {
	fields := map[string]*node{}
	objects := 0
	var last *node
	var choices []*node
	for _, p := range parts {
		switch p.kind {
		case nObject:
			objects++
			for i, k := range p.keys {
				fields[k] = p.kids[i]
			}
		case nChoice:
			choices = append(choices, p)
		case nNull:
		default:
			last = p
		}
	}
	if objects == 0 {
		switch {
		case last != nil:
			return last
		case len(choices) > 0:
			return choices[len(choices)-1]
		}
		return &node{kind: nNull}
	}
	base := object(fields)
	for _, c := range choices {
		alts := make([]*node, len(c.elems))
		for i, a := range c.elems {
			if a.kind != nObject {
				alts[i] = base
				continue
			}
			m := map[string]*node{}
			for j, k := range base.keys {
				m[k] = base.kids[j]
			}
			for j, k := range a.keys {
				m[k] = a.kids[j]
			}
			alts[i] = object(m)
		}
		base = &node{kind: nChoice, elems: alts}
	}
	return base
}

// schemaType is the JSON type to generate: the first non-null declared
// type, else what the schema's keywords imply.
func schemaType(s *openapi3.Schema) string {
	if s.Type != nil {
		for _, t := range s.Type.Slice() {
			if t != "null" {
				return t
			}
		}
		if len(s.Type.Slice()) > 0 {
			return "null"
		}
	}
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil:
		return "object"
	case s.Items != nil:
		return "array"
	case s.Min != nil || s.Max != nil:
		return "number"
	}
	return ""
}

func schemaOf(r *openapi3.SchemaRef) *openapi3.Schema {
	if r == nil {
		return nil
	}
	return r.Value
}

// plainJSON turns a schema literal (enum, const, example) into decoded
// JSON with exact numbers.
func plainJSON(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return decodeJSON(b)
}
