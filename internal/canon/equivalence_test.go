package canon_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/mocks"
	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/toolset/loader"
)

// repoDocuments returns every JSON document of the repository's fixtures
// and test data (gold annotations, recordings, world data, goldens), each
// line of a JSON Lines file as one, keyed by where it came from.
func repoDocuments(t testing.TB) map[string][]byte {
	t.Helper()
	root := filepath.Join("..", "..")
	docs := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "fuzz") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.HasPrefix(rel, "fixtures"+string(filepath.Separator)) && !strings.Contains(rel, "testdata") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if json.Valid(data) {
			docs[rel] = data
			return nil
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 16<<20)
		for n := 1; sc.Scan(); n++ {
			if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 && json.Valid(line) {
				docs[rel+":"+strconv.Itoa(n)] = bytes.Clone(line)
			}
		}
		return sc.Err()
	})
	require.NoError(t, err)
	return docs
}

// requireSame checks that the one-pass encoder and encoding/json's path
// agree on v: the same bytes, or both an error.
func requireSame(t testing.TB, name string, v any) {
	t.Helper()
	got, err := canon.JSON(v)
	want, werr := canon.SlowJSON(v)
	if werr != nil {
		require.Error(t, err, "%s: encoding/json refuses it (%v)", name, werr)
		return
	}
	require.NoError(t, err, name)
	if !bytes.Equal(want, got) {
		t.Fatalf("%s: one pass gives\n%s\nencoding/json gives\n%s", name, got, want)
	}
}

// decodings reads a document the ways callers hand documents to JSON:
// as json.Unmarshal reads it, with UseNumber, with canon.Decode, raw.
func decodings(t testing.TB, data []byte) map[string]any {
	out := map[string]any{"raw": json.RawMessage(data)}
	var plain any
	if json.Unmarshal(data, &plain) == nil {
		out["float64"] = plain
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var num any
	if dec.Decode(&num) == nil {
		out["UseNumber"] = num
	}
	if v, err := canon.Decode(data); err == nil {
		out["Decode"] = v
	}
	return out
}

// TestJSONMatchesEncodingJSON: every document in the repository encodes
// to the same bytes in one pass as through encoding/json.
func TestJSONMatchesEncodingJSON(t *testing.T) {
	docs := repoDocuments(t)
	require.Greater(t, len(docs), 1000, "the gold annotations, recordings and goldens are found")
	for name, data := range docs {
		for how, v := range decodings(t, data) {
			requireSame(t, name+" ("+how+")", v)
		}
	}
}

// TestJSONMatchesEncodingJSONStandIns: every stand-in's answer to its
// API's documented example (the calls fixtures/recordings holds), as the Go
// value the stand-in returns (structs, typed slices, maps), encodes the
// same in one pass as through encoding/json.
func TestJSONMatchesEncodingJSONStandIns(t *testing.T) {
	cat, err := loader.Builtin()
	require.NoError(t, err)
	w, err := world.DefaultWorld()
	require.NoError(t, err)
	reg := mocks.Builtin()
	idx, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "recordings", "index.jsonl"))
	require.NoError(t, err)
	state := standin.NewState() // one session, producers first, as recorded
	n := 0
	for line := range bytes.Lines(idx) {
		var rec struct {
			Tool, API string
			Arguments map[string]any
		}
		require.NoError(t, json.Unmarshal(line, &rec))
		api := cat.API(rec.Tool, rec.API)
		require.NotNil(t, api, "%s.%s", rec.Tool, rec.API)
		h, ok := reg.Lookup(standin.ToolName(api), api.Name)
		if !ok {
			continue
		}
		args, err := api.Validate(rec.Arguments)
		require.NoError(t, err)
		c := &standin.Call{API: api, Args: args, Now: clock.Frozen().Now(), Seed: standin.Seed(rec.Tool, rec.API, args), State: state}
		v, err := h(context.Background(), w, c)
		if err != nil {
			continue // a refusal is encoded by the engine, from a map
		}
		requireSame(t, api.ID(), v)
		n++
	}
	require.Greater(t, n, 60, "the stand-ins answered")
}

// fuzzShape is a struct with the field kinds stand-ins return.
type fuzzShape struct {
	Name    string            `json:"name"`
	Alias   string            `json:"alias,omitempty"`
	Count   int               `json:"count"`
	Big     int64             `json:"big"`
	Unsign  uint64            `json:"unsigned"`
	Ratio   float64           `json:"ratio"`
	Small   float32           `json:"small,omitempty"`
	Flag    bool              `json:"flag"`
	Any     any               `json:"any"`
	Ptr     *fuzzInner        `json:"ptr,omitempty"`
	List    []fuzzInner       `json:"list"`
	Tags    []string          `json:"tags"`
	Labels  map[string]string `json:"labels"`
	Number  json.Number       `json:"number"`
	NoTag   string
	skipped string
	Dash    string `json:"-"`
	Weird   string `json:"\"bad"`
}

type fuzzInner struct {
	Z string  `json:"z"`
	A float64 `json:"a"`
}

// FuzzJSONMatchesEncodingJSON: for any document, and any struct of the
// kinds stand-ins return, one pass and encoding/json give the same bytes.
func FuzzJSONMatchesEncodingJSON(f *testing.F) {
	for _, data := range repoDocuments(f) {
		if len(data) < 4096 {
			f.Add(data, "x", 1.5, int64(1), false)
		}
	}
	f.Add([]byte(`{"a":"\u2028<>&\u0000\ud800","b":[1e21,1e-7,-0,9007199254740993]}`), "bad \xff utf-8 \u2029", math.MaxFloat64, int64(math.MaxInt64), true)
	f.Add([]byte(`[]`), "", 1e-7, int64(1<<53+1), true)
	f.Fuzz(func(t *testing.T, data []byte, s string, x float64, i int64, b bool) {
		if json.Valid(data) {
			for how, v := range decodings(t, data) {
				requireSame(t, how, v)
			}
		}
		var anyDoc any
		_ = json.Unmarshal(data, &anyDoc)
		shape := fuzzShape{
			Name: s, Count: int(i), Big: i, Unsign: uint64(i), Ratio: x, Small: float32(x), Flag: b,
			Any:  map[string]any{"s": s, "x": x, "doc": anyDoc, "nil": map[string]any(nil), "list": []any(nil)},
			Tags: []string{s}, Labels: map[string]string{s: s, "k": "v"}, Number: json.Number(s), NoTag: s, skipped: s, Dash: s, Weird: s,
		}
		if b {
			shape.Ptr = &fuzzInner{Z: s, A: x}
			shape.List = []fuzzInner{{Z: s, A: float64(i)}}
			shape.Alias = s
		}
		requireSame(t, "struct", shape)
		requireSame(t, "struct in a map", map[string]any{"shape": shape, "x": x, "i": i, "s": s, "nil": map[string]any(nil), "list": []any(nil)})
		requireSame(t, "pointer", &shape)
		requireSame(t, "slice of structs", []fuzzShape{shape})
	})
}

// BenchmarkJSON compares one pass with encoding/json on a weather answer
// and on a call's arguments.
func BenchmarkJSON(b *testing.B) {
	docs := repoDocuments(b)
	forecast, err := canon.Decode(docs[filepath.Join("mocks", "daily", "testdata", "weather.golden.json")])
	require.NoError(b, err)
	args := map[string]any{"q": "London", "days": 3.0, "lang": "en", "aqi": "no"}
	for _, bc := range []struct {
		name string
		v    any
	}{{"forecast", forecast}, {"arguments", args}} {
		b.Run(bc.name+"/one-pass", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := canon.JSON(bc.v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := canon.SlowJSON(bc.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
