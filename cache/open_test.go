package cache

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// countingFS counts the entry files opened through it.
type countingFS struct {
	fs.FS
	entries *atomic.Int64
}

func (c countingFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".json") {
		c.entries.Add(1)
	}
	return c.FS.Open(name)
}

func (c countingFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

// fillStore records n entries with a response of about size bytes.
func fillStore(t testing.TB, dir string, n, size int) []Key {
	t.Helper()
	s, err := Open(dir, Options{})
	require.NoError(t, err)
	defer s.Close()
	resp, _ := json.Marshal(map[string]string{"text": strings.Repeat("x", size)})
	keys := make([]Key, n)
	for i := range n {
		keys[i] = KeyOf("tool", fmt.Sprintf("api%d", i%7), map[string]any{"i": i})
		require.NoError(t, s.Put(keys[i], Entry{Response: resp}))
	}
	return keys
}

// TestOpenReadsIndexOnly: a store whose index matches its entry files
// opens without reading an entry; the entries are checked in the
// background, and a corrupt one is never served meanwhile.
func TestOpenReadsIndexOnly(t *testing.T) {
	dir := t.TempDir()
	keys := fillStore(t, dir, 40, 100)
	// Corrupt one entry behind the index's back.
	require.NoError(t, os.WriteFile(filepath.Join(dir, entryPath(keys[3].Hash())), []byte(`{"format":"understudy-rec`), 0o600))

	var reads atomic.Int64
	orig := openDirFS
	openDirFS = func(d string) fs.FS { return countingFS{os.DirFS(d), &reads} }
	gate := make(chan struct{})
	testHookVerify = func() { <-gate }
	t.Cleanup(func() { openDirFS, testHookVerify = orig, func() {} })

	s, w := openTest(t, dir, Options{})
	require.Zero(t, reads.Load(), "Open read entries")
	e, ok, err := s.Get(keys[0])
	require.NoError(t, err)
	require.True(t, ok)
	require.JSONEq(t, `{"text":"`+strings.Repeat("x", 100)+`"}`, string(e.Response))
	_, ok, err = s.Get(keys[3])
	require.False(t, ok, "a corrupt entry is never served")
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	require.Empty(t, w.list(), "nothing checked in the background yet")

	close(gate)
	rep := s.Report()
	require.Equal(t, 39, rep.Entries)
	require.Len(t, rep.Corrupt, 1)
	var repaired *IndexRepairedWarning
	require.ErrorAs(t, w.list()[len(w.list())-1], &repaired)
	require.Equal(t, 39, repaired.Entries)
	require.GreaterOrEqual(t, reads.Load(), int64(40+2))

	// Reopened, the left-over corrupt file is reported again (the index no
	// longer names it, so every entry is checked first) and nothing is lost.
	require.NoError(t, s.Close())
	testHookVerify = func() {}
	s2, w2 := openTest(t, dir, Options{})
	require.Equal(t, 39, s2.Len())
	require.Equal(t, map[string]int{"tool": 39}, s2.Report().PerTool)
	require.Len(t, w2.list(), 1)
	require.ErrorAs(t, w2.list()[0], &ce)
}

// TestCloseStopsCheck: closing a store while its background check runs
// neither waits for every entry nor loses index lines.
func TestCloseStopsCheck(t *testing.T) {
	dir := t.TempDir()
	fillStore(t, dir, 30, 10)
	idx, err := os.ReadFile(filepath.Join(dir, indexName))
	require.NoError(t, err)
	gate := make(chan struct{})
	testHookVerify = func() { <-gate }
	t.Cleanup(func() { testHookVerify = func() {} })
	s, err := Open(dir, Options{})
	require.NoError(t, err)
	done := make(chan error)
	go func() { done <- s.Close() }()
	// Close has begun once it asks the check to stop.
	require.Eventually(t, s.stopping.Load, bounded.Timeout, time.Millisecond)
	close(gate)
	require.NoError(t, bounded.Recv(t, done, "Close"))
	after, err := os.ReadFile(filepath.Join(dir, indexName))
	require.NoError(t, err)
	require.Equal(t, string(idx), string(after))
}

// BenchmarkOpen measures opening a store of 5,000 entries (about 2 KB
// each): the time to serve, and to a full check of every entry.
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	fillStore(b, dir, 5000, 2000)
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			s, err := Open(dir, Options{})
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	})
	b.Run("open+report", func(b *testing.B) {
		for b.Loop() {
			s, err := Open(dir, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if s.Report().Entries != 5000 {
				b.Fatal("entries lost")
			}
			s.Close()
		}
	})
}
