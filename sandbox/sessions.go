package sandbox

import (
	"encoding/json"
	"sort"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
)

// CallRecord is one call in a session's trace.
type CallRecord struct {
	Seq       int             `json:"seq"`
	Tool      string          `json:"tool"`
	API       string          `json:"api"`
	Arguments json.RawMessage `json:"arguments"`
	Status    int             `json:"status"`
	Source    string          `json:"source"`
	// Provided maps each dependent parameter to the seq of the earlier call
	// that emitted its value.
	Provided   map[string]int `json:"provided,omitempty"`
	Violations []Violation    `json:"violations,omitempty"`
	// Rejected is true when the dependency check refused the call.
	Rejected bool   `json:"rejected,omitempty"`
	Error    string `json:"error,omitempty"`
}

// SessionTrace is what GET /v1/sessions/{id} returns.
type SessionTrace struct {
	ID         string       `json:"id"`
	Calls      []CallRecord `json:"calls"`
	Violations int          `json:"violations"`
	// Dropped counts the oldest calls no longer kept (the trace is bounded).
	Dropped int `json:"dropped,omitempty"`
}

type session struct {
	mu      sync.Mutex
	next    int
	calls   []CallRecord
	dropped int
}

// sessions is a bounded set of session traces: the least recently used
// session is forgotten first, and each keeps at most maxCalls calls.
type sessions struct {
	cache    *lru.Cache[string, *session]
	maxCalls int
	mu       sync.Mutex // serialises get-or-create
}

func newSessions(maxSessions, maxCalls int, onEvict func(id string)) *sessions {
	c, err := lru.NewWithEvict[string, *session](maxSessions, func(id string, _ *session) {
		if onEvict != nil {
			onEvict(id)
		}
	})
	if err != nil {
		panic(err) // only for a non-positive size, which New rules out
	}
	return &sessions{cache: c, maxCalls: maxCalls}
}

func (s *sessions) get(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, ok := s.cache.Get(id); ok {
		return ss
	}
	ss := &session{next: 1}
	s.cache.Add(id, ss)
	return ss
}

// reserve hands out the next call number of the session.
func (ss *session) reserve() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	seq := ss.next
	ss.next++
	return seq
}

func (s *sessions) append(ss *session, rec CallRecord) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.calls = append(ss.calls, rec)
	if len(ss.calls) > s.maxCalls {
		// Drop a quarter at a time so a long session does not copy its
		// whole trace on every call.
		n := len(ss.calls) - s.maxCalls + max(s.maxCalls/4, 1)
		n = min(n, len(ss.calls)-1)
		ss.calls = append(ss.calls[:0:0], ss.calls[n:]...)
		ss.dropped += n
	}
}

func (s *sessions) trace(id string) (SessionTrace, bool) {
	ss, ok := s.cache.Peek(id)
	if !ok {
		return SessionTrace{}, false
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	t := SessionTrace{ID: id, Calls: append([]CallRecord(nil), ss.calls...), Dropped: ss.dropped}
	// Concurrent calls of one session finish in any order; the trace reads in call order.
	sort.Slice(t.Calls, func(i, j int) bool { return t.Calls[i].Seq < t.Calls[j].Seq })
	for _, c := range t.Calls {
		t.Violations += len(c.Violations)
	}
	return t, true
}
