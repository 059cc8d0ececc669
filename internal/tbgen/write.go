package tbgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/understudy/understudy/internal/atomicfile"
)

// Manifest describes a written universe and holds its ground truth.
type Manifest struct {
	Seed uint64 `json:"seed"`
	// Files are the .json files under tools/, ToolFiles those that are
	// tools (copies included), Tools the distinct tools (copies and
	// malformed files excluded).
	Files      int `json:"files"`
	ToolFiles  int `json:"tool_files"`
	Tools      int `json:"tools"`
	APIs       int `json:"apis"`
	Categories int `json:"categories"`
	// APIsWithoutSchema counts APIs of every tool file, copies included.
	APIsWithoutSchema int            `json:"apis_without_schema"`
	Queries           map[string]int `json:"queries"`
	// QueriesUnscorable name a tool or API the tree lacks; of them,
	// QueriesMissingOnlyOther lack only an API that is not relevant.
	QueriesUnscorable       int            `json:"queries_unscorable"`
	QueriesMissingOnlyOther int            `json:"queries_missing_only_other"`
	QueriesWithCategoryTwin int            `json:"queries_with_category_twin"`
	DefectCounts            map[string]int `json:"defect_counts"`
	Defects                 []Defect       `json:"defects"`
	// Edges are the dependencies between APIs of each original tool file.
	Edges      []Edge       `json:"edges"`
	QueryTruth []QueryTruth `json:"query_truth"`
}

// QueryTruth is the ground truth of one query.
type QueryTruth struct {
	Group     string    `json:"group"`
	ID        int       `json:"query_id"`
	Scorable  bool      `json:"scorable"`
	Missing   []Missing `json:"missing,omitempty"`
	TwinTools []string  `json:"twin_tools,omitempty"`
	Calls     []Call    `json:"calls"`
}

// ManifestFile is the manifest's name in a universe's folder.
const ManifestFile = "manifest.json"

// Manifest summarizes the universe.
func (u *Universe) Manifest() *Manifest {
	m := &Manifest{Seed: u.Options.Seed, Categories: len(u.Categories), Queries: map[string]int{}, DefectCounts: map[string]int{}, Defects: u.Defects, Edges: u.Edges}
	for _, t := range u.Tools {
		m.Files++
		if t.Malformed != "" {
			continue
		}
		m.ToolFiles++
		if t.CopyOf == nil {
			m.Tools++
		}
		m.APIs += len(t.APIs)
		for _, a := range t.APIs {
			if !a.HasSchema() {
				m.APIsWithoutSchema++
			}
		}
	}
	for _, d := range u.Defects {
		m.DefectCounts[d.Kind]++
	}
	for _, g := range u.Queries {
		m.Queries[g.Name] = len(g.Queries)
		for _, q := range g.Queries {
			qt := QueryTruth{Group: g.Name, ID: q.ID, Scorable: q.Scorable(), Missing: q.Missing, TwinTools: q.TwinTools, Calls: q.Calls}
			if !q.Scorable() {
				m.QueriesUnscorable++
				onlyOther := true
				for _, x := range q.Missing {
					onlyOther = onlyOther && !x.Relevant
				}
				if onlyOther {
					m.QueriesMissingOnlyOther++
				}
			}
			if len(q.TwinTools) > 0 {
				m.QueriesWithCategoryTwin++
			}
			m.QueryTruth = append(m.QueryTruth, qt)
		}
	}
	return m
}

// encode writes the manifest with one line per member and per defect,
// edge and query: greppable, and a fraction of an indented file's size.
func (m *Manifest) encode() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	v := reflect.ValueOf(m).Elem()
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		fmt.Fprintf(&b, "  %q: ", name)
		f := v.Field(i)
		if f.Kind() == reflect.Slice && f.Len() > 0 {
			b.WriteString("[\n")
			for j := range f.Len() {
				item, err := json.Marshal(f.Index(j).Interface())
				if err != nil {
					return nil, err
				}
				b.WriteString("    ")
				b.Write(item)
				if j < f.Len()-1 {
					b.WriteByte(',')
				}
				b.WriteByte('\n')
			}
			b.WriteString("  ]")
		} else {
			val, err := json.Marshal(f.Interface())
			if err != nil {
				return nil, err
			}
			b.Write(val)
		}
		if i < v.NumField()-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// ReadManifest reads the manifest of a written universe.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("tbgen: %s: %w", ManifestFile, err)
	}
	return &m, nil
}

// object is the tool's JSON object.
func (t *Tool) object() Obj {
	apis := make([]any, len(t.APIs))
	for i, a := range t.APIs {
		apis[i] = a.object()
	}
	owner := "rapidapi"
	if len(t.productID) > 8 {
		if n, err := strconv.ParseUint(t.productID[4:8], 16, 32); err == nil {
			owner = asciiOnly(lower(poolLast[n%uint64(len(poolLast))]))
		}
	}
	o := Obj{
		{"product_id", t.productID},
		{"tool_description", t.Description},
		{"home_url", "https://rapidapi.com/" + owner + "/api/" + slug(t.Name) + "/"},
		{"name", t.Name},
		{"title", t.Title},
		{"pricing", t.pricing},
		{"tool_name", t.Name},
		{"score", t.score},
		{"host", t.Host},
		{"api_list", apis},
	}
	if !t.noStdField {
		o = append(o, KV{"standardized_name", t.StandardizedName})
	}
	return o
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func params(ps []*Param) []any {
	out := make([]any, len(ps))
	for i, p := range ps {
		out[i] = Obj{{"name", p.Name}, {"type", p.Type}, {"description", p.Description}, {"default", p.Default}}
	}
	return out
}

func (a *API) object() Obj {
	var schema any = absent{}
	if s := a.Schema(); s != nil {
		schema = s
	}
	return Obj{
		{"name", a.Name},
		{"url", a.URL},
		{"description", a.Description},
		{"method", a.Method},
		{"required_parameters", params(a.Required)},
		{"optional_parameters", params(a.Optional)},
		{"code", a.code},
		{"statuscode", a.status},
		{"body", a.body},
		{"headers", a.headers},
		{"schema", schema},
		{"test_endpoint", a.TestEndpoint()},
	}
}

// render is the bytes of the tool's file.
func (t *Tool) render(indent string) []byte {
	if t.Malformed != "" {
		return t.raw
	}
	return encode(t.object(), indent)
}

// renderGroup is a solvable_queries file.
func renderGroup(g QueryGroup, indent string) []byte {
	recs := make([]any, len(g.Queries))
	for i, q := range g.Queries {
		apis := make([]any, len(q.APIs))
		for j, x := range q.APIs {
			apis[j] = Obj{
				{"category_name", x.Category},
				{"tool_name", x.Tool},
				{"api_name", x.API.Name},
				{"api_description", x.API.Description},
				{"required_parameters", params(x.API.Required)},
				{"optional_parameters", params(x.API.Optional)},
				{"method", x.API.Method},
				{"template_response", x.API.Template()},
			}
		}
		rel := make([]any, len(q.Relevant))
		for j, r := range q.Relevant {
			rel[j] = []any{r[0], r[1]}
		}
		recs[i] = Obj{{"query", q.Text}, {"query_id", q.ID}, {"api_list", apis}, {"relevant APIs", rel}}
	}
	return encode(recs, indent)
}

const readme = `A synthetic StableToolBench universe written by internal/tbgen; do not edit.

tools/<Category>/<tool>.json   ToolBench tool files, with the real tree's defects
queries/<group>.json           solvable_queries files of the six test groups
manifest.json                  counts and ground truth: defects, dependency edges, query truth

Load the tools with loader.Load([]string{"<dir>/tools"}, false).
`

type file struct {
	rel  string
	data []byte
}

// metaFiles are the files besides the tools: queries, README, manifest.
func (u *Universe) metaFiles() ([]file, *Manifest, error) {
	var out []file
	for _, g := range u.Queries {
		out = append(out, file{"queries/" + g.Name + ".json", renderGroup(g, u.Options.indent())})
	}
	out = append(out, file{"README.md", []byte(readme)})
	m := u.Manifest()
	data, err := m.encode()
	if err != nil {
		return nil, nil, err
	}
	return append(out, file{ManifestFile, data}), m, nil
}

// EachFile calls fn with every file of the universe: the tool files in
// path order (relative, slash-separated), then queries/, README.md and
// manifest.json.
func (u *Universe) EachFile(fn func(rel string, data []byte) error) error {
	for _, t := range u.Tools {
		if err := fn(t.File, t.render(u.Options.indent())); err != nil {
			return err
		}
	}
	meta, _, err := u.metaFiles()
	if err != nil {
		return err
	}
	for _, f := range meta {
		if err := fn(f.rel, f.data); err != nil {
			return err
		}
	}
	return nil
}

// Write generates a universe into dir (created if needed; files of the
// same names are replaced) and returns its manifest.
func Write(dir string, opts Options) (*Manifest, error) {
	u, err := Generate(opts)
	if err != nil {
		return nil, err
	}
	return u.Write(dir)
}

// Write writes the universe into dir.
func (u *Universe) Write(dir string) (*Manifest, error) {
	dirs := map[string]bool{"queries": true}
	for _, t := range u.Tools {
		dirs[filepath.Dir(filepath.FromSlash(t.File))] = true
	}
	names := make([]string, 0, len(dirs))
	for d := range dirs {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, err
		}
	}
	// Tool files in parallel: rendering is pure, the bytes do not depend
	// on the order.
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	work := make(chan *Tool)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range work {
				if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(t.File)), t.render(u.Options.indent()), 0o644); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, t := range u.Tools {
		work <- t
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	meta, m, err := u.metaFiles()
	if err != nil {
		return nil, err
	}
	for _, f := range meta {
		if err := atomicfile.WriteFile(filepath.Join(dir, filepath.FromSlash(f.rel)), f.data, 0o644); err != nil {
			return nil, err
		}
	}
	return m, nil
}
