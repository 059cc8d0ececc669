package tbgen

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// QueryGroup is one solvable_queries file.
type QueryGroup struct {
	Name    string
	Queries []*Query
}

// Query is one StableToolBench test query and its ground truth.
type Query struct {
	ID   int
	Text string
	// APIs is the api_list offered with the query.
	APIs []QueryAPI
	// Relevant are the APIs the query needs, [tool_name, api_name].
	Relevant [][2]string
	// Missing are api_list entries whose tool or API the tree lacks.
	Missing []Missing
	// TwinTools are the files of tools the query names that share their
	// name with a tool of another category.
	TwinTools []string
	// Calls solve the query: the values it names, by parameter.
	Calls []Call
}

// QueryAPI is one api_list entry.
type QueryAPI struct {
	Category string
	Tool     string
	API      *API
}

// Missing is an api_list entry the tree lacks.
type Missing struct {
	Category string `json:"category"`
	Tool     string `json:"tool"`
	API      string `json:"api"`
	Relevant bool   `json:"relevant"`
	// Reason is "tool absent" or "API absent".
	Reason string `json:"reason"`
}

// Call is one call that answers part of a query: the arguments the
// query names, and the parameters that take a value from an earlier
// call's response (From: parameter → "<api>: <path>").
type Call struct {
	Category  string            `json:"category"`
	Tool      string            `json:"tool"`
	API       string            `json:"api"`
	Arguments map[string]any    `json:"arguments"`
	From      map[string]string `json:"from,omitempty"`
}

// Scorable tells whether every api_list entry of the query exists.
func (q *Query) Scorable() bool { return len(q.Missing) == 0 }

type queryGen struct {
	g      gen
	u      *Universe
	pool   []*Tool
	byCat  map[string][]*Tool
	cats   []string // categories with two or more tools
	twins  []*Tool
	taken  map[string]bool
	edges  map[string][]Edge // by file
	ghosts map[*Tool]*API
}

func generateQueries(u *Universe, plans []*planned, g gen, taken map[string]bool) []QueryGroup {
	qg := &queryGen{g: g, u: u, byCat: map[string][]*Tool{}, taken: taken, edges: map[string][]Edge{}, ghosts: map[*Tool]*API{}}
	for _, e := range u.Edges {
		qg.edges[e.File] = append(qg.edges[e.File], e)
	}
	for _, p := range plans {
		t := p.tool
		qg.pool = append(qg.pool, t)
		qg.byCat[t.Category] = append(qg.byCat[t.Category], t)
		if t.Twin != nil {
			qg.twins = append(qg.twins, t)
		}
	}
	for _, c := range u.Categories {
		if len(qg.byCat[c]) >= 2 {
			qg.cats = append(qg.cats, c)
		}
	}
	rates := u.Options.Rates
	var out []QueryGroup
	for gi, name := range Groups {
		n := u.Options.Queries[gi]
		nMissRel := int(math.Round(rates.QueryMissingRelevant * float64(n)))
		nMissOther := min(int(math.Round(rates.QueryMissingOther*float64(n))), n-nMissRel)
		nTwin := int(math.Round(rates.QueryCategoryTwin * float64(n)))
		if len(qg.twins) == 0 {
			nTwin = 0
		}
		role := make([]int, n) // 0 scorable, 1 missing relevant, 2 missing other
		perm := g.r.Perm(n)
		for i, j := range perm {
			switch {
			case i < nMissRel:
				role[j] = 1
			case i < nMissRel+nMissOther:
				role[j] = 2
			}
		}
		twin := make([]bool, n)
		for _, j := range g.r.Perm(n)[:nTwin] {
			twin[j] = true
		}
		id := g.between(100, 9000)
		grp := QueryGroup{Name: name}
		for i := range n {
			id += g.between(1, 400)
			grp.Queries = append(grp.Queries, qg.query(name[:2], id, role[i], twin[i]))
		}
		out = append(out, grp)
	}
	return out
}

// pick chooses the query's tools.
func (qg *queryGen) tools(level string, twin bool) []*Tool {
	g := qg.g
	var first *Tool
	if twin {
		first = qg.twins[g.r.IntN(len(qg.twins))]
	}
	switch level {
	case "G1":
		if first != nil {
			return []*Tool{first}
		}
		for range 20 {
			t := qg.pool[g.r.IntN(len(qg.pool))]
			if len(t.APIs) >= 2 {
				return []*Tool{t}
			}
		}
		return []*Tool{qg.pool[g.r.IntN(len(qg.pool))]}
	case "G2":
		cat := qg.cats[g.r.IntN(len(qg.cats))]
		if first != nil {
			cat = first.Category
		}
		ts := qg.byCat[cat]
		want := min(len(ts), g.between(2, 3))
		var out []*Tool
		if first != nil {
			out = append(out, first)
		}
		for _, i := range g.r.Perm(len(ts)) {
			if len(out) == want {
				break
			}
			if ts[i] != first {
				out = append(out, ts[i])
			}
		}
		return out
	}
	var out []*Tool
	used := map[string]bool{}
	if first != nil {
		out = append(out, first)
		used[first.Category] = true
	}
	want := g.between(2, 3)
	for len(out) < want {
		t := qg.pool[g.r.IntN(len(qg.pool))]
		if !used[t.Category] {
			used[t.Category] = true
			out = append(out, t)
		}
	}
	return out
}

// query builds one query. role: 0 scorable, 1 a relevant API is
// missing, 2 only a non-relevant API is missing.
func (qg *queryGen) query(level string, id, role int, twin bool) *Query {
	g := qg.g
	tools := qg.tools(level, twin)
	q := &Query{ID: id}
	type entry struct {
		tool *Tool
		api  *API
	}
	if role == 1 && g.chance(0.5) {
		// The tool is gone from the tree: a ghost in its category.
		i := g.r.IntN(len(tools))
		if tools[i].Twin != nil && len(tools) > 1 {
			i = (i + 1) % len(tools)
		}
		if tools[i].Twin == nil {
			ghost := qg.ghostTool(tools[i].Category)
			q.Missing = append(q.Missing, Missing{Category: ghost.Category, Tool: ghost.Name, Relevant: true, Reason: "tool absent"})
			tools[i] = ghost
			role = -1
		}
	}
	var offered, relevant []entry
	for _, t := range tools {
		var apis []*API
		if level == "G1" {
			apis = t.APIs[:min(len(t.APIs), 10)]
		} else {
			k := min(len(t.APIs), g.between(2, 3))
			for _, i := range g.r.Perm(len(t.APIs))[:k] {
				apis = append(apis, t.APIs[i])
			}
			sortByIndex(t, apis)
		}
		for _, a := range apis {
			offered = append(offered, entry{t, a})
		}
		// relevant: a producer and its consumer when the tool has a pair
		k := 1
		if level == "G1" {
			k = min(len(apis), g.between(2, 3))
		} else if g.chance(0.4) {
			k = min(len(apis), 2)
		}
		rel := chainFirst(apis, k, g, qg.edges[t.File])
		for _, a := range rel {
			relevant = append(relevant, entry{t, a})
		}
	}
	if role == 1 {
		// An API of a present tool is gone.
		i := g.r.IntN(len(relevant))
		e := relevant[i]
		ghost := qg.ghostAPI(e.tool)
		for j := range offered {
			if offered[j] == e {
				offered[j].api = ghost
			}
		}
		relevant[i].api = ghost
		q.Missing = append(q.Missing, Missing{Category: e.tool.Category, Tool: e.tool.Name, API: ghost.Name, Relevant: true, Reason: "API absent"})
	}
	if role == 2 {
		t := tools[g.r.IntN(len(tools))]
		ghost := qg.ghostAPI(t)
		offered = append(offered, entry{t, ghost})
		q.Missing = append(q.Missing, Missing{Category: t.Category, Tool: t.Name, API: ghost.Name, Reason: "API absent"})
	}
	for _, e := range offered {
		q.APIs = append(q.APIs, QueryAPI{Category: e.tool.Category, Tool: e.tool.Name, API: e.api})
	}
	seenTwin := map[string]bool{}
	for _, t := range tools {
		if t.Twin != nil && !seenTwin[t.File] {
			seenTwin[t.File] = true
			q.TwinTools = append(q.TwinTools, t.File)
		}
	}
	var clauses []string
	produced := map[*API]bool{}
	for _, e := range relevant {
		q.Relevant = append(q.Relevant, [2]string{e.tool.Name, e.api.Name})
		call, clause := qg.call(e.tool, e.api, produced)
		produced[e.api] = true
		q.Calls = append(q.Calls, call)
		clauses = append(clauses, clause)
	}
	q.Text = qg.text(tools, clauses)
	return q
}

func sortByIndex(t *Tool, apis []*API) {
	pos := map[*API]int{}
	for i, a := range t.APIs {
		pos[a] = i
	}
	sort.Slice(apis, func(i, j int) bool { return pos[apis[i]] < pos[apis[j]] })
}

// chainFirst picks k of apis, a producer and its consumer first when the
// tool has such a pair among them.
func chainFirst(apis []*API, k int, g gen, edges []Edge) []*API {
	in := map[string]*API{}
	for _, a := range apis {
		in[a.Name] = a
	}
	var out []*API
	has := map[*API]bool{}
	for _, e := range edges {
		if len(out) > 0 {
			continue
		}
		from, to := in[e.From], in[e.To]
		if from != nil && to != nil && k >= 2 && g.chance(0.7) {
			out = append(out, from, to)
			has[from], has[to] = true, true
		}
	}
	for _, i := range g.r.Perm(len(apis)) {
		if len(out) >= k {
			break
		}
		if !has[apis[i]] {
			out = append(out, apis[i])
			has[apis[i]] = true
		}
	}
	return out
}

// ghostTool is a tool the queries name but the tree lacks.
func (qg *queryGen) ghostTool(category string) *Tool {
	spec := categorySpecs[0]
	for _, c := range categorySpecs {
		if c.Name == category {
			spec = c
		}
	}
	doms := strings.Fields(spec.Domains)
	d := domainByKey[doms[qg.g.r.IntN(len(doms))]]
	t := &Tool{Category: category, Domain: d.Key, domain: d, Name: toolName(d, qg.g, qg.taken)}
	t.File = "(absent)"
	buildTool(t, qg.g.between(2, 4), "", qg.g, qg.u.Options.Rates.NoSchema)
	return t
}

// ghostAPI is an API of t the queries name but its file lacks.
func (qg *queryGen) ghostAPI(t *Tool) *API {
	if a := qg.ghosts[t]; a != nil {
		return a
	}
	b := &builder{g: qg.g, t: t}
	cands := candidates(t.domain, 0, qg.g)
	for v := 0; ; v++ {
		for _, i := range qg.g.r.Perm(len(cands)) {
			o := *cands[i]
			if v > 0 {
				o.suffix = fmt.Sprintf("v%d", v+1)
			}
			a := b.buildAPI(&o)
			if !t.nameIndex[stdAPI(a.Name)] && !t.hasAPIStd(stdAPI(a.Name)) {
				a.code = codeSnippet(t, a)
				qg.ghosts[t] = a
				for _, d := range b.dep {
					if d.api == a && d.param.Description == "" {
						d.param.Description = "The " + strings.ReplaceAll(d.field, "_", " ")
					}
				}
				return a
			}
		}
	}
}

func (t *Tool) hasAPIStd(std string) bool {
	for _, a := range t.APIs {
		if stdAPI(a.Name) == std {
			return true
		}
	}
	return false
}

// call is the call for one relevant API, and the clause asking for it.
func (qg *queryGen) call(t *Tool, a *API, produced map[*API]bool) (Call, string) {
	g := qg.g
	c := Call{Category: t.Category, Tool: t.Name, API: a.Name, Arguments: map[string]any{}}
	fed := map[string]string{}
	for _, e := range qg.edges[t.File] {
		if e.To != a.Name || fed[e.Param] != "" {
			continue
		}
		for _, p := range t.APIs {
			if p.Name == e.From && produced[p] {
				fed[e.Param] = e.From + ": " + e.Path
			}
		}
	}
	if len(fed) > 0 {
		c.From = fed
	}
	vals := map[string]any{}
	for _, p := range a.Required {
		if _, ok := fed[p.Name]; ok {
			continue
		}
		v := g.value(p.field, t.style.numericIDs)
		if p.Type == "NUMBER" {
			if _, ok := v.(string); ok {
				v = g.between(100, 999999) // an ID written as a NUMBER parameter takes a number
			}
		}
		vals[p.Name] = v
		c.Arguments[p.Name] = v
	}
	o := a.op
	var s string
	arg := func(p *Param) string {
		if p == nil {
			return ""
		}
		if p.field.Kind == kText {
			return fmt.Sprintf("%q", vals[p.Name])
		}
		return fmt.Sprint(vals[p.Name])
	}
	first := func() *Param {
		for _, p := range a.Required {
			if _, ok := vals[p.Name]; ok {
				return p
			}
		}
		return nil
	}
	mentioned := map[string]bool{}
	use := func(p *Param) string {
		if p == nil {
			return ""
		}
		mentioned[p.Name] = true
		return arg(p)
	}
	if o == nil {
		o = &op{kind: opMisc}
	}
	switch o.kind {
	case opSearch:
		s = fmt.Sprintf(g.pick([]string{"find %s matching \"%s\"", "search for %s called '%s'", "look up %s named %s"}), o.ent.Many, use(first()))
	case opList:
		s = g.pick([]string{"list the available ", "give me a list of ", "show all "}) + o.ent.Many
		for _, p := range a.Optional {
			if p.field.Kind == kEnum || p.field.Kind == kCity || p.field.Kind == kCountry {
				v := g.value(p.field, false)
				c.Arguments[p.Name] = v
				s += fmt.Sprintf(" where the %s is %v", strings.ReplaceAll(p.field.Name, "_", " "), v)
				break
			}
		}
	case opDetails:
		if len(fed) > 0 {
			s = fmt.Sprintf("get the full details of the first %s you find", o.ent.One)
		} else {
			s = fmt.Sprintf("get the details of the %s with ID %s", o.ent.One, use(first()))
		}
	case opLookup:
		if o.ent.One == "weather" {
			s = fmt.Sprintf("tell me the current weather in %s", use(first()))
		} else if len(fed) > 0 {
			s = fmt.Sprintf("look up that %s by its %s", o.ent.One, strings.ReplaceAll(o.by.Name, "_", " "))
		} else {
			s = fmt.Sprintf("look up the %s for %s %s", o.ent.One, strings.ReplaceAll(o.by.Name, "_", " "), use(first()))
		}
	case opChildren:
		if len(fed) > 0 {
			s = fmt.Sprintf("list the %s of that %s", o.child.Many, o.ent.One)
		} else {
			s = fmt.Sprintf("list the %s of %s %s", o.child.Many, o.ent.One, use(first()))
		}
	case opFilter:
		s = fmt.Sprintf("show me %s with %s %s", o.ent.Many, strings.ReplaceAll(o.by.Name, "_", " "), use(first()))
	case opCreate:
		var parts []string
		for _, p := range a.Required {
			if _, ok := vals[p.Name]; ok && len(parts) < 2 {
				parts = append(parts, fmt.Sprintf("%s %s", strings.ReplaceAll(p.field.Name, "_", " "), use(p)))
			}
		}
		s = fmt.Sprintf("create a new %s with %s", o.ent.One, strings.Join(parts, " and "))
	default:
		if o.by != nil {
			s = fmt.Sprintf("tell me which languages %s supports", t.Name)
		} else {
			s = fmt.Sprintf("check whether the %s service is up", t.Name)
		}
	}
	var extra []string
	for _, p := range a.Required {
		if _, ok := vals[p.Name]; ok && !mentioned[p.Name] {
			extra = append(extra, fmt.Sprintf("%s %v", strings.ReplaceAll(strings.ReplaceAll(p.Name, "_", " "), "-", " "), vals[p.Name]))
		}
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	return c, s
}

var (
	openers = []string{
		"I'm planning a trip with my family and need some help.",
		"My company, %s, is building a new dashboard for our customers.",
		"For a school project about %s, I need real data.",
		"My friend %s asked me to help with some research.",
		"I'm writing a blog post about %s and want accurate numbers.",
		"We're organizing a team event at %s next month.",
		"Hi there! I have a few quick requests.",
		"I run a small startup called %s and we need some information.",
	}
	connectors = []string{"Also, ", "After that, ", "Then ", "Additionally, ", "Next, "}
	closers    = []string{"Thanks a lot!", "Please include the key figures in your answer.", "I need this for a meeting tomorrow.", "", "Could you summarize everything clearly?"}
)

func (qg *queryGen) text(tools []*Tool, clauses []string) string {
	g := qg.g
	op := g.pick(openers)
	if strings.Contains(op, "%s") {
		switch {
		case strings.Contains(op, "project about"), strings.Contains(op, "blog post"):
			topic, _, _ := strings.Cut(tools[0].domain.Topic, ",")
			op = fmt.Sprintf(op, topic)
		case strings.Contains(op, "friend"):
			op = fmt.Sprintf(op, g.pick(poolFirst))
		default:
			op = fmt.Sprintf(op, g.pick(poolCompany))
		}
	}
	var b strings.Builder
	b.WriteString(op)
	for i, c := range clauses {
		b.WriteByte(' ')
		switch {
		case i == 0 && g.chance(0.5):
			b.WriteString("Could you " + c + "?")
		case i == 0:
			b.WriteString("Please " + c + ".")
		case i == len(clauses)-1 && i >= 2:
			b.WriteString("Finally, " + c + ".")
		default:
			b.WriteString(g.pick(connectors) + c + ".")
		}
	}
	if cl := g.pick(closers); cl != "" {
		b.WriteString(" " + cl)
	}
	return b.String()
}

func stdAPI(name string) string { return toolset.StandardizeAPIName(name) }
