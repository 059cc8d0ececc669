// Package golden compares test output with committed files under testdata/, and rewrites them when tests run with -update.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/atomicfile"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/ with the output of this run")

// Update reports whether the tests run with -update.
func Update() bool { return *update }

// Check requires got to equal the file at path (relative to the package,
// usually under testdata/). With -update it writes got there instead, making
// the folders it needs.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, atomicfile.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file %s is missing; run go test -run '%s' -update to create it", path, t.Name())
	require.Equal(t, string(want), string(got), "output differs from %s; rerun with -update if the change is intended", path)
}
