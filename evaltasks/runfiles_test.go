package evaltasks

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
)

// fileModes is the permission of every file in dir, by name.
func fileModes(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string]fs.FileMode{}
	for _, e := range entries {
		info, err := e.Info()
		require.NoError(t, err)
		out[e.Name()] = info.Mode().Perm()
	}
	return out
}

// TestRunFilesAreAsReadableAsTheirDirectory: a run directory's files are
// readable by whoever may read the directory (0644 in a 0755 one, as
// report.html always was), and owner-only in an owner-only directory,
// for the eight tasks and for the other suites' RunFiles alike.
func TestRunFilesAreAsReadableAsTheirDirectory(t *testing.T) {
	tests := []struct {
		name      string
		dir, want fs.FileMode
	}{
		{"a shared directory", 0o755, 0o644},
		{"a group directory", 0o750, 0o640},
		{"a private directory", 0o700, 0o600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			require.NoError(t, os.Mkdir(dir, tt.dir))
			require.NoError(t, os.Chmod(dir, tt.dir), "whatever the umask made of it")
			require.Equal(t, tt.want, RunFileMode(dir))

			runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.OutDir = dir; c.Tasks = []int{1, 2} })
			want := map[string]fs.FileMode{ManifestFile: tt.want, ResultsFile: tt.want, ReportFile: tt.want, MarkdownFile: tt.want}
			require.Equal(t, want, fileModes(t, dir))

			suite := filepath.Join(dir, "suite")
			require.NoError(t, os.Mkdir(suite, tt.dir))
			require.NoError(t, os.Chmod(suite, tt.dir))
			files, _, err := OpenRunFiles(suite, false, false, map[string]string{"suite": "test"})
			require.NoError(t, err)
			require.NoError(t, files.Append(map[string]string{"key": "a"}))
			require.NoError(t, files.WriteReports([]byte("{}\n"), []byte("# r\n")))
			require.NoError(t, files.Close())
			require.Equal(t, want, fileModes(t, suite))
		})
	}
}

// TestMakePrivateTightensAnExistingRun: a run resumed into a directory
// made private has every file rewritten or reopened owner-only.
func TestMakePrivateTightensAnExistingRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.Chmod(dir, 0o755))
	runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.OutDir = dir; c.Tasks = []int{1} })
	require.Equal(t, fs.FileMode(0o644), fileModes(t, dir)[ResultsFile])

	require.NoError(t, MakePrivate(dir))
	info, err := os.Stat(dir)
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o700), info.Mode().Perm())
	runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.OutDir = dir; c.Tasks = []int{1}; c.Resume = true })
	for name, mode := range fileModes(t, dir) {
		require.Equal(t, fs.FileMode(0o600), mode, name)
	}
	require.Equal(t, fs.FileMode(0o600), RunFileMode(filepath.Join(dir, "missing")), "a directory that is not there: owner-only")
}
