package atomicfile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/atomicfile"
)

func TestWriteFileReplacesAndLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.json")
	for _, content := range []string{"first", "second, longer than the first", ""} {
		require.NoError(t, atomicfile.WriteFile(p, []byte(content), 0o640))
		got, err := os.ReadFile(p)
		require.NoError(t, err)
		require.Equal(t, content, string(got))
	}
	fi, err := os.Stat(p)
	require.NoError(t, err)
	if runtime.GOOS != "windows" {
		require.Equal(t, fs.FileMode(0o640), fi.Mode().Perm())
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "only the target is left")
}

func TestWriteFileFailureKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	// The target is a non-empty folder: the rename fails after the temporary
	// file was written, which must then be removed.
	p := filepath.Join(dir, "taken")
	require.NoError(t, os.MkdirAll(filepath.Join(p, "child"), 0o755))
	err := atomicfile.WriteFile(p, []byte("x"), 0o644)
	var ae *atomicfile.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, "rename", ae.Op)
	require.Equal(t, p, ae.Path)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		require.False(t, strings.HasPrefix(e.Name(), atomicfile.TempPrefix), "temporary file left: %s", e.Name())
	}

	err = atomicfile.WriteFile(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644)
	require.ErrorAs(t, err, &ae)
	require.Equal(t, "create", ae.Op)
	require.True(t, errors.Is(err, fs.ErrNotExist))
}

func TestSyncDir(t *testing.T) {
	require.NoError(t, atomicfile.SyncDir(t.TempDir()))
	require.ErrorIs(t, atomicfile.SyncDir(filepath.Join(t.TempDir(), "missing")), fs.ErrNotExist)
}
