package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/understudy/understudy/toolset"
)

// Provenance is the dependency step of the pipeline: it checks that values
// of dependent parameters were emitted earlier in the session by their
// source APIs, and learns what each response emits. The deps package
// provides the implementation; a nil Provenance skips the step.
type Provenance interface {
	// Check runs after validation and before dispatch.
	Check(session string, api *toolset.API, args map[string]any) ProvenanceCheck
	// Observe records what a successful response emitted, as call seq of the session.
	Observe(session string, seq int, api *toolset.API, args map[string]any, response json.RawMessage)
	// Forget drops a session's memory.
	Forget(session string)
}

// ProvenanceCheck is the verdict on one call's dependent values.
type ProvenanceCheck struct {
	// Provided maps a parameter to the earlier call (session seq) whose
	// response emitted its value.
	Provided map[string]int `json:"provided,omitempty"`
	// Violations lists fabricated values, wrong sources and calls made
	// before their dependency.
	Violations []Violation `json:"violations,omitempty"`
	// Reject, when set, stops the call: the engine answers with this
	// API-style failure instead of dispatching (enforce policy).
	Reject *Rejection `json:"-"`
}

// Violation is one dependency rule broken by a call.
type Violation struct {
	Param string `json:"param"`
	// Kind is "fabricated" (no call emitted the value), "wrong_source" (a
	// call emitted it, but not a source API of the parameter) or
	// "before_dependency" (no source API was called yet).
	Kind    string `json:"kind"`
	Value   any    `json:"value,omitempty"`
	Message string `json:"message"`
	// Sources are the APIs the value should come from ("tool.api").
	Sources []string `json:"sources,omitempty"`
	// Enforced is true when the call was refused for this violation.
	Enforced bool `json:"enforced"`
}

// Rejection is the failure a real API gives for a value it never issued,
// e.g. 400 {"status": false, "message": "Invalid fromId"}.
type Rejection struct {
	Status int
	Body   any
	// Header holds response headers the API sends with the failure, such
	// as Retry-After on a 429.
	Header http.Header
}

// Error makes a Rejection the error a stand-in returns for a failure the
// real API would answer with; the engine serves its status and body.
func (r *Rejection) Error() string {
	b, _ := json.Marshal(r.Body)
	return fmt.Sprintf("status %d: %s", r.Status, b)
}
