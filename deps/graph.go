// Package deps is the inter-API dependency graph: edges from annotations and inferred from documentation, runtime provenance per session, and ground-truth call chains.
package deps

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// Edge says that parameter Param of API To takes a value found at Path in
// the response of API From. APIs are named by ID ("tool.api").
type Edge struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Param  string `json:"param"`
	Path   string `json:"path"`
	Opaque bool   `json:"opaque"`
	// Origin is "annotation" (x-depends) or "inferred" (from documentation).
	Origin     string  `json:"origin"`
	Confidence float64 `json:"confidence"`
	Evidence   string  `json:"evidence,omitempty"`
	// Entity names what the value is (see Entity): the same entity is
	// valid wherever it is expected, from any field that carries it.
	Entity string `json:"entity,omitempty"`
}

// Graph is the dependency graph of a catalog.
type Graph struct {
	catalog *toolset.Catalog
	apis    map[string]*toolset.API
	edges   []Edge
	into    map[string][]Edge // by dependent API
	outOf   map[string][]Edge // by source API
	// entities by name, and the entities each dependent parameter takes
	// ("api\x00param").
	entities      map[string]*Entity
	paramEntities map[string][]string
	// Skipped are the annotations left out (Options.SkipUnknownSources).
	Skipped []string
}

// Options chooses the graph's sources.
type Options struct {
	// Annotations uses the x-depends annotations (default true via Build).
	Annotations bool
	// Infer adds edges inferred from documentation for parameters that have
	// no annotation.
	Infer bool
	// MinConfidence drops inferred edges below it (default 0.6).
	MinConfidence float64
	// SkipUnknownSources leaves out an annotation naming an API the
	// catalog lacks, noting it in Graph.Skipped, instead of failing: a
	// server whose dependency checks are off (-deps-policy off) has no
	// use for the edge.
	SkipUnknownSources bool
}

// UnknownSourceError is an x-depends annotation naming an API the
// catalog does not hold: the graph cannot be built as documented.
type UnknownSourceError struct {
	API, Param string // the annotated parameter, of API ("tool.api")
	Index      int    // which of its x-depends
	Source     string // the API it names ("tool.api")
}

func (e *UnknownSourceError) Error() string {
	return fmt.Sprintf("%s: parameter %s: x-depends[%d] names %s, which is not in the catalog "+
		"(load the tool that has it with another -catalog, correct or remove the annotation, or run with -deps-policy off to leave such annotations out)",
		e.API, e.Param, e.Index, e.Source)
}

// Build makes the graph of a catalog: annotations, plus inference for
// parameters without them. An annotation naming an unknown API is an error.
func Build(c *toolset.Catalog, opts Options) (*Graph, error) {
	if opts.MinConfidence == 0 {
		opts.MinConfidence = 0.6
	}
	g := &Graph{catalog: c, apis: map[string]*toolset.API{}, into: map[string][]Edge{}, outOf: map[string][]Edge{}}
	for _, a := range c.APIs() {
		g.apis[a.ID()] = a
	}
	annotated := map[string]bool{} // "to\x00param"
	if opts.Annotations {
		for _, a := range c.APIs() {
			for _, p := range a.Params {
				for i, d := range p.Depends {
					toolName := d.Tool
					if toolName == "" {
						toolName = a.Tool.StandardizedName
					}
					src := c.API(toolName, d.API)
					if src == nil {
						err := &UnknownSourceError{API: a.ID(), Param: p.Name, Index: i, Source: toolName + "." + d.API}
						if !opts.SkipUnknownSources {
							return nil, err
						}
						g.Skipped = append(g.Skipped, err.Error())
						continue
					}
					g.add(Edge{From: src.ID(), To: a.ID(), Param: p.Name, Path: d.Path, Opaque: p.Opaque, Origin: "annotation", Confidence: 1})
					annotated[a.ID()+"\x00"+p.Name] = true
				}
			}
		}
	}
	if opts.Infer {
		for _, e := range Infer(c) {
			if annotated[e.To+"\x00"+e.Param] || e.Confidence < opts.MinConfidence {
				continue
			}
			g.add(e)
		}
	}
	g.sort()
	g.learnEntities(newExampleDocs(c.APIs()))
	// The edges now name their entities: index them again, in order.
	g.into, g.outOf = map[string][]Edge{}, map[string][]Edge{}
	for _, e := range g.edges {
		g.into[e.To] = append(g.into[e.To], e)
		g.outOf[e.From] = append(g.outOf[e.From], e)
	}
	return g, nil
}

func (g *Graph) add(e Edge) {
	for _, old := range g.into[e.To] {
		if old.From == e.From && old.Param == e.Param {
			return
		}
	}
	g.edges = append(g.edges, e)
	g.into[e.To] = append(g.into[e.To], e)
	g.outOf[e.From] = append(g.outOf[e.From], e)
}

func (g *Graph) sort() {
	less := func(s []Edge) func(i, j int) bool {
		return func(i, j int) bool {
			a, b := s[i], s[j]
			if a.To != b.To {
				return a.To < b.To
			}
			if a.Param != b.Param {
				return a.Param < b.Param
			}
			return a.From < b.From
		}
	}
	sort.SliceStable(g.edges, less(g.edges))
	for _, m := range []map[string][]Edge{g.into, g.outOf} {
		for k := range m {
			sort.SliceStable(m[k], less(m[k]))
		}
	}
}

// Edges returns every edge, sorted by dependent API, parameter, source.
func (g *Graph) Edges() []Edge { return g.edges }

// Into returns the edges into an API (its dependencies).
func (g *Graph) Into(apiID string) []Edge { return g.into[apiID] }

// OutOf returns the edges out of an API (what depends on it).
func (g *Graph) OutOf(apiID string) []Edge { return g.outOf[apiID] }

// API returns the catalog API of an ID.
func (g *Graph) API(id string) *toolset.API { return g.apis[id] }

// Pair is one (source API, dependent API) pair.
type Pair struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Pairs returns the distinct (source, dependent) pairs, sorted.
func (g *Graph) Pairs() []Pair {
	seen := map[Pair]bool{}
	var out []Pair
	for _, e := range g.edges {
		p := Pair{e.From, e.To}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].From != out[j].From {
			return out[i].From < out[j].From
		}
		return out[i].To < out[j].To
	})
	return out
}

// Dependent returns the IDs of APIs with at least one dependency, sorted.
func (g *Graph) Dependent() []string {
	var out []string
	for id := range g.into {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// document is the JSON served at GET /v1/deps.
type document struct {
	Nodes    []string `json:"nodes"`
	Edges    []Edge   `json:"edges"`
	Pairs    []Pair   `json:"pairs"`
	Entities []Entity `json:"entities"`
}

// WriteJSON writes the graph as JSON: nodes (APIs with an edge), edges,
// pairs, and entities with the fields that carry them.
func (g *Graph) WriteJSON(w io.Writer) error {
	nodes := map[string]bool{}
	for _, e := range g.edges {
		nodes[e.From], nodes[e.To] = true, true
	}
	doc := document{Edges: g.edges, Pairs: g.Pairs(), Entities: g.Entities()}
	if doc.Edges == nil {
		doc.Edges = []Edge{}
	}
	for n := range nodes {
		doc.Nodes = append(doc.Nodes, n)
	}
	sort.Strings(doc.Nodes)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// WriteDOT writes the graph in Graphviz DOT: one cluster per tool, an edge
// per (source, dependent, parameter), dashed when inferred.
func (g *Graph) WriteDOT(w io.Writer) error {
	var b strings.Builder
	b.WriteString("digraph deps {\n  rankdir=LR;\n  node [shape=box, fontname=\"Helvetica\"];\n")
	byTool := map[string][]string{}
	for _, e := range g.edges {
		for _, id := range []string{e.From, e.To} {
			tool, _, _ := strings.Cut(id, ".")
			byTool[tool] = appendUnique(byTool[tool], id)
		}
	}
	tools := make([]string, 0, len(byTool))
	for t := range byTool {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	for _, t := range tools {
		fmt.Fprintf(&b, "  subgraph %q {\n    label=%q;\n", "cluster_"+t, t)
		ids := byTool[t]
		sort.Strings(ids)
		for _, id := range ids {
			fmt.Fprintf(&b, "    %q;\n", id)
		}
		b.WriteString("  }\n")
	}
	for _, e := range g.edges {
		style := ""
		if e.Origin != "annotation" {
			style = ", style=dashed"
		}
		fmt.Fprintf(&b, "  %q -> %q [label=%q%s];\n", e.From, e.To, e.Param+" ← "+e.Path, style)
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func appendUnique(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}
