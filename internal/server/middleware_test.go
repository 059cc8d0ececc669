package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRecoverPanics(t *testing.T) {
	h := recoverPanics(slog.New(slog.DiscardHandler))(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
	require.Equal(t, http.StatusInternalServerError, w.Code)
	require.Equal(t, "application/problem+json", w.Header().Get("Content-Type"))
	require.Contains(t, w.Body.String(), "problem-internal")
	require.NotContains(t, w.Body.String(), "boom", "the panic value stays in the log")

	abort := recoverPanics(slog.New(slog.DiscardHandler))(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }))
	require.PanicsWithValue(t, http.ErrAbortHandler, func() { abort.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil)) })
}

func TestLimitBody(t *testing.T) {
	h := limitBody(4)(wrap(func(r *http.Request) (any, error) {
		b, err := io.ReadAll(r.Body)
		return string(b), err
	}))
	for _, tc := range []struct {
		body   string
		status int
		want   string
	}{
		{"1234", 200, `"1234"`},
		{"12345", 413, "larger than 4 bytes"},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/", strings.NewReader(tc.body)))
		require.Equal(t, tc.status, w.Code)
		require.Contains(t, w.Body.String(), tc.want)
	}
}

func TestWirePattern(t *testing.T) {
	for _, tc := range []struct {
		template, pattern string
		params            []string
	}{
		{"/v1/resize", "/v1/resize", nil},
		{"/json/", "/json", nil},
		{"/", "/{$}", nil},
		{"", "/{$}", nil},
		{"/countries/{code}", "/countries/{p0}", []string{"code"}},
		{"/LongWeekend/{year}/{countryCode}", "/LongWeekend/{p0}/{p1}", []string{"year", "countryCode"}},
		{"/items/{item-id}/reviews", "/items/{p0}/reviews", []string{"item-id"}},
		// Not a whole segment: a literal, braces and all (escaped for ServeMux).
		{"/files/{name}.json", "/files/%7Bname%7D.json", nil},
	} {
		pattern, params := wirePattern(tc.template)
		require.Equal(t, tc.pattern, pattern, tc.template)
		require.Equal(t, tc.params, params, tc.template)
		mux := http.NewServeMux()
		require.NoError(t, handle(mux, "GET h"+pattern, http.NotFoundHandler()), "ServeMux takes %s", pattern)
	}
	mux := http.NewServeMux()
	require.NoError(t, handle(mux, "GET h/a/{p0}", http.NotFoundHandler()))
	require.Error(t, handle(mux, "GET h/{p0}/b", http.NotFoundHandler()), "overlapping templates are an error, not a panic")
}

func TestWirePath(t *testing.T) {
	for _, tc := range []struct {
		path, want string
		clean      bool
	}{
		{"/v1/info", "/v1/info", true},
		{"/v1/info/", "/v1/info", true},
		{"/", "/", true},
		{"/countries/P%54", "/countries/P%54", true},
		{"/a//b", "/a//b", false},
		{"/a/./b", "/a/./b", false},
		{"/a/../b", "/a/../b", false},
	} {
		r := httptest.NewRequest("GET", tc.path, nil)
		got, clean := wirePath(r.URL)
		require.Equal(t, tc.want, got, tc.path)
		require.Equal(t, tc.clean, clean, tc.path)
	}
}

// FuzzWirePattern: any path template of an imported catalog gives a
// pattern that either registers or is refused with an error, never a
// panic; a registered one routes the template's own path (parameters
// filled in) to itself.
func FuzzWirePattern(f *testing.F) {
	for _, s := range []string{"/v1/resize", "/json/", "/countries/{code}", "/{year}/{countryCode}", "/files/{name}.json", "/a//b", "/{}", "/%7B", "/a/../b", "/é/{ü}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, template string) {
		pattern, params := wirePattern(template)
		require.True(t, strings.HasPrefix(pattern, "/"), pattern)
		mux := http.NewServeMux()
		if handle(mux, "GET h"+pattern, http.NotFoundHandler()) != nil {
			return
		}
		segs := strings.Split(strings.Trim(template, "/"), "/")
		for i, s := range segs {
			if len(s) >= 2 && s[0] == '{' && s[len(s)-1] == '}' {
				segs[i] = "v"
			} else {
				segs[i] = url.PathEscape(s)
			}
		}
		r := httptest.NewRequest("GET", "http://h/", nil)
		p := "/" + strings.Join(segs, "/")
		r.URL.RawPath, r.URL.Path = p, ""
		if u, err := url.PathUnescape(p); err == nil {
			r.URL.Path = u
		} else {
			return
		}
		if got, clean := wirePath(r.URL); !clean || got != p {
			return // a template with empty, "." or ".." segments names no endpoint
		}
		_, matched := mux.Handler(r)
		require.Equal(t, "GET h"+pattern, matched, "template %q, path %q, %d parameters", template, p, len(params))
	})
}
