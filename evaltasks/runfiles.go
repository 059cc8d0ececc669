package evaltasks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/understudy/understudy/internal/atomicfile"
)

// RunFiles is a run directory opened for a suite other than the eight
// tasks (the ToolBench queries, the retrieval benchmark): the same
// run.json, results.jsonl and report files, with the same rules, so a
// crashed run of any suite resumes the same way.
type RunFiles struct {
	Dir string
	out *resultsFile
}

// OpenRunFiles opens dir for a run whose settings are manifest (any
// value that encodes to a JSON object). A fresh run writes run.json and
// refuses a directory holding results unless overwrite; a resumed run
// must repeat run.json and gets the lines recorded so far, by their "key"
// field (a later line of a key replacing an earlier one).
func OpenRunFiles(dir string, resume, overwrite bool, manifest any) (*RunFiles, map[string]json.RawMessage, error) {
	want, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	old := map[string]json.RawMessage{}
	out, err := openRun(dir, resume, overwrite, want, func(have []byte) string { return objectDiff(have, want) },
		func(r io.Reader, path string) error {
			return scanResultLines(r, path, func(line []byte) (string, error) {
				var k struct {
					Key string `json:"key"`
				}
				if err := json.Unmarshal(line, &k); err != nil {
					return "", err
				}
				old[k.Key] = append(json.RawMessage(nil), line...)
				return k.Key, nil
			})
		})
	if err != nil {
		return nil, nil, err
	}
	return &RunFiles{Dir: dir, out: out}, old, nil
}

// Append writes one result line (v must encode a "key" field) and syncs it.
func (f *RunFiles) Append(v any) error { return f.out.append(v) }

// WriteReports writes report.json and report.md whole, atomically.
func (f *RunFiles) WriteReports(reportJSON, markdown []byte) error {
	mode := RunFileMode(f.Dir)
	return errors.Join(atomicfile.WriteFile(filepath.Join(f.Dir, ReportFile), reportJSON, mode),
		atomicfile.WriteFile(filepath.Join(f.Dir, MarkdownFile), markdown, mode))
}

// Close closes results.jsonl.
func (f *RunFiles) Close() error { return f.out.close() }

// objectDiff names the top-level fields two JSON objects disagree on.
func objectDiff(have, want []byte) string {
	var a, b map[string]json.RawMessage
	if err := json.Unmarshal(have, &a); err != nil {
		return "unreadable: " + err.Error()
	}
	if err := json.Unmarshal(want, &b); err != nil {
		return "unreadable: " + err.Error()
	}
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var diffs []string
	for k := range keys {
		if string(a[k]) != string(b[k]) {
			diffs = append(diffs, fmt.Sprintf("%s %s, now %s", k, orNone(a[k]), orNone(b[k])))
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "; ")
}

func orNone(v json.RawMessage) string {
	if len(v) == 0 {
		return "(none)"
	}
	return string(v)
}
