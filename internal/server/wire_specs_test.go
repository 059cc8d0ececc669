package server_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset/loader"
)

// specServer serves the OpenAPI documents of testdata/specs (shapes of
// real APIs-guru specs) on a loopback server.
func specServer(t *testing.T) (string, *assemble.Stack) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "specs", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	c, err := loader.Load(files, false)
	require.NoError(t, err)
	ts, st := newServer(t, assemble.Config{Catalog: c})
	return ts.URL, st
}

// TestWireRealSpecs calls real specs' endpoints the way their own clients
// do, each case with the verdict Stoplight Prism gives the same request.
func TestWireRealSpecs(t *testing.T) {
	base, st := specServer(t)
	const (
		nyt   = "api.nytimes.com"
		guru  = "api.apis.guru"
		gt    = "google-translate1.p.rapidapi.com"
		pets  = "petstore-composed.example.com"
		petID = "7f1c1c8e-3b5d-4c8e-9d2a-0c6f2b1e4a11"
	)
	for _, tc := range []struct {
		name               string
		host, method, path string
		contentType, body  string
		header             map[string]string
		status             int
		api                string // the API called, for a 2xx
		args               string // its traced arguments, for a 2xx
		problem            string // a fragment of the problem, otherwise
	}{
		// Parameters inside a path segment.
		{name: "section.format", host: nyt, method: "GET", path: "/svc/topstories/v2/arts.json",
			status: 200, api: "getTopStories", args: `{"section":"arts","format":"json"}`},
		{name: "section.format with query", host: nyt, method: "GET", path: "/svc/topstories/v2/science.jsonp?callback=cb",
			status: 200, api: "getTopStories", args: `{"section":"science","format":"jsonp","callback":"cb"}`},
		{name: "section.format out of enum", host: nyt, method: "GET", path: "/svc/topstories/v2/sports.json",
			status: 400, problem: "section"},
		{name: "segment without its literal", host: nyt, method: "GET", path: "/svc/topstories/v2/arts",
			status: 404, problem: "unknown-endpoint"},
		{name: "provider.json", host: guru, method: "GET", path: "/v2/nytimes.com.json",
			status: 200, api: "getProvider", args: `{"provider":"nytimes.com"}`},
		{name: "literal beats parameter", host: guru, method: "GET", path: "/v2/providers.json",
			status: 200, api: "getProviders", args: `{}`},
		{name: "provider/service.json", host: guru, method: "GET", path: "/v2/nytimes.com/books_api.json",
			status: 200, api: "getServiceAPI", args: `{"provider":"nytimes.com","service":"books_api"}`},
		{name: "lists/date/list.json", host: nyt, method: "GET", path: "/svc/books/v3/lists/current/hardcover-fiction.json?offset=20",
			status: 200, api: "getListByDate", args: `{"date":"current","list":"hardcover-fiction","offset":20}`},
		{name: "lists/names.json is literal", host: nyt, method: "GET", path: "/svc/books/v3/lists/names.json",
			status: 200, api: "getListNames", args: `{}`},

		// Credentials declared by the spec's security schemes.
		{name: "api-key in the query is accepted and dropped", host: nyt, method: "GET", path: "/svc/topstories/v2/home.json?api-key=sk-secret-123",
			status: 200, api: "getTopStories", args: `{"section":"home","format":"json"}`},
		{name: "a key the spec does not declare is still unknown", host: guru, method: "GET", path: "/v2/providers.json?api-key=x",
			status: 400, problem: "unknown argument"},
		{name: "header key is not an argument", host: pets, method: "GET", path: "/v1/pets/" + petID, header: map[string]string{"X-Api-Key": "sk-secret"},
			status: 200, api: "getPet", args: `{"petId":"` + petID + `"}`},

		// Format uuid.
		{name: "uuid checked", host: pets, method: "GET", path: "/v1/pets/42",
			status: 400, problem: "UUID"},

		// A default that does not fit its parameter is not injected.
		{name: "no None default", host: pets, method: "GET", path: "/v1/pets",
			status: 200, api: "listPets", args: `{}`},

		// allOf and oneOf bodies.
		{name: "allOf body", host: pets, method: "POST", path: "/v1/pets", contentType: "application/json", body: `{"name":"Rex","species":"dog","age":3}`,
			status: 200, api: "createPet", args: `{"name":"Rex","species":"dog","age":3}`},
		{name: "allOf body misses a part's required", host: pets, method: "POST", path: "/v1/pets", contentType: "application/json", body: `{"name":"Rex"}`,
			status: 400, problem: "species"},
		{name: "allOf body property checked", host: pets, method: "POST", path: "/v1/pets", contentType: "application/json", body: `{"name":"Rex","species":"cow"}`,
			status: 400, problem: "species"},
		{name: "oneOf body, first branch", host: pets, method: "POST", path: "/v1/payments", contentType: "application/json", body: `{"card_number":"4111111111111111"}`,
			status: 200, api: "pay", args: `{"card_number":"4111111111111111"}`},
		{name: "oneOf body, second branch", host: pets, method: "POST", path: "/v1/payments", contentType: "application/json", body: `{"iban":"DE89370400440532013000"}`,
			status: 200, api: "pay", args: `{"iban":"DE89370400440532013000"}`},
		{name: "oneOf body, both branches", host: pets, method: "POST", path: "/v1/payments", contentType: "application/json", body: `{"card_number":"4111111111111111","iban":"DE89370400440532013000"}`,
			status: 400, problem: "body"},
		{name: "oneOf body, neither", host: pets, method: "POST", path: "/v1/payments", contentType: "application/json", body: `{}`,
			status: 400, problem: "body"},

		// Form bodies.
		{name: "form body", host: gt, method: "POST", path: "/language/translate/v2", contentType: "application/x-www-form-urlencoded", body: "q=Hello%2C+world%21&target=es&source=en",
			status: 200, api: "translate", args: `{"q":"Hello, world!","target":"es","source":"en"}`},
		{name: "form body with charset", host: gt, method: "POST", path: "/language/translate/v2", contentType: "application/x-www-form-urlencoded; charset=utf-8", body: "q=Hi&target=de",
			status: 200, api: "translate", args: `{"q":"Hi","target":"de"}`},
		{name: "form body misses a required field", host: gt, method: "POST", path: "/language/translate/v2", contentType: "application/x-www-form-urlencoded", body: "q=Hi",
			status: 400, problem: "target"},
		{name: "malformed form body", host: gt, method: "POST", path: "/language/translate/v2", contentType: "application/x-www-form-urlencoded", body: "q=%zz&target=de",
			status: 400, problem: "malformed-form"},
		{name: "JSON body still works", host: gt, method: "POST", path: "/language/translate/v2", contentType: "application/json", body: `{"q":"Hi","target":"fr"}`,
			status: 200, api: "translate", args: `{"q":"Hi","target":"fr"}`},
		{name: "other media types still refused", host: gt, method: "POST", path: "/language/translate/v2", contentType: "application/xml", body: "<q>Hi</q>",
			status: 415, problem: "unsupported-media-type"},
		// text/plain is read as JSON, as on every transport; a form in it is not JSON.
		{name: "a form sent as text/plain is malformed JSON", host: gt, method: "POST", path: "/language/translate/v2", contentType: "text/plain", body: "q=Hi&target=fr",
			status: 400, problem: "malformed-json"},

		// JSON array bodies.
		{name: "JSON Patch body", host: pets, method: "PATCH", path: "/v1/pets/" + petID, contentType: "application/json-patch+json", body: `[{"op":"replace","path":"/name","value":"Max"}]`,
			status: 200, api: "patchPet", args: `{"petId":"` + petID + `","body":[{"op":"replace","path":"/name","value":"Max"}]}`},
		{name: "JSON Patch op checked", host: pets, method: "PATCH", path: "/v1/pets/" + petID, contentType: "application/json-patch+json", body: `[{"op":"rename","path":"/name"}]`,
			status: 400, problem: "op"},
		{name: "JSON Patch minItems", host: pets, method: "PATCH", path: "/v1/pets/" + petID, contentType: "application/json-patch+json", body: `[]`,
			status: 400, problem: "body"},
		{name: "array body to an object API", host: pets, method: "POST", path: "/v1/pets", contentType: "application/json", body: `[{"name":"Rex"}]`,
			status: 400, problem: "takes a JSON object of arguments"},
		{name: "malformed array body", host: pets, method: "PATCH", path: "/v1/pets/" + petID, contentType: "application/json-patch+json", body: `[{"op":`,
			status: 400, problem: "malformed-json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{"X-RapidAPI-Host": tc.host}
			for k, v := range tc.header {
				hdr[k] = v
			}
			code, _, body := do(t, tc.method, base+tc.path, tc.contentType, tc.body, hdr)
			require.Equal(t, tc.status, code, string(body))
			if tc.status >= 300 {
				require.Contains(t, string(body), tc.problem)
				return
			}
			call := lastCall(t, st)
			require.Equal(t, tc.api, call.API)
			require.JSONEq(t, tc.args, string(call.Arguments))
			require.NotContains(t, string(call.Arguments), "secret", "a credential never becomes an argument")
		})
	}
}

// TestSpecLoadReport: the load report says which defaults were dropped.
func TestSpecLoadReport(t *testing.T) {
	c, err := loader.Load([]string{filepath.Join("testdata", "specs", "petstore_composed.json")}, false)
	require.NoError(t, err)
	tool := c.Tool("Petstore Composed")
	require.NotNil(t, tool)
	notes, err := json.Marshal(tool.Notes)
	require.NoError(t, err)
	require.Contains(t, string(notes), `listPets: parameter \"limit\": default the string \"None\" is not an integer and is dropped`)
	require.Equal(t, []string{"X-Api-Key"}, tool.Credentials)
}
