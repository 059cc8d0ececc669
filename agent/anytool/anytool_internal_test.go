package anytool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

func builtin(t *testing.T) *toolset.Catalog {
	t.Helper()
	c, err := loader.Load(nil, true)
	require.NoError(t, err)
	return c
}

// Every prompt and function list the agents are given, golden.
func TestPromptsGolden(t *testing.T) {
	c := builtin(t)
	h := newHierarchy(c)
	var b strings.Builder
	section := func(name, text string) { b.WriteString("=== " + name + "\n" + text + "\n\n") }
	section("meta", metaPrompt(h.categories))
	section("category", categoryPrompt(h.categories[0]))
	cat := c.Categories[0]
	section("tool", toolPrompt(cat.Name, []string{cat.Tools[0].Name}))
	section("reactivate tool", reactivateTool("the solver gave up: weather_for_x failed"))
	section("reactivate category", reactivateCategory("the solver gave up"))
	section("reactivate meta", reactivateMeta("the solver gave up"))
	section("solvable", solvablePrompt)
	section("solver note", solverNote)
	s := &search{t: &AnyTool{Catalog: c}, query: "What is the weather in Paris?", inPool: map[*toolset.API]bool{}}
	s.pool = []*toolset.API{cat.Tools[0].APIs[0]}
	for _, m := range s.solvableMessages() {
		section("solvable "+m.Role, m.Content)
	}
	for _, level := range []string{levelMeta, levelCategory, levelTool} {
		js, err := json.MarshalIndent(functionsOf(level), "", "  ")
		require.NoError(t, err)
		section("functions "+level, string(js))
	}
	golden.Check(t, "testdata/prompts.golden", []byte(b.String()))
}

// The functions refuse what an agent may not do, with a reason it can act on.
func TestFunctionErrors(t *testing.T) {
	c := builtin(t)
	at := &AnyTool{Catalog: c}
	at.init()
	cat := c.Categories[0]
	tool := cat.Tools[0]
	other := c.Categories[1].Tools[0]
	for _, tc := range []struct {
		name, level, fn, args, want string
	}{
		{"unknown category", levelMeta, FnToolsInCategory, `{"category":"Nowhere"}`, `no category \"Nowhere\"`},
		{"create unknown category", levelMeta, FnCreateCategory, `{"category":"Nowhere"}`, `no category`},
		{"not the level's function", levelMeta, FnAddAPIs, `{"apis":["x"]}`, `no function \"add_API_into_API_pool\" here`},
		{"bad JSON", levelMeta, FnToolsInCategory, `[1]`, `the arguments are not the function's JSON object`},
		{"tool of another category", levelCategory, FnCreateTool, `{"tools":[` + jsonString(other.Name) + `]}`, `in the category`},
		{"too many tools", levelCategory, FnCreateTool, `{"tools":["a","b","c","d","e","f"]}`, `between 1 and 5 tools`},
		{"not its tool", levelTool, FnAPIsInTool, `{"tool":` + jsonString(other.Name) + `}`, `is not one of your tools`},
		{"unknown API", levelTool, FnAPIDetail, `{"tool":` + jsonString(tool.Name) + `,"apis":["nope"]}`, `has no API \"nope\"`},
		{"add unknown API", levelTool, FnAddAPIs, `{"apis":["nope"]}`, `no API \"nope\" in your tools`},
		{"add nothing", levelTool, FnAddAPIs, `{"apis":[]}`, `name at least one API`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &search{t: at, query: "q", inPool: map[*toolset.API]bool{}, removed: map[*toolset.API]bool{}, stats: &Stats{Functions: map[string]int{}}, round: &Round{}}
			a := s.newAgent(tc.level, cat.Name, []*toolset.Tool{tool})
			obs := s.call(context.Background(), a, agent.ToolCall{ID: "1", Name: tc.fn, Arguments: json.RawMessage(tc.args)}, func(*searchAgent) { t.Fatal("no agent may be created") })
			require.Contains(t, obs, tc.want)
			require.Empty(t, s.pool)
		})
	}
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

// The pool keeps order, refuses removed APIs and stops at its bound.
func TestPoolBounds(t *testing.T) {
	c := builtin(t)
	at := &AnyTool{Catalog: c, MaxPool: 1}
	at.init()
	tool := c.Categories[0].Tools[0]
	require.GreaterOrEqual(t, len(tool.APIs), 1)
	s := &search{t: at, query: "q", inPool: map[*toolset.API]bool{}, removed: map[*toolset.API]bool{}, stats: &Stats{Functions: map[string]int{}}, round: &Round{}}
	a := s.newAgent(levelTool, tool.Category, []*toolset.Tool{tool})
	names := []string{}
	for _, x := range tool.APIs {
		names = append(names, x.Name)
	}
	out, err := s.add(a, names)
	require.NoError(t, err)
	require.Len(t, s.pool, 1)
	if len(names) > 1 {
		require.Contains(t, out.(map[string]any)["refused"], names[1]+" (the pool is full)")
	}
	s.dropNamed("this did not work: " + at.export[s.pool[0].ID()].Function.Name)
	require.Empty(t, s.pool)
	out, err = s.add(a, names[:1])
	require.NoError(t, err)
	require.Empty(t, s.pool)
	require.Contains(t, out.(map[string]any)["refused"].([]string)[0], "removed")
}

func TestParseVerdict(t *testing.T) {
	for in, want := range map[string]bool{"True": true, "true.": true, "**True** it is": true, "Yes": true, "False": false, "": false, "maybe": false, "Not true": false} {
		require.Equal(t, want, parseVerdict(in), in)
	}
}

func FuzzParseVerdict(f *testing.F) {
	f.Add("True. because")
	f.Add("false")
	f.Fuzz(func(t *testing.T, s string) {
		if parseVerdict(s) {
			require.True(t, strings.HasPrefix(strings.TrimLeft(strings.ToLower(strings.TrimSpace(s)), ".,:;!*\"'`"), "t") ||
				strings.HasPrefix(strings.TrimLeft(strings.ToLower(strings.TrimSpace(s)), ".,:;!*\"'`"), "y"))
		}
	})
}

// A date line opens every agent's and the solvable check's system prompt.
func TestDateLineOpensEveryAgent(t *testing.T) {
	const line = "Today is Monday 7 December 2026, 09:00 in Lisbon."
	c := builtin(t)
	for _, dated := range []string{"", line} {
		at := &AnyTool{Catalog: c, DateLine: dated}
		at.init()
		s := &search{t: at, query: "What is the weather in Paris?", inPool: map[*toolset.API]bool{}, stats: &Stats{Functions: map[string]int{}}}
		s.pool = []*toolset.API{c.Categories[0].Tools[0].APIs[0]}
		cat := c.Categories[0]
		systems := []string{s.solvableMessages()[0].Content}
		for _, a := range []*searchAgent{s.newAgent(levelMeta, "", nil), s.newAgent(levelCategory, cat.Name, nil), s.newAgent(levelTool, cat.Name, cat.Tools[:1])} {
			require.Equal(t, agent.RoleSystem, a.msgs[0].Role)
			systems = append(systems, a.msgs[0].Content)
		}
		for i, sys := range systems {
			if dated == "" {
				require.NotContains(t, sys, "Today is", "prompt %d", i)
			} else {
				require.True(t, strings.HasPrefix(sys, line+"\n\n"), "prompt %d: %q", i, sys)
			}
		}
	}
}
