package faker

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/brianvoe/gofakeit/v7"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/mocks/faker/shape"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
)

// gen makes one answer. Every value is drawn from a source seeded by the
// object it belongs to and its field's name, so an answer does not depend
// on the order fields are made in, and an object with an identifier has
// the same fields wherever the tool answers it.
type gen struct {
	w        *world.World
	now      time.Time
	api      *toolset.API
	plan     *plan
	entity   string // what the API answers about
	intent   string // what it does, when it is no entity (shape.Intent)
	host     string // the tool's host, for URLs
	toolSeed uint64
	seed     uint64
	byKey    map[string]any // folded argument name → scalar value
	query    string         // the argument that reads like a search
	// anchor is the city places are drawn around: the one the arguments
	// name (named), or one picked per object.
	anchor *world.City
	named  bool
	subst  [][2]string // documented default → given value
	// subject is the identifier a detail call asks for, under its folded
	// argument name; the answer's first object outside a list carries it.
	subject      any
	subjectKey   string
	subjectParam string // the argument's own name
	subjectUsed  bool
	limit        int    // list length the arguments ask for (0: none)
	currency     string // currency the arguments name
	reflect      bool   // arguments may show in the answer
	nodes        int
	src          *rand.PCG
	f            *gofakeit.Faker
}

// scope is what the fields of one object share.
type scope struct {
	seed   uint64
	entity string
	city   *world.City
	list   bool // the object is in a list
	idx    int  // its index there
	depth  int
	id     string // the object's identifier, as text
}

// fakeQueryArgs are argument names that carry what a call is about, best first.
var fakeQueryArgs = []string{"q", "query", "keyword", "keywords", "search", "searchterm", "term", "searchquery", "text", "prefix", "city", "location", "destination", "address", "name", "title", "topic"}

// limitArgs are argument names that say how many results to answer.
var limitArgs = []string{"limit", "perpage", "pagesize", "count", "size", "maxresults", "num", "n", "top", "results", "resultsperpage", "take"}

func newGen(w *world.World, c *standin.Call, p *plan) *gen {
	seed := c.Seed
	if seed == 0 {
		seed = 0x5eed
	}
	g := &gen{w: w, now: c.Now, api: c.API, plan: p, seed: seed, byKey: map[string]any{}, reflect: true}
	g.src = rand.NewPCG(seed, seed)
	g.f = gofakeit.NewFaker(g.src, false)
	if g.now.IsZero() {
		g.now = time.Date(2025, time.June, 2, 9, 0, 0, 0, time.UTC)
	}
	if c.API != nil {
		g.entity, g.intent = p.entity, p.intent
		if t := c.API.Tool; t != nil {
			g.host = t.Host
			g.toolSeed = hashStrings(t.StandardizedName)
			if g.host == "" {
				g.host = strings.ReplaceAll(t.StandardizedName, "_", "-") + ".p.rapidapi.com"
			}
		}
	}
	if g.host == "" {
		g.host = "api.example.com"
	}
	names := make([]string, 0, len(c.Args))
	for k := range c.Args {
		names = append(names, k)
	}
	sort.Strings(names)
	var ids []string
	for _, k := range names {
		v := c.Args[k]
		switch x := v.(type) {
		case string:
			if strings.TrimSpace(x) == "" {
				continue
			}
			v = strings.TrimSpace(x)
		case float64, json.Number, bool:
		default:
			continue
		}
		if _, taken := g.byKey[shape.Fold(k)]; taken {
			continue
		}
		g.byKey[shape.Fold(k)] = v
		switch shape.Classify(k, "", "") {
		case shape.ID, shape.UUID, shape.Symbol, shape.Slug:
			ids = append(ids, k)
		case shape.Currency:
			if s, ok := v.(string); ok && w != nil && g.currency == "" {
				if _, ok := w.Currency(strings.ToUpper(s)); ok {
					g.currency = strings.ToUpper(s)
				}
			}
		}
	}
	// A detail call asks about the identifier it requires, else its first.
	for _, k := range ids {
		if c.API != nil && c.API.Param(k) != nil && c.API.Param(k).Required {
			g.subject, g.subjectKey, g.subjectParam = g.byKey[shape.Fold(k)], shape.Fold(k), k
			break
		}
	}
	if g.subject == nil && len(ids) > 0 {
		g.subject, g.subjectKey, g.subjectParam = g.byKey[shape.Fold(ids[0])], shape.Fold(ids[0]), ids[0]
	}
	for _, k := range fakeQueryArgs {
		if s, ok := g.byKey[k].(string); ok {
			g.query = s
			break
		}
	}
	for _, k := range limitArgs {
		if n, ok := number(g.byKey[k]); ok && n >= 1 {
			g.limit = int(math.Min(n, maxItems))
			break
		}
	}
	if c.API != nil {
		for _, p := range c.API.Params {
			d, ok := p.Default.(string)
			v, given := c.Args[p.Name].(string)
			if ok && given && len(d) >= 3 && strings.TrimSpace(v) != "" && !strings.EqualFold(d, v) {
				g.subst = append(g.subst, [2]string{d, strings.TrimSpace(v)})
			}
		}
	}
	if w != nil {
		g.anchor, g.named = g.namedCity()
		if g.anchor == nil && len(w.Cities()) > 0 {
			g.anchor = w.Cities()[int(seed%uint64(len(w.Cities())))]
		}
	}
	return g
}

// namedCity is the city the arguments name: the query, else a city,
// location or address argument, else the largest city of a country
// argument.
func (g *gen) namedCity() (*world.City, bool) {
	if g.query != "" {
		if c, ok := g.w.FindCity(g.query); ok {
			return c, true
		}
	}
	for _, k := range []string{"city", "cityname", "location", "destination", "address", "place", "town"} {
		if s, ok := g.byKey[k].(string); ok {
			if c, ok := g.w.FindCity(s); ok {
				return c, true
			}
		}
	}
	for _, k := range []string{"country", "countrycode", "countryname", "nationality"} {
		if s, ok := g.byKey[k].(string); ok {
			for _, c := range g.w.Countries() {
				if strings.EqualFold(c.Alpha2, s) || strings.EqualFold(c.Alpha3, s) || strings.EqualFold(c.Name, s) {
					if cs := g.w.CitiesIn(c.Alpha2); len(cs) > 0 {
						return cs[0], true
					}
				}
			}
		}
	}
	return nil, false
}

func (g *gen) answer() any {
	sc := scope{seed: g.seed, entity: g.entity, city: g.anchor}
	return g.carrySubject(g.node(g.plan.root, "", sc))
}

// rng seeds the generator for one value: the object's seed and the
// field's name.
func (g *gen) rng(seed uint64, key string) *gofakeit.Faker {
	h := mix(seed, key)
	g.src.Seed(h, h^0x9e3779b97f4a7c15)
	return g.f
}

func (g *gen) node(n *node, key string, sc scope) any {
	g.nodes++
	over := g.nodes > maxNodes || sc.depth > maxDepth
	switch n.kind {
	case nObject:
		if over {
			return map[string]any{}
		}
		return g.object(n, key, sc)
	case nArray:
		if over {
			return []any{}
		}
		return g.array(n, key, sc)
	case nMap:
		if over {
			return map[string]any{}
		}
		r := g.rng(sc.seed, key+"\x00map")
		count := 1 + r.IntN(maxExtraKeys)
		keys := make([]string, count)
		for i := range keys {
			keys[i] = strings.ToLower(r.Noun())
		}
		out := map[string]any{}
		for i, k := range keys {
			out[k] = g.node(n.elems[0], k, scope{seed: mix(sc.seed, key, strconv.Itoa(i)), entity: sc.entity, city: sc.city, depth: sc.depth + 1})
		}
		return out
	case nChoice:
		if len(n.elems) == 0 {
			return nil
		}
		pick := g.rng(sc.seed, key+"\x00choice").IntN(len(n.elems))
		return g.node(n.elems[pick], key, sc)
	case nLeaf:
		return g.leaf(n, key, sc)
	case nLiteral:
		return g.literal(n, key, sc)
	}
	return nil
}

// object makes an object; its identifier first, which seeds its fields.
func (g *gen) object(n *node, key string, sc scope) map[string]any {
	child := sc
	child.depth++
	if n.seen {
		child.entity = n.ent
	} else if e := entityOfKey(key); e != "" {
		child.entity = e
	}
	out := make(map[string]any, len(n.keys))
	if n.idKey >= 0 {
		k := n.keys[n.idKey]
		at := sc
		at.entity = child.entity
		id := g.identifier(n.kids[n.idKey], k, at)
		out[k] = id
		text, _ := deps.ScalarKey(id)
		child.id = text
		child.seed = mix(g.toolSeed, "entity", text)
		if !g.named && g.w != nil && len(g.w.Cities()) > 0 {
			child.city = g.w.Cities()[int(child.seed%uint64(len(g.w.Cities())))]
		}
	} else {
		child.seed = mix(sc.seed, key)
	}
	for i, k := range n.keys {
		if i == n.idKey {
			continue
		}
		out[k] = g.node(n.kids[i], k, child)
		if v, ok := g.parentRef(k, n.kids[i]); ok {
			out[k] = v
		}
	}
	return out
}

// array makes a list: documented elements as they are, or 2 to 5 of a
// repeated element (as many as a limit argument asks, up to maxItems).
func (g *gen) array(n *node, key string, sc scope) []any {
	elem := func(e *node, i int) any {
		s := sc
		s.seed = mix(sc.seed, key, strconv.Itoa(i))
		s.list = true
		s.idx = i
		s.depth++
		return g.node(e, key, s)
	}
	if n.fixed {
		out := make([]any, 0, len(n.elems))
		for i, e := range n.elems {
			out = append(out, elem(e, i))
		}
		return out
	}
	if len(n.elems) == 0 {
		return []any{}
	}
	switch shape.Fold(key) {
	case "errors", "warnings", "error", "errormessages":
		return []any{} // a call that worked
	}
	lo, hi := 2, 5
	if n.elems[0].kind != nObject {
		lo, hi = 1, 4
	}
	if g.limit > 0 && n.elems[0].kind == nObject && sc.depth <= 3 {
		lo, hi = g.limit, g.limit
	}
	if n.lo > 0 {
		lo = max(lo, n.lo)
	}
	if n.hi > 0 {
		hi = min(hi, n.hi)
	}
	lo = min(lo, maxItems)
	if lo > hi {
		lo = hi
	}
	count := lo
	if hi > lo {
		count = lo + g.rng(sc.seed, key+"\x00len").IntN(hi-lo+1)
	}
	out := make([]any, count)
	for i := range out {
		out[i] = elem(n.elems[0], i)
	}
	return out
}

// identifier is an object's identifier: the one the call asks for when
// this is the object it asks about, else one made for it.
func (g *gen) identifier(n *node, key string, sc scope) any {
	kn := shape.Fold(key)
	if g.reflect && !sc.list {
		if v, ok := g.byKey[kn]; ok && kn != "id" {
			if x, ok := fit(v, n.typ); ok {
				return x
			}
		}
		if g.subject != nil && !g.subjectUsed && g.asksFor(kn, sc.entity) {
			if x, ok := fit(g.subject, n.typ); ok {
				g.subjectUsed = true
				return x
			}
		}
	}
	if n.kind == nLiteral {
		return g.literal(n, key, sc)
	}
	return g.leaf(n, key, sc)
}

// asksFor reports whether the identifier field kn of an object about
// entity is the one the call asks for: it has the parameter's name, or it
// is the object's "id" and the parameter names that object's ID ("id",
// "player_id" for a player). A reservation made for a pet is not the pet.
func (g *gen) asksFor(kn, entity string) bool {
	if kn == g.subjectKey {
		return true
	}
	if kn != "id" {
		return false
	}
	return g.subjectKey == "id" || g.subjectKey == shape.Fold(entity)+"id" || g.subjectKey == shape.Fold(g.entity)+"id" && entity == g.entity
}

// leaf makes a value for a field by its meaning.
func (g *gen) leaf(n *node, key string, sc scope) any {
	kn := shape.Fold(key)
	r := g.rng(sc.seed, kn)
	if len(n.enum) > 0 {
		return n.enum[r.IntN(len(n.enum))]
	}
	kind := n.hint
	if !n.hinted {
		kind = shape.Classify(key, sc.entity, n.typ)
	}
	if v, ok := g.reflected(kn, n.typ, kind, sc); ok {
		return v
	}
	r = g.rng(sc.seed, kn)
	v := g.value(kind, n, key, kn, sc, r)
	if n.minLength > 0 || n.maxLength != 0 {
		if s, ok := v.(string); ok {
			v = fitLength(s, n, r)
		}
	}
	if n.min != nil || n.max != nil {
		v = fitRange(v, n, r)
	}
	return v
}

// fitRange draws a number again within a schema's bounds when the one
// made for the field's meaning falls outside them.
func fitRange(v any, n *node, r *gofakeit.Faker) any {
	if n.typ != "integer" && n.typ != "number" {
		return v
	}
	f, ok := number(v)
	if !ok {
		if x, isInt := v.(int); isInt {
			f, ok = float64(x), true
		} else if x, isInt := v.(int64); isInt {
			f, ok = float64(x), true
		}
	}
	if !ok {
		return v
	}
	lo, hi := -1e15, 1e15
	if n.min != nil && !math.IsNaN(*n.min) && !math.IsInf(*n.min, 0) {
		lo = math.Max(lo, *n.min)
	}
	if n.max != nil && !math.IsNaN(*n.max) && !math.IsInf(*n.max, 0) {
		hi = math.Min(hi, *n.max)
	}
	if f >= lo && f <= hi {
		return v
	}
	if lo > hi {
		lo, hi = hi, lo
	}
	if n.typ == "integer" {
		l, h := math.Ceil(lo), math.Floor(hi)
		if l > h {
			return int64(math.Round(lo))
		}
		return int64(l + math.Floor(r.Float64()*(h-l+1)))
	}
	return round(lo+r.Float64()*(hi-lo), 2)
}

// reflected is the argument a field shows: one of its name (outside a
// list, an "id" argument is not every element's id), or the query.
func (g *gen) reflected(kn, typ string, kind shape.Kind, sc scope) (any, bool) {
	if !g.reflect {
		return nil, false
	}
	if v, ok := g.byKey[kn]; ok && !(kn == "id" && sc.list) {
		if sc.list && v == g.query {
			switch kind {
			case shape.Name, shape.PersonName, shape.Title, shape.FirstName, shape.LastName:
				// A search by name lists things named like it, not
				// copies of it (see name and person).
				return nil, false
			case shape.Word, shape.Text:
				// A search for "tokyo" finds "tokyo", then "tokyo hotels".
				if sc.idx > 0 && (typ == "" || typ == "string") {
					return g.query + " " + strings.ToLower(g.rng(sc.seed, kn+"\x00more").NounCommon()), true
				}
			}
		}
		return fit(v, typ)
	}
	switch kn {
	case "q", "query", "keyword", "keywords", "search", "searchterm", "term", "searchquery":
		if g.query != "" && (typ == "" || typ == "string") {
			return g.query, true
		}
	}
	return nil, false
}

// fit converts an argument to a field's type, when it can be one.
func fit(v any, typ string) (any, bool) {
	switch typ {
	case "":
		return v, true
	case "string":
		switch x := v.(type) {
		case string:
			return x, true
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64), true
		case json.Number:
			return x.String(), true
		}
	case "integer", "number":
		f, ok := number(v)
		if !ok || typ == "integer" && f != math.Trunc(f) {
			return nil, false
		}
		switch x := v.(type) {
		case float64, json.Number:
			return x, true
		case string:
			return json.Number(strconv.FormatFloat(f, 'f', -1, 64)), true
		}
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x, true
		case string:
			if b, err := strconv.ParseBool(x); err == nil {
				return b, true
			}
		}
	}
	return nil, false
}

// number reads a numeric argument.
func number(v any) (float64, bool) {
	var f float64
	var err error
	switch x := v.(type) {
	case float64:
		f = x
	case json.Number:
		f, err = x.Float64()
	case string:
		f, err = strconv.ParseFloat(strings.TrimSpace(x), 64)
	default:
		return 0, false
	}
	return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
}

// entityOfKey is the entity an object under key is about: the singular
// of its name ("players" → player), or "" for a wrapper ("data").
func entityOfKey(key string) string {
	ws := shape.Words(key)
	if len(ws) == 0 {
		return ""
	}
	switch shape.Fold(key) {
	case "data", "result", "results", "items", "response", "records", "list", "hits", "payload", "body", "content",
		"values", "value", "output", "objects", "entries", "rows", "docs", "documents", "details", "info", "detail",
		"object", "entity", "collection", "edges", "nodes", "node", "elements", "current", "summary", "meta",
		"metadata", "attributes", "properties", "stats", "statistics", "extra", "general", "main", "subject":
		return ""
	}
	return shape.Singular(ws[len(ws)-1])
}

// fitLength cuts or pads a string to a schema's length bounds.
func fitLength(s string, n *node, r *gofakeit.Faker) string {
	if n.maxLength < 0 {
		return ""
	}
	rs := []rune(s)
	if n.maxLength > 0 && len(rs) > n.maxLength {
		rs = rs[:n.maxLength]
	}
	if need := n.minLength - len(rs); need > 0 {
		rs = append(rs, []rune(strings.ToLower(r.LetterN(uint(need))))...)
	}
	return string(rs)
}

// mix hashes a seed with names into another seed (FNV-1a, then
// SplitMix64's finaliser to spread the bits).
func mix(seed uint64, parts ...string) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for i := range 8 {
		h ^= (seed >> (8 * i)) & 0xff
		h *= prime
	}
	for _, p := range parts {
		h *= prime // a separator: ("ab", "c") is not ("a", "bc")
		for j := 0; j < len(p); j++ {
			h ^= uint64(p[j])
			h *= prime
		}
	}
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

func hashStrings(parts ...string) uint64 { return mix(0, parts...) }
