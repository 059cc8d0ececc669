package cache

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/understudy/understudy/internal/atomicfile"
)

// SourceStableToolBench marks entries imported from a StableToolBench cache.
const SourceStableToolBench = "stabletoolbench"

// ImportReport counts what an import did, overall and per tool.
type ImportReport struct {
	Files        int                    `json:"files"`      // API files read
	BadFiles     int                    `json:"bad_files"`  // API files that are not a JSON object
	Unresolved   int                    `json:"unresolved"` // API files whose tool or API resolve did not know
	Imported     int                    `json:"imported"`
	BadKey       int                    `json:"bad_key"`       // keys that are not a Python dict literal
	Errored      int                    `json:"errored"`       // entries with a non-empty "error"
	ErrorLooking int                    `json:"error_looking"` // entries whose response looks like an error answer
	BadValue     int                    `json:"bad_value"`     // values that are not {"error", "response"}
	Duplicate    int                    `json:"duplicate"`     // keys that canonicalise to an entry already imported
	PerTool      map[string]*ToolImport `json:"per_tool"`
	// Problems lists the first problems found, in file order.
	Problems []string `json:"problems"`
}

// ToolImport counts one tool's entries.
type ToolImport struct {
	Imported     int `json:"imported"`
	BadKey       int `json:"bad_key,omitempty"`
	Errored      int `json:"errored,omitempty"`
	ErrorLooking int `json:"error_looking,omitempty"`
	BadValue     int `json:"bad_value,omitempty"`
	Duplicate    int `json:"duplicate,omitempty"`
}

const maxProblems = 50

func (r *ImportReport) problem(format string, args ...any) {
	if len(r.Problems) < maxProblems {
		r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
	}
}

func (r *ImportReport) tool(name string) *ToolImport {
	t := r.PerTool[name]
	if t == nil {
		t = &ToolImport{}
		r.PerTool[name] = t
	}
	return t
}

// ImportOptions configures ImportStableToolBenchWith.
type ImportOptions struct {
	// Resolve maps a cache file to the tool and API it answers. Nil uses
	// the folder name without "_for_<Category>" and the file name without
	// ".json".
	Resolve func(category, toolDir, apiFile string) (tool, api string, ok bool)
	// Normalize turns raw recorded arguments into what the engine keys on
	// (validated, defaults applied), so imported entries hit. Nil keeps the
	// arguments as recorded. An error counts the entry as a bad key.
	Normalize func(tool, api string, args map[string]any) (map[string]any, error)
	// KeepErrorLooking imports responses that LooksLikeUpstreamError flags.
	KeepErrorLooking bool
}

// ImportStableToolBench copies a StableToolBench response cache
// (tool_response_cache/<Category>/<tool>_for_<Category>/<api>.json, each an
// object from Python-repr argument dicts to {"error", "response"}) into dst.
// Entries with an error, an error-looking response, or a key that does not
// parse are counted and skipped; only a failing write to dst stops it.
func ImportStableToolBench(dir string, resolve func(category, toolDir, apiFile string) (tool, api string, ok bool), dst *Store) (ImportReport, error) {
	return ImportStableToolBenchWith(dir, ImportOptions{Resolve: resolve}, dst)
}

// ImportStableToolBenchWith is ImportStableToolBench with options.
func ImportStableToolBenchWith(dir string, opts ImportOptions, dst *Store) (ImportReport, error) {
	rep := ImportReport{PerTool: map[string]*ToolImport{}}
	if dst == nil {
		return rep, errors.New("cache: import needs a destination store")
	}
	if opts.Resolve == nil {
		opts.Resolve = defaultResolve
	}
	cats, err := os.ReadDir(dir)
	if err != nil {
		return rep, fmt.Errorf("cache: read StableToolBench cache: %w", err)
	}
	seen := map[string]bool{}
	for _, cat := range cats {
		if !cat.IsDir() {
			continue
		}
		tools, err := os.ReadDir(filepath.Join(dir, cat.Name()))
		if err != nil {
			rep.problem("%s: %v", cat.Name(), err)
			continue
		}
		for _, td := range tools {
			if !td.IsDir() {
				continue
			}
			files, err := os.ReadDir(filepath.Join(dir, cat.Name(), td.Name()))
			if err != nil {
				rep.problem("%s/%s: %v", cat.Name(), td.Name(), err)
				continue
			}
			for _, f := range files {
				apiFile, ok := strings.CutSuffix(f.Name(), ".json")
				if !ok || f.IsDir() {
					continue
				}
				rep.Files++
				rel := cat.Name() + "/" + td.Name() + "/" + f.Name()
				tool, api, ok := opts.Resolve(cat.Name(), td.Name(), apiFile)
				if !ok || tool == "" || api == "" {
					rep.Unresolved++
					rep.problem("%s: no tool/API for this file", rel)
					continue
				}
				if err := importFile(filepath.Join(dir, cat.Name(), td.Name(), f.Name()), rel, tool, api, opts, dst, &rep, seen); err != nil {
					return rep, err
				}
			}
		}
	}
	return rep, nil
}

func defaultResolve(category, toolDir, apiFile string) (string, string, bool) {
	return strings.TrimSuffix(toolDir, "_for_"+category), apiFile, true
}

// stbValue is one cached answer.
type stbValue struct {
	Error    json.RawMessage `json:"error"`
	Response json.RawMessage `json:"response"`
}

func importFile(path, rel, tool, api string, opts ImportOptions, dst *Store, rep *ImportReport, seen map[string]bool) error {
	data, err := os.ReadFile(path)
	if err != nil {
		rep.BadFiles++
		rep.problem("%s: %v", rel, err)
		return nil
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		rep.BadFiles++
		rep.problem("%s: not a JSON object: %v", rel, err)
		return nil
	}
	ti := rep.tool(tool)
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, pyKey := range keys {
		args, err := ParsePythonDict(pyKey)
		if err == nil && opts.Normalize != nil {
			args, err = opts.Normalize(tool, api, args)
		}
		if err != nil {
			rep.BadKey++
			ti.BadKey++
			rep.problem("%s: key %s: %v", rel, clip(pyKey), err)
			continue
		}
		var v stbValue
		if err := json.Unmarshal(entries[pyKey], &v); err != nil || len(v.Response) == 0 {
			rep.BadValue++
			ti.BadValue++
			rep.problem("%s: key %s: value is not {\"error\", \"response\"}", rel, clip(pyKey))
			continue
		}
		if e := bytes.TrimSpace(v.Error); len(e) > 0 && string(e) != `""` && string(e) != "null" {
			rep.Errored++
			ti.Errored++
			continue
		}
		if !opts.KeepErrorLooking {
			if _, bad := LooksLikeUpstreamError(v.Response); bad {
				rep.ErrorLooking++
				ti.ErrorLooking++
				continue
			}
		}
		key := KeyOf(tool, api, args)
		if !key.storable() {
			rep.BadKey++
			ti.BadKey++
			continue
		}
		if seen[key.hash] {
			rep.Duplicate++
			ti.Duplicate++
			continue
		}
		if err := dst.Put(key, Entry{Response: v.Response, Source: SourceStableToolBench}); err != nil {
			var we *WriteError
			if errors.As(err, &we) {
				return err
			}
			rep.BadValue++
			ti.BadValue++
			rep.problem("%s: key %s: %v", rel, clip(pyKey), err)
			continue
		}
		seen[key.hash] = true
		rep.Imported++
		ti.Imported++
	}
	return nil
}

// ExportReport counts what an export wrote.
type ExportReport struct {
	Files    int      `json:"files"`
	Entries  int      `json:"entries"`
	Unplaced int      `json:"unplaced"` // entries whose tool/API locate did not know
	Skipped  int      `json:"skipped"`  // entries that are not a 2xx answer
	Problems []string `json:"problems,omitempty"`
}

// ExportStableToolBench writes the entries of src as a StableToolBench
// response cache under dir: <category>/<toolDir>/<apiFile>.json, each an
// object from the Python repr of the arguments to {"error": "", "response"}.
// locate names the folders for a tool and API; names that are not a single
// plain path element are refused. Output is deterministic (sorted keys).
func ExportStableToolBench(src *Store, dir string, locate func(tool, api string) (category, toolDir, apiFile string, ok bool)) (ExportReport, error) {
	var rep ExportReport
	type file map[string]json.RawMessage
	files := map[string]file{}
	err := src.Walk(func(k Key, e Entry) error {
		if e.Status < 200 || e.Status > 299 {
			rep.Skipped++
			return nil
		}
		cat, td, af, ok := locate(e.Tool, e.API)
		if !ok || !plainName(cat) || !plainName(td) || !plainName(af) {
			rep.Unplaced++
			if len(rep.Problems) < maxProblems {
				rep.Problems = append(rep.Problems, fmt.Sprintf("%s.%s: no safe StableToolBench location", e.Tool, e.API))
			}
			return nil
		}
		pyKey, err := FormatPython(e.Arguments)
		if err != nil {
			return fmt.Errorf("cache: export %s: %w", k, err)
		}
		val, err := json.Marshal(struct {
			Error    string          `json:"error"`
			Response json.RawMessage `json:"response"`
		}{"", e.Response})
		if err != nil {
			return fmt.Errorf("cache: export %s: %w", k, err)
		}
		rel := filepath.Join(cat, td, af+".json")
		if files[rel] == nil {
			files[rel] = file{}
		}
		files[rel][pyKey] = val
		rep.Entries++
		return nil
	})
	if err != nil {
		return rep, err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, rel := range names {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "    ")
		if err := enc.Encode(files[rel]); err != nil { // map keys are sorted
			return rep, fmt.Errorf("cache: export %s: %w", rel, err)
		}
		full := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return rep, fmt.Errorf("cache: export: %w", err)
		}
		if err := atomicfile.WriteFile(full, buf.Bytes(), entryPerm); err != nil {
			return rep, fmt.Errorf("cache: export %s: %w", rel, err)
		}
		rep.Files++
	}
	return rep, nil
}

// plainName accepts one path element that stays inside its folder.
func plainName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, `/\`+"\x00") && filepath.IsLocal(s)
}
