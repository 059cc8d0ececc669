package cache

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecodeEntry(t *testing.T) {
	k := weatherKey()
	e, err := prepare(k, Entry{Response: json.RawMessage(`{"a":[1,2]}`), Source: "remote"}, nil)
	require.NoError(t, err)
	good, err := encodeEntry(k, &e)
	require.NoError(t, err)
	got, err := decodeEntry("x", good, k.Hash(), true)
	require.NoError(t, err)
	require.Equal(t, e, got)

	tests := []struct{ name, doc, reason string }{
		{"empty", ``, "empty file"},
		{"not json", `nope`, "not a JSON object"},
		{"array", `[]`, "not a JSON object"},
		{"truncated", string(good[:len(good)-3]), "truncated"},
		{"no format", `{"tool":"t","api":"a","response":1}`, "format"},
		{"no tool", `{"format":"understudy-recording/1","api":"a","response":1}`, "tool"},
		{"no response", `{"format":"understudy-recording/1","tool":"t","api":"a"}`, "response"},
		{"bad status", `{"format":"understudy-recording/1","tool":"t","api":"a","status":-1,"response":1}`, "status"},
		{"arguments not object", `{"format":"understudy-recording/1","tool":"t","api":"a","arguments":[1],"response":1}`, "arguments"},
		{"bad time", `{"format":"understudy-recording/1","tool":"t","api":"a","recorded_at":"yesterday","response":1}`, "recorded_at"},
		{"wrong key", `{"format":"understudy-recording/1","tool":"t","api":"a","response":1}`, "belong to key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeEntry("x", []byte(tt.doc), k.Hash(), false)
			var ce *CorruptError
			require.ErrorAs(t, err, &ce)
			require.Contains(t, ce.Reason, tt.reason)
		})
	}

	// A hand-written entry without checksum is accepted as edited.
	hand := `{"format":"understudy-recording/1","tool":"t","api":"a","arguments":{},"response":"hi"}`
	got, err = decodeEntry("x", []byte(hand), KeyOf("t", "a", nil).Hash(), false)
	require.NoError(t, err)
	require.True(t, got.Edited)
	require.Equal(t, 200, got.Status)
}

// FuzzDecodeEntry: arbitrary bytes never panic, every failure is a
// *CorruptError, and every accepted entry re-encodes to one that decodes to
// the same values.
func FuzzDecodeEntry(f *testing.F) {
	k := weatherKey()
	e, _ := prepare(k, Entry{Response: json.RawMessage(`{"a":[1,2,"<&>"]}`), Source: "remote"}, nil)
	good, _ := encodeEntry(k, &e)
	f.Add(good, true)
	f.Add(good[:len(good)/2], false)
	f.Add([]byte(`{"format":"understudy-recording/1","tool":"t","api":"a","arguments":{"x":1.0},"response":null}`), false)
	f.Add([]byte(`{"format":"understudy-recording/1","tool":"t","api":"a","arguments":null,"status":0,"response":[],"recorded_at":"2025-06-02T09:00:00.5+02:00"}`), false)
	f.Fuzz(func(t *testing.T, data []byte, checkKey bool) {
		want := ""
		if checkKey {
			want = k.Hash()
		}
		got, err := decodeEntry("x", data, want, false)
		if err != nil {
			var ce *CorruptError
			if !errorsAs(err, &ce) {
				t.Fatalf("error is not a *CorruptError: %T %v", err, err)
			}
			return
		}
		key := makeKey(got.Tool, got.API, string(got.Arguments))
		if checkKey && key.Hash() != k.Hash() {
			t.Fatalf("accepted an entry of key %s under %s", key.Hash(), k.Hash())
		}
		re, err := encodeEntry(key, &got)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		again, err := decodeEntry("x", re, key.Hash(), true)
		if err != nil {
			t.Fatalf("re-encoded entry does not decode strictly: %v\n%s", err, re)
		}
		if string(again.Response) != string(got.Response) || string(again.Arguments) != string(got.Arguments) || again.Status != got.Status || !again.RecordedAt.Equal(got.RecordedAt) {
			t.Fatalf("round trip changed the entry:\n%+v\n%+v", got, again)
		}
	})
}
