package toolset

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
)

// TestResponseParsedOnFirstUse checks that a ToolBench file's response
// schema, parsed by the first Response call, is what an eager parse of the
// same file gives, under concurrent first calls.
func TestResponseParsedOnFirstUse(t *testing.T) {
	lazy, err := Builtin()
	require.NoError(t, err)
	eager, err := Builtin()
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
		if raw := want.responseRaw; raw != nil {
			want.ResponseSchema = lenientSchema(raw)
		}
		if want.ResponseSchema == nil {
			require.Nil(t, s, a.ID())
			continue
		}
		withSchema++
		require.NotNil(t, s, a.ID())
		wantJSON, err := json.Marshal(want.ResponseSchema)
		require.NoError(t, err)
		gotJSON, err := json.Marshal(s)
		require.NoError(t, err)
		require.JSONEq(t, string(wantJSON), string(gotJSON), a.ID())
	}
	require.Greater(t, withSchema, len(apis)/2, "most built-in APIs document their response")
}

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
		a := &API{responseRaw: responseSchemaJSON(json.RawMessage(tc.raw))}
		require.Equal(t, tc.want, a.Response() != nil, tc.raw)
	}
	set := &openapi3.Schema{Type: &openapi3.Types{"string"}}
	a := &API{ResponseSchema: set}
	require.Same(t, set, a.Response(), "a schema a loader set is kept")
}

// TestOpenAPIRequestsMatchesDocument checks that the request-only document
// has every operation and parameter of the whole one, and no responses.
func TestOpenAPIRequestsMatchesDocument(t *testing.T) {
	c := goldenCatalog(t)
	whole, requests := OpenAPIDocument(c), OpenAPIRequests(c)
	require.NoError(t, requests.Validate(context.Background()))
	require.ElementsMatch(t, whole.Paths.InMatchingOrder(), requests.Paths.InMatchingOrder())
	n := 0
	for _, p := range whole.Paths.InMatchingOrder() {
		for method, op := range whole.Paths.Value(p).Operations() {
			rop := requests.Paths.Value(p).GetOperation(method)
			require.NotNil(t, rop, "%s %s", method, p)
			require.Equal(t, op.OperationID, rop.OperationID)
			require.Equal(t, op.Parameters, rop.Parameters, op.OperationID)
			require.Equal(t, op.RequestBody, rop.RequestBody, op.OperationID)
			require.Nil(t, rop.Responses.Value("200").Value.Content, op.OperationID)
			require.NotNil(t, op.Responses.Value("200").Value.Content, op.OperationID)
			n++
		}
	}
	require.Equal(t, len(c.APIs()), n)
}
