package tbfile_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/toolset/loader"
)

// TestResponseParsedOnFirstUse checks that a ToolBench file's response
// schema, parsed by the first Response call, is what a parse of the same
// file by one caller gives, under concurrent first calls.
func TestResponseParsedOnFirstUse(t *testing.T) {
	lazy, err := loader.Builtin()
	require.NoError(t, err)
	eager, err := loader.Builtin()
	require.NoError(t, err)

	apis := lazy.APIs()
	got := make([][]*openapi3.Schema, 4) // by caller, then by API
	var wg sync.WaitGroup
	for c := range got {
		got[c] = make([]*openapi3.Schema, len(apis))
		wg.Go(func() {
			for i, a := range apis {
				got[c][i] = a.Response()
			}
		})
	}
	bounded.Wait(t, &wg, "4 readers of the response schemas")
	withSchema := 0
	for i, a := range apis {
		s := a.Response()
		require.Same(t, s, a.Response(), "%s: parsed once", a.ID())
		for c := range got {
			require.Same(t, s, got[c][i], "%s: every caller gets the same schema", a.ID())
		}
		want := eager.API(a.Tool.StandardizedName, a.Name)
		require.NotNil(t, want)
		if want.Response() == nil {
			require.Nil(t, s, a.ID())
			continue
		}
		withSchema++
		require.NotNil(t, s, a.ID())
		wantJSON, err := json.Marshal(want.Response())
		require.NoError(t, err)
		gotJSON, err := json.Marshal(s)
		require.NoError(t, err)
		require.JSONEq(t, string(wantJSON), string(gotJSON), a.ID())
	}
	require.Greater(t, withSchema, len(apis)/2, "most built-in APIs document their response")
}
