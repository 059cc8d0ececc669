// Package tbgen generates a synthetic StableToolBench universe — a ToolBench tool tree with the real files' shape and defects, solvable-query files and ground truth — deterministically from a seed.
package tbgen

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// StableToolBench's 2024-04 tool environment and test queries, the sizes
// the defaults reproduce.
const (
	RealToolFiles  = 12301
	RealAPIs       = 44692
	RealCategories = 49
	RealQueries    = 765
	// RealUnscorable queries name a tool or API absent from the tree;
	// RealMissingOnlyOther of them lack only an API that is not relevant.
	RealUnscorable       = 337
	RealMissingOnlyOther = 73
)

// Groups are StableToolBench's six test groups, the query files' names.
var Groups = []string{"G1_instruction", "G1_category", "G1_tool", "G2_instruction", "G2_category", "G3_instruction"}

// RealGroupSizes are the solvable queries of each group, in Groups order.
var RealGroupSizes = []int{163, 153, 158, 106, 124, 61}

// Defect kinds, as the Manifest names them.
const (
	// DuplicateParam: a parameter name twice in required_parameters, or
	// in both required_parameters and optional_parameters (per tool).
	DuplicateParam = "duplicate-param"
	// APINameTwin: two API names of one tool that differ only in case,
	// spacing or punctuation ("Get User" and "get_user").
	APINameTwin = "api-name-twin"
	// NoSchema: an API whose schema is "", {} or missing (per API).
	NoSchema = "no-schema"
	// FileNameMismatch: a file named otherwise than "<standardized tool
	// name>.json" (spaces, capitals, hyphens).
	FileNameMismatch = "file-name-mismatch"
	// CopyFile: "<name> copy.json", an older copy of a tool in the same
	// category.
	CopyFile = "copy-file"
	// CategoryTwin: a tool whose name another tool of another category
	// also has.
	CategoryTwin = "category-twin"
	// NumberDefault: a NUMBER parameter whose default is [] (the loader
	// cannot coerce it to a number).
	NumberDefault = "number-default"
	// StandardizeTwinParams: two required parameters of one API whose
	// names standardize alike ("countryCode" and "CountryCode").
	StandardizeTwinParams = "standardize-twin-params"
	// MalformedJSON, NotObject and EmptyFile are tool files that are not
	// tools: truncated JSON, a JSON array, zero bytes.
	MalformedJSON = "malformed-json"
	NotObject     = "not-object"
	EmptyFile     = "empty-file"
)

// ToolDefectKinds are the defects injected into whole tools or files, in
// the order Generate places them; NoSchema is per API.
var ToolDefectKinds = []string{DuplicateParam, APINameTwin, NumberDefault, StandardizeTwinParams, FileNameMismatch, CopyFile, CategoryTwin, MalformedJSON, NotObject, EmptyFile}

// Rates are how often each defect occurs. Tool defects are fractions of
// the tool files, NoSchema a fraction of APIs, Query* fractions of each
// group's queries.
type Rates struct {
	DuplicateParam        float64
	APINameTwin           float64
	NumberDefault         float64
	StandardizeTwinParams float64
	FileNameMismatch      float64
	CopyFile              float64
	CategoryTwin          float64
	// MalformedFile is the rate of each of MalformedJSON, NotObject and
	// EmptyFile.
	MalformedFile float64
	NoSchema      float64
	// QueryMissingRelevant: a relevant API (or its tool) is absent.
	QueryMissingRelevant float64
	// QueryMissingOther: every relevant API exists, but another api_list
	// entry is absent.
	QueryMissingOther float64
	// QueryCategoryTwin: the query names a tool that two categories have.
	QueryCategoryTwin float64
}

// DefaultRates are StableToolBench's: 88 and 45 of 12,301 tools with a
// duplicate parameter and case-twin API names, 39 % of APIs without a
// schema, 337 of 765 queries unscorable (73 only for a non-relevant API).
// Rates the issue tracker did not measure are estimates: file-name
// mismatches 2 %, copies 0.4 %, category twins 0.8 %, [] number defaults
// 0.5 %, standardize-twin parameters 0.3 %, two files of each malformed
// kind, a category-twin tool in 10 % of queries.
func DefaultRates() Rates {
	return Rates{
		DuplicateParam:        88.0 / RealToolFiles,
		APINameTwin:           45.0 / RealToolFiles,
		NumberDefault:         0.005,
		StandardizeTwinParams: 0.003,
		FileNameMismatch:      0.02,
		CopyFile:              0.004,
		CategoryTwin:          0.008,
		MalformedFile:         2.0 / RealToolFiles,
		NoSchema:              0.39,
		QueryMissingRelevant:  float64(RealUnscorable-RealMissingOnlyOther) / RealQueries,
		QueryMissingOther:     float64(RealMissingOnlyOther) / RealQueries,
		QueryCategoryTwin:     0.10,
	}
}

// Options say what to generate. The zero value is StableToolBench's
// full size with seed 0.
type Options struct {
	Seed uint64
	// Tools is the number of tool files (0: RealToolFiles), copies and
	// malformed files included.
	Tools int
	// APIs is the number of APIs over every tool file, copies included
	// (0: RealAPIs scaled to Tools).
	APIs int
	// Queries is the number of queries of each group in Groups order
	// (nil: RealGroupSizes).
	Queries []int
	// Rates are the defect rates (nil: DefaultRates).
	Rates *Rates
	// MinPerKind places every tool defect kind at least this many times,
	// whatever the rates give at this size.
	MinPerKind int
	// Compact writes tool and query files on one line each (as
	// json.dumps does) instead of json.dump's four-space indents.
	Compact bool
}

func (o Options) indent() string {
	if o.Compact {
		return ""
	}
	return "    "
}

func (o Options) withDefaults() (Options, error) {
	if o.Tools < 0 || o.APIs < 0 || o.MinPerKind < 0 {
		return o, errors.New("tbgen: Tools, APIs and MinPerKind must not be negative")
	}
	if o.Tools == 0 {
		o.Tools = RealToolFiles
	}
	if o.APIs == 0 {
		o.APIs = int(math.Round(float64(o.Tools) * RealAPIs / RealToolFiles))
	}
	if o.Queries == nil {
		o.Queries = RealGroupSizes
	}
	if len(o.Queries) != len(Groups) {
		return o, fmt.Errorf("tbgen: Queries has %d group sizes, want %d (%v)", len(o.Queries), len(Groups), Groups)
	}
	for i, n := range o.Queries {
		if n < 0 {
			return o, fmt.Errorf("tbgen: %s has %d queries", Groups[i], n)
		}
	}
	if o.Rates == nil {
		r := DefaultRates()
		o.Rates = &r
	}
	return o, nil
}

// count is how many times a tool defect of the rate occurs.
func (o Options) count(rate float64) int {
	return max(o.MinPerKind, int(math.Round(rate*float64(o.Tools))))
}

// Tool is one tool file of the tree.
type Tool struct {
	Category string
	// File is the file's path under the universe's folder, slash-separated:
	// "tools/Sports/football_live.json".
	File             string
	Name             string
	Title            string
	StandardizedName string
	Description      string
	Host             string
	Domain           string
	APIs             []*API
	// CopyOf is the original of a " copy" file.
	CopyOf *Tool
	// Malformed is the defect kind of a file that is not a tool; such a
	// file has no name or APIs.
	Malformed string
	// Twin is the tool of another category with the same name.
	Twin *Tool

	raw        []byte
	style      toolStyle
	productID  string
	pricing    string
	score      any
	nameIndex  map[string]bool
	index      int
	domain     *domain
	noStdField bool
}

// API is one entry of a tool's api_list.
type API struct {
	Name        string
	Method      string
	URL         string
	Description string
	Required    []*Param
	Optional    []*Param
	op          *op
	// What the file says about the response, rendered on demand so that
	// a full-size universe in memory stays small.
	schemaMode schemaMode
	testMode   int8
	testPick   int8
	exSeed     uint64
	resp       *node
	code       string
	body       any
	headers    any
	status     int
}

type schemaMode int8

const (
	schemaUsable schemaMode = iota
	schemaEmptyString
	schemaEmptyObject
	schemaMissing
)

// HasSchema tells whether the API has a usable response schema.
func (a *API) HasSchema() bool { return a.schemaMode == schemaUsable }

// Schema is the response schema as the file writes it: an Obj, "" or
// Obj{}, or nil when the file has no schema member.
func (a *API) Schema() any {
	switch a.schemaMode {
	case schemaEmptyString:
		return ""
	case schemaEmptyObject:
		return Obj{}
	case schemaMissing:
		return nil
	}
	return a.resp.schema()
}

// Template is ToolBench's type-shape of the answer, the query files'
// template_response: {"status": "str", "data": [{"id": "int"}]}.
func (a *API) Template() any { return a.resp.template() }

// Example is an answer of the response's shape with realistic values,
// the same on every call.
func (a *API) Example() any { return a.resp.example(newGen(a.exSeed, 7)) }

// TestEndpoint is the file's test_endpoint: the example answer, "", an
// error text, the example as a JSON string, or an error object.
func (a *API) TestEndpoint() any {
	switch a.testMode {
	case 0:
		return a.Example()
	case 1:
		return ""
	case 2:
		return strings.TrimSuffix(string(encode(a.Example(), "")), "\n")
	case 3:
		return testErrorTexts[a.testPick]
	}
	return Obj{{"message", testErrorMessages[a.testPick]}}
}

var (
	testErrorTexts    = []string{"Not Found", "Internal Server Error", "<html><body><h1>503 Service Unavailable</h1></body></html>", "{\"message\":\"You are not subscribed to this API.\"}", "Error: timeout"}
	testErrorMessages = []string{"Invalid API key. Go to https://docs.rapidapi.com/docs/keys for more info.", "Too many requests", "Endpoint '/' does not exist"}
)

// Param is one parameter of an API.
type Param struct {
	Name        string
	Type        string
	Description string
	// Default is the default as written: mostly a string, "" for none.
	Default any

	field field
}

// Edge is a ground-truth dependency: parameter Param of API To takes a
// value found at Path in the response of API From, both of the tool in
// File.
type Edge struct {
	Category string `json:"category"`
	Tool     string `json:"tool"`
	File     string `json:"file"`
	To       string `json:"to"`
	Param    string `json:"param"`
	From     string `json:"from"`
	Path     string `json:"path"`
	// Cue is how the parameter's documentation signals the dependency:
	// "endpoint" (names the producer's path), "api-name" (names the
	// producer API) or "name" (only the parameter's name matches a
	// response field).
	Cue string `json:"cue"`
	// Named is set on the edge whose producer the description names.
	Named bool `json:"named,omitempty"`
}

// Defect is one injected defect.
type Defect struct {
	Kind   string `json:"kind"`
	File   string `json:"file"`
	Tool   string `json:"tool,omitempty"`
	API    string `json:"api,omitempty"`
	Param  string `json:"param,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// Universe is a generated tree: its tools (in file order), queries,
// dependencies and defects.
type Universe struct {
	Options    Options
	Categories []string
	Tools      []*Tool
	Queries    []QueryGroup
	Edges      []Edge
	Defects    []Defect
}
