// Package standin is the contract of a stand-in: the call it answers, its
// session state, the registry the scenario packages fill.
package standin

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"sync"
	"time"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
)

// Call is one invocation of a stand-in. Args are the validated arguments
// with defaults applied, as the engine passes them.
type Call struct {
	API     *toolset.API
	Args    map[string]any
	Session string
	// Now is the sandbox clock's reading for this call.
	Now time.Time
	// Seed is derived from tool + API + canonical arguments: the only source
	// of randomness a stand-in may use (a fresh faker per call, seeded here).
	Seed uint64
	// State is the session's store for stateful flows (search sessions,
	// minted ids); never nil.
	State *State
}

// Handler is a stand-in for one API. It returns the response body (any
// JSON-encodable value) or a *sandbox.Rejection; any other error is a defect of the
// stand-in and is reported as a 500.
type Handler func(ctx context.Context, w *world.World, c *Call) (any, error)

// Seed derives a call's seed from the tool, the API and the canonical JSON
// of the arguments.
func Seed(tool, api string, args map[string]any) uint64 {
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write([]byte(api))
	h.Write([]byte{0})
	h.Write(canon.MustJSON(args))
	return binary.BigEndian.Uint64(h.Sum(nil)[:8])
}

// State is one session's memory for stateful flows, keyed by a kind
// ("flight_search", "screenshot", ...) and an id. It is safe for concurrent use.
type State struct {
	mu sync.Mutex
	m  map[string]any
}

// NewState returns an empty session state.
func NewState() *State { return &State{m: map[string]any{}} }

// Get returns the value stored under kind and id.
func (s *State) Get(kind, id string) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[kind+"\x00"+id]
	return v, ok
}

// Put stores v under kind and id.
func (s *State) Put(kind, id string, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[kind+"\x00"+id] = v
}

// Update applies f to the value under kind and id atomically and stores the result.
func (s *State) Update(kind, id string, f func(old any, ok bool) any) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.m[kind+"\x00"+id]
	v := f(old, ok)
	s.m[kind+"\x00"+id] = v
	return v
}

// ToolName is the standardized tool name stand-ins are registered under.
func ToolName(api *toolset.API) string {
	if api.Tool == nil {
		return ""
	}
	if api.Tool.StandardizedName != "" {
		return api.Tool.StandardizedName
	}
	return toolset.Standardize(api.Tool.Name)
}

// Encode is the canonical JSON of a response: sorted keys, normalised
// numbers, no HTML escaping. An Encoded answer is that already.
func Encode(v any) (json.RawMessage, error) {
	if e, ok := v.(Encoded); ok {
		return json.RawMessage(e), nil
	}
	b, err := canon.JSON(v)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(b), nil
}
