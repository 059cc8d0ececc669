package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
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
	mu    sync.Mutex // guards next
	next  int
	calls []CallRecord // guarded by sessions.mu, as are the fields below
	// bytes approximates the memory the trace holds (ID and calls).
	bytes   int64
	dropped int
	gone    bool // evicted: calls still in flight no longer count
}

// Bounds of the session store. A session ID longer than maxSessionKey is
// kept as its SHA-256, so that a client cannot make the store (and the
// dependency tracker and stand-ins that share its keys) hold megabytes per
// session: 400 sessions with 900 KB IDs once took 545 MB.
const (
	maxSessionKey   = 128
	sessionOverhead = 256 // map slot, list element, struct
	callOverhead    = 160 // a CallRecord without its strings
)

// SessionKey is the key under which a session is kept: the ID itself, or
// "sha256:<hex>" of an ID longer than 128 bytes.
func SessionKey(id string) string {
	if len(id) <= maxSessionKey {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// sessions is a bounded set of session traces: the least recently used
// session is forgotten first when there are more than maxSessions or their
// traces hold more than maxBytes, and each keeps at most maxCalls calls.
type sessions struct {
	cache    *lru.Cache[string, *session]
	maxCalls int
	maxBytes int64
	mu       sync.Mutex // guards bytes and every session's trace
	bytes    int64
}

func newSessions(maxSessions, maxCalls int, maxBytes int64, onEvict func(id string)) *sessions {
	s := &sessions{maxCalls: maxCalls, maxBytes: maxBytes}
	c, err := lru.NewWithEvict[string, *session](maxSessions, func(id string, ss *session) {
		// Runs under s.mu: every cache change is made holding it.
		s.bytes -= ss.bytes
		ss.gone = true
		if onEvict != nil {
			onEvict(id)
		}
	})
	if err != nil {
		panic(err) // only for a non-positive size, which New rules out
	}
	s.cache = c
	return s
}

// get returns the session kept under key (a SessionKey), creating it.
func (s *sessions) get(key string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, ok := s.cache.Get(key); ok {
		return ss
	}
	ss := &session{next: 1, bytes: sessionOverhead + int64(len(key))}
	s.bytes += ss.bytes
	s.cache.Add(key, ss)
	s.shrink(ss)
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

func recordSize(rec *CallRecord) int64 {
	n := callOverhead + len(rec.Tool) + len(rec.API) + len(rec.Arguments) + len(rec.Source) + len(rec.Error)
	for k := range rec.Provided {
		n += len(k) + 16
	}
	for _, v := range rec.Violations {
		n += 128 + len(v.Param) + len(v.Kind) + len(v.Message)
		if str, ok := v.Value.(string); ok {
			n += len(str)
		}
		for _, src := range v.Sources {
			n += len(src) + 16
		}
	}
	return int64(n)
}

func (s *sessions) append(ss *session, rec CallRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss.gone {
		return // forgotten while the call ran
	}
	size := recordSize(&rec)
	ss.calls = append(ss.calls, rec)
	ss.bytes += size
	s.bytes += size
	if len(ss.calls) > s.maxCalls {
		// Drop a quarter at a time so a long session does not copy its
		// whole trace on every call.
		n := len(ss.calls) - s.maxCalls + max(s.maxCalls/4, 1)
		s.dropOldest(ss, min(n, len(ss.calls)-1))
	}
	s.shrink(ss)
}

// dropOldest forgets the first n calls of a trace.
func (s *sessions) dropOldest(ss *session, n int) {
	if n <= 0 {
		return
	}
	var freed int64
	for i := range n {
		freed += recordSize(&ss.calls[i])
	}
	ss.calls = append(ss.calls[:0:0], ss.calls[n:]...)
	ss.dropped += n
	ss.bytes -= freed
	s.bytes -= freed
}

// shrink forgets the least recently used sessions while the traces hold
// more than maxBytes; when only the current one is left, its oldest calls
// go. The caller holds s.mu.
func (s *sessions) shrink(current *session) {
	for s.bytes > s.maxBytes && s.cache.Len() > 1 {
		key, oldest, ok := s.cache.GetOldest()
		if !ok {
			break
		}
		if oldest == current {
			// Other sessions were used since this call began; the one in
			// use is kept and made recent.
			s.cache.Get(key)
			continue
		}
		s.cache.RemoveOldest()
	}
	if s.bytes > s.maxBytes && len(current.calls) > 1 {
		excess := s.bytes - s.maxBytes
		n := 0
		for freed := int64(0); freed < excess && n < len(current.calls)-1; n++ {
			freed += recordSize(&current.calls[n])
		}
		s.dropOldest(current, n)
	}
}

// remove forgets the session kept under key (a SessionKey), as an
// eviction does; it reports whether there was one.
func (s *sessions) remove(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cache.Remove(key)
}

// trace returns the trace kept under key (a SessionKey), labelled id.
func (s *sessions) trace(key, id string) (SessionTrace, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.cache.Peek(key)
	if !ok {
		return SessionTrace{}, false
	}
	t := SessionTrace{ID: id, Calls: append([]CallRecord(nil), ss.calls...), Dropped: ss.dropped}
	// Concurrent calls of one session finish in any order; the trace reads in call order.
	sort.Slice(t.Calls, func(i, j int) bool { return t.Calls[i].Seq < t.Calls[j].Seq })
	for _, c := range t.Calls {
		t.Violations += len(c.Violations)
	}
	return t, true
}
