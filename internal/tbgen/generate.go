package tbgen

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/understudy/understudy/toolset"
)

// Random streams: the plan draws from stream 0, tool i from toolStream+i,
// so tools can be built in parallel and still come out the same.
const (
	toolStream  = 1 << 20
	copyStream  = 1 << 40
	extraStream = 1 << 41
	queryStream = 1 << 42
)

// planned is what the plan decides about a tool before it is built.
type planned struct {
	tool   *Tool
	nAPI   int
	defect string // the one tool defect placed in it, if any
}

// Generate builds a universe in memory. The same options give the same
// universe; Write and EachFile render it.
func Generate(opts Options) (*Universe, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	rates := *opts.Rates
	g := newGen(opts.Seed, 0)
	u := &Universe{Options: opts}
	for _, c := range categorySpecs {
		u.Categories = append(u.Categories, c.Name)
	}

	nMalformed := map[string]int{MalformedJSON: opts.count(rates.MalformedFile), NotObject: opts.count(rates.MalformedFile), EmptyFile: opts.count(rates.MalformedFile)}
	nCopy := opts.count(rates.CopyFile)
	nOrig := opts.Tools - nCopy - nMalformed[MalformedJSON] - nMalformed[NotObject] - nMalformed[EmptyFile]
	perTool := map[string]int{
		DuplicateParam: opts.count(rates.DuplicateParam), APINameTwin: opts.count(rates.APINameTwin),
		NumberDefault: opts.count(rates.NumberDefault), StandardizeTwinParams: opts.count(rates.StandardizeTwinParams),
		FileNameMismatch: opts.count(rates.FileNameMismatch), CategoryTwin: opts.count(rates.CategoryTwin), CopyFile: nCopy,
	}
	need := 0
	for _, n := range perTool {
		need += n
	}
	if nOrig < len(categorySpecs) || need > nOrig {
		return nil, fmt.Errorf("tbgen: %d tool files are too few: %d categories and %d defective tools need at least %d", opts.Tools, len(categorySpecs), need, max(len(categorySpecs), need)+opts.Tools-nOrig)
	}
	if least := nOrig + nCopy + perTool[APINameTwin]; opts.APIs < least {
		return nil, fmt.Errorf("tbgen: %d APIs are too few for %d tool files (at least %d)", opts.APIs, opts.Tools, least)
	}

	// Categories by weight, at least one tool each.
	cats := apportion(nOrig, len(categorySpecs))
	plans := make([]*planned, 0, nOrig)
	for ci, n := range cats {
		spec := categorySpecs[ci]
		doms := strings.Fields(spec.Domains)
		for range n {
			d := domainByKey[doms[g.r.IntN(len(doms))]]
			plans = append(plans, &planned{tool: &Tool{Category: spec.Name, Domain: d.Key, domain: d}})
		}
	}

	// One tool defect per defective tool, disjoint kinds.
	perm := g.r.Perm(nOrig)
	next := 0
	for _, kind := range []string{DuplicateParam, APINameTwin, NumberDefault, StandardizeTwinParams, FileNameMismatch, CopyFile, CategoryTwin} {
		for range perTool[kind] {
			plans[perm[next]].defect = kind
			next++
		}
	}

	// API counts: a long-tailed distribution, then nudged to the exact total.
	total := 0
	for _, p := range plans {
		p.nAPI = apiCount(g)
		if p.defect == APINameTwin && p.nAPI < 2 {
			p.nAPI = 2
		}
		total += p.nAPI
		if p.defect == CopyFile {
			total += p.nAPI
		}
	}
	for total != opts.APIs {
		p := plans[g.r.IntN(len(plans))]
		step := 1
		if p.defect == CopyFile {
			step = 2
		}
		switch {
		case total < opts.APIs && (step == 1 || opts.APIs-total >= 2):
			p.nAPI++
			total += step
		case total > opts.APIs && p.nAPI > 1 && !(p.defect == APINameTwin && p.nAPI == 2) && (step == 1 || total-opts.APIs >= 2):
			p.nAPI--
			total -= step
		}
	}

	// Names, unique by standardized name except category twins.
	taken := map[string]bool{}
	for _, p := range plans {
		if p.defect == CategoryTwin {
			continue
		}
		p.tool.Name = toolName(p.tool.domain, g, taken)
	}
	for _, p := range plans {
		if p.defect != CategoryTwin {
			continue
		}
		for {
			other := plans[g.r.IntN(len(plans))]
			if other.defect == CategoryTwin || other.defect == CopyFile || other.tool.Twin != nil || other.tool.Category == p.tool.Category {
				continue
			}
			p.tool.Name, p.tool.Twin, other.tool.Twin = other.tool.Name, other.tool, p.tool
			break
		}
	}
	for i, p := range plans {
		t := p.tool
		t.index = i
		t.StandardizedName = toolset.Standardize(t.Name)
		t.File = "tools/" + t.Category + "/" + t.StandardizedName + ".json"
	}

	// Build the tools in parallel, each from its own stream.
	type built struct {
		edges   []Edge
		defects []Defect
	}
	results := make([]built, len(plans))
	var wg sync.WaitGroup
	work := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				p := plans[i]
				e, d := buildTool(p.tool, p.nAPI, p.defect, newGen(opts.Seed, toolStream+uint64(i)), rates.NoSchema)
				results[i] = built{e, d}
			}
		}()
	}
	for i := range plans {
		work <- i
	}
	close(work)
	wg.Wait()

	var tools []*Tool
	var defects []Defect
	for i, p := range plans {
		tools = append(tools, p.tool)
		u.Edges = append(u.Edges, results[i].edges...)
		for _, d := range results[i].defects {
			if d.Kind == CategoryTwin {
				d.Detail = "the same name as " + p.tool.Twin.File
			}
			defects = append(defects, d)
		}
	}

	// Copies of tools in their own category.
	k := 0
	for _, p := range plans {
		if p.defect != CopyFile {
			continue
		}
		c := copyTool(p.tool, newGen(opts.Seed, copyStream+uint64(k)))
		k++
		tools = append(tools, c)
		defects = append(defects, Defect{Kind: CopyFile, File: c.File, Tool: c.Name, Detail: "an older copy of " + p.tool.File})
		for _, a := range c.APIs {
			if !a.HasSchema() {
				defects = append(defects, Defect{Kind: NoSchema, File: c.File, Tool: c.Name, API: a.Name, Detail: "as in " + p.tool.File})
			}
		}
	}

	// Files that are not tools.
	for _, kind := range []string{MalformedJSON, NotObject, EmptyFile} {
		for range nMalformed[kind] {
			t := malformedFile(kind, u.Categories[g.r.IntN(len(u.Categories))], newGen(opts.Seed, extraStream+uint64(len(tools))), taken)
			tools = append(tools, t)
			defects = append(defects, Defect{Kind: kind, File: t.File, Detail: malformedDetail[kind]})
		}
	}

	sort.SliceStable(tools, func(i, j int) bool { return tools[i].File < tools[j].File })
	u.Tools = tools
	sort.SliceStable(defects, func(i, j int) bool {
		if defects[i].File != defects[j].File {
			return defects[i].File < defects[j].File
		}
		return defects[i].Kind < defects[j].Kind
	})
	u.Defects = defects
	sort.SliceStable(u.Edges, func(i, j int) bool { return u.Edges[i].File < u.Edges[j].File })

	u.Queries = generateQueries(u, plans, newGen(opts.Seed, queryStream), taken)
	return u, nil
}

var malformedDetail = map[string]string{
	MalformedJSON: "truncated JSON",
	NotObject:     "a JSON array, not a tool object",
	EmptyFile:     "zero bytes",
}

// apportion splits n tools over the categories by weight, one each first.
func apportion(n, k int) []int {
	out := make([]int, k)
	total := 0
	for i := range out {
		out[i] = 1
		total += categorySpecs[i].Weight
	}
	rest := n - k
	type rem struct {
		i int
		r float64
	}
	var rems []rem
	given := 0
	for i := range out {
		share := float64(rest) * float64(categorySpecs[i].Weight) / float64(total)
		out[i] += int(share)
		given += int(share)
		rems = append(rems, rem{i, share - math.Floor(share)})
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r > rems[b].r })
	for j := 0; given < rest; j++ {
		out[rems[j%len(rems)].i]++
		given++
	}
	return out
}

// apiCount draws a tool's number of APIs: a third have one, a few dozen.
func apiCount(g gen) int {
	x := g.r.Float64()
	switch {
	case x < 0.34:
		return 1
	case x < 0.54:
		return 2
	case x < 0.68:
		return 3
	case x < 0.77:
		return 4
	case x < 0.83:
		return 5
	case x < 0.96:
		return g.between(6, 9)
	case x < 0.995:
		return g.between(10, 20)
	}
	return g.between(21, 60)
}

var nameSuffixes = []string{"API", "", "", "Data", "Live", "Pro", "Hub", "v2", "Finder", "Tracker", "Info", "Lookup", "Plus", "Now", "Central", "DB", "Search", "Scraper", "Checker", "Feed"}

// toolName invents an unused tool name for the domain.
func toolName(d *domain, g gen, taken map[string]bool) string {
	for attempt := 0; ; attempt++ {
		stem := g.pick(d.Stems)
		parts := []string{stem}
		if g.chance(0.4) {
			parts = append(parts, capitalize(d.Entities[g.r.IntN(len(d.Entities))].Many))
		}
		if s := g.pick(nameSuffixes); s != "" {
			parts = append(parts, s)
		}
		if g.chance(0.15) {
			parts = append([]string{strings.Fields(g.pick(poolCompany))[0]}, parts...)
		}
		if attempt > 3 {
			parts = append(parts, fmt.Sprint(g.between(2, 999)))
		}
		name := strings.Join(parts, " ")
		switch x := g.r.Float64(); {
		case x < 0.12:
			name = strings.ToLower(strings.ReplaceAll(name, " ", "-"))
		case x < 0.22:
			name = strings.ReplaceAll(name, " ", "")
		case x < 0.27:
			name = strings.ToLower(strings.ReplaceAll(name, " ", "_"))
		case x < 0.30:
			name = strings.ReplaceAll(name, " ", "") + g.pick([]string{".com", ".io", ".net"})
		}
		std := toolset.Standardize(name)
		if std == "" || taken[std] {
			continue
		}
		taken[std] = true
		return name
	}
}

// buildTool fills in a planned tool: its style, text, APIs, dependencies
// and its one defect, from its own random stream.
func buildTool(t *Tool, nAPI int, defect string, g gen, noSchema float64) ([]Edge, []Defect) {
	b := &builder{g: g, t: t}
	t.style = toolStyle{
		camel:      g.chance(0.3),
		idStyle:    g.r.IntN(3),
		envelope:   g.r.IntN(numEnvelopes),
		numericIDs: g.chance(0.5),
	}
	switch x := g.r.Float64(); {
	case x < 0.55:
		t.style.nameStyle = 0
	case x < 0.75:
		t.style.nameStyle = 1
	case x < 0.85:
		t.style.nameStyle = 2
	case x < 0.95:
		t.style.nameStyle = 3
	default:
		t.style.nameStyle = 4
	}
	t.style.version = g.pick([]string{"", "", "", "v1", "api", "api/v2"})
	t.Host = slug(t.Name) + ".p.rapidapi.com"
	if t.Twin != nil && defect == CategoryTwin {
		t.Host = slug(t.Name) + "-" + t.domain.Entities[0].Many + ".p.rapidapi.com"
	}
	t.Title = t.Name
	if g.chance(0.08) {
		t.Title = strings.ReplaceAll(capitalize(strings.ReplaceAll(t.Name, "-", " ")), "_", " ")
	}
	t.Description = toolDescription(t, g)
	t.productID = fmt.Sprintf("api_%08x-%04x-%04x-%04x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<16), g.r.IntN(1<<16), g.r.Uint64()&(1<<48-1))
	t.pricing = g.pick([]string{"FREE", "FREE", "FREEMIUM", "FREEMIUM", "FREEMIUM", "PAID"})
	if g.chance(0.85) {
		t.score = Obj{{"avgServiceLevel", g.between(60, 100)}, {"avgLatency", g.between(80, 9000)}, {"avgSuccessRate", g.between(40, 100)}, {"popularityScore", round(g.r.Float64()*9.9, 1)}, {"__typename", "Score"}}
	}
	t.noStdField = g.chance(0.05)

	primary := g.r.IntN(len(t.domain.Entities))
	cands := candidates(t.domain, primary, g)
	n := nAPI
	if defect == APINameTwin {
		n--
	}
	ops := pickOps(cands, n, g)
	t.nameIndex = map[string]bool{}
	for _, o := range ops {
		a := b.buildAPI(o)
		t.addAPI(a)
	}
	var defects []Defect
	if defect == APINameTwin {
		orig := t.APIs[g.r.IntN(len(t.APIs))]
		a := b.buildAPI(orig.op)
		a.Name = twinName(orig.Name, g)
		t.APIs = append(t.APIs, a) // not addAPI: the name is the defect
		defects = append(defects, Defect{Kind: APINameTwin, File: t.File, Tool: t.Name, API: a.Name, Detail: fmt.Sprintf("%q and %q standardize alike (%s)", orig.Name, a.Name, toolset.StandardizeAPIName(a.Name))})
	}
	edges := b.resolveDeps()
	for _, a := range t.APIs {
		a.code = codeSnippet(t, a)
	}

	switch defect {
	case DuplicateParam:
		defects = append(defects, injectDuplicateParam(t, g))
	case NumberDefault:
		defects = append(defects, injectNumberDefault(t, g))
	case StandardizeTwinParams:
		defects = append(defects, injectStandardizeTwins(t, g))
	case FileNameMismatch:
		name := mismatchedFileName(t, g)
		t.File = "tools/" + t.Category + "/" + name + ".json"
		defects = append(defects, Defect{Kind: FileNameMismatch, File: t.File, Tool: t.Name, Detail: fmt.Sprintf("file %q for standardized name %q", name+".json", t.StandardizedName)})
	case CategoryTwin:
		// The twin is built in parallel and may still be renamed (a
		// FileNameMismatch of its own): its file is named once every tool
		// is built.
		defects = append(defects, Defect{Kind: CategoryTwin, File: t.File, Tool: t.Name})
	}
	for i := range edges {
		edges[i].File = t.File
	}
	for _, a := range t.APIs {
		if !g.chance(noSchema) {
			continue
		}
		var detail string
		switch x := g.r.Float64(); {
		case x < 0.6:
			a.schemaMode, detail = schemaEmptyString, `schema ""`
		case x < 0.85:
			a.schemaMode, detail = schemaEmptyObject, "schema {}"
		default:
			a.schemaMode, detail = schemaMissing, "no schema member"
		}
		defects = append(defects, Defect{Kind: NoSchema, File: t.File, Tool: t.Name, API: a.Name, Detail: detail})
	}
	return edges, defects
}

// addAPI appends an API whose name standardizes unlike every other's.
func (t *Tool) addAPI(a *API) {
	for i := 2; t.nameIndex[toolset.StandardizeAPIName(a.Name)]; i++ {
		a.Name = strings.TrimSuffix(a.Name, fmt.Sprintf(" %d", i-1)) + fmt.Sprintf(" %d", i)
	}
	t.nameIndex[toolset.StandardizeAPIName(a.Name)] = true
	t.APIs = append(t.APIs, a)
}

// twinName respells an API name so that it standardizes alike.
func twinName(name string, g gen) string {
	want := toolset.StandardizeAPIName(name)
	vars := []string{
		strings.ToLower(strings.ReplaceAll(name, " ", "_")),
		strings.ReplaceAll(name, " ", "-"),
		strings.ToLower(name),
		strings.ReplaceAll(strings.ReplaceAll(capitalize(strings.ReplaceAll(name, "_", " ")), "  ", " "), "/", " "),
		name + " ",
		strings.ToUpper(name),
	}
	start := g.r.IntN(len(vars))
	for i := range vars {
		v := vars[(start+i)%len(vars)]
		if v != name && toolset.StandardizeAPIName(v) == want {
			return v
		}
	}
	panic("tbgen: no case twin for API name " + name)
}

func apiWithRequired(t *Tool, g gen) *API {
	var with []*API
	for _, a := range t.APIs {
		if len(a.Required) > 0 {
			with = append(with, a)
		}
	}
	if len(with) > 0 {
		return with[g.r.IntN(len(with))]
	}
	a := t.APIs[g.r.IntN(len(t.APIs))]
	e := t.domain.Entities[0]
	f := e.nameField()
	b := &builder{g: g, t: t}
	p := b.param(f, e)
	a.Required = append(a.Required, p)
	return a
}

func injectDuplicateParam(t *Tool, g gen) Defect {
	a := apiWithRequired(t, g)
	p := a.Required[0]
	dup := *p
	if g.chance(0.5) {
		a.Required = append(a.Required, &dup)
		return Defect{Kind: DuplicateParam, File: t.File, Tool: t.Name, API: a.Name, Param: p.Name, Detail: "twice in required_parameters"}
	}
	dup.Description = firstWords(p.Description+" (optional form)", 10)
	a.Optional = append(a.Optional, &dup)
	return Defect{Kind: DuplicateParam, File: t.File, Tool: t.Name, API: a.Name, Param: p.Name, Detail: "in required_parameters and optional_parameters"}
}

func injectNumberDefault(t *Tool, g gen) Defect {
	var nums []*Param
	var owners []*API
	for _, a := range t.APIs {
		for _, ps := range [][]*Param{a.Required, a.Optional} {
			for _, p := range ps {
				if p.Type == "NUMBER" {
					nums, owners = append(nums, p), append(owners, a)
				}
			}
		}
	}
	var p *Param
	var a *API
	if len(nums) > 0 {
		i := g.r.IntN(len(nums))
		p, a = nums[i], owners[i]
	} else {
		a = t.APIs[g.r.IntN(len(t.APIs))]
		name := "limit"
		for _, q := range append(append([]*Param{}, a.Required...), a.Optional...) {
			if toolset.Standardize(q.Name) == "limit" {
				name = "max_results"
			}
		}
		p = &Param{Name: name, Type: "NUMBER", Description: "Maximum number of results to return", field: field{Name: "limit", Kind: kInt}}
		a.Optional = append(a.Optional, p)
	}
	p.Default = []any{}
	return Defect{Kind: NumberDefault, File: t.File, Tool: t.Name, API: a.Name, Param: p.Name, Detail: "NUMBER parameter with default []"}
}

var twinBases = [][2]string{{"country", "code"}, {"start", "date"}, {"page", "size"}, {"user", "id"}, {"sort", "order"}, {"zip", "code"}, {"time", "zone"}, {"api", "version"}}

func injectStandardizeTwins(t *Tool, g gen) Defect {
	a := t.APIs[g.r.IntN(len(t.APIs))]
	stdTaken := map[string]bool{}
	for _, p := range append(append([]*Param{}, a.Required...), a.Optional...) {
		stdTaken[toolset.Standardize(p.Name)] = true
	}
	start := g.r.IntN(len(twinBases))
	var w [2]string
	for i := range twinBases {
		w = twinBases[(start+i)%len(twinBases)]
		if !stdTaken[w[0]+"_"+w[1]] && !stdTaken[w[0]+w[1]] {
			break
		}
	}
	camel := w[0] + capitalize(w[1])
	pairs := [][2]string{
		{camel, capitalize(w[0]) + capitalize(w[1])},
		{w[0] + "_" + w[1], w[0] + "-" + w[1]},
		{w[0] + "_" + w[1], w[0] + " " + w[1]},
		{camel, w[0] + w[1]},
	}
	pair := pairs[g.r.IntN(len(pairs))]
	if toolset.Standardize(pair[0]) != toolset.Standardize(pair[1]) {
		panic("tbgen: parameter twins " + pair[0] + " and " + pair[1] + " standardize differently")
	}
	label := w[0] + " " + w[1]
	a.Required = append(a.Required,
		&Param{Name: pair[0], Type: "STRING", Description: "The " + label + " to use", Default: "", field: field{Name: pair[0], Kind: kWord}},
		&Param{Name: pair[1], Type: "STRING", Description: capitalize(label) + " (legacy spelling, same meaning)", Default: "", field: field{Name: pair[1], Kind: kWord}})
	return Defect{Kind: StandardizeTwinParams, File: t.File, Tool: t.Name, API: a.Name, Param: pair[0] + "," + pair[1], Detail: fmt.Sprintf("both standardize to %s", toolset.Standardize(pair[0]))}
}

// mismatchedFileName is a file name other than the standardized one.
func mismatchedFileName(t *Tool, g gen) string {
	std := t.StandardizedName
	vars := []string{
		t.Name,
		strings.ReplaceAll(std, "_", "-"),
		strings.ToUpper(std[:1]) + std[1:],
		strings.ReplaceAll(capitalize(strings.ReplaceAll(std, "_", " ")), " ", "") + "API",
	}
	start := g.r.IntN(len(vars))
	for i := range vars {
		v := strings.NewReplacer("/", "_", "\\", "_", ":", "_").Replace(vars[(start+i)%len(vars)])
		if v != std && v != "" {
			return v
		}
	}
	return std + "_1"
}

// copyTool is an older copy of t: same name, terser text, one API at
// an older version.
func copyTool(t *Tool, g gen) *Tool {
	c := *t
	c.CopyOf = t
	c.File = "tools/" + t.Category + "/" + t.StandardizedName + " copy.json"
	c.Description = firstWords(t.Description, 12)
	c.APIs = make([]*API, len(t.APIs))
	for i, a := range t.APIs {
		ca := *a
		if i == 0 {
			ca.URL = strings.Replace(ca.URL, ".p.rapidapi.com/", ".p.rapidapi.com/v1/", 1)
			ca.Description = firstWords(a.Description, 8)
		}
		c.APIs[i] = &ca
	}
	c.score = nil
	if g.chance(0.5) {
		c.pricing = "FREE"
	}
	return &c
}

// malformedFile is a file in a category's folder that is not a tool.
func malformedFile(kind, category string, g gen, taken map[string]bool) *Tool {
	d := domains[g.r.IntN(len(domains))]
	t := &Tool{Category: category, domain: d, Domain: d.Key, Malformed: kind}
	t.Name = toolName(d, g, taken)
	t.StandardizedName = toolset.Standardize(t.Name)
	t.File = "tools/" + category + "/" + t.StandardizedName + ".json"
	switch kind {
	case MalformedJSON:
		inner := &Tool{Category: category, domain: d, Domain: d.Key, Name: t.Name, StandardizedName: t.StandardizedName}
		buildTool(inner, 2, "", g, 0)
		data := inner.render("    ")
		t.raw = data[:len(data)*3/5]
	case NotObject:
		inner := &Tool{Category: category, domain: d, Domain: d.Key, Name: t.Name, StandardizedName: t.StandardizedName}
		buildTool(inner, 1, "", g, 0)
		t.raw = encode([]any{inner.object()}, "    ")
	case EmptyFile:
		t.raw = []byte{}
	}
	return t
}

// codeSnippet is the Python requests example RapidAPI shows for an API.
func codeSnippet(t *Tool, a *API) string {
	var b strings.Builder
	b.WriteString("import requests\n\nurl = \"" + a.URL + "\"\n\n")
	var args []string
	for _, p := range a.Required {
		if s, ok := p.Default.(string); ok {
			args = append(args, fmt.Sprintf("%q:%q", p.Name, s))
		}
	}
	get := a.Method == "GET" || a.Method == "DELETE"
	if len(args) > 0 {
		if get {
			b.WriteString("querystring = {" + strings.Join(args, ",") + "}\n\n")
		} else {
			b.WriteString("payload = {" + strings.Join(args, ",") + "}\n")
		}
	}
	b.WriteString("headers = {\n")
	if !get {
		b.WriteString("\t\"content-type\": \"application/json\",\n")
	}
	b.WriteString("\t\"X-RapidAPI-Key\": \"SIGN-UP-FOR-KEY\",\n\t\"X-RapidAPI-Host\": \"" + t.Host + "\"\n}\n\n")
	method := strings.ToLower(a.Method)
	switch {
	case get && len(args) > 0:
		b.WriteString("response = requests." + method + "(url, headers=headers, params=querystring)")
	case !get && len(args) > 0:
		b.WriteString("response = requests." + method + "(url, json=payload, headers=headers)")
	default:
		b.WriteString("response = requests." + method + "(url, headers=headers)")
	}
	b.WriteString("\n\nprint(response.json())\n")
	return b.String()
}
