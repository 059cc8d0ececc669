package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/tbgen"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	require.NoError(t, run([]string{"-out", dir, "-tools", "300", "-seed", "7"}, &out, &errOut))
	m, err := tbgen.ReadManifest(dir)
	require.NoError(t, err)
	require.Equal(t, 300, m.Files)
	require.Contains(t, out.String(), "files        300:")
	require.Contains(t, out.String(), "duplicate-param")
	entries, err := os.ReadDir(filepath.Join(dir, "tools"))
	require.NoError(t, err)
	require.Len(t, entries, tbgen.RealCategories)

	require.Error(t, run(nil, &out, &errOut), "-out is required")
	require.Error(t, run([]string{"-out", dir, "-tools", "10"}, &out, &errOut), "10 tool files are too few")
}
