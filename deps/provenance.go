package deps

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"

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
	// MaxValues bounds the values remembered per session (default 50,000).
	MaxValues int
}

// Tracker is the runtime provenance of dependent values: it remembers which
// call of a session emitted which value, and checks dependent parameters
// against it. It implements sandbox.Provenance and is safe for concurrent use.
type Tracker struct {
	graph    *Graph
	opts     TrackerOptions
	sessions *lru.Cache[string, *memory]
	mu       sync.Mutex
}

var _ sandbox.Provenance = (*Tracker)(nil)

// emission is one value seen in a response.
type emission struct {
	seq  int
	api  string // ID
	path string
}

type memory struct {
	mu     sync.Mutex
	values map[string][]emission // scalar value → where it was seen, oldest first
	called map[string]int        // API ID → first seq
	count  int
	limit  int
}

// NewTracker returns a tracker over a graph.
func NewTracker(g *Graph, opts TrackerOptions) *Tracker {
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = 10000
	}
	if opts.MaxValues <= 0 {
		opts.MaxValues = 50000
	}
	c, _ := lru.New[string, *memory](opts.MaxSessions)
	return &Tracker{graph: g, opts: opts, sessions: c}
}

func (t *Tracker) policy(tool *toolset.Tool) Policy {
	if t.opts.Policy == nil {
		return Enforce
	}
	return t.opts.Policy(tool)
}

func (t *Tracker) memory(session string) *memory {
	t.mu.Lock()
	defer t.mu.Unlock()
	if m, ok := t.sessions.Get(session); ok {
		return m
	}
	m := &memory{values: map[string][]emission{}, called: map[string]int{}, limit: t.opts.MaxValues}
	t.sessions.Add(session, m)
	return m
}

// Check verifies each dependent parameter's value against what the session
// has seen. Only opaque parameters can be violated: a value a user can know
// (a city, an IATA code) is legitimate from anywhere, but its provenance is
// still reported when an earlier call emitted it.
func (t *Tracker) Check(session string, api *toolset.API, args map[string]any) sandbox.ProvenanceCheck {
	var out sandbox.ProvenanceCheck
	pol := t.policy(api.Tool)
	if pol == Off {
		return out
	}
	edges := t.graph.Into(api.ID())
	if len(edges) == 0 {
		return out
	}
	m := t.memory(session)
	m.mu.Lock()
	defer m.mu.Unlock()

	byParam := map[string][]Edge{}
	var params []string
	for _, e := range edges {
		if _, ok := byParam[e.Param]; !ok {
			params = append(params, e.Param)
		}
		byParam[e.Param] = append(byParam[e.Param], e)
	}
	sort.Strings(params)
	for _, name := range params {
		v, present := args[name]
		if !present {
			continue
		}
		key, ok := scalarKey(v)
		if !ok {
			continue
		}
		es := byParam[name]
		sources := make([]string, len(es))
		opaque := false
		for i, e := range es {
			sources[i] = e.From
			opaque = opaque || e.Opaque
		}
		if p := api.Param(name); p != nil && p.Opaque {
			opaque = true
		}
		seen := m.values[key]
		// The most recent emission by a source API provides the value.
		provided := 0
		for i := len(seen) - 1; i >= 0 && provided == 0; i-- {
			for _, src := range sources {
				if seen[i].api == src {
					provided = seen[i].seq
					break
				}
			}
		}
		if provided != 0 {
			if out.Provided == nil {
				out.Provided = map[string]int{}
			}
			out.Provided[name] = provided
			continue
		}
		if !opaque {
			continue
		}
		viol := sandbox.Violation{Param: name, Value: v, Sources: sources}
		calledSource := false
		for _, src := range sources {
			if _, ok := m.called[src]; ok {
				calledSource = true
			}
		}
		switch {
		case len(seen) > 0:
			viol.Kind = "wrong_source"
			viol.Message = fmt.Sprintf("%s=%v was emitted by call #%d (%s), which is not where %s comes from (%s)", name, key, seen[len(seen)-1].seq, seen[len(seen)-1].api, name, strings.Join(sources, " or "))
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

// Observe remembers every scalar leaf of a successful response as emitted
// by this call, so later calls can be traced back to it.
func (t *Tracker) Observe(session string, seq int, api *toolset.API, _ map[string]any, response json.RawMessage) {
	if t.policy(api.Tool) == Off {
		return
	}
	doc, err := canon.Decode(response) // an emitted 64-bit ID keeps its digits
	if err != nil {
		return
	}
	m := t.memory(session)
	m.mu.Lock()
	defer m.mu.Unlock()
	id := api.ID()
	if _, ok := m.called[id]; !ok {
		m.called[id] = seq
	}
	leaves(doc, maxLeavesScanned, func(path string, v any) {
		key, ok := scalarKey(v)
		if !ok || m.count >= m.limit {
			return
		}
		m.values[key] = append(m.values[key], emission{seq: seq, api: id, path: path})
		m.count++
	})
}

// Forget drops a session.
func (t *Tracker) Forget(session string) {
	t.sessions.Remove(session)
}
