package toolset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/mail"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/fuzzy"
)

// Validate checks a call's arguments against the API's parameters and
// returns them normalised, or a *ValidationError listing every violation
// (never only the first): required, unknown, type, enum, format (date,
// date-time, email, uri, uuid), minimum, maximum, pattern, and whatever else the
// parameter's schema says (minLength, maxItems, nested required, ...).
//
// ToolBench's types are loose and models copy them loosely, so a few
// coercions are lenient; each is applied before the schema check and shows
// in the returned arguments:
//
//	param kind        accepted                          becomes
//	number, integer   a string holding a JSON number     the number ("5" → 5, " 2.5 " → 2.5)
//	boolean           "true" / "false", any case, trimmed the boolean
//	string            a number or a boolean              its JSON text (5 → "5", true → "true")
//	object            a string holding a JSON object     the object
//	any               null                               absent (then "required" if it is)
//
// Refused (reported as type violations): "" or "5px" or "0x10" or "NaN" for
// a number, "2.5" for an integer, "yes", "1", 1 or 0 for a boolean, arrays
// and objects for a string, a scalar for an array. Numbers of any Go type
// (int, json.Number, ...) become float64, except integers float64 cannot
// hold exactly (above 2^53, such as 9007199254740993): they become a
// json.Number of their digits, so that two calls differing only there keep
// different arguments and cache keys (canon.Number says which). Such an
// integer is checked against minimum and maximum as the nearest float64.
//
// Defaults are applied: an optional parameter that is absent gets its
// documented default, so that a call leaning on a default and one spelling
// it out normalise to the same arguments (and the same cache key). The
// defaults of required parameters are examples in ToolBench files and are
// never applied. The caller's map is not modified.
//
// Parameter names may be given in ToolBench's spelling (ToolBenchParamName:
// is_id for id, countrycode for countryCode): a value given under a
// spelling is the value of every parameter spelt so that is not given
// under its own name, so that two required parameters whose names
// standardize alike ("zip_code" and "zip code") are both given by the one
// "zip_code" ToolBench's schema shows.
//
// Validate is strict: see ValidateIn for the lenient mode.
//
// The validator is compiled on the first call and kept in the catalog's
// per-API cache; one evicted is compiled again, the same checks.
func (a *API) Validate(args map[string]any) (map[string]any, error) {
	out, _, err := a.ValidateIn(args, Strict)
	return out, err
}

// ValidateIn is Validate in a mode; "" is the tool's own (Tool.Validation).
// Strict is Validate. Lenient accepts, besides, what StableToolBench's
// servers accept, each with a warning that the caller is told of:
//
//	given                                             lenient                    warning code
//	an argument the API does not document             ignored                    undocumented
//	a placeholder for a value: "", "  ", [] or {}     not given (the default     placeholder
//	  that is not of the parameter's kind, or the       applies, if any)
//	  default its documentation shows ("None", [])
//
// A required parameter given only a placeholder is still missing.
// Warnings are sorted like violations and are nil when there are none.
func (a *API) ValidateIn(args map[string]any, mode ValidationMode) (map[string]any, []Violation, error) {
	if mode == "" {
		mode = a.Tool.Validation()
	}
	return a.compiled().validate(a, args, mode == Lenient)
}

// validator is an API's compiled argument check.
type validator struct {
	params []compiledParam // in the API's order
	byName map[string]int
	// spellings maps ToolBench's spelling of parameter names (see
	// ToolBenchParamName) to the parameters spelt so, where it is not
	// their own name.
	spellings map[string][]int
	names     string // "a, b, c" for messages
	options   []openapi3.SchemaValidationOption
	required  []int

	bytes int64       // estimated heap, for the per-API cache
	used  atomic.Bool // used since the cache last looked (second chance)
}

type compiledParam struct {
	p      *Param
	kind   Kind
	schema *openapi3.Schema // validated once at compile time
	simple bool             // a bare type with nothing else to check
}

// formatValidators adds the formats kin-openapi leaves to the user; date and
// date-time are built in. They are passed per validation, never registered
// globally.
var formatValidators = map[string]openapi3.StringFormatValidator{
	"email": openapi3.NewCallbackValidator(func(s string) error {
		addr, err := mail.ParseAddress(s)
		if err != nil || addr.Address != s {
			return errors.New("not an e-mail address")
		}
		return nil
	}),
	"uri": openapi3.NewCallbackValidator(func(s string) error {
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" {
			return errors.New("not an absolute URI")
		}
		return nil
	}),
	"uuid": openapi3.NewCallbackValidator(func(s string) error {
		if !isUUID(s) {
			return errors.New("not a UUID (8-4-4-4-12 hexadecimal digits)")
		}
		return nil
	}),
	"url": openapi3.NewCallbackValidator(func(s string) error {
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return errors.New("not an absolute URL")
		}
		return nil
	}),
}

var validationOptions = []openapi3.SchemaValidationOption{
	openapi3.MultiErrors(),
	openapi3.VisitAsRequest(),
	openapi3.WithStringFormatValidators(formatValidators),
}

func compileValidator(a *API) *validator {
	v := &validator{byName: make(map[string]int, len(a.Params)), options: validationOptions,
		params: make([]compiledParam, 0, len(a.Params))}
	names := make([]string, 0, len(a.Params))
	for i, p := range a.Params {
		cp := compiledParam{p: p, kind: p.Kind, schema: p.Schema}
		if cp.kind == "" {
			cp.kind = KindString
		}
		if cp.schema == nil || cp.schema.Validate(context.Background()) != nil {
			// A schema kin-openapi cannot vouch for would make VisitJSON's
			// behaviour undefined: fall back to the bare kind.
			cp.schema = &openapi3.Schema{Type: &openapi3.Types{string(cp.kind)}, Enum: p.Enum}
		}
		cp.simple = isBareType(cp.schema)
		v.params = append(v.params, cp)
		v.byName[p.Name] = i
		names = append(names, p.Name)
		if p.Required {
			v.required = append(v.required, i)
		}
	}
	v.names = strings.Join(names, ", ")
	for i, p := range a.Params {
		if sp := ToolBenchParamName(p.Name); sp != "" && sp != p.Name {
			if v.spellings == nil {
				v.spellings = map[string][]int{}
			}
			v.spellings[sp] = append(v.spellings[sp], i)
		}
	}
	v.bytes = v.estimate()
	return v
}

// estimate is the validator's heap in bytes beyond the API's own
// parameters: its slices and maps, and the bare schemas it made for
// parameters whose own kin-openapi cannot vouch for.
func (v *validator) estimate() int64 {
	n := int64(unsafe.Sizeof(*v)) + int64(len(v.names)) + 8*int64(cap(v.required))
	n += int64(cap(v.params))*int64(unsafe.Sizeof(compiledParam{})) + mapBytes(len(v.byName), 24)
	for _, cp := range v.params {
		if cp.schema != cp.p.Schema {
			n += schemaNodeBytes
		}
	}
	if v.spellings != nil {
		n += mapBytes(len(v.spellings), 40)
		for sp, idx := range v.spellings {
			n += int64(len(sp)) + 8*int64(cap(idx))
		}
	}
	return n
}

// mapBytes estimates the heap of a Go map of n entries of slot bytes
// each (key and value): its header and groups of eight slots, filled to
// seven eighths at most.
func mapBytes(n int, slot int64) int64 {
	groups := max(1, (int64(n)*8/7+7)/8)
	return 64 + groups*(8+8*slot)
}

// isBareType reports a schema that says nothing but a scalar type, the
// common case in ToolBench files; its check needs no schema walk.
func isBareType(s *openapi3.Schema) bool {
	if s.Type == nil || len(*s.Type) != 1 {
		return false
	}
	switch (*s.Type)[0] {
	case "string", "number", "boolean":
	default:
		return false
	}
	return s.Format == "" && s.Pattern == "" && len(s.Enum) == 0 && s.Min == nil && s.Max == nil &&
		s.MinLength == 0 && s.MaxLength == nil && !s.Nullable && s.Not == nil &&
		len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0 && s.MultipleOf == nil &&
		!s.ExclusiveMin.IsSet() && !s.ExclusiveMax.IsSet() && s.Always == nil
}

func (v *validator) validate(a *API, args map[string]any, lenient bool) (map[string]any, []Violation, error) {
	out := make(map[string]any, len(v.params))
	var violations, warnings []Violation
	given := make([]bool, len(v.params)) // by a non-null value, under any spelling
	var placeholders map[int]any         // lenient: the placeholder a parameter was given
	// take reads raw as the value of parameter i.
	take := func(i int, raw any) {
		if raw == nil {
			return // null is absent
		}
		cp := &v.params[i]
		real := cp.p.Name
		val, ok := coerce(raw, cp.kind)
		if !ok && lenient && isPlaceholder(raw, cp.p) {
			if placeholders == nil {
				placeholders = map[int]any{}
			}
			placeholders[i] = raw
			warnings = append(warnings, Violation{Location: []string{real}, Code: "placeholder",
				Message: fmt.Sprintf("%s is not %s: taken as not given%s", jsonTypeOf(raw), kindPhrase(cp.kind), defaultNote(cp.p))})
			return
		}
		given[i] = true
		if !ok {
			violations = append(violations, Violation{Location: []string{real}, Code: "type", Message: fmt.Sprintf("expected %s, got %s", kindPhrase(cp.kind), jsonTypeOf(raw))})
			return
		}
		if !cp.simple || !bareTypeMatches(cp.kind, val) {
			if err := cp.schema.VisitJSON(schemaValue(val), v.options...); err != nil {
				violations = appendSchemaViolations(violations, real, err)
				return
			}
		}
		out[real] = val
	}
	for name, raw := range args {
		i, own := v.byName[name]
		if own {
			take(i, raw)
		}
		// ToolBench's spelling of the name (is_id for id) is each
		// parameter spelt so, unless its real name is given too.
		for _, j := range v.spellings[name] {
			if own && j == i {
				continue
			}
			if real := v.params[j].p.Name; args[real] != nil {
				if raw != nil && !own {
					violations = append(violations, Violation{Location: []string{real}, Code: "duplicate",
						Message: fmt.Sprintf("argument %q is given twice, also as %q (ToolBench's spelling of it)", real, name)})
				}
				continue
			}
			take(j, raw)
		}
		if own || len(v.spellings[name]) > 0 || a.IsCredential(name) {
			continue // a key the spec declares: accepted, never kept
		}
		if lenient {
			warnings = append(warnings, Violation{Location: []string{name}, Code: "undocumented",
				Message: fmt.Sprintf("argument %q is not documented and is ignored; %s", name, v.takes())})
			continue
		}
		violations = append(violations, v.unknown(name))
	}
	for _, i := range v.required {
		p := v.params[i].p
		if given[i] {
			continue
		}
		msg := fmt.Sprintf("required argument %q is missing", p.Name)
		if ph, ok := placeholders[i]; ok {
			msg += fmt.Sprintf(" (%s is a placeholder, not %s)", jsonTypeOf(ph), kindPhrase(v.params[i].kind))
		}
		violations = append(violations, Violation{Location: []string{p.Name}, Code: "required", Message: msg})
	}
	if a.bodySchema != nil && len(violations) == 0 {
		body := map[string]any{}
		for i := range v.params {
			if p := v.params[i].p; p.In == InBody {
				if val, ok := out[p.Name]; ok {
					body[p.Name] = val
				}
			}
		}
		if err := a.bodySchema.VisitJSON(schemaValue(body), v.options...); err != nil {
			violations = append(violations, bodyRuleViolation(a.bodySchema, err))
		}
	}
	if len(violations) > 0 {
		sortViolations(violations)
		return nil, nil, &ValidationError{API: a.ID(), Violations: violations}
	}
	sortViolations(warnings)
	for i := range v.params {
		p := v.params[i].p
		if _, present := out[p.Name]; present || p.Required || p.Default == nil {
			continue
		}
		out[p.Name] = copyJSON(p.Default)
	}
	return out, warnings, nil
}

// sortViolations orders violations by location, code and message, so that
// equal calls list them in equal order.
func sortViolations(vs []Violation) {
	sort.SliceStable(vs, func(i, j int) bool {
		li, lj := strings.Join(vs[i].Location, "\x00"), strings.Join(vs[j].Location, "\x00")
		if li != lj {
			return li < lj
		}
		if vs[i].Code != vs[j].Code {
			return vs[i].Code < vs[j].Code
		}
		return vs[i].Message < vs[j].Message
	})
}

// isPlaceholder reports a value that stands for no value, as models copy
// them from ToolBench's documentation: an empty or blank string, an empty
// array or object, or the default the parameter's documentation shows when
// it is no value of the parameter's kind ("None", [] for a number).
func isPlaceholder(v any, p *Param) bool {
	switch x := v.(type) {
	case string:
		if strings.TrimSpace(x) == "" {
			return true
		}
	case []any:
		if len(x) == 0 {
			return true
		}
	case map[string]any:
		if len(x) == 0 {
			return true
		}
	}
	return p.unfitDefault != nil && reflect.DeepEqual(normalised(v), normalised(p.unfitDefault))
}

func normalised(v any) any {
	n, _ := normaliseJSON(v)
	return n
}

// defaultNote says what a parameter taken as not given gets instead.
func defaultNote(p *Param) string {
	if p.Default != nil && !p.Required {
		return fmt.Sprintf(" (the default %s applies)", canon.MustJSON(p.Default))
	}
	return ""
}

func (v *validator) unknown(name string) Violation {
	msg := fmt.Sprintf("unknown argument %q", name)
	if best, d := "", len(name)/2+1; len(v.params) > 0 {
		for _, cp := range v.params {
			if e := fuzzy.Levenshtein(strings.ToLower(name), strings.ToLower(cp.p.Name)); e < d {
				best, d = cp.p.Name, e
			}
		}
		if best != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", best)
		}
	}
	return Violation{Location: []string{name}, Code: "unknown", Message: msg + "; " + v.takes()}
}

// takes lists the API's parameters for messages.
func (v *validator) takes() string {
	if len(v.params) == 0 {
		return "the API takes no arguments"
	}
	return "the API takes: " + v.names
}

// bareTypeMatches is the whole check of a bare-typed schema.
func bareTypeMatches(k Kind, v any) bool {
	switch k {
	case KindString:
		_, ok := v.(string)
		return ok
	case KindNumber:
		switch x := v.(type) {
		case float64:
			return !math.IsNaN(x) && !math.IsInf(x, 0)
		case json.Number:
			return true // made by plainNumber: a finite integer
		}
		return false
	case KindBoolean:
		_, ok := v.(bool)
		return ok
	}
	return false
}

// coerce applies the lenient coercions documented on Validate. ok is false
// when the value cannot be the parameter's kind; values that are the right
// kind but otherwise wrong are left to the schema.
func coerce(v any, k Kind) (any, bool) {
	v, ok := plainNumber(v)
	if !ok {
		return v, false // a json.Number that is no finite number
	}
	switch k {
	case KindNumber, KindInteger:
		switch x := v.(type) {
		case float64, json.Number:
			return x, true
		case string:
			return canon.Number(strings.TrimSpace(x))
		}
		return v, false
	case KindBoolean:
		switch x := v.(type) {
		case bool:
			return x, true
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true":
				return true, true
			case "false":
				return false, true
			}
		}
		return v, false
	case KindString:
		switch x := v.(type) {
		case string:
			return x, true
		case float64:
			return strconv.FormatFloat(x, 'f', -1, 64), true
		case json.Number:
			return string(x), true // an integer's exact digits
		case bool:
			return strconv.FormatBool(x), true
		}
		return v, false
	case KindObject:
		switch x := v.(type) {
		case map[string]any:
			return normaliseJSON(x)
		case string:
			if m, ok := objectInString(x); ok {
				return m, true
			}
		}
		return v, false
	case KindArray:
		if x, ok := v.([]any); ok {
			return normaliseJSON(x)
		}
		return v, false
	}
	return normaliseJSON(v)
}

// plainNumber turns Go's other number types into float64, or into a
// json.Number of their digits for integers float64 cannot hold exactly.
// ok is false for a json.Number that is not a finite JSON number ("1e999",
// "0x10"), which json.Unmarshal would have refused.
func plainNumber(v any) (any, bool) {
	switch x := v.(type) {
	case int:
		return exactInt(int64(x)), true
	case int32:
		return float64(x), true
	case int64:
		return exactInt(x), true
	case float32:
		return float64(x), true
	case json.Number:
		return canon.Number(string(x))
	}
	return v, true
}

// exactInt is x as float64 when that holds it exactly, else its digits.
func exactInt(x int64) any {
	if f := float64(x); f >= -(1<<63) && f < 1<<63 && int64(f) == x {
		return f
	}
	return json.Number(strconv.FormatInt(x, 10))
}

// schemaValue is what kin-openapi checks a value as: it knows float64, so
// an exact big integer is checked as its nearest float64 (a whole number,
// so "integer" holds, and minimum/maximum compare as they always did).
func schemaValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = schemaValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = schemaValue(e)
		}
		return out
	}
	return v
}

// objectInString reads a string holding a JSON object, keeping integers
// above 2^53 exact (see plainNumber).
func objectInString(s string) (map[string]any, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return nil, false
	}
	v, err := canon.Decode([]byte(s))
	m, ok := v.(map[string]any)
	return m, err == nil && ok
}

// normaliseJSON turns numbers nested in arrays and objects into float64
// (or exact json.Number, see plainNumber); ok is false when one of them is
// no finite number.
func normaliseJSON(v any) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			n, ok := normaliseJSON(e)
			if !ok {
				return v, false
			}
			out[k] = n
		}
		return out, true
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, ok := normaliseJSON(e)
			if !ok {
				return v, false
			}
			out[i] = n
		}
		return out, true
	}
	return plainNumber(v)
}

// copyJSON copies a default so that callers cannot mutate the catalog's.
// Defaults are decoded JSON, so their numbers are always finite.
func copyJSON(v any) any {
	n, _ := normaliseJSON(v)
	return n
}

func kindPhrase(k Kind) string {
	switch k {
	case KindInteger:
		return "an integer"
	case KindArray:
		return "an array"
	case KindObject:
		return "an object"
	default:
		return "a " + string(k)
	}
}

func jsonTypeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if len(x) > 40 {
			x = x[:40] + "…"
		}
		return fmt.Sprintf("the string %q", x)
	case bool:
		return "a boolean"
	case float64, float32, int, int32, int64, json.Number:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// schemaCodes maps kin-openapi's schema fields onto violation codes.
var schemaCodes = map[string]string{
	"properties":       "unknown",
	"exclusiveMinimum": "minimum",
	"exclusiveMaximum": "maximum",
	"nullable":         "type",
}

// appendSchemaViolations flattens a kin-openapi validation error into violations.
func appendSchemaViolations(vs []Violation, name string, err error) []Violation {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			vs = appendSchemaViolations(vs, name, e)
		}
		return vs
	}
	var se *openapi3.SchemaError
	if !errors.As(err, &se) {
		return append(vs, Violation{Location: []string{name}, Code: "invalid", Message: err.Error()})
	}
	loc := append([]string{name}, se.JSONPointer()...)
	code := se.SchemaField
	if c, ok := schemaCodes[code]; ok {
		code = c
	}
	if code == "" {
		code = "invalid"
	}
	msg := se.Reason
	if msg == "" {
		msg = se.Error()
	}
	return append(vs, Violation{Location: loc, Code: code, Message: msg})
}

// bodyRuleViolation is one violation for a body that breaks its spec's
// rule across properties (oneOf, anyOf): each argument was valid on its
// own, so the message names the rule and lists why each branch failed.
func bodyRuleViolation(s *openapi3.Schema, err error) Violation {
	code, rule := "oneOf", "exactly one"
	if len(s.OneOf) == 0 {
		code, rule = "anyOf", "at least one"
	}
	var why []string
	for _, v := range appendSchemaViolations(nil, "body", err) {
		why = append(why, strings.Join(v.Location, ".")+": "+v.Message)
	}
	sort.Strings(why)
	return Violation{Location: []string{"body"}, Code: code, Message: fmt.Sprintf("the arguments must match %s of the body's alternatives (%s): %s", rule, code, strings.Join(why, "; "))}
}

// isUUID reports the textual form of RFC 4122: 8-4-4-4-12 hexadecimal
// digits, either case.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// CheckJSONTypes refuses, as a *ValidationError of "type" violations, the
// arguments whose JSON type is not their parameter's, without the lenient
// coercions Validate applies for ToolBench's loose clients (5 for a
// string, "5" for a number, "true" for a boolean, an object in a string).
// It is for a transport whose clients were handed the JSON Schema of the
// arguments (MCP's inputSchema): there a number for a string parameter is
// the client's mistake, as a schema validator says. Unknown names and
// nulls are left to Validate, which runs after it.
func (a *API) CheckJSONTypes(args map[string]any) error {
	var violations []Violation
	for _, name := range slices.Sorted(maps.Keys(args)) {
		raw := args[name]
		p := a.Param(name)
		if p == nil || raw == nil {
			continue
		}
		if !jsonTypeIs(p.Kind, raw) {
			violations = append(violations, Violation{Location: []string{name}, Code: "type", Message: fmt.Sprintf("expected %s, got %s", kindPhrase(p.Kind), jsonTypeOf(raw))})
		}
	}
	if len(violations) > 0 {
		return &ValidationError{API: a.ID(), Violations: violations}
	}
	return nil
}

// CheckJSONTypesIn is CheckJSONTypes where the validation mode is strict
// ("" is the tool's own, as in ValidateIn): there a refusal also lists
// what else strict validation refuses (an undocumented name), so that the
// client hears all of it at once, as on the other transports. Lenient
// validation reads ToolBench's loose values on every transport alike, so
// there it refuses nothing.
func (a *API) CheckJSONTypesIn(args map[string]any, mode ValidationMode) error {
	if mode == "" {
		mode = a.Tool.Validation()
	}
	if mode == Lenient {
		return nil
	}
	err := a.CheckJSONTypes(args)
	var typed *ValidationError
	if !errors.As(err, &typed) {
		return err
	}
	var rest *ValidationError
	if _, _, verr := a.ValidateIn(args, Strict); errors.As(verr, &rest) {
		seen := map[string]bool{}
		for _, v := range typed.Violations {
			seen[strings.Join(v.Location, ".")] = true
		}
		for _, v := range rest.Violations {
			if !seen[strings.Join(v.Location, ".")] {
				typed.Violations = append(typed.Violations, v)
			}
		}
		sortViolations(typed.Violations) // the order ValidateIn lists them in
	}
	return typed
}

// jsonTypeIs reports whether a decoded JSON value is of kind k, as JSON
// Schema's "type" says (an integer's fraction is left to the schema).
func jsonTypeIs(k Kind, v any) bool {
	switch k {
	case KindString, KindNumber, KindInteger, KindBoolean, KindArray, KindObject:
	default:
		return true // a kind with no JSON type: Validate judges it
	}
	switch v.(type) {
	case string:
		return k == KindString
	case bool:
		return k == KindBoolean
	case float64, float32, int, int32, int64, json.Number:
		return k == KindNumber || k == KindInteger
	case []any:
		return k == KindArray
	case map[string]any:
		return k == KindObject
	}
	return true // a Go value no JSON decoder makes: Validate judges it
}
