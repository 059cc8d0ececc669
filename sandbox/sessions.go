package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/understudy/understudy/internal/clock"
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
	// mu guards every field: a session's calls take only its own lock,
	// so concurrent sessions (and the calls of one) do not wait on a
	// store-wide one.
	mu    sync.Mutex
	next  int
	calls []CallRecord
	// bytes approximates the memory the trace holds (ID and calls).
	bytes   int64
	dropped int
	gone    bool // evicted: calls still in flight no longer count
	// used is when the session's last call began (Unix nanoseconds on
	// the store's clock), for forgetting idle sessions.
	used atomic.Int64
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
// traces hold more than maxBytes, and each trace keeps its newest calls
// within maxSessionBytes, however many calls the session makes. A session
// no call began in for idle is forgotten too, as Redis expires one.
//
// The session "" (every call without an ID) is kept outside the LRU: it is
// the one a load of anonymous calls shares, and finding it takes no lock.
type sessions struct {
	cache     *lru.Cache[string, *session]
	anonymous atomic.Pointer[session]
	// maxSessionBytes bounds one trace, maxBytes all of them.
	maxSessionBytes int64
	maxBytes        int64
	onEvict         func(id string)
	mu              sync.Mutex // serialises creating sessions, shrinking and sweeping
	bytes           atomic.Int64
	idle            time.Duration
	clk             clock.Clock
	swept           atomic.Int64 // when idle sessions were last looked for
}

// DefaultSessionIdle is how long a session no call began in is kept: as
// long as Redis keeps one after its last call.
const DefaultSessionIdle = 24 * time.Hour

// sweepEvery is how often a call of a known session looks for idle ones
// (a new session always does).
const sweepEvery = time.Minute

func newSessions(maxSessions int, maxSessionBytes, maxBytes int64, idle time.Duration, clk clock.Clock, onEvict func(id string)) *sessions {
	if idle <= 0 {
		idle = DefaultSessionIdle
	}
	if clk == nil {
		clk = clock.Real{}
	}
	s := &sessions{maxSessionBytes: maxSessionBytes, maxBytes: maxBytes, idle: idle, clk: clk, onEvict: onEvict}
	c, err := lru.NewWithEvict[string, *session](maxSessions, func(id string, ss *session) {
		s.forget(id, ss)
	})
	if err != nil {
		panic(err) // only for a non-positive size, which New rules out
	}
	s.cache = c
	s.anonymous.Store(s.newSession(""))
	return s
}

func (s *sessions) newSession(key string) *session {
	ss := &session{next: 1, bytes: sessionOverhead + int64(len(key))}
	s.bytes.Add(ss.bytes)
	return ss
}

// forget marks a session gone and stops counting its memory.
func (s *sessions) forget(id string, ss *session) {
	ss.mu.Lock()
	ss.gone = true
	freed := ss.bytes
	ss.mu.Unlock()
	s.bytes.Add(-freed)
	if s.onEvict != nil {
		s.onEvict(id)
	}
}

// get returns the session kept under key (a SessionKey), creating it.
func (s *sessions) get(key string) *session {
	if key == "" {
		return s.anonymous.Load()
	}
	now := s.clk.Now().UnixNano()
	if ss, ok := s.cache.Get(key); ok {
		ss.used.Store(now)
		if now-s.swept.Load() >= int64(sweepEvery) && s.mu.TryLock() {
			s.sweep(now)
			s.mu.Unlock()
		}
		return ss
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss, ok := s.cache.Get(key); ok {
		ss.used.Store(now)
		return ss
	}
	s.sweep(now)
	ss := s.newSession(key)
	ss.used.Store(now)
	s.cache.Add(key, ss)
	s.shrink(ss)
	return ss
}

// sweep forgets the sessions no call began in for idle, least recently
// used first, stopping at the first one still in use. The caller holds
// s.mu.
func (s *sessions) sweep(now int64) {
	s.swept.Store(now)
	for {
		key, oldest, ok := s.cache.GetOldest()
		if !ok || now-oldest.used.Load() < int64(s.idle) {
			return
		}
		s.cache.Remove(key)
	}
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
	size := recordSize(&rec)
	ss.mu.Lock()
	if ss.gone {
		ss.mu.Unlock()
		return // forgotten while the call ran
	}
	ss.calls = append(ss.calls, rec)
	ss.bytes += size
	delta := size
	if ss.bytes > s.maxSessionBytes {
		// Drop down to three quarters of the bound, so that a long
		// session does not copy its whole trace on every call.
		n := 0
		for over := ss.bytes - s.maxSessionBytes*3/4; over > 0 && n < len(ss.calls)-1; n++ {
			over -= recordSize(&ss.calls[n])
		}
		delta -= ss.dropOldest(n, true)
	}
	ss.mu.Unlock()
	if s.bytes.Add(delta) > s.maxBytes {
		s.mu.Lock()
		s.shrink(ss)
		s.mu.Unlock()
	}
}

// dropOldest forgets the first n calls of a trace and returns the bytes
// freed. reuse keeps the trace's array for the calls to come (a session
// at its call bound, which fills it again); otherwise a smaller one is
// made, so that the memory goes. The caller holds ss.mu.
func (ss *session) dropOldest(n int, reuse bool) int64 {
	if n <= 0 {
		return 0
	}
	var freed int64
	for i := range n {
		freed += recordSize(&ss.calls[i])
	}
	if reuse {
		m := copy(ss.calls, ss.calls[n:])
		clear(ss.calls[m:]) // the dropped calls' strings go
		ss.calls = ss.calls[:m]
	} else {
		ss.calls = append(ss.calls[:0:0], ss.calls[n:]...)
	}
	ss.dropped += n
	ss.bytes -= freed
	return freed
}

// shrink forgets the least recently used sessions while the traces hold
// more than maxBytes; when only the current one (or the session "") is
// left, the oldest calls of the current one go. The caller holds s.mu.
func (s *sessions) shrink(current *session) {
	for s.bytes.Load() > s.maxBytes && s.cache.Len() > 0 {
		key, oldest, ok := s.cache.GetOldest()
		if !ok {
			break
		}
		if oldest == current {
			if s.cache.Len() == 1 {
				break
			}
			// Other sessions were used since this call began; the one in
			// use is kept and made recent.
			s.cache.Get(key)
			continue
		}
		s.cache.RemoveOldest()
	}
	if excess := s.bytes.Load() - s.maxBytes; excess > 0 {
		current.mu.Lock()
		n := 0
		for freed := int64(0); freed < excess && n < len(current.calls)-1; n++ {
			freed += recordSize(&current.calls[n])
		}
		freed := current.dropOldest(n, false)
		current.mu.Unlock()
		s.bytes.Add(-freed)
	}
}

// remove forgets the session kept under key (a SessionKey), as an
// eviction does; it reports whether there was one. The session "" is
// known once a call was made in it.
func (s *sessions) remove(key string) bool {
	if key == "" {
		old := s.anonymous.Swap(s.newSession(""))
		old.mu.Lock()
		used := old.next > 1
		old.mu.Unlock()
		s.forget("", old)
		return used
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cache.Remove(key)
}

// trace returns the trace kept under key (a SessionKey), labelled id.
func (s *sessions) trace(key, id string) (SessionTrace, bool) {
	var ss *session
	if key == "" {
		ss = s.anonymous.Load()
	} else {
		var ok bool
		if ss, ok = s.cache.Peek(key); !ok {
			return SessionTrace{}, false
		}
	}
	ss.mu.Lock()
	if key == "" && ss.next == 1 {
		ss.mu.Unlock()
		return SessionTrace{}, false // no call was made without an ID
	}
	t := SessionTrace{ID: id, Calls: append([]CallRecord(nil), ss.calls...), Dropped: ss.dropped}
	ss.mu.Unlock()
	// Concurrent calls of one session finish in any order; the trace reads in call order.
	sort.Slice(t.Calls, func(i, j int) bool { return t.Calls[i].Seq < t.Calls[j].Seq })
	for _, c := range t.Calls {
		t.Violations += len(c.Violations)
	}
	return t, true
}
