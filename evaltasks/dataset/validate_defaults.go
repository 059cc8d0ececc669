package dataset

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/understudy/understudy/toolset"
)

// A parameter's description that names a default other than the one its
// schema declares misleads both the model (it leaves the argument out
// expecting UTC and gets Lisbon) and the gold (which follows one of the
// two): the validator holds them to one.

var (
	// defaultSaid finds "Default X", "default: X", "defaults to X" and
	// "default is X".
	defaultSaid = regexp.MustCompile(`(?i)\bdefault(?:s to|\s+is|:|=)?\s+` + "[`'\"]?" + `([^\s,;()` + "`'\"" + `]+)`)
	// defaultMarked finds "X (default)".
	defaultMarked = regexp.MustCompile(`([^\s,;:(` + "`'\"" + `]+)` + "[`'\"]?" + `\s*\(default\)`)
)

// DocumentedDefault is the default a parameter's description states, ""
// when it states none.
func DocumentedDefault(desc string) string {
	if m := defaultMarked.FindStringSubmatch(desc); m != nil {
		return strings.TrimRight(m[1], ".")
	}
	if m := defaultSaid.FindStringSubmatch(desc); m != nil {
		return strings.TrimRight(m[1], ".")
	}
	return ""
}

// DefaultMismatch says how a parameter's described default differs from
// its declared one, "" when they agree or the description states none.
func DefaultMismatch(p *toolset.Param) string {
	if p.Default == nil {
		return ""
	}
	said := DocumentedDefault(p.Description)
	if said == "" {
		return ""
	}
	declared := fmt.Sprint(p.Default)
	if f, ok := p.Default.(float64); ok {
		declared = fmt.Sprintf("%g", f)
	}
	if strings.EqualFold(said, declared) || strings.EqualFold(said, fmt.Sprintf("%q", declared)) {
		return ""
	}
	return fmt.Sprintf("the description says the default is %q, the schema declares %q", said, declared)
}

// checkDocumentedDefaults holds every parameter's described default to
// its declared one.
func (v *validator) checkDocumentedDefaults() {
	for _, a := range v.cat.APIs() {
		for _, p := range a.Params {
			if msg := DefaultMismatch(p); msg != "" {
				v.problem(nil, "toolset", "%s parameter %s: %s", a.ID(), p.Name, msg)
			}
		}
	}
}
