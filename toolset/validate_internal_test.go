package toolset

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
)

// FuzzObjectInString: a string parameter's JSON object reads as
// json.Unmarshal reads it, with the literal's numbers kept exact.
func FuzzObjectInString(f *testing.F) {
	for _, s := range []string{`{"a":1}`, ` {"id": 9007199254740993} `, `{"a":[1,{"b":2.50}]}`, `{"a":1} x`, `{`, `[1]`, `{"a":1e999}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := objectInString(s)
		var plain map[string]any
		trimmed := strings.TrimSpace(s)
		want := strings.HasPrefix(trimmed, "{") && json.Unmarshal([]byte(trimmed), &plain) == nil
		if ok != want {
			t.Fatalf("%q: objectInString ok=%v, json.Unmarshal ok=%v", s, ok, want)
		}
		if !ok {
			return
		}
		got, err := canon.JSON(m)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if exp := canon.MustJSON(json.RawMessage(trimmed)); !bytes.Equal(got, exp) {
			t.Fatalf("%q: read as %s, canonical form is %s", s, got, exp)
		}
	})
}

// TestCoerceExactDigits: a string parameter given an integer float64
// cannot hold gets its exact digits.
func TestCoerceExactDigits(t *testing.T) {
	const big = "9007199254740993" // 2^53+1
	s, ok := coerce(json.Number(big), KindString)
	require.True(t, ok)
	require.Equal(t, big, s)
	s, ok = coerce(json.Number("5.0"), KindString)
	require.True(t, ok)
	require.Equal(t, "5", s, "small numbers print as before")
}
