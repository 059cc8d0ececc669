package cache

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/golden"
)

// warnings collects what a store reports through Options.Warn.
type warnings struct {
	mu   sync.Mutex
	errs []error
}

func (w *warnings) add(err error) { w.mu.Lock(); w.errs = append(w.errs, err); w.mu.Unlock() }

func (w *warnings) list() []error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]error(nil), w.errs...)
}

func openTest(t *testing.T, dir string, opts Options) (*Store, *warnings) {
	t.Helper()
	w := &warnings{}
	opts.Warn = w.add
	s, err := Open(dir, opts)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, w
}

func weatherKey() Key {
	return KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "days": 3})
}

func TestStorePutGet(t *testing.T) {
	dir := t.TempDir()
	s, w := openTest(t, dir, Options{})
	k := weatherKey()

	_, ok, err := s.Get(k)
	require.NoError(t, err)
	require.False(t, ok)

	require.NoError(t, s.Put(k, Entry{Response: json.RawMessage(`{ "temp_c" : 18.5, "note": "<b>&</b>" }`), Source: "remote"}))
	e, ok, err := s.Get(k)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `{"temp_c":18.5,"note":"<b>&</b>"}`, string(e.Response))
	require.Equal(t, 200, e.Status)
	require.Equal(t, "weatherapi_com", e.Tool)
	require.Equal(t, `{"days":3,"q":"Paris"}`, string(e.Arguments))
	require.Equal(t, "2025-06-02T09:00:00Z", e.RecordedAt.Format("2006-01-02T15:04:05Z07:00"))
	require.False(t, e.Edited)
	require.Empty(t, w.list())

	// The entry file is byte-for-byte the golden one: deterministic output.
	got, err := os.ReadFile(filepath.Join(dir, entryPath(k.Hash())))
	require.NoError(t, err)
	golden.Check(t, filepath.Join("testdata", "entry.golden.json"), got)

	// Replacing keeps one entry and the index names it.
	require.NoError(t, s.Put(k, Entry{Response: json.RawMessage(`[1]`), Status: 201}))
	e, _, _ = s.Get(k)
	require.Equal(t, "[1]", string(e.Response))
	require.Equal(t, 201, e.Status)
	idx, err := os.ReadFile(filepath.Join(dir, indexName))
	require.NoError(t, err)
	require.Contains(t, string(idx), `"key":"`+k.Hash()+`","tool":"weatherapi_com","api":"forecast_weather_api","arguments":{"days":3,"q":"Paris"}`)

	// Reopening finds the entry and keeps the index as it is.
	require.NoError(t, s.Close())
	s2, w2 := openTest(t, dir, Options{})
	require.Equal(t, 1, s2.Len())
	require.Equal(t, map[string]int{"weatherapi_com": 1}, s2.Report().PerTool)
	require.Empty(t, w2.list())
}

func TestStorePutRejects(t *testing.T) {
	s, _ := openTest(t, t.TempDir(), Options{})
	k := weatherKey()
	require.Error(t, s.Put(k, Entry{Response: json.RawMessage(`{"a":`)}))
	require.Error(t, s.Put(k, Entry{}))
	hashOnly, err := KeyFromHash(k.Hash())
	require.NoError(t, err)
	var ie *InvalidKeyError
	require.ErrorAs(t, s.Put(hashOnly, Entry{Response: json.RawMessage(`1`)}), &ie)
	require.ErrorAs(t, s.Put(Key{}, Entry{Response: json.RawMessage(`1`)}), &ie)
	_, _, err = s.Get(Key{hash: "../../etc/passwd"})
	require.ErrorAs(t, err, &ie)
}

// TestStorePathTraversal: request text never becomes a path.
func TestStorePathTraversal(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "store")
	s, _ := openTest(t, dir, Options{})
	names := []string{"../../etc/passwd", "../outside", "/abs/path", `..\..\win`, "a/../../b", "\x00nul"}
	for _, n := range names {
		k := KeyOf(n, n, map[string]any{n: n})
		require.NoError(t, s.Put(k, Entry{Response: json.RawMessage(`"x"`)}))
		e, ok, err := s.Get(k)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, n, e.Tool)
	}
	// Nothing was created beside the store directory.
	top, err := os.ReadDir(root)
	require.NoError(t, err)
	require.Len(t, top, 1)
	// Inside, only shard folders, the index and lock files exist.
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		switch {
		case d.IsDir():
			require.True(t, isShardName(rel), rel)
		case rel == indexName || rel == openLockName || rel == indexLockName:
		default:
			hash := strings.TrimSuffix(filepath.Base(rel), ".json")
			require.True(t, validHash(hash), rel)
			require.Equal(t, entryPath(hash), filepath.ToSlash(rel))
		}
		return nil
	}))
}

func TestStoreCorruptEntries(t *testing.T) {
	dir := t.TempDir()
	s, _ := openTest(t, dir, Options{})
	good, trunc, garbage, empty, noResp := KeyOf("t", "good", nil), KeyOf("t", "trunc", nil), KeyOf("t", "garbage", nil), KeyOf("t", "empty", nil), KeyOf("t", "noresp", nil)
	for _, k := range []Key{good, trunc, garbage, empty, noResp} {
		require.NoError(t, s.Put(k, Entry{Response: json.RawMessage(`{"data":[1,2,3]}`)}))
	}
	require.NoError(t, s.Close())

	full, err := os.ReadFile(filepath.Join(dir, entryPath(trunc.Hash())))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, entryPath(trunc.Hash())), full[:len(full)/2], 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, entryPath(garbage.Hash())), []byte("\x00\xff garbage"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, entryPath(empty.Hash())), nil, 0o644))
	noRespDoc := strings.Replace(string(full), `"response"`, `"respons"`, 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, entryPath(noResp.Hash())), []byte(noRespDoc), 0o644))

	s2, w := openTest(t, dir, Options{})
	rep := s2.Report()
	require.Equal(t, 1, rep.Entries)
	require.Len(t, rep.Corrupt, 4)
	var repaired *IndexRepairedWarning
	var corrupt *CorruptError
	found := 0
	for _, e := range w.list() {
		if errorsAs(e, &corrupt) {
			found++
		}
		errorsAs(e, &repaired)
	}
	require.Equal(t, 4, found)
	require.NotNil(t, repaired, "index lines for corrupt entries are dropped")

	e, ok, err := s2.Get(good)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, `{"data":[1,2,3]}`, string(e.Response))
	for _, k := range []Key{trunc, garbage, empty, noResp} {
		_, ok, err := s2.Get(k)
		require.False(t, ok)
		require.ErrorAs(t, err, &corrupt)
	}
	// Recording again over a corrupt entry repairs it.
	require.NoError(t, s2.Put(trunc, Entry{Response: json.RawMessage(`2`)}))
	e, ok, err = s2.Get(trunc)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "2", string(e.Response))
}

func TestStoreHandEdit(t *testing.T) {
	dir := t.TempDir()
	s, _ := openTest(t, dir, Options{})
	k := weatherKey()
	require.NoError(t, s.Put(k, Entry{Response: json.RawMessage(`{"temp_c":18.5}`)}))
	p := filepath.Join(dir, entryPath(k.Hash()))
	orig, err := os.ReadFile(p)
	require.NoError(t, err)

	// Re-indenting is not an edit.
	var doc map[string]any
	require.NoError(t, json.Unmarshal(orig, &doc))
	flat, err := json.Marshal(doc)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, flat, 0o644))
	e, ok, err := s.Get(k)
	require.NoError(t, err)
	require.True(t, ok)
	require.False(t, e.Edited)

	// Changing the response is a hand edit: used, flagged, warned on scan.
	edited := strings.Replace(string(orig), "18.5", "21", 1)
	require.NoError(t, os.WriteFile(p, []byte(edited), 0o644))
	e, ok, err = s.Get(k)
	require.NoError(t, err)
	require.True(t, ok)
	require.True(t, e.Edited)
	require.Equal(t, `{"temp_c":21}`, string(e.Response))
	rep := s.Scan()
	require.Equal(t, []string{entryPath(k.Hash())}, rep.Edited)

	// Strict stores refuse it.
	strict, _ := openTest(t, dir, Options{Strict: true, ReadOnly: true})
	_, ok, err = strict.Get(k)
	require.False(t, ok)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	require.Contains(t, ce.Reason, "checksum")

	// Editing the arguments moves the entry to another key: the error says where.
	moved := strings.Replace(string(orig), `"Paris"`, `"Lyon"`, 1)
	require.NoError(t, os.WriteFile(p, []byte(moved), 0o644))
	_, ok, err = s.Get(k)
	require.False(t, ok)
	require.ErrorAs(t, err, &ce)
	lyon := KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Lyon", "days": 3})
	require.Contains(t, ce.Reason, entryPath(lyon.Hash()))
}

func TestStoreIndexRepair(t *testing.T) {
	dir := t.TempDir()
	s, _ := openTest(t, dir, Options{})
	keys := []Key{KeyOf("t", "a", nil), KeyOf("t", "b", nil), KeyOf("u", "c", map[string]any{"x": 1})}
	for _, k := range keys {
		require.NoError(t, s.Put(k, Entry{Response: json.RawMessage(`true`)}))
	}
	require.NoError(t, s.Close())
	idxPath := filepath.Join(dir, indexName)

	for name, mangle := range map[string]func([]byte) []byte{
		"half-written last line": func(b []byte) []byte { return b[:len(b)-20] },
		"missing":                func([]byte) []byte { return nil },
		"line for a lost entry": func(b []byte) []byte {
			return append(b, []byte(`{"key":"`+strings.Repeat("ab", 32)+`","tool":"x","api":"y","arguments":{}}`+"\n")...)
		},
	} {
		t.Run(name, func(t *testing.T) {
			orig, err := os.ReadFile(idxPath)
			require.NoError(t, err)
			if m := mangle(orig); m == nil {
				require.NoError(t, os.Remove(idxPath))
			} else {
				require.NoError(t, os.WriteFile(idxPath, m, 0o644))
			}
			s, w := openTest(t, dir, Options{})
			require.Equal(t, 3, s.Len())
			var rw *IndexRepairedWarning
			require.Len(t, w.list(), 1)
			require.ErrorAs(t, w.list()[0], &rw)
			require.NoError(t, s.Close())
			f, err := os.Open(idxPath)
			require.NoError(t, err)
			defer f.Close()
			recs, lines, bad, err := ReadIndex(f)
			require.NoError(t, err)
			require.Equal(t, 3, lines)
			require.Zero(t, bad)
			require.Len(t, recs, 3)
		})
	}
}

func TestStoreReadOnly(t *testing.T) {
	dir := t.TempDir()
	s, _ := openTest(t, dir, Options{})
	k := weatherKey()
	require.NoError(t, s.Put(k, Entry{Response: json.RawMessage(`{"ok":1}`)}))
	require.NoError(t, s.Close())

	check := func(t *testing.T, s *Store) {
		t.Helper()
		e, ok, err := s.Get(k)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, `{"ok":1}`, string(e.Response))
		err = s.Put(KeyOf("t", "new", nil), Entry{Response: json.RawMessage(`1`)})
		var we *WriteError
		require.ErrorAs(t, err, &we)
		require.ErrorIs(t, err, ErrReadOnly)
		require.True(t, s.ReadOnly())
	}
	t.Run("option", func(t *testing.T) {
		s, _ := openTest(t, dir, Options{ReadOnly: true})
		check(t, s)
	})
	t.Run("fs.FS", func(t *testing.T) {
		s, err := OpenFS(os.DirFS(dir), Options{})
		require.NoError(t, err)
		require.Equal(t, 1, s.Len())
		check(t, s)
	})
	t.Run("chmod", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("permissions do not bind root; the lock-path case below covers it")
		}
		ro := t.TempDir()
		copyTree(t, dir, ro)
		require.NoError(t, os.Remove(filepath.Join(ro, openLockName)))
		require.NoError(t, os.Chmod(ro, 0o555))
		t.Cleanup(func() { os.Chmod(ro, 0o755) })
		s, _ := openTest(t, ro, Options{})
		check(t, s)
	})
	t.Run("unwritable by construction", func(t *testing.T) {
		// A directory where the lock file must go cannot be opened for
		// writing, as root too.
		ro := t.TempDir()
		copyTree(t, dir, ro)
		require.NoError(t, os.Remove(filepath.Join(ro, openLockName)))
		require.NoError(t, os.Mkdir(filepath.Join(ro, openLockName), 0o755))
		s, w := openTest(t, ro, Options{})
		require.NotEmpty(t, w.list())
		check(t, s)
	})
}

// TestStorePutFails: a write that fails mid-way (a file where the shard
// folder must be) is a WriteError, leaves no temporary file, and the store
// keeps serving other entries.
func TestStorePutFails(t *testing.T) {
	dir := t.TempDir()
	s, _ := openTest(t, dir, Options{})
	good := weatherKey()
	require.NoError(t, s.Put(good, Entry{Response: json.RawMessage(`1`)}))
	var k Key
	for i := 0; ; i++ {
		k = KeyOf("t", "a", map[string]any{"i": i})
		if k.Hash()[:2] != good.Hash()[:2] {
			break
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, k.Hash()[:2]), []byte("in the way"), 0o644))
	err := s.Put(k, Entry{Response: json.RawMessage(`2`)})
	var we *WriteError
	require.ErrorAs(t, err, &we)
	require.Equal(t, "mkdir", we.Op)
	require.Contains(t, err.Error(), k.Hash())
	_, ok, err := s.Get(good)
	require.NoError(t, err)
	require.True(t, ok)
}

func TestStoreOpenErrors(t *testing.T) {
	_, err := Open("", Options{})
	require.Error(t, err)
	f := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(f, nil, 0o644))
	_, err = Open(f, Options{})
	require.Error(t, err)
	_, err = Open(filepath.Join(f, "sub"), Options{})
	require.Error(t, err)
	_, err = OpenFS(nil, Options{})
	require.Error(t, err)
}

func TestLayered(t *testing.T) {
	userDir := t.TempDir()
	user, _ := openTest(t, userDir, Options{})
	both, onlyBuiltin, corruptUser, none := KeyOf("t", "both", nil), KeyOf("t", "builtin", nil), KeyOf("t", "corrupt", nil), KeyOf("t", "none", nil)

	builtinDir := t.TempDir()
	b, _ := openTest(t, builtinDir, Options{})
	for _, k := range []Key{both, onlyBuiltin, corruptUser} {
		require.NoError(t, b.Put(k, Entry{Response: json.RawMessage(`"builtin"`)}))
	}
	// The built-in layer is an fs.FS, as the embedded recordings are.
	mfs := fstest.MapFS{}
	copyToMapFS(t, builtinDir, mfs)
	builtin, err := OpenFS(mfs, Options{})
	require.NoError(t, err)
	require.Equal(t, 3, builtin.Len())

	require.NoError(t, user.Put(both, Entry{Response: json.RawMessage(`"user"`)}))
	require.NoError(t, user.Put(corruptUser, Entry{Response: json.RawMessage(`"user"`)}))
	require.NoError(t, os.WriteFile(filepath.Join(userDir, entryPath(corruptUser.Hash())), []byte(`{"format":`), 0o644))

	l := Layered{user, builtin}
	for _, tt := range []struct {
		key  Key
		want string
	}{{both, `"user"`}, {onlyBuiltin, `"builtin"`}, {corruptUser, `"builtin"`}, {none, ""}} {
		e, ok, err := l.Get(tt.key)
		require.NoError(t, err)
		require.Equal(t, tt.want != "", ok)
		require.Equal(t, tt.want, string(e.Response))
	}
	_, ok, err := Layered{user}.Get(corruptUser)
	require.False(t, ok)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, os.CopyFS(to, os.DirFS(from)))
}

func copyToMapFS(t *testing.T, dir string, m fstest.MapFS) {
	t.Helper()
	require.NoError(t, fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(dir, p))
		require.NoError(t, err)
		m[p] = &fstest.MapFile{Data: data}
		return nil
	}))
}
