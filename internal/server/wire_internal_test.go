package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/toolset"
)

// names lists the parameters a pattern's wildcards bind, in order.
func names(binds []segmentMatcher) []string {
	var out []string
	for _, m := range binds {
		out = append(out, m.names...)
	}
	return out
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
		// Parameters inside a segment: the segment is a wildcard whose
		// matcher binds them (NYT Top Stories, APIs-guru style specs).
		{"/files/{name}.json", "/files/{p0}", []string{"name"}},
		{"/svc/topstories/v2/{section}.{format}", "/svc/topstories/v2/{p0}", []string{"section", "format"}},
		{"/lists/{date}/{list}.json", "/lists/{p0}/{p1}", []string{"date", "list"}},
		// Not a parameter: unpaired braces, an empty name, two parameters
		// with nothing between them stay literal (escaped for ServeMux).
		{"/a/x{b", "/a/x%7Bb", nil},
		{"/a/x{}y", "/a/x%7B%7Dy", nil},
		{"/a/{b}{c}.json", "/a/%7Bb%7D%7Bc%7D.json", nil},
	} {
		pattern, binds := wirePattern(tc.template)
		require.Equal(t, tc.pattern, pattern, tc.template)
		require.Equal(t, tc.params, names(binds), tc.template)
		mux := http.NewServeMux()
		require.NoError(t, handle(mux, "GET h"+pattern, http.NotFoundHandler()), "ServeMux takes %s", pattern)
	}
	mux := http.NewServeMux()
	require.NoError(t, handle(mux, "GET h/a/{p0}", http.NotFoundHandler()))
	require.Error(t, handle(mux, "GET h/{p0}/b", http.NotFoundHandler()), "overlapping templates are an error, not a panic")
}

func TestSegmentMatcher(t *testing.T) {
	for _, tc := range []struct {
		template, segment string
		want              map[string]string // nil: no match
	}{
		{"{section}.{format}", "arts.json", map[string]string{"section": "arts", "format": "json"}},
		{"{section}.{format}", "a.b.json", map[string]string{"section": "a", "format": "b.json"}},
		{"{section}.{format}", "arts", nil},
		{"{section}.{format}", ".json", nil},
		{"{section}.{format}", "arts.", nil},
		{"{provider}.json", "nytimes.json", map[string]string{"provider": "nytimes"}},
		{"{provider}.json", ".json", nil},
		{"{provider}.json", "nytimes.xml", nil},
		{"v{major}", "v2", map[string]string{"major": "2"}},
		{"v{major}", "2", nil},
		{"{id}", "x", map[string]string{"id": "x"}},
		{"@{user}-{n}.txt", "@ann-3.txt", map[string]string{"user": "ann", "n": "3"}},
	} {
		m, ok := parseSegment(tc.template)
		require.True(t, ok, tc.template)
		got := map[string]string{}
		if !m.match(tc.segment, got) {
			require.Nil(t, tc.want, "%s against %s", tc.segment, tc.template)
			require.Empty(t, got, "a failed match binds nothing")
			continue
		}
		require.Equal(t, tc.want, got, "%s against %s", tc.segment, tc.template)
	}
}

// FuzzSegmentMatcher: the matcher agrees with the regular expression a
// segment template means (each parameter one or more bytes, the leftmost
// shortest split), and values put back between the literals rebuild the
// segment.
func FuzzSegmentMatcher(f *testing.F) {
	for _, s := range [][2]string{
		{"{section}.{format}", "arts.json"}, {"{p}.json", "x.json"}, {"v{n}", "v1"}, {"{a}-{b}-{c}", "1-2-3-4"},
		{"{a}{b}", "xy"}, {"{", "{"}, {"}{a}", "}x"}, {"{a}}", "x}"}, {"x{}", "x"}, {"{a}.", "."},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, template, segment string) {
		m, ok := parseSegment(template)
		if !ok {
			return
		}
		require.Len(t, m.literals, len(m.names)+1)
		vals, ok := m.split(segment)
		if ok {
			var rebuilt strings.Builder
			for i, v := range vals {
				require.NotEmpty(t, v)
				rebuilt.WriteString(m.literals[i] + v)
			}
			rebuilt.WriteString(m.literals[len(vals)])
			require.Equal(t, segment, rebuilt.String())
		}
		if !utf8.ValidString(template) || !utf8.ValidString(segment) {
			return // regexp reads runes; paths are bytes
		}
		var re strings.Builder
		re.WriteString("^")
		for i := range m.names {
			re.WriteString(regexp.QuoteMeta(m.literals[i]) + "((?s).+?)")
		}
		re.WriteString(regexp.QuoteMeta(m.literals[len(m.names)]) + "$")
		want := regexp.MustCompile(re.String()).FindStringSubmatch(segment)
		require.Equal(t, want != nil, ok, "template %q, segment %q", template, segment)
		for i, v := range vals {
			require.Equal(t, want[i+1], v, "template %q, segment %q", template, segment)
		}
	})
}

// FuzzWirePattern: any path template of an imported catalog gives a
// pattern that either registers or is refused with an error, never a
// panic; a registered one routes the template's own path (parameters
// filled in) to itself, and the segment matchers bind the values.
func FuzzWirePattern(f *testing.F) {
	for _, s := range []string{"/v1/resize", "/json/", "/countries/{code}", "/{year}/{countryCode}", "/files/{name}.json",
		"/svc/topstories/v2/{section}.{format}", "/a//b", "/{}", "/%7B", "/a/../b", "/é/{ü}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, template string) {
		pattern, binds := wirePattern(template)
		require.True(t, strings.HasPrefix(pattern, "/"), pattern)
		mux := http.NewServeMux()
		if handle(mux, "GET h"+pattern, http.NotFoundHandler()) != nil {
			return
		}
		segs := strings.Split(strings.Trim(template, "/"), "/")
		k := 0
		for i, s := range segs {
			m, ok := parseSegment(s)
			if !ok {
				segs[i] = url.PathEscape(s)
				continue
			}
			require.Equal(t, m.names, binds[k].names)
			k++
			var b strings.Builder
			for j := range m.names {
				v := "v" + string(rune('0'+j%10))
				b.WriteString(m.literals[j] + v)
			}
			b.WriteString(m.literals[len(m.names)])
			segs[i] = url.PathEscape(b.String())
		}
		require.Equal(t, len(binds), k, "one wildcard per parameter segment")
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
		require.Equal(t, "GET h"+pattern, matched, "template %q, path %q, %d wildcards", template, p, len(binds))
	})
}

// FuzzWireBody: any wire body, sent as a form or as JSON, to an API that
// takes an object or one that takes an array, gives arguments that
// re-encode as JSON or a 4xx problem, never a panic or a 5xx. A form's
// arguments are exactly its fields.
func FuzzWireBody(f *testing.F) {
	for _, s := range []string{`q=Hello%2C+world&target=es`, `q=a&q=b`, `q=%zz`, `;`, `[{"op":"remove","path":"/a"}]`, `[`, `{"a":1}`, ` [1] x`, `[9007199254740993]`, ``} {
		f.Add(true, []byte(s))
		f.Add(false, []byte(s))
	}
	object := &toolset.API{Name: "object", Method: "POST"}
	array := &toolset.API{Name: "array", Method: "POST", Params: []*toolset.Param{{Name: "body", In: toolset.InBody, Kind: toolset.KindArray}}}
	f.Fuzz(func(t *testing.T, form bool, body []byte) {
		for _, api := range []*toolset.API{object, array} {
			r := httptest.NewRequest("POST", "/x", bytes.NewReader(body))
			if form {
				r.Header.Set("Content-Type", formMediaType)
			} else {
				r.Header.Set("Content-Type", "application/json-patch+json")
			}
			args := map[string]any{}
			err := wireBody(r, api, args)
			if err != nil {
				p := problemOf(err)
				require.True(t, p.Status >= 400 && p.Status < 500, "%q: a %d", body, p.Status)
				continue
			}
			_, err = json.Marshal(args)
			require.NoError(t, err, "%q", body)
			if form {
				vals, err := url.ParseQuery(string(body))
				require.NoError(t, err)
				require.Len(t, args, len(vals), "%q", body)
			}
		}
	})
}
