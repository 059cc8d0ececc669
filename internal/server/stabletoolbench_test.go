package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/recgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// stbClient sends what StableToolBench's rapidapi_wrapper._step sends,
// unchanged: the payload's six fields, tool_input as the model's JSON
// text, the toolbench_key header; and it reads what _step reads, the
// "error" and "response" of the answer.
type stbClient struct {
	t   testing.TB
	url string
}

type stbAnswer struct {
	Error    string          `json:"error"`
	Response json.RawMessage `json:"response"`
}

func (c stbClient) step(category, toolName, apiName, actionInput string) stbAnswer {
	c.t.Helper()
	payload, err := json.Marshal(map[string]string{
		"category": category, "tool_name": toolName, "api_name": apiName,
		"tool_input": actionInput, "strip": "", "toolbench_key": "stb-key",
	})
	require.NoError(c.t, err)
	req, err := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(payload))
	require.NoError(c.t, err)
	req.Header.Set("Content-Type", "application/json") // requests.post(json=...)
	req.Header.Set("toolbench_key", "stb-key")
	resp, err := bounded.Client.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	require.Equal(c.t, http.StatusOK, resp.StatusCode, "the client treats any other status as a failed request")
	var raw map[string]json.RawMessage
	require.NoError(c.t, json.NewDecoder(resp.Body).Decode(&raw))
	require.Contains(c.t, raw, "error")
	require.Contains(c.t, raw, "response")
	var a stbAnswer
	require.NoError(c.t, json.Unmarshal(raw["error"], &a.Error))
	a.Response = raw["response"]
	return a
}

// stbFileStem is the tool_name StableToolBench sends: its tool file's
// name up to the first '.'.
func stbFileStem(tl *toolset.Tool) string {
	stem, _, _ := strings.Cut(filepath.Base(tl.Source), ".")
	return stem
}

// TestStableToolBenchClientCallsEveryBuiltinAPI drives every built-in API
// through /virtual the way StableToolBench's client does: the names its
// schemas give (change_name(standardize(name)) for the API and each
// parameter: is_from, countrycode, fromid, departdate), in the order a
// chain needs, IDs taken from earlier answers.
func TestStableToolBenchClientCallsEveryBuiltinAPI(t *testing.T) {
	ts, st := newServer(t, assemble.Config{})
	client := stbClient{t: t, url: ts.URL + "/virtual"}
	calls, err := recgen.Examples(st.Catalog)
	require.NoError(t, err)

	called := map[*toolset.API]bool{}
	rewritten := map[*toolset.API]bool{}
	answers := map[*toolset.API][]any{}
	for _, c := range calls {
		api := st.Catalog.API(c.Tool, c.API)
		require.NotNil(t, api)
		args := recgen.Minted(st.Catalog, api, c.Arguments, answers)
		input := map[string]any{}
		for name, v := range args {
			stb := toolset.ToolBenchParamName(name)
			if stb != name {
				rewritten[api] = true
			}
			input[stb] = v
		}
		for _, p := range api.Params { // optional parameters too, as a model fills them in
			if _, given := args[p.Name]; !given && p.Default != nil && toolset.ToolBenchParamName(p.Name) != p.Name {
				input[toolset.ToolBenchParamName(p.Name)] = p.Default
				rewritten[api] = true
			}
		}
		text, err := json.Marshal(input)
		require.NoError(t, err)
		got := client.step(api.Tool.Category, stbFileStem(api.Tool), toolset.StandardizeAPIName(api.Name), string(text))
		if c.Status != 0 {
			require.Equal(t, "API returned status 404", got.Error, "%s %s", api.ID(), text)
			continue
		}
		require.Empty(t, got.Error, "%s %s: %s", api.ID(), text, got.Response)
		var doc any
		require.NoError(t, json.Unmarshal(got.Response, &doc))
		answers[api] = append(answers[api], doc)
		called[api] = true
	}
	require.Len(t, called, len(st.Catalog.APIs()), "every built-in API answered")
	require.Len(t, st.Catalog.APIs(), 77)
	require.Len(t, rewritten, 10, "the APIs whose parameter names StableToolBench rewrites")
}

// TestStableToolBenchNamesTheToolByCategory: two tools of one name in two
// categories are two tools, and /virtual finds each by its category.
func TestStableToolBenchNamesTheToolByCategory(t *testing.T) {
	cat, err := loader.Load([]string{filepath.Join("..", "..", "toolset", "testdata", "toolbench_messy")}, false)
	require.NoError(t, err)
	ts, _ := newServer(t, assemble.Config{Catalog: cat})

	cases := []struct {
		category, tool, api, input, wantErr string
	}{
		{"Entertainment", "pokemontcg", "get_cards", `{"name": "Pikachu", "pagesize": 5}`, ""},
		{"Gaming", "pokemontcg", "get_deck", `{"is_id": "d-7"}`, ""},
		{"Gaming", "pokemontcg_for_Gaming", "get_deck_for_pokemontcg", `{"is_id": "d-7"}`, ""},
		{"Data", "quote_generator", "random_quote", `{"is_from": "Ada Lovelace"}`, ""},
		{"Gaming", "pokemontcg", "get_cards", `{"name": "Pikachu"}`, "Unknown API"},
		{"Gaming", "pokemontcg", "get_deck", `{"is_id": "d-7", "id": "d-8"}`, "given twice"},
	}
	for _, path := range []string{"/virtual", "/rapidapi"} {
		client := stbClient{t: t, url: ts.URL + path}
		for _, tc := range cases {
			t.Run(path+"/"+tc.category+"/"+tc.tool+"/"+tc.api, func(t *testing.T) {
				client.t = t
				got := client.step(tc.category, tc.tool, tc.api, tc.input)
				if tc.wantErr != "" {
					require.Contains(t, got.Error, tc.wantErr)
					return
				}
				require.Empty(t, got.Error, string(got.Response))
				require.NotEqual(t, `""`, string(got.Response))
			})
		}
	}
}

// TestStableToolBenchRefusesAnotherToolsAPI: api_name given as another
// tool's function name ("<api>_for_<tool>") with a tool_name of its own
// names two APIs: it is refused, not run as the function's tool. A
// function name with no tool_name, or the tool's own, still runs.
func TestStableToolBenchRefusesAnotherToolsAPI(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	client := stbClient{t: t, url: ts.URL + "/virtual"}
	for _, tc := range []struct {
		name, tool, api, wantErr string
	}{
		{"another tool's function", "weatherapi_com", "flights_auto_complete_for_skyscanner80", "is an API of tool skyscanner80, not of tool_name \"weatherapi_com\""},
		{"the tool's own function", "skyscanner80", "flights_auto_complete_for_skyscanner80", ""},
		{"a function name alone", "", "flights_auto_complete_for_skyscanner80", ""},
		{"the API's name", "skyscanner80", "flights_auto_complete", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client.t = t
			category := "Travel"
			if tc.tool == "weatherapi_com" {
				category = "Weather"
			}
			got := client.step(category, tc.tool, tc.api, `{"query": "Lisbon"}`)
			if tc.wantErr != "" {
				require.Contains(t, got.Error, tc.wantErr)
				require.Equal(t, `""`, string(got.Response), "nothing was run")
				return
			}
			require.Empty(t, got.Error, string(got.Response))
			require.Contains(t, string(got.Response), "Lisbon")
		})
	}
}

// TestStableToolBenchRefusesWrongCategory: StableToolBench's server finds a
// tool by category and name; a category that does not hold the tool is
// refused, naming the one that does, and nothing is run. No category, or
// the right one, runs the call.
func TestStableToolBenchRefusesWrongCategory(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	client := stbClient{t: t, url: ts.URL + "/virtual"}
	for _, tc := range []struct {
		name, category, wantErr string
	}{
		{"wrong category", "Weather", `category "Weather" has no tool "skyscanner80"; it is in category Travel`},
		{"right category", "Travel", ""},
		{"right category, spelled otherwise", "travel", ""},
		{"no category", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client.t = t
			got := client.step(tc.category, "skyscanner80", "flights_auto_complete", `{"query": "Lisbon"}`)
			if tc.wantErr != "" {
				require.Contains(t, got.Error, tc.wantErr)
				require.Equal(t, `""`, string(got.Response), "nothing was run")
				return
			}
			require.Empty(t, got.Error, string(got.Response))
			require.Contains(t, string(got.Response), "Lisbon")
		})
	}
}
