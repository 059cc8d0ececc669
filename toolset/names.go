package toolset

import (
	"regexp"
	"strings"
	"unicode"
)

// Standardize is ToolBench's name standardisation, as StableToolBench applies
// it to tool, API and parameter names: every character other than ASCII
// letters, digits, '_', '^' and CJK ideographs (U+4E00–U+9FA5) becomes '_',
// runs of '_' collapse, the result is lowercased and trimmed of '_', and a
// leading digit gets the prefix "get_". The '^' survives because ToolBench's
// character class repeats '^' as a separator and so lists it as a character.
func Standardize(s string) string {
	var b strings.Builder
	prevUnderscore := false
	for _, r := range s {
		keep := r == '_' || r == '^' || (r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))) || (r >= 0x4e00 && r <= 0x9fa5)
		if !keep {
			r = '_'
		}
		if r == '_' {
			if prevUnderscore {
				continue
			}
			prevUnderscore = true
		} else {
			prevUnderscore = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	out := strings.Trim(b.String(), "_")
	if out != "" && out[0] >= '0' && out[0] <= '9' {
		out = "get_" + out
	}
	return out
}

// reservedNames are the names ToolBench's change_name prefixes with "is_"
// because they are Python keywords or clash with its own fields.
var reservedNames = map[string]bool{"from": true, "class": true, "return": true, "false": true, "true": true, "id": true, "and": true}

// changeName is ToolBench's change_name: a reserved name gets "is_".
func changeName(s string) string {
	if reservedNames[s] {
		return "is_" + s
	}
	return s
}

// StandardizeAPIName is Standardize plus ToolBench's change_name rule for API names.
func StandardizeAPIName(s string) string { return changeName(Standardize(s)) }

// ToolBenchParamName is the name ToolBench and StableToolBench give a
// parameter in the function schemas they show models,
// change_name(standardize(name)): "id" becomes "is_id", "from" "is_from",
// "countryCode" "countrycode", "departDate" "departdate". Models trained or
// prompted on those schemas call with these names; the catalog accepts
// them as aliases of the real ones (see API.ParamAliases).
func ToolBenchParamName(name string) string { return changeName(Standardize(name)) }

// ParamAliases maps each ToolBench spelling of a parameter name that
// differs from the real one to the real one. A spelling two parameters
// share, or one that is itself another parameter's real name, is left
// out: it would not say which parameter is meant.
func (a *API) ParamAliases() map[string]string {
	real := make(map[string]bool, len(a.Params))
	for _, p := range a.Params {
		real[p.Name] = true
	}
	out := map[string]string{}
	ambiguous := map[string]bool{}
	for _, p := range a.Params {
		alias := ToolBenchParamName(p.Name)
		if alias == "" || alias == p.Name || real[alias] || ambiguous[alias] {
			continue
		}
		if _, dup := out[alias]; dup {
			delete(out, alias)
			ambiguous[alias] = true
			continue
		}
		out[alias] = p.Name
	}
	return out
}

// MaxAPINameLen is the longest function name OpenAI (and most providers)
// accept, and so the longest API name a reader makes.
const MaxAPINameLen = 64

var unsafeNameChars = regexp.MustCompile(`[^a-zA-Z0-9_-]+`)

// SanitizeAPIName makes a name fit ^[a-zA-Z0-9_-]{1,64}$: other characters
// become '_', runs of '_' collapse, and the result is cut to 64 characters.
func SanitizeAPIName(s string) string {
	s = unsafeNameChars.ReplaceAllString(s, "_")
	for strings.Contains(s, "__") {
		s = strings.ReplaceAll(s, "__", "_")
	}
	s = strings.Trim(s, "_")
	if len(s) > MaxAPINameLen {
		s = strings.TrimRight(s[:MaxAPINameLen], "_")
	}
	if s == "" {
		s = "operation"
	}
	return s
}
