package canon_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
)

func TestJSON(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"sorted keys", map[string]any{"b": 1.0, "a": "x"}, `{"a":"x","b":1}`},
		{"whole float", 5.0, `5`},
		{"int", 5, `5`},
		{"fraction", 0.1, `0.1`},
		{"no html escaping", "<a&b>", `"<a&b>"`},
		{"json.Number", json.Number("5.0"), `5`},
		{"nested", map[string]any{"z": []any{map[string]any{"y": true, "x": nil}}}, `{"z":[{"x":null,"y":true}]}`},
		{"raw message", json.RawMessage(`{"b": 2, "a": 1.50}`), `{"a":1.5,"b":2}`},
		{"struct", struct {
			B int `json:"b"`
			A int `json:"a"`
		}{1, 2}, `{"a":2,"b":1}`},
		{"nil pointer", (*int)(nil), `null`},
	}
	for _, tc := range cases {
		got, err := canon.JSON(tc.in)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, string(got), tc.name)
	}
	_, err := canon.JSON(math.NaN())
	require.Error(t, err)
	_, err = canon.JSON(json.Number("x1"))
	require.Error(t, err)
}

// FuzzJSON checks that canonical JSON is a fixed point: decoding it and
// encoding again gives the same bytes, and it decodes to the same value as
// the input.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1,2,{"c":"d"}]}`, `[1.0, 2.50, -0, 1e21, 1e-7]`, `"\u003c"`, `null`, `{"":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		c1, err := canon.JSON(json.RawMessage(data))
		if err != nil {
			return // numbers beyond float64
		}
		var v2 any
		require.NoError(t, json.Unmarshal(c1, &v2))
		c2, err := canon.JSON(v2)
		require.NoError(t, err)
		require.True(t, bytes.Equal(c1, c2), "%s → %s → %s", data, c1, c2)
		c3, err := canon.JSON(v)
		require.NoError(t, err)
		require.Equal(t, string(c1), string(c3))
	})
}
