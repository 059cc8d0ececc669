package sandbox

import (
	"context"

	"github.com/understudy/understudy/internal/clock"
)

// Traces keeps the sessions' traces (GET /v1/sessions/{id}) and hands out
// their call numbers. The default is in this process, bounded (Options'
// MaxSessions, MaxSessionTraceBytes, MaxTraceBytes); the Redis one
// (internal/redisstate) lets any replica serve the next call of a session.
// Every key is a SessionKey.
type Traces interface {
	// Begin reserves the next call number of the session, creating it.
	Begin(ctx context.Context, key string) (TraceSlot, error)
	// Append adds a finished call to the trace its slot was reserved in;
	// a session forgotten while the call ran does not get it.
	Append(ctx context.Context, slot TraceSlot, rec CallRecord) error
	// Trace returns the session's trace, labelled id.
	Trace(ctx context.Context, key, id string) (SessionTrace, bool, error)
	// Remove forgets the session; it reports whether there was one.
	Remove(ctx context.Context, key string) (bool, error)
}

// TraceSlot is a call number reserved in a session.
type TraceSlot struct {
	Key string
	Seq int
	ss  *session // the in-memory trace; nil for other stores
}

// Local reports whether the slot was reserved in in-memory traces.
func (s TraceSlot) Local() bool { return s.ss != nil }

// NewTraces returns the in-memory traces with the given bounds (defaults
// for values of 0 or less, as in Options), sessions idle for
// DefaultSessionIdle forgotten; onEvict is told the key of each session
// forgotten to keep them.
func NewTraces(maxSessions int, maxSessionBytes, maxBytes int64, onEvict func(key string)) Traces {
	if maxSessions <= 0 {
		maxSessions = 10000
	}
	if maxSessionBytes <= 0 {
		maxSessionBytes = DefaultMaxSessionTraceBytes
	}
	if maxBytes <= 0 {
		maxBytes = 64 << 20
	}
	return newSessions(maxSessions, maxSessionBytes, maxBytes, DefaultSessionIdle, clock.Real{}, onEvict)
}

// DefaultMaxSessionTraceBytes bounds one session's trace (some 3,000
// calls of the built-in tools): past it the oldest calls go first.
const DefaultMaxSessionTraceBytes = 1 << 20

var _ Traces = (*sessions)(nil)

// Begin reserves the next call number of the session.
func (s *sessions) Begin(_ context.Context, key string) (TraceSlot, error) {
	ss := s.get(key)
	return TraceSlot{Key: key, Seq: ss.reserve(), ss: ss}, nil
}

// Append adds a finished call to its session's trace.
func (s *sessions) Append(_ context.Context, slot TraceSlot, rec CallRecord) error {
	if slot.ss != nil {
		s.append(slot.ss, rec)
	}
	return nil
}

// Trace returns the session's trace.
func (s *sessions) Trace(_ context.Context, key, id string) (SessionTrace, bool, error) {
	t, ok := s.trace(key, id)
	return t, ok, nil
}

// Remove forgets the session.
func (s *sessions) Remove(_ context.Context, key string) (bool, error) {
	return s.remove(key), nil
}
