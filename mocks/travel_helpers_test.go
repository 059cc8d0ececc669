package mocks

import (
	"context"
	"encoding/json"
	"io/fs"
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
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

var travelWorldOnce = sync.OnceValues(func() (*World, error) {
	sub, err := fs.Sub(fixtures.FS, "world")
	if err != nil {
		return nil, err
	}
	return LoadWorld(sub)
})

// travelWorld loads the embedded world through the real loader, once.
func travelWorld(t testing.TB) *World {
	t.Helper()
	w, err := travelWorldOnce()
	require.NoError(t, err)
	return w
}

// travelSession runs stand-ins the way the engine does for one sandbox
// session: the frozen clock, seeds from canonical arguments, one state.
type travelSession struct {
	t     testing.TB
	w     *World
	now   time.Time
	state *State
}

func newTravelSession(t testing.TB) *travelSession {
	return &travelSession{t: t, w: travelWorld(t), now: clock.Default, state: NewState()}
}

// call runs one API and returns its response as plain JSON values.
func (s *travelSession) call(tool, api string, args map[string]any) (any, error) {
	s.t.Helper()
	h, ok := handlerFor(tool, api)
	require.True(s.t, ok, "no stand-in for %s.%s", tool, api)
	if args == nil {
		args = map[string]any{}
	}
	// The engine hands stand-ins decoded JSON: numbers are float64.
	args = travelPlain(s.t, args).(map[string]any)
	c := &Call{Args: args, Session: "travel-test", Now: s.now, Seed: Seed(tool, api, args), State: s.state}
	v, err := h(context.Background(), s.w, c)
	if err != nil {
		return nil, err
	}
	return travelPlain(s.t, v), nil
}

// ok runs one API that must succeed.
func (s *travelSession) ok(tool, api string, args map[string]any) any {
	s.t.Helper()
	v, err := s.call(tool, api, args)
	require.NoError(s.t, err, "%s.%s(%v)", tool, api, args)
	return v
}

// fails runs one API that must fail with an *sandbox.Rejection of status; it returns the error body.
func (s *travelSession) fails(status int, tool, api string, args map[string]any) any {
	s.t.Helper()
	_, err := s.call(tool, api, args)
	require.Error(s.t, err, "%s.%s(%v) should fail", tool, api, args)
	ae, ok := err.(*sandbox.Rejection)
	require.True(s.t, ok, "want *sandbox.Rejection, got %T: %v", err, err)
	require.Equal(s.t, status, ae.Status, "%v", ae)
	return travelPlain(s.t, ae.Body)
}

// travelPlain is v as canonical JSON decoded back into plain values.
func travelPlain(t testing.TB, v any) any {
	t.Helper()
	b, err := canon.JSON(v)
	require.NoError(t, err)
	var out any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// travelGet walks a dotted path with [n] indexes, e.g. "data.hotels[0].hotel_id".
func travelGet(t testing.TB, v any, path string) any {
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

// travelTools loads the travel slice's tool files through the real loader;
// callers get their own map over shared, read-only tools.
func travelTools(t testing.TB) map[string]*toolset.Tool {
	t.Helper()
	tools, err := travelToolsOnce()
	require.NoError(t, err)
	out := make(map[string]*toolset.Tool, len(tools))
	for k, v := range tools {
		out[k] = v
	}
	return out
}

var travelToolsOnce = sync.OnceValues(func() (map[string]*toolset.Tool, error) {
	out := map[string]*toolset.Tool{}
	for _, f := range travelToolFiles {
		b, err := fs.ReadFile(fixtures.FS, "toolset/"+f)
		if err != nil {
			return nil, err
		}
		tool, err := toolset.LoadToolBenchFile(b, filepath.Dir(f), f)
		if err != nil {
			return nil, err
		}
		out[tool.StandardizedName] = tool
	}
	return out, nil
})

var travelToolFiles = []string{
	"Travel/skyscanner80.json", "Travel/booking_com.json", "Travel/travel_advisor.json",
	"Travel/airport_info.json", "Finance/currency_exchange.json",
}

// raw runs one API without converting the response, for benchmarks; args
// must already be plain JSON values (numbers as float64).
func (s *travelSession) raw(tool, api string, args map[string]any) any {
	h, _ := handlerFor(tool, api)
	c := &Call{Args: args, Session: "travel-bench", Now: s.now, Seed: Seed(tool, api, args), State: s.state}
	v, err := h(context.Background(), s.w, c)
	if err != nil {
		s.t.Fatal(err)
	}
	return v
}
