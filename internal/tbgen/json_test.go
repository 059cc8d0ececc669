package tbgen

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestEncodeLikePython pins the layout of json.dump(v, indent=4,
// ensure_ascii=False) and of json.dumps(v), which wrote ToolBench's files.
func TestEncodeLikePython(t *testing.T) {
	v := Obj{{"name", "Café \"x\"\n"}, {"n", 3}, {"f", 2.0}, {"g", 0.25}, {"ok", true}, {"none", nil}, {"skip", absent{}},
		{"list", []any{}}, {"obj", Obj{}}, {"nested", []any{Obj{{"a", []any{1, "b"}}}}}}
	require.Equal(t, `{
    "name": "Café \"x\"\n",
    "n": 3,
    "f": 2.0,
    "g": 0.25,
    "ok": true,
    "none": null,
    "list": [],
    "obj": {},
    "nested": [
        {
            "a": [
                1,
                "b"
            ]
        }
    ]
}
`, string(encode(v, "    ")))
	require.Equal(t, `{"a": [1, "b"], "c": {}}`+"\n", string(encode(Obj{{"a", []any{1, "b"}}, {"c", Obj{}}}, "")))
}

// FuzzEncodeString requires every string to survive encoding: the JSON
// decoder reads back the same text (invalid UTF-8 as U+FFFD, as Go does).
func FuzzEncodeString(f *testing.F) {
	for _, s := range []string{"", "plain", "quote \" and \\ backslash", "tab\tnew\nline\r", "\x00\x1f\x7f", "Café 東京", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data := encode(Obj{{"s", s}}, "    ")
		var back map[string]string
		require.NoError(t, json.Unmarshal(data, &back), "%q", data)
		want := s
		if !utf8.ValidString(s) {
			want = string([]rune(s)) // invalid bytes become U+FFFD
		}
		require.Equal(t, want, back["s"])
	})
}
