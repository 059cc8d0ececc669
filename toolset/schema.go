package toolset

import (
	"sort"

	"github.com/getkin/kin-openapi/openapi3"
)

// InputSchema is the API's arguments as one JSON Schema object (draft
// 2020-12 vocabulary, which OpenAI function calling and MCP tool lists both
// accept): a property per parameter, the required ones listed, nothing else
// allowed. OpenAPI 3.0 dialect is translated: nullable becomes a "null" type,
// boolean exclusiveMinimum/Maximum become numeric bounds, example becomes
// examples. Each call returns a fresh map.
func (a *API) InputSchema() map[string]any {
	props := make(map[string]any, len(a.Params))
	required := []string{}
	for _, p := range a.Params {
		s := p.Schema
		if s == nil {
			s = &openapi3.Schema{Type: &openapi3.Types{string(p.Kind)}, Enum: p.Enum, Format: p.Format}
		}
		m := JSONSchema(s)
		if _, ok := m["description"]; !ok && p.Description != "" {
			m["description"] = p.Description
		}
		if _, ok := m["type"]; !ok && p.Kind != "" && len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) == 0 {
			m["type"] = string(p.Kind)
		}
		if d, ok := m["default"]; ok && p.Required {
			// ToolBench's "default" of a required parameter is an example
			// value; as a JSON Schema default it would read as optional.
			delete(m, "default")
			if _, has := m["examples"]; !has {
				m["examples"] = []any{d}
			}
		}
		props[p.Name] = m
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

// JSONSchema translates an OpenAPI 3.0 schema (without $refs, as the
// loaders leave them) into a JSON Schema map.
func JSONSchema(s *openapi3.Schema) map[string]any {
	return jsonSchema(s, 0)
}

func jsonSchema(s *openapi3.Schema, depth int) map[string]any {
	m := map[string]any{}
	if s == nil || depth > MaxSchemaDepth+1 {
		return m
	}
	if s.Type != nil && len(*s.Type) > 0 {
		types := []any{}
		for _, t := range *s.Type {
			types = append(types, t)
		}
		if s.Nullable && !containsAny(types, "null") {
			types = append(types, "null")
		}
		if len(types) == 1 {
			m["type"] = types[0]
		} else {
			m["type"] = types
		}
	}
	set := func(k string, v any, ok bool) {
		if ok {
			m[k] = v
		}
	}
	set("title", s.Title, s.Title != "")
	set("description", s.Description, s.Description != "")
	set("format", s.Format, s.Format != "")
	if len(s.Enum) > 0 {
		enum := append([]any(nil), s.Enum...)
		if s.Nullable && !containsAny(enum, nil) {
			enum = append(enum, nil)
		}
		m["enum"] = enum
	}
	set("default", s.Default, s.Default != nil)
	set("examples", []any{s.Example}, s.Example != nil)
	set("deprecated", true, s.Deprecated)
	set("readOnly", true, s.ReadOnly)
	set("writeOnly", true, s.WriteOnly)
	bound := func(plain, exclusive string, v *float64, eb openapi3.ExclusiveBound) {
		switch {
		case eb.Value != nil:
			m[exclusive] = *eb.Value
			if v != nil {
				m[plain] = *v
			}
		case v != nil && eb.IsTrue():
			m[exclusive] = *v
		case v != nil:
			m[plain] = *v
		}
	}
	bound("minimum", "exclusiveMinimum", s.Min, s.ExclusiveMin)
	bound("maximum", "exclusiveMaximum", s.Max, s.ExclusiveMax)
	set("multipleOf", deref(s.MultipleOf), s.MultipleOf != nil)
	set("minLength", s.MinLength, s.MinLength > 0)
	set("maxLength", deref(s.MaxLength), s.MaxLength != nil)
	set("pattern", s.Pattern, s.Pattern != "")
	set("minItems", s.MinItems, s.MinItems > 0)
	set("maxItems", deref(s.MaxItems), s.MaxItems != nil)
	set("uniqueItems", true, s.UniqueItems)
	if s.Items != nil && s.Items.Value != nil {
		m["items"] = jsonSchema(s.Items.Value, depth+1)
	}
	if len(s.Properties) > 0 {
		props := make(map[string]any, len(s.Properties))
		for k, v := range s.Properties {
			if v != nil {
				props[k] = jsonSchema(v.Value, depth+1)
			}
		}
		m["properties"] = props
	}
	if len(s.Required) > 0 {
		req := append([]string(nil), s.Required...)
		sort.Strings(req)
		m["required"] = req
	}
	switch {
	case s.AdditionalProperties.Has != nil:
		m["additionalProperties"] = *s.AdditionalProperties.Has
	case s.AdditionalProperties.Schema != nil && s.AdditionalProperties.Schema.Value != nil:
		m["additionalProperties"] = jsonSchema(s.AdditionalProperties.Schema.Value, depth+1)
	}
	set("minProperties", s.MinProps, s.MinProps > 0)
	set("maxProperties", deref(s.MaxProps), s.MaxProps != nil)
	for _, x := range []struct {
		key  string
		list openapi3.SchemaRefs
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		if len(x.list) == 0 {
			continue
		}
		out := make([]any, 0, len(x.list))
		for _, r := range x.list {
			if r != nil {
				out = append(out, jsonSchema(r.Value, depth+1))
			}
		}
		m[x.key] = out
	}
	if s.Not != nil && s.Not.Value != nil {
		m["not"] = jsonSchema(s.Not.Value, depth+1)
	}
	return m
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func containsAny(list []any, v any) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// MaxSchemaDepth is how deep the readers nest a schema before cutting it
// (a recursive one is cut where it would repeat), so the translations
// here never walk deeper.
const MaxSchemaDepth = 32
