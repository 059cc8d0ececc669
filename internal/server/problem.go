package server

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Problem is an RFC 7807 problem detail. Message repeats Detail for clients
// written against RapidAPI's {"message": ...} errors.
type Problem struct {
	Type       string              `json:"type"`
	Title      string              `json:"title"`
	Status     int                 `json:"status"`
	Detail     string              `json:"detail"`
	Message    string              `json:"message"`
	Validation []toolset.Violation `json:"validation,omitempty"`
	// MoreViolations counts the violations beyond the first
	// toolset.MaxListedViolations, which alone are listed.
	MoreViolations int      `json:"more_violations,omitempty"`
	Suggestions    []string `json:"suggestions,omitempty"`
	Key            string   `json:"key,omitempty"`
	// Nearest are a replay miss's nearest recorded calls of the API.
	Nearest    []sandbox.RecordedCall `json:"nearest,omitempty"`
	RetryAfter int                    `json:"retry_after,omitempty"` // seconds

	headers http.Header
}

func (p *Problem) Error() string { return p.Detail }

// newProblem is a problem of a kind; its type is the page the server
// serves about that kind (ProblemPath, docs/problems.md).
func newProblem(status int, kind, title, detail string) *Problem {
	return &Problem{Type: ProblemPath + kind, Title: title, Status: status, Detail: detail, Message: detail}
}

// kindTitles titles the problem of each kind of engine error; the kind is
// the problem type and sets the status (sandbox.Kind).
var kindTitles = map[sandbox.Kind]string{
	sandbox.KindUnknownAPI:       "Unknown tool or API",
	sandbox.KindInvalidArguments: "Invalid arguments",
	sandbox.KindRateLimited:      "Too many requests",
	sandbox.KindNoRecording:      "No recording for this call",
	sandbox.KindUpstreamFailed:   "Upstream API failed",
	sandbox.KindCancelled:        "Call cancelled",
	sandbox.KindUnavailable:      "Shared state unavailable",
	sandbox.KindInternal:         "Internal error",
}

// problemOf turns any error of the pipeline or of request decoding into a
// problem: a *Problem as is, an oversized body as 413, and engine errors by
// their sandbox.Kind, with what the client needs to act on them (the
// violations, close matches, when to retry, the missing recording's key).
func problemOf(err error) *Problem {
	var (
		p   *Problem
		mbe *http.MaxBytesError
	)
	switch {
	case errors.As(err, &p):
		return p
	case errors.As(err, &mbe):
		return newProblem(http.StatusRequestEntityTooLarge, "body-too-large", "Request body too large", "the request body is larger than "+strconv.FormatInt(mbe.Limit, 10)+" bytes")
	}
	kind := sandbox.KindOf(err)
	pr := newProblem(kind.Status(), string(kind), kindTitles[kind], err.Error())
	var (
		nf *sandbox.NotFoundError
		ve *toolset.ValidationError
		rl *sandbox.RateLimitError
		rm *sandbox.ReplayMissError
	)
	switch {
	case kind == sandbox.KindUnknownAPI && errors.As(err, &nf):
		pr.Suggestions = nf.Suggestions
	case kind == sandbox.KindInvalidArguments && errors.As(err, &ve):
		pr.Validation = ve.Violations[:min(len(ve.Violations), toolset.MaxListedViolations)]
		pr.MoreViolations = len(ve.Violations) - len(pr.Validation)
	case kind == sandbox.KindRateLimited && errors.As(err, &rl):
		secs := max(int(math.Ceil(rl.RetryAfter.Seconds())), 1)
		pr.RetryAfter = secs
		pr.headers = http.Header{"Retry-After": {strconv.Itoa(secs)}}
	case kind == sandbox.KindNoRecording && errors.As(err, &rm):
		pr.Key = rm.Key
		pr.Nearest = rm.Nearest
	}
	return pr
}

func writeProblem(w http.ResponseWriter, p *Problem) {
	for k, vs := range p.headers {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(p.Status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(p)
}
