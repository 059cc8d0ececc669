package standintest

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShape checks the shape check both ways.
func TestShape(t *testing.T) {
	ex := map[string]any{"data": []any{map[string]any{"id": "x", "n": 1.0}}, "ok": true}
	for _, tc := range []struct {
		name string
		got  any
		ok   bool
	}{
		{"same", map[string]any{"data": []any{map[string]any{"id": "y", "n": 2.0, "extra": 1.0}}, "ok": false}, true},
		{"empty list", map[string]any{"data": []any{}, "ok": true}, true},
		{"missing field", map[string]any{"data": []any{map[string]any{"id": "y"}}, "ok": true}, false},
		{"wrong type", map[string]any{"data": []any{map[string]any{"id": 3.0, "n": 2.0}}, "ok": true}, false},
		{"not a list", map[string]any{"data": map[string]any{}, "ok": true}, false},
	} {
		err := Shape(ex, tc.got)
		require.Equal(t, tc.ok, err == nil, "%s: %v", tc.name, err)
	}
}
