package mocks

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/basic"
	"github.com/understudy/understudy/mocks/daily"
	"github.com/understudy/understudy/mocks/image"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/travel"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset/loader"
)

// TestDailyThroughMocker calls every API with its documented defaults the
// way the engine does, through the Mocker and the embedded world.
func TestDailyThroughMocker(t *testing.T) {
	m, err := New(Options{})
	require.NoError(t, err)
	for _, name := range []string{"weatherapi_com", "open_weather", "real_time_news_data", "public_holiday", "calendar_tools", "tasty"} {
		tool := standintest.Tool(t, name)
		for _, a := range tool.APIs {
			require.True(t, m.HasStandIn(a), a.ID())
			args := map[string]any{}
			for _, p := range a.Params {
				if p.Default != nil {
					args[p.Name] = p.Default
				}
			}
			body, err := m.Call(context.Background(), a, args, "s1")
			require.NoError(t, err, a.ID())
			require.True(t, json.Valid(body), a.ID())
			again, err := m.Call(context.Background(), a, args, "s2")
			require.NoError(t, err)
			require.Equal(t, string(body), string(again), a.ID())
		}
	}
}

// TestTravelThroughMocker runs the flight chain through the Mocker, the
// way the engine dispatches: APIs from the tool files, one sandbox session.
func TestTravelThroughMocker(t *testing.T) {
	m, err := New(Options{World: standintest.World(t)})
	require.NoError(t, err)
	sky := standintest.Tool(t, "skyscanner80")
	call := func(api, session string, args map[string]any) (any, error) {
		raw, err := m.Call(t.Context(), sky.API(api), args, session)
		if err != nil {
			return nil, err
		}
		var v any
		require.NoError(t, json.Unmarshal(raw, &v))
		return v, nil
	}
	ac, err := call("flights_auto_complete", "s1", map[string]any{"query": "Lisbon"})
	require.NoError(t, err)
	lis := standintest.Get(t, ac, "data[0].id")
	ac, err = call("flights_auto_complete", "s1", map[string]any{"query": "Madrid"})
	require.NoError(t, err)
	mad := standintest.Get(t, ac, "data[0].id")
	first, err := call("flights_search_one_way", "s1", map[string]any{"fromId": lis, "toId": mad, "departDate": "2025-06-10"})
	require.NoError(t, err)
	sid := standintest.Get(t, first, "data.context.sessionId")
	_, err = call("flights_search_incomplete", "s2", map[string]any{"sessionId": sid})
	var ae *sandbox.Rejection
	require.ErrorAs(t, err, &ae, "another session does not know the search")
	require.Equal(t, 400, ae.Status)
	next, err := call("flights_search_incomplete", "s1", map[string]any{"sessionId": sid})
	require.NoError(t, err)
	require.Contains(t, []any{"incomplete", "complete"}, standintest.Get(t, next, "data.context.status"))
}

// TestScenarioPackagesRegisterTheirTools checks that every API of the
// built-in toolset has a stand-in, registered by the package of the tool's
// scenario and by no other.
func TestScenarioPackagesRegisterTheirTools(t *testing.T) {
	scenarios := map[string]func(*standin.Registry){
		"basic": basic.Register, "daily_life": daily.Register,
		"image_processing": image.Register, "travel": travel.Register,
	}
	regs := map[string]*standin.Registry{}
	for name, register := range scenarios {
		regs[name] = standin.NewRegistry()
		register(regs[name])
	}
	all := Builtin()
	cat, err := loader.Builtin()
	require.NoError(t, err)
	apis := 0
	for _, tool := range cat.Tools() {
		require.Contains(t, scenarios, tool.Scenario, tool.StandardizedName)
		for _, a := range tool.APIs {
			apis++
			_, ok := all.Lookup(tool.StandardizedName, a.Name)
			require.True(t, ok, "no stand-in for %s", a.ID())
			for name, reg := range regs {
				_, ok := reg.Lookup(tool.StandardizedName, a.Name)
				require.Equal(t, name == tool.Scenario, ok, "%s registered by the %s package", a.ID(), name)
			}
		}
	}
	require.Len(t, all.Keys(), apis, "every registered stand-in is of a built-in API")
}
