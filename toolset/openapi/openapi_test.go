package openapi_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/openapi"
)

func TestLoadOpenAPIPetstore(t *testing.T) {
	tools, err := loader.LoadPath("../testdata/openapi/petstore.yaml")
	require.NoError(t, err)
	require.Len(t, tools, 1)
	pet := tools[0]
	require.Equal(t, "Pet Store", pet.Name)
	require.Equal(t, "pet_store", pet.StandardizedName)
	require.Equal(t, "Commerce", pet.Category, "x-category on info")
	require.Equal(t, "eu.petstore.example.com", pet.Host, "server variables take their defaults")
	require.Equal(t, "openapi", pet.Origin)
	require.Empty(t, pet.Notes)

	var names []string
	for _, a := range pet.APIs {
		names = append(names, a.Name)
		require.Regexp(t, `^[a-zA-Z0-9_-]{1,64}$`, a.Name)
	}
	require.Equal(t, []string{"addPet", "findPetsByStatus", "getPetById", "delete_pet_petId", "putNotes", "place_order"}, names)

	add := pet.API("addPet")
	require.Equal(t, "POST", add.Method)
	require.Equal(t, "/api/v3/pet", add.Path)
	require.Equal(t, "https://eu.petstore.example.com/api/v3/pet", add.URL)
	require.Equal(t, []string{"pet_care"}, add.Groups)
	require.True(t, add.Param("name").Required)
	require.True(t, add.Param("photoUrls").Required)
	require.False(t, add.Param("status").Required)
	require.Equal(t, toolset.InBody, add.Param("name").In)
	require.Equal(t, toolset.KindObject, add.Param("category").Kind, "$ref inlined")
	require.Contains(t, add.Param("category").Schema.Properties, "name")
	require.Len(t, add.ResponseSchema.AllOf, 2)
	require.JSONEq(t, `{"id": 10, "name": "doggie", "status": "available", "photoUrls": []}`, string(add.ExampleResponse))

	find := pet.API("findPetsByStatus")
	require.Equal(t, "Finds pets by status\n\nMultiple status values can be provided with comma separated strings.", find.Description)
	require.Equal(t, toolset.InQuery, find.Param("status").In)
	require.Equal(t, []any{"available", "pending", "sold"}, find.Param("status").Enum)
	require.Equal(t, "available", find.Param("status").Default)
	require.Equal(t, toolset.KindInteger, find.Param("limit").Kind, "parameter $ref")
	require.JSONEq(t, `[{"id": 1, "name": "rex", "status": "available", "photoUrls": []}]`, string(find.ExampleResponse), "named example")

	get := pet.API("getPetById")
	require.Equal(t, toolset.InPath, get.Param("petId").In, "path-item parameter")
	require.True(t, get.Param("petId").Required)
	require.True(t, get.Param("petId").Opaque)
	require.Equal(t, []toolset.Dependency{{API: "findPetsByStatus", Path: "[].id"}}, get.Param("petId").Depends)
	require.Equal(t, toolset.InHeader, get.Param("X-Request-ID").In)
	require.Nil(t, get.Param("session"), "cookie parameters are left out")

	del := pet.API("delete_pet_petId")
	require.Equal(t, "DELETE", del.Method)
	require.NotNil(t, del.Param("petId"))

	order := pet.API("place_order")
	require.Equal(t, []toolset.Dependency{{API: "findPetsByStatus", Path: "[].id"}}, order.Param("petId").Depends, "x-depends on a body property")
	require.True(t, order.Param("quantity").Required)
	require.NotNil(t, order.ResponseSchema, "201 when there is no 200")

	notes := pet.API("putNotes")
	require.Len(t, notes.Params, 1)
	require.Equal(t, "body", notes.Params[0].Name, "a non-object body is one param")
	require.True(t, notes.Params[0].Required)
	require.Equal(t, toolset.KindString, notes.Params[0].Kind)
}

func TestLoadOpenAPICycle(t *testing.T) {
	tools, err := loader.LoadPath("../testdata/openapi/cyclic.json")
	require.NoError(t, err)
	org := tools[0]
	require.Equal(t, "OpenAPI", org.Category)
	require.NotEmpty(t, org.Notes)
	require.Contains(t, strings.Join(org.Notes, "\n"), "recursive schema #/components/schemas/Team cut at depth")
	a := org.API("createTeam")
	sub := a.Param("subteams").Schema.Items.Value
	require.Contains(t, sub.Description, "recursive schema")
	// The cut tree is finite: it exports and validates.
	_, err = a.Validate(map[string]any{"name": "core", "subteams": []any{map[string]any{"name": "x", "subteams": []any{}}}})
	require.NoError(t, err)
	require.NotEmpty(t, a.InputSchema())
}

func TestLoadOpenAPIBadInput(t *testing.T) {
	huge := strings.Repeat("y", toolset.MaxDescriptionLen+1)
	for _, tc := range []struct {
		name  string
		doc   string
		field string
		msg   string
	}{
		{"malformed JSON", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": }}}`, "paths./a.get", "malformed JSON"},
		{"missing title", `{"openapi": "3.0.3", "info": {"version": "1"}, "paths": {}}`, "info.title", "missing"},
		{"missing info", `{"openapi": "3.0.3", "paths": {}}`, "info", "missing"},
		{"swagger 2", `{"swagger": "2.0", "info": {"title": "x", "version": "1"}, "paths": {}}`, "swagger", "Swagger 2.0"},
		{"not OpenAPI 3", `{"openapi": "2.5", "info": {"title": "x", "version": "1"}, "paths": {}}`, "openapi", "not OpenAPI 3"},
		{"huge description", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"description": "` + huge + `", "responses": {}}}}}`,
			"paths./a.get.description", "65536-byte limit"},
		{"parameter without name", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"parameters": [{"in": "query"}], "responses": {}}}}}`,
			"paths./a.get.parameters[0].name", "missing"},
		{"bad x-depends", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"parameters": [{"name": "q", "in": "query", "x-depends": {"api": "b"}}], "responses": {}}}}}`,
			"paths./a.get.parameters[0].x-depends[0]", "needs both api and path"},
		{"bad x-group", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"x-group": {"a": 1}, "responses": {}}}}}`,
			"paths./a.get.x-group", "group name"},
		{"unresolvable ref", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"parameters": [{"$ref": "#/components/parameters/Nope"}], "responses": {}}}}}`,
			"#/components/parameters/Nope", ""},
		{"external ref refused", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"parameters": [{"$ref": "other.json#/p"}], "responses": {}}}}}`,
			"other.json#/p", "disallowed external reference"},
		{"YAML syntax", "openapi: 3.0.3\ninfo: [title\n", "", ""},
		// A misspelt type once loaded silently, and the parameter then
		// accepted any value.
		{"unknown parameter type", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"get": {"parameters": [{"name": "n", "in": "query", "schema": {"type": "integr"}}], "responses": {}}}}}`,
			"paths./a.get.parameters[0].schema.type", `unknown type "integr"`},
		{"unknown type deep in a body", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "strng"}}}}}}}, "responses": {}}}}}`,
			"paths./a.post.requestBody.schema.properties.tags.items.type", `unknown type "strng"`},
		{"unknown type in a referenced response schema", "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Pet'}\ncomponents:\n  schemas:\n    Pet:\n      type: object\n      properties:\n        age: {type: integr}\n",
			"paths./a.get.responses.schema.properties.age.type", `unknown type "integr"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := openapi.Load([]byte(tc.doc), "api/spec.json")
			var le *toolset.LoadError
			require.True(t, errors.As(err, &le), "want a *LoadError, got %v", err)
			require.Equal(t, "api/spec.json", le.File)
			require.Equal(t, tc.field, le.Field, "%v", err)
			require.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestLoadOpenAPINames(t *testing.T) {
	doc := `{"openapi": "3.0.3", "info": {"title": "Names", "version": "1"}, "paths": {
	  "/a": {"get": {"operationId": "list items", "responses": {}}, "post": {"operationId": "list_items", "responses": {}}},
	  "/b/{id}/c": {"get": {"parameters": [{"name": "id", "in": "path", "schema": {"type": "string"}}], "responses": {}}},
	  "/long": {"get": {"operationId": "` + strings.Repeat("verylongname", 10) + `", "responses": {}}},
	  "/sym": {"get": {"operationId": "ÿ€!", "responses": {}}}}}`
	tool, err := openapi.Load([]byte(doc), "names.json")
	require.NoError(t, err)
	var names []string
	for _, a := range tool.APIs {
		require.Regexp(t, `^[a-zA-Z0-9_-]{1,64}$`, a.Name)
		names = append(names, a.Name)
	}
	require.Equal(t, []string{"list_items", "list_items_2", "get_b_id_c", strings.Repeat("verylongname", 10)[:64], "operation"}, names)
}
