package faker_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/faker"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/tbfile"
)

// hollowTool is a ToolBench file of a tool whose "list_<what>" API
// declares its answer's items with no fields, in the given way (schema,
// template_response, test_endpoint), beside a detail API that documents
// the entity's fields.
func hollowTool(t *testing.T, what, field, decl string) *toolset.API {
	t.Helper()
	doc := fmt.Sprintf(`{"tool_name": "Hollow %[1]s", "tool_description": "Find %[1]s.", "api_list": [
	  {"name": "list_%[1]s", "description": "List %[1]s.", "method": "GET", "required_parameters": [], "optional_parameters": [], %[3]s},
	  {"name": "get_%[1]s", "description": "One of the %[1]s, by ID.", "method": "GET",
	   "required_parameters": [{"name": "id", "type": "STRING", "description": "ID of the %[1]s"}], "optional_parameters": [],
	   "schema": {"type": "object", "properties": {"id": {"type": "string"}, "%[2]s": {"type": "string"}, "rating": {"type": "number"}}}}]}`, what, field, decl)
	tl, err := tbfile.LoadFile([]byte(doc), "Data", "Data/hollow.json")
	require.NoError(t, err, decl)
	c, err := toolset.NewCatalog([]*toolset.Tool{tl})
	require.NoError(t, err)
	return c.APIs()[0]
}

// No answer holds an object with nothing in it, whatever way the API
// declares its items without fields: an empty schema, items of no
// properties, a template of empty objects or of _list_length markers
// alone, an example of empty objects. An item gets the fields its name
// and its tool's other APIs give the entity.
func TestNoHollowItems(t *testing.T) {
	w := standintest.World(t)
	for _, decl := range []string{
		`"schema": {}`,
		`"schema": ""`,
		`"schema": {"type": "array", "items": {}}`,
		`"schema": {"type": "array", "items": {"type": "object"}}`,
		`"schema": {"type": "array", "items": {"type": "object", "properties": {}}}`,
		`"schema": {"type": "object", "properties": {"results": {"type": "array", "items": {"type": "object"}}}}`,
		`"schema": {"type": "object", "properties": {"results": {"type": "array"}}}`,
		`"template_response": [{}]`,
		`"template_response": {"data": [{}]}`,
		`"template_response": "[{}]"`,
		`"template_response": [{"_list_length": 4}]`,
		`"template_response": {"results": [{"_list_length": 3}], "count": "int"}`,
		`"template_response": "{'results': [{'_list_length': 2}]}"`,
		`"template_response": {"items": ["dict"]}`,
		`"test_endpoint": [{}, {}]`,
		`"test_endpoint": {"data": [{}, {}]}`,
		`"test_endpoint": "[{}, {}]"`,
		`"test_endpoint": {"total": 2, "items": [{}, {}]}`,
		`"template_response": {"count": "int", "items": ["dict"]}`,
		`"template_response": {"results": [{"id": "str", "owner": {}}]}`,
		`"schema": {"type": "object", "properties": {"count": {"type": "integer"}, "items": {"type": "array", "items": {"type": "object"}}}}`,
	} {
		t.Run(decl, func(t *testing.T) {
			a := hollowTool(t, "venues", "venue_name", decl)
			f := faker.New(faker.Options{})
			ans := plainAnswer(t, f.Fake(w, callOf(a, map[string]any{})))
			d := answerDefects{w: w}
			d.walk(ans, "")
			b, _ := json.Marshal(ans)
			require.False(t, d.empty, "%s → %s", decl, b)
			// The tool's detail API documents the venue's fields.
			require.Contains(t, string(b), `"venue_name"`, "%s → %s", decl, b)
			require.False(t, d.marker, "%s → %s", decl, b)
		})
	}
}
