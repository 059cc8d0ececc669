package golden_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/golden"
)

// recorder is a testing.TB that records failures instead of ending the test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) FailNow()              { r.failed = true; panic(r) }
func (r *recorder) Helper()               {}

func check(t *testing.T, path string, got []byte) (failed bool) {
	r := &recorder{TB: t}
	defer func() {
		if v := recover(); v != nil && v != r {
			panic(v)
		}
		failed = r.failed
	}()
	golden.Check(r, path, got)
	return r.failed
}

func TestCheck(t *testing.T) {
	if golden.Update() {
		t.Skip("-update rewrites files; this test checks comparison")
	}
	p := filepath.Join(t.TempDir(), "out.golden")
	require.True(t, check(t, p, []byte("x")), "a missing golden file fails")
	require.NoError(t, os.WriteFile(p, []byte("same\n"), 0o644))
	require.False(t, check(t, p, []byte("same\n")))
	require.True(t, check(t, p, []byte("same")), "a missing newline is a difference")
	require.True(t, check(t, p, []byte("other\n")))
}
