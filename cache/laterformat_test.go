package cache

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const (
	laterHash  = "ab00000000000000000000000000000000000000000000000000000000000001"
	laterEntry = `{"format":"understudy-recording/2","key":"` + laterHash + `","tool":"t","api":"a","arguments":{},"response":{},"v2":true}` + "\n"
	laterLine  = `{"key":"` + laterHash + `","tool":"t","api":"a","arguments":{},"v":2}` + "\n"
)

// plantLater adds an entry of a later format, and its index line, to dir.
func plantLater(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ab"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ab", laterHash+".json"), []byte(laterEntry), 0o600))
	f, err := os.OpenFile(filepath.Join(dir, indexName), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
	require.NoError(t, err)
	_, err = f.WriteString(laterLine)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// TestLaterFormatIsLeftAlone: an entry of a later format is reported
// (naming its format), never served, and survives an index repair with
// its line as written; a read-only store writes nothing, not even to
// repair an index that misses a line, and lists its recorded calls from
// the entries.
func TestLaterFormatIsLeftAlone(t *testing.T) {
	dir := t.TempDir()
	s, _ := openTest(t, dir, Options{})
	k := weatherKey()
	require.NoError(t, s.Put(k, Entry{Response: json.RawMessage(`{"temp_c":18}`)}))
	require.NoError(t, s.Close())
	plantLater(t, dir)
	// A crash between an entry and its line: the index misses one.
	k2 := KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Rome"})
	s, _ = openTest(t, dir, Options{})
	require.NoError(t, s.Put(k2, Entry{Response: json.RawMessage(`{"temp_c":25}`)}))
	require.NoError(t, s.Close())
	idx, err := os.ReadFile(filepath.Join(dir, indexName))
	require.NoError(t, err)
	torn := strings.Replace(string(idx), string(indexLine(IndexRecord{Key: k2.hash, Tool: k2.tool, API: k2.api, Arguments: json.RawMessage(k2.args)})), "", 1)
	require.NotEqual(t, string(idx), torn)
	require.NoError(t, os.WriteFile(filepath.Join(dir, indexName), []byte(torn), 0o600))

	t.Run("read-only: nothing written, index in memory", func(t *testing.T) {
		ro, w := openTest(t, dir, Options{ReadOnly: true})
		rep := ro.Report()
		require.Equal(t, 2, rep.Entries)
		require.Len(t, rep.Corrupt, 1)
		require.Equal(t, "understudy-recording/2", rep.Corrupt[0].Format)
		require.NotEmpty(t, w.list())
		recs, err := ro.Recorded("weatherapi_com", "forecast_weather_api")
		require.NoError(t, err)
		require.Len(t, recs, 2, "the call whose line is missing is listed too")
		after, err := os.ReadFile(filepath.Join(dir, indexName))
		require.NoError(t, err)
		require.Equal(t, torn, string(after))
	})

	t.Run("writable: the repair keeps the later line", func(t *testing.T) {
		rw, w := openTest(t, dir, Options{})
		require.Equal(t, 2, rw.Report().Entries)
		var repaired *IndexRepairedWarning
		for _, err := range w.list() {
			if errorsAs(err, &repaired) {
				break
			}
		}
		require.NotNil(t, repaired, "%v", w.list())
		after, err := os.ReadFile(filepath.Join(dir, indexName))
		require.NoError(t, err)
		require.Contains(t, string(after), laterLine)
		require.Equal(t, 3, strings.Count(string(after), "\n"), "%s", after)
		b, err := os.ReadFile(filepath.Join(dir, "ab", laterHash+".json"))
		require.NoError(t, err)
		require.Equal(t, laterEntry, string(b))
		_, ok, err := rw.Get(Key{hash: laterHash, tool: "t", api: "a", args: "{}"})
		require.False(t, ok)
		require.Error(t, err)
	})
}
