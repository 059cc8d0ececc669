package toolset

import (
	"sort"
)

// DependencyEdge is one parameter's x-depends entry, resolved against the catalog.
type DependencyEdge struct {
	Source   string `json:"source"` // API ID supplying the value ("tool.api")
	Target   string `json:"target"` // API ID taking it
	Param    string `json:"param"`  // the target's parameter
	Path     string `json:"path"`   // where in the source's response
	Resolved bool   `json:"resolved"`
}

// Dependencies lists every x-depends entry of every parameter, in catalog
// order. An entry whose source API is not in the catalog has Resolved false
// and Source spelt as written.
func (c *Catalog) Dependencies() []DependencyEdge {
	var out []DependencyEdge
	for _, a := range c.APIs() {
		for _, p := range a.Params {
			for _, d := range p.Depends {
				tool := d.Tool
				if tool == "" && a.Tool != nil {
					tool = a.Tool.StandardizedName
				}
				e := DependencyEdge{Target: a.ID(), Param: p.Name, Path: d.Path, Source: tool + "." + d.API}
				if src := c.API(tool, d.API); src != nil {
					e.Source, e.Resolved = src.ID(), true
				}
				out = append(out, e)
			}
		}
	}
	return out
}

// DependencyPairs returns the distinct resolved (source API, dependent API)
// pairs, sorted.
func (c *Catalog) DependencyPairs() [][2]string {
	seen := map[[2]string]bool{}
	var out [][2]string
	for _, e := range c.Dependencies() {
		k := [2]string{e.Source, e.Target}
		if e.Resolved && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

// Groups maps each coherent group (x-group) to its API IDs, sorted.
func (c *Catalog) Groups() map[string][]string {
	out := map[string][]string{}
	for _, a := range c.APIs() {
		for _, g := range a.Groups {
			out[g] = append(out[g], a.ID())
		}
	}
	for _, ids := range out {
		sort.Strings(ids)
	}
	return out
}

// CatalogDoc is the catalog as served at GET /v1/catalog.
type CatalogDoc struct {
	Tools        int              `json:"tools"`
	APIs         int              `json:"apis"`
	Categories   []CategoryDoc    `json:"categories"`
	Groups       []GroupDoc       `json:"groups"`
	Dependencies []DependencyEdge `json:"dependencies"`
}

// CategoryDoc is one category of a CatalogDoc.
type CategoryDoc struct {
	Name  string    `json:"name"`
	Tools []ToolDoc `json:"tools"`
}

// ToolDoc is one tool of a CatalogDoc.
type ToolDoc struct {
	Name             string   `json:"name"`
	StandardizedName string   `json:"standardized_name"`
	Title            string   `json:"title,omitempty"`
	Description      string   `json:"description,omitempty"`
	Host             string   `json:"host,omitempty"`
	Scenario         string   `json:"scenario,omitempty"`
	Origin           string   `json:"origin,omitempty"`
	APIs             []APIDoc `json:"apis"`
	Notes            []string `json:"notes,omitempty"`
}

// APIDoc is one API of a CatalogDoc; Parameters is its InputSchema.
type APIDoc struct {
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	Function       string         `json:"function"` // ToolBench's "<api>_for_<tool>"
	Description    string         `json:"description,omitempty"`
	Method         string         `json:"method"`
	Path           string         `json:"path,omitempty"`
	URL            string         `json:"url,omitempty"`
	Parameters     map[string]any `json:"parameters"`
	Params         []ParamDoc     `json:"params"`
	ResponseSchema map[string]any `json:"response_schema,omitempty"`
	HasExample     bool           `json:"has_example_response"`
	Groups         []string       `json:"groups,omitempty"`
	DependsOn      []string       `json:"depends_on,omitempty"` // source API IDs
}

// ParamDoc is one parameter of an APIDoc.
type ParamDoc struct {
	Name        string       `json:"name"`
	Kind        Kind         `json:"kind"`
	In          Location     `json:"in"`
	Required    bool         `json:"required"`
	Description string       `json:"description,omitempty"`
	Default     any          `json:"default,omitempty"`
	Enum        []any        `json:"enum,omitempty"`
	Format      string       `json:"format,omitempty"`
	Opaque      bool         `json:"opaque,omitempty"`
	Depends     []Dependency `json:"depends,omitempty"`
}

// GroupDoc is one coherent group of a CatalogDoc.
type GroupDoc struct {
	Name string   `json:"name"`
	APIs []string `json:"apis"`
}

// CatalogDocument describes the whole catalog: categories → tools → APIs
// with parameter schemas, then groups and dependencies. Everything is in a
// fixed order, so equal catalogs encode to equal bytes.
func CatalogDocument(c *Catalog) *CatalogDoc {
	doc := &CatalogDoc{Categories: []CategoryDoc{}, Groups: []GroupDoc{}, Dependencies: c.Dependencies()}
	if doc.Dependencies == nil {
		doc.Dependencies = []DependencyEdge{}
	}
	sources := map[string][]string{}
	for _, p := range c.DependencyPairs() {
		sources[p[1]] = append(sources[p[1]], p[0])
	}
	for _, cat := range c.Categories {
		cd := CategoryDoc{Name: cat.Name, Tools: []ToolDoc{}}
		for _, t := range cat.Tools {
			td := ToolDoc{Name: t.Name, StandardizedName: t.StandardizedName, Title: t.Title, Description: t.Description,
				Host: t.Host, Scenario: t.Scenario, Origin: t.Origin, APIs: []APIDoc{}, Notes: t.Notes}
			for _, a := range t.APIs {
				ad := APIDoc{ID: a.ID(), Name: a.Name, Function: a.FunctionName(), Description: a.Description, Method: a.Method,
					Path: a.Path, URL: a.URL, Parameters: a.InputSchema(), Params: []ParamDoc{}, HasExample: len(a.ExampleResponse) > 0,
					Groups: a.Groups, DependsOn: sources[a.ID()]}
				if rs := a.Response(); rs != nil {
					ad.ResponseSchema = JSONSchema(rs)
				}
				for _, p := range a.Params {
					ad.Params = append(ad.Params, ParamDoc{Name: p.Name, Kind: p.Kind, In: p.In, Required: p.Required, Description: p.Description,
						Default: p.Default, Enum: p.Enum, Format: p.Format, Opaque: p.Opaque, Depends: p.Depends})
				}
				td.APIs = append(td.APIs, ad)
				doc.APIs++
			}
			cd.Tools = append(cd.Tools, td)
			doc.Tools++
		}
		doc.Categories = append(doc.Categories, cd)
	}
	groups := c.Groups()
	names := make([]string, 0, len(groups))
	for g := range groups {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		doc.Groups = append(doc.Groups, GroupDoc{Name: g, APIs: groups[g]})
	}
	return doc
}
