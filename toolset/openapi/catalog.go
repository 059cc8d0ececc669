package openapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/understudy/understudy/toolset"
)

// catalogToolKey is the extension of a tool's tag in Document that
// holds what the operations cannot say of their tool, so that loading the
// document gives the catalog back (LoadTools).
const catalogToolKey = "x-understudy-tool"

// exportedTool is the x-understudy-tool of a tool's tag.
type exportedTool struct {
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	Category    string   `json:"category"`
	Scenario    string   `json:"scenario,omitempty"`
	Origin      string   `json:"origin,omitempty"`
	Host        string   `json:"host,omitempty"`
	Validation  string   `json:"validation"`
	Credentials []string `json:"credentials,omitempty"`
	// APIs are the tool's API names in the catalog's order (the
	// document orders operations by path).
	APIs       []string `json:"apis"`
	DepsPolicy string   `json:"deps_policy,omitempty"`
	// Builtin marks an export of a built-in tool: loaded back, its
	// stand-in answers it, as before the trip.
	Builtin      bool             `json:"builtin,omitempty"`
	InvalidValue *toolset.Refusal `json:"invalid_value,omitempty"`
}

func exportedToolOf(t *toolset.Tool) exportedTool {
	e := exportedTool{Name: t.Name, Title: t.Title, Description: t.Description, Category: t.Category, Scenario: t.Scenario,
		Origin: t.Origin, Host: t.Host, Validation: string(t.Validation()), Credentials: t.Credentials, InvalidValue: t.InvalidValue}
	for _, a := range t.APIs {
		e.APIs = append(e.APIs, a.Name)
	}
	e.DepsPolicy, e.Builtin = t.DepsPolicy, t.Builtin
	if t.Builtin && e.DepsPolicy == "" {
		e.DepsPolicy = "enforce" // what a built-in tool gets by default
	}
	return e
}

// paramExtensions are the x- keys a parameter (or body property) carries
// in the export, over ext (a schema's own, kept), or nil for none.
func paramExtensions(p *toolset.Param, ext map[string]any) map[string]any {
	out := maps.Clone(ext)
	set := func(k string, v any) {
		if out == nil {
			out = map[string]any{}
		}
		out[k] = v
	}
	if len(p.Depends) > 0 {
		set("x-depends", p.Depends)
	}
	if p.Opaque {
		set("x-opaque", true)
	}
	if p.CaseInsensitive {
		set("x-case-insensitive", true)
	}
	return out
}

// LoadTools loads an OpenAPI 3 document as tools: one tool, named
// by info.title (Load), or — for a catalog as Document (GET
// /v1/tools?format=openapi) writes it, whose tool tags carry
// x-understudy-tool — every tool of that catalog with its category, names,
// paths, parameters, dependencies, groups and refusals, so that the
// export loads back as the catalog it came from.
func LoadTools(data []byte, source string) ([]*toolset.Tool, error) {
	doc, err := loadOpenAPIDoc(data, source)
	if err != nil {
		return nil, err
	}
	if !isCatalogDocument(doc) {
		t, err := openAPITool(doc, source)
		if err != nil {
			return nil, err
		}
		return []*toolset.Tool{t}, nil
	}
	return catalogTools(doc, source)
}

// isCatalogDocument tells an export of a catalog: a tag carries
// x-understudy-tool.
func isCatalogDocument(doc *openapi3.T) bool {
	for _, tag := range doc.Tags {
		if tag != nil && tag.Extensions[catalogToolKey] != nil {
			return true
		}
	}
	return false
}

// catalogTools splits a catalog document into one document per tool (its
// operations, its own security schemes) and reads each as Load
// does, then restores what the tag and operations record of the tool.
func catalogTools(doc *openapi3.T, source string) ([]*toolset.Tool, error) {
	meta := map[string]exportedTool{}
	var order []string
	for i, tag := range doc.Tags {
		raw, ok := tag.Extensions[catalogToolKey]
		if !ok {
			continue
		}
		b, err := json.Marshal(raw)
		var e exportedTool
		if err == nil {
			err = json.Unmarshal(b, &e)
		}
		if err != nil || e.Name == "" || e.Category == "" {
			return nil, &toolset.LoadError{File: source, Field: fmt.Sprintf("tags[%d].%s", i, catalogToolKey), Err: fmt.Errorf("want {\"name\", \"category\", ...}: %v", err)}
		}
		meta[tag.Name] = e
		order = append(order, tag.Name)
	}
	subs := map[string]*openapi3.T{}
	for _, p := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(p)
		for method, op := range item.Operations() {
			tool, _, ok := strings.Cut(op.OperationID, ".")
			if _, known := meta[tool]; !ok || !known {
				return nil, &toolset.LoadError{File: source, Field: "paths." + p + "." + strings.ToLower(method) + ".operationId",
					Err: fmt.Errorf("%q is not <tool>.<api> of a tool tagged with %s", op.OperationID, catalogToolKey)}
			}
			sub := subs[tool]
			if sub == nil {
				sub = &openapi3.T{OpenAPI: doc.OpenAPI, Info: &openapi3.Info{Title: meta[tool].Name, Version: doc.Info.Version},
					Paths: openapi3.NewPaths(), Components: toolComponents(doc, tool)}
				subs[tool] = sub
			}
			si := sub.Paths.Value(p)
			if si == nil {
				si = &openapi3.PathItem{Parameters: item.Parameters}
				sub.Paths.Set(p, si)
			}
			cp := *op
			cp.Security = toolSecurity(op.Security, tool)
			si.SetOperation(method, &cp)
		}
	}
	var tools []*toolset.Tool
	for _, name := range order {
		sub := subs[name]
		if sub == nil {
			// A tool without APIs has no operation, only its tag.
			sub = &openapi3.T{OpenAPI: doc.OpenAPI, Info: &openapi3.Info{Title: meta[name].Name}, Paths: openapi3.NewPaths()}
		}
		t, err := openAPITool(sub, source)
		if err != nil {
			return nil, err
		}
		if err := restoreTool(t, name, meta[name], sub, source); err != nil {
			return nil, err
		}
		tools = append(tools, t)
	}
	return tools, nil
}

// toolComponents are the document's components with only the security
// schemes of tool ("<tool>.<scheme>", named <scheme> again): the
// X-RapidAPI-Key scheme every operation of the export names is the
// wire's, not the tool's.
func toolComponents(doc *openapi3.T, tool string) *openapi3.Components {
	if doc.Components == nil {
		return nil
	}
	c := *doc.Components
	c.SecuritySchemes = openapi3.SecuritySchemes{}
	for name, s := range doc.Components.SecuritySchemes {
		if own, ok := strings.CutPrefix(name, tool+"."); ok {
			c.SecuritySchemes[own] = s
		}
	}
	return &c
}

// toolSecurity is an operation's security without the wire's key, its
// schemes named as its tool declared them; nil when none is left.
func toolSecurity(reqs *openapi3.SecurityRequirements, tool string) *openapi3.SecurityRequirements {
	if reqs == nil {
		return nil
	}
	var out openapi3.SecurityRequirements
	for _, req := range *reqs {
		own := openapi3.SecurityRequirement{}
		for name, scopes := range req {
			if n, ok := strings.CutPrefix(name, tool+"."); ok {
				own[n] = scopes
			}
		}
		if len(own) > 0 {
			out = append(out, own)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return &out
}

// restoreTool gives a tool read from its part of a catalog document what
// the export recorded: its names, category and host, each API's name,
// path, URL, description and refusal, the catalog's API order.
func restoreTool(t *toolset.Tool, std string, e exportedTool, sub *openapi3.T, source string) error {
	t.Name, t.Title, t.Description, t.StandardizedName = e.Name, e.Title, e.Description, std
	t.Category, t.Scenario, t.Origin, t.Host = e.Category, e.Scenario, e.Origin, e.Host
	t.Credentials, t.InvalidValue, t.DepsPolicy, t.Builtin = e.Credentials, e.InvalidValue, e.DepsPolicy, e.Builtin
	if mode, err := toolset.ParseValidationMode(e.Validation); err == nil {
		t.SetValidation(mode)
	}
	ops := map[*toolset.API]*openapi3.Operation{}
	i := 0
	// openAPITool read the operations in sorted path order, each path's
	// in httpMethods order: walk them the same way.
	paths := sub.Paths.Keys()
	slices.Sort(paths)
	for _, p := range paths {
		item := sub.Paths.Value(p)
		for _, m := range httpMethods {
			if op := item.GetOperation(m); op != nil {
				ops[t.APIs[i]] = op
				i++
			}
		}
	}
	for a, op := range ops {
		_, name, _ := strings.Cut(op.OperationID, ".")
		a.Name = name
		a.Description = op.Description
		if s := extString(op.Extensions, "x-original-path"); s != "" || op.Extensions["x-original-path"] != nil {
			a.Path = s
		}
		a.URL = extString(op.Extensions, "x-url")
		if raw, ok := op.Extensions["x-template-response"]; ok {
			b, err := json.Marshal(raw)
			if err != nil {
				return &toolset.LoadError{File: source, Field: "x-template-response", Err: err}
			}
			a.TemplateResponse = b
		}
		if raw, ok := op.Extensions["x-invalid-value"]; ok {
			b, err := json.Marshal(raw)
			if err != nil {
				return &toolset.LoadError{File: source, Field: "x-invalid-value", Err: err}
			}
			r, err := toolset.ParseRefusal(b, "x-invalid-value", source)
			if err != nil {
				return err
			}
			a.InvalidValue = r
		}
		caseFolded(a, op)
		if len(a.ExampleResponse) == 0 {
			a.ExampleResponse = offSchemaExample(op)
		}
		if order, err := stringOrStrings(op.Extensions["x-param-order"]); err == nil && len(order) > 0 {
			at := map[string]int{}
			for i, n := range order {
				at[n] = i
			}
			slices.SortStableFunc(a.Params, func(x, y *toolset.Param) int { return at[x.Name] - at[y.Name] })
		}
	}
	pos := map[string]int{}
	for i, n := range e.APIs {
		pos[n] = i
	}
	slices.SortStableFunc(t.APIs, func(x, y *toolset.API) int { return pos[x.Name] - pos[y.Name] })
	return nil
}

// caseFolded reads x-case-insensitive on an operation's parameters and
// body properties.
func caseFolded(a *toolset.API, op *openapi3.Operation) {
	flag := func(ext map[string]any) bool { v, _ := ext["x-case-insensitive"].(bool); return v }
	for _, pr := range op.Parameters {
		if pr.Value != nil && flag(pr.Value.Extensions) {
			if p := a.Param(pr.Value.Name); p != nil {
				p.CaseInsensitive = true
			}
		}
	}
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return
	}
	if mt := pickMedia(op.RequestBody.Value.Content); mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
		for name, sr := range mt.Schema.Value.Properties {
			if sr.Value != nil && flag(sr.Value.Extensions) {
				if p := a.Param(name); p != nil {
					p.CaseInsensitive = true
				}
			}
		}
	}
}

// offSchemaExample is the example the export kept as x-example beside a
// response schema it does not match.
func offSchemaExample(op *openapi3.Operation) json.RawMessage {
	if op.Responses == nil {
		return nil
	}
	rr := pickResponse(op.Responses)
	if rr == nil || rr.Value == nil {
		return nil
	}
	mt := pickMedia(rr.Value.Content)
	if mt == nil {
		return nil
	}
	raw, ok := mt.Extensions["x-example"]
	if !ok {
		return nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	return b
}
