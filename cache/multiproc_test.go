package cache

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// The test binary doubles as the second process: TestMain runs a child role
// when the environment asks for one.
const (
	childEnv = "UNDERSTUDY_CACHE_CHILD"
	dirEnv   = "UNDERSTUDY_CACHE_DIR"
	idEnv    = "UNDERSTUDY_CACHE_ID"
)

const (
	sharedKeys = 40
	ownKeys    = 40
)

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "writer":
		os.Exit(childWriter(os.Getenv(dirEnv), os.Getenv(idEnv)))
	case "crashloop":
		os.Exit(childCrashLoop(os.Getenv(dirEnv)))
	default:
		fmt.Fprintln(os.Stderr, "unknown child role")
		os.Exit(2)
	}
}

// writerResponse is what writer id records for a call; every writer's answer
// is a complete, distinct JSON document.
func writerResponse(id string, i int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"writer":%q,"i":%d,"pad":%q}`, id, i, strings.Repeat("x", 2000)))
}

func childWriter(dir, id string) int {
	s, err := Open(dir, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	for i := 0; i < sharedKeys; i++ {
		if err := s.Put(KeyOf("shared", "api", map[string]any{"i": i}), Entry{Response: writerResponse(id, i)}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := s.Put(KeyOf("own-"+id, "api", map[string]any{"i": i}), Entry{Response: writerResponse(id, i)}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func childCrashLoop(dir string) int {
	s, err := Open(dir, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	big := json.RawMessage(`"` + strings.Repeat("y", 512<<10) + `"`)
	for i := 0; ; i++ {
		if err := s.Put(KeyOf("crash", "api", map[string]any{"i": i}), Entry{Response: big}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(i)
	}
}

func child(t *testing.T, role, dir, id string) *exec.Cmd {
	t.Helper()
	// Killed when the test waits for it too long: no Wait hangs.
	cmd := exec.CommandContext(bounded.Context(t), os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+role, dirEnv+"="+dir, idEnv+"="+id)
	cmd.Stderr = os.Stderr
	return cmd
}

// verifyStore checks that every entry file is valid and every index line
// names a valid entry and vice versa.
func verifyStore(t *testing.T, dir string) map[string]Entry {
	t.Helper()
	entries := map[string]Entry{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		if d.IsDir() || filepath.Dir(p) == dir {
			return nil
		}
		name := d.Name()
		require.False(t, strings.HasPrefix(name, tempPrefix), "temporary file left: %s", p)
		hash := strings.TrimSuffix(name, ".json")
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		e, err := decodeEntry(name, data, hash, true)
		require.NoError(t, err, "entry %s", p)
		entries[hash] = e
		return nil
	}))
	f, err := os.Open(filepath.Join(dir, indexName))
	require.NoError(t, err)
	defer f.Close()
	recs, _, bad, err := ReadIndex(f)
	require.NoError(t, err)
	require.Zero(t, bad, "index lines that do not parse")
	require.Len(t, recs, len(entries), "one index record per entry")
	for _, r := range recs {
		e, ok := entries[r.Key]
		require.True(t, ok, "index names missing entry %s", r.Key)
		require.Equal(t, e.Tool, r.Tool)
		require.Equal(t, string(e.Arguments), string(r.Arguments))
	}
	return entries
}

func TestConcurrentWritersOneProcess(t *testing.T) {
	dir := t.TempDir()
	s, w := openTest(t, dir, Options{})
	var wg sync.WaitGroup
	errs := make(chan error, 8*sharedKeys)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			for i := 0; i < sharedKeys; i++ {
				errs <- s.Put(KeyOf("shared", "api", map[string]any{"i": i}), Entry{Response: writerResponse(id, i)})
			}
		}(strconv.Itoa(g))
	}
	bounded.Wait(t, &wg, "8 writers")
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Len(t, verifyStore(t, dir), sharedKeys)
	require.Empty(t, w.list())
}

func TestConcurrentWritersTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	a, b := child(t, "writer", dir, "a"), child(t, "writer", dir, "b")
	require.NoError(t, a.Start())
	require.NoError(t, b.Start())
	// This process writes too, through its own Store.
	require.Equal(t, 0, childWriter(dir, "c"))
	require.NoError(t, a.Wait())
	require.NoError(t, b.Wait())

	entries := verifyStore(t, dir)
	require.Len(t, entries, sharedKeys+3*ownKeys)
	for i := 0; i < sharedKeys; i++ {
		e := entries[KeyOf("shared", "api", map[string]any{"i": i}).Hash()]
		var got struct {
			Writer string
			I      int
		}
		require.NoError(t, json.Unmarshal(e.Response, &got))
		require.Contains(t, []string{"a", "b", "c"}, got.Writer)
		require.Equal(t, i, got.I)
	}
	s, w := openTest(t, dir, Options{})
	require.Equal(t, sharedKeys+3*ownKeys, s.Len())
	require.Empty(t, s.Report().Corrupt)
	for _, e := range w.list() {
		var rw *IndexRepairedWarning
		require.ErrorAs(t, e, &rw, "only index compaction may be reported")
	}
}

// TestKilledWriter kills a writer with SIGKILL in the middle of its loop;
// reopening loads every complete entry and removes its temporary files.
func TestKilledWriter(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	cmd := child(t, "crashloop", dir, "")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(out)
	written := 0
	for sc.Scan() {
		written++
		if written == 25 {
			break
		}
	}
	require.Equal(t, 25, written, "child stopped early")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()

	// Whether or not the kill landed inside a write, leave one torn
	// temporary file the way a crash between write and rename does.
	shard := KeyOf("crash", "api", map[string]any{"i": 0}).Hash()[:2]
	require.NoError(t, os.WriteFile(filepath.Join(dir, shard, tempPrefix+"torn-1"), []byte(`{"format":"understudy-rec`), 0o644))

	s, _ := openTest(t, dir, Options{})
	rep := s.Report()
	require.Empty(t, rep.Corrupt)
	require.GreaterOrEqual(t, rep.TempRemoved, 1)
	require.GreaterOrEqual(t, rep.Entries, written, "every acknowledged write survives")
	t.Logf("entries %d, temporary files removed %d", rep.Entries, rep.TempRemoved)
	for i := 0; i < written; i++ {
		_, ok, err := s.Get(KeyOf("crash", "api", map[string]any{"i": i}))
		require.NoError(t, err)
		require.True(t, ok, "entry %d", i)
	}
	require.NoError(t, s.Close())
	require.Len(t, verifyStore(t, dir), rep.Entries)
}
