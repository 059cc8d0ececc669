package server

import (
	"fmt"
	"net/http"
)

// routerProblems serves mux, answering what the mux itself answers — a path
// no route matches (404), a method a route does not take (405, with Allow),
// and its redirects to a cleaned path ("/v1/../healthz", "//healthz") — as
// problem+json like every other error, keeping the status, Allow and
// Location the mux chose. Routes are registered as route, so anything
// else the mux hands back is its own answer.
//
// A path no route matches may be one of the OpenAPI export's
// ("/<tool>/..."): the wire serves it (rapidWire.exportedPath).
func routerProblems(mux *http.ServeMux, wire *rapidWire) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if _, ok := h.(route); ok {
			mux.ServeHTTP(w, r)
			return
		}
		if pattern == "" {
			ok, p := wire.exportedPath(r)
			if p != nil {
				writeProblem(w, p)
				return
			}
			if ok {
				wire.ServeHTTP(w, r)
				return
			}
		}
		rec := &headerRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		var p *Problem
		switch {
		case status == http.StatusMethodNotAllowed:
			p = newProblem(status, "method-not-allowed", "Method not allowed",
				fmt.Sprintf("%s is not allowed on %s; allowed: %s", r.Method, prefix(r.URL.Path, 256), rec.header.Get("Allow")))
			p.headers = http.Header{"Allow": rec.header.Values("Allow")}
		case status >= 300 && status < 400:
			loc := rec.header.Get("Location")
			p = newProblem(status, "moved", "Moved", fmt.Sprintf("%s is served at %s", prefix(r.URL.Path, 256), prefix(loc, 256)))
			p.headers = http.Header{"Location": {loc}}
		case status == http.StatusNotFound && unservedMethod(r) != nil:
			p = unservedMethod(r)
		case status == http.StatusNotFound:
			p = newProblem(status, "no-route", "No such endpoint", fmt.Sprintf("%s %s is not an endpoint of this server", r.Method, prefix(r.URL.Path, 256)))
		default:
			p = newProblem(status, "bad-request", http.StatusText(status), "the request cannot be routed")
		}
		writeProblem(w, p)
	})
}

// route marks the handlers registered on the mux, telling them apart
// from the mux's own (not found, method not allowed, redirect).
type route struct{ http.Handler }

// headerRecorder keeps the status and headers a handler writes and drops
// its body.
type headerRecorder struct {
	header http.Header
	status int
}

func (h *headerRecorder) Header() http.Header { return h.header }

func (h *headerRecorder) WriteHeader(code int) {
	if h.status == 0 {
		h.status = code
	}
}

func (h *headerRecorder) Write(b []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	return len(b), nil
}
