package sandbox

import (
	"context"
	"errors"
	"net/http"

	"github.com/understudy/understudy/toolset"
)

// Kind says why the engine did not answer a call. It is the one error
// taxonomy of the project: every transport, executor and the evaluator map
// an engine error to a status through it, so a replay miss is the same 404
// everywhere. The value is the problem type of docs/problems.md's
// sections (problem-<kind>).
type Kind string

// The kinds of engine errors, with the error type each one stands for.
const (
	// KindUnknownAPI: no such tool or API (*NotFoundError). 404.
	KindUnknownAPI Kind = "unknown-api"
	// KindInvalidArguments: the arguments do not fit the API's schema
	// (*toolset.ValidationError). 400.
	KindInvalidArguments Kind = "invalid-arguments"
	// KindRateLimited: a tool's rate or daily quota is used up
	// (*RateLimitError). 429.
	KindRateLimited Kind = "rate-limited"
	// KindNoRecording: replay mode has no recording of the call
	// (*ReplayMissError). 404.
	KindNoRecording Kind = "no-recording"
	// KindUpstreamFailed: live mode got no answer from the real API
	// (*UpstreamError). 502.
	KindUpstreamFailed Kind = "upstream-failed"
	// KindCancelled: the caller went away or the call timed out
	// (context.Canceled, context.DeadlineExceeded). 503.
	KindCancelled Kind = "cancelled"
	// KindUnavailable: the shared state of several replicas (Redis) did
	// not answer (*UnavailableError). 503.
	KindUnavailable Kind = "unavailable"
	// KindInternal: anything else, a defect. 500.
	KindInternal Kind = "internal"
)

// Status is the HTTP status a transport answers with for an error of this
// kind; 200 for the empty kind (no error).
func (k Kind) Status() int {
	switch k {
	case "":
		return http.StatusOK
	case KindUnknownAPI, KindNoRecording:
		return http.StatusNotFound
	case KindInvalidArguments:
		return http.StatusBadRequest
	case KindRateLimited:
		return http.StatusTooManyRequests
	case KindUpstreamFailed:
		return http.StatusBadGateway
	case KindCancelled, KindUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// Kinded is an error that knows its kind. The engine's error types
// implement it; KindOf finds it anywhere in a wrapped chain.
type Kinded interface {
	error
	Kind() Kind
}

// KindOf classifies err by the first error in its chain that has a kind:
// the engine's typed errors, a *toolset.ValidationError, then a cancelled
// or timed-out context; anything else is KindInternal. KindOf(nil) is "".
func KindOf(err error) Kind {
	var (
		k  Kinded
		ve *toolset.ValidationError
	)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &k):
		return k.Kind()
	case errors.As(err, &ve):
		return KindInvalidArguments
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return KindCancelled
	}
	return KindInternal
}

// StatusOf is KindOf(err).Status(): the HTTP status for an engine error,
// 200 for nil.
func StatusOf(err error) int { return KindOf(err).Status() }

// Kind is KindUnknownAPI.
func (e *NotFoundError) Kind() Kind { return KindUnknownAPI }

// Kind is KindRateLimited.
func (e *RateLimitError) Kind() Kind { return KindRateLimited }

// Kind is KindNoRecording.
func (e *ReplayMissError) Kind() Kind { return KindNoRecording }

// Kind is KindUpstreamFailed.
func (e *UpstreamError) Kind() Kind { return KindUpstreamFailed }

// Kind is KindUnavailable.
func (e *UnavailableError) Kind() Kind { return KindUnavailable }

var (
	_ Kinded = (*UnavailableError)(nil)
	_ Kinded = (*NotFoundError)(nil)
	_ Kinded = (*RateLimitError)(nil)
	_ Kinded = (*ReplayMissError)(nil)
	_ Kinded = (*UpstreamError)(nil)
)
