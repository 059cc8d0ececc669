package objects_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset/loader"
)

func stack(t *testing.T) *assemble.Stack {
	t.Helper()
	cat, err := loader.Load([]string{filepath.Join("testdata", "petstore.yaml"), filepath.Join("testdata", "toolbench")}, false)
	require.NoError(t, err)
	st, err := assemble.Build(assemble.Config{Catalog: cat})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	return st
}

func call(t *testing.T, st *assemble.Stack, session, tool, api string, args map[string]any) any {
	t.Helper()
	res, err := st.Engine.Call(context.Background(), sandbox.Request{Tool: tool, API: api, Arguments: args, Session: session})
	require.NoError(t, err)
	require.Equal(t, 200, res.Status, string(res.Response))
	var v any
	require.NoError(t, json.Unmarshal(res.Response, &v))
	return v
}

// requireSubset fails unless every field of want is in got with its value.
func requireSubset(t *testing.T, want, got map[string]any) {
	t.Helper()
	for k, v := range want {
		require.Contains(t, got, k)
		require.Equal(t, v, got[k], "field %s", k)
	}
}

// TestShowPetByIdAnswersTheListedPet: the OpenAPI petstore's detail
// endpoint answers, for each ID listPets returned, that pet; the edge is
// inferred from the parameter's description.
func TestShowPetByIdAnswersTheListedPet(t *testing.T) {
	st := stack(t)
	inferred := false
	for _, e := range st.Graph.Into("swagger_petstore.showPetById") {
		inferred = inferred || (e.From == "swagger_petstore.listPets" && e.Origin == "inferred")
	}
	require.True(t, inferred, "the edge comes from the documentation")

	pets, ok := call(t, st, "s1", "swagger_petstore", "listPets", map[string]any{"limit": 3}).([]any)
	require.True(t, ok)
	require.NotEmpty(t, pets)
	for _, p := range pets {
		pet := p.(map[string]any)
		id, err := json.Marshal(pet["id"])
		require.NoError(t, err)
		got := call(t, st, "s1", "swagger_petstore", "showPetById", map[string]any{"petId": string(id)})
		require.Equal(t, pet, got, "the pet listed, field for field")
	}

	// In a session that never listed it, the faker answers the pet of
	// that ID the same: it makes an object's fields from its ID.
	first := pets[0].(map[string]any)
	id, _ := json.Marshal(first["id"])
	other := call(t, st, "s2", "swagger_petstore", "showPetById", map[string]any{"petId": string(id)}).(map[string]any)
	require.Equal(t, first["name"], other["name"])
}

// TestToolBenchDetailAgreesWithSearch: the same for a ToolBench tool with
// documented examples; the detail keeps its own extra fields, and a POST
// taking the ID (a reservation) is not turned into the pet.
func TestToolBenchDetailAgreesWithSearch(t *testing.T) {
	st := stack(t)
	doc := call(t, st, "s1", "pet_shop", "Search Pets", map[string]any{"species": "cat"}).(map[string]any)
	listed := doc["data"].([]any)
	require.NotEmpty(t, listed)
	for _, p := range listed {
		pet := p.(map[string]any)
		got := call(t, st, "s1", "pet_shop", "Pet Details", map[string]any{"pet_id": pet["pet_id"]}).(map[string]any)
		detail := got["data"].(map[string]any)
		requireSubset(t, pet, detail)
		require.Contains(t, detail, "vaccinated", "the detail's own fields stay")
		require.Contains(t, detail, "price")
	}
	pet := listed[0].(map[string]any)
	res := call(t, st, "s1", "pet_shop", "Reserve Pet", map[string]any{"pet_id": pet["pet_id"]}).(map[string]any)
	reservation := res["reservation"].(map[string]any)
	require.NotEqual(t, pet["name"], reservation["name"])
	require.NotEqual(t, pet["pet_id"], reservation["id"])

	// Another session has its own world: there the ID names no cat.
	require.Equal(t, "cat", pet["species"])
	got := call(t, st, "s3", "pet_shop", "Pet Details", map[string]any{"pet_id": pet["pet_id"]}).(map[string]any)
	require.Equal(t, "dog", got["data"].(map[string]any)["species"])

	// Forgetting the session forgets its objects.
	require.True(t, st.Engine.Reset("s1"))
	got = call(t, st, "s1", "pet_shop", "Pet Details", map[string]any{"pet_id": pet["pet_id"]}).(map[string]any)
	require.Equal(t, "dog", got["data"].(map[string]any)["species"])
}
