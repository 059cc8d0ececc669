package server

import (
	"context"
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
	Type        string              `json:"type"`
	Title       string              `json:"title"`
	Status      int                 `json:"status"`
	Detail      string              `json:"detail"`
	Message     string              `json:"message"`
	Validation  []toolset.Violation `json:"validation,omitempty"`
	Suggestions []string            `json:"suggestions,omitempty"`
	Key         string              `json:"key,omitempty"`
	RetryAfter  int                 `json:"retry_after,omitempty"` // seconds

	headers http.Header
}

func (p *Problem) Error() string { return p.Detail }

const problemBase = "https://github.com/understudy/understudy/blob/main/README.md#problem-"

func newProblem(status int, kind, title, detail string) *Problem {
	return &Problem{Type: problemBase + kind, Title: title, Status: status, Detail: detail, Message: detail}
}

// problemOf turns any error of the pipeline or of request decoding into a problem.
func problemOf(err error) *Problem {
	var (
		p   *Problem
		nf  *sandbox.NotFoundError
		ve  *toolset.ValidationError
		rl  *sandbox.RateLimitError
		rm  *sandbox.ReplayMissError
		ue  *sandbox.UpstreamError
		mbe *http.MaxBytesError
	)
	switch {
	case errors.As(err, &p):
		return p
	case errors.As(err, &nf):
		pr := newProblem(http.StatusNotFound, "unknown-api", "Unknown tool or API", nf.Error())
		pr.Suggestions = nf.Suggestions
		return pr
	case errors.As(err, &ve):
		pr := newProblem(http.StatusBadRequest, "invalid-arguments", "Invalid arguments", ve.Error())
		pr.Validation = ve.Violations
		return pr
	case errors.As(err, &rl):
		secs := int(math.Ceil(rl.RetryAfter.Seconds()))
		secs = max(secs, 1)
		pr := newProblem(http.StatusTooManyRequests, "rate-limited", "Too many requests", rl.Error())
		pr.RetryAfter = secs
		pr.headers = http.Header{"Retry-After": {strconv.Itoa(secs)}}
		return pr
	case errors.As(err, &rm):
		pr := newProblem(http.StatusNotFound, "no-recording", "No recording for this call", rm.Error())
		pr.Key = rm.Key
		return pr
	case errors.As(err, &ue):
		return newProblem(http.StatusBadGateway, "upstream-failed", "Upstream API failed", ue.Error())
	case errors.As(err, &mbe):
		return newProblem(http.StatusRequestEntityTooLarge, "body-too-large", "Request body too large", "the request body is larger than "+strconv.FormatInt(mbe.Limit, 10)+" bytes")
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return newProblem(http.StatusServiceUnavailable, "cancelled", "Call cancelled", err.Error())
	}
	return newProblem(http.StatusInternalServerError, "internal", "Internal error", err.Error())
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
