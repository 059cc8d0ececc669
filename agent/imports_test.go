package agent

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/understudy/understudy"

// moduleImports lists the module's packages that pkg imports, directly or
// not, outside tests, each with every package on the way that imports it.
func moduleImports(t *testing.T, root, pkg string) map[string][]string {
	t.Helper()
	seen := map[string][]string{pkg: nil}
	queue := []string{pkg}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(p, module), "/")))
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, "package %s has no Go files in %s", p, dir)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, im := range src.Imports {
				path, err := strconv.Unquote(im.Path.Value)
				require.NoError(t, err)
				if path != module && !strings.HasPrefix(path, module+"/") {
					continue
				}
				if _, ok := seen[path]; !ok {
					queue = append(queue, path)
				}
				if !slices.Contains(seen[path], p) {
					seen[path] = append(seen[path], p)
				}
			}
		}
	}
	return seen
}

// TestAgentsKnowNoWorld: the agent packages must not import the stand-ins,
// whose world data the evaluation's labels were drawn from; an agent knows
// only the catalog, the tool responses and what it can work out itself.
func TestAgentsKnowNoWorld(t *testing.T) {
	var pkgs []string
	require.NoError(t, filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() || d.Name() == "testdata" {
			return err
		}
		if m, _ := filepath.Glob(filepath.Join(path, "*.go")); len(m) > 0 {
			pkgs = append(pkgs, module+"/agent"+strings.TrimPrefix("/"+filepath.ToSlash(path), "/."))
		}
		return nil
	}))
	sort.Strings(pkgs)
	require.Contains(t, pkgs, module+"/agent/baseline")
	for _, pkg := range pkgs {
		for dep, importers := range moduleImports(t, "..", pkg) {
			if dep != module+"/mocks" && !strings.HasPrefix(dep, module+"/mocks/") {
				continue
			}
			t.Errorf("%s imports the stand-ins (%s, imported by %s)", pkg, dep, strings.Join(importers, ", "))
		}
	}
}

// TestModuleImportsFollowsEdges checks the walk itself: sandbox reaches
// toolset, so a forbidden package behind an edge would be found.
func TestModuleImportsFollowsEdges(t *testing.T) {
	deps := moduleImports(t, "..", module+"/agent")
	require.Contains(t, deps, module+"/sandbox")
	require.Contains(t, deps, module+"/toolset")
	require.NotContains(t, deps, module+"/agent/baseline", "the interface package imports no agent")
}
