package mocks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/clock"
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
	World       *World
	Failures    *FailurePolicy
	MaxSessions int
}

// Mocker answers API calls offline: with the registered stand-in when the
// API has one, otherwise with the faker (documented example, response
// schema, or a generic echo). It is safe for concurrent use.
type Mocker struct {
	clock    clock.Clock
	world    *World
	failures *FailurePolicy

	mu       sync.Mutex
	sessions *simplelru.LRU[string, *State]
	// defaultState is the state of calls without a session; it is never evicted.
	defaultState *State
}

// New returns a Mocker configured by opts.
func New(opts Options) (*Mocker, error) {
	m := &Mocker{clock: opts.Clock, world: opts.World, failures: opts.Failures, defaultState: NewState()}
	if m.clock == nil {
		m.clock = clock.Frozen()
	}
	if m.world == nil {
		w, err := DefaultWorld()
		if err != nil {
			return nil, fmt.Errorf("mocks: loading the embedded world: %w", err)
		}
		m.world = w
	}
	n := opts.MaxSessions
	if n <= 0 {
		n = DefaultMaxSessions
	}
	lru, err := simplelru.NewLRU[string, *State](n, nil)
	if err != nil {
		return nil, fmt.Errorf("mocks: session store: %w", err)
	}
	m.sessions = lru
	return m, nil
}

// World returns the world the Mocker's stand-ins draw from.
func (m *Mocker) World() *World { return m.world }

// HasStandIn reports whether api has a hand-written stand-in (as opposed to
// being answered by the faker).
func (m *Mocker) HasStandIn(api *toolset.API) bool {
	if api == nil {
		return false
	}
	_, ok := handlerFor(standInTool(api), api.Name)
	return ok
}

// StandInError is a defect of a stand-in (a panic, an error that is not an
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
// *sandbox.Rejection (a simulated 429 as a *RateLimitError wrapping one), a defect of
// a stand-in as a *StandInError, a cancelled context as its error.
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
	tool := standInTool(api)
	seed, err := callSeed(tool, api.Name, args)
	if err != nil {
		return nil, err
	}
	state := m.state(session)
	rule := m.failures.Rule(tool)
	if rule.active() {
		attempt := state.Update(failureKind, strconv.FormatUint(seed, 16), func(old any, ok bool) any {
			n, _ := old.(uint64)
			if ok {
				n++
			}
			return n
		}).(uint64)
		if err := m.failures.before(ctx, tool, seed, attempt); err != nil {
			return nil, err
		}
	}
	c := &Call{API: api, Args: args, Session: session, Now: m.clock.Now(), Seed: seed, State: state}
	var v any
	if h, ok := handlerFor(tool, api.Name); ok {
		v, err = invokeStandIn(ctx, h, m.world, c)
	} else {
		v, err = fakeCall(m.world, c)
	}
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
	body, err := encodeResponse(v)
	if err != nil {
		return nil, &StandInError{API: api.ID(), Err: fmt.Errorf("encoding the response: %w", err)}
	}
	if rule.Truncate > 0 {
		if body, err = truncateResponse(body, rule.Truncate); err != nil {
			return nil, &StandInError{API: api.ID(), Err: err}
		}
	}
	return body, nil
}

// invokeStandIn runs a stand-in, turning a panic into a *StandInError so that one
// broken stand-in never takes the server down.
func invokeStandIn(ctx context.Context, h Handler, w *World, c *Call) (v any, err error) {
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
		return 0, fmt.Errorf("mocks: %s.%s: arguments do not encodeResponse as JSON: %w", tool, api, err)
	}
	return Seed(tool, api, args), nil
}

// state returns the session's state, creating it on first use.
func (m *Mocker) state(session string) *State {
	if session == "" {
		return m.defaultState
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.sessions.Get(session); ok {
		return s
	}
	s := NewState()
	m.sessions.Add(session, s)
	return s
}

// standInTool is the standardized name stand-ins are registered under.
func standInTool(api *toolset.API) string {
	if api.Tool == nil {
		return ""
	}
	if api.Tool.StandardizedName != "" {
		return api.Tool.StandardizedName
	}
	return toolset.Standardize(api.Tool.Name)
}

// encodeResponse is the canonical JSON of a response: sorted keys, normalised
// numbers, no HTML escaping.
func encodeResponse(v any) (json.RawMessage, error) {
	b, err := canon.JSON(v)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(b), nil
}

var _ error = (*StandInError)(nil)
