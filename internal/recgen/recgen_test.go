package recgen

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// shipped is the folder the binaries embed.
const shipped = "../../fixtures/recordings"

// files reads every file below dir except README.md, by slash path.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "README.md" {
			return err
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	}))
	return out
}

// TestShippedRecordingsAreRegenerated regenerates the recordings and
// requires the committed bytes: the stand-ins on the frozen clock give the
// same answers on every run, so a difference means the stand-ins or the
// documentation changed without re-recording (go test -run Shipped -update).
func TestShippedRecordingsAreRegenerated(t *testing.T) {
	if golden.Update() {
		_, err := Generate(shipped)
		require.NoError(t, err)
	}
	dir := t.TempDir()
	n, err := Generate(dir)
	require.NoError(t, err)
	got, want := files(t, dir), files(t, shipped)
	require.Len(t, got, n+1, "one file per entry plus index.jsonl")
	require.Equal(t, slices.Sorted(mapsKeys(want)), slices.Sorted(mapsKeys(got)), "rerun with -update to re-record")
	for name, b := range got {
		require.Equal(t, want[name], b, "%s differs from the shipped file; rerun with -update to re-record", name)
	}

	// Generating over an existing folder replaces its recordings and
	// keeps its other files.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("kept"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ff"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ff", "stale.json"), []byte("{}"), 0o644))
	_, err = Generate(dir)
	require.NoError(t, err)
	require.Equal(t, got, files(t, dir))
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	require.NoError(t, err)
	require.Equal(t, "kept", string(b))
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestShippedEntriesAreMarkedAndComplete reads the shipped store as replay
// mode does: every built-in API has its documented example, every entry
// says it came from the stand-ins.
func TestShippedEntriesAreMarkedAndComplete(t *testing.T) {
	s, err := cache.OpenFS(os.DirFS(shipped), cache.Options{Strict: true})
	require.NoError(t, err)
	defer s.Close()
	rep := s.Report()
	require.Empty(t, rep.Corrupt)
	require.Empty(t, rep.Edited)
	cat, err := loader.Builtin()
	require.NoError(t, err)
	apis := map[string]bool{}
	require.NoError(t, s.Walk(func(k cache.Key, e cache.Entry) error {
		require.Equal(t, Source, e.Source, k.String())
		apis[e.Tool+"."+e.API] = true
		return nil
	}))
	for _, a := range cat.APIs() {
		require.True(t, apis[a.Tool.StandardizedName+"."+a.Name], "no recording of %s", a.ID())
	}
	require.Equal(t, len(cat.APIs())+len(ReadmeCalls), rep.Entries)
}

// TestExamplesComeAfterTheirProducers checks the order the chain is
// recorded in: an API whose parameter depends on another comes after it.
func TestExamplesComeAfterTheirProducers(t *testing.T) {
	cat, err := loader.Builtin()
	require.NoError(t, err)
	calls, err := Examples(cat)
	require.NoError(t, err)
	pos := map[string]int{}
	for i, c := range calls[len(ReadmeCalls):] {
		pos[c.Tool+"."+c.API] = i
	}
	require.Len(t, pos, len(cat.APIs()))
	edges := 0
	for _, a := range cat.APIs() {
		for _, p := range a.Params {
			for _, d := range p.Depends {
				tool := d.Tool
				if tool == "" {
					tool = a.Tool.StandardizedName
				}
				if tool+"."+d.API == a.Tool.StandardizedName+"."+a.Name {
					continue
				}
				edges++
				require.Less(t, pos[tool+"."+d.API], pos[a.Tool.StandardizedName+"."+a.Name], "%s before %s", d.API, a.ID())
			}
		}
	}
	require.Positive(t, edges)
}

// TestMintedReplacesOnlyUnmintedIDs covers the substitution that makes a
// dependent example use an ID an earlier example returned.
func TestMintedReplacesOnlyUnmintedIDs(t *testing.T) {
	src := &toolset.API{Name: "search"}
	use := &toolset.API{Name: "detail", Params: []*toolset.Param{
		{Name: "fromId", Opaque: true, Depends: []toolset.Dependency{{API: "search", Path: "data[].id"}}},
		{Name: "toId", Opaque: true, Depends: []toolset.Dependency{{API: "search", Path: "data[].id"}}},
		{Name: "plain", Depends: []toolset.Dependency{{API: "search", Path: "data[].id"}}},
	}}
	tool := &toolset.Tool{Name: "t", StandardizedName: "t", Category: "Test", APIs: []*toolset.API{src, use}}
	cat, err := toolset.NewCatalog([]*toolset.Tool{tool})
	require.NoError(t, err)
	answers := map[*toolset.API][]any{src: {map[string]any{"data": []any{map[string]any{"id": "A"}, map[string]any{"id": "B"}}}}}
	for _, tc := range []struct {
		name    string
		args    map[string]any
		answers map[*toolset.API][]any
		want    map[string]any
	}{
		{"minted IDs are kept", map[string]any{"fromId": "B", "toId": "A"}, answers, map[string]any{"fromId": "B", "toId": "A"}},
		{"unminted IDs take distinct minted ones", map[string]any{"fromId": "doc1", "toId": "doc2"}, answers, map[string]any{"fromId": "A", "toId": "B"}},
		{"a minted ID is not taken twice", map[string]any{"fromId": "A", "toId": "doc2"}, answers, map[string]any{"fromId": "A", "toId": "B"}},
		{"non-opaque values are kept", map[string]any{"plain": "doc"}, answers, map[string]any{"plain": "doc"}},
		{"without a producer answer the example stays", map[string]any{"fromId": "doc1"}, nil, map[string]any{"fromId": "doc1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Minted(cat, use, tc.args, tc.answers))
		})
	}
}

// TestShippedChainReplays runs the examples in replay mode, one session
// with dependencies enforced, as a client following the chain would:
// every call, dependent ones included, is answered from the embedded
// recordings with the IDs the earlier answers hold.
func TestShippedChainReplays(t *testing.T) {
	st, err := assemble.Build(assemble.Config{Mode: sandbox.ModeReplay})
	require.NoError(t, err)
	defer st.Close()
	calls, err := Examples(st.Catalog)
	require.NoError(t, err)
	answers := map[*toolset.API][]any{}
	for _, c := range calls {
		api := st.Catalog.API(c.Tool, c.API)
		res, err := st.Engine.CallAPI(t.Context(), api, Minted(st.Catalog, api, c.Arguments, answers), "client")
		require.NoError(t, err, "%s.%s", c.Tool, c.API)
		require.Equal(t, sandbox.SourceCache, res.Source, "%s.%s: %s", c.Tool, c.API, res.Response)
		require.Empty(t, res.Violations)
		var doc any
		require.NoError(t, json.Unmarshal(res.Response, &doc))
		answers[api] = append(answers[api], doc)
	}
}
