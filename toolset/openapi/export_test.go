package openapi_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/openapi"
)

// goldenCatalog is the small catalog behind the golden file: the
// ToolBench testdata tree, the petstore and the cyclic document.
func goldenCatalog(t testing.TB) *toolset.Catalog {
	c, err := loader.Load([]string{"../testdata/toolbench", "../testdata/openapi/petstore.yaml", "../testdata/openapi/cyclic.json"}, false)
	require.NoError(t, err)
	return c
}

// checkGolden compares got with testdata/golden/name, rewriting it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", "golden", name), got)
}

func TestOpenAPIDocumentGolden(t *testing.T) {
	c := goldenCatalog(t)
	doc := openapi.Document(c)
	require.NoError(t, doc.Validate(context.Background()))
	require.Equal(t, "3.0.3", doc.OpenAPI)

	ops := map[string]*openapi3.Operation{}
	for _, p := range doc.Paths.InMatchingOrder() {
		for _, op := range doc.Paths.Value(p).Operations() {
			ops[op.OperationID] = op
		}
	}
	require.Len(t, ops, len(c.APIs()))
	get := ops["quick_weather.Forecast by id"]
	require.NotNil(t, get)
	require.Equal(t, []string{"Weather", "quick_weather"}, get.Tags)
	require.Equal(t, "path", get.Parameters[0].Value.In)
	fare := ops["fare_finder.search_fares"]
	require.NotNil(t, fare.RequestBody, "body params become a JSON body")
	require.Contains(t, fare.RequestBody.Value.Content["application/json"].Schema.Value.Properties, "from")

	b, err := json.MarshalIndent(doc, "", "  ")
	require.NoError(t, err)
	checkGolden(t, "openapi.json", append(b, '\n'))

	// The document reloads through kin-openapi unchanged in substance.
	back, err := openapi3.NewLoader().LoadFromData(b)
	require.NoError(t, err)
	require.NoError(t, back.Validate(context.Background()))
}

func TestOpenAPIDocumentAwkwardPaths(t *testing.T) {
	tool := &toolset.Tool{Name: "Awkward", Category: "X", APIs: []*toolset.API{
		{Name: "a", Method: "GET", Path: "/items/{id}", Params: []*toolset.Param{{Name: "q", Kind: toolset.KindString, In: toolset.InQuery}}},                       // {id} undeclared
		{Name: "b", Method: "GET", Path: "/items/{id}", Params: []*toolset.Param{{Name: "id", Kind: toolset.KindString, In: toolset.InPath}}},                       // same path
		{Name: "c", Method: "FETCH", Path: "", Params: []*toolset.Param{{Name: "slug", Kind: toolset.KindString, In: toolset.InPath}}},                              // path param not in template
		{Name: "d", Method: "GET", Path: "/x y?z", ExampleResponse: json.RawMessage(`{"a": 1}`), ResponseSchema: &openapi3.Schema{Type: &openapi3.Types{"string"}}}, // example contradicts schema
		{Name: "e", Method: "POST", Path: "/e", Params: []*toolset.Param{{Name: "n", Kind: toolset.KindString, In: toolset.InBody, Schema: &openapi3.Schema{Type: &openapi3.Types{"string"}, Pattern: "(["}}}},
	}}
	c, err := toolset.NewCatalog([]*toolset.Tool{tool})
	require.NoError(t, err)
	doc := openapi.Document(c)
	require.NoError(t, doc.Validate(context.Background()))
	paths := doc.Paths.Keys()
	require.ElementsMatch(t, []string{"/awkward/items/id", "/awkward/items/{id}", "/awkward/{slug}", "/awkward/x_yz", "/awkward/e"}, paths)
	require.NotNil(t, doc.Paths.Value("/awkward/{slug}").Post, "unknown method FETCH exported as POST")
	media := doc.Paths.Value("/awkward/x_yz").Get.Responses.Value("200").Value.Content["application/json"]
	require.Nil(t, media.Example, "an example contradicting its schema is not an example")
	require.Equal(t, map[string]any{"a": 1.0}, media.Extensions["x-example"])
	n := doc.Paths.Value("/awkward/e").Post.RequestBody.Value.Content["application/json"].Schema.Value.Properties["n"].Value
	require.Empty(t, n.Pattern, "an invalid schema falls back to the bare kind")
	require.Contains(t, n.Description, "documented schema dropped")
}
