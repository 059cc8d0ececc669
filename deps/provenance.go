package deps

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// TrackerOptions configures runtime provenance. Its bounds are bytes,
// never calls: a session of a million calls keeps its memory correct
// within them.
type TrackerOptions struct {
	// Policy for each tool; nil means Enforce for every tool.
	Policy func(*toolset.Tool) Policy
	// MaxSessions bounds the sessions remembered (default 10,000).
	MaxSessions int
	// MaxBytes bounds the memory of all sessions together (default 256
	// MiB): past it the least recently used sessions are forgotten.
	MaxBytes int64
	// MaxSessionBytes bounds the values one session's index keeps
	// (default 4 MiB, some 30,000 IDs): past it the values seen longest
	// ago leave the index for the session's filter of forgotten values,
	// where they are still known.
	MaxSessionBytes int
	// MaxForgottenBytes bounds that filter (default 4 MiB a session, in
	// two generations of about 1.1 million values each; see FilterBits).
	MaxForgottenBytes int
	// MaxResponseBytes bounds the recent responses each session keeps to
	// explain a violation (default 256 KiB); past it the oldest go first.
	MaxResponseBytes int
	// Explain adds what the dependency check found (which call emitted the
	// value, where it should come from) to a refusal's body, under
	// HintField, for a person debugging an agent. Off by default, and in
	// every evaluation: the real API gives no such hint.
	Explain bool
}

// Tracker is the runtime provenance of dependent values: it remembers which
// call of a session carried which value as which entity (see Entity), and
// checks dependent parameters against it: a value is valid wherever its
// entity is expected once any answer of the session carried it. It
// implements sandbox.Provenance and is safe for concurrent use.
//
// Only what a check can use is indexed when a response arrives: the values
// at the paths of the fields that carry an entity. Responses are kept as
// they came (bounded), and read again only to explain a value the index
// does not have, which is rare: a fabricated or misrouted ID.
type Tracker struct {
	opts     TrackerOptions
	sessions *lru.Cache[string, *memory]
	mu       sync.Mutex // serialises creating a session's memory and shrinking
	// anonymous is the memory of the session "" (calls without a session
	// ID), kept outside the LRU: it is the one every such call shares.
	anonymous atomic.Pointer[memory]
	// bytes is the memory of every session kept.
	bytes atomic.Int64
	// into is, by dependent API, its dependent parameters, sorted.
	into map[string][]dependent
	// carries is, by API, the fields of its responses that carry an
	// entity, and emitPaths their parsed paths.
	carries   map[string][]carrier
	emitPaths map[string][][]pathStep
	// ids are the catalog's API IDs, which API.ID would build per call.
	ids map[*toolset.API]string
}

var _ sandbox.Provenance = (*Tracker)(nil)

// dependent is one dependent parameter of an API and where its values come from.
type dependent struct {
	param string
	tags  []string // of the entities it takes
	// carriers are the APIs whose responses carry one of them, sorted:
	// the edges' sources first.
	carriers []string
	opaque   bool
}

// carrier is one field of an API's responses that carries an entity.
type carrier struct {
	path string
	tag  string
}

// tagOf is the prefix of an entity's values in a session's index.
func tagOf(i int) string { return string([]byte{byte(i >> 16), byte(i >> 8), byte(i)}) }

// sighting is the most recent call that carried a value as an entity.
type sighting struct {
	key string // the value's index key, shared with the map's
	seq int
	api string // ID
}

// aged is a value in the order it was last seen, to forget the oldest.
type aged struct {
	key string
	seq int
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

// Approximate bytes a session's index spends per value besides the value
// itself (map slot, sighting, order), per entry of its order, and per
// session.
const (
	valueOverhead  = 96
	agedBytes      = 24
	memoryOverhead = 512
)

type memory struct {
	mu sync.Mutex
	// values is, by entity tag + value key, the last call that carried it.
	values map[string]sighting
	order  fifo[aged] // oldest first; an entry whose value was seen since is stale
	// indexBytes approximates what values and order hold.
	indexBytes int
	forgotten  forgotten
	called     map[string]int // API ID → first seq
	recent     fifo[response]
	recentSize int // bytes of recent
	buf        []byte
	// counted is what the tracker's byte count holds of this memory, and
	// gone marks a memory forgotten (its calls still running do not count).
	counted             int
	gone                bool
	maxIndex, maxRecent int
}

// fifo is a queue that reuses its slice.
type fifo[T any] struct {
	items []T
	head  int
}

func (q *fifo[T]) len() int   { return len(q.items) - q.head }
func (q *fifo[T]) push(v T)   { q.items = append(q.items, v) }
func (q *fifo[T]) at(i int) T { return q.items[q.head+i] }
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
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 256 << 20
	}
	if opts.MaxSessionBytes <= 0 {
		opts.MaxSessionBytes = 4 << 20
	}
	if opts.MaxForgottenBytes <= 0 {
		opts.MaxForgottenBytes = 4 << 20
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = 256 << 10
	}
	t := &Tracker{opts: opts, into: map[string][]dependent{}, carries: map[string][]carrier{}, emitPaths: map[string][][]pathStep{}}
	t.sessions, _ = lru.NewWithEvict[string, *memory](opts.MaxSessions, func(_ string, m *memory) { t.drop(m) })
	t.anonymous.Store(t.newMemory())
	t.ids = make(map[*toolset.API]string, len(g.apis))
	for id, a := range g.apis {
		t.ids[a] = id
	}
	tags := map[string]string{}
	for i, ent := range g.Entities() {
		tags[ent.Name] = tagOf(i)
		for _, c := range ent.Carriers {
			steps, err := parsePath(c.Path)
			if err != nil {
				continue
			}
			t.carries[c.API] = append(t.carries[c.API], carrier{path: c.Path, tag: tagOf(i)})
			t.emitPaths[c.API] = append(t.emitPaths[c.API], steps)
		}
	}
	for _, e := range g.Edges() {
		// Edges are sorted by dependent API, then parameter.
		ds := t.into[e.To]
		if n := len(ds); n == 0 || ds[n-1].param != e.Param {
			ds = append(ds, dependent{param: e.Param})
		}
		d := &ds[len(ds)-1]
		d.opaque = d.opaque || e.Opaque
		if !contains(d.carriers, e.From) {
			d.carriers = append(d.carriers, e.From)
		}
		t.into[e.To] = ds
	}
	for to, ds := range t.into {
		for i := range ds {
			d := &ds[i]
			sources := len(d.carriers)
			for _, name := range g.EntitiesOf(to, d.param) {
				d.tags = append(d.tags, tags[name])
				for _, c := range g.entities[name].Carriers {
					if !contains(d.carriers, c.API) {
						d.carriers = append(d.carriers, c.API)
					}
				}
			}
			slices.Sort(d.carriers[:sources])
			slices.Sort(d.carriers[sources:])
		}
	}
	return t
}

func (t *Tracker) newMemory() *memory {
	return &memory{values: map[string]sighting{}, called: map[string]int{}, forgotten: newForgotten(t.opts.MaxForgottenBytes),
		maxIndex: t.opts.MaxSessionBytes, maxRecent: t.opts.MaxResponseBytes}
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

// drop stops counting a forgotten memory.
func (t *Tracker) drop(m *memory) {
	m.mu.Lock()
	m.gone = true
	n := m.counted
	m.counted = 0
	m.mu.Unlock()
	t.bytes.Add(-int64(n))
}

// recount brings the tracker's byte count up to date with m's size, and
// forgets the least recently used sessions while all hold more than
// MaxBytes. The caller holds m.mu, which it releases.
func (t *Tracker) recount(m *memory) {
	delta := 0
	if !m.gone {
		size := m.size()
		delta, m.counted = size-m.counted, size
	}
	m.mu.Unlock()
	if delta == 0 || t.bytes.Add(int64(delta)) <= t.opts.MaxBytes {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for t.bytes.Load() > t.opts.MaxBytes && t.sessions.Len() > 0 {
		key, oldest, ok := t.sessions.GetOldest()
		if !ok {
			break
		}
		if oldest == m {
			if t.sessions.Len() == 1 {
				break
			}
			t.sessions.Get(key) // in use: made recent, and kept
			continue
		}
		t.sessions.RemoveOldest()
	}
}

// size approximates the memory m holds. The caller holds m.mu.
func (m *memory) size() int {
	return memoryOverhead + m.indexBytes + m.recentSize + m.forgotten.bytes() + len(m.called)*48
}

// Bytes is the approximate memory the tracker holds for all sessions.
func (t *Tracker) Bytes() int64 { return t.bytes.Load() }

// unexplained is a dependent value the index did not find.
type unexplained struct {
	dep   *dependent
	value any
	key   string
}

// Check verifies each dependent parameter's value against what the session
// has seen. Only opaque parameters can be violated: a value a user can know
// (a city, an IATA code) is legitimate from anywhere, but its provenance is
// still reported when an earlier answer carried it as the entity expected.
func (t *Tracker) Check(session string, api *toolset.API, args map[string]any) sandbox.ProvenanceCheck {
	return t.CheckWith(session, api, args, nil)
}

// CheckWith is Check with known, which is asked about a value the
// tracker does not hold, by its index keys (one per entity the parameter
// takes; see Keys): known reports whether the session carried it all the
// same, as a store shared between replicas does for the values it
// forgot. known runs without the session's lock held.
func (t *Tracker) CheckWith(session string, api *toolset.API, args map[string]any, known func(keys []string) bool) sandbox.ProvenanceCheck {
	var out sandbox.ProvenanceCheck
	deps := t.into[t.id(api)]
	if len(deps) == 0 {
		return out
	}
	pol := t.policy(api.Tool)
	if pol == Off {
		return out
	}
	provide := func(param string, seq int) {
		if out.Provided == nil {
			out.Provided = map[string]int{}
		}
		out.Provided[param] = seq
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
		if seq, ok := m.carried(d.tags, key); ok {
			// 0: carried by a call too long ago to be remembered by number.
			provide(d.param, seq)
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
		for _, src := range d.carriers {
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
	// and asked of known, outside the session's lock.
	var hints []string
	for _, u := range missing {
		name, key, carriers := u.dep.param, u.key, u.dep.carriers
		last, provided := explain(recent, key, carriers)
		if provided != 0 {
			// A carrier emitted it, at a path no field names.
			provide(name, provided)
			continue
		}
		if known != nil && known(indexKeys(u.dep.tags, key)) {
			provide(name, 0)
			continue
		}
		viol := sandbox.Violation{Param: name, Value: u.value, Sources: slices.Clone(carriers)}
		calledSource := false
		for _, src := range carriers {
			calledSource = calledSource || called[src]
		}
		switch {
		case last.seq != 0:
			viol.Kind = "wrong_source"
			viol.Message = fmt.Sprintf("%s=%v was emitted by call #%d (%s), which is not where %s comes from (%s)", name, key, last.seq, last.api, name, strings.Join(carriers, " or "))
		case !calledSource:
			viol.Kind = "before_dependency"
			verb := "provides"
			if len(carriers) > 1 {
				verb = "provide"
			}
			viol.Message = fmt.Sprintf("%s=%v was used before calling %s, which %s it", name, key, strings.Join(carriers, " or "), verb)
		default:
			viol.Kind = "fabricated"
			viol.Message = fmt.Sprintf("%s=%v was never returned by %s in this session", name, key, strings.Join(carriers, " or "))
		}
		if pol == Enforce {
			viol.Enforced = true
		}
		hints = append(hints, viol.Message)
		out.Violations = append(out.Violations, viol)
	}
	if pol == Enforce && len(out.Violations) > 0 {
		// The API refuses the first value it never issued, as the real one
		// does an unknown ID: in its own words, naming no other API.
		v := out.Violations[0]
		key, _ := ScalarKey(v.Value)
		hint := ""
		if t.opts.Explain {
			hint = strings.Join(hints, "; ")
		}
		out.Reject = refusal(api, v.Param, key, hint)
	}
	return out
}

// carried reports the seq of the last call that carried key as one of the
// entities tagged: 0 when only the filter of forgotten values holds it.
// The caller holds m.mu.
func (m *memory) carried(tags []string, key string) (int, bool) {
	best, found := 0, false
	for _, tag := range tags {
		m.buf = append(append(m.buf[:0], tag...), key...)
		if s, ok := m.values[string(m.buf)]; ok && (!found || s.seq > best) {
			best, found = s.seq, true
		}
	}
	if found {
		return best, true
	}
	for _, tag := range tags {
		m.buf = append(append(m.buf[:0], tag...), key...)
		if m.forgotten.has(string(m.buf)) {
			return 0, true
		}
	}
	return 0, false
}

// indexKeys are a value's keys in a session's index, one per entity tagged.
func indexKeys(tags []string, key string) []string {
	out := make([]string, len(tags))
	for i, tag := range tags {
		out[i] = tag + key
	}
	return out
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
// session: the values at the fields that carry an entity are indexed, and
// the response is kept (bounded) to explain violations later. The
// response must not be modified afterwards.
func (t *Tracker) Observe(session string, seq int, api *toolset.API, _ map[string]any, response json.RawMessage) {
	if t.policy(api.Tool) == Off {
		return
	}
	id := t.id(api)
	var byPath [][]string
	if paths := t.emitPaths[id]; len(paths) > 0 {
		// Only those fields are read, the rest skimmed, nothing decoded;
		// an emitted 64-bit ID keeps its digits.
		byPath = carriedKeys(response, paths)
	}
	m := t.memory(session)
	m.mu.Lock()
	if _, ok := m.called[id]; !ok {
		m.called[id] = seq
	}
	m.keep(seq, id, response)
	cs := t.carries[id]
	for p, keys := range byPath {
		for _, k := range keys {
			m.index(cs[p].tag, k, seq, id)
		}
	}
	t.recount(m)
}

// Keys returns the index keys of the values a response carries (see
// CheckWith): what a store shared between replicas folds into its filter
// of forgotten values when it drops the response.
func (t *Tracker) Keys(api *toolset.API, response json.RawMessage) []string {
	id := t.id(api)
	paths := t.emitPaths[id]
	if len(paths) == 0 {
		return nil
	}
	byPath := carriedKeys(response, paths)
	var out []string
	for p, keys := range byPath {
		for _, k := range keys {
			if key := t.carries[id][p].tag + k; !slices.Contains(out, key) {
				out = append(out, key)
			}
		}
	}
	return out
}

// index records that call seq of api carried key as the entity tagged,
// forgetting the values seen longest ago past the session's bound: they
// go into its filter of forgotten values, where they are still known. A
// long session (every call without an ID shares one) keeps learning, and
// a call repeated a million times costs nothing more than once.
// The caller holds m.mu.
func (m *memory) index(tag, key string, seq int, api string) {
	m.buf = append(append(m.buf[:0], tag...), key...)
	if s, ok := m.values[string(m.buf)]; ok {
		if s.seq == seq {
			return // twice in one answer
		}
		s.seq, s.api = seq, api
		m.values[s.key] = s
		m.order.push(aged{key: s.key, seq: seq})
		m.indexBytes += agedBytes
	} else {
		k := string(m.buf)
		m.values[k] = sighting{key: k, seq: seq, api: api}
		m.order.push(aged{key: k, seq: seq})
		m.indexBytes += len(k) + valueOverhead + agedBytes
	}
	for m.indexBytes > m.maxIndex && m.order.len() > 1 {
		old := m.order.pop()
		m.indexBytes -= agedBytes
		if s, ok := m.values[old.key]; ok && s.seq == old.seq {
			delete(m.values, old.key)
			m.indexBytes -= len(old.key) + valueOverhead
			m.forgotten.add(old.key)
		}
	}
}

// keep remembers a response, forgetting the oldest past the bound; the
// newest is always kept. The caller holds m.mu.
func (m *memory) keep(seq int, api string, body json.RawMessage) {
	if len(body) == 0 {
		return
	}
	m.recent.push(response{seq: seq, api: api, body: body})
	m.recentSize += len(body)
	for m.recent.len() > 1 && m.recentSize > m.maxRecent {
		m.recentSize -= len(m.recent.pop().body)
	}
}

// Forget drops a session.
func (t *Tracker) Forget(session string) {
	if session == "" {
		t.drop(t.anonymous.Swap(t.newMemory()))
		return
	}
	t.sessions.Remove(session)
}
