package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset/loader"
)

// exampleOf is the value a generated client (or Swagger UI's "Try it
// out") fills a field with: the schema's default, else its example, else
// a value of its type.
func exampleOf(s *openapi3.Schema) any {
	switch {
	case s == nil:
		return "x"
	case s.Default != nil:
		return s.Default
	case s.Example != nil:
		return s.Example
	case len(s.Enum) > 0:
		return s.Enum[0]
	case s.Type.Is("integer"), s.Type.Is("number"):
		return 1
	case s.Type.Is("boolean"):
		return true
	case s.Type.Is("array"):
		return []any{}
	case s.Type.Is("object"):
		return map[string]any{}
	}
	return "x"
}

// clientRequest builds the request of one operation the way a client
// generated from the document does: the servers URL, the path with its
// parameters filled in, the required query and header parameters, and a
// JSON body of the required properties. args are the same values as call
// arguments, for the native call it is compared with.
func clientRequest(t *testing.T, doc *openapi3.T, path, method string, op *openapi3.Operation) (*http.Request, map[string]any) {
	t.Helper()
	args := map[string]any{}
	q := url.Values{}
	hdr := http.Header{}
	for _, pr := range op.Parameters {
		p := pr.Value
		if !p.Required {
			continue
		}
		v := exampleOf(p.Schema.Value)
		args[p.Name] = v
		text := fmt.Sprint(v)
		switch p.In {
		case "path":
			path = strings.ReplaceAll(path, "{"+p.Name+"}", url.PathEscape(text))
		case "query":
			q.Set(p.Name, text)
		case "header":
			hdr.Set(p.Name, text)
		}
	}
	var body []byte
	if rb := op.RequestBody; rb != nil {
		props := map[string]any{}
		s := rb.Value.Content.Get("application/json").Schema.Value
		for _, name := range s.Required {
			props[name] = exampleOf(s.Properties[name].Value)
			args[name] = props[name]
		}
		var err error
		body, err = json.Marshal(props)
		require.NoError(t, err)
	}
	u := strings.TrimRight(doc.Servers[0].URL, "/") + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header = hdr
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-RapidAPI-Key", "any") // the document's security scheme
	return req, args
}

// TestGeneratedClientCallsEveryExportedPath: every operation of GET
// /v1/tools?format=openapi, called as a generated client calls it — at
// the document's servers URL, at the path as written, without
// X-RapidAPI-Host — is served as that API: the same status and answer
// as the native call of its operationId with the same arguments.
func TestGeneratedClientCallsEveryExportedPath(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  func(t *testing.T) assemble.Config
	}{
		{"built-in catalog", func(t *testing.T) assemble.Config { return assemble.Config{} }},
		{"ToolBench tree", func(t *testing.T) assemble.Config {
			cat, err := loader.Load([]string{"../../toolset/testdata/toolbench"}, false)
			require.NoError(t, err)
			return assemble.Config{Catalog: cat}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts, _ := newServer(t, tc.cfg(t))
			code, _, raw := do(t, "GET", ts.URL+"/v1/tools?format=openapi", "", "", nil)
			require.Equal(t, http.StatusOK, code)
			doc, err := openapi3.NewLoader().LoadFromData(raw)
			require.NoError(t, err)
			require.NoError(t, doc.Validate(context.Background()))
			require.Equal(t, ts.URL, doc.Servers[0].URL, "the servers entry is the address asked")
			n := 0
			for _, path := range slices.Sorted(func(yield func(string) bool) {
				for p := range doc.Paths.Map() {
					if !yield(p) {
						return
					}
				}
			}) {
				for method, op := range doc.Paths.Value(path).Operations() {
					n++
					req, args := clientRequest(t, doc, path, method, op)
					session := "client-" + op.OperationID
					req.Header.Set("X-Session-Id", session)
					resp, err := ts.Client().Do(req)
					require.NoError(t, err)
					var got bytes.Buffer
					_, err = got.ReadFrom(resp.Body)
					resp.Body.Close()
					require.NoError(t, err)
					require.NotContains(t, []string{"/problems/no-route", "/problems/unknown-endpoint", "/problems/method-not-allowed", "/problems/unknown-host"},
						problemType(got.Bytes()), "%s %s (%s): %s", method, path, op.OperationID, got.String())

					tool, api, _ := strings.Cut(op.OperationID, ".")
					in, err := json.Marshal(map[string]any{"tool": tool, "api": api, "arguments": args, "session": "native-" + op.OperationID})
					require.NoError(t, err)
					code, _, nat := do(t, "POST", ts.URL+"/v1/call?", "application/json", string(in), map[string]string{"X-Understudy-Status": "passthrough"})
					if code >= 400 && problemType(nat) != "" {
						// The engine refused the arguments: the client hears the same problem.
						require.Equal(t, code, resp.StatusCode, "%s %s", method, path)
						require.Equal(t, problemDetail(nat), problemDetail(got.Bytes()), "%s %s", method, path)
						continue
					}
					var env struct {
						Response json.RawMessage `json:"response"`
						Status   int             `json:"status"`
					}
					require.NoError(t, json.Unmarshal(nat, &env), string(nat))
					require.Equal(t, env.Status, resp.StatusCode, "%s %s (%s): %s", method, path, op.OperationID, got.String())
					if method != http.MethodHead {
						require.JSONEq(t, string(env.Response), got.String(), "%s %s (%s)", method, path, op.OperationID)
					}
				}
			}
			require.Positive(t, n)
		})
	}
}

func problemType(body []byte) string {
	var p struct{ Type string }
	_ = json.Unmarshal(body, &p)
	return p.Type
}

func problemDetail(body []byte) string {
	var p struct{ Detail string }
	_ = json.Unmarshal(body, &p)
	return p.Detail
}
