package mocks

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
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

// basicTools are the tool files of the basic slice, by standardized name.
var basicTools = map[string]string{
	"web_search":         "Search/web_search.json",
	"python_interpreter": "Tools/python_interpreter.json",
	"calculator":         "Tools/calculator.json",
	"agent_clock":        "Tools/agent_clock.json",
	"world_time":         "Tools/world_time.json",
	"google_translate":   "Translation/google_translate.json",
	"ip_geolocation":     "Data/ip_geolocation.json",
	"iso_codes":          "Data/iso_codes.json",
	"geocoding":          "Data/geocoding.json",
	"user_info":          "Other/user_info.json",
}

var basicToolCache sync.Map // name → *toolset.Tool

func basicTool(t testing.TB, name string) *toolset.Tool {
	t.Helper()
	if v, ok := basicToolCache.Load(name); ok {
		return v.(*toolset.Tool)
	}
	path := "toolset/" + basicTools[name]
	data, err := fs.ReadFile(fixtures.FS, path)
	require.NoError(t, err)
	tool, err := toolset.LoadToolBenchFile(data, filepath.Base(filepath.Dir(path)), path)
	require.NoError(t, err)
	basicToolCache.Store(name, tool)
	return tool
}

func basicWorldT(t testing.TB) *World {
	t.Helper()
	w, err := DefaultWorld()
	require.NoError(t, err)
	return w
}

// basicBench measures one stand-in call with its documented defaults,
// the call prepared once, as the engine would hand it over.
func basicBench(b *testing.B, tool, api string) {
	a := basicTool(b, tool).API(api)
	args := map[string]any{}
	for _, p := range a.Params {
		if p.Default != nil {
			args[p.Name] = p.Default
		}
	}
	h, _ := handlerFor(tool, api)
	w := basicWorldT(b)
	c := &Call{API: a, Args: args, Session: "bench", Now: clock.Default, Seed: Seed(tool, api, args), State: NewState()}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := h(ctx, w, c); err != nil {
			b.Fatal(err)
		}
	}
}

// basicCall runs a stand-in the way the engine does: documented defaults
// applied, seed from the canonical arguments, the frozen clock.
func basicCall(t testing.TB, tool, api string, args map[string]any) (any, error) {
	t.Helper()
	return basicCallAt(t, clock.Default, tool, api, args)
}

func basicCallAt(t testing.TB, now time.Time, tool, api string, args map[string]any) (any, error) {
	t.Helper()
	a := basicTool(t, tool).API(api)
	require.NotNil(t, a, "%s has no API %s", tool, api)
	full := map[string]any{}
	for _, p := range a.Params {
		if p.Default != nil {
			full[p.Name] = p.Default
		}
	}
	// Arguments reach stand-ins as decoded JSON (numbers are float64).
	raw, err := json.Marshal(args)
	require.NoError(t, err)
	args = nil
	require.NoError(t, json.Unmarshal(raw, &args))
	for k, v := range args {
		if v == nil {
			delete(full, k)
			continue
		}
		full[k] = v
	}
	h, ok := handlerFor(tool, api)
	require.True(t, ok, "no stand-in for %s.%s", tool, api)
	c := &Call{API: a, Args: full, Session: "test", Now: now, Seed: Seed(tool, api, full), State: NewState()}
	return h(context.Background(), basicWorldT(t), c)
}

// basicOK calls and returns the response as plain JSON values.
func basicOK(t testing.TB, tool, api string, args map[string]any) map[string]any {
	t.Helper()
	v, err := basicCall(t, tool, api, args)
	require.NoError(t, err)
	b, err := canon.JSON(v)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// basicErr asserts an *sandbox.Rejection with the status and returns its body as JSON values.
func basicErr(t testing.TB, tool, api string, args map[string]any, status int) map[string]any {
	t.Helper()
	_, err := basicCall(t, tool, api, args)
	ae, ok := err.(*sandbox.Rejection)
	require.True(t, ok, "want *sandbox.Rejection, got %T %v", err, err)
	require.Equal(t, status, ae.Status)
	b, err := canon.JSON(ae.Body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// basicBytes is the canonical JSON of a call's response or error.
func basicBytes(t testing.TB, tool, api string, args map[string]any) string {
	t.Helper()
	v, err := basicCall(t, tool, api, args)
	if err != nil {
		ae, ok := err.(*sandbox.Rejection)
		require.True(t, ok, "%v", err)
		v = map[string]any{"status": ae.Status, "error": ae.Body}
	}
	b, err := canon.JSON(v)
	require.NoError(t, err)
	return string(b)
}

type basicCase struct {
	name, api string
	args      map[string]any
}

// basicGolden pins responses of one tool byte for byte in testdata/basic_<tool>.json.
func basicGolden(t *testing.T, tool string, cases []basicCase) {
	t.Helper()
	out := map[string]json.RawMessage{}
	for _, c := range cases {
		out[c.name] = json.RawMessage(basicBytes(t, tool, c.api, c.args))
	}
	goldenJSON(t, "basic_"+tool+".json", out)
}

// TestBasicDumpExamples writes every API's response to its documented
// defaults to $BASIC_DUMP; the tool files' example responses come from it.
func TestBasicDumpExamples(t *testing.T) {
	path := os.Getenv("BASIC_DUMP")
	if path == "" {
		t.Skip("set BASIC_DUMP to a file to dump example responses")
	}
	out := map[string]any{}
	for name := range basicTools {
		for _, a := range basicTool(t, name).APIs {
			v, err := basicCall(t, name, a.Name, nil)
			require.NoError(t, err, "%s.%s", name, a.Name)
			out[name+"."+a.Name] = v
		}
	}
	b, err := canon.JSON(out)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}
