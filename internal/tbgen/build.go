package tbgen

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// toolStyle is how one tool's author wrote it: name casing, ID naming,
// response envelope.
type toolStyle struct {
	camel      bool // camelCase field and parameter names, else snake_case
	idStyle    int  // 0 "<one>_id", 1 "id", 2 "<one>Id"
	envelope   int
	nameStyle  int // API names: 0 Title Case, 1 snake_case, 2 lower case, 3 camelCase, 4 URL path
	numericIDs bool
	version    string // "", "v1", "api/v2"
}

const (
	envStatusData = iota
	envSuccessResults
	envBare
	envDataMeta
	envResponse
	envNamed
	numEnvelopes
)

// op is what an API does, from which its name, path, parameters,
// description and response follow.
type op struct {
	kind   int
	ent    *entity
	child  *entity // opChildren
	by     *field  // opLookup, opFilter
	suffix string  // a versioned clone's " v2"
}

const (
	opSearch = iota
	opList
	opDetails
	opLookup
	opChildren
	opFilter
	opCreate
	opMisc
)

// node is a response shape.
type node struct {
	obj    []nodeKV
	elem   *node
	isArr  bool
	leaf   *field
	konst  any // a constant leaf: "success", true
	ent    *entity
	numIDs bool
}

type nodeKV struct {
	key string
	val *node
}

// builder builds one tool from its own random stream.
type builder struct {
	g   gen
	t   *Tool
	dep []pendingDep
}

// pendingDep is a parameter that takes an entity's field, to be matched
// with producers once every API of the tool exists.
type pendingDep struct {
	api   *API
	param *Param
	ent   *entity
	field string // the field's canonical (snake) name
	cue   string
	named *API
}

func words(s string) []string { return strings.Fields(strings.ReplaceAll(s, "_", " ")) }

func capitalize(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}

// fname is a field's name as the tool writes it.
func (t *Tool) fname(name string) string {
	if !t.style.camel {
		return name
	}
	ws := words(name)
	for i := 1; i < len(ws); i++ {
		ws[i] = capitalize(ws[i])
	}
	return strings.Join(ws, "")
}

// idName is the name of an entity's ID field in the tool's responses.
func (t *Tool) idName(e *entity) string {
	f := e.Fields[0]
	if f.Kind != kID {
		return t.fname(f.Name)
	}
	switch t.style.idStyle {
	case 1:
		return "id"
	case 2:
		return e.One + "Id"
	}
	return t.fname(e.One + "_id")
}

// fieldKey is the name a field has in the tool's responses.
func (t *Tool) fieldKey(e *entity, f field) string {
	if f.Name == e.Fields[0].Name {
		return t.idName(e)
	}
	return t.fname(f.Name)
}

// apiName styles the words of an API name the tool's way.
func (t *Tool) apiName(ws []string, path string) string {
	switch t.style.nameStyle {
	case 1:
		return strings.ToLower(strings.Join(ws, "_"))
	case 2:
		return strings.ToLower(strings.Join(ws, " "))
	case 3:
		out := strings.ToLower(ws[0])
		for _, w := range ws[1:] {
			out += capitalize(strings.ToLower(w))
		}
		return out
	case 4:
		return path
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = capitalize(w)
	}
	return strings.Join(out, " ")
}

// summary is an entity's list-item shape: its ID, name and a few fields.
func (b *builder) entityNode(e *entity, full bool) *node {
	n := &node{ent: e}
	fields := e.Fields
	if !full && len(fields) > 4 {
		has := func(sel []field, name string) bool {
			for _, f := range sel {
				if f.Name == name {
					return true
				}
			}
			return false
		}
		sel := []field{fields[0]}
		if lf := e.lookup(); lf != nil && !has(sel, lf.Name) {
			sel = append(sel, *lf)
		}
		if nf := e.nameField(); !has(sel, nf.Name) {
			sel = append(sel, nf)
		}
		for _, f := range fields[1:] {
			if len(sel) >= 4 {
				break
			}
			if !has(sel, f.Name) {
				sel = append(sel, f)
			}
		}
		fields = sel
	}
	for i := range fields {
		f := fields[i]
		n.obj = append(n.obj, nodeKV{b.t.fieldKey(e, f), &node{leaf: &f, ent: e, numIDs: b.t.style.numericIDs}})
	}
	return n
}

func constNode(v any) *node { return &node{konst: v} }

func countNode() *node { f := field{Name: "total", Kind: kCount}; return &node{leaf: &f} }

// envelope wraps a payload the tool's way.
func (b *builder) envelope(payload *node, list bool, e *entity) *node {
	switch b.t.style.envelope {
	case envStatusData:
		// StableToolBench's fake answers: a status word and an HTTP code
		// around the data, which say nothing the query asked.
		return &node{obj: []nodeKV{{"status", constNode("success")}, {"code", constNode(200)}, {"data", payload}}}
	case envSuccessResults:
		if list {
			return &node{obj: []nodeKV{{"success", constNode(true)}, {"results", payload}, {"total", countNode()}}}
		}
		return &node{obj: []nodeKV{{"success", constNode(true)}, {"result", payload}}}
	case envDataMeta:
		if list {
			page := field{Name: "page", Kind: kInt}
			meta := &node{obj: []nodeKV{{"page", &node{leaf: &page}}, {b.t.fname("per_page"), constNode(20)}, {"total", countNode()}}}
			return &node{obj: []nodeKV{{"data", payload}, {"meta", meta}}}
		}
		return &node{obj: []nodeKV{{"data", payload}}}
	case envResponse:
		return &node{obj: []nodeKV{{"get", constNode(e.Many)}, {"errors", &node{isArr: true}}, {"results", countNode()}, {"response", payload}}}
	case envNamed:
		if list {
			return &node{obj: []nodeKV{{b.t.fname(e.Many), payload}, {"count", countNode()}}}
		}
		return &node{obj: []nodeKV{{b.t.fname(e.One), payload}}}
	}
	return payload // envBare
}

func listOf(n *node) *node { return &node{isArr: true, elem: n} }

// response is the answer shape of an op.
func (b *builder) response(o *op) *node {
	switch o.kind {
	case opSearch, opList, opFilter:
		return b.envelope(listOf(b.entityNode(o.ent, false)), true, o.ent)
	case opDetails, opLookup:
		return b.envelope(b.entityNode(o.ent, true), false, o.ent)
	case opChildren:
		return b.envelope(listOf(b.entityNode(o.child, false)), true, o.child)
	case opCreate:
		idf := o.ent.Fields[0]
		st := field{Name: "status", Kind: kEnum, Enum: []string{"created", "pending"}}
		at := field{Name: "created_at", Kind: kDateTime}
		return &node{obj: []nodeKV{{b.t.idName(o.ent), &node{leaf: &idf, ent: o.ent, numIDs: b.t.style.numericIDs}}, {"status", &node{leaf: &st}}, {b.t.fname("created_at"), &node{leaf: &at}}}}
	}
	// opMisc: a status object or a list of names
	if o.by != nil {
		return &node{isArr: true, elem: &node{leaf: o.by}}
	}
	msg := field{Name: "message", Kind: kText}
	return &node{obj: []nodeKV{{"status", constNode("ok")}, {"message", &node{leaf: &msg}}}}
}

// paths finds where the response holds field fname of entity e:
// "data[].player_id".
func (n *node) paths(e *entity, fname string, prefix string, out []string) []string {
	switch {
	case n.isArr && n.elem != nil:
		return n.elem.paths(e, fname, prefix+"[]", out)
	case n.obj != nil:
		for _, kv := range n.obj {
			p := kv.key
			if prefix != "" {
				p = prefix + "." + kv.key
			}
			if kv.val.leaf != nil && kv.val.ent == e && kv.val.leaf.Name == fname {
				out = append(out, p)
				continue
			}
			out = kv.val.paths(e, fname, p, out)
		}
	}
	return out
}

func (n *node) schema() Obj {
	switch {
	case n.konst != nil:
		return Obj{{"type", jsonTypeOf(n.konst)}}
	case n.leaf != nil:
		t := n.leaf.Kind.jsonType()
		if n.leaf.Kind == kID && n.numIDs {
			t = "integer"
		}
		s := Obj{{"type", t}}
		switch n.leaf.Kind {
		case kDate:
			s = append(s, KV{"format", "date"})
		case kDateTime:
			s = append(s, KV{"format", "date-time"})
		case kEnum:
			s = append(s, KV{"enum", stringsAny(n.leaf.Enum)})
		}
		return s
	case n.isArr:
		if n.elem == nil {
			return Obj{{"type", "array"}, {"items", Obj{}}}
		}
		return Obj{{"type", "array"}, {"items", n.elem.schema()}}
	}
	props := make(Obj, 0, len(n.obj))
	for _, kv := range n.obj {
		props = append(props, KV{kv.key, kv.val.schema()})
	}
	return Obj{{"type", "object"}, {"properties", props}}
}

func jsonTypeOf(v any) string {
	switch v.(type) {
	case bool:
		return "boolean"
	case int:
		return "integer"
	case float64:
		return "number"
	}
	return "string"
}

// template is ToolBench's template_response: type names in the answer's shape.
func (n *node) template() any {
	switch {
	case n.konst != nil:
		return pyType(jsonTypeOf(n.konst))
	case n.leaf != nil:
		if n.leaf.Kind == kID && n.numIDs {
			return "int"
		}
		return pyType(n.leaf.Kind.jsonType())
	case n.isArr:
		if n.elem == nil {
			return []any{}
		}
		return []any{n.elem.template()}
	}
	o := make(Obj, 0, len(n.obj))
	for _, kv := range n.obj {
		o = append(o, KV{kv.key, kv.val.template()})
	}
	return o
}

func pyType(jsonType string) string {
	switch jsonType {
	case "integer":
		return "int"
	case "number":
		return "float"
	case "boolean":
		return "bool"
	}
	return "str"
}

// example is a value of the shape.
func (n *node) example(g gen) any {
	switch {
	case n.konst != nil:
		return n.konst
	case n.leaf != nil:
		return g.value(*n.leaf, n.numIDs)
	case n.isArr:
		if n.elem == nil {
			return []any{}
		}
		out := make([]any, g.between(1, 2))
		for i := range out {
			out[i] = n.elem.example(g)
		}
		return out
	}
	o := make(Obj, 0, len(n.obj))
	for _, kv := range n.obj {
		o = append(o, KV{kv.key, kv.val.example(g)})
	}
	return o
}

func stringsAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// candidates are the ops a tool of the domain could have, primary entity
// first, in the order an author would write them.
func candidates(d *domain, primary int, g gen) []*op {
	order := []int{primary}
	for _, i := range g.r.Perm(len(d.Entities)) {
		if i != primary {
			order = append(order, i)
		}
	}
	var out []*op
	for _, i := range order {
		e := d.Entities[i]
		hasID := e.Fields[0].Kind == kID
		out = append(out, &op{kind: opSearch, ent: e})
		if g.chance(0.6) {
			out = append(out, &op{kind: opList, ent: e})
		}
		if hasID {
			out = append(out, &op{kind: opDetails, ent: e})
		}
		if lf := e.lookup(); lf != nil {
			out = append(out, &op{kind: opLookup, ent: e, by: lf})
		}
		for _, r := range d.Rels {
			if d.Entities[r[0]] == e && hasID {
				out = append(out, &op{kind: opChildren, ent: e, child: d.Entities[r[1]]})
			}
		}
		for j := range e.Fields[1:] {
			f := &e.Fields[j+1]
			if f.Kind == kEnum || f.Kind == kCity || f.Kind == kCountry || f.Kind == kGenre || f.Kind == kCuisine {
				out = append(out, &op{kind: opFilter, ent: e, by: f})
			}
		}
		if hasID && g.chance(0.5) {
			out = append(out, &op{kind: opCreate, ent: e})
		}
	}
	lang := field{Name: "language", Kind: kLang}
	out = append(out, &op{kind: opMisc}, &op{kind: opMisc, by: &lang})
	return out
}

// pickOps chooses n ops: mostly in the candidates' order, some skipped,
// versioned clones when a big tool runs out.
func pickOps(cands []*op, n int, g gen) []*op {
	used := make([]bool, len(cands))
	var out []*op
	for pass := 0; len(out) < n && pass < 3; pass++ {
		for i, c := range cands {
			if len(out) == n {
				break
			}
			if used[i] || (pass == 0 && !g.chance(0.72)) {
				continue
			}
			used[i] = true
			out = append(out, c)
		}
	}
	for v := 2; len(out) < n; v++ {
		for _, c := range cands {
			if len(out) == n {
				break
			}
			cl := *c
			cl.suffix = fmt.Sprintf("v%d", v)
			out = append(out, &cl)
		}
	}
	return out
}

// buildAPI writes one API of the tool.
func (b *builder) buildAPI(o *op) *API {
	t, g := b.t, b.g
	e := o.ent
	a := &API{op: o, Method: "GET", status: 200}
	var ws []string
	var path string
	base := "/"
	if t.style.version != "" {
		base = "/" + t.style.version + "/"
	}
	var req, opt []*Param
	idParam := func(target *entity) *Param {
		f := target.Fields[0]
		name := t.idName(target)
		cue := []string{"endpoint", "api-name", "name"}[g.r.IntN(3)]
		if name == "id" && cue == "name" {
			cue = "endpoint"
		}
		if cue != "name" && g.chance(0.5) {
			name = []string{"id", t.fname(target.One + "_id"), target.One + "Id"}[g.r.IntN(3)]
		}
		p := &Param{Name: name, Type: f.Kind.paramType(), field: f}
		if t.style.numericIDs && g.chance(0.6) {
			p.Type = "NUMBER"
		}
		b.dep = append(b.dep, pendingDep{api: a, param: p, ent: target, field: f.Name, cue: cue})
		return p
	}
	switch o.kind {
	case opSearch:
		nf := e.nameField()
		ws = []string{"search", e.Many}
		path = base + e.Many + "/search"
		if g.chance(0.3) {
			path = base + "search"
		}
		qname := []string{"query", "q", t.fname(nf.Name), "keyword"}[g.r.IntN(4)]
		p := b.param(nf, e)
		p.Name = qname
		p.Description = firstWords(fmt.Sprintf("Search term: the %s (or part of it) to match, e.g. %v", strings.ReplaceAll(nf.Name, "_", " "), g.value(nf, false)), 14)
		req = append(req, p)
		for _, f := range e.Search {
			req = append(req, b.param(f, e))
		}
		opt = append(opt, b.paging()...)
		a.Description = b.apiText(fmt.Sprintf("Search %s by %s. Returns matching %s with their %s.", e.Many, strings.ReplaceAll(nf.Name, "_", " "), e.Many, b.fieldList(e, 3)))
	case opList:
		ws = []string{[]string{"list", "get all", "all"}[g.r.IntN(3)], e.Many}
		path = base + e.Many
		var filters []string
		for _, f := range e.Fields[1:] {
			if (f.Kind == kEnum || f.Kind == kCountry || f.Kind == kCity || f.Kind == kDate) && len(filters) < 2 && g.chance(0.6) {
				opt = append(opt, b.param(f, e))
				filters = append(filters, strings.ReplaceAll(f.Name, "_", " "))
			}
		}
		opt = append(opt, b.paging()...)
		desc := fmt.Sprintf("Get a paginated list of all %s", e.Many)
		if len(filters) > 0 {
			desc += ", optionally filtered by " + strings.Join(filters, " and ")
		}
		a.Description = b.apiText(desc + fmt.Sprintf(". Each item has the %s.", b.fieldList(e, 3)))
	case opDetails:
		ws = [][]string{{"get", e.One, "details"}, {e.One, "details"}, {"get", e.One, "by", "id"}, {e.One, "info"}}[g.r.IntN(4)]
		p := idParam(e)
		if g.chance(0.5) {
			path = base + e.Many + "/{" + p.Name + "}"
		} else {
			path = base + e.One
		}
		req = append(req, p)
		a.Description = b.apiText(fmt.Sprintf("Get the full details of a %s by its ID, including %s.", e.One, b.fieldList(e, 4)))
	case opLookup:
		f := *o.by
		ws = []string{"get", e.One, "by", f.Name}
		if e.Fields[0].Name == f.Name && g.chance(0.5) {
			ws = []string{e.One}
			if e.One == "weather" {
				ws = []string{"current", "weather"}
			}
		}
		p := b.param(f, e)
		p.Name = t.fname(f.Name)
		if g.chance(0.5) {
			path = base + e.Many + "/{" + p.Name + "}"
		} else {
			path = base + e.One
		}
		req = append(req, p)
		if isKey(f.Kind) {
			// a key another API lists (a symbol, an IATA code): a dependency
			b.dep = append(b.dep, pendingDep{api: a, param: p, ent: e, field: f.Name, cue: "name"})
		}
		a.Description = b.apiText(fmt.Sprintf("Look up a %s by its %s and get %s.", e.One, strings.ReplaceAll(f.Name, "_", " "), b.fieldList(e, 4)))
	case opChildren:
		ws = []string{e.One, o.child.Many}
		if g.chance(0.4) {
			ws = []string{"get", e.One, o.child.Many}
		}
		p := idParam(e)
		path = base + e.Many + "/{" + p.Name + "}/" + o.child.Many
		if g.chance(0.3) {
			path = base + o.child.Many
		}
		req = append(req, p)
		opt = append(opt, b.paging()...)
		a.Description = b.apiText(fmt.Sprintf("List the %s of a %s, with their %s.", o.child.Many, e.One, b.fieldList(o.child, 3)))
	case opFilter:
		f := *o.by
		ws = []string{e.Many, "by", f.Name}
		path = base + e.Many + "/by-" + strings.ReplaceAll(f.Name, "_", "-")
		req = append(req, b.param(f, e))
		opt = append(opt, b.paging()...)
		a.Description = b.apiText(fmt.Sprintf("Get %s whose %s matches the given value.", e.Many, strings.ReplaceAll(f.Name, "_", " ")))
	case opCreate:
		a.Method = "POST"
		if g.chance(0.1) {
			a.Method = []string{"PUT", "PATCH", "DELETE"}[g.r.IntN(3)]
		}
		ws = []string{[]string{"create", "add", "new"}[g.r.IntN(3)], e.One}
		path = base + e.Many
		for i, f := range e.Fields[1:] {
			switch {
			case i < 2:
				req = append(req, b.param(f, e))
			case g.chance(0.4):
				opt = append(opt, b.param(f, e))
			}
		}
		if g.chance(0.3) {
			tags := field{Name: "tags", Kind: kWord}
			p := b.param(tags, e)
			p.Type, p.Description, p.Default = "ARRAY", "List of tags to attach, e.g. [\"vip\", \"2024\"]", ""
			opt = append(opt, p)
		}
		if g.chance(0.2) {
			meta := field{Name: "metadata", Kind: kWord}
			p := b.param(meta, e)
			p.Type, p.Description, p.Default = "OBJECT", "Free-form JSON object stored with the record", "{}"
			opt = append(opt, p)
		}
		a.body = Obj{}
		a.Description = b.apiText(fmt.Sprintf("Create a new %s. Send the %s in the request body; returns the new %s ID.", e.One, b.fieldList(e, 2), e.One))
		a.status = 201
		if g.chance(0.5) {
			a.status = 200
		}
	case opMisc:
		if o.by != nil {
			ws = []string{"get", "supported", "languages"}
			path = base + "languages"
			a.Description = b.apiText("Get the list of languages the API supports, as two-letter ISO 639-1 codes.")
		} else {
			ws = [][]string{{"ping"}, {"health", "check"}, {"status"}}[g.r.IntN(3)]
			path = base + strings.Join(ws, "-")
			a.Description = b.apiText("Check that the API is up. Returns ok and a short status message.")
		}
	}
	if o.suffix != "" {
		ws = append(ws, o.suffix)
		path = "/" + o.suffix + strings.TrimPrefix(path, base[:len(base)-1])
	}
	a.Name = t.apiName(ws, path)
	if g.chance(0.02) && t.style.nameStyle == 0 {
		a.Name += " (Deprecated)"
	}
	a.URL = "https://" + t.Host + path
	a.Required, a.Optional = req, opt
	a.resp = b.response(o)
	b.finishResponse(a)
	return a
}

// finishResponse writes the schema, the test_endpoint and the template.
func (b *builder) finishResponse(a *API) {
	g := b.g
	a.exSeed = g.r.Uint64()
	switch x := g.r.Float64(); {
	case x < 0.45:
		a.testMode = 0
	case x < 0.75:
		a.testMode = 1
	case x < 0.82:
		a.testMode = 2
	case x < 0.90:
		a.testMode, a.testPick = 3, int8(g.r.IntN(len(testErrorTexts)))
	default:
		a.testMode, a.testPick = 4, int8(g.r.IntN(len(testErrorMessages)))
	}
	if g.chance(0.8) {
		a.headers = ""
	} else {
		a.headers = Obj{}
	}
	if a.body == nil {
		a.body = ""
	}
}

// param is a parameter taking a field of an entity.
func (b *builder) param(f field, e *entity) *Param {
	g := b.g
	ex := g.value(f, b.t.style.numericIDs)
	p := &Param{Name: b.t.fname(f.Name), Type: f.Kind.paramType(), Description: describe(f, e.One, ex), field: f}
	if g.chance(0.1) {
		p.Description = ""
	}
	switch {
	case g.chance(0.45):
		p.Default = ""
	case f.Kind == kBool:
		p.Default = fmt.Sprint(ex)
	case f.Kind == kEnum:
		p.Default = f.Enum[0]
	case g.chance(0.05) && p.Type == "NUMBER":
		p.Default = ex // a JSON number, as some files have
	default:
		p.Default = fmt.Sprint(ex)
	}
	return p
}

func (b *builder) paging() []*Param {
	g := b.g
	var out []*Param
	if g.chance(0.6) {
		f := field{Name: "page", Kind: kInt}
		out = append(out, &Param{Name: "page", Type: "NUMBER", Description: "Page number of the results, starting at 1", Default: g.pick([]string{"1", ""}), field: f})
	}
	if g.chance(0.6) {
		f := field{Name: "limit", Kind: kInt}
		name := g.pick([]string{"limit", b.t.fname("page_size"), "per_page", "count"})
		out = append(out, &Param{Name: name, Type: "NUMBER", Description: "Maximum number of results to return (default 10, max 100)", Default: g.pick([]string{"10", "20", ""}), field: f})
	}
	if g.chance(0.15) {
		f := field{Name: "lang", Kind: kLang}
		out = append(out, &Param{Name: "lang", Type: "STRING", Description: "Language of the results (ISO 639-1), e.g. en", Default: "en", field: f})
	}
	return out
}

// fieldList names n fields of an entity: "name, team and position".
func (b *builder) fieldList(e *entity, n int) string {
	var ws []string
	for _, f := range e.Fields[1:] {
		if len(ws) == n {
			break
		}
		ws = append(ws, strings.ReplaceAll(f.Name, "_", " "))
	}
	switch len(ws) {
	case 0:
		return "ID"
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// apiText varies an API description the way real files do: mostly one
// or two sentences, sometimes empty, sometimes with markdown or a link.
func (b *builder) apiText(s string) string {
	g := b.g
	switch x := g.r.Float64(); {
	case x < 0.08:
		return ""
	case x < 0.14:
		return firstSentence(s)
	case x < 0.22:
		return s + " Results are cached for 10 minutes; data is refreshed from the source every hour."
	case x < 0.28:
		return s + "\n\n**Note:** requires a valid subscription. See https://" + b.t.Host + "/docs for examples."
	case x < 0.33:
		return "This endpoint will return back " + strings.ToLower(s[:1]) + s[1:]
	case x < 0.85:
		return s + " " + g.pick(apiSentences)
	}
	return s
}

var apiSentences = []string{
	"Results are sorted by relevance and paginated.",
	"Use it to build search boxes, dashboards and autocomplete widgets.",
	"Data is updated daily from official sources.",
	"Returns an empty list when nothing matches the request.",
	"Works with the free plan; responses are JSON encoded in UTF-8.",
	"All timestamps are in UTC and all prices in the requested currency.",
}

// firstSentence is s up to its first full stop.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func firstWords(s string, n int) string {
	ws := strings.Fields(s)
	if len(ws) <= n {
		return s
	}
	return strings.TrimRight(strings.Join(ws[:n], " "), ",.:;") + "."
}

// resolveDeps turns pending dependencies into edges and writes their
// cues into the parameters' descriptions.
func (b *builder) resolveDeps() []Edge {
	t, g := b.t, b.g
	var edges []Edge
	for _, d := range b.dep {
		type prod struct {
			api  *API
			path string
		}
		var prods []prod
		for _, a := range t.APIs {
			if a == d.api {
				continue
			}
			if ps := a.resp.paths(d.ent, d.field, "", nil); len(ps) > 0 {
				prods = append(prods, prod{a, ps[0]})
			}
		}
		label := strings.ReplaceAll(d.field, "_", " ")
		if d.field == d.ent.Fields[0].Name && d.ent.Fields[0].Kind == kID {
			label = d.ent.One + " ID"
		}
		if len(prods) == 0 {
			// No API of the tool returns it: a plain parameter, a negative
			// for dependency inference.
			d.param.Description = g.pick([]string{"The " + label, capitalize(label), "Unique " + label + " of the " + d.ent.One})
			continue
		}
		named := prods[g.r.IntN(len(prods))]
		if d.cue == "name" && d.param.Name != t.fieldKey(d.ent, d.ent.Fields[0]) && d.field == d.ent.Fields[0].Name {
			d.cue = "endpoint"
		}
		switch d.cue {
		case "endpoint":
			d.param.Description = fmt.Sprintf("The %s, can be retrieved from the %s endpoint", label, stripTemplates(urlPath(named.api.URL)))
		case "api-name":
			d.param.Description = g.pick([]string{
				fmt.Sprintf("%s returned by %s", capitalize(label), named.api.Name),
				fmt.Sprintf("The %s as returned by the '%s' API", label, named.api.Name),
			})
		default:
			d.param.Description = g.pick([]string{capitalize(label), "The " + label + " to look up", ""})
		}
		for _, p := range prods {
			edges = append(edges, Edge{Category: t.Category, Tool: t.Name, File: t.File, To: d.api.Name, Param: d.param.Name, From: p.api.Name, Path: p.path, Cue: d.cue, Named: d.cue != "name" && p.api == named.api})
		}
	}
	return edges
}

func urlPath(u string) string {
	rest := strings.TrimPrefix(u, "https://")
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		return rest[i:]
	}
	return "/"
}

func stripTemplates(p string) string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if !strings.HasPrefix(s, "{") {
			out = append(out, s)
		}
	}
	return strings.Join(out, "/")
}

// toolDescription is ~25 words on what the tool does.
func toolDescription(t *Tool, g gen) string {
	d := t.domain
	e := d.Entities
	many := func(i int) string { return e[i%len(e)].Many }
	switch x := g.r.Float64(); {
	case x < 0.04:
		return ""
	case x < 0.10:
		return capitalize(firstWords(d.Topic, 4))
	case x < 0.35:
		return fmt.Sprintf("%s gives you fast access to %s. Search %s, look up %s and get clean JSON for apps, dashboards and bots.", t.Name, d.Topic, many(0), many(1))
	case x < 0.55:
		return fmt.Sprintf("Get %s from over %d sources with %s. Endpoints cover %s, %s and %s, updated every few minutes.", d.Topic, g.between(20, 900), t.Name, many(0), many(1), many(2))
	case x < 0.70:
		return fmt.Sprintf("The %s API provides %s: %s, %s and more. **Free tier** available. Docs: https://%s.com/docs", t.Name, d.Topic, many(0), many(1), slug(t.Name))
	case x < 0.85:
		return fmt.Sprintf("Reliable %s API. Access %s data with simple REST endpoints, %d+ requests per second and a generous free plan.", d.Topic, many(0), g.between(5, 50))
	}
	return fmt.Sprintf("%s: %s. Built for developers who need accurate %s without scraping. Contact support@%s.com for enterprise plans.", t.Name, capitalize(d.Topic), many(0), slug(t.Name))
}

// slug is a host-safe form of a name: "football-live-scores".
func slug(name string) string {
	s := toolset.Standardize(name)
	s = strings.Trim(strings.ReplaceAll(s, "_", "-"), "-")
	if s == "" {
		s = "api"
	}
	return s
}

func newGen(seed, stream uint64) gen {
	return gen{rand.New(rand.NewPCG(seed, stream))}
}

// isKey tells whether values of the kind are codes another API lists and
// a lookup takes (a ticker, an IATA code), unlike a city a user names.
func isKey(k kind) bool {
	switch k {
	case kCoin, kSymbol, kIATA, kISBN, kVIN, kTracking, kUsername, kCurrency, kCountryCode, kWord:
		return true
	}
	return false
}
