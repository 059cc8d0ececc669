// Package golden compares test output with committed files under testdata/, and rewrites them when tests run with -update.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	if string(want) != string(got) {
		require.Fail(t, "output differs from "+path, "%s\nrerun with -update if the change is intended", firstDifference(string(want), string(got)))
	}
}

// firstDifference shows where two texts part, by line, with two lines of
// context: golden files are long, and the whole of both helps nobody.
func firstDifference(want, got string) string {
	w, g := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(i-2, 0)
	show := func(lines []string) string {
		end := min(i+3, len(lines))
		if from >= end {
			return "(end of text)\n"
		}
		return strings.Join(lines[from:end], "")
	}
	return fmt.Sprintf("first difference at line %d (%d vs %d lines)\n--- want\n%s+++ got\n%s", i+1, len(w), len(g), show(w), show(g))
}
