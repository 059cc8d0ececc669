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

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/redisstate/redistest"
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

// TestExportNamesWhatItCannotRead: an entry of a later format in Redis is
// exported byte for byte and imported back unchanged; an entry that cannot
// be read is named, and fails the export unless -allow-skips. Before, the
// export printed {"entries":0,"skipped":1}, exited 0 and named neither.
func TestExportNamesWhatItCannotRead(t *testing.T) {
	rs := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: rs.Addr})
	defer rdb.Close()
	ctx := bounded.Context(t)
	const brokenHash = "cd00000000000000000000000000000000000000000000000000000000000002"
	for h, doc := range map[string]string{laterHash: laterEntry, brokenHash: `{"format":"understudy-recording/1","tool":`} {
		require.NoError(t, rdb.Set(ctx, "understudy:rec:"+h, doc, 0).Err())
		require.NoError(t, rdb.ZAdd(ctx, "understudy:recs", redis.Z{Member: h}).Err())
	}
	cli := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	dir := t.TempDir() + "/exported"
	code, out, errOut := cli("-redis", rs.URL(0), "-export-recordings", dir)
	require.Equal(t, 1, code, errOut)
	require.Contains(t, out, `"skipped":1`)
	require.Contains(t, errOut, "redis:understudy:rec:"+brokenHash+": truncated or not a JSON object")
	require.Contains(t, errOut, "cannot be read, not exported")
	require.Contains(t, errOut, "-allow-skips")
	require.Contains(t, errOut, laterHash+".json: of a later format than this version reads; exported byte for byte")

	code, _, errOut = cli("-redis", rs.URL(0), "-export-recordings", dir, "-allow-skips")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, brokenHash)
	b, err := os.ReadFile(filepath.Join(dir, "ab", laterHash+".json"))
	require.NoError(t, err)
	require.Equal(t, laterEntry, string(b))
	idx, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	require.NoError(t, err)
	require.Contains(t, string(idx), laterHash, "the later entry has its index line")

	code, out, errOut = cli("-redis", rs.URL(1), "-import-recordings", dir)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, laterHash+".json: of a later format than this version reads; imported byte for byte")
	require.Contains(t, out, `"later_format":["ab/`+laterHash+`.json"]`)
	rdb1 := redis.NewClient(&redis.Options{Addr: rs.Addr, DB: 1})
	defer rdb1.Close()
	doc, err := rdb1.Get(ctx, "understudy:rec:"+laterHash).Result()
	require.NoError(t, err)
	require.Equal(t, laterEntry, doc)
	members, err := rdb1.ZRange(ctx, "understudy:recs", 0, -1).Result()
	require.NoError(t, err)
	require.Equal(t, []string{laterHash}, members)
}
