package mocks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
)

// goldenJSON compares the canonical JSON of v, plus a newline, with
// testdata/name, or rewrites it under -update.
func goldenJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := canon.JSON(v)
	require.NoError(t, err)
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, append(b, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file missing; run with -update")
	require.Equal(t, string(want), string(b)+"\n")
}
