package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/server"
)

func TestSearch(t *testing.T) {
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	h, err := server.New(st.Engine, server.Options{})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	get := func(q url.Values) (*http.Response, []byte) {
		resp, err := bounded.Client.Get(srv.URL + "/v1/search?" + q.Encode())
		require.NoError(t, err)
		defer resp.Body.Close()
		var b json.RawMessage
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&b))
		return resp, b
	}
	for _, tc := range []struct {
		name   string
		q      url.Values
		status int
		top    string
		n      int
		detail string
	}{
		{"bm25 default k", url.Values{"q": {"currency exchange rate"}}, 200, "currency_exchange.exchange", 5, ""},
		{"k", url.Values{"q": {"currency exchange rate"}, "k": {"2"}}, 200, "currency_exchange.exchange", 2, ""},
		{"hierarchical", url.Values{"q": {"public holidays of Germany"}, "retriever": {"hierarchical"}}, 200, "public_holiday.public_holidays", 0, ""},
		{"deliberate", url.Values{"q": {"public holidays of Germany"}, "retriever": {"deliberate"}}, 200, "public_holiday.public_holidays", 0, ""},
		{"no match", url.Values{"q": {"zzqx"}}, 200, "", 0, ""},
		{"no query", url.Values{}, 400, "", 0, "q is required"},
		{"bad k", url.Values{"q": {"x"}, "k": {"0"}}, 400, "", 0, "from 1 to 100"},
		{"k too large", url.Values{"q": {"x"}, "k": {"101"}}, 400, "", 0, "from 1 to 100"},
		{"unknown retriever", url.Values{"q": {"x"}, "retriever": {"dense"}}, 400, "", 0, "known: bm25, hierarchical"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(tc.q)
			require.Equal(t, tc.status, resp.StatusCode, string(body))
			if tc.status != 200 {
				require.Equal(t, "application/problem+json", resp.Header.Get("Content-Type"))
				require.Contains(t, string(body), tc.detail)
				return
			}
			var res server.SearchResult
			require.NoError(t, json.Unmarshal(body, &res))
			if tc.top == "" {
				require.Empty(t, res.Hits)
				return
			}
			require.Equal(t, tc.top, res.Hits[0].ID)
			require.NotEmpty(t, res.Hits[0].Function)
			require.NotNil(t, st.Catalog.APIByFunction(res.Hits[0].Function), "the function name calls the API")
			if tc.n > 0 {
				require.Len(t, res.Hits, tc.n)
			}
		})
	}
}
