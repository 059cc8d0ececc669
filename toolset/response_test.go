package toolset_test

import (
	"encoding/json"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/toolset"
)

func TestResponseOfFreeTextSchema(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want bool
	}{
		{``, false},
		{`""`, false},
		{`"an object with the weather"`, false},
		{`{"type": 5}`, false}, // not a schema kin-openapi reads
		{` {"type": "object"} `, true},
	} {
		a := &toolset.API{}
		a.SetResponseJSON(json.RawMessage(tc.raw))
		require.Equal(t, tc.want, a.Response() != nil, tc.raw)
	}
	set := &openapi3.Schema{Type: &openapi3.Types{"string"}}
	a := &toolset.API{ResponseSchema: set}
	require.Same(t, set, a.Response(), "a schema a loader set is kept")
}
