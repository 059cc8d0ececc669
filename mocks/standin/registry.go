package standin

import (
	"fmt"
	"sort"
)

// Registry maps each built-in API, by "<tool>.<api>" (the tool's
// standardized name, the API's name as in its tool file), to its stand-in.
// Scenario packages fill it with their Register functions; it is read-only
// once the Mocker holds it.
type Registry struct {
	handlers map[string]Handler
	pure     map[string]bool // keys added with AddPure
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{handlers: map[string]Handler{}, pure: map[string]bool{}}
}

// AddPure registers the stand-in of an API whose answer is a function of
// the world, the API, the arguments and the clock's reading alone, never
// of the session's state (the call's seed is a function of the API and the
// arguments, so it may use that): a registry made by Memoized
// answers its repeated calls from a cache (see Memo). Lookup on this
// registry gives the stand-in itself.
func (r *Registry) AddPure(tool, api string, h Handler) {
	r.Add(tool, api, h)
	r.pure[tool+"."+api] = true
}

// Memoized returns a copy of r in which each stand-in added with AddPure
// answers through a Memo of its own, bounded by maxBytes.
func (r *Registry) Memoized(maxBytes int) *Registry {
	out := &Registry{handlers: make(map[string]Handler, len(r.handlers)), pure: r.pure}
	for k, h := range r.handlers {
		if r.pure[k] {
			h = Memo(maxBytes, h)
		}
		out.handlers[k] = h
	}
	return out
}

// Add registers the stand-in of one API; adding one twice is a programming
// error and panics.
func (r *Registry) Add(tool, api string, h Handler) {
	key := tool + "." + api
	if _, dup := r.handlers[key]; dup {
		panic(fmt.Sprintf("standin: stand-in for %s registered twice", key))
	}
	r.handlers[key] = h
}

// Lookup returns the stand-in registered for a tool's API, if any.
func (r *Registry) Lookup(tool, api string) (Handler, bool) {
	h, ok := r.handlers[tool+"."+api]
	return h, ok
}

// Keys returns the registered "<tool>.<api>" keys, sorted.
func (r *Registry) Keys() []string {
	keys := make([]string, 0, len(r.handlers))
	for k := range r.handlers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Middleware wraps a stand-in, e.g. with failure injection.
type Middleware func(next Handler) Handler
