package loader_test

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/tbgen"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

// TestUniverseLoadsEveryTool loads generated StableToolBench trees (the
// committed slice and a larger one) and checks them against the
// generator's manifest: the files left out are exactly those that are no
// tool (malformed, not an object, empty) and the older copies; every
// other file loads with every API it lists, whatever defect it has.
func TestUniverseLoadsEveryTool(t *testing.T) {
	bigger, _ := tbgen.WriteTB(t, tbgen.Options{Seed: 7, Tools: 1500, Queries: []int{1, 1, 1, 1, 1, 1}, MinPerKind: 2, Compact: true})
	for name, dir := range map[string]string{"slice": tbgen.SliceDir(), "1,500 tools": bigger} {
		t.Run(name, func(t *testing.T) {
			m, err := tbgen.ReadManifest(dir)
			require.NoError(t, err)
			root := filepath.Join(dir, "tools")
			c, err := loader.Load([]string{root}, false)
			require.NoError(t, err)

			rel := func(p string) string {
				r, err := filepath.Rel(dir, p)
				require.NoError(t, err)
				return filepath.ToSlash(r)
			}
			notTools := map[string]bool{}
			for _, d := range m.Defects {
				switch d.Kind {
				case "malformed-json", "not-object", "empty-file", "copy-file":
					notTools[d.File] = true
				}
			}
			var skipped []string
			for _, s := range c.Skipped() {
				skipped = append(skipped, rel(s.File))
			}
			require.ElementsMatch(t, keys(notTools), skipped, "only files that are no tool, and copies, are left out")

			// Every other file is a tool with all its APIs.
			loaded := map[string]*toolset.Tool{}
			for _, tool := range c.Tools() {
				loaded[rel(tool.Source)] = tool
			}
			files := 0
			require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
				require.NoError(t, err)
				if d.IsDir() || notTools[rel(p)] {
					return nil
				}
				files++
				tool := loaded[rel(p)]
				require.NotNil(t, tool, "%s is not loaded", rel(p))
				require.Len(t, tool.APIs, apiCount(t, p), "%s: every API loads", rel(p))
				return nil
			}))
			require.Equal(t, files, len(c.Tools()))
			require.Equal(t, m.Tools, len(c.Tools()))

			byKind := map[string]int{}
			for _, d := range m.Defects {
				byKind[d.Kind]++
				category := path.Base(path.Dir(d.File))
				tool := loaded[d.File]
				switch d.Kind {
				case "duplicate-param":
					a := tool.API(d.API)
					require.NotNil(t, a, "%s: %s", d.File, d.API)
					n := 0
					for _, p := range a.Params {
						if p.Name == d.Param {
							n++
						}
					}
					require.Equal(t, 1, n, "%s: %s keeps one %s", d.File, d.API, d.Param)
					require.True(t, hasNote(tool, `parameter "`+d.Param+`" is documented again`), "%s: %v", d.File, tool.Notes)
				case "api-name-twin":
					a := tool.API(d.API)
					require.NotNil(t, a)
					require.Equal(t, d.API, a.Name, "the twin answers to its own name")
					require.Same(t, a, c.APIByFunction(a.FunctionName()), "and has a function name of its own")
					require.NotEqual(t, toolset.StandardizeAPIName(a.Name), a.StandardizedName())
					require.True(t, hasNote(tool, "standardizes like"), "%s: %v", d.File, tool.Notes)
				case "file-name-mismatch":
					stem := strings.TrimSuffix(path.Base(d.File), ".json")
					require.Same(t, tool, c.ToolIn(category, d.Tool), "by its name")
					require.Same(t, tool, c.ToolIn(category, stem), "by its file's name %q", stem)
				case "category-twin":
					require.Same(t, tool, c.ToolIn(category, d.Tool))
				}
			}
			for _, kind := range []string{"duplicate-param", "api-name-twin", "file-name-mismatch", "category-twin", "copy-file", "malformed-json"} {
				require.NotZero(t, byKind[kind], "the tree has no %s defect to check", kind)
			}
		})
	}
}

func apiCount(t *testing.T, file string) int {
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var doc struct {
		APIs []json.RawMessage `json:"api_list"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	return len(doc.APIs)
}

func hasNote(t *toolset.Tool, s string) bool {
	for _, n := range t.Notes {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
