package server_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/sandbox"
)

// emittedProblemTypes is every problem name the server can answer with:
// the kinds of engine errors, and every name written in a newProblem call
// of this package's code (read from its source, so that a problem added
// tomorrow is covered without a list to keep).
func emittedProblemTypes(t *testing.T) []string {
	t.Helper()
	names := map[string]bool{}
	for _, k := range []sandbox.Kind{sandbox.KindUnknownAPI, sandbox.KindInvalidArguments, sandbox.KindRateLimited,
		sandbox.KindNoRecording, sandbox.KindUpstreamFailed, sandbox.KindCancelled, sandbox.KindUnavailable, sandbox.KindInternal} {
		names[string(k)] = true
	}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	literals := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "newProblem" {
				return true
			}
			if lit, ok := call.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				name, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				names[name] = true
				literals++
			}
			return true
		})
	}
	require.Greater(t, literals, 20, "the server's own problems were found in its source")
	return slices.Sorted(func(yield func(string) bool) {
		for n := range names {
			if !yield(n) {
				return
			}
		}
	})
}

// TestEveryProblemTypeResolves follows the type of every problem the
// server can emit, resolved against a request URL as a client does, to a
// page the same server serves, in text and in HTML.
func TestEveryProblemTypeResolves(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	base, err := url.Parse(ts.URL + "/v1/call")
	require.NoError(t, err)
	for _, name := range emittedProblemTypes(t) {
		typ := server.ProblemPath + name
		ref, err := url.Parse(typ)
		require.NoError(t, err, name)
		page := base.ResolveReference(ref).String()
		require.Equal(t, ts.URL+"/problems/"+name, page)
		for _, accept := range []string{"", "text/html,application/xhtml+xml,*/*;q=0.8"} {
			req, err := http.NewRequest(http.MethodGet, page, nil)
			require.NoError(t, err)
			if accept != "" {
				req.Header.Set("Accept", accept)
			}
			resp, err := ts.Client().Do(req)
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode, "%s (Accept %q): %s", name, accept, body)
			if accept == "" {
				require.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
				require.Regexp(t, `^\d{3}`, string(body), "%s: the page starts with its status", name)
			} else {
				require.Equal(t, "text/html; charset=utf-8", resp.Header.Get("Content-Type"))
				require.Contains(t, string(body), "<h1>problem-"+name+"</h1>")
			}
		}
	}
}

func TestProblemIndexAndMisses(t *testing.T) {
	ts, _ := newServer(t, assemble.Config{})
	code, _, body := do(t, "GET", ts.URL+"/problems", "", "", nil)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, string(body), "- [invalid-arguments](/problems/invalid-arguments): 400: the arguments do not fit")
	code, hdr, body := do(t, "GET", ts.URL+"/problems/teapot", "", "", nil)
	require.Equal(t, http.StatusNotFound, code)
	require.Equal(t, "application/problem+json", hdr.Get("Content-Type"))
	require.Contains(t, string(body), `no problem type is named \"teapot\"`)
	code, _, body = do(t, "GET", ts.URL+"/problems/rate-limited", "", "", map[string]string{"Accept": "text/html"})
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, string(body), "(<code>-limit</code>)")
}
