package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/internal/readkit"
)

// Document describes the whole catalog as one OpenAPI 3.0.3
// document that passes kin-openapi's doc.Validate. Each API is one
// operation:
//   - path "/<tool><api path>", the tool's standardized name in front so
//     that tools sharing a path ("/search") stay apart; when two APIs of a
//     tool still share method and path, "/<api>" is appended. Path template
//     variables with no path parameter are spelt literally, and path
//     parameters missing from the template are appended as "/{name}";
//   - operationId is the API's ID, "<tool>.<api>"; tags are its category
//     and tool; x-rapidapi-host and x-original-path keep the real address;
//   - query, path and header parameters by location, body parameters as
//     the properties of one JSON request body;
//   - a 200 JSON response with the response schema and example. A schema
//     kin-openapi rejects is replaced by an empty one (any value) and an
//     example that does not match its schema is kept as x-example.
func Document(c *toolset.Catalog) *openapi3.T { return openAPIDocument(c.Tools(), true) }

// Requests is Document without what an operation answers:
// each one's 200 response has no content. Checking a request needs no
// more, and it spares parsing every API's response schema (see
// API.Response) and example.
func Requests(c *toolset.Catalog) *openapi3.T { return openAPIDocument(c.Tools(), false) }

func openAPIDocument(tools []*toolset.Tool, responses bool) *openapi3.T {
	doc := &openapi3.T{
		OpenAPI: "3.0.3",
		Info: &openapi3.Info{
			Title:       "Understudy catalog",
			Description: "Every tool of the catalog; operationId is \"<tool>.<api>\".",
			Version:     "1.0.0",
		},
		Paths: openapi3.NewPaths(),
	}
	tags := map[string]string{}
	declared := map[*openapi3.Operation]*toolset.API{} // operations whose source declares security
	for _, t := range tools {
		tags[t.Category] = "Category " + t.Category
		tags[t.StandardizedName] = readkit.FirstNonEmpty(readkit.Cut(t.Description, 1024), "Tool "+t.Name)
		paths := Paths(t)
		for i, a := range t.APIs {
			p := paths[i]
			item := doc.Paths.Value(p)
			if item == nil {
				item = &openapi3.PathItem{}
				doc.Paths.Set(p, item)
			}
			op := exportOperation(a, responses)
			item.SetOperation(exportMethod(a.Method), op)
			if responses && len(a.Security) > 0 {
				declared[op] = a
			}
		}
	}
	toolTags := map[string]*toolset.Tool{}
	for _, t := range tools {
		toolTags[t.StandardizedName] = t
	}
	for _, name := range slices.Sorted(maps.Keys(tags)) {
		tag := &openapi3.Tag{Name: name, Description: tags[name]}
		if t := toolTags[name]; t != nil && responses {
			tag.Extensions = map[string]any{catalogToolKey: exportedToolOf(t)}
		}
		doc.Tags = append(doc.Tags, tag)
	}
	if responses {
		// What linters (Redocly's recommended rules) and generated clients
		// expect of a whole document: where it is served, and how its
		// operations authenticate.
		doc.Servers = openapi3.Servers{{URL: DefaultServerURL, Description: "the tool server (toolserver's default address)"}}
		doc.Components = &openapi3.Components{SecuritySchemes: openapi3.SecuritySchemes{
			RapidAPIKeyScheme: &openapi3.SecuritySchemeRef{Value: &openapi3.SecurityScheme{
				Type: "apiKey", In: "header", Name: "X-RapidAPI-Key",
				Description: "RapidAPI's key header, which real clients send; the sandbox accepts any value and never stores it.",
			}},
		}}
		doc.Security = openapi3.SecurityRequirements{{RapidAPIKeyScheme: []string{}}}
		// The security an imported API's source declares, always
		// documented (toolserver -enforce-security enforces it): each
		// scheme under "<tool>.<scheme>", each alternative beside the key.
		for op, a := range declared {
			var reqs openapi3.SecurityRequirements
			for _, alt := range a.Security {
				req := openapi3.SecurityRequirement{RapidAPIKeyScheme: []string{}}
				for _, cr := range alt {
					name := a.Tool.StandardizedName + "." + cr.Scheme
					scheme := &openapi3.SecurityScheme{Type: "http", Scheme: "bearer"}
					if cr.Type == toolset.CredentialAPIKey {
						scheme = &openapi3.SecurityScheme{Type: "apiKey", In: cr.In, Name: cr.Name}
					}
					doc.Components.SecuritySchemes[name] = &openapi3.SecuritySchemeRef{Value: scheme}
					req[name] = []string{}
				}
				reqs = append(reqs, req)
			}
			op.Security = &reqs
		}
	}
	return doc
}

// Paths is the path of each of a tool's APIs (in t.APIs' order) in
// Document: "/<tool>" then the API's path as OpenAPI can write it.
// The tool server serves every API at this path too, beside its own, so
// that a client generated from the document calls it as written.
func Paths(t *toolset.Tool) []string {
	used := map[string]bool{}
	out := make([]string, len(t.APIs))
	for i, a := range t.APIs {
		out[i] = exportPath(a, used)
	}
	return out
}

// DefaultServerURL is the servers entry of Document; the tool
// server's GET /v1/tools?format=openapi names the address it was asked at.
const DefaultServerURL = "http://127.0.0.1:8080"

// RapidAPIKeyScheme names the security scheme of Document's
// operations: the X-RapidAPI-Key header.
const RapidAPIKeyScheme = "RapidAPIKey"

// exportMethod maps an API's method onto one OpenAPI 3.0 knows; anything
// else is POST.
func exportMethod(m string) string {
	m = strings.ToUpper(m)
	for _, known := range httpMethods {
		if m == known {
			return m
		}
	}
	return "POST"
}

func exportPath(a *toolset.API, used map[string]bool) string {
	declared := map[string]bool{}
	for _, p := range a.Params {
		if p.In == toolset.InPath {
			declared[p.Name] = true
		}
	}
	path := a.Path
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	inTemplate := map[string]bool{}
	path = readkit.PathTemplate.ReplaceAllStringFunc(path, func(m string) string {
		name := m[1 : len(m)-1]
		if declared[name] && !inTemplate[name] {
			inTemplate[name] = true
			return m
		}
		return name
	})
	path = cleanLiterals(path)
	for _, p := range a.Params {
		if p.In == toolset.InPath && !inTemplate[p.Name] {
			path = strings.TrimRight(path, "/") + "/{" + p.Name + "}"
			inTemplate[p.Name] = true
		}
	}
	tool := "tool"
	if a.Tool != nil {
		tool = a.Tool.StandardizedName
	}
	full := "/" + tool + strings.TrimRight(path, "/")
	key := exportMethod(a.Method) + " " + templateShape(full)
	if used[key] {
		full += "/" + a.StandardizedName()
		key = exportMethod(a.Method) + " " + templateShape(full)
	}
	used[key] = true
	return full
}

// templateShape is a path with its variable names erased: two paths with
// the same shape conflict in OpenAPI.
func templateShape(p string) string {
	return readkit.PathTemplate.ReplaceAllString(p, "{}")
}

func exportOperation(a *toolset.API, responses bool) *openapi3.Operation {
	op := &openapi3.Operation{
		OperationID: a.ID(),
		Summary:     readkit.Cut(firstLine(a.Description), 120),
		Description: a.Description,
		Responses:   openapi3.NewResponses(),
		Extensions:  map[string]any{"x-original-path": a.Path},
	}
	if a.Tool != nil {
		op.Tags = []string{a.Tool.Category, a.Tool.StandardizedName}
		if a.Tool.Host != "" {
			op.Extensions["x-rapidapi-host"] = a.Tool.Host
		}
	}
	if len(a.Groups) > 0 {
		op.Extensions["x-group"] = a.Groups
	}
	if a.InvalidValue != nil {
		op.Extensions["x-invalid-value"] = a.InvalidValue
	}
	if len(a.TemplateResponse) > 0 {
		op.Extensions["x-template-response"] = a.TemplateResponse
	}
	if a.URL != "" {
		op.Extensions["x-url"] = a.URL
	}
	if len(a.Params) > 1 {
		order := make([]string, len(a.Params))
		for i, p := range a.Params {
			order[i] = p.Name
		}
		op.Extensions["x-param-order"] = order // body properties have none
	}
	body := &openapi3.Schema{Type: &openapi3.Types{"object"}, Properties: openapi3.Schemas{}}
	for _, p := range a.Params {
		s := exportSchema(p.Schema, p)
		if p.In == toolset.InBody || p.In == "" {
			if ext := paramExtensions(p, s.Extensions); ext != nil {
				cp := *s // never the catalog's own schema
				cp.Extensions = ext
				s = &cp
			}
			body.Properties[p.Name] = openapi3.NewSchemaRef("", s)
			if p.Required {
				body.Required = append(body.Required, p.Name)
			}
			continue
		}
		param := &openapi3.Parameter{Name: p.Name, In: string(p.In), Required: p.Required || p.In == toolset.InPath, Description: p.Description, Schema: openapi3.NewSchemaRef("", s)}
		param.Extensions = paramExtensions(p, nil)
		op.Parameters = append(op.Parameters, &openapi3.ParameterRef{Value: param})
	}
	if len(body.Properties) > 0 {
		op.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().
			WithRequired(len(body.Required) > 0).
			WithJSONSchema(body)}
	}
	resp := openapi3.NewResponse().WithDescription("Successful response")
	if !responses {
		op.Responses.Set("200", &openapi3.ResponseRef{Value: resp})
		return op
	}
	media := &openapi3.MediaType{Schema: openapi3.NewSchemaRef("", &openapi3.Schema{})}
	if rs := a.Response(); rs != nil {
		media.Schema = openapi3.NewSchemaRef("", typedNullables(exportSchema(rs, nil)))
	}
	if len(a.ExampleResponse) > 0 {
		var ex any
		if json.Unmarshal(a.ExampleResponse, &ex) == nil {
			if media.Schema.Value.IsMatching(ex) {
				media.Example = ex
			} else {
				media.Extensions = map[string]any{"x-example": ex}
			}
		}
	}
	resp.Content = openapi3.Content{"application/json": media}
	op.Responses.Set("200", &openapi3.ResponseRef{Value: resp})
	return op
}

// exportSchema returns a schema kin-openapi accepts for a 3.0 document:
// the given one when it validates (with a default or example that does
// not match dropped), else one built from the parameter's kind.
func exportSchema(s *openapi3.Schema, p *toolset.Param) *openapi3.Schema {
	fallback := func() *openapi3.Schema {
		if p == nil {
			return &openapi3.Schema{Description: "(documented schema is not valid OpenAPI 3.0)"}
		}
		return &openapi3.Schema{Type: &openapi3.Types{string(kindOr(p.Kind))}, Description: p.Description}
	}
	if s == nil {
		return fallback()
	}
	cp := *s
	if p != nil && cp.Description == "" {
		cp.Description = p.Description
	}
	if cp.Default != nil && !(&openapi3.Schema{Type: cp.Type, Enum: cp.Enum, Format: cp.Format, Pattern: cp.Pattern, Min: cp.Min, Max: cp.Max}).IsMatching(cp.Default) {
		cp.Default = nil
	}
	ctx := context.Background()
	if err := cp.Validate(ctx); err != nil {
		// Most often an example or a default that does not match: retry without.
		cp.Example, cp.Default = nil, nil
		if err := cp.Validate(ctx); err != nil {
			out := fallback()
			out.Description = strings.TrimSpace(out.Description + fmt.Sprintf(" (documented schema dropped: %v)", readkit.Cut(err.Error(), 200)))
			return out
		}
	}
	return &cp
}

func kindOr(k toolset.Kind) toolset.Kind {
	if k == "" {
		return toolset.KindString
	}
	return k
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

// literalReplacer drops what a path cannot carry outside a template.
var literalReplacer = strings.NewReplacer("{", "", "}", "", "?", "", "#", "", " ", "_")

// cleanLiterals cleans the text between path templates.
func cleanLiterals(path string) string {
	var b strings.Builder
	last := 0
	for _, m := range readkit.PathTemplate.FindAllStringIndex(path, -1) {
		b.WriteString(literalReplacer.Replace(path[last:m[0]]))
		b.WriteString(path[m[0]:m[1]])
		last = m[1]
	}
	b.WriteString(literalReplacer.Replace(path[last:]))
	return b.String()
}

// typedNullables returns a copy of s in which every "nullable" schema has
// a type, as OpenAPI 3.0 means nullable to qualify one (Redocly's
// nullable-type-sibling): the type its other keywords imply (properties:
// object, items: array, a minimum: number, enum or example values: theirs),
// or, when none does, no nullable (a schema without a type already takes
// any value). s is not changed: it may be the catalog's.
func typedNullables(s *openapi3.Schema) *openapi3.Schema {
	if !hasUntypedNullable(s, map[*openapi3.Schema]bool{}) {
		return s
	}
	b, err := json.Marshal(s)
	if err != nil {
		return s
	}
	var cp openapi3.Schema
	if err := json.Unmarshal(b, &cp); err != nil {
		return s
	}
	fixNullables(&cp, map[*openapi3.Schema]bool{})
	return &cp
}

// subschemas lists a schema's direct subschemas.
func subschemas(s *openapi3.Schema) []*openapi3.SchemaRef {
	refs := slices.Collect(maps.Values(s.Properties))
	refs = append(refs, s.Items, s.Not)
	refs = append(refs, s.AllOf...)
	refs = append(refs, s.AnyOf...)
	refs = append(refs, s.OneOf...)
	if s.AdditionalProperties.Schema != nil {
		refs = append(refs, s.AdditionalProperties.Schema)
	}
	return refs
}

func hasUntypedNullable(s *openapi3.Schema, seen map[*openapi3.Schema]bool) bool {
	if s == nil || seen[s] {
		return false
	}
	seen[s] = true
	if s.Nullable && (s.Type == nil || len(*s.Type) == 0) {
		return true
	}
	for _, r := range subschemas(s) {
		if r != nil && hasUntypedNullable(r.Value, seen) {
			return true
		}
	}
	return false
}

func fixNullables(s *openapi3.Schema, seen map[*openapi3.Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.Nullable && (s.Type == nil || len(*s.Type) == 0) {
		if t := impliedType(s); t != "" {
			s.Type = &openapi3.Types{t}
		} else {
			s.Nullable = false
		}
	}
	for _, r := range subschemas(s) {
		if r != nil {
			fixNullables(r.Value, seen)
		}
	}
}

// impliedType is the JSON Schema type a schema's keywords other than
// "type" imply, or "".
func impliedType(s *openapi3.Schema) string {
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil || len(s.Required) > 0:
		return "object"
	case s.Items != nil:
		return "array"
	case s.Min != nil || s.Max != nil || s.MultipleOf != nil:
		return "number"
	case s.Pattern != "" || s.MinLength > 0 || s.MaxLength != nil || s.Format != "":
		return "string"
	}
	vals := slices.Clone(s.Enum)
	if s.Example != nil {
		vals = append(vals, s.Example)
	}
	t := ""
	for _, v := range vals {
		var vt string
		switch v.(type) {
		case nil:
			continue
		case string:
			vt = "string"
		case bool:
			vt = "boolean"
		case float64, json.Number, int, int64:
			vt = "number"
		case []any:
			vt = "array"
		case map[string]any:
			vt = "object"
		}
		if t != "" && vt != t {
			return ""
		}
		t = vt
	}
	return t
}
