// Package callcheck checks the calls an agent makes against a gold call, as BFCL's checker does (the evaluation paper's Task 4), and classifies the calls made without the information they need.
package callcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/toolset"
)

// Outcomes of checking a call (Task 4, and the call made in Tasks 1-3).
const (
	OutcomeCorrect       = "correct"
	OutcomeNoCall        = "no_call"
	OutcomeParseError    = "parse_error"
	OutcomeWrongName     = "wrong_name"
	OutcomeMissingArg    = "missing_argument"
	OutcomeUnexpectedArg = "unexpected_argument"
	OutcomeWrongType     = "wrong_type"
	OutcomeWrongValue    = "wrong_value"
	// OutcomeExtraCall: the reply makes more calls than the one expected;
	// BFCL's checker fails a wrong number of calls before it looks at them.
	OutcomeExtraCall = "extra_call"
	// OutcomeInvalidGold: the gold call itself is unusable (an argument
	// without acceptable values): a dataset error, never "anything goes".
	OutcomeInvalidGold = "invalid_gold"
)

// CheckAll checks a whole reply against a gold call: exactly one call,
// and that call correct. No call is OutcomeNoCall; more than one is
// OutcomeExtraCall, even when one of them is right.
func CheckAll(cat *toolset.Catalog, gold *dataset.GoldCall, calls []agent.ToolCall) Result {
	switch {
	case len(calls) == 0:
		return Result{Outcome: OutcomeNoCall}
	case len(calls) > 1:
		if err := gold.Check(); err != nil {
			return Result{Outcome: OutcomeInvalidGold, Detail: err.Error()}
		}
		return Result{Outcome: OutcomeExtraCall, Detail: fmt.Sprintf("%d calls made, 1 expected", len(calls))}
	}
	return Check(cat, gold, calls[0])
}

// Result is the verdict on one call against a gold call.
type Result struct {
	Outcome string `json:"outcome"`
	// Param is the argument at fault, when one is.
	Param  string `json:"param,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// DecodeArguments reads a call's arguments as a JSON object, keeping
// numbers as written (json.Number) so that 5 and 5.0 can be told apart.
func DecodeArguments(tc agent.ToolCall) (map[string]any, error) {
	if tc.ArgumentsError != "" {
		return nil, fmt.Errorf("arguments are not a JSON object: %s", tc.ArgumentsError)
	}
	raw := bytes.TrimSpace(tc.Arguments)
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil {
		return nil, fmt.Errorf("arguments are not a JSON object: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("arguments hold more than one JSON value")
	}
	if args == nil {
		args = map[string]any{}
	}
	return args, nil
}

// Check checks a call against a gold call, BFCL-style: the right
// function, every required argument present, no unexpected argument, each
// value of the documented type, and each value among the acceptable ones
// after normalisation (strings compared without case, spaces and
// punctuation; numbers by value). An optional argument given at its
// documented default counts as omitted. A null value counts as omitted.
// Integers compare exactly; other numbers within a float tolerance. A gold
// call with an argument that lists no acceptable value is OutcomeInvalidGold.
func Check(cat *toolset.Catalog, gold *dataset.GoldCall, tc agent.ToolCall) Result {
	if err := gold.Check(); err != nil {
		var ge *dataset.GoldError
		errors.As(err, &ge)
		return Result{Outcome: OutcomeInvalidGold, Param: ge.Param, Detail: err.Error()}
	}
	want := dataset.ResolveAPI(cat, gold.API)
	got := cat.APIByExportName(tc.Name)
	if want == nil {
		return Result{Outcome: OutcomeWrongName, Detail: fmt.Sprintf("gold API %q is not in the catalog", gold.API)}
	}
	if got != want {
		return Result{Outcome: OutcomeWrongName, Detail: fmt.Sprintf("called %q, want %q", tc.Name, toolset.ExportName(want, toolset.NameDotted))}
	}
	args, err := DecodeArguments(tc)
	if err != nil {
		return Result{Outcome: OutcomeParseError, Detail: err.Error()}
	}
	for name, v := range args {
		if v == nil {
			delete(args, name)
		}
	}
	// Unexpected arguments: unknown to the API, or outside the gold call
	// and not at their default.
	for _, name := range slices.Sorted(maps.Keys(args)) {
		p := want.Param(name)
		if p == nil {
			return Result{Outcome: OutcomeUnexpectedArg, Param: name, Detail: "the API has no such parameter"}
		}
		if _, ok := gold.Arguments[name]; ok {
			continue
		}
		if atDefault(p, args[name]) {
			delete(args, name)
			continue
		}
		return Result{Outcome: OutcomeUnexpectedArg, Param: name, Detail: fmt.Sprintf("%s is not part of the expected call", name)}
	}
	// Missing arguments: required by the gold call or by the API.
	for _, name := range slices.Sorted(maps.Keys(gold.Arguments)) {
		if _, ok := args[name]; !ok && !gold.Arguments[name].Optional && !goldIsDefault(want.Param(name), gold.Arguments[name]) {
			return Result{Outcome: OutcomeMissingArg, Param: name}
		}
	}
	for _, p := range want.Params {
		if _, ok := args[p.Name]; !ok && p.Required {
			if acc, inGold := gold.Arguments[p.Name]; !inGold || !acc.Optional {
				return Result{Outcome: OutcomeMissingArg, Param: p.Name}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(args)) {
		p, v := want.Param(name), args[name]
		if !p.Kind.Holds(v) {
			return Result{Outcome: OutcomeWrongType, Param: name, Detail: fmt.Sprintf("%s given, want %s", toolset.KindOf(v), p.Kind)}
		}
		acc := gold.Arguments[name]
		if !Acceptable(p, acc, v) && !(IsCodeParam(want, p) && sameEffectAsAny(acc, v)) {
			return Result{Outcome: OutcomeWrongValue, Param: name, Detail: fmt.Sprintf("%s is not among the acceptable values %s", CompactJSON(v), CompactJSON(acc.Values))}
		}
	}
	return Result{Outcome: OutcomeCorrect}
}

// Acceptable tells whether v, given for parameter p, is among acc's
// acceptable values after normalisation (SameValue), or, acc being
// optional, p's documented default. It is Check's rule for one argument,
// for other checkers of calls (the tool server's expectations) to share.
func Acceptable(p *toolset.Param, acc dataset.Acceptable, v any) bool {
	for _, a := range acc.Values {
		if SameValue(a, v) {
			return true
		}
	}
	return acc.Optional && p != nil && atDefault(p, v)
}

// goldIsDefault tells whether a gold argument's acceptable values hold
// the optional parameter's documented default: a reply that leaves it out
// gets the same answer (the engine applies the default), so it is no
// missing argument.
func goldIsDefault(p *toolset.Param, acc dataset.Acceptable) bool {
	if p == nil || p.Required || p.Default == nil {
		return false
	}
	for _, a := range acc.Values {
		if SameValue(a, p.Default) {
			return true
		}
	}
	return false
}

// sameEffectAsAny tells whether a program does what one of the acceptable
// programs does (SameEffect).
func sameEffectAsAny(acc dataset.Acceptable, v any) bool {
	got, ok := v.(string)
	if !ok {
		return false
	}
	for _, a := range acc.Values {
		if want, ok := a.(string); ok && SameEffect(want, got) {
			return true
		}
	}
	return false
}

// atDefault tells whether v is an optional parameter's documented default
// (a required parameter's "default" is only an example value).
func atDefault(p *toolset.Param, v any) bool {
	return !p.Required && p.Default != nil && SameValue(p.Default, v)
}

// bfclPunct is what BFCL's standardize_string removes before comparing strings.
var bfclPunct = regexp.MustCompile(`[ ,./\-_*^]`)

// normString is BFCL's standardize_string, with accents taken off Latin
// letters (Kraków is Krakow) and Greek final sigma folded to σ, which
// Unicode lower-casing leaves apart (ΟΔΟΣ is οδοσ, οδος is οδος).
func normString(s string) string {
	return strings.ReplaceAll(textmatch.FoldAccents(strings.ReplaceAll(strings.ToLower(bfclPunct.ReplaceAllString(s, "")), "ς", "σ")), "'", `"`)
}

// sameFloat bounds the difference of two equal non-integers: the
// smaller of a relative 1e-9 (decimal round trips such as 0.1+0.2) and an
// absolute 1e-6, so that large values are not made equal by the relative
// part alone.
func sameFloat(a, b float64) bool {
	if a == b {
		return true
	}
	d := math.Abs(a - b)
	return d <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) && d <= 1e-6
}

// intValue reads an integer exactly: a JSON number written without a
// fraction or exponent (any size), or an integral float64 or Go integer.
func intValue(v any) (*big.Int, bool) {
	switch x := v.(type) {
	case json.Number:
		s := x.String()
		if strings.ContainsAny(s, ".eE") {
			return nil, false
		}
		n, ok := new(big.Int).SetString(s, 10)
		return n, ok
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) || x != math.Trunc(x) {
			return nil, false
		}
		n, _ := big.NewFloat(x).Int(nil)
		return n, true
	case int:
		return big.NewInt(int64(x)), true
	case int64:
		return big.NewInt(x), true
	}
	return nil, false
}

// ToFloat reads a decoded JSON number (json.Number or float64) as a float64.
func ToFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// SameValue compares an acceptable value with a given one after
// normalisation. Integers compare exactly (1748854800 is not 1748854801);
// other numbers as sameFloat says. Arrays compare element by element
// in order; objects key by key.
func SameValue(want, got any) bool {
	if wi, ok := intValue(want); ok {
		if gi, ok := intValue(got); ok {
			return wi.Cmp(gi) == 0
		}
	}
	if wf, ok := ToFloat(want); ok {
		gf, ok := ToFloat(got)
		if !ok {
			return false
		}
		return sameFloat(wf, gf)
	}
	switch w := want.(type) {
	case string:
		g, ok := got.(string)
		return ok && (normString(w) == normString(g) || samePlace(w, g))
	case bool:
		g, ok := got.(bool)
		return ok && w == g
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !SameValue(w[i], g[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !SameValue(wv, gv) {
				return false
			}
		}
		return true
	case nil:
		return got == nil
	}
	return false
}

// CompactJSON writes a value as compact JSON for a verdict's detail.
func CompactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// The mistake kinds of the evaluation paper §4 (Task 3) for calls made although
// information was missing.
const (
	MistakeHallucinated = "hallucinated_value"
	MistakePlaceholder  = "placeholder_value"
	MistakeImprecise    = "imprecise_value"
	MistakeMissingParam = "missing_parameter"
)

// Mistake is one wrong argument of a call made without the information it needs.
type Mistake struct {
	Kind  string `json:"kind"`
	API   string `json:"api,omitempty"`
	Param string `json:"param"`
	Value any    `json:"value,omitempty"`
}

// placeholderRE recognises values that stand for a value instead of being
// one: /path/to/image, <city>, {location}, YOUR_API_KEY, example.com, xxx.
var placeholderRE = regexp.MustCompile(`(?i)(/path/to|path/to/|\bexample\.(com|org|net)\b|^\s*<[^>]*>\s*$|^\s*\{[^}]*\}\s*$|^\s*\[[^\]]*\]\s*$|\byour[_ -]|placeholder|^x{3,}$|^\s*\.{3}\s*$|^\s*(unknown|n/?a|none|null|tbd|todo|string|value|undefined|city|location|date|address|name|your location|user location|current location|here)\s*$|\buser'?s?[_ ](location|city|address|image|file)\b|\b(insert|specify|replace)\b|^0+$|^1970-01-01|^2000-01-01$)`)

// Mistakes classifies the arguments of calls made for a Type-III
// instruction: a required parameter left out is a missing parameter; a
// value given for a parameter the user did not supply is a placeholder if
// it looks like one, imprecise if it is taken from the instruction (a
// country where a city is needed), and hallucinated otherwise.
func Mistakes(cat *toolset.Catalog, in *dataset.Instruction, calls []agent.ToolCall) []Mistake {
	var out []Mistake
	text := textmatch.NewWordSet(in.Text)
	missing := map[string]bool{}
	for _, m := range in.Missing {
		missing[m] = true
	}
	for _, tc := range calls {
		api := cat.APIByExportName(tc.Name)
		if api == nil {
			continue
		}
		args, err := DecodeArguments(tc)
		if err != nil {
			continue
		}
		for _, p := range api.Params {
			v, given := args[p.Name]
			if given && v == nil {
				given = false
			}
			switch {
			case !given && p.Required:
				out = append(out, Mistake{Kind: MistakeMissingParam, API: api.ID(), Param: p.Name})
			case given && missing[p.Name]:
				s := fmt.Sprint(v)
				kind := MistakeHallucinated
				switch {
				case placeholderRE.MatchString(s):
					kind = MistakePlaceholder
				case len(textmatch.ContentWords(s)) > 0 && text.Coverage(s) >= 0.5:
					kind = MistakeImprecise
				}
				out = append(out, Mistake{Kind: kind, API: api.ID(), Param: p.Name, Value: v})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].API < out[j].API })
	return out
}
