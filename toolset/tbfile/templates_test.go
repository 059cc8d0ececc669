package tbfile_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/tbfile"
)

// TestAddQueryTemplates reads the slice's query files: every api_list
// entry whose API the tree has gives that API the entry's template, the
// first entry winning, and entries naming what the tree lacks are counted.
func TestAddQueryTemplates(t *testing.T) {
	dir := tbgen.SliceDir()
	cat, err := loader.Load([]string{filepath.Join(dir, "tools")}, true)
	require.NoError(t, err)
	rep, err := tbfile.AddQueryTemplates(cat, filepath.Join(dir, "queries"))
	require.NoError(t, err)
	require.Equal(t, 6, rep.Files)

	want := map[*toolset.API]json.RawMessage{}
	entries, unresolved := 0, 0
	files, err := filepath.Glob(filepath.Join(dir, "queries", "*.json"))
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var qs []struct {
			APIList []struct {
				Category string          `json:"category_name"`
				Tool     string          `json:"tool_name"`
				API      string          `json:"api_name"`
				Template json.RawMessage `json:"template_response"`
			} `json:"api_list"`
		}
		require.NoError(t, json.Unmarshal(b, &qs))
		for _, q := range qs {
			for _, e := range q.APIList {
				entries++
				a := cat.ToolBenchAPI(e.Category, e.Tool, e.API)
				if a == nil {
					unresolved++
					continue
				}
				if _, ok := want[a]; !ok {
					want[a] = e.Template
				}
			}
		}
	}
	require.Equal(t, entries, rep.Entries, "every entry of the slice has a template")
	require.Equal(t, unresolved, rep.Unresolved)
	require.Positive(t, rep.Unresolved, "the slice names APIs its tree lacks")
	require.Equal(t, len(want), rep.Attached)
	for a, tmpl := range want {
		require.JSONEq(t, string(tmpl), string(a.TemplateResponse), a.ID())
	}
	for _, a := range cat.APIs() {
		if _, ok := want[a]; !ok {
			require.Empty(t, a.TemplateResponse, "%s is in no query", a.ID())
		}
	}

	// A second read attaches nothing new: the first template stays.
	again, err := tbfile.AddQueryTemplates(cat, filepath.Join(dir, "queries", "G1_instruction.json"))
	require.NoError(t, err)
	require.Zero(t, again.Attached)
}

func TestAddQueryTemplatesErrors(t *testing.T) {
	cat, err := loader.Load(nil, true)
	require.NoError(t, err)
	tmp := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(tmp, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	empty := filepath.Join(tmp, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	for name, path := range map[string]string{
		"missing":      filepath.Join(tmp, "nope.json"),
		"not an array": write("obj.json", `{"query": "x"}`),
		"bad record":   write("bad.json", `[{"api_list": 3}]`),
		"truncated":    write("cut.json", `[{"api_list": []}, {"api_`),
		"empty folder": empty,
	} {
		_, err := tbfile.AddQueryTemplates(cat, path)
		var qe *tbfile.QueryFileError
		require.True(t, errors.As(err, &qe), "%s: %v", name, err)
	}

	// A built-in API keeps its stand-in: no template is attached to it.
	p := write("builtin.json", `[{"api_list": [{"category_name": "Travel", "tool_name": "Skyscanner80", "api_name": "flights_search_one_way", "template_response": {"status": "bool"}}]}]`)
	rep, err := tbfile.AddQueryTemplates(cat, p)
	require.NoError(t, err)
	require.Equal(t, tbfile.QueryTemplates{Files: 1, Entries: 1}, rep)
}

// TestToolFileTemplate: a tool file's own template_response is kept, as
// an object or as a JSON string holding one; empty ones are dropped.
func TestToolFileTemplate(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`{"status": "str", "data": [{"id": "int"}]}`, `{"status": "str", "data": [{"id": "int"}]}`},
		{`"{\"n\": \"int\"}"`, `{"n": "int"}`},
		{`"str"`, `"str"`},
		{`{}`, ``},
		{`""`, ``},
		{`null`, ``},
		{`[ ]`, ``},
	} {
		doc := `{"tool_name": "T", "api_list": [{"name": "a", "url": "https://t.p.rapidapi.com/a", "method": "GET", "template_response": ` + tc.raw + `}]}`
		tool, err := tbfile.LoadFile([]byte(doc), "Data", "t.json")
		require.NoError(t, err)
		got := tool.APIs[0].TemplateResponse
		if tc.want == "" {
			require.Empty(t, got, tc.raw)
			continue
		}
		require.JSONEq(t, tc.want, string(got), tc.raw)
	}
}
