package toolset

import (
	"strings"
	"unicode"
)

// Standardize is ToolBench's name standardisation, as StableToolBench applies
// it to tool and API names: every character other than ASCII letters, digits,
// '_' and CJK ideographs becomes '_', runs of '_' collapse, the result is
// lowercased and trimmed of '_', and a leading digit gets the prefix "get_".
func Standardize(s string) string {
	var b strings.Builder
	prevUnderscore := false
	for _, r := range s {
		keep := r == '_' || (r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r))) || (r >= 0x4e00 && r <= 0x9fa5)
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

// reservedAPINames are the API names ToolBench prefixes with "is_" because
// they are Python keywords or clash with its own fields.
var reservedAPINames = map[string]bool{"from": true, "class": true, "return": true, "false": true, "true": true, "id": true, "and": true}

// StandardizeAPIName is Standardize plus ToolBench's change_name rule for API names.
func StandardizeAPIName(s string) string {
	out := Standardize(s)
	if reservedAPINames[out] {
		out = "is_" + out
	}
	return out
}
