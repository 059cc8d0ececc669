package tbgen

import (
	"path/filepath"
	"runtime"
)

// SliceOptions generate the universe committed under
// testdata/universe: 180 tool files in all 49 categories, every tool
// defect kind at least twice, ten-odd queries per group, written compact
// to keep the repository small.
func SliceOptions() Options {
	return Options{Seed: 1, Tools: 180, Queries: []int{12, 10, 10, 8, 8, 6}, MinPerKind: 2, Compact: true}
}

// SliceDir is the absolute path of the committed slice (SliceOptions):
// tools under SliceDir()/tools, queries under SliceDir()/queries.
func SliceDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("tbgen: cannot locate the package's source")
	}
	return filepath.Join(filepath.Dir(file), "testdata", "universe")
}

// TB is the part of testing.TB WriteTB uses (tbgen keeps the testing
// package out of non-test builds).
type TB interface {
	Helper()
	TempDir() string
	Fatalf(format string, args ...any)
}

// WriteTB writes a universe into a temporary folder of the test or
// benchmark and returns the folder and manifest; it fails the test on
// error. WriteTB(b, tbgen.Options{}) is StableToolBench's full size.
func WriteTB(tb TB, opts Options) (string, *Manifest) {
	tb.Helper()
	dir := tb.TempDir()
	m, err := Write(dir, opts)
	if err != nil {
		tb.Fatalf("tbgen: %v", err)
	}
	return dir, m
}
