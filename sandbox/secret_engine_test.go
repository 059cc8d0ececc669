package sandbox_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/mocks"
	"github.com/understudy/understudy/sandbox"
)

// leakKey has the characters on which a key's encodings differ.
const leakKey = "sk-Live/Key+9f8e7d<&>c6b5a4"

// keyForms are the forms of the key an upstream echoes and that must not
// come out anywhere.
func keyForms(key string) []string {
	goJSON, _ := json.Marshal(key)
	return []string{
		key,
		url.QueryEscape(key),
		url.PathEscape(key),
		base64.StdEncoding.EncodeToString([]byte(key)),
		base64.StdEncoding.EncodeToString([]byte("user:" + key)),
		strings.Trim(string(goJSON), `"`),
	}
}

// echoObject is what a request-echoing API answers: the key as a header
// value, a Bearer and a Basic credential, in a URL, and JSON-escaped in
// JSON carried as text.
func echoObject(key string) map[string]any {
	inner, _ := json.Marshal(map[string]any{"toolbench_key": key})
	return map[string]any{
		"city": "Lisbon",
		"request": map[string]any{
			"headers": map[string]any{
				"X-Rapidapi-Key": key,
				"Authorization":  "Bearer " + key,
				"Proxy-Auth":     "Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+key)),
				"X-B64":          base64.StdEncoding.EncodeToString([]byte(key)),
			},
			"url":  "https://demo-weather.p.rapidapi.com/current?rapidapi-key=" + url.QueryEscape(key) + "&p=" + url.PathEscape(key),
			"body": string(inner),
		},
	}
}

// requireNoKey checks text, and every JSON string inside it however deeply
// it is nested as text, for every form of the key.
func requireNoKey(t *testing.T, where string, text []byte) {
	t.Helper()
	for _, f := range keyForms(leakKey) {
		require.NotContains(t, string(text), f, where)
	}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		switch x := v.(type) {
		case string:
			require.NotContains(t, x, leakKey, where)
			var inner any
			if depth < 4 && json.Unmarshal([]byte(x), &inner) == nil {
				walk(inner, depth+1)
			}
		case []any:
			for _, e := range x {
				walk(e, depth)
			}
		case map[string]any:
			for k, e := range x {
				require.NotContains(t, k, leakKey, where)
				walk(e, depth)
			}
		}
	}
	for line := range bytes.Lines(text) {
		var v any
		if json.Unmarshal(line, &v) == nil {
			walk(v, 0)
		}
	}
	var v any
	if json.Unmarshal(text, &v) == nil {
		walk(v, 0)
	}
}

// TestUpstreamKeyNeverLeaks has real loopback upstreams, a RapidAPI one and
// a ToolBench-compatible one, echo the key in every common form in 200,
// 429 and 500 answers, and checks in record and live modes that the key
// reaches neither the client's answer nor an error, the recordings on disk
// (entry files and index.jsonl) or the log.
func TestUpstreamKeyNeverLeaks(t *testing.T) {
	echo, err := json.Marshal(echoObject(leakKey))
	require.NoError(t, err)
	errorEcho, err := json.Marshal(map[string]any{"message": "invalid toolbench_key " + leakKey, "auth": "Bearer " + leakKey})
	require.NoError(t, err)
	type answer struct {
		status int
		body   []byte
	}
	cases := []struct {
		name string
		answer
		recorded bool // record mode keeps it
	}{
		{"200 echo", answer{200, echo}, true},
		{"200 error echo", answer{200, errorEcho}, false},
		{"200 plain text", answer{200, []byte("your key " + leakKey + " (" + url.QueryEscape(leakKey) + ") is fine")}, true},
		{"429 echo", answer{429, errorEcho}, false},
		{"500 echo", answer{500, echo}, false},
		{"500 html", answer{500, []byte("<html>Bearer " + leakKey + "</html>")}, false},
	}
	upstreams := map[string]func(url string) sandbox.Upstream{
		"rapidapi": func(u string) sandbox.Upstream {
			return sandbox.NewRapidAPI(u, sandbox.RemoteOptions{Key: leakKey, Retries: -1, Sleep: noSleep, PerSecond: 1000})
		},
		"toolbench": func(u string) sandbox.Upstream {
			return sandbox.NewToolBenchServer(u, sandbox.RemoteOptions{Key: leakKey, Retries: -1, Sleep: noSleep, PerSecond: 1000})
		},
	}
	for _, kind := range []string{"rapidapi", "toolbench"} {
		for _, mode := range []sandbox.Mode{sandbox.ModeRecord, sandbox.ModeLive} {
			for _, tc := range cases {
				t.Run(fmt.Sprintf("%s/%s/%s", kind, mode, tc.name), func(t *testing.T) {
					up := newUpstream(t, func(w http.ResponseWriter, r *http.Request) {
						body := tc.body
						if kind == "toolbench" && tc.status == 200 {
							// ToolBench's server wraps the API's answer as text;
							// an invalid key comes back in its error field.
							env := map[string]any{"error": "", "response": string(tc.body)}
							if !tc.recorded {
								env = map[string]any{"error": "invalid toolbench_key " + leakKey, "response": ""}
							}
							body, _ = json.Marshal(env)
						}
						if tc.status == 429 {
							w.Header().Set("Retry-After", "7")
						}
						w.WriteHeader(tc.status)
						_, _ = w.Write(body)
					})
					dir := t.TempDir()
					var logs bytes.Buffer
					store, err := cache.Open(dir, cache.Options{})
					require.NoError(t, err)
					t.Cleanup(func() { _ = store.Close() })
					c, err := cache.NewCache(cache.CacheOptions{Store: store})
					require.NoError(t, err)
					m, err := mocks.New(mocks.Options{})
					require.NoError(t, err)
					e, err := sandbox.New(sandbox.Options{
						Catalog: demoCatalog(t), StandIns: m, Mode: mode,
						Recordings: assemble.Recordings{Cache: c}, Upstream: upstreams[kind](up.URL),
						LooksLikeError: cache.LooksLikeUpstreamError,
						Logger:         slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
					})
					require.NoError(t, err)

					res, err := e.Call(context.Background(), sandbox.Request{Tool: "demo_weather", API: "current", Arguments: map[string]any{"city": "Lisbon"}})
					require.EqualValues(t, 1, up.hits.Load(), "the upstream was asked")
					if err != nil {
						requireNoKey(t, "error", []byte(err.Error()))
					} else {
						answer, merr := json.Marshal(res)
						require.NoError(t, merr)
						requireNoKey(t, "answer", answer)
						if res.Source == sandbox.SourceRemote {
							require.Contains(t, string(res.Response), sandbox.Redacted, "the echo was scrubbed, not dropped")
						}
						if mode == sandbox.ModeLive && kind == "rapidapi" {
							require.Equal(t, tc.status, res.Status, "live mode passes the status through")
						}
						if mode == sandbox.ModeLive && tc.status == 429 && kind == "rapidapi" {
							require.Equal(t, "7", res.Header.Get("Retry-After"), "the API's Retry-After comes along")
						}
					}
					require.NoError(t, store.Close())
					files := 0
					require.NoError(t, filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
						require.NoError(t, err)
						if info.IsDir() {
							return nil
						}
						data, err := os.ReadFile(p)
						require.NoError(t, err)
						requireNoKey(t, p, data)
						if strings.HasSuffix(p, ".json") && !strings.HasPrefix(filepath.Base(p), ".") {
							files++
							require.Contains(t, string(data), sandbox.Redacted)
						}
						return nil
					}))
					wantFiles := 0
					if tc.recorded && mode == sandbox.ModeRecord {
						wantFiles = 1
					}
					require.Equal(t, wantFiles, files, "recorded entries")
					requireNoKey(t, "log", logs.Bytes())
				})
			}
		}
	}
}
