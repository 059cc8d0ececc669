package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// module is the import path every rule's patterns are relative to.
const module = "github.com/understudy/understudy"

// rule is one "never" of the architecture: no package matching packages
// imports a package matching one of never. A transitive rule follows
// imports all the way down, so that reaching a stand-in through a helper
// breaks it too; a direct one looks at the package's own imports, for
// the harnesses beside the engine (sandboxtest, expect), which build on
// the whole stack and so reach the stand-ins through the composition
// root (internal/assemble), never by importing them.
type rule struct {
	role       string // the role as ARCHITECTURE.md names it
	packages   string // "sandbox" is that package, "agent/..." it and those under it
	never      []string
	transitive bool
}

// rules are ARCHITECTURE.md's nevers, by the layout it gives: the engine
// is sandbox/, the agents agent/, the catalog toolset/, the response store
// cache/ and the dependency graph deps/; the stand-ins are mocks/ and the
// evaluator evaltasks/. "The engine, agents, catalog, store and graph never
// import the stand-ins; agents never import the evaluator."
var rules = []rule{
	{role: "engine", packages: "sandbox", never: []string{"mocks/..."}, transitive: true},
	{role: "engine's harnesses", packages: "sandbox/...", never: []string{"mocks/..."}},
	{role: "agents", packages: "agent/...", never: []string{"mocks/...", "evaltasks/..."}, transitive: true},
	{role: "catalog", packages: "toolset/...", never: []string{"mocks/..."}, transitive: true},
	{role: "store", packages: "cache/...", never: []string{"mocks/..."}, transitive: true},
	{role: "graph", packages: "deps/...", never: []string{"mocks/..."}, transitive: true},
}

// match reports whether the module-relative path p matches pattern:
// "a/b" is that package, "a/b/..." it and every package under it.
func match(pattern, p string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pattern
}

// violations lists every import that breaks a rule in graph (module-relative
// package path → its module-relative imports; packages outside the module
// are left out), each as the chain of imports that leads to the forbidden
// package, sorted.
func violations(graph map[string][]string, rules []rule) []string {
	var out []string
	for _, r := range rules {
		for p := range graph {
			if !match(r.packages, p) {
				continue
			}
			for _, chain := range reach(graph, p, r.transitive) {
				target := chain[len(chain)-1]
				for _, n := range r.never {
					if match(n, target) {
						out = append(out, r.role+": "+strings.Join(chain, " → "))
						break
					}
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// reach lists, for every package from imports (directly, or at any depth
// when transitive), one shortest chain of imports from it to that package.
func reach(graph map[string][]string, from string, transitive bool) [][]string {
	var out [][]string
	seen := map[string]bool{from: true}
	queue := [][]string{{from}}
	for len(queue) > 0 {
		chain := queue[0]
		queue = queue[1:]
		imports := slices.Clone(graph[chain[len(chain)-1]])
		slices.Sort(imports)
		for _, imp := range imports {
			if seen[imp] {
				continue
			}
			seen[imp] = true
			next := append(slices.Clone(chain), imp)
			out = append(out, next)
			if transitive {
				queue = append(queue, next)
			}
		}
	}
	return out
}

// moduleGraph reads the module's import graph from go list: every package
// of the module, with its imports inside the module. Test-only imports are
// left out: a test may use a stand-in to check the code it tests.
func moduleGraph(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-deps", "-json=ImportPath,Imports,Error", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	return parseGoList(t, out)
}

// parseGoList reads go list -json's stream of package objects.
func parseGoList(t *testing.T, data []byte) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Error      *struct{ Err string }
		}
		err := dec.Decode(&p)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		require.Nil(t, p.Error, "go list: %s", p.ImportPath)
		rel, ok := relative(p.ImportPath)
		if !ok {
			continue
		}
		imports := []string{}
		for _, imp := range p.Imports {
			if r, ok := relative(imp); ok {
				imports = append(imports, r)
			}
		}
		graph[rel] = imports
	}
	return graph
}

// relative is an import path of the module without the module's path.
func relative(importPath string) (string, bool) {
	return strings.CutPrefix(importPath, module+"/")
}

// TestModuleKeepsTheNevers checks the module's own import graph.
func TestModuleKeepsTheNevers(t *testing.T) {
	graph := moduleGraph(t)
	for _, r := range rules {
		found := false
		for p := range graph {
			found = found || match(r.packages, p)
		}
		require.True(t, found, "rule %q names %s, which the module no longer has: the table must follow the layout", r.role, r.packages)
	}
	require.Empty(t, violations(graph, rules))
}

// TestViolations checks the rules on import graphs made up for the
// purpose, so that a broken rule is seen to fail.
func TestViolations(t *testing.T) {
	for _, tc := range []struct {
		name  string
		graph map[string][]string
		want  []string
	}{
		{"clean", map[string][]string{
			"sandbox": {"toolset", "deps", "cache"}, "toolset": {}, "deps": {"toolset"}, "cache": {},
			"agent/openai": {"agent", "toolset"}, "agent": {"toolset"},
			"internal/assemble": {"sandbox", "mocks"}, "mocks": {"mocks/world"}, "mocks/world": {},
			"evaltasks": {"agent", "internal/assemble"},
		}, nil},
		{"harness through the composition root", map[string][]string{
			"sandbox/sandboxtest": {"internal/assemble", "sandbox"}, "internal/assemble": {"mocks/failures"}, "mocks/failures": {}, "sandbox": {},
		}, nil},
		{"harness importing a stand-in", map[string][]string{
			"sandbox/sandboxtest": {"internal/assemble", "mocks/failures"}, "internal/assemble": {"mocks/failures"}, "mocks/failures": {},
		}, []string{"engine's harnesses: sandbox/sandboxtest → mocks/failures"}},
		{"engine reaching a stand-in through a helper", map[string][]string{
			"sandbox": {"internal/helper"}, "internal/helper": {"mocks/world"}, "mocks/world": {},
		}, []string{"engine: sandbox → internal/helper → mocks/world"}},
		{"agent importing the evaluator", map[string][]string{
			"agent/baseline": {"evaltasks/textmatch"}, "evaltasks/textmatch": {},
		}, []string{"agents: agent/baseline → evaltasks/textmatch"}},
		{"agent reaching a stand-in", map[string][]string{
			"agent": {"internal/x"}, "internal/x": {"internal/y"}, "internal/y": {"mocks"}, "mocks": {},
		}, []string{"agents: agent → internal/x → internal/y → mocks"}},
		{"catalog, store and graph", map[string][]string{
			"toolset/loader": {"mocks/faker"}, "cache": {"mocks/world"}, "deps": {"toolset", "mocks/objects"},
			"toolset": {}, "mocks/faker": {}, "mocks/world": {}, "mocks/objects": {},
		}, []string{"catalog: toolset/loader → mocks/faker", "graph: deps → mocks/objects", "store: cache → mocks/world"}},
		{"a name that only starts like a role", map[string][]string{
			"agentkit": {"mocks"}, "sandboxes": {"mocks"}, "mocks": {},
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, violations(tc.graph, rules))
		})
	}
}

// TestParseGoList reads go list's stream the way moduleGraph gets it,
// keeping the module's packages and imports only.
func TestParseGoList(t *testing.T) {
	out := []byte(`{"ImportPath": "fmt", "Imports": ["io"]}
{"ImportPath": "` + module + `/agent", "Imports": ["fmt", "` + module + `/toolset"]}
{"ImportPath": "` + module + `/toolset"}`)
	require.Equal(t, map[string][]string{"agent": {"toolset"}, "toolset": {}}, parseGoList(t, out))
}
