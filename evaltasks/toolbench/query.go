// Package toolbench runs ToolBench instruction files against an agent: queries solved by ReAct or DFSDT in the sandbox, scored by ToolEval's pass rate and AnyTool's revised pass rate, and API retrieval scored by NDCG.
package toolbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/sampling"
	"github.com/understudy/understudy/toolset"
)

// Query is one record of a ToolBench instruction file (G1_query.json,
// StableToolBench's solvable_queries): the user's query, the APIs offered
// to the model, and the APIs the query needs. Fields ToolBench adds to
// api_list entries (descriptions, parameters, template responses) are
// read from the catalog instead and ignored here.
type Query struct {
	ID   string   `json:"query_id"`
	Text string   `json:"query"`
	APIs []APIRef `json:"api_list"`
	// Relevant are the APIs the query needs, as [tool_name, api_name].
	Relevant []APIRef `json:"relevant APIs"`
	// Calls are our own annotation (ToolBench ignores x- keys): calls that
	// solve the query, which a test executes so every shipped query is
	// known to be solvable in the sandbox.
	Calls []Call `json:"x-calls,omitempty"`
	// Answer is our reference answer (x-answer), written as a capable
	// model would answer from the calls' results: the oracle's answer,
	// and the proof that natural answers pass the rule verdict.
	Answer string `json:"x-answer,omitempty"`
	// Group is the file the query came from without ".json" ("G1_query").
	Group string `json:"-"`
}

// APIRef names an API as ToolBench does.
type APIRef struct {
	Category string `json:"category_name,omitempty"`
	Tool     string `json:"tool_name"`
	API      string `json:"api_name"`
}

// Call is one annotated call of a query.
type Call struct {
	Tool      string         `json:"tool_name"`
	API       string         `json:"api_name"`
	Arguments map[string]any `json:"arguments"`
}

// UnmarshalJSON reads a relevant API as a [tool, api] pair or an api_list
// object.
func (r *APIRef) UnmarshalJSON(b []byte) error {
	var pair []string
	if err := json.Unmarshal(b, &pair); err == nil {
		if len(pair) != 2 {
			return fmt.Errorf("a relevant API is [tool_name, api_name], got %d names", len(pair))
		}
		r.Tool, r.API = pair[0], pair[1]
		return nil
	}
	type plain APIRef
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*r = APIRef(p)
	return nil
}

// MarshalJSON writes an api_list entry as an object.
func (r APIRef) MarshalJSON() ([]byte, error) {
	type plain APIRef
	return json.Marshal(plain(r))
}

func (r APIRef) String() string { return r.Tool + "/" + r.API }

// QueryError reports a query file or record that cannot be used.
type QueryError struct {
	File  string
	Query string // the query_id, when the record has one
	Err   error
}

func (e *QueryError) Error() string {
	if e.Query != "" {
		return fmt.Sprintf("%s: query %s: %v", e.File, e.Query, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *QueryError) Unwrap() error { return e.Err }

// ParseQueries reads one instruction file: a JSON array of queries.
// query_id may be a number (ToolBench) or a string; every record needs a
// query_id, a query and at least one relevant API, and IDs are unique.
func ParseQueries(data []byte, file string) ([]Query, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, &QueryError{File: file, Err: fmt.Errorf("not a JSON array of queries: %w", err)}
	}
	group := strings.TrimSuffix(path.Base(file), path.Ext(file))
	out := make([]Query, 0, len(raw))
	seen := map[string]bool{}
	for i, r := range raw {
		var rec struct {
			Query
			ID json.RawMessage `json:"query_id"`
		}
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.UseNumber()
		if err := dec.Decode(&rec); err != nil {
			return nil, &QueryError{File: file, Err: fmt.Errorf("record %d: %w", i, err)}
		}
		q := rec.Query
		q.Group = group
		id, err := queryID(rec.ID)
		if err != nil {
			return nil, &QueryError{File: file, Err: fmt.Errorf("record %d: %w", i, err)}
		}
		q.ID = id
		switch {
		case strings.TrimSpace(q.Text) == "":
			return nil, &QueryError{File: file, Query: id, Err: errors.New("empty query")}
		case len(q.Relevant) == 0:
			return nil, &QueryError{File: file, Query: id, Err: errors.New("no relevant APIs")}
		case seen[id]:
			return nil, &QueryError{File: file, Query: id, Err: errors.New("query_id used twice")}
		}
		seen[id] = true
		out = append(out, q)
	}
	return out, nil
}

// queryID reads query_id as text: a JSON number or string.
func queryID(raw json.RawMessage) (string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if len(raw) == 0 || dec.Decode(&v) != nil {
		return "", errors.New("no query_id")
	}
	switch x := v.(type) {
	case json.Number:
		return x.String(), nil
	case string:
		if strings.TrimSpace(x) != "" {
			return x, nil
		}
	}
	return "", fmt.Errorf("query_id %s is neither a number nor a non-empty string", raw)
}

// LoadQueries reads a query file, or every *.json file of a folder in
// name order, from fsys.
func LoadQueries(fsys fs.FS, name string) ([]Query, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	files := []string{name}
	if st.IsDir() {
		files = nil
		entries, err := fs.ReadDir(fsys, name)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
				files = append(files, path.Join(name, e.Name()))
			}
		}
		if len(files) == 0 {
			return nil, &QueryError{File: name, Err: errors.New("no *.json query files")}
		}
	}
	sort.Strings(files)
	var out []Query
	groups := map[string]string{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		qs, err := ParseQueries(data, f)
		if err != nil {
			return nil, err
		}
		for _, q := range qs {
			if prev, dup := groups[q.Group]; dup && prev != f {
				return nil, &QueryError{File: f, Err: fmt.Errorf("its group %q is also %s's", q.Group, prev)}
			}
			groups[q.Group] = f
		}
		out = append(out, qs...)
	}
	return out, nil
}

// Key is a query's key in results.jsonl: "<group>/<query_id>".
func (q *Query) Key() string { return q.Group + "/" + q.ID }

// Resolved is a query's APIs found in the catalog.
type Resolved struct {
	// Offered are the APIs the model may call (api_list, then any relevant
	// API it lacks), Relevant the APIs the query needs; both by catalog ID.
	Offered  []*toolset.API
	Relevant []*toolset.API
	// Absent are the query's APIs the catalog lacks. A query with an
	// absent relevant API cannot be scored (Resolve returns an
	// *UnresolvedError); one that lacks only other api_list entries runs
	// with the rest offered.
	Absent []Absence
	// Annotated holds the arguments of the query's annotated calls
	// (x-calls) by catalog API ID, real parameter names.
	Annotated map[string][]map[string]any
}

// Reasons an API of a query is absent from the catalog.
const (
	ReasonToolAbsent = "tool absent"
	ReasonAPIAbsent  = "API absent"
)

// Absence is one API of a query that the catalog lacks.
type Absence struct {
	Ref      APIRef `json:"ref"`
	Relevant bool   `json:"relevant"`
	// Reason is ReasonToolAbsent or ReasonAPIAbsent; Detail says what was
	// looked for and what is there instead.
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

// UnresolvedError reports a query a relevant API of which is absent from
// the catalog: nothing can score it (ToolEval's judge would find it
// unsolvable, the rules could not tell), so suites count it apart.
type UnresolvedError struct {
	Absent []Absence // the relevant ones
}

func (e *UnresolvedError) Error() string {
	parts := make([]string, len(e.Absent))
	for i, a := range e.Absent {
		parts[i] = fmt.Sprintf("relevant API %s: %s (%s)", a.Ref, a.Reason, a.Detail)
	}
	return strings.Join(parts, "; ")
}

// Reason is the query's reason: ReasonToolAbsent when a relevant tool is
// absent, else ReasonAPIAbsent.
func (e *UnresolvedError) Reason() string {
	for _, a := range e.Absent {
		if a.Reason == ReasonToolAbsent {
			return ReasonToolAbsent
		}
	}
	return ReasonAPIAbsent
}

// Resolve finds a query's APIs in the catalog; see Resolver. For many
// queries over one catalog, build one Resolver.
func (q *Query) Resolve(c *toolset.Catalog) (*Resolved, error) { return NewResolver(c).Resolve(q) }

// Resolver finds queries' APIs in a catalog as ToolBench names them. A
// tool is its category and its name: an api_list entry's tool is looked
// for in its category_name only (a name two categories hold resolves by
// category, and a tool of another category is never taken for it), by
// its name, title or standardized name in any of ToolBench's spellings
// ("Forward & Reverse Geocoding", "forward_reverse_geocoding",
// "<name>_for_<category>"). A relevant API, named [tool, api] without a
// category, takes the category of the api_list entry naming the same
// tool (and API). An API is found by its name, raw or standardized, or
// its function name "<api>_for_<tool>". Building one is linear in the
// catalog; each lookup is a few map reads.
type Resolver struct {
	c *toolset.Catalog
	// byName holds every tool under each standardized spelling of its
	// name, title and catalog name, in catalog order.
	byName map[string][]*toolset.Tool
}

// NewResolver indexes the catalog's tools by name.
func NewResolver(c *toolset.Catalog) *Resolver {
	r := &Resolver{c: c, byName: map[string][]*toolset.Tool{}}
	for _, t := range c.Tools() {
		seen := map[string]bool{}
		for _, n := range []string{t.StandardizedName, t.Name, t.Title} {
			k := toolset.Standardize(n)
			if n == "" || seen[k] {
				continue
			}
			seen[k] = true
			r.byName[k] = append(r.byName[k], t)
		}
	}
	return r
}

// Resolve finds a query's APIs. An absent relevant API makes it an
// *UnresolvedError (inside a *QueryError), returned with what was found;
// an annotated call (x-calls) that does not resolve is a *QueryError.
func (rv *Resolver) Resolve(q *Query) (*Resolved, error) {
	r := &Resolved{}
	seen := map[string]bool{}
	for _, ref := range q.APIs {
		a, abs := rv.find(ref)
		if abs != nil {
			abs.Relevant = q.isRelevant(ref)
			r.Absent = append(r.Absent, *abs)
			continue
		}
		if !seen[a.ID()] {
			seen[a.ID()] = true
			r.Offered = append(r.Offered, a)
		}
	}
	rel := map[string]bool{}
	var missing []Absence
	for _, pair := range q.Relevant {
		ref := pair
		if ref.Category == "" {
			ref.Category = q.categoryOf(pair)
		}
		a, abs := rv.find(ref)
		if abs != nil {
			abs.Relevant = true
			missing = append(missing, *abs)
			if !r.absent(ref) {
				r.Absent = append(r.Absent, *abs)
			}
			continue
		}
		if rel[a.ID()] {
			continue
		}
		rel[a.ID()] = true
		r.Relevant = append(r.Relevant, a)
		if !seen[a.ID()] {
			// The model cannot call what it is not offered; ToolBench's
			// files always list relevant APIs, so a file that does not is
			// served as if it did.
			seen[a.ID()] = true
			r.Offered = append(r.Offered, a)
		}
	}
	if len(missing) > 0 {
		return r, &QueryError{File: q.Group, Query: q.ID, Err: &UnresolvedError{Absent: missing}}
	}
	for i, call := range q.Calls {
		a, abs := rv.find(APIRef{Category: q.categoryOf(APIRef{Tool: call.Tool, API: call.API}), Tool: call.Tool, API: call.API})
		if abs != nil {
			return nil, &QueryError{File: q.Group, Query: q.ID, Err: fmt.Errorf("x-calls[%d]: %s", i, abs.Detail)}
		}
		if r.Annotated == nil {
			r.Annotated = map[string][]map[string]any{}
		}
		r.Annotated[a.ID()] = append(r.Annotated[a.ID()], call.Arguments)
	}
	return r, nil
}

// absent tells whether ref is already listed as absent.
func (r *Resolved) absent(ref APIRef) bool {
	for _, a := range r.Absent {
		if sameTool(a.Ref.Tool, ref.Tool) && sameAPI(a.Ref.API, ref.API) {
			return true
		}
	}
	return false
}

// isRelevant tells whether an api_list entry is one of the relevant APIs.
func (q *Query) isRelevant(ref APIRef) bool {
	for _, r := range q.Relevant {
		if sameTool(r.Tool, ref.Tool) && sameAPI(r.API, ref.API) {
			return true
		}
	}
	return false
}

// categoryOf is the category of the api_list entry that names the
// pair's tool and API (else the tool alone), "" when none does.
func (q *Query) categoryOf(pair APIRef) string {
	cat := ""
	for _, e := range q.APIs {
		if !sameTool(e.Tool, pair.Tool) || e.Category == "" {
			continue
		}
		if sameAPI(e.API, pair.API) {
			return e.Category
		}
		if cat == "" {
			cat = e.Category
		}
	}
	return cat
}

func sameTool(a, b string) bool { return toolset.Standardize(a) == toolset.Standardize(b) }
func sameAPI(a, b string) bool {
	return a == b || toolset.StandardizeAPIName(a) == toolset.StandardizeAPIName(b)
}

// Find resolves one reference; an absent API is an error saying why.
func (rv *Resolver) Find(ref APIRef) (*toolset.API, error) {
	a, abs := rv.find(ref)
	if abs != nil {
		return nil, fmt.Errorf("%s: %s (%s)", ref, abs.Reason, abs.Detail)
	}
	return a, nil
}

// find resolves one reference, or says why it is absent.
func (rv *Resolver) find(ref APIRef) (*toolset.API, *Absence) {
	t, detail := rv.tool(ref.Category, ref.Tool)
	if t == nil {
		return nil, &Absence{Ref: ref, Reason: ReasonToolAbsent, Detail: detail}
	}
	if a := t.API(ref.API); a != nil {
		return a, nil
	}
	if a := rv.c.APIByFunction(toolset.StandardizeAPIName(ref.API)); a != nil && a.Tool == t {
		return a, nil
	}
	names := make([]string, 0, len(t.APIs))
	for _, x := range t.APIs {
		names = append(names, x.Name)
	}
	if len(names) > 12 {
		names = append(names[:12], fmt.Sprintf("and %d more", len(t.APIs)-12))
	}
	return nil, &Absence{Ref: ref, Reason: ReasonAPIAbsent, Detail: fmt.Sprintf("tool %q of category %s has no API %q (it has %s)", ref.Tool, t.Category, ref.API, strings.Join(names, ", "))}
}

// tool finds the tool a reference names, in its category when it has
// one; otherwise it says why there is none.
func (rv *Resolver) tool(category, name string) (*toolset.Tool, string) {
	cands := rv.byName[toolset.Standardize(name)]
	if category == "" {
		if t := rv.c.Tool(name); t != nil {
			return t, ""
		}
		if len(cands) > 0 {
			return cands[0], ""
		}
		return nil, fmt.Sprintf("no tool %q in the catalog", name)
	}
	if t := rv.c.ToolIn(category, name); t != nil {
		return t, ""
	}
	cat := toolset.Standardize(category)
	var elsewhere []string
	for _, t := range cands {
		if toolset.Standardize(t.Category) == cat {
			return t, ""
		}
		elsewhere = append(elsewhere, t.Category)
	}
	if len(elsewhere) > 0 {
		return nil, fmt.Sprintf("no tool %q in category %s (%s has one of that name; ToolBench tells tools apart by category)", name, category, strings.Join(elsewhere, ", "))
	}
	return nil, fmt.Sprintf("no tool %q in category %s, nor in any other", name, category)
}

// OracleScript is the query's annotated calls and reference answer as a
// script for the oracle agent, or nil when it has none.
func (q *Query) OracleScript(rv *Resolver) (*agent.OracleScript, error) {
	if len(q.Calls) == 0 || q.Answer == "" {
		return nil, nil
	}
	s := &agent.OracleScript{Answer: q.Answer}
	for i, call := range q.Calls {
		a, abs := rv.find(APIRef{Category: q.categoryOf(APIRef{Tool: call.Tool, API: call.API}), Tool: call.Tool, API: call.API})
		if abs != nil {
			return nil, &QueryError{File: q.Group, Query: q.ID, Err: fmt.Errorf("x-calls[%d]: %s", i, abs.Detail)}
		}
		s.Steps = append(s.Steps, agent.OracleStep{Name: toolset.ExportName(a, toolset.NameToolBench), Arguments: call.Arguments})
	}
	return s, nil
}

// RelevantIDs are the catalog IDs of the relevant APIs.
func (r *Resolved) RelevantIDs() []string { return apiIDs(r.Relevant) }

// OfferedIDs are the catalog IDs of the offered APIs.
func (r *Resolved) OfferedIDs() []string { return apiIDs(r.Offered) }

func apiIDs(as []*toolset.API) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.ID()
	}
	return out
}

// Sample keeps at most n queries (all of them when n <= 0), chosen by the
// seed and stratified by query file and then by the category of the
// query's first API, so that a small sample keeps each file's share and,
// within it, each category's (sampling.Keep). The sample keeps the
// queries' order.
func Sample(qs []Query, n int, seed uint64) []Query {
	if n <= 0 || len(qs) <= n {
		return qs
	}
	items := make([]sampling.Item, len(qs))
	for i := range qs {
		cat := ""
		if len(qs[i].APIs) > 0 {
			cat = toolset.Standardize(qs[i].APIs[0].Category)
		}
		items[i] = sampling.Item{Key: qs[i].Key(), Strata: []string{qs[i].Group, cat}}
	}
	keep := sampling.Keep(items, n, seed)
	var out []Query
	for i, q := range qs {
		if keep[i] {
			out = append(out, q)
		}
	}
	return out
}
