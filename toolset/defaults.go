package toolset

import (
	"fmt"
	"math"
	"strings"
)

// DropUnfitDefaults removes every default that is not a value of its
// parameter's kind: third-party files write "None" for an integer or "" for
// a boolean, and applying such a default would make a call the caller
// never asked for. Each removal is noted on the tool, so the load report
// says what changed; lenient validation takes the dropped default, given
// back, as no value. Every reader calls it on the tools it makes.
func DropUnfitDefaults(t *Tool) {
	for _, a := range t.APIs {
		for _, p := range a.Params {
			if p.Default == nil || defaultFits(p.Default, p.Kind) {
				continue
			}
			t.Notes = append(t.Notes, fmt.Sprintf("%s: %s: parameter %q: default %s is not %s and is dropped", t.Source, a.Name, p.Name, jsonTypeOf(p.Default), kindPhrase(p.Kind)))
			p.unfitDefault, p.Default = p.Default, nil
			if p.Schema != nil && p.Schema.Default != nil {
				cp := *p.Schema
				cp.Default = nil
				p.Schema = &cp
			}
		}
	}
}

// defaultFits reports whether v is a value of kind k as Validate would take
// it from a caller: after the lenient coercions, and whole for an integer.
func defaultFits(v any, k Kind) bool {
	if k == "" {
		k = KindString
	}
	c, ok := coerce(v, k)
	if !ok {
		return false
	}
	if k == KindInteger {
		if f, isFloat := c.(float64); isFloat {
			return f == math.Trunc(f)
		}
	}
	return true
}

// IsCredential reports whether name is a credential the tool's source
// declares (Tool.Credentials) and not also one of the API's parameters.
func (a *API) IsCredential(name string) bool {
	if a.Tool == nil || a.Param(name) != nil {
		return false
	}
	for _, c := range a.Tool.Credentials {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}
