package docsnippets

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// snippet is one ```go block of a page.
type snippet struct {
	page string
	line int
	code string
}

var goBlock = regexp.MustCompile("(?ms)^```go\n(.*?)^```")

// docPages lists README.md and docs/*.md under root: the pages whose
// snippets and links are tested.
func docPages(t *testing.T, root string) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	require.NotEmpty(t, pages, "docs/ holds the topic pages")
	return append([]string{filepath.Join(root, "README.md")}, pages...)
}

// snippets reads the Go blocks of README.md and docs/*.md under root.
func snippets(t *testing.T, root string) []snippet {
	t.Helper()
	var out []snippet
	for _, p := range docPages(t, root) {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		rel, _ := filepath.Rel(root, p)
		for _, m := range goBlock.FindAllSubmatchIndex(b, -1) {
			out = append(out, snippet{page: rel, line: 1 + strings.Count(string(b[:m[0]]), "\n"), code: string(b[m[2]:m[3]])})
		}
	}
	return out
}

// TestGoSnippetsCompile: every Go block of the README and the docs pages
// is a whole file (package clause and imports) that compiles against
// this module, each as a package of its own — what a reader pastes into
// a _test.go file builds. The files are laid over the module with go's
// -overlay, never written into it.
func TestGoSnippetsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every snippet")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH: the snippets are not compiled")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	all := snippets(t, root)
	require.NotEmpty(t, all, "the README shows Go code")
	dir := t.TempDir()
	replace := map[string]string{}
	var pkgs []string
	for i, s := range all {
		where := fmt.Sprintf("%s:%d", s.page, s.line)
		require.Regexp(t, `(?m)^package \w+`, s.code, "%s: a snippet is a whole file, with its package clause and imports", where)
		file := filepath.Join(dir, fmt.Sprintf("snippet%d_test.go", i))
		require.NoError(t, os.WriteFile(file, []byte(s.code), 0o644))
		pkg := filepath.Join(root, "internal", "docsnippets", "compiled", fmt.Sprintf("s%d", i))
		replace[filepath.Join(pkg, "snippet_test.go")] = file
		pkgs = append(pkgs, "./internal/docsnippets/compiled/"+fmt.Sprintf("s%d", i))
	}
	overlay := filepath.Join(dir, "overlay.json")
	b, err := json.Marshal(map[string]any{"Replace": replace})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(overlay, b, 0o644))
	for i, pkg := range pkgs {
		cmd := exec.Command(goTool, "test", "-vet=off", "-c", "-o", os.DevNull, "-overlay", overlay, pkg)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s:%d does not compile:\n%s", all[i].page, all[i].line, out)
	}
}
