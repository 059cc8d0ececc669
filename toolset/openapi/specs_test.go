package openapi_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/internal/toolsettest"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/openapi"
)

// composedAPI loads testdata/openapi/composed.json, whose bodies are made
// with allOf, oneOf and a JSON Patch array, and returns one of its APIs.
func composedAPI(t *testing.T, name string) *toolset.API {
	t.Helper()
	c, err := loader.Load([]string{"../testdata/openapi/composed.json"}, false)
	require.NoError(t, err)
	a := c.API("Petstore Composed", name)
	require.NotNil(t, a, name)
	return a
}

func TestOpenAPIComposedBodies(t *testing.T) {
	create := composedAPI(t, "createPet")
	for _, p := range []struct {
		name     string
		kind     toolset.Kind
		required bool
	}{{"age", toolset.KindInteger, false}, {"name", toolset.KindString, true}, {"species", toolset.KindString, true}, {"tag", toolset.KindString, false}} {
		got := create.Param(p.name)
		require.NotNil(t, got, "allOf parts merge into flat arguments: %s", p.name)
		require.Equal(t, toolset.InBody, got.In)
		require.Equal(t, p.kind, got.Kind, p.name)
		require.Equal(t, p.required, got.Required, p.name)
	}
	require.Nil(t, create.Param("body"), "an allOf of objects is not one string argument")

	pay := composedAPI(t, "pay")
	require.NotNil(t, pay.Param("card_number"))
	require.NotNil(t, pay.Param("iban"))
	require.False(t, pay.Param("card_number").Required, "a branch's required is optional across branches")

	patch := composedAPI(t, "patchPet")
	require.Equal(t, toolset.KindArray, patch.Param("body").Kind, "a JSON Patch body is one array argument")

	for _, tc := range []struct {
		name string
		api  *toolset.API
		args map[string]any
		want []toolset.Violation // nil: valid
	}{
		{"allOf valid", create, map[string]any{"name": "Rex", "species": "dog", "age": "3"}, nil},
		{"allOf part's required", create, map[string]any{"name": "Rex"}, []toolset.Violation{{Location: []string{"species"}, Code: "required"}}},
		{"allOf part's minimum", create, map[string]any{"name": "Rex", "species": "cat", "age": -1}, []toolset.Violation{{Location: []string{"age"}, Code: "minimum"}}},
		{"oneOf card", pay, map[string]any{"card_number": "4111111111111111"}, nil},
		{"oneOf iban", pay, map[string]any{"iban": "DE89370400440532013000"}, nil},
		{"oneOf both", pay, map[string]any{"card_number": "4111111111111111", "iban": "DE89370400440532013000"}, []toolset.Violation{{Location: []string{"body"}, Code: "oneOf"}}},
		{"oneOf neither", pay, map[string]any{}, []toolset.Violation{{Location: []string{"body"}, Code: "oneOf"}}},
		{"patch valid", patch, map[string]any{"petId": "7f1c1c8e-3b5d-4c8e-9d2a-0c6f2b1e4a11", "body": []any{map[string]any{"op": "remove", "path": "/tag"}}}, nil},
		{"patch op", patch, map[string]any{"petId": "7f1c1c8e-3b5d-4c8e-9d2a-0c6f2b1e4a11", "body": []any{map[string]any{"op": "rename", "path": "/tag"}}}, []toolset.Violation{{Location: []string{"body", "0", "op"}, Code: "enum"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.api.Validate(tc.args)
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			toolsettest.RequireViolations(t, err, tc.want...)
		})
	}
}

func TestOpenAPIComposedKinds(t *testing.T) {
	doc := `{"openapi": "3.0.3", "info": {"title": "Kinds", "version": "1"},
	  "paths": {"/a": {"post": {"operationId": "a", "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
	    "address": {"allOf": [{"type": "object", "properties": {"city": {"type": "string"}}}], "description": "nested allOf"},
	    "id": {"oneOf": [{"type": "integer"}, {"type": "integer", "minimum": 100}]},
	    "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}}}},
	  "responses": {"200": {"description": "ok"}}}},
	  "/b": {"post": {"operationId": "b", "requestBody": {"content": {"application/json": {"schema": {"allOf": [{"type": "object", "properties": {"x": {"type": "string"}}}, {"type": "string"}]}}}},
	  "responses": {"200": {"description": "ok"}}}}}}`
	tool, err := openapi.Load([]byte(doc), "kinds.json")
	require.NoError(t, err)
	a := tool.API("a")
	require.Equal(t, toolset.KindObject, a.Param("address").Kind, "a property made of allOf parts takes their kind")
	require.Equal(t, toolset.KindInteger, a.Param("id").Kind, "branches that agree give their kind")
	require.Equal(t, toolset.KindString, a.Param("either").Kind, "branches that disagree fall back to string")
	out, err := a.Validate(map[string]any{"address": map[string]any{"city": "Oslo"}})
	require.NoError(t, err)
	require.Equal(t, map[string]any{"city": "Oslo"}, out["address"])
	b := tool.API("b")
	require.NotNil(t, b.Param("body"), "an allOf with a non-object part is not flattened")
	require.Nil(t, b.Param("x"))
}

func TestValidateUUID(t *testing.T) {
	a := composedAPI(t, "getPet")
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"7f1c1c8e-3b5d-4c8e-9d2a-0c6f2b1e4a11", true},
		{"7F1C1C8E-3B5D-4C8E-9D2A-0C6F2B1E4A11", true},
		{"00000000-0000-0000-0000-000000000000", true},
		{"42", false},
		{"7f1c1c8e3b5d4c8e9d2a0c6f2b1e4a11", false},
		{"7f1c1c8e-3b5d-4c8e-9d2a-0c6f2b1e4a1", false},
		{"7f1c1c8e-3b5d-4c8e-9d2a-0c6f2b1e4a1g", false},
		{"{7f1c1c8e-3b5d-4c8e-9d2a-0c6f2b1e4a1}", false},
	} {
		_, err := a.Validate(map[string]any{"petId": tc.id})
		if tc.ok {
			require.NoError(t, err, tc.id)
			continue
		}
		toolsettest.RequireViolations(t, err, toolset.Violation{Location: []string{"petId"}, Code: "format"})
	}
}

func TestCredentialsAcceptedAndDropped(t *testing.T) {
	doc := `{"openapi": "3.0.0", "info": {"title": "Top Stories", "version": "2"},
	  "servers": [{"url": "https://api.nytimes.com/svc/topstories/v2"}],
	  "components": {"securitySchemes": {
	    "apikey": {"type": "apiKey", "in": "query", "name": "api-key"},
	    "session": {"type": "apiKey", "in": "cookie", "name": "sid"},
	    "bearer": {"type": "http", "scheme": "bearer"},
	    "token": {"type": "apiKey", "in": "header", "name": "token"}}},
	  "paths": {"/{section}.json": {"get": {"operationId": "top", "parameters": [
	    {"name": "section", "in": "path", "required": true, "schema": {"type": "string"}}],
	    "responses": {"200": {"description": "ok"}}}},
	  "/token": {"get": {"operationId": "exchange", "parameters": [
	    {"name": "token", "in": "query", "required": true, "schema": {"type": "string"}}],
	    "responses": {"200": {"description": "ok"}}}}}}`
	tool, err := openapi.Load([]byte(doc), "nyt.json")
	require.NoError(t, err)
	require.Equal(t, []string{"api-key", "token"}, tool.Credentials, "query and header apiKeys, sorted; cookies and http schemes are no arguments")
	top := tool.API("top")
	out, err := top.Validate(map[string]any{"section": "arts", "api-key": "sk-secret"})
	require.NoError(t, err)
	require.Equal(t, map[string]any{"section": "arts"}, out, "the key is accepted and never kept")
	_, err = top.Validate(map[string]any{"section": "arts", "apikey": "sk-secret"})
	toolsettest.RequireViolations(t, err, toolset.Violation{Location: []string{"apikey"}, Code: "unknown"})
	out, err = tool.API("exchange").Validate(map[string]any{"token": "t1"})
	require.NoError(t, err)
	require.Equal(t, map[string]any{"token": "t1"}, out, "a parameter the API declares stays an argument")
}

func TestOpenAPIAnyOfBody(t *testing.T) {
	doc := `{"openapi": "3.0.3", "info": {"title": "Search", "version": "1"},
	  "paths": {"/search": {"post": {"operationId": "search", "requestBody": {"required": true, "content": {"application/json": {"schema": {
	    "type": "object", "properties": {"limit": {"type": "integer", "maximum": 50}},
	    "anyOf": [{"required": ["q"], "properties": {"q": {"type": "string"}}}, {"required": ["isbn"], "properties": {"isbn": {"type": "string", "pattern": "^[0-9]{13}$"}}}]}}}},
	  "responses": {"200": {"description": "ok"}}}}}}`
	tool, err := openapi.Load([]byte(doc), "search.json")
	require.NoError(t, err)
	a := tool.API("search")
	for _, name := range []string{"isbn", "limit", "q"} {
		require.NotNil(t, a.Param(name), name)
		require.False(t, a.Param(name).Required, name)
	}
	for _, tc := range []struct {
		args map[string]any
		want []toolset.Violation
	}{
		{map[string]any{"q": "go", "limit": 5}, nil},
		{map[string]any{"isbn": "9780134190440"}, nil},
		{map[string]any{"q": "go", "isbn": "9780134190440"}, nil},
		{map[string]any{"limit": 5}, []toolset.Violation{{Location: []string{"body"}, Code: "anyOf"}}},
		{map[string]any{"isbn": "12"}, []toolset.Violation{{Location: []string{"isbn"}, Code: "pattern"}}},
		{map[string]any{"q": "go", "limit": 99}, []toolset.Violation{{Location: []string{"limit"}, Code: "maximum"}}},
	} {
		_, err := a.Validate(tc.args)
		if tc.want == nil {
			require.NoError(t, err, "%v", tc.args)
			continue
		}
		toolsettest.RequireViolations(t, err, tc.want...)
	}
}
