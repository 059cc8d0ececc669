package server

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/openapi"
)

// rapidWire serves the RapidAPI wire: per host, one http.ServeMux whose
// patterns name the tool's host and the API's method and path ("GET
// iso-codes.understudy.test/countries/{p0}"), so the standard library
// picks the most specific route (/hotels/search over /hotels/{id}). A
// segment with parameters inside it ("{section}.{format}") is a wildcard
// there, and its matcher (wireGroup) binds the parameters.
//
// A host's routes are built on its first request: StableToolBench's
// 12,000 tools would otherwise cost seconds of start for the few hosts a
// run calls. They are kept within Options.APICacheBytes (hostCache).
type rapidWire struct {
	s *Server
	// tools are the tools with a host, by wireHost.
	tools map[string][]*toolset.Tool
	hosts *hostCache // wireHost → *lazyHostWire
}

type lazyHostWire struct {
	once  sync.Once
	hw    *hostWire
	bytes int64 // its estimated cost, once counted (hostCache.built)
}

// hostWire is the routes of one host.
type hostWire struct {
	mux  *http.ServeMux
	cost int64 // estimated bytes (hostCache)
}

// newRapidWire indexes the catalog's tools by host and returns the handler
// that dispatches to their routes.
func (s *Server) newRapidWire() *rapidWire {
	rw := &rapidWire{s: s, tools: map[string][]*toolset.Tool{}, hosts: newHostCache(s.opts.APICacheBytes)}
	for _, t := range s.engine.Catalog().Tools() {
		if t.Host != "" {
			h := wireHost(t.Host)
			rw.tools[h] = append(rw.tools[h], t)
		}
	}
	return rw
}

// host is the routes of a host (as wireHost spells it), built on first use.
func (rw *rapidWire) host(h string) *hostWire {
	l := rw.hosts.entry(h)
	l.once.Do(func() {
		l.hw = rw.build(h)
		rw.hosts.built(h, l, l.hw.cost)
	})
	return l.hw
}

// build makes a host's routes.
func (rw *rapidWire) build(host string) *hostWire {
	tools := rw.tools[host]
	hw := &hostWire{mux: http.NewServeMux(), cost: wireHostBytes}
	// Templates that differ only inside a segment ("/v2/{p}.json" and
	// "/v2/{p}.xml") share a ServeMux pattern; the pattern's handler tries
	// their segment matchers, most literal first.
	groups := map[string]*wireGroup{}
	var order []string
	add := func(a *toolset.API, template string) {
		pattern, binds := wirePattern(template)
		key := a.Method + " " + host + pattern
		g := groups[key]
		if g == nil {
			g = &wireGroup{rw: rw}
			groups[key] = g
			order = append(order, key)
		}
		for _, r := range g.routes {
			if r.api == a {
				return // the API's two paths are one pattern
			}
		}
		g.routes = append(g.routes, wireRoute{api: a, binds: binds})
		hw.cost += wireRouteBytes + 3*int64(len(key))
	}
	for _, t := range tools {
		exported := openapi.Paths(t)
		for i, a := range t.APIs {
			if a.Path != "" {
				add(a, a.Path)
			}
			// The path the OpenAPI export gives the API, without its
			// "/<tool>" (exportedPath strips it from requests): where it
			// differs (path parameters the template lacked, a suffix
			// telling two APIs of one path apart), a client generated
			// from the document calls it there.
			add(a, strings.TrimPrefix(exported[i], "/"+t.StandardizedName))
		}
	}
	for _, key := range order {
		g := groups[key]
		sort.SliceStable(g.routes, func(i, j int) bool { return g.routes[i].literal() > g.routes[j].literal() })
		if err := handle(hw.mux, key, wrap(g.serve)); err != nil {
			// Two templates that overlap with neither more specific
			// (/a/{x} and /{y}/b): the first one loaded keeps the path.
			for _, r := range g.routes {
				rw.s.log.Warn("RapidAPI wire: endpoint not served", "api", r.api.ID(), "path", r.api.Path, "err", err)
			}
		}
	}
	return hw
}

// handle registers a pattern, turning ServeMux's panic on a conflicting or
// malformed pattern into an error.
func handle(mux *http.ServeMux, pattern string, h http.Handler) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%v", v)
		}
	}()
	mux.Handle(pattern, h)
	return nil
}

// wireHost is the host part of a pattern: lower case without a port, as
// ServeMux compares it.
func wireHost(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	if !strings.Contains(h, ":") {
		return h // no port (and SplitHostPort would build an error to say so)
	}
	if host, _, err := net.SplitHostPort(h); err == nil {
		return host
	}
	return h
}

// wirePattern turns an API's path template into a ServeMux path pattern and
// what each of its wildcards binds. A segment holding parameters becomes a
// wildcard {p0}, {p1}… (template names need not be Go identifiers): a whole
// segment "{id}" binds its name, one with text around or between parameters
// ("{section}.{format}", "v{n}") binds through a segment matcher, since
// ServeMux matches only whole-segment wildcards. Literal segments are
// escaped so that a brace in one is a literal. Leading and trailing slashes
// do not count, as a request's do not (wirePath).
func wirePattern(template string) (pattern string, binds []segmentMatcher) {
	trimmed := strings.Trim(template, "/")
	if trimmed == "" {
		return "/{$}", nil
	}
	var b strings.Builder
	for _, seg := range strings.Split(trimmed, "/") {
		b.WriteByte('/')
		if m, ok := parseSegment(seg); ok {
			fmt.Fprintf(&b, "{p%d}", len(binds))
			binds = append(binds, m)
			continue
		}
		b.WriteString(url.PathEscape(seg))
	}
	return b.String(), binds
}

// wireGroup is the APIs served at one ServeMux pattern.
type wireGroup struct {
	rw     *rapidWire
	routes []wireRoute // most literal text first
}

// wireRoute is one API and the matchers of its pattern's wildcards.
type wireRoute struct {
	api   *toolset.API
	binds []segmentMatcher
}

// literal is how much fixed text the route's wildcard segments demand: a
// route that asks more is the more specific one.
func (r wireRoute) literal() int {
	n := 0
	for _, m := range r.binds {
		for _, l := range m.literals {
			n += len(l)
		}
	}
	return n
}

// serve answers with the first route whose segments match the request's.
func (g *wireGroup) serve(r *http.Request) (any, error) {
	for _, route := range g.routes {
		var pathParams map[string]string
		if len(route.binds) > 0 {
			pathParams = map[string]string{}
		}
		ok := true
		for i, m := range route.binds {
			if !m.match(r.PathValue("p"+strconv.Itoa(i)), pathParams) {
				ok = false
				break
			}
		}
		if ok {
			return g.rw.serve(r, route.api, pathParams)
		}
	}
	return nil, unknownEndpoint(r, r.Header.Get("X-RapidAPI-Host"))
}

// wirePath is the escaped path a wire request is routed by: without a
// trailing slash, and ok only when already clean ("//", "." and ".."
// segments name no endpoint).
func wirePath(u *url.URL) (string, bool) {
	p := u.EscapedPath()
	if len(p) < 2 || p[0] != '/' || p[len(p)-1] == '/' || p[1] == '/' {
		p = "/" + strings.Trim(p, "/")
	}
	return p, p == path.Clean(p)
}

// ServeHTTP answers a request made the way RapidAPI clients make it: the
// API's real method and path, with X-RapidAPI-Host naming the tool. The
// mux routes by Host and path, so the request goes on to it with the
// RapidAPI host as Host and the path as wirePath reads it.
func (rw *rapidWire) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hw, err := rw.route(r)
	if err != nil {
		writeProblem(w, err)
		return
	}
	hw.mux.ServeHTTP(w, r)
}

// route rewrites a wire request's Host and path to what the mux routes
// by, in place (the request goes nowhere else), or says why no endpoint
// serves it, leaving the request as it came.
func (rw *rapidWire) route(r *http.Request) (*hostWire, *Problem) {
	host := r.Header.Get("X-RapidAPI-Host")
	if rw.s.engine.Catalog().ToolByHost(host) == nil {
		if p := unservedMethod(r); p != nil {
			return nil, p
		}
		return nil, newProblem(http.StatusNotFound, "unknown-host", "Unknown API host", "no tool is served at X-RapidAPI-Host "+host)
	}
	p, clean := wirePath(r.URL)
	if !clean {
		return nil, unknownEndpoint(r, host)
	}
	hw := rw.host(wireHost(host))
	oldHost, oldPath, oldRaw := r.Host, r.URL.Path, r.URL.RawPath
	r.Host = wireHost(host)
	r.URL.RawPath = p
	r.URL.Path, _ = url.PathUnescape(p)
	if _, pattern := hw.mux.Handler(r); pattern == "" {
		allow := hw.allowed(r)
		r.Host, r.URL.Path, r.URL.RawPath = oldHost, oldPath, oldRaw
		if len(allow) > 0 {
			// The path is an endpoint, only not by this method: 405 with
			// Allow, as RapidAPI's gateway and HTTP say.
			p := newProblem(http.StatusMethodNotAllowed, "method-not-allowed", "Method not allowed",
				fmt.Sprintf("%s is not allowed on %s of %s; allowed: %s", r.Method, prefix(r.URL.Path, 256), host, strings.Join(allow, ", ")))
			p.headers = http.Header{"Allow": {strings.Join(allow, ", ")}}
			return nil, p
		}
		return nil, unknownEndpoint(r, host)
	}
	return hw, nil
}

// exportedPath routes a request made at a path of the OpenAPI export
// ("/<tool>/<path>", at the document's servers URL, without
// X-RapidAPI-Host: what a generated client or Swagger UI sends) to the
// wire as the tool's own request: the tool's host in X-RapidAPI-Host and
// the path after "/<tool>". ok is false when the first segment names no
// tool with a host; the request is then left as it came.
func (rw *rapidWire) exportedPath(r *http.Request) (bool, *Problem) {
	first, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	t := rw.s.engine.Catalog().Tool(first)
	if t == nil || t.Host == "" {
		return false, nil
	}
	if p := checkName("tool name", first, MaxNameLen); p != nil {
		return false, p // the lookup folded it to a tool's name
	}
	r.Header.Set("X-RapidAPI-Host", t.Host)
	r.URL.Path = "/" + rest
	if r.URL.RawPath != "" {
		_, raw, _ := strings.Cut(strings.TrimPrefix(r.URL.RawPath, "/"), "/")
		r.URL.RawPath = "/" + raw
	}
	return true, nil
}

// unservedMethod answers TRACE and CONNECT, which no endpoint of the
// server takes, with 405 and the methods endpoints take, where a path
// that is no endpoint would be a 404: the method, not the path, is what
// the client must change. Nil for any other method.
func unservedMethod(r *http.Request) *Problem {
	if r.Method != http.MethodTrace && r.Method != http.MethodConnect {
		return nil
	}
	allow := strings.Join(wireMethods, ", ")
	target := r.URL.Path
	if target == "" {
		target = r.Host // CONNECT's authority form
	}
	p := newProblem(http.StatusMethodNotAllowed, "method-not-allowed", "Method not allowed",
		fmt.Sprintf("%s is not served by this server (on %s or anywhere); endpoints take %s", r.Method, prefix(target, 256), allow))
	p.headers = http.Header{"Allow": {allow}}
	return p
}

// wireMethods are the methods an API of the wire can have, in the order
// an Allow header lists them.
var wireMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// allowed lists the methods the routed request's path is an endpoint for
// (HEAD wherever GET is: ServeMux's GET patterns serve it).
func (hw *hostWire) allowed(r *http.Request) []string {
	var out []string
	probe := *r
	for _, m := range wireMethods {
		probe.Method = m
		if _, pattern := hw.mux.Handler(&probe); pattern != "" {
			out = append(out, m)
		}
	}
	return out
}

func unknownEndpoint(r *http.Request, host string) *Problem {
	if p := unservedMethod(r); p != nil {
		return p
	}
	return newProblem(http.StatusNotFound, "unknown-endpoint", "Endpoint does not exist", r.Method+" "+r.URL.Path+" is not an endpoint of "+host)
}

// serve answers one call of an API on the wire with the API's own status
// and body.
func (rw *rapidWire) serve(r *http.Request, api *toolset.API, pathParams map[string]string) (any, error) {
	if r.Method != api.Method && (r.Method != http.MethodHead || api.Method != http.MethodGet) {
		return nil, unknownEndpoint(r, r.Header.Get("X-RapidAPI-Host"))
	}
	// HEAD is answered as GET (a call, with its status and headers) and
	// net/http leaves the body out.
	if rw.s.opts.EnforceSecurity && rw.s.engine.Mode() == sandbox.ModeFake {
		if p := unauthorized(r, api); p != nil {
			return nil, p
		}
	}
	args, err := wireArguments(r, api, pathParams)
	if err != nil {
		return nil, err
	}
	// Arguments the API's schema refuses are refused with the engine's
	// own violations, word for word what every other transport (native,
	// /virtual, /rapidapi, MCP) says of the same arguments.
	ctx := r.Context()
	if rw.s.engine.RateLimited(api) {
		ctx = sandbox.WithClient(ctx, clientID(r, ""))
	}
	session := r.Header.Get("X-Session-Id")
	var res *sandbox.Result
	if valid, verr := rw.s.engine.Validate(api, args); verr == nil {
		res, err = rw.s.engine.CallValidated(ctx, valid, session)
	} else {
		res, err = rw.s.engine.CallAPI(ctx, api, args, session) // refused, and counted, by the engine
	}
	if err != nil {
		return nil, err
	}
	var header http.Header
	if len(res.Header) > 0 {
		header = res.Header.Clone() // the API's own Retry-After on a 429
	}
	header = warningHeader(header, res.Warnings)
	return &rawBody{status: res.Status, contentType: "application/json", source: res.Source, header: header, body: res.Response}, nil
}

// wireArguments gathers a call's arguments from where RapidAPI clients put
// them: path segments, the query string, documented headers and the body.
// Query, path and form values are strings; the engine's lenient validation
// turns "5" into 5 where the API takes a number. Credentials the API's spec
// declares (an apiKey in the query) are dropped here, so that a key never
// becomes an argument, a trace entry or part of a cache key.
func wireArguments(r *http.Request, api *toolset.API, pathParams map[string]string) (map[string]any, error) {
	query := r.URL.Query()
	args := make(map[string]any, len(pathParams)+len(query))
	for k, v := range pathParams {
		args[k] = v
	}
	addValues(args, api, query)
	for _, p := range api.Params {
		if p.In == toolset.InHeader {
			if v := r.Header.Get(p.Name); v != "" {
				args[p.Name] = v
			}
		}
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.ContentLength != 0 {
		if err := wireBody(r, api, args); err != nil {
			return nil, err
		}
	}
	return args, nil
}

// addValues adds query or form values as arguments: one value is a
// string, a repeated name a list of them.
func addValues(args map[string]any, api *toolset.API, vals url.Values) {
	for k, vs := range vals {
		if api.IsCredential(k) {
			continue
		}
		if len(vs) == 1 {
			args[k] = vs[0]
			continue
		}
		l := make([]any, len(vs))
		for i, v := range vs {
			l[i] = v
		}
		args[k] = l
	}
}

// formMediaType is the body RapidAPI's own code snippets send for form APIs
// (google-translate1's "q=Hello&target=es").
const formMediaType = "application/x-www-form-urlencoded"

// wireBody reads a request body into args. A form body's fields are
// arguments like query parameters. A JSON object's members are arguments;
// a JSON array (a JSON Patch) is the argument "body" of an API whose body
// is an array, and refused by any other.
func wireBody(r *http.Request, api *toolset.API, args map[string]any) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && mt == formMediaType {
		data, err := io.ReadAll(r.Body)
		if err != nil {
			return bodyError(err)
		}
		vals, err := url.ParseQuery(string(data))
		if err != nil {
			return newProblem(http.StatusBadRequest, "malformed-form", "Malformed form", "Malformed form body: "+err.Error())
		}
		addValues(args, api, vals)
		return nil
	}
	if err := requireJSON(r); err != nil {
		return err
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return bodyError(err)
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		p := api.Param("body")
		if p == nil || p.In != toolset.InBody || p.Kind != toolset.KindArray {
			return newProblem(http.StatusBadRequest, "malformed-json", "Malformed JSON", "Malformed JSON in body: a JSON array, but "+api.ID()+" takes a JSON object of arguments")
		}
		v, err := canon.Decode(data)
		if err != nil {
			return badJSON("body", err)
		}
		args["body"] = v
		return nil
	}
	body, err := decodeBodyObject(bytes.NewReader(data))
	if err != nil {
		return err
	}
	for k, v := range body {
		args[k] = v
	}
	return nil
}

// unauthorized is the 401 of a wire request that satisfies none of its
// API's declared security alternatives (toolset.API.Security), or nil.
// Only presence is checked: the sandbox has no keys to compare with, and
// the detail names what is needed, never a value sent.
func unauthorized(r *http.Request, api *toolset.API) *Problem {
	if len(api.Security) == 0 {
		return nil
	}
	var want []string
	bearer := false
	for _, alt := range api.Security {
		ok := true
		var need []string
		for _, c := range alt {
			switch c.Type {
			case toolset.CredentialBearer:
				bearer = true
				need = append(need, "Authorization: Bearer <token>")
				scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
				ok = ok && strings.EqualFold(scheme, "Bearer") && strings.TrimSpace(token) != ""
			case toolset.CredentialAPIKey:
				if c.In == "query" {
					need = append(need, "query parameter "+c.Name)
					ok = ok && r.URL.Query().Get(c.Name) != ""
				} else {
					need = append(need, "header "+c.Name)
					ok = ok && r.Header.Get(c.Name) != ""
				}
			}
		}
		if ok {
			return nil
		}
		want = append(want, strings.Join(need, " and "))
	}
	p := newProblem(http.StatusUnauthorized, "unauthorized", "Unauthorized",
		fmt.Sprintf("%s requires credentials its OpenAPI source declares: %s", api.ID(), strings.Join(want, ", or ")))
	challenge := `APIKey realm="` + api.Tool.StandardizedName + `"`
	if bearer {
		challenge = `Bearer realm="` + api.Tool.StandardizedName + `"`
	}
	p.headers = http.Header{"WWW-Authenticate": {challenge}}
	return p
}
