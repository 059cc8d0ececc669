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

func (e *ValidationError) Error() string {
	msgs := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		msgs[i] = fmt.Sprintf("%s: %s", strings.Join(v.Location, "."), v.Message)
	}
	return fmt.Sprintf("invalid arguments for %s: %s", e.API, strings.Join(msgs, "; "))
}
