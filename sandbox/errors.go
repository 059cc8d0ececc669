package sandbox

import (
	"fmt"
	"strings"
	"time"
)

// NotFoundError reports an unknown tool or API, with close matches.
type NotFoundError struct {
	Tool, API   string
	ToolKnown   bool
	Suggestions []string
}

func (e *NotFoundError) Error() string {
	what := fmt.Sprintf("unknown tool %q", e.Tool)
	if e.ToolKnown {
		what = fmt.Sprintf("tool %q has no API %q", e.Tool, e.API)
	}
	if len(e.Suggestions) > 0 {
		what += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return what
}

// RateLimitError reports a call refused by a tool's rate limit or daily quota.
type RateLimitError struct {
	Tool       string
	Client     string
	RetryAfter time.Duration
	// Quota is true when the daily quota, not the per-second rate, is exhausted.
	Quota bool
	Limit string // the limit that was hit, e.g. "5/s" or "500/day"
}

func (e *RateLimitError) Error() string {
	kind := "rate limit"
	if e.Quota {
		kind = "daily quota"
	}
	return fmt.Sprintf("%s of %s exceeded for tool %q; retry after %s", kind, e.Limit, e.Tool, e.RetryAfter.Round(time.Second))
}

// ReplayMissError reports a call with no recording in replay mode.
type ReplayMissError struct {
	Tool, API string
	Key       string
	Arguments string // canonical JSON
	// Nearest are up to MaxNearest recorded calls of the API, the nearest
	// first (see nearestRecorded), when the recordings can list them.
	Nearest []RecordedCall
	// Listed says the recordings could list the API's recorded calls, so
	// that an empty Nearest means there are none.
	Listed bool
}

// MaxNearest bounds the recorded calls a replay miss names.
const MaxNearest = 3

func (e *ReplayMissError) Error() string {
	msg := fmt.Sprintf("replay mode: no recording for %s.%s with arguments %s (key %s)", e.Tool, e.API, e.Arguments, e.Key)
	if len(e.Nearest) == 0 {
		if e.Listed {
			return msg + "; the API has no recorded calls"
		}
		return msg
	}
	near := make([]string, len(e.Nearest))
	for i, n := range e.Nearest {
		near[i] = string(n.Arguments)
	}
	return msg + "; nearest recorded: " + strings.Join(near, ", ")
}

// UpstreamError reports a failed call to the real API in live mode (in
// record mode the stand-in answers instead and the error is noted).
type UpstreamError struct {
	Tool, API string
	Status    int // 0 when no HTTP answer came back
	Err       error
}

func (e *UpstreamError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("upstream %s.%s answered %d: %v", e.Tool, e.API, e.Status, e.Err)
	}
	return fmt.Sprintf("upstream %s.%s: %v", e.Tool, e.API, e.Err)
}

func (e *UpstreamError) Unwrap() error { return e.Err }

// UnavailableError reports shared state (the Redis server several
// replicas share recordings, quotas and sessions through) that did not
// answer. The call is refused whole: nothing of it was recorded, counted
// or traced half-way.
type UnavailableError struct {
	What string // "recordings", "rate limits", "sessions", "provenance"
	Err  error
}

func (e *UnavailableError) Error() string {
	return fmt.Sprintf("shared %s unavailable: %v", e.What, e.Err)
}

func (e *UnavailableError) Unwrap() error { return e.Err }

// KeptError is the error of a Recordings.Put that one store did not take
// while another kept the recording (the local mirror of a shared store
// that did not answer, to be pushed to it later): the answer is recorded,
// and Where says where it is. The call's note says so, not "not recorded".
type KeptError struct {
	Where string // "recorded to the local mirror, pending push to Redis"
	Err   error  // why the other store did not take it
}

func (e *KeptError) Error() string { return fmt.Sprintf("%s (%v)", e.Where, e.Err) }

func (e *KeptError) Unwrap() error { return e.Err }

// ConfigError reports an engine misconfiguration found at start-up.
type ConfigError struct {
	Field string
	Err   error
}

func (e *ConfigError) Error() string { return fmt.Sprintf("%s: %v", e.Field, e.Err) }
func (e *ConfigError) Unwrap() error { return e.Err }
