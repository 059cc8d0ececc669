// Package toolsettest holds what the tests of the catalog's packages share: seed files for fuzzing, a tool tree on disk, and the run of a loaded tool through every use.
package toolsettest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/openapi"
	"github.com/understudy/understudy/toolset/search"
)

// AddSeedFiles adds every file matching pattern to f's seed corpus.
func AddSeedFiles(f *testing.F, pattern string) {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// WriteTree writes files (slash paths → content) under a new temp dir.
func WriteTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return dir
}

// RequireViolations checks that err is a *toolset.ValidationError with
// exactly the given violations' locations and codes, in order.
func RequireViolations(t *testing.T, err error, want ...toolset.Violation) {
	t.Helper()
	var ve *toolset.ValidationError
	require.True(t, errors.As(err, &ve), "want a *ValidationError, got %v", err)
	require.Len(t, ve.Violations, len(want), "%v", ve.Violations)
	for i, w := range want {
		require.Equal(t, w.Location, ve.Violations[i].Location, "violation %d: %v", i, ve.Violations[i])
		require.Equal(t, w.Code, ve.Violations[i].Code, "violation %d: %v", i, ve.Violations[i])
		require.NotEmpty(t, ve.Violations[i].Message)
	}
}

// Exercise runs a loaded tool through the catalog, exporters, validation
// and search: a fuzzed tool that loads must survive every downstream use
// without panicking.
func Exercise(t *testing.T, tool *toolset.Tool) {
	c, err := toolset.NewCatalog([]*toolset.Tool{tool})
	if err != nil {
		t.Fatalf("a loaded tool must make a catalog: %v", err)
	}
	for _, a := range c.APIs() {
		_ = a.InputSchema()
		args := map[string]any{}
		for _, p := range a.Params {
			args[p.Name] = "1"
		}
		_, _ = a.Validate(args)
		_, _ = a.Validate(nil)
	}
	_ = toolset.OpenAITools(c, toolset.ExportOptions{})
	_ = toolset.OpenAITools(c, toolset.ExportOptions{Style: toolset.NameToolBench})
	_ = toolset.CatalogDocument(c)
	_ = openapi.Document(c)
	_ = search.Of(c).Search("a b", 3)
	_ = search.Suggest(c, tool.Name, "x", 3)
}
