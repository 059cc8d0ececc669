package main

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/toolset/loader"
)

// shippedRecordings is the folder the binary embeds.
const shippedRecordings = "../../fixtures/recordings"

// readmeExample is one call of the README's tour or docs/toolserver.md's
// "Transports" section.
type readmeExample struct {
	name   string
	method string
	path   string
	header map[string]string
	body   string
	status int                        // HTTP status
	inner  func(v map[string]any)     // the answer's own fields, when it has them
	pluck  func(v map[string]any) any // the part fake mode must answer the same
}

func (ex readmeExample) do(t *testing.T, addr string) (int, map[string]any) {
	t.Helper()
	var body io.Reader
	if ex.body != "" {
		body = strings.NewReader(ex.body)
	}
	req, err := http.NewRequest(ex.method, "http://"+addr+ex.path, body)
	require.NoError(t, err)
	for k, v := range ex.header {
		req.Header.Set(k, v)
	}
	resp, err := bounded.Client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(b, &v), "%s", b)
	return resp.StatusCode, v
}

// TestReplayAnswersTheReadmeExamples starts replay mode with no -cache:
// the example calls of the README and docs/toolserver.md are answered from the shipped recordings,
// with what the stand-ins answer in fake mode.
func TestReplayAnswersTheReadmeExamples(t *testing.T) {
	response := func(v map[string]any) any { return v["response"] }
	whole := func(v map[string]any) any { return v }
	examples := []readmeExample{
		{name: "native", method: "POST", path: "/v1/call", header: map[string]string{"Content-Type": "application/json"},
			body:   `{"tool":"skyscanner80","api":"flights_auto_complete","arguments":{"query":"Lisbon"},"session":"demo"}`,
			status: 200, pluck: response,
			inner: func(v map[string]any) {
				require.EqualValues(t, 200, v["status"])
				require.Equal(t, "cache", v["source"])
			}},
		{name: "native refusal", method: "POST", path: "/v1/call",
			body:   `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"ZZ"}}`,
			status: 200, pluck: response,
			inner: func(v map[string]any) {
				require.EqualValues(t, 404, v["status"])
				require.Equal(t, "cache", v["source"])
			}},
		{name: "native refusal passed through", method: "POST", path: "/v1/call", header: map[string]string{"X-Understudy-Status": "passthrough"},
			body:   `{"tool":"iso_codes","api":"country_by_code","arguments":{"code":"ZZ"}}`,
			status: 404, pluck: response},
		{name: "StableToolBench", method: "POST", path: "/virtual", header: map[string]string{"Content-Type": "application/json"},
			body:   `{"category":"Travel","tool_name":"skyscanner80","api_name":"flights_auto_complete","tool_input":"{\"query\": \"Lisbon\"}","strip":"","toolbench_key":""}`,
			status: 200, pluck: whole,
			inner: func(v map[string]any) { require.Equal(t, "", v["error"]) }},
		{name: "RapidAPI wire", method: "GET", path: "/api/v1/flights/auto-complete?query=Lisbon",
			header: map[string]string{"X-RapidAPI-Host": "skyscanner80.p.rapidapi.com", "X-RapidAPI-Key": "anything"},
			status: 200, pluck: whole},
	}
	replay := start(t, []string{"-mode", "replay"}, flags{})
	fake := start(t, nil, flags{})
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			code, got := ex.do(t, replay.addr)
			require.Equal(t, ex.status, code, "%v", got)
			if ex.inner != nil {
				ex.inner(got)
			}
			_, want := ex.do(t, fake.addr)
			require.NotEmpty(t, ex.pluck(got))
			require.Equal(t, ex.pluck(want), ex.pluck(got), "replay answers what the stand-ins answer")
		})
	}

	// A call nobody recorded is still a miss: the answers above came
	// from the recordings, not from a stand-in.
	code, got := readmeExample{method: "POST", path: "/v1/call",
		body: `{"tool":"skyscanner80","api":"flights_auto_complete","arguments":{"query":"Oslo"}}`}.do(t, replay.addr)
	require.Equal(t, http.StatusNotFound, code)
	require.Contains(t, got["type"], "no-recording")
}

// copyDir copies the recordings folder to a fresh directory.
func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	require.NoError(t, os.CopyFS(to, os.DirFS(from)))
	return to
}

func TestVerifyRecordings(t *testing.T) {
	const keyEnv = "UNDERSTUDY_VERIFY_TEST_KEY"
	t.Setenv(keyEnv, "planted-key-7c1f9e")

	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-verify-recordings", shippedRecordings, "-key-env", keyEnv}, &stdout, &stderr), stderr.String())
	require.Regexp(t, `^toolserver: \S+: \d+ entries verified, no problems\n$`, stdout.String())
	require.Empty(t, stderr.String())

	// A tampered entry (body edited, checksum left) and a planted key
	// (a recording that really holds it, checksum and all).
	dir := copyDir(t, shippedRecordings)
	var tampered string
	require.NoError(t, fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || tampered != "" || !strings.HasSuffix(p, ".json") {
			return err
		}
		tampered = p
		return nil
	}))
	path := filepath.Join(dir, filepath.FromSlash(tampered))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	m["response"] = map[string]any{"edited": true}
	b, err = json.MarshalIndent(m, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))

	cat, err := loader.Builtin()
	require.NoError(t, err)
	args, err := cat.API("iso_codes", "country_by_code").Validate(map[string]any{"code": "PT"})
	require.NoError(t, err)
	store, err := cache.Open(dir, cache.Options{})
	require.NoError(t, err)
	k := cache.KeyOf("iso_codes", "country_by_code", args)
	require.NoError(t, store.Put(k, cache.Entry{Tool: k.Tool(), API: k.API(), Arguments: []byte(k.Args()),
		Response: []byte(`{"error":"bad key planted-key-7c1f9e"}`), Source: "remote"}))
	require.NoError(t, store.Close())

	stdout.Reset()
	stderr.Reset()
	require.Equal(t, 1, run([]string{"-verify-recordings", dir, "-key-env", keyEnv}, &stdout, &stderr))
	require.Empty(t, stdout.String())
	out := stderr.String()
	require.Contains(t, out, tampered+": checksum mismatch")
	require.Contains(t, out, k.Hash()[:2]+"/"+k.Hash()+".json: holds the API key")
	require.Contains(t, out, ": 2 problems in ")

	// Without the key in the environment the planted key is not known,
	// the tampered entry still is.
	t.Setenv(keyEnv, "")
	stderr.Reset()
	require.Equal(t, 1, run([]string{"-verify-recordings", dir, "-key-env", keyEnv}, &stdout, &stderr))
	require.Contains(t, stderr.String(), ": 1 problem in ")

	require.Equal(t, 2, run([]string{"-verify-recordings", filepath.Join(dir, "absent")}, &stdout, &stderr))
}
