package toolset

import (
	"fmt"
	"strings"
)

// ValidationMode says how a call's arguments are read (see API.ValidateIn).
type ValidationMode string

// The validation modes.
const (
	// Strict refuses what the API's documentation does not allow.
	Strict ValidationMode = "strict"
	// Lenient also accepts what StableToolBench's servers accept
	// (undocumented arguments, placeholders for values), with warnings.
	Lenient ValidationMode = "lenient"
)

// ParseValidationMode reads a -validation flag value; "" means each tool's
// own mode (Tool.Validation).
func ParseValidationMode(s string) (ValidationMode, error) {
	switch m := ValidationMode(strings.ToLower(strings.TrimSpace(s))); m {
	case Strict, Lenient, "":
		return m, nil
	}
	return "", fmt.Errorf("unknown validation mode %q: want strict or lenient", s)
}

// Validation is the mode a tool's calls are validated in when no mode is
// chosen for every tool: lenient for a tool read from a ToolBench tool file
// other than the built-in ones (StableToolBench's own tree and the like,
// whose servers read calls leniently), strict for the built-in tools and
// OpenAPI documents, whose calls are held to their documentation.
func (t *Tool) Validation() ValidationMode {
	if t != nil && t.validation != "" {
		return t.validation // as the catalog it was exported from read it
	}
	if t != nil && t.ToolBench && !t.Builtin {
		return Lenient
	}
	return Strict
}

// Violation is one reason a call's arguments are invalid. Location is the
// path to the offending value, starting with the parameter name.
type Violation struct {
	Location []string `json:"location"`
	Code     string   `json:"code"` // required, unknown, type, enum, format, minimum, maximum, pattern, ...
	Message  string   `json:"message"`
}

// ValidationError lists every violation of one call; transports render it
// as problem+json with a "validation" array.
type ValidationError struct {
	API        string // the API's ID ("tool.api")
	Violations []Violation
}

// MaxListedViolations is how many violations a ValidationError's text, and
// a problem's "validation" array, list; the rest are counted ("… and N
// more"). An answer stays about the size of the request that caused it:
// 60,000 unknown arguments, each told the names the API takes, once made
// a 13.8 MB answer to a 1 MB call.
const MaxListedViolations = 50

func (e *ValidationError) Error() string {
	listed := e.Violations[:min(len(e.Violations), MaxListedViolations)]
	msgs := make([]string, len(listed))
	for i, v := range listed {
		msgs[i] = fmt.Sprintf("%s: %s", strings.Join(v.Location, "."), v.Message)
	}
	s := fmt.Sprintf("invalid arguments for %s: %s", e.API, strings.Join(msgs, "; "))
	if more := len(e.Violations) - len(listed); more > 0 {
		s += fmt.Sprintf("; … and %d more", more)
	}
	return s
}
