package server

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzMCPIDs: every id is either one the SDK keeps exactly (a string, or
// an integer that survives its float64 decoding as written) or one whose
// stand-in comes back as the id written, and restoring a line changes
// nothing else.
func FuzzMCPIDs(f *testing.F) {
	for _, s := range []string{`1`, `-7`, `1e308`, `9007199254740993`, `1.5`, `-0`, `"a"`, `"understudy-id:1"`, `"\u0041"`, `00`, `1E2`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		id := json.RawMessage(raw)
		if _, ok := idKey(id); !ok || !json.Valid(id) {
			return
		}
		alias, changed := sdkID(id)
		if !changed {
			require.True(t, sdkKeeps(id))
			if id[0] != '"' {
				var f float64
				require.NoError(t, json.Unmarshal(id, &f))
				require.Equal(t, raw, strconv.FormatInt(int64(f), 10), "the SDK's float64 and int64 keep it")
			}
			return
		}
		var compact bytes.Buffer
		require.NoError(t, json.Compact(&compact, id))
		back, ok := writtenID(alias)
		require.True(t, ok, "%s", alias)
		require.Equal(t, compact.String(), string(back))
		line := []byte(`data: {"jsonrpc":"2.0","id":` + string(alias) + `,"result":{"x":"<&>"}}` + "\n")
		restored := restoreLine(line)
		var msg map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(bytes.TrimPrefix(restored, []byte("data: ")), &msg))
		require.Equal(t, compact.String(), string(msg["id"]))
		require.JSONEq(t, `{"x":"<&>"}`, string(msg["result"]))
	})
}
