package sandboxtest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/sandbox/expect"
	"github.com/understudy/understudy/sandbox/sandboxtest"
)

// failures records what Expect reports instead of failing the test.
type failures struct {
	testing.TB
	errs []string
}

func (f *failures) Helper() {}
func (f *failures) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

// TestExpect: Server.Expect passes the calls the agent made, fails the
// test with a readable diff on the ones it did not, and answers what the
// HTTP endpoint answers for the same expectation written as JSON.
func TestExpect(t *testing.T) {
	srv := sandboxtest.NewServer(t)
	lookup := map[string]any{"query": "Lisbon"}
	status, _, body := call(t, srv.URL, "skyscanner80", "flights_auto_complete", lookup, "case")
	require.Equal(t, http.StatusOK, status, "%s", body)
	status, _, body = call(t, srv.URL, "skyscanner80", "flights_search_one_way", map[string]any{"fromId": "made-up", "toId": "made-up", "departDate": "2025-06-10"}, "case")
	require.Equal(t, http.StatusOK, status, "%s", body)

	ac := func(values ...any) expect.Call {
		return expect.Call{API: "skyscanner80.flights_auto_complete", Arguments: map[string]expect.Acceptable{"query": expect.OneOf(values...)}}
	}
	for _, tc := range []struct {
		name string
		e    expect.Expectation
		json string // the same expectation as the endpoint takes it
		diff []string
	}{
		{"holds", expect.Expectation{Calls: []expect.Call{ac("LISBON", "Lisboa")}, MaxCalls: expect.At(2)},
			`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":{"values":["LISBON","Lisboa"]}}}],"max_calls":2}`, nil},
		{"Go values are compared as JSON", expect.Expectation{Calls: []expect.Call{{API: "skyscanner80.flights_search_one_way",
			Arguments: map[string]expect.Acceptable{"adults": expect.OneOf(1), "cabinClass": expect.OneOf("business").OrOmitted()}}}},
			`{"calls":[{"api":"skyscanner80.flights_search_one_way","arguments":{"adults":1,"cabinClass":{"values":["business"],"optional":true}}}]}`, nil},
		{"does not hold", expect.Expectation{Calls: []expect.Call{ac("London")}, NoViolations: true, MaxCalls: expect.At(1), Order: expect.Set},
			`{"calls":[{"api":"skyscanner80.flights_auto_complete","arguments":{"query":"London"}}],"no_violations":true,"max_calls":1,"order":"set"}`,
			[]string{
				`expected call 1 skyscanner80.flights_auto_complete: call #1: query is "Lisbon", want one of ["London"]`,
				"call #2 skyscanner80.flights_search_one_way: fabricated violation on fromId",
				"2 calls made, at most 1 expected",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &failures{TB: t}
			v := srv.Expect(f, "case", tc.e)
			require.Equal(t, len(tc.diff) == 0, v.Pass, "%v", v)
			if len(tc.diff) == 0 {
				require.Empty(t, f.errs)
			} else {
				require.Len(t, f.errs, 1)
				require.Contains(t, f.errs[0], `session "case": the expectation does not hold:`)
				for _, want := range tc.diff {
					require.Contains(t, f.errs[0], "\n\t"+want)
				}
			}
			status, _, body := do(t, "POST", srv.URL+"/v1/sessions/case/expect", []byte(tc.json))
			require.Equal(t, http.StatusOK, status, "%s", body)
			require.JSONEq(t, string(encode(t, v)), string(body), "Expect and the endpoint agree")
		})
	}

	t.Run("an invalid expectation fails the test", func(t *testing.T) {
		f := &failures{TB: t}
		v := srv.Expect(f, "case", expect.Expectation{Calls: []expect.Call{{API: "skyscanner80.flights_auto_complete",
			Arguments: map[string]expect.Acceptable{"qeury": expect.OneOf("x")}}}})
		require.False(t, v.Pass)
		require.Len(t, f.errs, 1)
		require.Contains(t, f.errs[0], "calls[0].arguments.qeury: skyscanner80.flights_auto_complete takes no such argument")
		_, err := srv.Check("case", expect.Expectation{Calls: []expect.Call{{API: "nope.nothing"}}})
		var ee *expect.Error
		require.ErrorAs(t, err, &ee)
		require.Equal(t, "calls[0].api", ee.Field)
		require.False(t, strings.Contains(err.Error(), "Go struct"))
	})
}
