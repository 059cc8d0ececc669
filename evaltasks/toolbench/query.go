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
	// Annotated holds the arguments of the query's annotated calls
	// (x-calls) by catalog API ID, real parameter names.
	Annotated map[string][]map[string]any
}

// Resolve finds a query's APIs in the catalog. A tool is found by its
// tool_name, title or standardized name (within its category when two
// categories hold one of that name), an API by its name.
func (q *Query) Resolve(c *toolset.Catalog) (*Resolved, error) {
	r := &Resolved{}
	seen := map[string]bool{}
	for i, ref := range q.APIs {
		a, err := findAPI(c, ref)
		if err != nil {
			return nil, &QueryError{File: q.Group, Query: q.ID, Err: fmt.Errorf("api_list[%d]: %w", i, err)}
		}
		if !seen[a.ID()] {
			seen[a.ID()] = true
			r.Offered = append(r.Offered, a)
		}
	}
	rel := map[string]bool{}
	for i, ref := range q.Relevant {
		a, err := findAPI(c, ref)
		if err != nil {
			return nil, &QueryError{File: q.Group, Query: q.ID, Err: fmt.Errorf("relevant APIs[%d]: %w", i, err)}
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
	for i, call := range q.Calls {
		a, err := findAPI(c, APIRef{Tool: call.Tool, API: call.API})
		if err != nil {
			return nil, &QueryError{File: q.Group, Query: q.ID, Err: fmt.Errorf("x-calls[%d]: %w", i, err)}
		}
		if r.Annotated == nil {
			r.Annotated = map[string][]map[string]any{}
		}
		r.Annotated[a.ID()] = append(r.Annotated[a.ID()], call.Arguments)
	}
	return r, nil
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

// findAPI resolves one ToolBench API reference.
func findAPI(c *toolset.Catalog, ref APIRef) (*toolset.API, error) {
	t := findTool(c, ref.Category, ref.Tool)
	if t == nil {
		return nil, fmt.Errorf("no tool %q in the catalog", ref.Tool)
	}
	a := t.API(ref.API)
	if a == nil {
		names := make([]string, len(t.APIs))
		for i, x := range t.APIs {
			names[i] = x.Name
		}
		return nil, fmt.Errorf("tool %q has no API %q (it has %s)", ref.Tool, ref.API, strings.Join(names, ", "))
	}
	return a, nil
}

func findTool(c *toolset.Catalog, category, name string) *toolset.Tool {
	var match *toolset.Tool
	for _, t := range c.Tools() {
		if !strings.EqualFold(t.Name, name) && !strings.EqualFold(t.Title, name) && t.StandardizedName != name && t.StandardizedName != toolset.Standardize(name) {
			continue
		}
		if category == "" || strings.EqualFold(t.Category, category) {
			return t
		}
		if match == nil {
			match = t
		}
	}
	return match
}

// OracleScript is the query's annotated calls and reference answer as a
// script for the oracle agent, or nil when it has none.
func (q *Query) OracleScript(c *toolset.Catalog) (*agent.OracleScript, error) {
	if len(q.Calls) == 0 || q.Answer == "" {
		return nil, nil
	}
	s := &agent.OracleScript{Answer: q.Answer}
	for i, call := range q.Calls {
		a, err := findAPI(c, APIRef{Tool: call.Tool, API: call.API})
		if err != nil {
			return nil, &QueryError{File: q.Group, Query: q.ID, Err: fmt.Errorf("x-calls[%d]: %w", i, err)}
		}
		s.Steps = append(s.Steps, agent.OracleStep{Name: toolset.ExportName(a, toolset.NameToolBench), Arguments: call.Arguments})
	}
	return s, nil
}
