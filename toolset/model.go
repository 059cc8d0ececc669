// Package toolset is the catalog of tools: Category → Tool → API → Param, its argument validation and its native and OpenAI exports; its readers, writers and search live in the packages under it.
package toolset

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/understudy/understudy/toolset/internal/readkit"
)

// Kind is the JSON type of a parameter after loading. ToolBench's loose
// types (STRING, NUMBER, BOOLEAN, ENUM, ARRAY, DATE, ...) map onto these.
type Kind string

// The parameter kinds, named as in JSON Schema.
const (
	KindString  Kind = "string"
	KindNumber  Kind = "number"
	KindInteger Kind = "integer"
	KindBoolean Kind = "boolean"
	KindArray   Kind = "array"
	KindObject  Kind = "object"
)

// Location says where a parameter travels in the real HTTP request.
type Location string

// Parameter locations, named as in OpenAPI, plus "body" for a JSON body property.
const (
	InQuery  Location = "query"
	InPath   Location = "path"
	InHeader Location = "header"
	InBody   Location = "body"
)

// Dependency says that a parameter takes a value found in another API's
// response: Path is a dotted path where "[]" walks every array element,
// e.g. "data[].id" or "data.context.sessionId".
type Dependency struct {
	Tool string `json:"tool,omitempty"` // empty means the same tool
	API  string `json:"api"`
	Path string `json:"path"`
}

// Param is one argument of an API.
type Param struct {
	Name        string   `json:"name"`
	Kind        Kind     `json:"kind"`
	RawType     string   `json:"type,omitempty"` // the type as written in the source file (e.g. "NUMBER")
	Description string   `json:"description,omitempty"`
	Required    bool     `json:"required"`
	In          Location `json:"in"`
	Default     any      `json:"default,omitempty"`
	Enum        []any    `json:"enum,omitempty"`
	Format      string   `json:"format,omitempty"`
	// Schema is the authoritative JSON Schema (OpenAPI 3.0 dialect) of the
	// argument; loaders always set it, built from Kind/Enum/Format when the
	// source has no richer schema. It may be shared by many parameters
	// (the ToolBench loader shares the bare ones, which carry no
	// description: Description is the parameter's), so it is never changed
	// in place: copy it first.
	Schema *openapi3.Schema `json:"schema,omitempty"`
	// Depends lists the APIs whose responses supply this parameter (x-depends).
	Depends []Dependency `json:"depends,omitempty"`
	// Opaque marks a value only an API can mint (an ID, a token, a session id),
	// as opposed to one a user can know (a city name, an IATA code).
	Opaque bool `json:"opaque,omitempty"`

	// unfitDefault is the documented default the loader dropped because it
	// is no value of the parameter's kind ("None" for an integer): lenient
	// validation takes it, given back, as no value.
	unfitDefault any

	// CaseInsensitive says the API reads the value without case (a city
	// name), so that replay matches a recording whatever the case
	// (x-case-insensitive).
	CaseInsensitive bool `json:"case_insensitive,omitempty"`
}

// API is one endpoint of a tool.
type API struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Method      string   `json:"method"`
	URL         string   `json:"url,omitempty"`  // full URL template as documented
	Path        string   `json:"path,omitempty"` // path template, e.g. /api/v1/flights/auto-complete
	Params      []*Param `json:"params"`
	// ResponseSchema describes the response body when documented. Read it
	// with Response: the ToolBench loader leaves it nil and keeps the
	// file's schema to be parsed on use (see Response), which a loader
	// that sets it needs not.
	ResponseSchema *openapi3.Schema `json:"response_schema,omitempty"`
	// ExampleResponse is a documented example response, verbatim.
	ExampleResponse json.RawMessage `json:"example_response,omitempty"`
	// TemplateResponse is ToolBench's type shape of the answer
	// ({"status": "str", "data": [{"id": "int"}]}), from the tool file's
	// template_response or a query file's api_list (see AddQueryTemplates).
	TemplateResponse json.RawMessage `json:"template_response,omitempty"`
	// Groups names the coherent groups (x-group) this API belongs to.
	Groups []string `json:"groups,omitempty"`
	// Security is the security an OpenAPI source declares for the API:
	// alternatives, of which a request satisfies one by carrying every
	// credential it lists (see Credential). Documented in every export;
	// enforced on the RapidAPI wire only when the server is asked to.
	Security [][]Credential `json:"security,omitempty"`

	// InvalidValue is how the API refuses a value of an opaque parameter it
	// never issued (x-invalid-value); nil means the tool's.
	InvalidValue *Refusal `json:"invalid_value,omitempty"`

	// Tool is the tool that owns this API; set by the loaders.
	Tool *Tool `json:"-"`

	// bodySchema is the whole request body's schema when its properties
	// became flat parameters but the body has a rule across them (oneOf,
	// anyOf): the reassembled body is checked against it.
	bodySchema *openapi3.Schema

	// validator is the compiled argument validator, built on the first
	// Validate call and kept in the catalog's per-API cache (apiCache),
	// which may drop it to be compiled again. An API must not be changed
	// after it has validated a call.
	validator atomic.Pointer[validator]

	// responseRaw is the response schema as the ToolBench file wrote it,
	// parsed by the first Response call into response, which the
	// catalog's per-API cache may drop to be parsed again from it.
	responseRaw json.RawMessage
	response    atomic.Pointer[parsedResponse]

	// cache is the per-API cache of the catalog the API is in; nil out of
	// a catalog, where what is built is kept for the API's life.
	cache *apiCache

	// std is the standardized name when it is not StandardizeAPIName(Name):
	// the suffixed name of a twin (see SetStandardizedName).
	std string
}

// SetStandardizedName gives the API a standardized name of its own, for
// an API whose name standardizes like an earlier API's of its tool (the
// ToolBench reader gives the second "get_user_2"); see StandardizedName.
func (a *API) SetStandardizedName(std string) { a.std = std }

// SetResponseJSON keeps a response schema as a source file wrote it, to
// be parsed by the first Response call; anything but a JSON object (real
// files hold "" or free text there) documents no schema.
func (a *API) SetResponseJSON(raw json.RawMessage) { a.responseRaw = responseSchemaJSON(raw) }

// SetBodySchema records the whole request body's schema when its
// properties became flat parameters but the body has a rule across them
// (oneOf, anyOf): Validate checks the reassembled body against it.
func (a *API) SetBodySchema(s *openapi3.Schema) { a.bodySchema = s }

// StandardizedName is the API's name as function names spell it:
// StandardizeAPIName(Name), except for an API whose name standardizes
// like an earlier API's of its tool, which has a suffixed one ("get_user_2";
// see SetStandardizedName).
func (a *API) StandardizedName() string {
	if a.std != "" {
		return a.std
	}
	return StandardizeAPIName(a.Name)
}

// Response returns the response body's schema, or nil when it is not
// documented. The schemas of ToolBench files are parsed here, once per API
// and safely under concurrent calls, rather than at load: kin-openapi
// parses a nested schema once per level, which made them nearly half the
// catalog's load, and most APIs never need theirs. The parsed schema is
// kept in the catalog's per-API cache, within its bound: one evicted is
// parsed again, the same schema, though not the same pointer. Callers
// must not change it.
func (a *API) Response() *openapi3.Schema {
	if a.ResponseSchema != nil || a.responseRaw == nil {
		return a.ResponseSchema
	}
	return a.parsedResponseSchema()
}

// Tool is one RapidAPI-style tool: a host with a list of APIs.
type Tool struct {
	Name             string `json:"name"`
	StandardizedName string `json:"standardized_name"`
	Title            string `json:"title,omitempty"`
	Description      string `json:"description,omitempty"`
	Host             string `json:"host,omitempty"`
	Category         string `json:"category"`
	// Scenario is the application scenario (x-scenario), e.g. "travel".
	Scenario string `json:"scenario,omitempty"`
	// Origin says where the design comes from: "rapidapi", "own" or "openapi".
	Origin string `json:"origin,omitempty"`
	// Source is the file the tool was loaded from, for error messages.
	Source string `json:"-"`
	// Builtin marks the tools of the embedded built-in toolset.
	Builtin bool `json:"builtin,omitempty"`
	// DepsPolicy is how the tool's opaque IDs are checked when no policy
	// is chosen for every tool ("enforce", "warn" or "off"; "" is the
	// default: enforce for built-in tools, warn for imported ones). A
	// tool loaded from a catalog's OpenAPI export keeps the policy it
	// had there.
	DepsPolicy string `json:"deps_policy,omitempty"`
	APIs       []*API `json:"apis"`
	// Notes records what a loader changed to make the source usable, such
	// as a recursive schema cut at a depth; empty for a clean load.
	Notes []string `json:"notes,omitempty"`
	// Credentials names the query and header parameters the source's
	// security schemes declare (an apiKey in the query, such as the New
	// York Times' "api-key"). Real clients send them; the catalog accepts
	// and drops them so that a key never reaches arguments or cache keys.
	Credentials []string `json:"credentials,omitempty"`
	// InvalidValue is how the tool's APIs refuse a value of an opaque
	// parameter they never issued (x-invalid-value): an unknown ID.
	InvalidValue *Refusal `json:"invalid_value,omitempty"`

	// ToolBench marks a tool read from a ToolBench tool file: its calls
	// are validated leniently (see Validation), and NewCatalog lets it
	// answer to its file's name.
	ToolBench bool `json:"-"`
	// LeftOut are the load errors of the APIs the ToolBench reader left
	// out of the tool (each noted in Notes), which the strict loaders
	// fail on.
	LeftOut []error `json:"-"`

	// base is the standardized name from the tool's file when NewCatalog
	// qualified it with the category; empty otherwise.
	base string
	// validation, when set, is Validation's answer: a tool loaded from
	// a catalog's OpenAPI export keeps the mode it had there.
	validation ValidationMode
}

// SetValidation makes m the tool's own validation mode (Validation), as
// a catalog's OpenAPI export records it; "" restores the default.
func (t *Tool) SetValidation(m ValidationMode) { t.validation = m }

// Category groups tools, as RapidAPI does.
type Category struct {
	Name  string  `json:"name"`
	Tools []*Tool `json:"tools"`
}

// Refusal is the documented answer of an API to an unknown or invalid
// value: an HTTP status and a JSON object in which "{param}" and "{value}"
// stand for the parameter's name and the value given, and "{uuid}" for a
// request ID (see the toolset README's x-invalid-value).
type Refusal struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// Refusal is how the API refuses a value of an opaque parameter it never
// issued: its own x-invalid-value, else its tool's, else nil.
func (a *API) Refusal() *Refusal {
	if a.InvalidValue != nil {
		return a.InvalidValue
	}
	if a.Tool != nil {
		return a.Tool.InvalidValue
	}
	return nil
}

// Param returns the named parameter, or nil.
func (a *API) Param(name string) *Param {
	for _, p := range a.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// ID is the catalog-wide identity of an API: "<tool>.<api>" with the tool's standardized name.
func (a *API) ID() string {
	if a.Tool == nil {
		return a.Name
	}
	return a.Tool.StandardizedName + "." + a.Name
}

// FunctionName is ToolBench's function name for the API: "<api>_for_<tool>",
// both standardized.
func (a *API) FunctionName() string {
	tool := ""
	if a.Tool != nil {
		tool = a.Tool.StandardizedName
	}
	return a.StandardizedName() + "_for_" + tool
}

// API returns the named API of the tool, matching the exact name first and
// then the standardized one (API.StandardizedName): of two APIs whose
// names standardize alike, each answers to its exact name, the first to
// the shared standardized name and the second to its suffixed one.
func (t *Tool) API(name string) *API {
	for _, a := range t.APIs {
		if a.Name == name {
			return a
		}
	}
	s := StandardizeAPIName(name)
	for _, a := range t.APIs {
		if a.StandardizedName() == s {
			return a
		}
	}
	return nil
}

// Catalog is a loaded set of tools with lookup indexes. Build one with
// NewCatalog; the zero value is an empty catalog.
type Catalog struct {
	Categories []*Category `json:"categories"`

	byTool map[string]*Tool // standardized tool name → tool
	// byCategory finds a tool by its standardized category and the
	// standardized name its file gives it, as ToolBench identifies tools.
	byCategory map[string]*Tool

	skipped []Skipped // tool files the loader left out
	byHost  map[string]*Tool
	byFunc  map[string]*API // "<api>_for_<tool>" → API, also as cut to 64 characters

	exportOnce sync.Once
	byExport   map[string]*API // OpenAI function name (either style) → API

	derivedMu sync.Mutex
	derived   map[any]*derivedValue // see Derived

	cache *apiCache // what is built per API on first use; see SetCacheBytes
}

// derivedValue is one value of Catalog.Derived, built once.
type derivedValue struct {
	once sync.Once
	v    any
}

// Derived returns the value build makes of the catalog, building it on
// the first call for key and keeping it for the catalog's life, safely
// under concurrent calls. Indexes other packages compute over a catalog
// (the BM25 index, the suggestion index) are kept here, so that each is
// built once per catalog by the package that owns it; key is a value of
// a type of that package, so no two packages share one. A build may
// ask for another key's value, never its own.
func (c *Catalog) Derived(key any, build func() any) any {
	c.derivedMu.Lock()
	if c.derived == nil {
		c.derived = map[any]*derivedValue{}
	}
	d := c.derived[key]
	if d == nil {
		d = &derivedValue{}
		c.derived[key] = d
	}
	c.derivedMu.Unlock()
	d.once.Do(func() { d.v = build() })
	return d.v
}

// NewCatalog indexes tools into a catalog with categories and tools sorted
// by name. ToolBench identifies a tool by category and name, so the same
// standardized name in two categories is two tools: a built-in one, else
// the one of the first category by name, keeps it, and each other becomes
// "<name>_for_<category>" (the form StableToolBench names its cache
// folders with), noted on the tool; ToolIn finds either by category and
// name. Two tools with the same standardized name in one category are an
// error naming both files (the loader keeps the first and reports the
// other). skipped lists the tool files the loader left out, for Skipped.
func NewCatalog(tools []*Tool, skipped ...Skipped) (*Catalog, error) {
	c := &Catalog{byTool: map[string]*Tool{}, byHost: map[string]*Tool{}, byFunc: map[string]*API{}, byCategory: map[string]*Tool{}, skipped: skipped, cache: newAPICache()}
	cats := map[string]*Category{}
	for _, t := range tools {
		if t.StandardizedName == "" {
			t.StandardizedName = Standardize(t.Name)
		}
	}
	if err := qualifyClashes(tools); err != nil {
		return nil, err
	}
	for _, t := range tools {
		if prev, ok := c.byTool[t.StandardizedName]; ok {
			return nil, &LoadError{File: t.Source, Field: "tool_name", Err: fmt.Errorf("tool %q clashes with %q from %s (same standardized name %q)", t.Name, prev.Name, prev.Source, t.StandardizedName)}
		}
		c.byTool[t.StandardizedName] = t
		c.byCategory[Standardize(t.Category)+"\x00"+t.baseName()] = t
		if t.Host != "" {
			if _, ok := c.byHost[strings.ToLower(t.Host)]; !ok {
				c.byHost[strings.ToLower(t.Host)] = t
			}
		}
		for _, a := range t.APIs {
			a.Tool = t
			a.cache = c.cache
			c.byFunc[a.FunctionName()] = a
			if short := toolBenchFunctionName(a); short != a.FunctionName() {
				if _, taken := c.byFunc[short]; !taken {
					c.byFunc[short] = a
				}
			}
		}
		cat := cats[t.Category]
		if cat == nil {
			cat = &Category{Name: t.Category}
			cats[t.Category] = cat
			c.Categories = append(c.Categories, cat)
		}
		cat.Tools = append(cat.Tools, t)
	}
	// Every tool also answers to "<name>_for_<category>", the kept one too.
	for _, t := range tools {
		if q := qualifiedName(t); c.byTool[q] == nil {
			c.byTool[q] = t
		}
	}
	// A ToolBench file not named "<standardized name>.json" (real trees
	// hold "LighthousegrowthproAPI.json" for "Lighthouse Growth Pro")
	// answers to its file's name too, where no tool has that name.
	for _, t := range tools {
		if !t.ToolBench || t.Source == "" {
			continue
		}
		stem := Standardize(readkit.FileStem(t.Source))
		if stem == "" || stem == t.baseName() {
			continue
		}
		if c.byTool[stem] == nil {
			c.byTool[stem] = t
		}
		if k := Standardize(t.Category) + "\x00" + stem; c.byCategory[k] == nil {
			c.byCategory[k] = t
		}
	}
	sort.Slice(c.Categories, func(i, j int) bool { return c.Categories[i].Name < c.Categories[j].Name })
	for _, cat := range c.Categories {
		sort.Slice(cat.Tools, func(i, j int) bool { return cat.Tools[i].StandardizedName < cat.Tools[j].StandardizedName })
	}
	return c, nil
}

// qualifiedName is a tool's name with its category: "<name>_for_<category>".
func qualifiedName(t *Tool) string {
	return t.baseName() + "_for_" + Standardize(t.Category)
}

// baseName is the standardized name the tool's file gives it, before
// NewCatalog qualified it with its category.
func (t *Tool) baseName() string {
	if t.base != "" {
		return t.base
	}
	return t.StandardizedName
}

// qualifyClashes renames the tools whose standardized name a tool of
// another category has too; see NewCatalog.
func qualifyClashes(tools []*Tool) error {
	byName := map[string][]*Tool{}
	for _, t := range tools {
		byName[t.StandardizedName] = append(byName[t.StandardizedName], t)
	}
	for _, same := range byName {
		if len(same) < 2 {
			continue
		}
		same = slices.Clone(same)
		sort.SliceStable(same, func(i, j int) bool {
			if same[i].Builtin != same[j].Builtin {
				return same[i].Builtin
			}
			return Standardize(same[i].Category) < Standardize(same[j].Category)
		})
		for i := 1; i < len(same); i++ {
			if Standardize(same[i].Category) == Standardize(same[i-1].Category) {
				return &LoadError{File: same[i].Source, Field: "tool_name", Err: fmt.Errorf("tool %q clashes with %q from %s (same standardized name %q in category %s)", same[i].Name, same[i-1].Name, same[i-1].Source, same[i].StandardizedName, same[i].Category)}
			}
		}
		for _, t := range same[1:] {
			t.base = t.StandardizedName
			t.StandardizedName = qualifiedName(t)
			t.Notes = append(t.Notes, fmt.Sprintf("named %s: %s of category %s has the name %s too", t.StandardizedName, same[0].Name, same[0].Category, t.base))
		}
	}
	return nil
}

// ToolIn finds a tool by category and name, as ToolBench and
// StableToolBench clients name one: the name raw or standardized, or in
// StableToolBench's "<name>_for_<category>" form. The category is
// compared standardized ("Business Software" is "Business_Software").
func (c *Catalog) ToolIn(category, name string) *Tool {
	if c == nil || c.byCategory == nil {
		return nil
	}
	cat := Standardize(category)
	n := Standardize(name)
	if t := c.byCategory[cat+"\x00"+n]; t != nil {
		return t
	}
	if base, ok := strings.CutSuffix(n, "_for_"+cat); ok && cat != "" {
		return c.byCategory[cat+"\x00"+base]
	}
	return nil
}

// Skipped lists the tool files the loader left out, with their reasons, in
// the order of the paths given.
func (c *Catalog) Skipped() []Skipped {
	if c == nil {
		return nil
	}
	return slices.Clone(c.skipped)
}

// Tools returns every tool, ordered by category then name.
func (c *Catalog) Tools() []*Tool {
	var out []*Tool
	for _, cat := range c.Categories {
		out = append(out, cat.Tools...)
	}
	return out
}

// APIs returns every API, ordered by category, tool, then documentation order.
func (c *Catalog) APIs() []*API {
	var out []*API
	for _, t := range c.Tools() {
		out = append(out, t.APIs...)
	}
	return out
}

// Tool finds a tool by its name, standardized name or title.
func (c *Catalog) Tool(name string) *Tool {
	if c == nil || c.byTool == nil {
		return nil
	}
	if t, ok := c.byTool[name]; ok {
		return t
	}
	return c.byTool[Standardize(name)]
}

// ToolByHost finds the tool served at a RapidAPI host such as "skyscanner80.p.rapidapi.com".
func (c *Catalog) ToolByHost(host string) *Tool {
	if c == nil || c.byHost == nil {
		return nil
	}
	return c.byHost[strings.ToLower(host)]
}

// API finds an API by tool and API name (either may be given raw or standardized).
func (c *Catalog) API(tool, api string) *API {
	t := c.Tool(tool)
	if t == nil {
		return nil
	}
	return t.API(api)
}

// APIByFunction finds an API by its ToolBench function name "<api>_for_<tool>",
// whole or cut to its last 64 characters as ToolBench sends it to models.
func (c *Catalog) APIByFunction(fn string) *API {
	if c == nil || c.byFunc == nil {
		return nil
	}
	return c.byFunc[fn]
}

// LoadError is a failure to load a tool file; it names the file and the field.
type LoadError struct {
	File  string
	Field string // JSON path of the offending field, e.g. "api_list[2].name"
	Err   error
}

func (e *LoadError) Error() string {
	switch {
	case e.Field == "":
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	default:
		return fmt.Sprintf("%s: %s: %v", e.File, e.Field, e.Err)
	}
}

func (e *LoadError) Unwrap() error { return e.Err }

// ToolBenchAPI finds the API a ToolBench or StableToolBench request names
// with its category, tool_name and api_name: the tool by category and
// name (see ToolIn), else by name alone; the API by name, raw or
// standardized, or as the function name "<api>_for_<tool>" their clients
// send at times. It returns nil when nothing matches, and when the
// function name is of another tool than the one tool_name names: such a
// call names two APIs, and neither is run.
func (c *Catalog) ToolBenchAPI(category, tool, api string) *API {
	if c == nil {
		return nil
	}
	t := c.ToolIn(category, tool)
	if t == nil {
		t = c.Tool(tool)
	}
	if t != nil {
		if a := t.API(api); a != nil {
			return a
		}
		for _, name := range []string{t.StandardizedName, t.baseName()} {
			if short, ok := strings.CutSuffix(StandardizeAPIName(api), "_for_"+name); ok {
				if a := t.API(short); a != nil {
					return a
				}
			}
		}
		return nil // tool_name names a tool, which has no such API
	}
	return c.APIByFunction(api)
}

// Holds tells whether a decoded JSON value is of kind k as it stands,
// with none of the coercions Validate applies ("5" is no number, true no
// string): the check a call is held to when it is scored. An integer must
// be written without a fraction or exponent (a float64 must be whole); a
// number may be any number. An unknown kind holds anything.
func (k Kind) Holds(v any) bool {
	switch k {
	case KindString:
		_, ok := v.(string)
		return ok
	case KindInteger:
		switch x := v.(type) {
		case json.Number:
			return !strings.ContainsAny(x.String(), ".eE")
		case float64:
			return x == math.Trunc(x) && !math.IsInf(x, 0)
		}
		return false
	case KindNumber:
		switch v.(type) {
		case json.Number, float64:
			return true
		}
		return false
	case KindBoolean:
		_, ok := v.(bool)
		return ok
	case KindArray:
		_, ok := v.([]any)
		return ok
	case KindObject:
		_, ok := v.(map[string]any)
		return ok
	}
	return true
}

// KindOf names the JSON type of a decoded value as a Kind: a whole number
// is an integer, null is "null", and a value JSON has no type for is
// named by its Go type.
func KindOf(v any) Kind {
	switch x := v.(type) {
	case string:
		return KindString
	case json.Number:
		if strings.ContainsAny(x.String(), ".eE") {
			return KindNumber
		}
		return KindInteger
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return KindInteger
		}
		return KindNumber
	case bool:
		return KindBoolean
	case []any:
		return KindArray
	case map[string]any:
		return KindObject
	case nil:
		return "null"
	}
	return Kind(fmt.Sprintf("%T", v))
}
