package toolset

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestKindHolds(t *testing.T) {
	tests := []struct {
		kind Kind
		v    any
		want bool
	}{
		{KindInteger, json.Number("5"), true},
		{KindInteger, json.Number("1453523214578196481"), true},
		{KindInteger, json.Number("5.5"), false},
		{KindInteger, json.Number("5e0"), false},
		{KindInteger, 5.0, true},
		{KindInteger, 5.5, false},
		{KindInteger, math.Inf(1), false},
		{KindInteger, "5", false},
		{KindNumber, json.Number("5"), true},
		{KindNumber, 2.5, true},
		{KindNumber, "2.5", false},
		{KindBoolean, true, true},
		{KindBoolean, "true", false},
		{KindString, "venue", true},
		{KindString, true, false},
		{KindString, 5.0, false},
		{KindArray, []any{"a"}, true},
		{KindArray, "a", false},
		{KindObject, map[string]any{}, true},
		{KindObject, []any{}, false},
		{"", "anything", true},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, tt.kind.Holds(tt.v), "%s holds %#v", tt.kind, tt.v)
	}
}
