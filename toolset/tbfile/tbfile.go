package tbfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/internal/readkit"
)

// toolFile is the on-disk ToolBench tool JSON, with our x- additions.
// Fields are raw where real files disagree on their type.
type toolFile struct {
	ToolName         *string         `json:"tool_name"`
	Name             *string         `json:"name"` // older ToolBench files use "name"
	StandardizedName string          `json:"standardized_name"`
	ToolDescription  string          `json:"tool_description"`
	Description      string          `json:"description"`
	Title            string          `json:"title"`
	Host             string          `json:"host"`
	APIList          json.RawMessage `json:"api_list"`
	Scenario         string          `json:"x-scenario"`
	Origin           string          `json:"x-origin"`
	InvalidValue     json.RawMessage `json:"x-invalid-value"`
}

type apiFile struct {
	Name               *string         `json:"name"`
	URL                string          `json:"url"`
	Method             string          `json:"method"`
	Description        string          `json:"description"`
	RequiredParameters json.RawMessage `json:"required_parameters"`
	OptionalParameters json.RawMessage `json:"optional_parameters"`
	Schema             json.RawMessage `json:"schema"`
	TestEndpoint       json.RawMessage `json:"test_endpoint"`
	TemplateResponse   json.RawMessage `json:"template_response"`
	Example            json.RawMessage `json:"x-example-response"`
	Group              json.RawMessage `json:"x-group"`
	InvalidValue       json.RawMessage `json:"x-invalid-value"`
}

type paramFile struct {
	Name        *string         `json:"name"`
	Type        json.RawMessage `json:"type"` // a string in real files; anything else counts as unknown
	Description string          `json:"description"`
	Default     json.RawMessage `json:"default"`
	Enum        []any           `json:"x-enum"`
	Format      string          `json:"x-format"`
	In          string          `json:"x-in"`
	Depends     json.RawMessage `json:"x-depends"`
	Opaque      bool            `json:"x-opaque"`
	CaseFold    bool            `json:"x-case-insensitive"`
	Minimum     *float64        `json:"x-minimum"`
	Maximum     *float64        `json:"x-maximum"`
	Pattern     string          `json:"x-pattern"`
}

// toolDoc, apiDoc and paramDoc are a tool file decoded in one pass, with
// its lists typed. A real file decodes so in a third of the time the
// field-by-field reading takes (each nested json.RawMessage is scanned
// again when it is decoded); a file that does not decode so, or has a
// null where an API or parameter should be, is read field by field,
// whose errors name the offending field.
type toolDoc struct {
	toolFile
	APIs []*apiDoc `json:"api_list"`
}

type apiDoc struct {
	apiFile
	Required []*paramFile `json:"required_parameters"`
	Optional []*paramFile `json:"optional_parameters"`
}

// decodeToolDoc is the one-pass decoding, false when the file needs the
// field-by-field reading.
func decodeToolDoc(data []byte) (*toolDoc, bool) {
	var doc toolDoc
	if d := bytes.TrimSpace(data); len(d) == 0 || d[0] != '{' || json.Unmarshal(d, &doc) != nil {
		return nil, false
	}
	for _, a := range doc.APIs {
		if a == nil || slices.Contains(a.Required, nil) || slices.Contains(a.Optional, nil) {
			return nil, false
		}
	}
	return &doc, true
}

// LoadFile parses one ToolBench tool JSON document. category is the
// tool's category (in ToolBench, the name of the folder holding the file);
// source names the file in errors.
//
// A file that is not a tool (malformed, not an object, no name) is an
// error. Within a tool, the unit of failure is the API, as StableToolBench
// serves what it can of a file: an API that does not load is left out and
// noted on the tool (Tool.Notes) with its reason, and two defects
// StableToolBench lives with are repaired and noted too:
//
//   - a parameter documented twice (twice in required_parameters, or in
//     both lists) keeps its first entry, the one StableToolBench reads;
//   - an API whose name standardizes like an earlier one's ("Get User",
//     "get_user") keeps its name, and its standardized name, which
//     function names are made of, gets the suffix "_2" (then "_3", …,
//     skipping names the tool has): see API.StandardizedName.
func LoadFile(data []byte, category, source string) (*toolset.Tool, error) {
	if len(data) > toolset.MaxToolFileSize {
		return nil, &toolset.LoadError{File: source, Err: fmt.Errorf("file is %d bytes, more than the %d-byte limit", len(data), toolset.MaxToolFileSize)}
	}
	doc, whole := decodeToolDoc(data)
	var tf *toolFile
	if whole {
		tf = &doc.toolFile
	} else {
		tf = new(toolFile)
		if field, err := readkit.StrictObject(data, tf); err != nil {
			return nil, &toolset.LoadError{File: source, Field: field, Err: err}
		}
	}
	for _, d := range []struct{ text, field string }{{tf.ToolDescription, "tool_description"}, {tf.Description, "description"}} {
		if err := toolset.CheckDescription(d.text, d.field, source); err != nil {
			return nil, err
		}
	}
	t := &toolset.Tool{
		StandardizedName: tf.StandardizedName,
		Title:            tf.Title,
		Description:      readkit.FirstNonEmpty(tf.ToolDescription, tf.Description),
		Host:             tf.Host,
		Category:         category,
		Scenario:         tf.Scenario,
		Origin:           readkit.FirstNonEmpty(tf.Origin, "rapidapi"),
		Source:           source,
		ToolBench:        true,
	}
	var err error
	if t.InvalidValue, err = toolset.ParseRefusal(tf.InvalidValue, "x-invalid-value", source); err != nil {
		return nil, err
	}
	switch {
	case tf.ToolName != nil && strings.TrimSpace(*tf.ToolName) != "":
		t.Name = *tf.ToolName
	case tf.Name != nil && strings.TrimSpace(*tf.Name) != "":
		t.Name = *tf.Name
	case tf.Title != "":
		t.Name = tf.Title
	default:
		return nil, &toolset.LoadError{File: source, Field: "tool_name", Err: errors.New("missing: the tool needs a tool_name (or name or title)")}
	}
	if t.StandardizedName == "" {
		t.StandardizedName = toolset.Standardize(t.Name)
	}
	if t.StandardizedName == "" {
		return nil, &toolset.LoadError{File: source, Field: "tool_name", Err: fmt.Errorf("%q has no letters or digits to make a name from", t.Name)}
	}
	var apis []*apiDoc
	var raws []json.RawMessage
	switch {
	case whole:
		apis = doc.APIs
	case len(bytes.TrimSpace(tf.APIList)) > 0 && !bytes.Equal(bytes.TrimSpace(tf.APIList), []byte("null")):
		if err := json.Unmarshal(tf.APIList, &raws); err != nil {
			return nil, &toolset.LoadError{File: source, Field: "api_list", Err: fmt.Errorf("must be an array of API objects: %w", err)}
		}
	}
	for i := range max(len(apis), len(raws)) {
		field := fmt.Sprintf("api_list[%d]", i)
		var a *toolset.API
		var err error
		if whole {
			a, err = buildToolBenchAPI(apis[i], field, source, t)
		} else {
			a, err = loadToolBenchAPI(raws[i], field, source, t)
		}
		if err != nil {
			t.Notes = append(t.Notes, apiSkippedNote(err))
			t.LeftOut = append(t.LeftOut, err)
			continue
		}
		a.Tool = t
		t.APIs = append(t.APIs, a)
	}
	nameTwins(t)
	if t.Host == "" {
		for _, a := range t.APIs {
			if u, err := url.Parse(a.URL); err == nil && u.Host != "" {
				t.Host = u.Host
				break
			}
		}
	}
	toolset.DropUnfitDefaults(t)
	return t, nil
}

// apiSkippedNote is the note of an API left out of its tool.
func apiSkippedNote(err error) string {
	var le *toolset.LoadError
	if errors.As(err, &le) && le.Field != "" {
		return fmt.Sprintf("%s: left out: %v", le.Field, le.Err)
	}
	return fmt.Sprintf("an API is left out: %v", err)
}

// nameTwins gives each API whose name standardizes like an earlier API's
// of the tool a standardized name of its own (see LoadFile).
func nameTwins(t *toolset.Tool) {
	taken := make(map[string]bool, len(t.APIs))
	for _, a := range t.APIs {
		taken[toolset.StandardizeAPIName(a.Name)] = true
	}
	first := make(map[string]*toolset.API, len(t.APIs))
	for _, a := range t.APIs {
		std := toolset.StandardizeAPIName(a.Name)
		orig, twin := first[std]
		if !twin {
			first[std] = a
			continue
		}
		n := 2
		for taken[fmt.Sprintf("%s_%d", std, n)] {
			n++
		}
		own := fmt.Sprintf("%s_%d", std, n)
		a.SetStandardizedName(own)
		taken[own] = true
		t.Notes = append(t.Notes, fmt.Sprintf("API %q standardizes like %q (%s): %q calls %q, %q calls %q, and each answers to its own name",
			a.Name, orig.Name, std, std, orig.Name, own, a.Name))
	}
}

// loadToolBenchAPI reads one api_list entry field by field.
func loadToolBenchAPI(raw json.RawMessage, field, source string, t *toolset.Tool) (*toolset.API, error) {
	var ad apiDoc
	if sub, err := readkit.StrictObject(raw, &ad.apiFile); err != nil {
		return nil, &toolset.LoadError{File: source, Field: readkit.JoinField(field, sub), Err: err}
	}
	for _, list := range []struct {
		raw  json.RawMessage
		name string
		into *[]*paramFile
	}{{ad.RequiredParameters, "required_parameters", &ad.Required}, {ad.OptionalParameters, "optional_parameters", &ad.Optional}} {
		var ps []json.RawMessage
		if len(bytes.TrimSpace(list.raw)) > 0 && !bytes.Equal(bytes.TrimSpace(list.raw), []byte("null")) {
			if err := json.Unmarshal(list.raw, &ps); err != nil {
				return nil, &toolset.LoadError{File: source, Field: field + "." + list.name, Err: fmt.Errorf("must be an array of parameter objects: %w", err)}
			}
		}
		for k, praw := range ps {
			pf := new(paramFile)
			if sub, err := readkit.StrictObject(praw, pf); err != nil {
				return nil, &toolset.LoadError{File: source, Field: readkit.JoinField(fmt.Sprintf("%s.%s[%d]", field, list.name, k), sub), Err: err}
			}
			*list.into = append(*list.into, pf)
		}
	}
	return buildToolBenchAPI(&ad, field, source, t)
}

// buildToolBenchAPI makes the API of a decoded api_list entry; a
// parameter documented twice is noted on t.
func buildToolBenchAPI(ad *apiDoc, field, source string, t *toolset.Tool) (*toolset.API, error) {
	af := &ad.apiFile
	if af.Name == nil || strings.TrimSpace(*af.Name) == "" {
		return nil, &toolset.LoadError{File: source, Field: field + ".name", Err: errors.New("missing: every API needs a name")}
	}
	if err := toolset.CheckDescription(af.Description, field+".description", source); err != nil {
		return nil, err
	}
	a := &toolset.API{
		Name:        *af.Name,
		Description: af.Description,
		Method:      strings.ToUpper(readkit.FirstNonEmpty(strings.TrimSpace(af.Method), "GET")),
		URL:         af.URL,
	}
	if u, err := url.Parse(af.URL); err == nil {
		a.Path = u.Path
	}
	pathParams := pathTemplateParams(af.URL)
	firstAt := map[string]string{}
	for _, list := range []struct {
		params   []*paramFile
		name     string
		required bool
	}{{ad.Required, "required_parameters", true}, {ad.Optional, "optional_parameters", false}} {
		for k, pf := range list.params {
			pfield := fmt.Sprintf("%s.%s[%d]", field, list.name, k)
			p, err := loadToolBenchParam(pf, list.required, a.Method, pathParams, pfield, source)
			if err != nil {
				return nil, err
			}
			if at, dup := firstAt[p.Name]; dup {
				t.Notes = append(t.Notes, fmt.Sprintf("%s: API %q: parameter %q is documented again (first at %s): the first is kept, as StableToolBench reads it", pfield, a.Name, p.Name, at))
				continue
			}
			firstAt[p.Name] = pfield
			a.Params = append(a.Params, p)
		}
	}
	var err error
	if a.InvalidValue, err = toolset.ParseRefusal(af.InvalidValue, field+".x-invalid-value", source); err != nil {
		return nil, err
	}
	a.SetResponseJSON(af.Schema)
	a.ExampleResponse = exampleResponse(af.Example, af.TestEndpoint)
	a.TemplateResponse = toolset.NormalizeTemplate(af.TemplateResponse)
	if len(af.Group) > 0 {
		var one string
		var many []string
		switch {
		case json.Unmarshal(af.Group, &one) == nil:
			if one != "" {
				many = []string{one}
			}
		case json.Unmarshal(af.Group, &many) == nil:
		default:
			return nil, &toolset.LoadError{File: source, Field: field + ".x-group", Err: errors.New("must be a group name or an array of group names")}
		}
		sort.Strings(many)
		a.Groups = many
	}
	return a, nil
}

func loadToolBenchParam(pf *paramFile, required bool, method string, pathParams map[string]bool, field, source string) (*toolset.Param, error) {
	if pf.Name == nil || strings.TrimSpace(*pf.Name) == "" {
		return nil, &toolset.LoadError{File: source, Field: field + ".name", Err: errors.New("missing: every parameter needs a name")}
	}
	if err := toolset.CheckDescription(pf.Description, field+".description", source); err != nil {
		return nil, err
	}
	var rawType string
	_ = json.Unmarshal(pf.Type, &rawType) // a non-string type is an unknown type: a string parameter
	p := &toolset.Param{
		Name:            *pf.Name,
		RawType:         rawType,
		Description:     pf.Description,
		Required:        required,
		Enum:            pf.Enum,
		Format:          pf.Format,
		Opaque:          pf.Opaque,
		CaseInsensitive: pf.CaseFold,
	}
	p.Kind, p.Format = kindOfToolBenchType(rawType, pf.Format)
	switch {
	case pf.In != "":
		switch toolset.Location(pf.In) {
		case toolset.InQuery, toolset.InPath, toolset.InHeader, toolset.InBody:
			p.In = toolset.Location(pf.In)
		default:
			return nil, &toolset.LoadError{File: source, Field: field + ".x-in", Err: fmt.Errorf("%q is not one of query, path, header, body", pf.In)}
		}
	case pathParams[p.Name]:
		p.In = toolset.InPath
	case method == "GET" || method == "DELETE" || method == "HEAD":
		p.In = toolset.InQuery
	default:
		p.In = toolset.InBody
	}
	if d := bytes.TrimSpace(pf.Default); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
		var v any
		if err := json.Unmarshal(d, &v); err != nil {
			return nil, &toolset.LoadError{File: source, Field: field + ".default", Err: err}
		}
		// ToolBench writes most defaults as strings ("5", "true"); an empty
		// string means "no default". Defaults become the parameter's kind so
		// that a call relying on a default and one spelling it out agree.
		if s, ok := v.(string); ok && s == "" {
			v = nil
		}
		if v != nil {
			p.Default = coerceDefault(v, p.Kind)
		}
	}
	if len(pf.Depends) > 0 {
		var one toolset.Dependency
		var many []toolset.Dependency
		switch {
		case json.Unmarshal(pf.Depends, &many) == nil:
		case json.Unmarshal(pf.Depends, &one) == nil:
			many = []toolset.Dependency{one}
		default:
			return nil, &toolset.LoadError{File: source, Field: field + ".x-depends", Err: errors.New(`must be {"tool", "api", "path"} or an array of them`)}
		}
		for i, d := range many {
			if d.API == "" || d.Path == "" {
				return nil, &toolset.LoadError{File: source, Field: fmt.Sprintf("%s.x-depends[%d]", field, i), Err: errors.New("needs both api and path")}
			}
		}
		p.Depends = many
	}
	if pf.Pattern != "" {
		if _, err := regexp.Compile(pf.Pattern); err != nil {
			return nil, &toolset.LoadError{File: source, Field: field + ".x-pattern", Err: fmt.Errorf("not a regular expression: %w", err)}
		}
	}
	if pf.Minimum != nil && pf.Maximum != nil && *pf.Minimum > *pf.Maximum {
		return nil, &toolset.LoadError{File: source, Field: field + ".x-minimum", Err: fmt.Errorf("%v is above x-maximum %v", *pf.Minimum, *pf.Maximum)}
	}
	p.Schema = paramSchema(p, pf.Minimum, pf.Maximum, pf.Pattern)
	return p, nil
}

// kindOfToolBenchType maps ToolBench's loose type names onto JSON kinds.
// Anything unknown is a string, which is what ToolBench sends anyway.
func kindOfToolBenchType(t, format string) (toolset.Kind, string) {
	switch strings.ToUpper(strings.TrimSpace(t)) {
	case "NUMBER", "FLOAT", "DOUBLE":
		return toolset.KindNumber, format
	case "INTEGER", "INT":
		return toolset.KindInteger, format
	case "BOOLEAN", "BOOL":
		return toolset.KindBoolean, format
	case "ARRAY", "LIST":
		return toolset.KindArray, format
	case "OBJECT", "JSON":
		return toolset.KindObject, format
	case "DATE (YYYY-MM-DD)", "DATE":
		if format == "" {
			format = "date"
		}
		return toolset.KindString, format
	case "TIME (24-HOUR HH:MM)":
		return toolset.KindString, format
	default: // STRING, ENUM, GEOPOINT (LATITUDE, LONGITUDE), FILE, CREDENTIALS, ...
		return toolset.KindString, format
	}
}

func coerceDefault(v any, k toolset.Kind) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	switch k {
	case toolset.KindNumber:
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			return f
		}
	case toolset.KindInteger:
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			v, _ := canon.Number(strconv.FormatInt(n, 10))
			return v // a 64-bit ID default keeps its digits (see Validate)
		}
	case toolset.KindBoolean:
		if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
			return b
		}
	}
	return v
}

// paramSchema builds the OpenAPI 3.0 schema of a ToolBench parameter. A
// parameter that says no more than its kind and format (most of them) gets
// a schema shared with every such parameter, without the description
// (Param.Description has it; the exports add it): an openapi3.Schema is
// 750 bytes, and StableToolBench's tree has 130,000 parameters.
func paramSchema(p *toolset.Param, min, max *float64, pattern string) *openapi3.Schema {
	if min == nil && max == nil && pattern == "" && len(p.Enum) == 0 && p.Default == nil {
		key := bareKey{p.Kind, p.Format}
		if s, ok := bareSchemas.Load(key); ok {
			return s.(*openapi3.Schema)
		}
		s, _ := bareSchemas.LoadOrStore(key, newParamSchema(p, nil, nil, ""))
		return s.(*openapi3.Schema)
	}
	s := newParamSchema(p, min, max, pattern)
	s.Description = p.Description
	return s
}

type bareKey struct {
	kind   toolset.Kind
	format string
}

// bareSchemas are the shared schemas of paramSchema, by kind and format.
var bareSchemas sync.Map

func newParamSchema(p *toolset.Param, min, max *float64, pattern string) *openapi3.Schema {
	s := &openapi3.Schema{Type: &openapi3.Types{string(p.Kind)}, Format: p.Format, Enum: p.Enum, Min: min, Max: max, Pattern: pattern}
	switch p.Kind {
	case toolset.KindArray:
		s.Items = openapi3.NewSchemaRef("", &openapi3.Schema{})
	case toolset.KindObject:
		s.AdditionalProperties = openapi3.AdditionalProperties{Has: ptr(true)}
	}
	if p.Default != nil {
		s.Default = p.Default
	}
	return s
}

func ptr[T any](v T) *T { return &v }

// exampleResponse keeps an example response: x-example-response first, else
// ToolBench's test_endpoint when it holds JSON (an object, an array, or a
// string that itself parses as JSON).
func exampleResponse(candidates ...json.RawMessage) json.RawMessage {
	for _, raw := range candidates {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) || bytes.Equal(raw, []byte(`""`)) {
			continue
		}
		if raw[0] == '"' {
			var s string
			if json.Unmarshal(raw, &s) == nil && json.Valid([]byte(s)) {
				return json.RawMessage(s)
			}
			continue
		}
		return append(json.RawMessage(nil), raw...)
	}
	return nil
}

func pathTemplateParams(u string) map[string]bool {
	out := map[string]bool{}
	for _, m := range readkit.PathTemplate.FindAllStringSubmatch(u, -1) {
		out[m[1]] = true
	}
	return out
}

func skippedOf(file string, err error) toolset.Skipped {
	reason := err.Error()
	var le *toolset.LoadError
	if errors.As(err, &le) {
		reason = le.Err.Error()
		if le.Field != "" {
			reason = le.Field + ": " + reason
		}
	}
	return toolset.Skipped{File: file, Reason: reason, Err: err}
}

// LoadDir loads a ToolBench tool tree: every "<Category>/<tool>.json"
// under root. Files that are not .json are skipped; a .json file that fails
// to load, or that repeats a tool of its category, fails the whole load
// with an error naming the file and field. ScanDir is the
// tolerant form.
func LoadDir(fsys fs.FS, root string) ([]*toolset.Tool, error) {
	tools, skipped, err := ScanDir(fsys, root)
	if err != nil {
		return nil, err
	}
	if err := FirstProblem(tools, skipped); err != nil {
		return nil, err
	}
	return tools, nil
}

// FirstProblem is what a strict loader fails on: the first file, in path
// order, that was skipped or has an API the tolerant reading left out.
func FirstProblem(tools []*toolset.Tool, skipped []toolset.Skipped) error {
	var file string
	var first error
	for _, s := range skipped {
		if first == nil || s.File < file {
			file, first = s.File, s.Err
		}
	}
	for _, t := range tools {
		if len(t.LeftOut) > 0 && (first == nil || t.Source < file) {
			file, first = t.Source, t.LeftOut[0]
		}
	}
	return first
}

// ScanDir loads what is valid in a ToolBench tool tree and
// reports every other tool file with its reason, in path order. Like
// ToolBench, it identifies a tool by its category and standardized name:
// two files of one category with the same tool are one tool, taken from
// the file ToolBench itself would open ("<standardized name>.json"), else
// from the first in path order. The same name in two categories is two
// tools (NewCatalog keeps them apart). Only a tree that cannot be walked
// at all is an error.
func ScanDir(fsys fs.FS, root string) ([]*toolset.Tool, []toolset.Skipped, error) {
	type file struct{ path, category string }
	var files []file
	var skipped []toolset.Skipped
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return &toolset.LoadError{File: p, Err: err}
			}
			skipped = append(skipped, skippedOf(p, &toolset.LoadError{File: p, Err: err}))
			return nil
		}
		if d.IsDir() {
			if p != root && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir // .git, .cache and the like
			}
			return nil
		}
		if !strings.EqualFold(path.Ext(p), ".json") || strings.HasPrefix(d.Name(), ".") && !strings.EqualFold(d.Name(), ".json") {
			return nil // README.md, .DS_Store, schemas in other formats: not tools
		}
		rel := p
		if root != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		}
		dir := path.Dir(rel)
		if dir == "." || strings.HasPrefix(path.Base(p), "x-") {
			return nil // only <Category>/<tool>.json are tools; top-level files are metadata
		}
		files = append(files, file{p, path.Base(dir)})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// Reading and decoding are most of a large tree's load, and files are
	// independent: they are read by one worker per CPU, and the results
	// kept in path order.
	loaded := make([]*toolset.Tool, len(files))
	failed := make([]error, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(files); i = int(next.Add(1) - 1) {
				f := files[i]
				data, err := fs.ReadFile(fsys, f.path)
				if err != nil {
					failed[i] = &toolset.LoadError{File: f.path, Err: err}
					continue
				}
				loaded[i], failed[i] = LoadFile(data, f.category, f.path)
			}
		})
	}
	wg.Wait()
	var tools []*toolset.Tool
	for i, f := range files {
		if failed[i] != nil {
			skipped = append(skipped, skippedOf(f.path, failed[i]))
			continue
		}
		tools = append(tools, loaded[i])
	}
	tools, dups := Dedupe(tools)
	skipped = append(skipped, dups...)
	sort.SliceStable(skipped, func(i, j int) bool { return skipped[i].File < skipped[j].File })
	return tools, skipped, nil
}

// Dedupe keeps one tool per category and standardized name: a
// built-in tool first, then the one from the file ToolBench would open
// ("<standardized name>.json"), then the first. The others come back
// as skipped, each naming the tool it repeats.
func Dedupe(tools []*toolset.Tool) ([]*toolset.Tool, []toolset.Skipped) {
	type key struct{ category, name string }
	keep := map[key]int{}
	var out []*toolset.Tool
	var skipped []toolset.Skipped
	better := func(a, b *toolset.Tool) bool { // a should replace b
		if a.Builtin != b.Builtin {
			return !a.Builtin // the user's tool wins: the built-in stand-in gives way
		}
		return readkit.FileStem(a.Source) == a.StandardizedName && readkit.FileStem(b.Source) != b.StandardizedName
	}
	for _, t := range tools {
		k := key{toolset.Standardize(t.Category), t.StandardizedName}
		i, dup := keep[k]
		if !dup {
			keep[k] = len(out)
			out = append(out, t)
			continue
		}
		loser := t
		if better(t, out[i]) {
			loser, out[i] = out[i], t
		}
		winner := out[i]
		err := fmt.Errorf("%w: tool %q of category %s is loaded from %s", ErrDuplicateTool, loser.Name, winner.Category, winner.Source)
		if loser.Builtin {
			err = fmt.Errorf("%w: the built-in stand-in %q gives way to the tool of category %s loaded from %s", ErrDuplicateTool, loser.Name, winner.Category, winner.Source)
		}
		skipped = append(skipped, skippedOf(loser.Source, &toolset.LoadError{File: loser.Source, Field: "tool_name", Err: err}))
	}
	return out, skipped
}

// ErrDuplicateTool is why a second file of the same tool is skipped:
// ToolBench identifies a tool by its category and standardized name.
var ErrDuplicateTool = errors.New("duplicate tool")
