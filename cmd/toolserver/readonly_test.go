package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// laterEntry is an entry a later version of the format wrote, and its
// index line, with fields this version does not know.
const (
	laterHash  = "ab00000000000000000000000000000000000000000000000000000000000001"
	laterEntry = `{
  "format": "understudy-recording/2",
  "key": "` + laterHash + `",
  "tool": "calculator",
  "api": "calculate",
  "arguments": {"expression": "6*7"},
  "status": 200,
  "response": {"result": 42},
  "encoding": "zstd+future"
}
`
	laterLine = `{"key":"` + laterHash + `","tool":"calculator","api":"calculate","arguments":{"expression":"6*7"},"v":2}` + "\n"
)

// folderWithALaterEntry is a recordings folder made in record mode (so
// that it has its lock files and index) with two recordings, plus an entry
// of a later format and its index line.
func folderWithALaterEntry(t *testing.T) string {
	t.Helper()
	up := toolbenchUpstream(t, func(w http.ResponseWriter, expression string) {
		writeEnvelope(w, http.StatusOK, "", map[string]any{"result": expression})
	})
	dir := t.TempDir()
	s := start(t, []string{"-mode", "record", "-cache", dir, "-upstream", up.URL, "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY", "-upstream-rate", "1000"}, flags{})
	for _, e := range []string{"1+1", "2+2"} {
		require.Equal(t, http.StatusOK, post(t, s, "/v1/call", calc(e)).status)
	}
	require.Zero(t, s.stop())
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ab"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ab", laterHash+".json"), []byte(laterEntry), 0o600))
	f, err := os.OpenFile(filepath.Join(dir, "index.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(laterLine)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	return dir
}

// folderHash hashes every file's path, mode and bytes under dir, and
// every folder's path.
func folderHash(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		require.NoError(t, err)
		sum := ""
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			h := sha256.Sum256(b)
			sum = hex.EncodeToString(h[:])
		}
		lines = append(lines, fmt.Sprintf("%s %v %s", rel, info.Mode(), sum))
		return nil
	}))
	sort.Strings(lines)
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(h[:])
}

// TestReadOnlyRolesLeaveTheFolderAlone: replay mode and -verify-recordings
// leave a folder holding an entry of a later format byte-identical (replay
// once rewrote its index, dropping the later entry's line); record mode
// adds its recordings and keeps the later entry and its index line.
func TestReadOnlyRolesLeaveTheFolderAlone(t *testing.T) {
	dir := folderWithALaterEntry(t)
	before := folderHash(t, dir)

	s := start(t, []string{"-mode", "replay", "-cache", dir}, flags{})
	require.Equal(t, http.StatusOK, post(t, s, "/v1/call", calc("1+1")).status)
	miss := post(t, s, "/v1/call", calc("3+3")) // a miss lists the nearest recorded calls
	require.Equal(t, http.StatusNotFound, miss.status, miss.body)
	require.Contains(t, miss.body, "1+1")
	require.NotContains(t, miss.body, "6*7", "an entry this version cannot read is never offered")
	require.Zero(t, s.stop())
	require.Contains(t, s.stderr.String(), "understudy-recording/2")
	require.Contains(t, s.stderr.String(), "is not one this version reads")
	require.Equal(t, before, folderHash(t, dir), "replay changed the folder")

	var stdout, stderr bytes.Buffer
	require.Equal(t, 1, run([]string{"-verify-recordings", dir}, &stdout, &stderr))
	require.Contains(t, stderr.String(), laterHash+".json")
	require.Equal(t, before, folderHash(t, dir), "-verify-recordings changed the folder")

	up := toolbenchUpstream(t, func(w http.ResponseWriter, expression string) {
		writeEnvelope(w, http.StatusOK, "", map[string]any{"result": expression})
	})
	s = start(t, []string{"-mode", "record", "-cache", dir, "-upstream", up.URL, "-key-env", "UNDERSTUDY_TEST_NO_SUCH_KEY", "-upstream-rate", "1000"}, flags{})
	require.Equal(t, http.StatusOK, post(t, s, "/v1/call", calc("3+3")).status)
	require.Zero(t, s.stop())
	b, err := os.ReadFile(filepath.Join(dir, "ab", laterHash+".json"))
	require.NoError(t, err)
	require.Equal(t, laterEntry, string(b), "record mode kept the later entry as it was")
	idx, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	require.NoError(t, err)
	require.Contains(t, string(idx), laterLine)
	require.Equal(t, 4, bytes.Count(idx, []byte("\n")), "%s", idx)
}
