package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/internal/readkit"
)

// Limits of the OpenAPI loader. A recursive schema (a tree node whose
// children are nodes) is inlined until it would repeat itself and is then
// cut: the cut point accepts any value and says so in its description, and
// the tool's Notes record it. maxInlineDepth bounds non-recursive nesting,
// and maxInlineNodes bounds the work of inlining one document, so that a
// document whose references fan out exponentially cannot exhaust memory.
const (
	maxInlineDepth = toolset.MaxSchemaDepth
	maxInlineNodes = 200_000
)

// httpMethods lists the operations of a path item in a fixed order.
var httpMethods = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

// Load reads an OpenAPI 3 document (JSON or YAML) as one tool: the
// tool is info.title, its host comes from servers[0], its category from
// x-category (on info or the document) or "OpenAPI". Each operation is an
// API named by its operationId, or by method and path when it has none,
// sanitised to ^[a-zA-Z0-9_-]{1,64}$ and made unique. Path, query and header
// parameters become params; the properties of an object request body become
// body params (any other body is one param named "body"); allOf parts of a
// body merge and oneOf/anyOf branches add their properties (see
// flattenObjectBody). The query and header names of apiKey security schemes
// become Tool.Credentials, and defaults that are not of their parameter's
// kind are dropped and noted. $refs are inlined with a cycle guard. The 200 (else first 2xx, else default) JSON response
// gives ResponseSchema and ExampleResponse. x-depends and x-opaque on a
// parameter or body property, and x-group on an operation, are honoured.
// External $refs are refused: a document is read on its own.
func Load(data []byte, source string) (*toolset.Tool, error) {
	doc, err := loadOpenAPIDoc(data, source)
	if err != nil {
		return nil, err
	}
	return openAPITool(doc, source)
}

// loadOpenAPIDoc parses and resolves an OpenAPI document, within the size
// limit, without external references.
func loadOpenAPIDoc(data []byte, source string) (doc *openapi3.T, err error) {
	if len(data) > toolset.MaxToolFileSize {
		return nil, &toolset.LoadError{File: source, Err: fmt.Errorf("file is %d bytes, more than the %d-byte limit", len(data), toolset.MaxToolFileSize)}
	}
	if d := bytes.TrimSpace(data); len(d) > 0 && d[0] == '{' && !json.Valid(d) {
		var v any
		err := json.Unmarshal(d, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := readkit.LineCol(d, se.Offset)
			err = fmt.Errorf("malformed JSON at line %d, column %d (byte %d): %v", line, col, se.Offset, err)
		}
		return nil, &toolset.LoadError{File: source, Field: readkit.PathAt(d), Err: err}
	}
	defer func() {
		// kin-openapi is a large third-party parser: should it panic on a
		// document nobody anticipated, the caller still gets an error.
		if r := recover(); r != nil {
			doc, err = nil, &toolset.LoadError{File: source, Err: fmt.Errorf("unreadable OpenAPI document: %v", r)}
		}
	}()
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err = loader.LoadFromData(data)
	if err != nil {
		return nil, &toolset.LoadError{File: source, Field: fieldOfLoaderError(err), Err: err}
	}
	return doc, nil
}

// loaderErrorRefs find the reference a kin-openapi error mentions: a
// quoted one (possibly naming another file) first, else a bare pointer.
var loaderErrorRefs = []*regexp.Regexp{regexp.MustCompile(`"([^"\s]*#/[^"\s]*)"`), regexp.MustCompile(`(#/[^"\s:]+)`)}

func fieldOfLoaderError(err error) string {
	for _, re := range loaderErrorRefs {
		if m := re.FindStringSubmatch(err.Error()); m != nil {
			return m[1]
		}
	}
	return ""
}

func openAPITool(doc *openapi3.T, source string) (*toolset.Tool, error) {
	fail := func(field, format string, args ...any) error {
		return &toolset.LoadError{File: source, Field: field, Err: fmt.Errorf(format, args...)}
	}
	switch {
	case doc.OpenAPI == "":
		if _, ok := doc.Extensions["swagger"]; ok {
			return nil, fail("swagger", "Swagger 2.0 documents are not supported; convert to OpenAPI 3 first")
		}
		return nil, fail("openapi", "missing: an OpenAPI 3 document starts with openapi: 3.0.x")
	case !strings.HasPrefix(doc.OpenAPI, "3."):
		return nil, fail("openapi", "version %q is not OpenAPI 3", doc.OpenAPI)
	case doc.Info == nil:
		return nil, fail("info", "missing: the document needs info.title")
	case strings.TrimSpace(doc.Info.Title) == "":
		return nil, fail("info.title", "missing: the tool is named by info.title")
	}
	if err := toolset.CheckDescription(doc.Info.Description, "info.description", source); err != nil {
		return nil, err
	}
	t := &toolset.Tool{
		Name:        strings.TrimSpace(doc.Info.Title),
		Title:       strings.TrimSpace(doc.Info.Title),
		Description: doc.Info.Description,
		Category:    "OpenAPI",
		Origin:      "openapi",
		Source:      source,
	}
	t.StandardizedName = toolset.Standardize(t.Name)
	if t.StandardizedName == "" {
		return nil, fail("info.title", "%q has no letters or digits to make a name from", t.Name)
	}
	for _, ext := range []map[string]any{doc.Info.Extensions, doc.Extensions} {
		if s := extString(ext, "x-category"); s != "" && t.Category == "OpenAPI" {
			t.Category = s
		}
		if s := extString(ext, "x-scenario"); s != "" && t.Scenario == "" {
			t.Scenario = s
		}
	}
	basePath := ""
	if len(doc.Servers) > 0 && doc.Servers[0] != nil {
		u := doc.Servers[0].URL
		for name, v := range doc.Servers[0].Variables {
			if v != nil {
				u = strings.ReplaceAll(u, "{"+name+"}", v.Default)
			}
		}
		if pu, err := url.Parse(u); err == nil {
			t.Host = pu.Host
			basePath = strings.TrimRight(pu.Path, "/")
		}
	}
	in := &inliner{}
	used := map[string]bool{}
	if doc.Paths != nil {
		paths := doc.Paths.Keys()
		sort.Strings(paths)
		for _, p := range paths {
			item := doc.Paths.Value(p)
			if item == nil {
				continue
			}
			ops := item.Operations()
			for _, method := range httpMethods {
				op := ops[method]
				if op == nil {
					continue
				}
				field := "paths." + p + "." + strings.ToLower(method)
				a, err := openAPIOperation(in, t, item, op, method, basePath, p, field, source)
				if err != nil {
					return nil, err
				}
				if err := in.typeError(source); err != nil {
					return nil, err
				}
				a.Name = uniqueAPIName(a.Name, used)
				a.Tool = t
				a.Security = operationSecurity(doc, op)
				t.APIs = append(t.APIs, a)
			}
		}
	}
	t.Credentials = credentialParams(doc)
	t.Notes = in.notes
	toolset.DropUnfitDefaults(t)
	return t, nil
}

func openAPIOperation(in *inliner, t *toolset.Tool, item *openapi3.PathItem, op *openapi3.Operation, method, basePath, p, field, source string) (*toolset.API, error) {
	name := op.OperationID
	if strings.TrimSpace(name) == "" {
		name = strings.ToLower(method) + "_" + p
	}
	desc := strings.TrimSpace(op.Summary)
	if d := strings.TrimSpace(op.Description); d != "" && d != desc {
		if desc != "" {
			desc += "\n\n"
		}
		desc += d
	}
	if desc == "" {
		desc = strings.TrimSpace(item.Summary)
	}
	if err := toolset.CheckDescription(desc, field+".description", source); err != nil {
		return nil, err
	}
	a := &toolset.API{
		Name:        toolset.SanitizeAPIName(name),
		Description: desc,
		Method:      method,
		Path:        basePath + p,
	}
	if t.Host != "" {
		a.URL = "https://" + t.Host + a.Path
	}
	if g, ok := op.Extensions["x-group"]; ok {
		groups, err := stringOrStrings(g)
		if err != nil {
			return nil, &toolset.LoadError{File: source, Field: field + ".x-group", Err: err}
		}
		sort.Strings(groups)
		a.Groups = groups
	}

	// Operation parameters override path-item ones with the same name and location.
	type key struct{ name, in string }
	var refs []*openapi3.ParameterRef
	idx := map[key]int{}
	for _, list := range []openapi3.Parameters{item.Parameters, op.Parameters} {
		for _, pr := range list {
			if pr == nil || pr.Value == nil {
				continue
			}
			k := key{pr.Value.Name, pr.Value.In}
			if i, ok := idx[k]; ok {
				refs[i] = pr
				continue
			}
			idx[k] = len(refs)
			refs = append(refs, pr)
		}
	}
	for i, pr := range refs {
		pv := pr.Value
		pfield := fmt.Sprintf("%s.parameters[%d]", field, i)
		if strings.TrimSpace(pv.Name) == "" {
			return nil, &toolset.LoadError{File: source, Field: pfield + ".name", Err: errors.New("missing: every parameter needs a name")}
		}
		var loc toolset.Location
		switch pv.In {
		case "query":
			loc = toolset.InQuery
		case "path":
			loc = toolset.InPath
		case "header":
			loc = toolset.InHeader
		case "cookie":
			continue // a browser's business, not an argument an agent passes
		default:
			return nil, &toolset.LoadError{File: source, Field: pfield + ".in", Err: fmt.Errorf("%q is not one of query, path, header, cookie", pv.In)}
		}
		if err := toolset.CheckDescription(pv.Description, pfield+".description", source); err != nil {
			return nil, err
		}
		sr := pv.Schema
		if sr == nil {
			if mt := pickMedia(pv.Content); mt != nil {
				sr = mt.Schema
			}
		}
		s := in.schema(sr, pfield+".schema", nil)
		param := paramFromSchema(pv.Name, s, pv.Description, pv.Required || loc == toolset.InPath, loc)
		if err := applyParamExtensions(param, pv.Extensions, pfield, source); err != nil {
			return nil, err
		}
		if a.Param(param.Name) != nil {
			return nil, &toolset.LoadError{File: source, Field: pfield + ".name", Err: fmt.Errorf("duplicate parameter %q", param.Name)}
		}
		a.Params = append(a.Params, param)
	}

	if op.RequestBody != nil && op.RequestBody.Value != nil {
		rb := op.RequestBody.Value
		bfield := field + ".requestBody"
		if mt := pickMedia(rb.Content); mt != nil {
			s := in.schema(mt.Schema, bfield+".schema", nil)
			if flat, whole := flattenObjectBody(s); flat != nil {
				// allOf parts merge into one object; the branches of a
				// oneOf/anyOf offer their properties as optional arguments,
				// and the whole body is checked against the rule across them.
				s = flat
				a.SetBodySchema(whole)
			}
			isObject := (s.Type != nil && s.Type.Is("object")) || (s.Type == nil && len(s.Properties) > 0)
			if isObject && len(s.Properties) > 0 {
				names := make([]string, 0, len(s.Properties))
				for n := range s.Properties {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					ps := s.Properties[n].Value
					pfield := bfield + ".schema.properties." + n
					if a.Param(n) != nil {
						// A body property shadowed by a query/path parameter of
						// the same name cannot be passed as a flat argument.
						in.note("%s: %s: body property %q has the name of another parameter and is left out", source, pfield, n)
						continue
					}
					if err := toolset.CheckDescription(ps.Description, pfield+".description", source); err != nil {
						return nil, err
					}
					param := paramFromSchema(n, ps, ps.Description, slices.Contains(s.Required, n), toolset.InBody)
					if err := applyParamExtensions(param, ps.Extensions, pfield, source); err != nil {
						return nil, err
					}
					a.Params = append(a.Params, param)
				}
			} else if !isObject || s.AdditionalProperties.Schema != nil || s.AdditionalProperties.Has != nil {
				if a.Param("body") != nil {
					return nil, &toolset.LoadError{File: source, Field: bfield, Err: errors.New(`a non-object body becomes the argument "body", which another parameter already uses`)}
				}
				a.Params = append(a.Params, paramFromSchema("body", s, readkit.FirstNonEmpty(rb.Description, s.Description), rb.Required, toolset.InBody))
			}
		}
	}

	if op.Responses != nil {
		if rr := pickResponse(op.Responses); rr != nil && rr.Value != nil {
			if mt := pickMedia(rr.Value.Content); mt != nil {
				rfield := field + ".responses"
				if mt.Schema != nil {
					a.ResponseSchema = in.schema(mt.Schema, rfield+".schema", nil)
				}
				ex := mt.Example
				if ex == nil {
					keys := make([]string, 0, len(mt.Examples))
					for k := range mt.Examples {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					for _, k := range keys {
						if er := mt.Examples[k]; er != nil && er.Value != nil && er.Value.Value != nil {
							ex = er.Value.Value
							break
						}
					}
				}
				if ex == nil && a.ResponseSchema != nil {
					ex = a.ResponseSchema.Example
				}
				if ex != nil {
					if b, err := json.Marshal(ex); err == nil {
						a.ExampleResponse = b
					}
				}
			}
		}
	}
	return a, nil
}

// pickResponse chooses the documented success response: 200, else the
// lowest 2xx, else 2XX, else default.
func pickResponse(rs *openapi3.Responses) *openapi3.ResponseRef {
	if r := rs.Value("200"); r != nil {
		return r
	}
	keys := rs.Keys()
	sort.Strings(keys)
	for _, k := range keys {
		if len(k) == 3 && k[0] == '2' {
			if _, err := strconv.Atoi(k); err == nil {
				return rs.Value(k)
			}
		}
	}
	if r := rs.Value("2XX"); r != nil {
		return r
	}
	return rs.Value("default")
}

// pickMedia prefers JSON, then form bodies, then the first media type by name.
func pickMedia(c openapi3.Content) *openapi3.MediaType {
	if len(c) == 0 {
		return nil
	}
	if mt := c["application/json"]; mt != nil {
		return mt
	}
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, want := range []func(string) bool{
		func(k string) bool {
			return strings.HasSuffix(strings.ToLower(k), "+json") || strings.HasPrefix(strings.ToLower(k), "application/json")
		},
		func(k string) bool { return strings.EqualFold(k, "application/x-www-form-urlencoded") },
		func(k string) bool { return strings.EqualFold(k, "multipart/form-data") },
		func(string) bool { return true },
	} {
		for _, k := range keys {
			if want(k) && c[k] != nil {
				return c[k]
			}
		}
	}
	return nil
}

// paramFromSchema builds a Param around an inlined schema.
func paramFromSchema(name string, s *openapi3.Schema, desc string, required bool, loc toolset.Location) *toolset.Param {
	if s == nil {
		s = &openapi3.Schema{}
	}
	if s.Description == "" && desc != "" {
		cp := *s
		cp.Description = desc
		s = &cp
	}
	p := &toolset.Param{
		Name:        name,
		Kind:        kindOfSchema(s),
		Description: readkit.FirstNonEmpty(desc, s.Description),
		Required:    required,
		In:          loc,
		Default:     s.Default,
		Enum:        s.Enum,
		Format:      s.Format,
		Schema:      s,
	}
	if s.Type != nil && len(*s.Type) > 0 {
		p.RawType = (*s.Type)[0]
	}
	return p
}

// kindOfSchema names the JSON kind a schema expects; a schema without a
// type takes the kind its allOf parts name, or the one kind all its
// oneOf/anyOf branches share, and is otherwise an object when it has
// properties and a string when it has nothing to go by.
func kindOfSchema(s *openapi3.Schema) toolset.Kind {
	if k := schemaKind(s, 0); k != "" {
		return k
	}
	return toolset.KindString
}

// schemaKind is kindOfSchema's search; "" when the schema names no kind.
// Inlined schemas are finite trees, and depth bounds the walk anyway.
func schemaKind(s *openapi3.Schema, depth int) toolset.Kind {
	if s == nil || depth > maxInlineDepth {
		return ""
	}
	if s.Type != nil {
		for _, t := range *s.Type {
			switch t {
			case "string", "number", "integer", "boolean", "array", "object":
				return toolset.Kind(t)
			}
		}
	}
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil:
		return toolset.KindObject
	case s.Items != nil:
		return toolset.KindArray
	}
	for _, part := range s.AllOf {
		if part != nil {
			if k := schemaKind(part.Value, depth+1); k != "" {
				return k
			}
		}
	}
	for _, branches := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		var shared toolset.Kind
		for _, b := range branches {
			var k toolset.Kind
			if b != nil {
				k = schemaKind(b.Value, depth+1)
			}
			if k == "" || (shared != "" && k != shared) {
				shared = ""
				break
			}
			shared = k
		}
		if shared != "" {
			return shared
		}
	}
	return ""
}

// flattenObjectBody turns a request body made of object parts into one
// object schema whose properties can become flat arguments, as a RapidAPI
// client sends them. allOf parts merge (properties and required lists
// join); the branches of a oneOf or anyOf add their properties as optional
// ones, and whole is then the body's schema to check the reassembled body
// against (nil when the flat schema says everything). flat is nil when the
// body is not made of parts or one of them is not an object.
func flattenObjectBody(s *openapi3.Schema) (flat, whole *openapi3.Schema) {
	if len(s.AllOf) == 0 && len(s.OneOf) == 0 && len(s.AnyOf) == 0 {
		return nil, nil
	}
	merged, ok := mergeAllOf(s, 0)
	if !ok {
		return nil, nil
	}
	branches := append(slices.Clone(merged.OneOf), merged.AnyOf...)
	if len(branches) == 0 {
		return merged, nil
	}
	flat = &openapi3.Schema{Type: &openapi3.Types{"object"}, Description: merged.Description, Properties: openapi3.Schemas{}, Required: slices.Clone(merged.Required)}
	for n, p := range merged.Properties {
		flat.Properties[n] = p
	}
	var inAll []string
	for i, b := range branches {
		if b == nil || b.Value == nil {
			return nil, nil
		}
		bm, ok := mergeAllOf(b.Value, 1)
		if !ok {
			return nil, nil
		}
		for n, p := range bm.Properties {
			if _, seen := flat.Properties[n]; !seen {
				flat.Properties[n] = p
			}
		}
		if i == 0 {
			inAll = slices.Clone(bm.Required)
		} else {
			inAll = slices.DeleteFunc(inAll, func(n string) bool { return !slices.Contains(bm.Required, n) })
		}
	}
	for _, n := range inAll {
		if !slices.Contains(flat.Required, n) {
			flat.Required = append(flat.Required, n)
		}
	}
	sort.Strings(flat.Required)
	return flat, merged
}

// mergeAllOf folds an object schema's allOf parts into it. ok is false
// when a part is not an object. A property two parts both define must meet
// both schemas.
func mergeAllOf(s *openapi3.Schema, depth int) (*openapi3.Schema, bool) {
	if depth > maxInlineDepth || schemaKind(s, 0) != toolset.KindObject {
		return nil, false
	}
	out := *s
	out.AllOf = nil
	out.Type = &openapi3.Types{"object"}
	out.Properties = make(openapi3.Schemas, len(s.Properties))
	for n, p := range s.Properties {
		out.Properties[n] = p
	}
	out.Required = slices.Clone(s.Required)
	for _, part := range s.AllOf {
		if part == nil || part.Value == nil {
			return nil, false
		}
		pm, ok := mergeAllOf(part.Value, depth+1)
		if !ok {
			return nil, false
		}
		for n, p := range pm.Properties {
			if prev, seen := out.Properties[n]; seen {
				p = openapi3.NewSchemaRef("", &openapi3.Schema{AllOf: openapi3.SchemaRefs{prev, p}})
			}
			out.Properties[n] = p
		}
		for _, n := range pm.Required {
			if !slices.Contains(out.Required, n) {
				out.Required = append(out.Required, n)
			}
		}
		out.OneOf = append(slices.Clone(out.OneOf), pm.OneOf...)
		out.AnyOf = append(slices.Clone(out.AnyOf), pm.AnyOf...)
		if out.Description == "" {
			out.Description = pm.Description
		}
	}
	if len(s.AllOf) > 0 {
		// additionalProperties: false in one part would refuse the
		// properties of the others, which is never what such specs mean.
		out.AdditionalProperties = openapi3.AdditionalProperties{}
	}
	sort.Strings(out.Required)
	return &out, true
}

// applyParamExtensions reads x-depends and x-opaque.
func applyParamExtensions(p *toolset.Param, ext map[string]any, field, source string) error {
	if raw, ok := ext["x-depends"]; ok {
		b, err := json.Marshal(raw)
		if err != nil {
			return &toolset.LoadError{File: source, Field: field + ".x-depends", Err: err}
		}
		var one toolset.Dependency
		var many []toolset.Dependency
		switch {
		case json.Unmarshal(b, &many) == nil:
		case json.Unmarshal(b, &one) == nil:
			many = []toolset.Dependency{one}
		default:
			return &toolset.LoadError{File: source, Field: field + ".x-depends", Err: errors.New(`must be {"tool", "api", "path"} or an array of them`)}
		}
		for i, d := range many {
			if d.API == "" || d.Path == "" {
				return &toolset.LoadError{File: source, Field: fmt.Sprintf("%s.x-depends[%d]", field, i), Err: errors.New("needs both api and path")}
			}
		}
		p.Depends = many
	}
	if raw, ok := ext["x-opaque"]; ok {
		b, _ := json.Marshal(raw)
		if err := json.Unmarshal(b, &p.Opaque); err != nil {
			return &toolset.LoadError{File: source, Field: field + ".x-opaque", Err: errors.New("must be true or false")}
		}
	}
	return nil
}

func extString(ext map[string]any, key string) string {
	raw, ok := ext[key]
	if !ok {
		return ""
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return ""
	}
	var s string
	if json.Unmarshal(b, &s) != nil {
		return ""
	}
	return strings.TrimSpace(s)
}

func stringOrStrings(v any) ([]string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var one string
	var many []string
	switch {
	case json.Unmarshal(b, &one) == nil:
		if one == "" {
			return nil, nil
		}
		return []string{one}, nil
	case json.Unmarshal(b, &many) == nil:
		return many, nil
	}
	return nil, errors.New("must be a group name or an array of group names")
}

// uniqueAPIName appends _2, _3, ... until the name's standardized form is
// unused, keeping within 64 characters.
func uniqueAPIName(name string, used map[string]bool) string {
	out := name
	for n := 2; used[toolset.StandardizeAPIName(out)]; n++ {
		suffix := "_" + strconv.Itoa(n)
		base := name
		if len(base)+len(suffix) > toolset.MaxAPINameLen {
			base = base[:toolset.MaxAPINameLen-len(suffix)]
		}
		out = base + suffix
	}
	used[toolset.StandardizeAPIName(out)] = true
	return out
}

// inliner copies schemas with every $ref resolved into a plain tree.
type inliner struct {
	nodes int
	notes []string
	// badType is the first schema met whose type is none of JSON
	// Schema's ("integr"): its field and type. Such a schema would accept
	// any value, so the document is refused instead.
	badType, badField string
}

// schemaTypes are the types a schema may have (OpenAPI 3.0's, and 3.1's
// "null").
var schemaTypes = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// typeError is the load error of the first schema of unknown type met,
// nil when there was none.
func (in *inliner) typeError(source string) error {
	if in.badField == "" {
		return nil
	}
	return &toolset.LoadError{File: source, Field: in.badField, Err: fmt.Errorf("unknown type %q (a schema's type is one of %s)", in.badType, strings.Join(schemaTypes, ", "))}
}

func (in *inliner) note(format string, args ...any) {
	in.notes = append(in.notes, fmt.Sprintf(format, args...))
}

// schema returns a deep copy of sr's schema without references. stack holds
// the schemas being copied above this one: meeting one of them again is a
// cycle, which is cut here.
func (in *inliner) schema(sr *openapi3.SchemaRef, field string, stack []*openapi3.Schema) *openapi3.Schema {
	if sr == nil || sr.Value == nil {
		if sr != nil && sr.Ref != "" {
			in.note("%s: unresolved $ref %q accepts any value", field, sr.Ref)
		}
		return &openapi3.Schema{}
	}
	v := sr.Value
	name := sr.Ref
	if name == "" {
		name = "the schema"
	}
	switch {
	case slices.Contains(stack, v):
		in.note("%s: recursive schema %s cut at depth %d", field, name, len(stack))
		return &openapi3.Schema{Description: fmt.Sprintf("(recursive schema %s cut at depth %d: any value)", name, len(stack))}
	case len(stack) >= maxInlineDepth:
		in.note("%s: schema nested deeper than %d levels cut", field, maxInlineDepth)
		return &openapi3.Schema{Description: fmt.Sprintf("(schema cut at depth %d: any value)", maxInlineDepth)}
	case in.nodes >= maxInlineNodes:
		if in.nodes == maxInlineNodes {
			in.note("%s: document has more than %d schema nodes once references are inlined; the rest accept any value", field, maxInlineNodes)
			in.nodes++
		}
		return &openapi3.Schema{}
	}
	in.nodes++
	if v.Type != nil && in.badField == "" {
		for _, typ := range *v.Type {
			if !slices.Contains(schemaTypes, typ) {
				in.badType, in.badField = typ, field+".type"
				break
			}
		}
	}
	stack = append(stack, v)
	cp := *v
	cp.Extensions = v.Extensions
	cp.Origin = nil
	// OpenAPI 3.1 keywords are not carried: the catalog speaks 3.0.
	cp.Const, cp.Examples, cp.PrefixItems, cp.Contains, cp.MinContains, cp.MaxContains = nil, nil, nil, nil, nil, nil
	cp.PatternProperties, cp.DependentSchemas, cp.PropertyNames = nil, nil, nil
	cp.UnevaluatedItems, cp.UnevaluatedProperties = openapi3.BoolSchema{}, openapi3.BoolSchema{}
	cp.If, cp.Then, cp.Else, cp.DependentRequired, cp.Defs = nil, nil, nil, nil, nil
	cp.SchemaDialect, cp.Comment, cp.SchemaID, cp.Anchor, cp.DynamicRef, cp.DynamicAnchor = "", "", "", "", "", ""
	cp.ContentMediaType, cp.ContentEncoding, cp.ContentSchema = "", "", nil
	cp.Discriminator = nil
	if cp.Type != nil {
		types := slices.Clone(*cp.Type)
		cp.Type = &types
	}
	ref := func(child *openapi3.SchemaRef, f string) *openapi3.SchemaRef {
		return openapi3.NewSchemaRef("", in.schema(child, f, stack))
	}
	refs := func(list openapi3.SchemaRefs, f string) openapi3.SchemaRefs {
		if list == nil {
			return nil
		}
		out := make(openapi3.SchemaRefs, len(list))
		for i, c := range list {
			out[i] = ref(c, fmt.Sprintf("%s[%d]", f, i))
		}
		return out
	}
	cp.OneOf = refs(v.OneOf, field+".oneOf")
	cp.AnyOf = refs(v.AnyOf, field+".anyOf")
	cp.AllOf = refs(v.AllOf, field+".allOf")
	if v.Not != nil {
		cp.Not = ref(v.Not, field+".not")
	}
	if v.Items != nil {
		cp.Items = ref(v.Items, field+".items")
	}
	if v.AdditionalProperties.Schema != nil {
		cp.AdditionalProperties = openapi3.AdditionalProperties{Schema: ref(v.AdditionalProperties.Schema, field+".additionalProperties")}
	}
	if v.Properties != nil {
		names := make([]string, 0, len(v.Properties))
		for n := range v.Properties {
			names = append(names, n)
		}
		sort.Strings(names) // deterministic notes and node budget
		cp.Properties = make(openapi3.Schemas, len(names))
		for _, n := range names {
			cp.Properties[n] = ref(v.Properties[n], field+".properties."+n)
		}
	}
	return &cp
}
