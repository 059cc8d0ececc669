// Package objects gives imported tools a consistent world per session: an object a list or search endpoint answered with is what a detail endpoint answers for its ID, along the dependency graph's edges.
package objects

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/faker/shape"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
)

// stateKind prefixes the session-state kinds the objects are kept under.
const stateKind = "objects\x00"

// link is one dependency edge as the linker follows it: parameter Param
// of To takes the value at Leaf of the objects found at Parent in From's
// answers.
type link struct {
	from, to *toolset.API
	param    string
	parent   string // path of the objects ("data[]", "[]"); "" for the answer itself
	leaves   []string
	anywhere bool // the edge names no path: objects are found at any depth
}

// Linker remembers, per session, the objects the source APIs of the
// dependency graph answered with, and makes a detail API's answer for
// one of their IDs agree with the object. It is safe for concurrent use:
// its own data is read-only, and session data lives in the call's State.
type Linker struct {
	out map[*toolset.API][]link // by source API
	in  map[*toolset.API][]link // by dependent API
}

// New builds a linker from the dependency graph's edges (annotated and
// inferred alike).
func New(g *deps.Graph) *Linker {
	l := &Linker{out: map[*toolset.API][]link{}, in: map[*toolset.API][]link{}}
	if g == nil {
		return l
	}
	for _, e := range g.Edges() {
		from, to := g.API(e.From), g.API(e.To)
		if from == nil || to == nil || from == to {
			continue
		}
		lk := link{from: from, to: to, param: e.Param}
		switch path := strings.TrimSpace(e.Path); {
		case path == "":
			// Inference found the source but not the field: the
			// parameter's name, else the object's "id".
			lk.anywhere = true
			lk.leaves = []string{e.Param, "id"}
		default:
			if i := strings.LastIndexByte(path, '.'); i >= 0 {
				lk.parent, lk.leaves = path[:i], []string{path[i+1:]}
			} else {
				lk.leaves = []string{strings.TrimSuffix(path, "[]")}
			}
		}
		l.out[from] = append(l.out[from], lk)
		l.in[to] = append(l.in[to], lk)
	}
	return l
}

// Wrap returns a stand-in that answers with next and keeps the session's
// world consistent: a call of a detail API (a GET taking an ID an earlier
// answer of its source held) answers with that object, its fields laid
// over next's answer where next's answer has the object's shape; every
// answer's objects are remembered for the APIs that depend on it. It is
// Remember(Agreeing(next)).
func (l *Linker) Wrap(next standin.Handler) standin.Handler {
	return l.Remember(l.Agreeing(next))
}

// Agreeing returns a stand-in whose answers (next's) Agree with the
// session's objects; it remembers nothing.
func (l *Linker) Agreeing(next standin.Handler) standin.Handler {
	return func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		v, err := next(ctx, w, c)
		if err != nil {
			return v, err
		}
		return l.Agree(c, v), nil
	}
}

// Agree returns v, next's answer to c, made to agree with the objects
// c's session has seen: a detail API's answer for the ID of a listed
// object is that object (see Wrap). Answers of other APIs come back as
// they are.
func (l *Linker) Agree(c *standin.Call, v any) any {
	if c.API == nil || c.State == nil || len(l.in[c.API]) == 0 {
		return v
	}
	doc, ok := decoded(v)
	if !ok {
		return v
	}
	return l.agree(c, doc)
}

// Remember returns a stand-in that answers with next unchanged and
// remembers the answer's objects for the APIs that depend on it. A
// recorded answer goes through Remember alone: it is what the API
// answered, and replay mode answers it as it is too (the simulator makes
// its answers Agree before it records them).
func (l *Linker) Remember(next standin.Handler) standin.Handler {
	return func(ctx context.Context, w *world.World, c *standin.Call) (any, error) {
		v, err := next(ctx, w, c)
		if err != nil || c.API == nil || c.State == nil || len(l.out[c.API]) == 0 {
			return v, err
		}
		doc, ok := decoded(v)
		if !ok {
			return v, nil
		}
		l.remember(c.State, c.API, doc)
		return doc, nil
	}
}

// decoded turns a stand-in's value into plain decoded JSON, which the
// linker reads and edits.
func decoded(v any) (any, bool) {
	b, err := canon.JSON(v)
	if err != nil {
		return nil, false
	}
	doc, err := canon.Decode(b)
	return doc, err == nil
}

// agree makes a detail API's answer agree with the object its ID names.
func (l *Linker) agree(c *standin.Call, doc any) any {
	if m := strings.ToUpper(c.API.Method); m != "" && m != http.MethodGet {
		return doc // an order placed for a pet is not the pet
	}
	for _, lk := range l.in[c.API] {
		id, ok := deps.ScalarKey(c.Args[lk.param])
		if !ok {
			continue
		}
		stored, ok := c.State.Get(stateKind+lk.from.ID()+"\x00"+lk.param, id)
		if !ok {
			continue
		}
		obj := stored.(map[string]any)
		if node := sameShape(doc, obj); node != nil {
			for k, v := range obj {
				node[k] = copyJSON(v)
			}
			return doc
		}
		if !documented(c.API) && shape.IsDetail(c.API) {
			// Nothing documents what else it answers, and its name says
			// it answers the object (a "Get Pet", not a "Get Pet Photos").
			return copyJSON(obj)
		}
	}
	return doc
}

// documented reports whether the API's documentation shows its answer.
func documented(a *toolset.API) bool {
	if len(a.ExampleResponse) > 0 || len(a.TemplateResponse) > 0 {
		return true
	}
	s := a.Response()
	return s != nil && (len(s.Properties) > 0 || s.Items != nil || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0)
}

// sameShape finds, breadth first, the object in doc that describes the
// same kind of thing as obj: it shares at least two of obj's fields (all
// of them when obj has fewer).
func sameShape(doc any, obj map[string]any) map[string]any {
	need := min(2, len(obj))
	if need == 0 {
		return nil
	}
	queue := []any{doc}
	for seen := 0; len(queue) > 0 && seen < 10000; seen++ {
		v := queue[0]
		queue = queue[1:]
		switch x := v.(type) {
		case map[string]any:
			shared := 0
			for k := range obj {
				if _, ok := x[k]; ok {
					shared++
				}
			}
			if shared >= need {
				return x
			}
			for _, k := range sortedKeys(x) {
				queue = append(queue, x[k])
			}
		case []any:
			if len(x) > 0 {
				queue = append(queue, x[0]) // one element shows the shape
			}
		}
	}
	return nil
}

// remember keeps the objects of an answer of api for its dependents. The
// first object seen for an ID wins: a detail answer never rewrites what
// the list showed.
func (l *Linker) remember(st *standin.State, api *toolset.API, doc any) {
	for _, lk := range l.out[api] {
		kind := stateKind + api.ID() + "\x00" + lk.param
		for _, obj := range objectsOf(doc, lk) {
			for _, leaf := range lk.leaves {
				id, ok := deps.ScalarKey(obj[leaf])
				if !ok {
					continue
				}
				st.Update(kind, id, func(old any, ok bool) any {
					if ok {
						return old
					}
					return copyJSON(obj)
				})
				break
			}
		}
	}
}

// objectsOf lists the objects an edge's path reaches in doc.
func objectsOf(doc any, lk link) []map[string]any {
	var out []map[string]any
	if lk.anywhere {
		walkObjects(doc, 0, func(m map[string]any) { out = append(out, m) })
		return out
	}
	parents := []any{doc}
	if lk.parent != "" {
		parents = deps.Values(doc, lk.parent)
	}
	for _, p := range parents {
		if m, ok := p.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func walkObjects(v any, depth int, f func(map[string]any)) {
	if depth > 8 {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		f(x)
		for _, k := range sortedKeys(x) {
			walkObjects(x[k], depth+1, f)
		}
	case []any:
		for _, e := range x {
			walkObjects(e, depth+1, f)
		}
	}
}

func copyJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copyJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyJSON(e)
		}
		return out
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
