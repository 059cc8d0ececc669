package canon

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

type ownJSON float64

func (ownJSON) MarshalJSON() ([]byte, error) { return []byte(`"own"`), nil }

type ownText struct{ s string }

func (*ownText) MarshalText() ([]byte, error) { return []byte("own"), nil }

type plainNamed []float64

// TestMarshalsItself checks the short cut for types without methods
// against every kind of type that can have them.
func TestMarshalsItself(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want bool
	}{
		{float64(1), false},
		{"s", false},
		{[]float64{1}, false},
		{map[string]any{}, false},
		{[2]int{}, false},
		{new(float64), false},
		{plainNamed{1}, false},
		{struct{ A int }{}, false},
		{json.Number("1"), false},
		{json.RawMessage(`1`), true},
		{time.Time{}, true},
		{&time.Time{}, true},
		{struct{ time.Time }{}, true}, // promoted through an unnamed struct
		{[]time.Time{}, false},        // the slice itself has no method
		{ownJSON(1), true},
		{ownText{}, true}, // through its pointer
		{[]ownJSON{}, false},
	} {
		require.Equal(t, tc.want, marshalsItself(reflect.TypeOf(tc.v)), "%T", tc.v)
	}
}
