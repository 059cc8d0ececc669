package server

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// rapidWire routes RapidAPI-wire requests: host → method → path templates.
// It is a map built once at load time, not a regex router.
type rapidWire struct {
	byHost map[string][]wireRoute
	// routes are the APIs' operations in the catalog's OpenAPI document, for
	// validating a wire request as HTTP (parameter locations, styles and
	// types) before its arguments reach the engine.
	routes map[*toolset.API]*routers.Route
}

type wireRoute struct {
	method   string
	segments []string // "{name}" marks a path parameter
	api      *toolset.API
}

func newRapidWire(c *toolset.Catalog) *rapidWire {
	rw := &rapidWire{byHost: map[string][]wireRoute{}, routes: map[*toolset.API]*routers.Route{}}
	doc := toolset.OpenAPIDocument(c)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			tool, api, _ := strings.Cut(op.OperationID, ".")
			if a := c.API(tool, api); a != nil {
				rw.routes[a] = &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op}
			}
		}
	}
	for _, t := range c.Tools() {
		if t.Host == "" {
			continue
		}
		host := strings.ToLower(t.Host)
		for _, a := range t.APIs {
			if a.Path == "" {
				continue
			}
			rw.byHost[host] = append(rw.byHost[host], wireRoute{method: a.Method, segments: splitPath(a.Path), api: a})
		}
	}
	return rw
}

func splitPath(p string) []string {
	return strings.Split(strings.Trim(p, "/"), "/")
}

// match finds the API for a method and path, preferring routes with more
// literal segments (so /hotels/search wins over /hotels/{id}).
func (rw *rapidWire) match(host, method, path string) (*toolset.API, map[string]string, bool) {
	routes, ok := rw.byHost[strings.ToLower(host)]
	if !ok {
		return nil, nil, false
	}
	segs := splitPath(path)
	var best *wireRoute
	var bestParams map[string]string
	bestLiterals := -1
	for i := range routes {
		rt := &routes[i]
		if rt.method != method || len(rt.segments) != len(segs) {
			continue
		}
		params := map[string]string{}
		literals := 0
		ok := true
		for j, s := range rt.segments {
			if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
				v, err := url.PathUnescape(segs[j])
				if err != nil {
					ok = false
					break
				}
				params[s[1:len(s)-1]] = v
				continue
			}
			if s != segs[j] {
				ok = false
				break
			}
			literals++
		}
		if ok && literals > bestLiterals {
			best, bestParams, bestLiterals = rt, params, literals
		}
	}
	if best == nil {
		return nil, nil, false
	}
	return best.api, bestParams, true
}

// serveWire answers a request made the way RapidAPI clients make it: the
// API's real method and path, with X-RapidAPI-Host naming the tool. The
// answer is the API's own status and body.
func (s *Server) serveWire(w http.ResponseWriter, r *http.Request, host string) {
	if s.engine.Catalog().ToolByHost(host) == nil {
		writeProblem(w, newProblem(http.StatusNotFound, "unknown-host", "Unknown API host", "no tool is served at X-RapidAPI-Host "+host))
		return
	}
	api, pathParams, ok := s.wire.match(host, r.Method, r.URL.Path)
	if !ok {
		writeProblem(w, newProblem(http.StatusNotFound, "unknown-endpoint", "Endpoint does not exist", r.Method+" "+r.URL.Path+" is not an endpoint of "+host))
		return
	}
	if err := s.wire.validate(r, api, pathParams); err != nil {
		writeProblem(w, problemOf(err))
		return
	}
	args, err := wireArguments(r, api, pathParams)
	if err != nil {
		writeProblem(w, problemOf(err))
		return
	}
	res, err := s.engine.Call(r.Context(), sandbox.Request{
		Tool: api.Tool.StandardizedName, API: api.Name, Arguments: args,
		Session: r.Header.Get("X-Session-Id"),
		Client:  clientID(r, ""),
	})
	if err != nil {
		writeProblem(w, problemOf(err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Understudy-Source", res.Source)
	w.WriteHeader(res.Status)
	_, _ = w.Write(res.Response)
}

// wireArguments gathers a call's arguments from where RapidAPI clients put
// them: path segments, the query string, documented headers and a JSON
// body. Query and path values are strings; the engine's lenient
// validation turns "5" into 5 where the API takes a number.
func wireArguments(r *http.Request, api *toolset.API, pathParams map[string]string) (map[string]any, error) {
	args := map[string]any{}
	for k, v := range pathParams {
		args[k] = v
	}
	for k, vs := range r.URL.Query() {
		if len(vs) == 1 {
			args[k] = vs[0]
		} else {
			l := make([]any, len(vs))
			for i, v := range vs {
				l[i] = v
			}
			args[k] = l
		}
	}
	for _, p := range api.Params {
		if p.In == toolset.InHeader {
			if v := r.Header.Get(p.Name); v != "" {
				args[p.Name] = v
			}
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.ContentLength != 0 {
		if err := requireJSON(r); err != nil {
			return nil, err
		}
		var body map[string]any
		if err := decodeJSON(r.Body, &body); err != nil {
			return nil, err
		}
		for k, v := range body {
			args[k] = v
		}
	}
	return args, nil
}

// validate checks the HTTP request against the API's operation with
// kin-openapi's openapi3filter: every parameter problem is listed. The body
// is left to the engine, which reads it as arguments.
func (rw *rapidWire) validate(r *http.Request, api *toolset.API, pathParams map[string]string) error {
	route, ok := rw.routes[api]
	if !ok {
		return nil
	}
	err := openapi3filter.ValidateRequest(r.Context(), &openapi3filter.RequestValidationInput{
		Request: r, PathParams: pathParams, Route: route,
		Options: &openapi3filter.Options{MultiError: true, ExcludeRequestBody: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	})
	if err == nil {
		return nil
	}
	ve := &toolset.ValidationError{API: api.ID()}
	var collect func(error)
	collect = func(err error) {
		var me openapi3.MultiError
		var re *openapi3filter.RequestError
		switch {
		case errors.As(err, &me):
			for _, e := range me {
				collect(e)
			}
		case errors.As(err, &re) && re.Parameter != nil:
			code := "invalid"
			if errors.Is(re.Err, openapi3filter.ErrInvalidRequired) {
				code = "required"
			} else if re.Reason != "" && strings.Contains(re.Reason, "type") {
				code = "type"
			}
			ve.Violations = append(ve.Violations, toolset.Violation{Location: []string{re.Parameter.Name}, Code: code, Message: re.Error()})
		default:
			ve.Violations = append(ve.Violations, toolset.Violation{Location: []string{"request"}, Code: "invalid", Message: err.Error()})
		}
	}
	collect(err)
	return ve
}
