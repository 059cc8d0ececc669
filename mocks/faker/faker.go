// Package faker answers the calls of APIs without a stand-in of their own (imported tools) from their documentation: ToolBench's template_response, else a documented example, else a response schema, else a shape inferred from the API's name, description and parameters (package shape) — values by field meaning, deterministic per canonical call, never an echo of the arguments.
package faker

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unsafe"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/mocks/faker/shape"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
)

// Where an answer's shape comes from, in the order they are tried.
const (
	SourceTemplate = "template" // ToolBench's template_response: the shape kept, values made
	SourceExample  = "example"  // a documented example, its leaves varied
	SourceSchema   = "schema"   // the response schema
	SourceInferred = "inferred" // the API's name, description and parameters (package shape)
)

// DefaultMaxPlans bounds the APIs whose plan a Faker keeps: a plan is a few
// kilobytes and takes tens of microseconds to make again.
const DefaultMaxPlans = 2048

// Options configures a Faker.
type Options struct {
	// Graph is the catalog's dependency graph: an API's answers carry the
	// fields its dependents take values from (an inferred shape gets the
	// paths its edges name), and an identifier a dependent takes as a
	// number is made of digits, so that a later call accepts it.
	Graph *deps.Graph
	// MaxPlans bounds the APIs out of a catalog whose answer plan is kept
	// (parsed template, example, schema or inferred shape):
	// DefaultMaxPlans when 0; a negative value keeps none (every call
	// plans afresh, for APIs changed between calls). The plans of a
	// catalog's APIs are kept in its per-API cache, within its bound of
	// bytes (toolset.Catalog.SetCacheBytes).
	MaxPlans int
}

// Faker answers calls of APIs that have no stand-in. It is safe for
// concurrent use; build one per catalog with New.
type Faker struct {
	// paths are, by source API ID, where its dependents take values from.
	paths map[string][]string
	// numeric are, by source API ID, the fields (folded) a dependent
	// takes as a number.
	numeric map[string]map[string]bool
	plans   *lru.Cache[*toolset.API, *plan]
}

// New returns a Faker for a catalog with the given dependency graph.
func New(opts Options) *Faker {
	f := &Faker{paths: map[string][]string{}, numeric: map[string]map[string]bool{}}
	if opts.MaxPlans >= 0 {
		n := opts.MaxPlans
		if n == 0 {
			n = DefaultMaxPlans
		}
		f.plans, _ = lru.New[*toolset.API, *plan](n)
	}
	if g := opts.Graph; g != nil {
		for _, e := range g.Edges() {
			to := g.API(e.To)
			if path := strings.TrimSpace(e.Path); path != "" && !contains(f.paths[e.From], path) {
				f.paths[e.From] = append(f.paths[e.From], path)
			}
			if to == nil {
				continue
			}
			p := to.Param(e.Param)
			if p == nil || (p.Kind != toolset.KindNumber && p.Kind != toolset.KindInteger) {
				continue
			}
			m := f.numeric[e.From]
			if m == nil {
				m = map[string]bool{}
				f.numeric[e.From] = m
			}
			if leaf := pathLeaf(e.Path); leaf != "" {
				m[shape.Fold(leaf)] = true
			} else {
				m[shape.Fold(e.Param)], m["id"] = true, true
			}
		}
	}
	return f
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// pathLeaf is the field a deps path ends at: "data[].player_id" → player_id.
func pathLeaf(path string) string {
	path = strings.TrimSpace(path)
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		path = path[i+1:]
	}
	return strings.TrimSuffix(path, "[]")
}

// plain is the Faker of Fake and StandIn: no graph, nothing kept.
var plain = New(Options{MaxPlans: -1})

// Fake answers c with a Faker without a dependency graph that plans every
// call afresh; see (*Faker).Fake.
func Fake(w *world.World, c *standin.Call) any { return plain.Fake(w, c) }

// StandIn is Fake as a stand-in.
func StandIn(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	return plain.Fake(w, c), nil
}

// StandIn is the faker as a stand-in, for APIs that have none of their own.
func (f *Faker) StandIn(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	return f.Fake(w, c), nil
}

// Fake answers a call of an API that has no stand-in, deterministically
// from c.Seed (the same call gets the same bytes, in any argument order)
// and the sandbox clock. The answer's shape comes from the first of: the
// API's template_response (every key and list kept, types as it says);
// its documented example (leaves varied; an error reply is no example);
// its response schema; a shape inferred from its name, description and
// parameters. Values follow field meaning (a city is a city of the world,
// a price a plausible amount in the currency beside it, dates are near
// the clock, URLs on the tool's host); an object with an identifier has
// the same fields wherever that identifier appears in the tool's answers;
// arguments show where they are the subject (a search for "Tokyo"
// answers about Tokyo, a detail answers the ID asked for). An answer
// that would only echo the arguments is made again without them. It
// never fails.
func (f *Faker) Fake(w *world.World, c *standin.Call) any {
	var p *plan
	if c.API != nil {
		p = f.plan(c.API)
	} else {
		p = &plan{source: SourceInferred, root: &node{kind: nObject}}
	}
	g := newGen(w, c, p)
	v := g.answer()
	if IsEcho(v, c.Args) {
		g = newGen(w, c, p)
		g.reflect = false
		v = g.answer()
	}
	return v
}

// Source says where the answers of api take their shape from: one of the
// Source* constants.
func (f *Faker) Source(api *toolset.API) string { return f.plan(api).source }

// plan is what the faker works out once per API: the shape of its
// answers and what their fields are.
type plan struct {
	source  string
	root    *node
	entity  string          // what the API answers about (shape.Subject)
	intent  string          // what it does when it answers no entity (shape.Intent)
	numeric map[string]bool // folded fields dependents take as numbers
	idStyle int             // how the tool's string identifiers look
}

// planKey is the slot of a Faker's plans in a catalog's per-API cache.
type planKey struct{ f *Faker }

// plan is the API's plan: kept, for an API of a catalog, in the
// catalog's per-API cache within its bound of bytes; out of a catalog,
// in the Faker's own, bounded by count. An evicted plan is made again,
// the same plan.
func (f *Faker) plan(api *toolset.API) *plan {
	if f.plans == nil {
		return f.makePlan(api)
	}
	if v, ok := api.KeepFor(planKey{f}, func() (any, int64) {
		p := f.makePlan(api)
		return p, p.bytes()
	}); ok {
		return v.(*plan)
	}
	if p, ok := f.plans.Get(api); ok {
		return p
	}
	p := f.makePlan(api)
	f.plans.Add(api, p)
	return p
}

// makePlan works out the API's plan.
func (f *Faker) makePlan(api *toolset.API) *plan {
	p := &plan{numeric: f.numeric[api.ID()], idStyle: idStyle(api), entity: shape.Subject(api), intent: shape.Intent(api)}
	budget := maxPlanNodes
	switch {
	case len(api.TemplateResponse) > 0:
		if t := decodeJSON(api.TemplateResponse); t != nil && !shape.ErrorReply(t) {
			if n := fromTemplate(t, 0, &budget); n.saysSomething() {
				p.source, p.root = SourceTemplate, n
			}
		}
	}
	if p.root == nil && len(api.ExampleResponse) > 0 {
		if _, bad := cache.LooksLikeUpstreamError(api.ExampleResponse); !bad {
			if v := decodeJSON(api.ExampleResponse); v != nil {
				budget = maxPlanNodes
				if n := fromExample(v, 0, &budget); n.saysSomething() {
					p.source, p.root = SourceExample, n
				}
			}
		}
	}
	if p.root == nil {
		if s := api.Response(); schemaSaysMore(s) {
			budget = maxPlanNodes
			if n := fromSchema(s, 0, &budget); n != nil && n.saysSomething() {
				p.source, p.root = SourceSchema, n
			}
		}
	}
	if p.root == nil {
		budget = maxPlanNodes
		p.source = SourceInferred
		p.root = fromTemplate(shape.Infer(api, shape.Options{Paths: f.paths[api.ID()]}), 0, &budget)
	} else {
		f.fillHollow(api, p.root)
	}
	annotate(p.root, "", p.entity)
	return p
}

// bytes estimates the plan's heap: its nodes, their keys and values
// (BenchmarkPlanBytes checks it against the heap).
func (p *plan) bytes() int64 {
	n := int64(unsafe.Sizeof(*p)) + int64(len(p.source)+len(p.entity)+len(p.intent))
	seen := map[*node]bool{}
	var walk func(x *node)
	walk = func(x *node) {
		if x == nil || seen[x] {
			return
		}
		seen[x] = true
		n += int64(unsafe.Sizeof(*x)) + int64(len(x.typ)+len(x.format)+len(x.ent)) + 8*int64(len(x.kids)+len(x.elems)) + 16*int64(len(x.enum))
		for _, k := range x.keys {
			n += 16 + int64(len(k))
		}
		if x.min != nil {
			n += 8
		}
		if x.max != nil {
			n += 8
		}
		if x.lit != nil {
			n += 32
		}
		for _, k := range x.kids {
			walk(k)
		}
		for _, e := range x.elems {
			walk(e)
		}
	}
	walk(p.root)
	return n
}

// idStyle picks, from the tool's name, how its string identifiers look,
// so that one tool's IDs look alike.
func idStyle(api *toolset.API) int {
	name := api.Name
	if api.Tool != nil {
		name = api.Tool.StandardizedName
	}
	return int(hashStrings(name) % 4)
}

func decodeJSON(raw json.RawMessage) any {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// fillHollow gives every object of a documented shape that documents no
// field (an item written {}, "dict", or a _list_length marker alone, beside
// fields that do say something) the fields of the entity the API's name
// and its tool's other APIs give it (shape.Infer's item), so that no
// answer holds a list of empty objects.
func (f *Faker) fillHollow(api *toolset.API, root *node) {
	var item any
	inferred := false
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		if n == nil || depth > maxDepth {
			return
		}
		switch n.kind {
		case nObject:
			if len(n.kids) > 0 {
				for _, k := range n.kids {
					walk(k, depth+1)
				}
				return
			}
			if !inferred {
				inferred = true
				item = entityItem(shape.Infer(api, shape.Options{}))
			}
			if item != nil {
				budget := maxPlanNodes
				*n = *fromTemplate(item, depth, &budget)
			}
		case nArray, nMap, nChoice:
			if n.kind == nArray && !n.fixed && len(n.elems) == 1 && untyped(n.elems[0]) {
				// A list of items of no documented type: the entities.
				n.elems[0] = object(nil)
			}
			for _, e := range n.elems {
				walk(e, depth+1)
			}
		}
	}
	walk(root, 0)
}

// untyped reports whether a leaf says nothing of its values: no type, no
// format, no values listed.
func untyped(n *node) bool {
	return n.kind == nLeaf && n.typ == "" && n.format == "" && len(n.enum) == 0 && !n.hinted
}

// entityItem is the object an inferred shape answers about: its first
// list's item when that is an object with fields, else the shape itself
// when it is one; nil when it has none.
func entityItem(t any) any {
	var first any
	var find func(v any, depth int) bool
	find = func(v any, depth int) bool {
		if depth > maxDepth {
			return false
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if find(x[k], depth+1) {
					return true
				}
			}
		case []any:
			if len(x) > 0 {
				if m, ok := x[0].(map[string]any); ok && len(m) > 0 {
					first = m
					return true
				}
				return find(x[0], depth+1)
			}
		}
		return false
	}
	if find(t, 0) {
		return first
	}
	if m, ok := t.(map[string]any); ok && len(m) > 0 {
		return m
	}
	return nil
}
