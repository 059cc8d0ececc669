package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
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
	require.Contains(t, w.Body.String(), "/problems/internal")
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
