package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy/understudy/toolset/tbfile"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// TestQueriesShapeVirtualAnswers: `toolserver -catalog <tools> -queries
// <queries>` answers StableToolBench's /virtual for an API documented only
// by a query file's template_response in the template's shape; without
// -queries the same call answers another shape.
func TestQueriesShapeVirtualAnswers(t *testing.T) {
	dir := tbgen.SliceDir()
	tools, queries := filepath.Join(dir, "tools"), filepath.Join(dir, "queries")
	cat, err := loader.Load([]string{tools}, false)
	require.NoError(t, err)
	_, err = tbfile.AddQueryTemplates(cat, queries)
	require.NoError(t, err)
	// An API only its template documents, with plain required parameters.
	var api *toolset.API
	args := map[string]any{}
	for _, a := range cat.APIs() {
		if len(a.TemplateResponse) == 0 || a.Response() != nil {
			continue
		}
		if _, bad := cache.LooksLikeUpstreamError(a.ExampleResponse); len(a.ExampleResponse) > 0 && !bad {
			continue
		}
		plain := true
		for _, p := range a.Params {
			plain = plain && (!p.Required || len(p.Enum) == 0 && (p.Kind == toolset.KindString || p.Kind == toolset.KindNumber))
		}
		if plain {
			api = a
			break
		}
	}
	require.NotNil(t, api, "the slice has an API its template alone documents")
	for _, p := range api.Params {
		if p.Required {
			args[p.Name] = "48213"
		}
	}
	var raw any
	require.NoError(t, json.Unmarshal(api.TemplateResponse, &raw))
	tmpl := topObject(raw)
	require.NotEmpty(t, tmpl)
	input, err := json.Marshal(args)
	require.NoError(t, err)
	virtual := func(s *started) map[string]any {
		body, err := json.Marshal(map[string]any{"category": api.Tool.Category, "tool_name": api.Tool.Name, "api_name": api.Name,
			"tool_input": string(input), "strip": "", "toolbench_key": ""})
		require.NoError(t, err)
		resp, err := http.Post("http://"+s.addr+"/virtual", "application/json", bytes.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		var out struct {
			Error    string `json:"error"`
			Response any    `json:"response"`
		}
		require.NoError(t, json.Unmarshal(b, &out), string(b))
		require.Empty(t, out.Error, string(b))
		return topObject(out.Response)
	}

	with := start(t, []string{"-no-builtin", "-catalog", tools, "-queries", queries}, flags{})
	got := virtual(with)
	for k := range tmpl {
		require.Contains(t, got, k, "%s answers its template's shape: %v", api.ID(), got)
	}
	require.Contains(t, with.stderr.String(), "-queries: ")
	require.Equal(t, 0, with.stop())

	without := start(t, []string{"-no-builtin", "-catalog", tools}, flags{})
	other := virtual(without)
	same := true
	for k := range tmpl {
		_, ok := other[k]
		same = same && ok
	}
	require.False(t, same && len(other) == len(tmpl), "without the query files the shape is inferred: %v", other)

	var stderr bytes.Buffer
	require.Equal(t, 2, run([]string{"-no-builtin", "-catalog", tools, "-queries", filepath.Join(dir, "nope"), "-deps", "json"}, io.Discard, &stderr))
	require.True(t, strings.Contains(stderr.String(), "-queries"), stderr.String())
}

// topObject is an answer's object, or its first element's when it is a list.
func topObject(v any) map[string]any {
	if l, ok := v.([]any); ok && len(l) > 0 {
		v = l[0]
	}
	m, _ := v.(map[string]any)
	return m
}
