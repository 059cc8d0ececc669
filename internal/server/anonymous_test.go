package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
)

// TestAnonymousSessionKeepsLearning: every call without a session ID
// shares one session. After 3,000 unrelated weather calls in it (whose
// answers once filled its memory of emitted values, which then refused
// every new one), an auto-complete → one-way search chain with the IDs the
// auto-complete just returned is still served, over the RapidAPI wire.
func TestAnonymousSessionKeepsLearning(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	weather := map[string]string{"X-RapidAPI-Host": "weatherapi-com.p.rapidapi.com"}
	cities := []string{"London", "Paris", "Lisbon", "Tokyo", "New York", "Berlin"}
	for i := range 3000 {
		code, _, body := do(t, "GET", ts.URL+"/current.json?q="+url.QueryEscape(cities[i%len(cities)]), "", "", weather)
		require.Equal(t, http.StatusOK, code, string(body))
	}

	flights := map[string]string{"X-RapidAPI-Host": "skyscanner80.p.rapidapi.com"}
	id := func(query string) string {
		code, _, body := do(t, "GET", ts.URL+"/api/v1/flights/auto-complete?query="+url.QueryEscape(query), "", "", flights)
		require.Equal(t, http.StatusOK, code, string(body))
		var ac struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		require.NoError(t, json.Unmarshal(body, &ac))
		require.NotEmpty(t, ac.Data, string(body))
		return ac.Data[0].ID
	}
	from, to := id("New York"), id("Lisbon")
	q := url.Values{"fromId": {from}, "toId": {to}, "departDate": {"2025-06-20"}}
	code, _, body := do(t, "GET", ts.URL+"/api/v1/flights/search-one-way?"+q.Encode(), "", "", flights)
	require.Equal(t, http.StatusOK, code, string(body))
	require.NotContains(t, string(body), "Invalid fromId")

	// A made-up ID is still refused, the way the real API refuses it.
	q.Set("fromId", "eyJzIjoiWFhYIn0=")
	code, _, body = do(t, "GET", ts.URL+"/api/v1/flights/search-one-way?"+q.Encode(), "", "", flights)
	require.Equal(t, http.StatusBadRequest, code, string(body))
	require.Contains(t, string(body), "Invalid fromId")
}
