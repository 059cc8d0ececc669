// Package mocks answers API calls without the real APIs: the Mocker the
// engine uses, over the hand-written stand-ins of the built-in toolset and
// the faker for imported tools.
package mocks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/mocks/basic"
	"github.com/understudy/understudy/mocks/daily"
	"github.com/understudy/understudy/mocks/failures"
	"github.com/understudy/understudy/mocks/faker"
	"github.com/understudy/understudy/mocks/image"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/travel"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// DefaultMaxSessions bounds the session states a Mocker keeps when Options
// does not say; the least recently used session is forgotten first.
const DefaultMaxSessions = 4096

// Options configures a Mocker. The zero value is valid: the frozen clock,
// the embedded world, no failures, DefaultMaxSessions.
type Options struct {
	Clock       clock.Clock
	World       *world.World
	Failures    *failures.Policy
	MaxSessions int
	// Registry holds the hand-written stand-ins; nil means Builtin().
	Registry *standin.Registry
	// Imported answers the APIs without a hand-written stand-in (imported
	// tools); nil means the faker alone. The objects package's linker and
	// the simulator wrap the faker here.
	Imported standin.Handler
}

// answerBytes bounds the encoded answers each pure stand-in keeps (see
// standin.Registry.AddPure): a 3-day forecast is about 50 KB, a 14-day one
// 230 KB, under the eighth of this a Memo keeps.
const answerBytes = 8 << 20

// Mocker answers API calls offline: with the registered stand-in when the
// API has one, otherwise with the faker (documented example, response
// schema, or a generic echo), either wrapped in the failure policy. It is
// the one entry point the engine uses, and safe for concurrent use.
type Mocker struct {
	clock    clock.Clock
	world    *world.World
	failures *failures.Policy
	registry *standin.Registry
	// builtinOnly: the registry is Builtin()'s, whose stand-ins answer
	// the built-in tools only, not a user's tool of the same name.
	builtinOnly bool
	imported    standin.Handler

	mu       sync.Mutex
	sessions *simplelru.LRU[string, *standin.State]
	// defaultState is the state of calls without a session; it is never
	// evicted, only emptied by Forget. Guarded by mu.
	defaultState *standin.State
}

// New returns a Mocker configured by opts.
func New(opts Options) (*Mocker, error) {
	m := &Mocker{clock: opts.Clock, world: opts.World, failures: opts.Failures, registry: opts.Registry, imported: opts.Imported, defaultState: standin.NewState()}
	if m.imported == nil {
		m.imported = faker.StandIn
	}
	if m.registry == nil {
		m.registry, m.builtinOnly = Builtin(), true
	}
	// Pure stand-ins answer a repeated call from a cache of their own.
	m.registry = m.registry.Memoized(answerBytes)
	if m.clock == nil {
		m.clock = clock.Frozen()
	}
	if m.world == nil {
		w, err := world.DefaultWorld()
		if err != nil {
			return nil, fmt.Errorf("mocks: loading the embedded world: %w", err)
		}
		m.world = w
	}
	n := opts.MaxSessions
	if n <= 0 {
		n = DefaultMaxSessions
	}
	lru, err := simplelru.NewLRU[string, *standin.State](n, nil)
	if err != nil {
		return nil, fmt.Errorf("mocks: session store: %w", err)
	}
	m.sessions = lru
	return m, nil
}

// World returns the world the Mocker's stand-ins draw from.
func (m *Mocker) World() *world.World { return m.world }

// HasStandIn reports whether api has a hand-written stand-in (as opposed to
// being answered by the faker).
func (m *Mocker) HasStandIn(api *toolset.API) bool {
	if api == nil {
		return false
	}
	if m.builtinOnly && api.Tool != nil && !api.Tool.Builtin {
		return false // a user's tool named like a built-in one answers as its file says
	}
	_, ok := m.registry.Lookup(standin.ToolName(api), api.Name)
	return ok
}

// StandInError is a defect of a stand-in (a panic, an error that is not a
// *sandbox.Rejection, a response that does not encode): the engine answers it with a
// 500, and the message names the API so that it can be fixed.
type StandInError struct {
	API   string // "<tool>.<api>"
	Panic any    // the recovered value when the stand-in panicked
	Err   error
}

func (e *StandInError) Error() string {
	if e.Panic != nil {
		return fmt.Sprintf("stand-in %s panicked: %v", e.API, e.Panic)
	}
	return fmt.Sprintf("stand-in %s failed: %v", e.API, e.Err)
}

func (e *StandInError) Unwrap() error { return e.Err }

// Status is the HTTP status the defect is reported with.
func (e *StandInError) Status() int { return http.StatusInternalServerError }

// Call answers one call of api with args (validated, defaults applied) in
// session ("" is the default session). The response is canonical JSON: the
// same call gives the same bytes. A realistic failure comes back as an
// *sandbox.Rejection (a simulated 429 as a *failures.RateLimitError wrapping
// one), a defect of a stand-in as a *StandInError, a cancelled context as
// its error.
func (m *Mocker) Call(ctx context.Context, api *toolset.API, args map[string]any, session string) (json.RawMessage, error) {
	if api == nil {
		return nil, errors.New("mocks: Call with a nil API")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if args == nil {
		args = map[string]any{}
	}
	tool := standin.ToolName(api)
	seed, err := callSeed(tool, api.Name, args)
	if err != nil {
		return nil, err
	}
	c := &standin.Call{API: api, Args: args, Session: session, Now: m.clock.Now(), Seed: seed, State: m.state(session)}
	h, ok := m.registry.Lookup(tool, api.Name)
	if !ok || !m.HasStandIn(api) {
		h = m.imported
	}
	v, err := invokeStandIn(ctx, m.failures.Middleware(h), m.world, c)
	if err != nil {
		var ae *sandbox.Rejection
		switch {
		case errors.As(err, &ae), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return nil, err
		}
		var se *StandInError
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, &StandInError{API: api.ID(), Err: err}
	}
	body, err := standin.Encode(v)
	if err != nil {
		return nil, &StandInError{API: api.ID(), Err: fmt.Errorf("encoding the response: %w", err)}
	}
	return body, nil
}

// invokeStandIn runs a stand-in, turning a panic into a *StandInError so that one
// broken stand-in never takes the server down.
func invokeStandIn(ctx context.Context, h standin.Handler, w *world.World, c *standin.Call) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, &StandInError{API: c.API.ID(), Panic: r}
		}
	}()
	return h(ctx, w, c)
}

// callSeed is Seed for arguments that may not encode (a NaN from an
// in-process caller): an error instead of a panic.
func callSeed(tool, api string, args map[string]any) (seed uint64, err error) {
	if _, err := canon.JSON(args); err != nil {
		return 0, fmt.Errorf("mocks: %s.%s: arguments do not encode as JSON: %w", tool, api, err)
	}
	return standin.Seed(tool, api, args), nil
}

// Forget drops a session's state (sandbox.Engine.Reset calls it); the
// next call of the session starts from an empty state. The default
// session ("") is emptied rather than dropped.
func (m *Mocker) Forget(session string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if session == "" {
		m.defaultState = standin.NewState()
		return
	}
	m.sessions.Remove(session)
}

// state returns the session's state, creating it on first use.
func (m *Mocker) state(session string) *standin.State {
	m.mu.Lock()
	defer m.mu.Unlock()
	if session == "" {
		return m.defaultState
	}
	if s, ok := m.sessions.Get(session); ok {
		return s
	}
	s := standin.NewState()
	m.sessions.Add(session, s)
	return s
}

var (
	_ error                    = (*StandInError)(nil)
	_ sandbox.SessionForgetter = (*Mocker)(nil)
)

// Builtin returns a registry of the stand-ins of every built-in API: the
// four scenarios of the built-in toolset.
func Builtin() *standin.Registry {
	r := standin.NewRegistry()
	basic.Register(r)
	daily.Register(r)
	image.Register(r)
	travel.Register(r)
	return r
}
