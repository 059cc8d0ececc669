package openapi_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/toolset/openapi"
)

// TestOpenAPIRequestsMatchesDocument checks that the request-only document
// has every operation and parameter of the whole one, and no responses.
func TestOpenAPIRequestsMatchesDocument(t *testing.T) {
	c := goldenCatalog(t)
	whole, requests := openapi.Document(c), openapi.Requests(c)
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
