package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/openapi"
	"github.com/understudy/understudy/toolset/tbfile"
)

// builtinRoot is the folder of fixtures.FS holding the built-in tool tree.
const builtinRoot = "toolset"

// BuiltinTools parses the built-in tool files embedded in the binary. Every
// call returns fresh tools, so callers may merge them into their own catalog.
func BuiltinTools() ([]*toolset.Tool, error) {
	tools, err := tbfile.LoadDir(fixtures.FS, builtinRoot)
	if err != nil {
		return nil, fmt.Errorf("built-in toolset: %w", err)
	}
	for _, t := range tools {
		t.Builtin = true
	}
	return tools, nil
}

// Builtin is the catalog of the built-in toolset (fixtures/toolset).
func Builtin() (*toolset.Catalog, error) {
	tools, err := BuiltinTools()
	if err != nil {
		return nil, err
	}
	return toolset.NewCatalog(tools)
}

// Load builds one catalog from the built-in tools (when withBuiltin) and
// every path given. A path is a ToolBench tree ("<Category>/<tool>.json"
// under a folder), a single ToolBench tool file (its category is the name of
// the folder holding it), or an OpenAPI 3 document (.json, .yaml or .yml;
// a .json file is OpenAPI when its top-level object has an "openapi" key).
//
// A tree loads what is valid: each file left out (malformed, or a second
// file of a tool its category already has) is in Catalog.Skipped with its
// reason, as is a tool of a later path that repeats one of an earlier path
// (or a built-in tool) in the same category. A path that cannot be read,
// or a single file that does not load, is an error naming it.
func Load(paths []string, withBuiltin bool) (*toolset.Catalog, error) {
	var tools []*toolset.Tool
	if withBuiltin {
		b, err := BuiltinTools()
		if err != nil {
			return nil, err
		}
		tools = append(tools, b...)
	}
	var skipped []toolset.Skipped
	for _, p := range paths {
		ts, sk, err := ScanPath(p)
		if err != nil {
			return nil, err
		}
		tools = append(tools, ts...)
		skipped = append(skipped, sk...)
	}
	tools, dups := tbfile.Dedupe(tools)
	skipped = append(skipped, dups...)
	return toolset.NewCatalog(tools, skipped...)
}

// LoadPath loads the tools of one folder or file; see Load. Unlike Load,
// it fails on the first tool file of a tree that does not load, or that
// has an API that does not (which Load leaves out of its tool).
func LoadPath(p string) ([]*toolset.Tool, error) {
	tools, skipped, err := ScanPath(p)
	if err != nil {
		return nil, err
	}
	if err := tbfile.FirstProblem(tools, skipped); err != nil {
		return nil, err
	}
	return tools, nil
}

// ScanPath loads the tools of one folder or file the way Load does:
// what is valid in a tree, and the files it left out with their reasons.
func ScanPath(p string) ([]*toolset.Tool, []toolset.Skipped, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, nil, &toolset.LoadError{File: p, Err: err}
	}
	if info.IsDir() {
		tools, skipped, err := tbfile.ScanDir(os.DirFS(p), ".")
		if err != nil {
			var le *toolset.LoadError
			if errors.As(err, &le) {
				le.File = filepath.Join(p, filepath.FromSlash(le.File))
			}
			return nil, nil, err
		}
		for _, t := range tools {
			t.Source = filepath.Join(p, filepath.FromSlash(t.Source))
			for _, err := range t.LeftOut {
				var le *toolset.LoadError
				if errors.As(err, &le) {
					le.File = t.Source
				}
			}
		}
		for i := range skipped {
			skipped[i].File = filepath.Join(p, filepath.FromSlash(skipped[i].File))
			var le *toolset.LoadError
			if errors.As(skipped[i].Err, &le) {
				le.File = skipped[i].File
			}
		}
		return tools, skipped, nil
	}
	tools, err := loadFile(p, info)
	return tools, nil, err
}

func loadFile(p string, info os.FileInfo) ([]*toolset.Tool, error) {
	if info.Size() > toolset.MaxToolFileSize {
		return nil, &toolset.LoadError{File: p, Err: fmt.Errorf("file is %d bytes, more than the %d-byte limit", info.Size(), toolset.MaxToolFileSize)}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, &toolset.LoadError{File: p, Err: err}
	}
	switch strings.ToLower(filepath.Ext(p)) {
	case ".yaml", ".yml":
		return openapi.LoadTools(data, p)
	case ".json":
		if isOpenAPIJSON(data) {
			return openapi.LoadTools(data, p)
		}
		category := filepath.Base(filepath.Dir(p))
		if category == "." || category == string(filepath.Separator) || category == "" {
			category = "Other"
		}
		t, err := tbfile.LoadFile(data, category, p)
		if err != nil {
			return nil, err
		}
		return []*toolset.Tool{t}, nil
	default:
		return nil, &toolset.LoadError{File: p, Err: errors.New("not a tool file: expected a folder, a .json ToolBench tool or an OpenAPI .json/.yaml/.yml document")}
	}
}

// isOpenAPIJSON reports whether a JSON document's top-level object carries
// an "openapi" or "swagger" key.
func isOpenAPIJSON(data []byte) bool {
	d := bytes.TrimSpace(data)
	if len(d) == 0 || d[0] != '{' {
		return false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(d, &top) != nil {
		return false
	}
	_, oas := top["openapi"]
	_, swagger := top["swagger"]
	return oas || swagger
}
