package server_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/sandbox"
)

// TestReplayNormalisation: replay answers a call whose arguments differ
// from a recording's only in form, by the parameter's declared type —
// spaces always, case only where the parameter says the API ignores it —
// and a miss lists up to three nearest recorded calls, nearest first.
func TestReplayNormalisation(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{Mode: sandbox.ModeReplay})
	for _, tc := range []struct {
		name, body string
		status     int
		nearest    []string // the arguments of the nearest recorded calls
	}{
		// open_weather.city_weather's city is x-case-insensitive; the
		// shipped recording is for "new york".
		{"case-insensitive parameter", `{"tool":"open_weather","api":"city_weather","arguments":{"city":"New York"}}`, 200, nil},
		{"spaces", `{"tool":"open_weather","api":"city_weather","arguments":{"city":"  new   york "}}`, 200, nil},
		{"spaces in a case-sensitive parameter", `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":" PT "}}`, 200, nil},
		{"number forms", `{"tool":"calendar_tools","api":"check_month_calendar","arguments":{"month":"6","year":2025.0}}`, 200, nil},
		// iso_codes.country_by_code's code says nothing about case.
		{"case-sensitive parameter", `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"pt"}}`, 404,
			[]string{`{"code":"PT"}`, `{"code":"ZZ"}`}},
		{"a city never recorded", `{"tool":"skyscanner80","api":"flights_auto_complete","arguments":{"query":"Lisbn"}}`, 404,
			[]string{`{"locale":"en-US","market":"US","query":"Lisbon"}`, `{"locale":"en-US","market":"US","query":"New York"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, body := do(t, "POST", ts.URL+"/v1/call", "application/json", tc.body, nil)
			require.Equal(t, tc.status, code, string(body))
			if tc.status == http.StatusOK {
				var res struct{ Source string }
				require.NoError(t, json.Unmarshal(body, &res))
				require.Equal(t, "cache", res.Source, "answered by the recording")
				return
			}
			var p struct {
				Type, Detail string
				Nearest      []struct {
					Key       string
					Arguments json.RawMessage
				}
			}
			require.NoError(t, json.Unmarshal(body, &p))
			require.Contains(t, p.Type, "/problems/no-recording")
			require.LessOrEqual(t, len(p.Nearest), 3)
			require.Len(t, p.Nearest, len(tc.nearest), string(body))
			for i, want := range tc.nearest {
				require.JSONEq(t, want, string(p.Nearest[i].Arguments))
				require.Len(t, p.Nearest[i].Key, 64)
				require.Contains(t, p.Detail, want, "the detail names them too")
			}
		})
	}

	// More than three recorded calls in a -cache folder: the three nearest
	// are listed, nearest first.
	dir := t.TempDir()
	store, err := cache.Open(dir, cache.Options{})
	require.NoError(t, err)
	for _, q := range []string{"Porto", "Paris", "Parma", "Perth", "Oslo"} {
		args := map[string]any{"query": q, "locale": "en-US", "market": "US"}
		k := cache.KeyOf("skyscanner80", "flights_auto_complete", args)
		require.NoError(t, store.Put(k, cache.Entry{Tool: "skyscanner80", API: "flights_auto_complete", Arguments: []byte(k.Args()), Response: []byte(`{"data":[]}`), Source: "hand"}))
	}
	require.NoError(t, store.Close())
	ts2, _ := newServer(t, assemble.Config{Mode: sandbox.ModeReplay, CacheDir: dir})
	code, _, body := do(t, "POST", ts2.URL+"/v1/call", "application/json", `{"tool":"skyscanner80","api":"flights_auto_complete","arguments":{"query":"Parim"}}`, nil)
	require.Equal(t, http.StatusNotFound, code, string(body))
	var p struct {
		Nearest []struct{ Arguments map[string]string }
	}
	require.NoError(t, json.Unmarshal(body, &p))
	var got []string
	for _, n := range p.Nearest {
		got = append(got, n.Arguments["query"])
	}
	require.Equal(t, []string{"Paris", "Parma", "Perth"}, got)
}
