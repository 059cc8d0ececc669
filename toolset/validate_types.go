package toolset

import (
	"fmt"
	"strings"
)

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
