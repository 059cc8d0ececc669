package cache

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLooksLikeUpstreamError(t *testing.T) {
	longArticle := `{"data":[{"title":"Road blocked after storm","link":"https://news.example/a","body":"` + strings.Repeat("Traffic was blocked for hours; the quota of buses exceeded demand. ", 40) + `"}]}`
	tests := []struct {
		name   string
		body   string
		bad    bool
		reason string // substring of the reason when bad
	}{
		// Errors.
		{"empty", "", true, "empty"},
		{"blank", " \n", true, "empty"},
		{"null", "null", true, "null"},
		{"empty string", `""`, true, "empty"},
		{"rapidapi not subscribed", `{"message":"You are not subscribed to this API."}`, true, "not subscribed"},
		{"rapidapi timeout", `{"messages":"The request to the API has timed out. Please try again later, or if the issue persists, please contact the API provider"}`, true, "timed out"},
		{"rate limit", `{"message":"Too many requests"}`, true, "rate limited"},
		{"rate limit text", `Rate limit exceeded`, true, "rate limited"},
		{"quota", `{"message":"You have exceeded the MONTHLY quota for Requests on your current plan, BASIC."}`, true, "quota"},
		{"invalid key", `{"message":"Invalid API key. Go to https://docs.rapidapi.com/docs/keys for more info."}`, true, "invalid API key"},
		// ToolBench's server, with the key it echoed scrubbed.
		{"invalid toolbench key", `{"auth":"Bearer [REDACTED]","message":"invalid toolbench_key [REDACTED]"}`, true, "invalid API key"},
		{"unauthorized", `{"error":"Unauthorized"}`, true, "unauthorized"},
		{"blocked", `{"message":"Blocked User. Please contact your API provider."}`, true, "blocked"},
		{"api does not exist", `{"message":"API doesn't exists"}`, true, "does not exist"},
		{"endpoint does not exist", `{"message":"Endpoint '/v2/x' does not exist"}`, true, "does not exist"},
		{"status field", `{"status":429,"data":null}`, true, "status 429"},
		{"status code string", `{"statusCode":"503"}`, true, "statusCode 503"},
		{"status error", `{"status":"error","result":[]}`, true, "status is"},
		{"success false", `{"success":false,"data":[]}`, true, "success is false"},
		{"error object", `{"error":{"code":"x","info":"Your monthly usage limit has been reached."}}`, true, "error"},
		{"error list", `{"errors":[{"field":"q"}],"data":null}`, true, "errors field"},
		{"stabletoolbench envelope", `{"error":"Message error...","response":""}`, true, "error: Message error"},
		{"envelope with error text", `{"error":"","response":"{'message': 'You are not subscribed to this API.'}"}`, true, "not subscribed"},
		{"string body", `"The request to the API has timed out."`, true, "timed out"},
		{"html 502", `<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>`, true, "upstream failure"},
		{"python NameError", `{"error":"","response":"name 'requests' is not defined"}`, true, "tool code failed"},
		{"status_code marker", `{"error":"","response":"<Response [429]> status_code=429"}`, true, "rate limited"},
		{"parameter message", `{"message":"Missing parameter: q"}`, true, "parameter"},
		{"short object with strong phrase in any field", `{"detailz":"x","note":"Access denied for this plan"}`, true, "access denied"},

		// Real answers.
		{"weather", `{"location":{"name":"Paris"},"current":{"temp_c":18.5,"condition":{"text":"Partly cloudy","icon":"//cdn.weatherapi.com/x.png"}}}`, false, ""},
		{"empty list", `[]`, false, ""},
		{"empty object", `{}`, false, ""},
		{"number", `42`, false, ""},
		{"ok status", `{"status":200,"data":[1]}`, false, ""},
		{"status ok text", `{"status":"OK","results":[]}`, false, ""},
		{"error false", `{"error":false,"errors":[],"data":{"id":1}}`, false, ""},
		{"empty error string", `{"error":"","data":{"id":1}}`, false, ""},
		{"urls", `{"url":"http://example.com/404","image":"https://img.example/500.png"}`, false, ""},
		{"long article mentioning blocked and quota", longArticle, false, ""},
		{"message that is fine", `{"message":"OK","items":[1,2]}`, false, ""},
		{"envelope with data", `{"error":"","response":"{'data': [1, 2]}"}`, false, ""},
		{"short text data", `Paris`, false, ""},
		{"long list of strings", `["` + strings.Repeat("alpha ", 300) + `", "rate limit"]`, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reason, bad := LooksLikeUpstreamError([]byte(tt.body))
			require.Equal(t, tt.bad, bad, "reason %q", reason)
			if tt.bad {
				require.Contains(t, reason, tt.reason)
			} else {
				require.Empty(t, reason)
			}
		})
	}
}

func FuzzLooksLikeUpstreamError(f *testing.F) {
	f.Add(`{"message":"You are not subscribed to this API."}`)
	f.Add(`{"error":"","response":"{\"a\":1}"}`)
	f.Add(`<html>`)
	f.Fuzz(func(t *testing.T, body string) {
		reason, bad := LooksLikeUpstreamError([]byte(body))
		if bad != (reason != "") {
			t.Fatalf("bad=%v with reason %q", bad, reason)
		}
	})
}
