// Package standintest runs stand-ins in tests the way the engine does, for
// every scenario package: arguments as decoded JSON, the seed from the
// canonical arguments, the frozen clock, a session's state; and it keeps
// their golden files under one -update flag.
package standintest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/tbfile"
)

// World is the embedded world, loaded once.
func World(t testing.TB) *world.World {
	t.Helper()
	w, err := world.DefaultWorld()
	require.NoError(t, err)
	return w
}

// builtinTools are the built-in tool files by standardized name, loaded once
// through the real loader.
var builtinTools = sync.OnceValues(func() (map[string]*toolset.Tool, error) {
	out := map[string]*toolset.Tool{}
	err := fs.WalkDir(fixtures.FS, "toolset", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".json" {
			return err
		}
		b, err := fs.ReadFile(fixtures.FS, p)
		if err != nil {
			return err
		}
		tool, err := tbfile.LoadFile(b, path.Base(path.Dir(p)), p)
		if err != nil {
			return err
		}
		tool.Builtin = true // as loader.BuiltinTools marks them
		out[tool.StandardizedName] = tool
		return nil
	})
	return out, err
})

// Tool is a built-in tool by its standardized name; the tool is shared and read-only.
func Tool(t testing.TB, name string) *toolset.Tool {
	t.Helper()
	tools, err := builtinTools()
	require.NoError(t, err)
	tool, ok := tools[name]
	require.True(t, ok, "no built-in tool %q", name)
	return tool
}

// API is a bare API of a test tool, for calls the faker answers.
func API(tool, name string) *toolset.API {
	t := &toolset.Tool{Name: tool, StandardizedName: tool, Category: "Test"}
	a := &toolset.API{Name: name, Method: "GET", Tool: t}
	t.APIs = []*toolset.API{a}
	return a
}

// Session runs stand-ins for one sandbox session: calls share one state,
// as a client's calls do.
type Session struct {
	t        testing.TB
	reg      *standin.Registry
	w        *world.World
	now      time.Time
	state    *standin.State
	defaults bool
}

// New returns a session over the stand-ins that register adds, with the
// embedded world and the frozen clock.
func New(t testing.TB, register func(*standin.Registry)) *Session {
	reg := standin.NewRegistry()
	register(reg)
	return &Session{t: t, reg: reg, w: World(t), now: clock.Default, state: standin.NewState()}
}

// WithDefaults returns the session applying each API's documented defaults
// (from its built-in tool file) to the arguments, as the engine's
// validation does; an argument given as nil is left out.
func (s *Session) WithDefaults() *Session {
	c := *s
	c.defaults = true
	return &c
}

// At returns the session with the clock at now.
func (s *Session) At(now time.Time) *Session {
	c := *s
	c.now = now
	return &c
}

// Fresh returns the session with an empty state: a new client.
func (s *Session) Fresh() *Session {
	c := *s
	c.state = standin.NewState()
	return &c
}

// World is the session's world.
func (s *Session) World() *world.World { return s.w }

// Call runs one API and returns what the stand-in returned, unencoded.
func (s *Session) Call(tool, api string, args map[string]any) (any, error) {
	s.t.Helper()
	h, ok := s.reg.Lookup(tool, api)
	require.True(s.t, ok, "no stand-in for %s.%s", tool, api)
	c := s.prepare(tool, api, args)
	return h(context.Background(), s.w, c)
}

func (s *Session) prepare(tool, api string, args map[string]any) *standin.Call {
	s.t.Helper()
	full := map[string]any{}
	var a *toolset.API
	if s.defaults {
		a = Tool(s.t, tool).API(api)
		require.NotNil(s.t, a, "%s has no API %s", tool, api)
		for _, p := range a.Params {
			if p.Default != nil {
				full[p.Name] = p.Default
			}
		}
	}
	// Arguments reach stand-ins as decoded JSON: numbers are float64.
	if args != nil {
		for k, v := range Plain(s.t, args).(map[string]any) {
			if v == nil {
				delete(full, k)
				continue
			}
			full[k] = v
		}
	}
	return &standin.Call{API: a, Args: full, Session: "test", Now: s.now, Seed: standin.Seed(tool, api, full), State: s.state}
}

// Plain runs one API and returns its response as a client decodes it.
func (s *Session) Plain(tool, api string, args map[string]any) (any, error) {
	s.t.Helper()
	v, err := s.Call(tool, api, args)
	if err != nil {
		return nil, err
	}
	return Plain(s.t, v), nil
}

// OK runs one API that must succeed and returns its decoded response.
func (s *Session) OK(tool, api string, args map[string]any) any {
	s.t.Helper()
	v, err := s.Plain(tool, api, args)
	require.NoError(s.t, err, "%s.%s(%v)", tool, api, args)
	return v
}

// Object is OK for a response that must be a JSON object.
func (s *Session) Object(tool, api string, args map[string]any) map[string]any {
	s.t.Helper()
	v := s.OK(tool, api, args)
	m, ok := v.(map[string]any)
	require.True(s.t, ok, "%s.%s answered %T", tool, api, v)
	return m
}

// Fails runs one API that must be refused with status, the way the real
// API refuses it, and returns the decoded error body.
func (s *Session) Fails(status int, tool, api string, args map[string]any) map[string]any {
	s.t.Helper()
	_, err := s.Call(tool, api, args)
	require.Error(s.t, err, "%s.%s(%v) should fail", tool, api, args)
	return Rejected(s.t, err, status)
}

// Bytes is the canonical JSON of a call's response, or of
// {"status": ..., "error": ...} when the API refuses the call.
func (s *Session) Bytes(tool, api string, args map[string]any) string {
	s.t.Helper()
	b, err := canon.JSON(s.outcome(tool, api, args))
	require.NoError(s.t, err)
	return string(b)
}

func (s *Session) outcome(tool, api string, args map[string]any) any {
	s.t.Helper()
	v, err := s.Call(tool, api, args)
	if err != nil {
		var r *sandbox.Rejection
		require.True(s.t, errors.As(err, &r), "%s.%s: %v", tool, api, err)
		return map[string]any{"status": r.Status, "error": r.Body}
	}
	return v
}

// Case is one named call in a golden file.
type Case struct {
	Name, Tool, API string
	Args            map[string]any
}

// GoldenCalls pins the outcome of each case, each made by a new client of
// the session, in testdata/name.
func GoldenCalls(t *testing.T, name string, s *Session, cases []Case) {
	t.Helper()
	out := map[string]any{}
	for _, c := range cases {
		out[c.Name] = s.Fresh().outcome(c.Tool, c.API, c.Args)
	}
	Golden(t, name, out)
}

// Rejected asserts that err is a *sandbox.Rejection with status and returns
// its body decoded as a JSON object.
func Rejected(t testing.TB, err error, status int) map[string]any {
	t.Helper()
	var r *sandbox.Rejection
	require.True(t, errors.As(err, &r), "want *sandbox.Rejection, got %T: %v", err, err)
	require.Equal(t, status, r.Status, "%v", r)
	m, ok := Plain(t, r.Body).(map[string]any)
	require.True(t, ok, "error body is %T", r.Body)
	return m
}

// Plain is v as canonical JSON decoded back into plain values.
func Plain(t testing.TB, v any) any {
	t.Helper()
	b, err := canon.JSON(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// Get walks a dotted path with [n] indexes, e.g. "data.hotels[0].hotel_id",
// and fails the test when a step is missing. (Dependency paths, which walk
// every element with "[]", are deps.Values.)
func Get(t testing.TB, v any, path string) any {
	t.Helper()
	cur := v
	for _, part := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			m, ok := cur.(map[string]any)
			require.True(t, ok, "%s: %q is not an object", path, name)
			cur, ok = m[name]
			require.True(t, ok, "%s: no field %q", path, name)
		}
		for rest != "" {
			num, after, _ := strings.Cut(rest, "]")
			n, err := strconv.Atoi(num)
			require.NoError(t, err, path)
			arr, ok := cur.([]any)
			require.True(t, ok, "%s: not an array", path)
			require.Less(t, n, len(arr), "%s: index out of range", path)
			cur = arr[n]
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return cur
}

// Golden compares the canonical JSON of v, plus a newline, with
// testdata/name, or rewrites it under -update.
func Golden(t *testing.T, name string, v any) {
	t.Helper()
	b, err := canon.JSON(v)
	require.NoError(t, err)
	GoldenBytes(t, name, append(b, '\n'))
}

// GoldenBytes compares got with testdata/name, or rewrites it under -update.
func GoldenBytes(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// PlainJSON is v's canonical JSON and the plain values it decodes to.
func PlainJSON(t testing.TB, v any) (any, []byte) {
	t.Helper()
	b, err := canon.JSON(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out, b
}

// Tools returns the named built-in tools, by standardized name, in a map
// of the caller's own over shared, read-only tools.
func Tools(t testing.TB, names ...string) map[string]*toolset.Tool {
	t.Helper()
	out := make(map[string]*toolset.Tool, len(names))
	for _, n := range names {
		out[n] = Tool(t, n)
	}
	return out
}

// T is the test the session reports to.
func (s *Session) T() testing.TB { return s.t }

// Bench measures one call, prepared once as the engine would hand it over.
func (s *Session) Bench(b *testing.B, tool, api string, args map[string]any) {
	h, ok := s.reg.Lookup(tool, api)
	require.True(b, ok, "no stand-in for %s.%s", tool, api)
	c := s.prepare(tool, api, args)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h(ctx, s.w, c); err != nil {
			b.Fatal(err)
		}
	}
}

// Shape checks that got, a response, has the shape of want, a documented
// example: every field of want with the same JSON type (null on either side
// matches anything), each array element like one of the documented
// elements, objects keyed by ids free-form. It returns the first mismatch.
func Shape(want, got any) error { return shape(want, got, "response") }

func shape(want, got any, path string) error {
	if want == nil {
		return nil
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %T", path, got)
		}
		// Objects keyed by ids (room lists) have no fixed field names.
		if idKeyed(w) {
			return nil
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s.%s: missing", path, k)
			}
			if err := shape(wv, gv, path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array, got %T", path, got)
		}
		if len(w) == 0 {
			return nil
		}
		// Each element must match one of the documented elements: lists
		// may mix kinds (geos and things to do).
		for i, gv := range g {
			var first error
			for _, wv := range w {
				err := shape(wv, gv, fmt.Sprintf("%s[%d]", path, i))
				if err == nil {
					first = nil
					break
				}
				if first == nil {
					first = err
				}
			}
			if first != nil {
				return first
			}
		}
	default:
		if got == nil {
			return nil // nullable fields
		}
		if fmt.Sprintf("%T", want) != fmt.Sprintf("%T", got) {
			return fmt.Errorf("%s: want %T, got %T", path, want, got)
		}
	}
	return nil
}

func idKeyed(m map[string]any) bool {
	for k := range m {
		if strings.Trim(k, "0123456789") != "" {
			return false
		}
	}
	return len(m) > 0
}
