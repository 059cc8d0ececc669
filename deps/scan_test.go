package deps

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
)

// decodedKeys is what edgeKeys must equal: the keys of the values at
// paths in the response decoded whole.
func decodedKeys(body []byte, paths [][]pathStep) ([]string, bool) {
	doc, err := canon.Decode(body)
	if err != nil {
		return nil, false
	}
	var keys []string
	for _, steps := range paths {
		for _, v := range valuesAt(doc, steps) {
			if k, ok := ScalarKey(v); ok {
				keys = append(keys, k)
			}
		}
	}
	return keys, true
}

// parsePaths reads paths separated by "|", leaving out those parsePath
// refuses (NewTracker does too).
func parsePaths(list string) [][]pathStep {
	var out [][]pathStep
	for _, p := range strings.Split(list, "|") {
		if steps, err := parsePath(p); err == nil {
			out = append(out, steps)
		}
	}
	return out
}

func TestEdgeKeys(t *testing.T) {
	cases := []struct {
		name, body, paths string
		want              []string
		ok                bool
	}{
		{"nested array", `{"data":[{"id":"A","n":{"x":1}},{"id":"B"},{"id":""},{"id":null},{"id":7}]}`, "data[].id", []string{"A", "B", "7"}, true},
		{"bare array", ` [ {"c":"PT"} , {"c":"ES"} ] `, "[].c", []string{"PT", "ES"}, true},
		{"nested arrays", `{"a":[[1,2],[3]],"b":true}`, "a[][]|b", []string{"1", "2", "3", "true"}, true},
		{"later key wins", `{"id":"old","x":{"id":"deep"},"id":"new"}`, "id", []string{"new"}, true},
		{"later key wins inside", `{"d":[{"id":"a","id":"b"}],"d":[{"id":"c"}]}`, "d[].id", []string{"c"}, true},
		{"escaped key", `{"\u0069d":"x\"y","id2":"\u00e9"}`, "id|id2", []string{"x\"y", "é"}, true},
		{"big integer keeps digits", `{"id":9007199254740993,"f":1.50,"e":1e2}`, "id|f|e", []string{"9007199254740993", "1.5", "100"}, true},
		{"path order, then document order", `{"a":[{"x":"1","y":"2"},{"x":"3","y":"4"}]}`, "a[].y|a[].x", []string{"2", "4", "1", "3"}, true},
		{"type mismatch gives nothing", `{"a":{"id":"x"},"b":[1]}`, "a[].id|b.id|a.id.z", nil, true},
		{"number out of range refused", `{"id":"x","n":1e999}`, "id", nil, false},
		{"trailing data refused", `{"id":"x"} {}`, "id", nil, false},
		{"bad escape refused", `{"id":"\x"}`, "id", nil, false},
		{"control character refused", "{\"id\":\"a\tb\"}", "id", nil, false},
		{"leading zero refused", `{"id":"x","n":01}`, "id", nil, false},
		{"empty refused", ``, "id", nil, false},
		{"too deep refused", strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), "[]", nil, false},
		{"deepest accepted", strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth), "[]", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			paths := parsePaths(tc.paths)
			got, ok := edgeKeys([]byte(tc.body), paths)
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.want, got)
			old, oldOK := decodedKeys([]byte(tc.body), paths)
			require.Equal(t, oldOK, ok, "the decoder disagrees")
			require.Equal(t, old, got, "the decoder disagrees")
		})
	}
}

// FuzzEdgeKeys: reading only the edges' paths indexes exactly what
// decoding the whole response did, for any bytes and any paths.
func FuzzEdgeKeys(f *testing.F) {
	seeds := []struct{ body, paths string }{
		{`{"data":[{"id":"A","presentation":{"title":"Place 0"}},{"id":"B"}]}`, "data[].id|data[].presentation.title"},
		{`[{"countryCode":"PT"},{"countryCode":"ES","countryCode":"FR"}]`, "[].countryCode"},
		{`{"data":{"context":{"sessionId":"s-1"}},"result_id":12345678901234567890}`, "data.context.sessionId|result_id"},
		{`{"a":[[1,2.50,-0,1E+2],[true,false,null]],"b":"\ud83d\ude00\u0000\/"}`, "a[][]|b"},
		{"{\"k\xff\":\"v\xfe\",\"k\xfe\":\"w\"}", "k\uFFFD"},
		{`{"x":9007199254740993.5,"y":-12345678901234567}`, "x|y"},
		{`{"a":{"b":{"c":[{"d":"1"}]}}}  `, "a.b.c[].d|a.b"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.body), s.paths)
	}
	f.Fuzz(func(t *testing.T, body []byte, list string) {
		paths := parsePaths(list)
		want, wantOK := decodedKeys(body, paths)
		got, ok := edgeKeys(body, paths)
		require.Equal(t, wantOK, ok, "accepts")
		require.Equal(t, want, got, "keys")
	})
}

// BenchmarkEdgeKeys compares reading a page of 50 results at two edge
// paths by skimming what no path reads (carriedKeys, as Observe does), by
// checking it (edgeKeys) and by decoding it whole.
//
//	go test ./deps -run '^$' -bench EdgeKeys -benchmem
func BenchmarkEdgeKeys(b *testing.B) {
	var page strings.Builder
	page.WriteString(`{"status":true,"data":{"context":{"sessionId":"s-9f2c"},"results":[`)
	for i := range 50 {
		if i > 0 {
			page.WriteByte(',')
		}
		fmt.Fprintf(&page, `{"id":"%d-2506201345","hotel_id":%d,"name":"Hotel \u00e9 %d","price":{"amount":%d.50,"currency":"EUR"},"photos":["https://example.com/%d/a.jpg","https://example.com/%d/b.jpg"],"score":8.%d}`, 9000000000000000+i, 100000+i, i, 80+i, i, i, i%10)
	}
	page.WriteString(`]}}`)
	body := []byte(page.String())
	paths := parsePaths("data.results[].id|data.results[].hotel_id|data.context.sessionId")
	// A page of 20 reviews, its bulk texts no path reads.
	var reviews strings.Builder
	reviews.WriteString(`{"data":[`)
	for i := range 20 {
		if i > 0 {
			reviews.WriteByte(',')
		}
		fmt.Fprintf(&reviews, `{"review_id":"%d","user":{"username":"u%d"},"title":"Visit %d","text":"%s","helpful_votes":%d}`, 700000+i, i, i, strings.Repeat(`A fine view of the river, with a \"long\" queue in the morning. `, 30), i)
	}
	reviews.WriteString(`]}`)
	texts := []byte(reviews.String())
	textPaths := parsePaths("data[].review_id")
	for _, bc := range []struct {
		name string
		keys func([]byte, [][]pathStep) ([]string, bool)
	}{{"skim", skimmedKeys}, {"scan", edgeKeys}, {"decode", decodedKeys}} {
		b.Run("ids/"+bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if keys, ok := bc.keys(body, paths); !ok || len(keys) != 101 {
					b.Fatalf("%d keys, ok %v", len(keys), ok)
				}
			}
		})
		b.Run("texts/"+bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(texts)))
			b.ReportAllocs()
			for b.Loop() {
				if keys, ok := bc.keys(texts, textPaths); !ok || len(keys) != 20 {
					b.Fatalf("%d keys, ok %v", len(keys), ok)
				}
			}
		})
	}
}

// FuzzCarriedKeys: skimming what no path reads gives what decoding the
// whole response gives on any document canon.Decode accepts, and never
// panics on another.
func FuzzCarriedKeys(f *testing.F) {
	seeds := []struct{ body, paths string }{
		{`{"data":[{"id":"A","presentation":{"title":"Place \"0\" \\"}},{"id":"B","x":[1,{"y":"]"}],"z":null}]}`, "data[].id"},
		{`[{"countryCode":"PT","name":"a\\\"b"},{"countryCode":"ES","countryCode":"FR","n":-1.5e3}]`, "[].countryCode"},
		{`{"data":{"context":{"sessionId":"s-1"},"rest":{"deep":[[["x"]]]}},"result_id":12345678901234567890}`, "data.context.sessionId|result_id"},
		{`{"a":"unterminated`, "b"},
		{`{"a":[1,2,{"b":"}"}],"b":true}`, "b"},
	}
	for _, s := range seeds {
		f.Add([]byte(s.body), s.paths)
	}
	f.Fuzz(func(t *testing.T, body []byte, list string) {
		paths := parsePaths(list)
		got := carriedKeys(body, paths)
		want, ok := decodedKeys(body, paths)
		if !ok {
			return
		}
		var flat []string
		for _, o := range got {
			flat = append(flat, o...)
		}
		require.Equal(t, want, flat, "keys of a valid document")
	})
}

// skimmedKeys is carriedKeys flattened, as edgeKeys gives them.
func skimmedKeys(body []byte, paths [][]pathStep) ([]string, bool) {
	var flat []string
	for _, keys := range carriedKeys(body, paths) {
		flat = append(flat, keys...)
	}
	return flat, true
}
