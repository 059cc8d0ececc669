package deps

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// Policy says what happens to a call whose opaque dependent value was not
// emitted earlier in the session by one of its source APIs.
type Policy string

// Policies, as the -deps-policy flag names them.
const (
	// Enforce refuses the call the way the real API refuses an ID it never
	// issued (400 "Invalid <param>") and records the violation.
	Enforce Policy = "enforce"
	// Warn serves the call and records the violation.
	Warn Policy = "warn"
	// Off neither checks nor records.
	Off Policy = "off"
)

// ParsePolicy reads a -deps-policy flag value.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(strings.ToLower(strings.TrimSpace(s))); p {
	case Enforce, Warn, Off:
		return p, nil
	}
	return "", fmt.Errorf("unknown dependency policy %q: want enforce, warn or off", s)
}

// TrackerOptions configures runtime provenance.
type TrackerOptions struct {
	// Policy for each tool; nil means Enforce for every tool.
	Policy func(*toolset.Tool) Policy
	// MaxSessions bounds the sessions remembered (default 10,000).
	MaxSessions int
	// MaxValues bounds the values remembered per session (default 50,000):
	// past it the oldest are forgotten first.
	MaxValues int
	// MaxResponseBytes bounds the recent responses each session keeps to
	// explain a violation (default 256 KiB); past it the oldest go first.
	MaxResponseBytes int
}

// Tracker is the runtime provenance of dependent values: it remembers which
// call of a session emitted which value, and checks dependent parameters
// against it. It implements sandbox.Provenance and is safe for concurrent use.
//
// Only what a check can use is indexed when a response arrives: the values
// a source API emits at the paths its edges name. Responses are kept as
// they came (bounded), and read again only to explain a value the index
// does not have, which is rare: a fabricated or misrouted ID.
type Tracker struct {
	opts     TrackerOptions
	sessions *lru.Cache[string, *memory]
	mu       sync.Mutex // serialises creating a session's memory
	// anonymous is the memory of the session "" (calls without a session
	// ID), kept outside the LRU: it is the one every such call shares.
	anonymous atomic.Pointer[memory]
	// into is, by dependent API, its dependent parameters, sorted.
	into map[string][]dependent
	// emits is, by source API, the distinct paths its edges read.
	emits map[string][][]pathStep
	// ids are the catalog's API IDs, which API.ID would build per call.
	ids map[*toolset.API]string
}

var _ sandbox.Provenance = (*Tracker)(nil)

// dependent is one dependent parameter of an API and where it comes from.
type dependent struct {
	param   string
	sources []string // API IDs
	opaque  bool
}

// emission is one value seen in a response.
type emission struct {
	seq int
	api string // ID
}

// response is a successful answer kept to explain violations.
type response struct {
	seq  int
	api  string
	body json.RawMessage
}

type memory struct {
	mu       sync.Mutex
	values   map[string][]emission // scalar value → where it was seen, oldest first
	order    fifo[string]          // the value of each emission, oldest first
	called   map[string]int        // API ID → first seq
	recent   fifo[response]
	bytes    int // of recent
	limit    int
	maxBytes int
}

// fifo is a queue that reuses its slice.
type fifo[T any] struct {
	items []T
	head  int
}

func (q *fifo[T]) len() int   { return len(q.items) - q.head }
func (q *fifo[T]) push(v T)   { q.items = append(q.items, v) }
func (q *fifo[T]) at(i int) T { return q.items[q.head+i] }
func (q *fifo[T]) oldest() T  { return q.items[q.head] }
func (q *fifo[T]) pop() (v T) {
	v = q.items[q.head]
	var zero T
	q.items[q.head] = zero
	q.head++
	if q.head >= 64 && q.head > len(q.items)/2 {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	return v
}

// NewTracker returns a tracker over a graph.
func NewTracker(g *Graph, opts TrackerOptions) *Tracker {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = 10000
	}
	if opts.MaxValues <= 0 {
		opts.MaxValues = 50000
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = 256 << 10
	}
	c, _ := lru.New[string, *memory](opts.MaxSessions)
	t := &Tracker{opts: opts, sessions: c, into: map[string][]dependent{}, emits: map[string][][]pathStep{}}
	t.anonymous.Store(t.newMemory())
	t.ids = make(map[*toolset.API]string, len(g.apis))
	for id, a := range g.apis {
		t.ids[a] = id
	}
	seen := map[string]bool{} // "from\x00path"
	for _, e := range g.Edges() {
		// Edges are sorted by dependent API, then parameter.
		ds := t.into[e.To]
		if n := len(ds); n == 0 || ds[n-1].param != e.Param {
			ds = append(ds, dependent{param: e.Param})
		}
		d := &ds[len(ds)-1]
		d.sources = append(d.sources, e.From)
		d.opaque = d.opaque || e.Opaque
		t.into[e.To] = ds
		if steps, err := parsePath(e.Path); err == nil && !seen[e.From+"\x00"+e.Path] {
			seen[e.From+"\x00"+e.Path] = true
			t.emits[e.From] = append(t.emits[e.From], steps)
		}
	}
	return t
}

func (t *Tracker) newMemory() *memory {
	return &memory{values: map[string][]emission{}, called: map[string]int{}, limit: t.opts.MaxValues, maxBytes: t.opts.MaxResponseBytes}
}

func (t *Tracker) id(api *toolset.API) string {
	if id, ok := t.ids[api]; ok {
		return id
	}
	return api.ID()
}

func (t *Tracker) policy(tool *toolset.Tool) Policy {
	if t.opts.Policy == nil {
		return Enforce
	}
	return t.opts.Policy(tool)
}

func (t *Tracker) memory(session string) *memory {
	if session == "" {
		return t.anonymous.Load()
	}
	if m, ok := t.sessions.Get(session); ok {
		return m
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if m, ok := t.sessions.Get(session); ok {
		return m
	}
	m := t.newMemory()
	t.sessions.Add(session, m)
	return m
}

// unexplained is a dependent value the index did not find from a source.
type unexplained struct {
	dep   *dependent
	value any
	key   string
}

// Check verifies each dependent parameter's value against what the session
// has seen. Only opaque parameters can be violated: a value a user can know
// (a city, an IATA code) is legitimate from anywhere, but its provenance is
// still reported when an earlier call of a source API emitted it where the
// dependency says.
func (t *Tracker) Check(session string, api *toolset.API, args map[string]any) sandbox.ProvenanceCheck {
	var out sandbox.ProvenanceCheck
	deps := t.into[t.id(api)]
	if len(deps) == 0 {
		return out
	}
	pol := t.policy(api.Tool)
	if pol == Off {
		return out
	}
	m := t.memory(session)
	var missing []unexplained
	var called map[string]bool
	var recent []response
	m.mu.Lock()
	for i := range deps {
		d := &deps[i]
		v, present := args[d.param]
		if !present {
			continue
		}
		key, ok := ScalarKey(v)
		if !ok {
			continue
		}
		if seq := m.providedBy(key, d.sources); seq != 0 {
			if out.Provided == nil {
				out.Provided = map[string]int{}
			}
			out.Provided[d.param] = seq
			continue
		}
		if !d.opaque {
			if p := api.Param(d.param); p == nil || !p.Opaque {
				continue
			}
		}
		missing = append(missing, unexplained{dep: d, value: v, key: key})
		if called == nil {
			called = map[string]bool{}
		}
		for _, src := range d.sources {
			_, called[src] = m.called[src]
		}
	}
	if len(missing) > 0 {
		recent = make([]response, m.recent.len())
		for i := range recent {
			recent[i] = m.recent.at(i)
		}
	}
	m.mu.Unlock()

	// What the index does not explain is looked for in the responses kept,
	// outside the session's lock.
	for _, u := range missing {
		name, key, sources := u.dep.param, u.key, u.dep.sources
		last, provided := explain(recent, key, sources)
		if provided != 0 {
			// A source emitted it, at a path no edge names.
			if out.Provided == nil {
				out.Provided = map[string]int{}
			}
			out.Provided[name] = provided
			continue
		}
		viol := sandbox.Violation{Param: name, Value: u.value, Sources: slices.Clone(sources)}
		calledSource := false
		for _, src := range sources {
			calledSource = calledSource || called[src]
		}
		switch {
		case last.seq != 0:
			viol.Kind = "wrong_source"
			viol.Message = fmt.Sprintf("%s=%v was emitted by call #%d (%s), which is not where %s comes from (%s)", name, key, last.seq, last.api, name, strings.Join(sources, " or "))
		case !calledSource:
			viol.Kind = "before_dependency"
			viol.Message = fmt.Sprintf("%s=%v was used before calling %s, which provides it", name, key, strings.Join(sources, " or "))
		default:
			viol.Kind = "fabricated"
			viol.Message = fmt.Sprintf("%s=%v was never returned by %s in this session", name, key, strings.Join(sources, " or "))
		}
		if pol == Enforce {
			viol.Enforced = true
			if out.Reject == nil {
				out.Reject = &sandbox.Rejection{Status: http.StatusBadRequest, Body: map[string]any{
					"status":  false,
					"message": "Invalid " + name,
					"errors":  []string{viol.Message},
				}}
			}
		}
		out.Violations = append(out.Violations, viol)
	}
	return out
}

// providedBy is the seq of the most recent call of one of sources that
// emitted key, or 0. The caller holds m.mu.
func (m *memory) providedBy(key string, sources []string) int {
	seen := m.values[key]
	for i := len(seen) - 1; i >= 0; i-- {
		if slices.Contains(sources, seen[i].api) {
			return seen[i].seq
		}
	}
	return 0
}

// explain looks for key among every scalar of the responses kept, newest
// first: provided is the seq of the most recent one by a source API, or 0,
// and last the most recent emission by any API.
func explain(recent []response, key string, sources []string) (last emission, provided int) {
	for i := len(recent) - 1; i >= 0; i-- {
		r := recent[i]
		if !mayContain(r.body, key) {
			continue
		}
		doc, err := canon.Decode(r.body) // an emitted 64-bit ID keeps its digits
		if err != nil {
			continue
		}
		found := false
		leaves(doc, maxLeavesScanned, func(_ string, v any) {
			if k, ok := ScalarKey(v); ok && k == key {
				found = true
			}
		})
		if !found {
			continue
		}
		if last.seq == 0 {
			last = emission{seq: r.seq, api: r.api}
		}
		if slices.Contains(sources, r.api) {
			return last, r.seq
		}
	}
	return last, 0
}

// mayContain is false when body cannot hold a scalar whose key is key:
// without escapes and exponents, JSON spells every string and number with
// its key's bytes in it. It only saves decoding; true proves nothing.
func mayContain(body []byte, key string) bool {
	if bytes.IndexByte(body, '\\') >= 0 || strings.ContainsAny(key, "\"\\<>&\u2028\u2029") {
		return true
	}
	for i := 1; i < len(body); i++ {
		if (body[i] == 'e' || body[i] == 'E') && body[i-1] >= '0' && body[i-1] <= '9' {
			return true
		}
	}
	return bytes.Contains(body, []byte(key))
}

// Observe remembers a successful response as emitted by call seq of the
// session: a source API's values at its edges' paths are indexed, and the
// response is kept (bounded) to explain violations later. The response
// must not be modified afterwards.
func (t *Tracker) Observe(session string, seq int, api *toolset.API, _ map[string]any, response json.RawMessage) {
	if t.policy(api.Tool) == Off {
		return
	}
	id := t.id(api)
	var keys []string
	if paths := t.emits[id]; len(paths) > 0 {
		// Only the edges' paths are read, without decoding the rest; an
		// emitted 64-bit ID keeps its digits.
		keys, _ = edgeKeys(response, paths)
	}
	m := t.memory(session)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.called[id]; !ok {
		m.called[id] = seq
	}
	m.keep(seq, id, response)
	for _, k := range keys {
		m.index(k, emission{seq: seq, api: id})
	}
}

// index adds an emission, forgetting the oldest past the limit so that a
// long session (every call without an ID shares one) keeps learning.
// The caller holds m.mu.
func (m *memory) index(key string, e emission) {
	for m.order.len() >= m.limit {
		old := m.order.pop()
		if es := m.values[old]; len(es) <= 1 {
			delete(m.values, old)
		} else {
			m.values[old] = es[1:]
		}
	}
	m.values[key] = append(m.values[key], e)
	m.order.push(key)
}

// keep remembers a response, forgetting the oldest past the bounds; the
// newest is always kept. The caller holds m.mu.
func (m *memory) keep(seq int, api string, body json.RawMessage) {
	if len(body) == 0 {
		return
	}
	m.recent.push(response{seq: seq, api: api, body: body})
	m.bytes += len(body)
	for m.recent.len() > 1 && (m.bytes > m.maxBytes || m.recent.len() > m.limit) {
		m.bytes -= len(m.recent.pop().body)
	}
}

// Forget drops a session.
func (t *Tracker) Forget(session string) {
	if session == "" {
		t.anonymous.Store(t.newMemory())
		return
	}
	t.sessions.Remove(session)
}
