package server_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset/loader"
)

// edgeTool has path templates the built-in catalog lacks: a parameter name
// that is not a Go identifier, and two templates that overlap with neither
// more specific than the other.
const edgeTool = `{
  "tool_name": "Edge Paths",
  "tool_description": "Path templates at the edge of what ServeMux patterns take.",
  "title": "Edge Paths",
  "host": "edge-paths.p.rapidapi.com",
  "api_list": [
    {"name": "item", "url": "https://edge-paths.p.rapidapi.com/items/{item-id}", "method": "GET", "description": "An item.",
     "required_parameters": [{"name": "item-id", "type": "STRING", "description": "The item"}], "optional_parameters": [],
     "x-example-response": {"ok": true}},
    {"name": "left", "url": "https://edge-paths.p.rapidapi.com/a/{x}", "method": "GET", "description": "Left.",
     "required_parameters": [{"name": "x", "type": "STRING", "description": "x"}], "optional_parameters": [],
     "x-example-response": {"side": "left"}},
    {"name": "right", "url": "https://edge-paths.p.rapidapi.com/{y}/b", "method": "GET", "description": "Right.",
     "required_parameters": [{"name": "y", "type": "STRING", "description": "y"}], "optional_parameters": [],
     "x-example-response": {"side": "right"}}
  ]
}`

func TestWireEdgePaths(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Other")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "edge_paths.json"), []byte(edgeTool), 0o644))
	c, err := loader.Load([]string{filepath.Dir(dir)}, false)
	require.NoError(t, err)
	st, err := assemble.Build(assemble.Config{Catalog: c})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	var log bytes.Buffer
	h, err := server.New(st.Engine, server.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	require.NoError(t, err, "overlapping templates do not stop the server")
	require.Empty(t, log.String(), "a host's routes are built on its first request")
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)

	hdr := map[string]string{"X-RapidAPI-Host": "edge-paths.p.rapidapi.com"}
	code, _, body := do(t, "GET", ts.URL+"/items/i-42", "", "", hdr)
	require.Equal(t, 200, code, string(body))
	require.Contains(t, log.String(), "edge_paths.right", "the endpoint left out is logged")
	require.JSONEq(t, `{"item-id":"i-42"}`, string(lastCall(t, st).Arguments), "the parameter keeps its name")

	code, _, body = do(t, "GET", ts.URL+"/a/1", "", "", hdr)
	require.Equal(t, 200, code, string(body))
	require.Equal(t, "left", lastCall(t, st).API)
	code, _, body = do(t, "GET", ts.URL+"/c/b", "", "", hdr)
	require.Equal(t, 404, code, string(body))
	require.Contains(t, string(body), "unknown-endpoint")
}

// lastCall is the last call the engine traced (wire calls without
// X-Session-Id share the session "").
func lastCall(t *testing.T, st *assemble.Stack) sandbox.CallRecord {
	t.Helper()
	trace, ok := st.Engine.Session("")
	require.True(t, ok)
	require.NotEmpty(t, trace.Calls)
	return trace.Calls[len(trace.Calls)-1]
}

// TestWireMethods: on the RapidAPI wire HEAD is served as GET without a
// body, and a method the path's endpoint lacks is a 405 naming the ones
// it has in Allow, not a 404.
func TestWireMethods(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	iso := map[string]string{"X-RapidAPI-Host": "iso-codes.understudy.test"}
	py := map[string]string{"X-RapidAPI-Host": "python-interpreter.understudy.test"}

	code, getHdr, getBody := do(t, "GET", ts.URL+"/countries/PT", "", "", iso)
	require.Equal(t, 200, code, string(getBody))
	code, hdr, body := do(t, "HEAD", ts.URL+"/countries/PT", "", "", iso)
	require.Equal(t, 200, code)
	require.Empty(t, body)
	require.Equal(t, getHdr.Get("Content-Type"), hdr.Get("Content-Type"))
	require.Equal(t, getHdr.Get("X-Understudy-Source"), hdr.Get("X-Understudy-Source"))
	require.Equal(t, strconv.Itoa(len(getBody)), hdr.Get("Content-Length"), "the length GET's body has")
	code, _, _ = do(t, "HEAD", ts.URL+"/countries/ZZ", "", "", iso)
	require.Equal(t, 404, code, "the API's own status")

	for _, tc := range []struct {
		name, method, path string
		hdr                map[string]string
		allow              string
	}{
		{"POST on a GET endpoint", "POST", "/countries/PT", iso, "GET, HEAD"},
		{"DELETE on a GET endpoint", "DELETE", "/countries/PT", iso, "GET, HEAD"},
		{"GET on a POST endpoint", "GET", "/run", py, "POST"},
		{"HEAD on a POST endpoint", "HEAD", "/run", py, "POST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, hdr, body := do(t, tc.method, ts.URL+tc.path, "", "", tc.hdr)
			require.Equal(t, http.StatusMethodNotAllowed, code, string(body))
			require.Equal(t, tc.allow, hdr.Get("Allow"))
			if tc.method != "HEAD" {
				require.Equal(t, "application/problem+json", hdr.Get("Content-Type"))
				require.Contains(t, string(body), "/problems/method-not-allowed")
				require.Contains(t, string(body), "allowed: "+tc.allow)
			}
		})
	}
	code, _, body = do(t, "GET", ts.URL+"/no/such/path", "", "", iso)
	require.Equal(t, 404, code, "a path no method serves stays a 404")
	require.Contains(t, string(body), "unknown-endpoint")
}
