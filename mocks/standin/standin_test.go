package standin

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset"
)

func TestArgs(t *testing.T) {
	c := &Call{Args: map[string]any{
		"s": "  Lisbon ", "n": 3.0, "ns": " 2.5 ", "big": 1e12, "nan": math.NaN(),
		"b": true, "bs": "false", "bn": 0.0, "list": []any{"a"}, "nil": nil,
		"huge": json.Number("9007199254740993"),
	}}
	for _, tc := range []struct {
		name  string
		str   string
		f     float64
		fOK   bool
		i     int
		b     bool
		given bool
	}{
		{"s", "Lisbon", 0, false, -1, true, true},
		{"n", "3", 3, true, 3, true, true},
		{"ns", "2.5", 2.5, true, 2, true, true},
		{"big", "1000000000000", 1e12, true, -1, true, true},
		{"nan", "NaN", 0, false, -1, true, true},
		{"b", "true", 0, false, -1, true, true},
		{"bs", "false", 0, false, -1, false, true},
		{"bn", "0", 0, true, 0, false, true},
		{"list", "[a]", 0, false, -1, true, true},
		{"nil", "", 0, false, -1, true, true},
		{"absent", "", 0, false, -1, true, false},
		// An integer above 2^53 keeps its digits as text; as a number it is
		// the nearest float64, too large for an int.
		{"huge", "9007199254740993", 9007199254740992, true, -1, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.str, c.ArgString(tc.name))
			f, ok := c.ArgFloat(tc.name)
			require.Equal(t, tc.fOK, ok)
			if ok {
				require.Equal(t, tc.f, f)
			}
			require.Equal(t, tc.i, c.ArgInt(tc.name, -1))
			require.Equal(t, tc.b, c.ArgBool(tc.name, true))
			require.Equal(t, tc.given, c.Has(tc.name))
		})
	}
}

func TestSeed(t *testing.T) {
	a := Seed("tool", "api", map[string]any{"x": 1.0, "y": "z"})
	require.Equal(t, a, Seed("tool", "api", map[string]any{"y": "z", "x": 1.0}), "argument order does not matter")
	require.NotEqual(t, a, Seed("tool", "api", map[string]any{"x": 2.0, "y": "z"}))
	require.NotEqual(t, a, Seed("tool", "api2", map[string]any{"x": 1.0, "y": "z"}))
	require.NotEqual(t, Seed("ab", "c", nil), Seed("a", "bc", nil), "tool and API are separated")
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	h := func(context.Context, *world.World, *Call) (any, error) { return "ok", nil }
	r.Add("b_tool", "get", h)
	r.Add("a_tool", "list", h)
	got, ok := r.Lookup("b_tool", "get")
	require.True(t, ok)
	v, err := got(context.Background(), nil, &Call{})
	require.NoError(t, err)
	require.Equal(t, "ok", v)
	_, ok = r.Lookup("b_tool", "list")
	require.False(t, ok)
	require.Equal(t, []string{"a_tool.list", "b_tool.get"}, r.Keys())
	require.Panics(t, func() { r.Add("a_tool", "list", h) }, "registering twice is a programming error")
}

func TestState(t *testing.T) {
	s := NewState()
	_, ok := s.Get("k", "1")
	require.False(t, ok)
	s.Put("k", "1", "a")
	v, ok := s.Get("k", "1")
	require.True(t, ok)
	require.Equal(t, "a", v)
	n := s.Update("count", "x", func(old any, ok bool) any {
		i, _ := old.(int)
		return i + 1
	})
	require.Equal(t, 1, n)
	_, ok = s.Get("k\x00", "1")
	require.False(t, ok)
}

func TestToolName(t *testing.T) {
	require.Equal(t, "", ToolName(&toolset.API{Name: "x"}))
	require.Equal(t, "std", ToolName(&toolset.API{Tool: &toolset.Tool{Name: "Std", StandardizedName: "std"}}))
	require.Equal(t, toolset.Standardize("My Tool"), ToolName(&toolset.API{Tool: &toolset.Tool{Name: "My Tool"}}))
}
