package cache

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
)

// VerifyOptions configures Verify.
type VerifyOptions struct {
	// Canonical, when set, returns the arguments the engine would key the
	// call with (validated, defaults applied), or an error when it has no
	// such API or the arguments are invalid. An entry stored under other
	// arguments is never found by a replay, so Verify reports it.
	Canonical func(tool, api string, args map[string]any) (map[string]any, error)
	// Secrets are strings no entry may contain: the API key, in every
	// form it could take in a body. Empty strings are ignored.
	Secrets []string
}

// Problem is one thing wrong with a store directory.
type Problem struct {
	Path   string `json:"path"` // slash-separated, below the directory
	Reason string `json:"reason"`
}

func (p Problem) String() string { return p.Path + ": " + p.Reason }

// VerifyReport is what Verify found.
type VerifyReport struct {
	Entries  int       `json:"entries"` // entry files checked
	Problems []Problem `json:"problems,omitempty"`
}

// secretPatterns are credentials that must never be in a recording,
// whatever the key in use: OpenAI-style keys (ToolBench keys too),
// bearer tokens, a RapidAPI key header with its value, and RapidAPI's key
// shape itself.
var secretPatterns = []struct {
	name string
	re   *regexp.Regexp
	// prose, when set, tells ordinary text the pattern also matches
	// ("Bearer instruments…") from a credential.
	prose func(m []byte) bool
}{
	{name: "an sk- API key", re: regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`)},
	{name: "a Bearer token", re: regexp.MustCompile(`\bBearer\s+[A-Za-z0-9._~+/=-]{8,}`), prose: func(m []byte) bool {
		return !bytes.ContainsAny(m, "0123456789")
	}},
	{name: "an X-RapidAPI-Key value", re: regexp.MustCompile(`(?i)x-rapidapi-key\\?"?\s*[:=]\s*\\?"?[A-Za-z0-9]{8,}`)},
	{name: "a RapidAPI key", re: regexp.MustCompile(`\b[0-9a-z]{10}msh[0-9a-z]{15}p1[0-9a-z]{12}jsn[0-9a-z]{12}\b`)},
}

// Verify checks every entry of the store directory dir without changing
// anything: each must parse, carry a checksum that matches (a hand edit
// counts as a problem here, unlike on load), be named by its key and carry
// that key, be keyed by its canonical call (with opts.Canonical), and hold
// no secret. index.jsonl, when present, must name exactly the entries.
// The error is for a directory that cannot be read at all.
func Verify(dir string, opts VerifyOptions) (VerifyReport, error) {
	return VerifyFS(os.DirFS(dir), opts)
}

// VerifyFS is Verify over a file system, such as embedded recordings.
func VerifyFS(fsys fs.FS, opts VerifyOptions) (VerifyReport, error) {
	var rep VerifyReport
	bad := func(p, format string, args ...any) {
		rep.Problems = append(rep.Problems, Problem{Path: p, Reason: fmt.Sprintf(format, args...)})
	}
	found := map[string]bool{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || path.Dir(p) == "." {
			return nil
		}
		dir, name := path.Split(p)
		hash := strings.TrimSuffix(name, ".json")
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") || !validHash(hash) || strings.TrimSuffix(dir, "/") != hash[:2] {
			bad(p, "not an entry file (want <ab>/<64 hex digits>.json)")
			return nil
		}
		rep.Entries++
		found[hash] = true
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			bad(p, "unreadable: %v", err)
			return nil
		}
		verifyEntry(p, hash, data, opts, bad)
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("cache: verify: %w", err)
	}
	verifyIndex(fsys, found, bad)
	slices.SortStableFunc(rep.Problems, func(a, b Problem) int { return strings.Compare(a.Path, b.Path) })
	return rep, nil
}

func verifyEntry(p, hash string, data []byte, opts VerifyOptions, bad func(string, string, ...any)) {
	// The secrets are looked for in the bytes, whatever else is wrong with
	// the entry: a checksum mismatch or a corrupt entry must not hide one.
	defer verifySecrets(p, data, opts, bad)
	e, err := decodeEntry(p, data, hash, false)
	if err != nil {
		var ce *CorruptError
		if errors.As(err, &ce) {
			reason := ce.Reason
			if ce.Err != nil {
				reason += ": " + ce.Err.Error()
			}
			bad(p, "%s", reason)
		} else {
			bad(p, "%v", err)
		}
		return
	}
	if e.Edited {
		bad(p, "checksum mismatch (the entry was changed after it was recorded, or written by hand)")
	}
	var head struct {
		Key string `json:"key"`
	}
	_ = json.Unmarshal(data, &head)
	if head.Key != hash {
		bad(p, "key %q is not the file's name %s", head.Key, hash)
	}
	if opts.Canonical != nil {
		var args map[string]any
		if err := json.Unmarshal(e.Arguments, &args); err != nil {
			bad(p, "arguments: %v", err)
		} else if c, err := opts.Canonical(e.Tool, e.API, args); err != nil {
			bad(p, "not a call of the catalog: %v", err)
		} else if k := KeyOf(e.Tool, e.API, c); k.Hash() != hash {
			bad(p, "arguments are not the canonical call: a replay looks %s.%s%s up under %s", e.Tool, e.API, k.Args(), entryPath(k.Hash()))
		}
	}
}

// verifySecrets reports the API key (in any of its forms) and the shapes
// of credentials in an entry's bytes.
func verifySecrets(p string, data []byte, opts VerifyOptions, bad func(string, string, ...any)) {
	for _, s := range opts.Secrets {
		if s != "" && bytes.Contains(data, []byte(s)) {
			bad(p, "holds the API key")
			break
		}
	}
	for _, sp := range secretPatterns {
		for _, m := range sp.re.FindAll(data, -1) {
			if sp.prose == nil || !sp.prose(m) {
				bad(p, "holds %s (%s…)", sp.name, m[:min(len(m), 12)])
				break
			}
		}
	}
}

// verifyIndex checks that index.jsonl names exactly the entry files found.
func verifyIndex(fsys fs.FS, found map[string]bool, bad func(string, string, ...any)) {
	data, err := fs.ReadFile(fsys, indexName)
	if err != nil {
		if len(found) > 0 {
			bad(indexName, "missing: %v", err)
		}
		return
	}
	named := map[string]bool{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r IndexRecord
		if err := json.Unmarshal(line, &r); err != nil || !validHash(r.Key) {
			bad(indexName, "line %d is not an index record", i+1)
			continue
		}
		named[r.Key] = true
		if !found[r.Key] {
			bad(indexName, "line %d names %s, which has no entry file", i+1, entryPath(r.Key))
		}
	}
	var missing []string
	for h := range found {
		if !named[h] {
			missing = append(missing, entryPath(h))
		}
	}
	slices.Sort(missing)
	for _, m := range missing {
		bad(indexName, "does not name %s", m)
	}
}
