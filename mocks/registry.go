package mocks

import "fmt"

// handlers maps "<tool>.<api>" (standardized tool name, API name as in the
// tool file) to its stand-in. Stand-in files register in init.
var handlers = map[string]Handler{}

// register adds the stand-in for one built-in API; registering twice is a
// programming error.
func register(tool, api string, h Handler) {
	key := tool + "." + api
	if _, dup := handlers[key]; dup {
		panic(fmt.Sprintf("mocks: stand-in for %s registered twice", key))
	}
	handlers[key] = h
}

// handlerFor returns the stand-in registered for a tool's API, if any.
func handlerFor(tool, api string) (Handler, bool) {
	h, ok := handlers[tool+"."+api]
	return h, ok
}
