package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
)

// The flight chain of the built-in catalog: two autocompletes, then a
// search with the IDs they returned.
const (
	lisbonID = "eyJzIjoiTElTIiwiZSI6IjI3NTQ0MDcyIiwiaCI6IjI3NTQ0MDcyIn0="
	londonID = "eyJzIjoiTE9ORCIsImUiOiIyNzU0NDAwOCIsImgiOiIyNzU0NDAwOCJ9"
)

func callIn(t *testing.T, ts *httptest.Server, session, api, args string) map[string]any {
	t.Helper()
	code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json",
		fmt.Sprintf(`{"tool":"skyscanner80","api":%q,"arguments":%s,"session":%q}`, api, args, session), nil)
	require.Equal(t, http.StatusOK, code, string(body))
	var res map[string]any
	require.NoError(t, json.Unmarshal(body, &res))
	return res
}

// flightChain makes the chain in session: Lisbon and London looked up,
// then a one-way search between them; with fabricated, one more search
// with an ID no call returned (refused, a violation).
func flightChain(t *testing.T, ts *httptest.Server, session string, fabricated bool) {
	t.Helper()
	callIn(t, ts, session, "flights_auto_complete", `{"query":"Lisbon"}`)
	callIn(t, ts, session, "flights_auto_complete", `{"query":"London"}`)
	res := callIn(t, ts, session, "flights_search_one_way", `{"fromId":"`+lisbonID+`","toId":"`+londonID+`","departDate":"2025-06-10"}`)
	require.EqualValues(t, 200, res["status"], "the IDs come from the autocompletes: %v", res)
	if fabricated {
		res := callIn(t, ts, session, "flights_search_one_way", `{"fromId":"bogus","toId":"`+londonID+`","departDate":"2025-06-10"}`)
		require.EqualValues(t, 400, res["status"])
	}
}

func TestExpect(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	flightChain(t, ts, "clean", false)
	flightChain(t, ts, "dirty", true)

	const (
		acLisbon = `{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["Lisbon"]}}}`
		acLondon = `{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["London"]}}}`
		search   = `{"api":"skyscanner80.flights_search_one_way","arguments":{"fromId":{"values":["` + lisbonID + `"]},"toId":{"values":["` + londonID + `"]}}}`
	)
	for _, tc := range []struct {
		name, session, body string
		pass                bool
		diff                []string // each is in some line of the diff
	}{
		{"sequence", "clean", `{"calls":[` + acLisbon + `,` + search + `]}`, true, nil},
		{"sequence is the default and may skip calls", "clean", `{"calls":[` + acLondon + `,` + search + `],"order":"sequence"}`, true, nil},
		{"Task-4 normalisation", "clean", `{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["  LISBON."]}}}]}`, true, nil},
		{"a plain value is the one acceptable value", "clean", `{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":"lisbon"}},{"api":"skyscanner80.flights_search_one_way","arguments":{"adults":1}}]}`, true, nil},
		{"a plain value that does not fit", "clean", `{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":"Paris"}}]}`, false,
			[]string{`expected call 1 skyscanner80.flights_auto_complete: call #1: query is "Lisbon", want one of ["Paris"]`}},
		{"acceptable values", "clean", `{"calls":[{"api":"skyscanner80.flights_search_one_way","arguments":{"departDate":{"values":["2025-06-09","2025-06-10"]}}}]}`, true, nil},
		{"optional at its default", "clean", `{"calls":[{"api":"skyscanner80.flights_search_one_way","arguments":{"cabinClass":{"values":["business"],"optional":true}}}]}`, true, nil},
		{"the default is not business", "clean", `{"calls":[{"api":"skyscanner80.flights_search_one_way","arguments":{"cabinClass":{"values":["business"]}}}]}`, false,
			[]string{`expected call 1 skyscanner80.flights_search_one_way: call #3: cabinClass is "economy", want one of ["business"]`}},
		{"out of order", "clean", `{"calls":[` + search + `,` + acLisbon + `]}`, false,
			[]string{"expected call 2 skyscanner80.flights_auto_complete: call #1: fits, but does not come after"}},
		{"set in any order", "clean", `{"calls":[` + search + `,` + acLondon + `,` + acLisbon + `],"order":"set"}`, true, nil},
		// A greedy match would give the first expected call the Lisbon
		// lookup and leave the second without one.
		{"set needs a matching, not a greedy choice", "clean",
			`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["Lisbon","London"]}}},` + acLisbon + `],"order":"set"}`, true, nil},
		{"set: one call cannot match twice", "clean", `{"calls":[` + search + `,` + search + `],"order":"set"}`, false,
			[]string{"expected call 2 skyscanner80.flights_search_one_way: call #3: fits, but another expected call has it"}},
		{"wrong value", "clean", `{"calls":[{"api":"skyscanner80.flights_search_one_way","arguments":{"fromId":{"values":["LIS"]}}}]}`, false,
			[]string{`call #3: fromId is "` + lisbonID + `", want one of ["LIS"]`}},
		{"never called", "clean", `{"calls":[{"api":"skyscanner80.get_config"}]}`, false,
			[]string{"expected call 1 skyscanner80.get_config: not called"}},
		{"no violations", "clean", `{"no_violations":true}`, true, nil},
		{"a fabricated ID is a violation", "dirty", `{"calls":[` + acLisbon + `,` + search + `],"no_violations":true}`, false,
			[]string{"call #4 skyscanner80.flights_search_one_way: fabricated violation on fromId"}},
		{"at most 3 calls", "clean", `{"max_calls":3}`, true, nil},
		{"more than 2 calls", "clean", `{"max_calls":2}`, false, []string{"3 calls made, at most 2 expected"}},
		{"an unknown session made no calls", "nobody", `{"calls":[],"max_calls":0,"no_violations":true}`, true, nil},
		{"an unknown session fails an expected call", "nobody", `{"calls":[` + acLisbon + `]}`, false,
			[]string{"expected call 1 skyscanner80.flights_auto_complete: not called", `no calls were made in session "nobody"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, method := range []string{"POST", "GET"} {
				code, hdr, body := do(t, method, ts.URL+"/v1/sessions/"+tc.session+"/expect", "application/json", tc.body, nil)
				require.Equal(t, http.StatusOK, code, "%s: %s", method, body)
				require.Equal(t, "application/json", hdr.Get("Content-Type"))
				var v struct {
					Pass bool      `json:"pass"`
					Diff *[]string `json:"diff"`
				}
				require.NoError(t, json.Unmarshal(body, &v))
				require.NotNil(t, v.Diff, "diff is a list, empty when passing: %s", body)
				require.Equal(t, tc.pass, v.Pass, "%s", body)
				require.Equal(t, tc.pass, len(*v.Diff) == 0, "%s", body)
				for _, want := range tc.diff {
					require.Contains(t, strings.Join(*v.Diff, "\n"), want)
				}
			}
		})
	}
}

func TestExpectMalformed(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	many := `{"calls":[` + strings.TrimSuffix(strings.Repeat(`{"api":"skyscanner80.get_config"},`, 257), ",") + `]}`
	for _, tc := range []struct {
		name, contentType, body string
		status                  int
		kind, detail            string
	}{
		{"not JSON", "application/json", `{"calls":`, 400, "malformed-expectation", "not JSON: unexpected EOF"},
		{"empty", "application/json", ``, 400, "malformed-expectation", "empty body: want {\"calls\": [call, ...]"},
		{"trailing data", "application/json", `{} {}`, 400, "malformed-expectation", "unexpected data"},
		{"not an object", "application/json", `[]`, 400, "malformed-expectation", `an array is not an expectation: want {"calls": [call, ...], "order": "sequence" or "set"`},
		{"misspelt field", "application/json", `{"no_violation":true}`, 400, "malformed-expectation", `no_violation: unknown field; the fields are calls, order, no_violations, max_calls`},
		{"unknown order", "application/json", `{"order":"random"}`, 400, "malformed-expectation", `order: "random" is not an order: want "sequence" or "set"`},
		{"order not a string", "application/json", `{"order":1}`, 400, "malformed-expectation", `order: the number 1: want "sequence" or "set"`},
		{"no_violations not a boolean", "application/json", `{"no_violations":"yes"}`, 400, "malformed-expectation", `no_violations: a string: want true or false`},
		{"negative max_calls", "application/json", `{"max_calls":-1}`, 400, "malformed-expectation", "max_calls: -1: want 0 or more"},
		{"fractional max_calls", "application/json", `{"max_calls":1.5}`, 400, "malformed-expectation", "max_calls: the number 1.5: want a whole number"},
		{"calls not a list", "application/json", `{"calls":{}}`, 400, "malformed-expectation", `calls: an object: want a list of calls, each {"api": "tool.api", "arguments": {"name": acceptable, ...}}`},
		{"call without api", "application/json", `{"calls":[{}]}`, 400, "malformed-expectation", `calls[0].api: missing`},
		{"unknown call field", "application/json", `{"calls":[{"api":"skyscanner80.get_config","args":{}}]}`, 400, "malformed-expectation", `calls[0].args: unknown field; the fields are api, arguments`},
		{"unknown API", "application/json", `{"calls":[{"api":"skyscanner80.teleport"}]}`, 400, "malformed-expectation", `calls[0].api: no API "skyscanner80.teleport"`},
		{"unknown argument", "application/json", `{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"qeury":{"values":["x"]}}}]}`, 400, "malformed-expectation", "calls[0].arguments.qeury: skyscanner80.flights_auto_complete takes no such argument (it takes query"},
		{"no acceptable value", "application/json", `{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":[]}}}]}`, 400, "malformed-expectation", "calls[0].arguments.query: no acceptable values"},
		// The report of issue 26: Go internals ("GoldCall.calls.arguments of
		// type dataset.Acceptable") instead of the field and its shapes.
		{"values not a list", "application/json", `{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":"Lisbon"}}}]}`, 400, "malformed-expectation",
			`calls[0].arguments.query.values: a string: want a list of acceptable values, e.g. {"values": ["Lisbon"]}`},
		{"null argument", "application/json", `{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":null}}]}`, 400, "malformed-expectation",
			`calls[0].arguments.query: null: want a plain value (one acceptable value) or {"values": [value, ...], "optional": true or false}`},
		{"unknown field beside values", "application/json", `{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["x"],"exact":true}}}]}`, 400, "malformed-expectation",
			`calls[0].arguments.query.exact: unknown field beside "values"`},
		{"too many calls", "application/json", many, 400, "malformed-expectation", "calls: 257 calls: at most 256"},
		{"not JSON by type", "application/xml", `{}`, 415, "unsupported-media-type", "application/xml"},
		{"too large", "application/json", `{"calls":[{"api":"` + strings.Repeat("x", 70<<10) + `"}]}`, 413, "body-too-large", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, hdr, body := do(t, "POST", ts.URL+"/v1/sessions/s/expect", tc.contentType, tc.body, nil)
			require.Equal(t, tc.status, code, string(body))
			require.Equal(t, "application/problem+json", hdr.Get("Content-Type"))
			var p struct{ Type, Detail string }
			require.NoError(t, json.Unmarshal(body, &p))
			require.True(t, strings.HasSuffix(p.Type, "/problems/"+tc.kind), p.Type)
			require.Contains(t, p.Detail, tc.detail)
			for _, internal := range []string{"Go struct", "dataset.", "GoldCall", "json:"} {
				require.NotContains(t, p.Detail, internal, "no Go internals in the detail")
			}
		})
	}
}

// TestResetSession: DELETE forgets a session's trace and what its calls
// emitted, so that the next test case with the same ID starts from
// nothing; an unknown session is a 404 problem.
func TestResetSession(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	flightChain(t, ts, "case", false)
	flightChain(t, ts, "other", false)

	code, hdr, body := do(t, "DELETE", ts.URL+"/v1/sessions/case", "", "", nil)
	require.Equal(t, http.StatusNoContent, code, string(body))
	require.Empty(t, body)
	require.Empty(t, hdr.Get("Content-Type"))

	code, _, body = do(t, "GET", ts.URL+"/v1/sessions/case", "", "", nil)
	require.Equal(t, http.StatusNotFound, code, string(body))
	require.Contains(t, string(body), "/problems/unknown-session")

	code, hdr, body = do(t, "DELETE", ts.URL+"/v1/sessions/case", "", "", nil)
	require.Equal(t, http.StatusNotFound, code, string(body))
	require.Equal(t, "application/problem+json", hdr.Get("Content-Type"))
	require.Contains(t, string(body), "/problems/unknown-session")

	// The IDs the reset session's lookups returned are forgotten too:
	// reusing them is now a fabrication, refused as the real API refuses.
	res := callIn(t, ts, "case", "flights_search_one_way", `{"fromId":"`+lisbonID+`","toId":"`+londonID+`","departDate":"2025-06-10"}`)
	require.EqualValues(t, 400, res["status"], "%v", res)
	require.EqualValues(t, 1, res["seq"], "the trace starts again")

	// Other sessions keep theirs.
	code, _, body = do(t, "POST", ts.URL+"/v1/sessions/other/expect", "application/json", `{"max_calls":3,"no_violations":true,"calls":[{"api":"skyscanner80.flights_search_one_way"}]}`, nil)
	require.Equal(t, http.StatusOK, code, string(body))
	require.JSONEq(t, `{"pass":true,"diff":[]}`, string(body))

	code, _, body = do(t, "DELETE", ts.URL+"/v1/sessions/"+strings.Repeat("x", 300), "", "", nil)
	require.Equal(t, http.StatusBadRequest, code, string(body))
	require.Contains(t, string(body), "/problems/too-long")
}
