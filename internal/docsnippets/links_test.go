package docsnippets

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"github.com/stretchr/testify/require"
)

var (
	// linkTarget is the (target) of an inline link or image, with an
	// optional "title".
	linkTarget = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// codeSpan is inline code: what it holds is shown, never linked.
	codeSpan = regexp.MustCompile("`+[^`]*`+")
	// atxHeading is a heading line, "## text" with optional closing #s.
	atxHeading = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)
	// inlineLink keeps a link's or image's text in a heading.
	inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	// scheme marks a link that leaves the repository (https:, mailto:).
	scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// line is one line of a page outside its fenced code blocks.
type line struct {
	n    int
	text string
}

// prose drops a page's fenced code blocks: a "#" there is a shell
// comment, a "](" part of the code.
func prose(doc string) []line {
	var out []line
	fence := ""
	for i, l := range strings.Split(doc, "\n") {
		trimmed := strings.TrimLeft(l, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		out = append(out, line{i + 1, l})
	}
	return out
}

// slug is the anchor GitHub gives a heading: its text without markup,
// lower-cased, every character but letters, digits, '_', '-' and spaces
// dropped, and each space a '-'.
func slug(heading string) string {
	heading = inlineLink.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors are the heading anchors of a page; a heading whose slug came
// before gets "-1", "-2", … as on GitHub.
func anchors(doc string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range prose(doc) {
		m := atxHeading.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// brokenLinks lists every local link of the pages (slash-separated paths
// in fsys) that does not resolve, as "page:line: target: why": its path
// must name a file or folder of fsys, relative to the page, and its
// #anchor a heading of the Markdown page it names.
func brokenLinks(fsys fs.FS, pages []string) []string {
	var broken []string
	docs := map[string]string{}
	read := func(name string) (string, error) {
		if d, ok := docs[name]; ok {
			return d, nil
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return "", err
		}
		docs[name] = string(b)
		return docs[name], nil
	}
	for _, page := range pages {
		doc, err := read(page)
		if err != nil {
			broken = append(broken, fmt.Sprintf("%s: %v", page, err))
			continue
		}
		for _, l := range prose(doc) {
			text := codeSpan.ReplaceAllString(l.text, "")
			for _, m := range linkTarget.FindAllStringSubmatch(text, -1) {
				target := m[1]
				if scheme.MatchString(target) || strings.HasPrefix(target, "//") {
					continue
				}
				if why := resolve(fsys, read, page, target); why != "" {
					broken = append(broken, fmt.Sprintf("%s:%d: %s: %s", page, l.n, target, why))
				}
			}
		}
	}
	return broken
}

// resolve says why target, linked from page, does not resolve ("" when
// it does).
func resolve(fsys fs.FS, read func(string) (string, error), page, target string) string {
	p, anchor, _ := strings.Cut(target, "#")
	p, err := url.PathUnescape(p)
	if err != nil {
		return err.Error()
	}
	name := page
	if p != "" {
		name = path.Join(path.Dir(page), p)
		if strings.HasPrefix(p, "/") || !fs.ValidPath(name) {
			return "outside the repository"
		}
		if _, err := fs.Stat(fsys, name); err != nil {
			return "no such file or folder"
		}
	}
	if anchor == "" {
		return ""
	}
	if !strings.HasSuffix(name, ".md") {
		return "an anchor in a page that is not Markdown"
	}
	doc, err := read(name)
	if err != nil {
		return err.Error()
	}
	if !anchors(doc)[anchor] {
		return fmt.Sprintf("%s has no heading #%s", name, anchor)
	}
	return ""
}

func TestSlug(t *testing.T) {
	tests := []struct{ heading, want string }{
		{"Two commands", "two-commands"},
		{"Transports — the same call five ways", "transports--the-same-call-five-ways"},
		{"Coming from ToolBench or StableToolBench: queries, solvers and metrics", "coming-from-toolbench-or-stabletoolbench-queries-solvers-and-metrics"},
		{"AnyTool: `-suite toolbench -solver anytool`", "anytool--suite-toolbench--solver-anytool"},
		{"Public holidays (`holidays.json`, `public_holiday`, `calendar_tools`)", "public-holidays-holidaysjson-public_holiday-calendar_tools"},
		{"problem-invalid-arguments", "problem-invalid-arguments"},
		{"See [the tool server](docs/toolserver.md)", "see-the-tool-server"},
		{"Ünïcode stays, 1.5× goes", "ünïcode-stays-15-goes"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, slug(tt.heading), tt.heading)
	}
}

func TestBrokenLinks(t *testing.T) {
	files := fstest.MapFS{
		"README.md":     {Data: []byte("# Top\n\n## Two commands\n\n## Two commands\n")},
		"docs/a.md":     {Data: []byte("# Page A\n\n## Transports — five ways\n\n```sh\n# not a heading\n```\n")},
		"docs/b.png":    {Data: []byte("png")},
		"cmd/x/main.go": {Data: []byte("package main\n")},
	}
	tests := []struct {
		name string
		at   string // the page's path; docs/p.md when empty
		text string
		want []string
	}{
		{"a heading of another page", "p.md", "[a](docs/a.md#transports--five-ways)", nil},
		{"up and back, into a folder and an image", "", "[top](../README.md#top) [x](../cmd/x) ![b](b.png)", nil},
		{"a heading of the same page", "", "## Here\n[here](#here)", nil},
		{"a repeated heading's anchor", "p.md", "[second](README.md#two-commands-1)", nil},
		{"elsewhere, and in code", "", "[w](https://example.com/x#y) [m](mailto:a@b.c)\n`[no](missing.md)`\n```\n[no](missing.md)\n```", nil},
		{"an escaped path", "", "[b](b%2Epng)", nil},
		{"no such page", "", "[gone](gone.md)", []string{"docs/p.md:1: gone.md: no such file or folder"}},
		{"no such heading", "", "[a](a.md#transports)", []string{"docs/p.md:1: a.md#transports: docs/a.md has no heading #transports"}},
		{"a shell comment is no heading", "", "[a](a.md#not-a-heading)", []string{"docs/p.md:1: a.md#not-a-heading: docs/a.md has no heading #not-a-heading"}},
		{"no heading on the same page", "", "\n[x](#nowhere)", []string{"docs/p.md:2: #nowhere: docs/p.md has no heading #nowhere"}},
		{"a third repeat that is not there", "", "[r](../README.md#two-commands-2)", []string{"docs/p.md:1: ../README.md#two-commands-2: README.md has no heading #two-commands-2"}},
		{"out of the repository", "", "[up](../../outside.md)", []string{"docs/p.md:1: ../../outside.md: outside the repository"}},
		{"an anchor in a Go file", "", "[m](../cmd/x/main.go#L1)", []string{"docs/p.md:1: ../cmd/x/main.go#L1: an anchor in a page that is not Markdown"}},
		{"the README's path, written from docs/", "", "[a](docs/a.md)", []string{"docs/p.md:1: docs/a.md: no such file or folder"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := tt.at
			if at == "" {
				at = "docs/p.md"
			}
			fsys := fstest.MapFS{at: {Data: []byte(tt.text)}}
			for k, v := range files {
				fsys[k] = v
			}
			require.Equal(t, tt.want, brokenLinks(fsys, []string{at}))
		})
	}
}

// TestDocsLinksResolve: every local link of README.md and docs/*.md names
// a file or folder of the repository, and every #anchor a heading of its
// page, so that a page moved or a heading renamed cannot leave a link
// pointing nowhere.
func TestDocsLinksResolve(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	var pages []string
	for _, p := range docPages(t, root) {
		rel, err := filepath.Rel(root, p)
		require.NoError(t, err)
		pages = append(pages, filepath.ToSlash(rel))
	}
	require.Empty(t, brokenLinks(os.DirFS(root), pages))
}

func FuzzBrokenLinks(f *testing.F) {
	f.Add("# A\n[a](#a) [b](b.md#c) ![i](../x.png)\n```\n[c](d)\n")
	f.Add("## `x` [y](z) ##\n[](#x-y)\n~~~\n# in code\n~~~\n[q](%zz)")
	f.Fuzz(func(t *testing.T, doc string) {
		fsys := fstest.MapFS{"docs/p.md": {Data: []byte(doc)}, "docs/b.md": {Data: []byte("# C\n")}}
		lines := strings.Count(doc, "\n") + 1
		for _, b := range brokenLinks(fsys, []string{"docs/p.md"}) {
			var n int
			_, err := fmt.Sscanf(strings.TrimPrefix(b, "docs/p.md:"), "%d:", &n)
			require.NoError(t, err, b)
			require.True(t, n >= 1 && n <= lines, "%s: line %d of %d", b, n, lines)
		}
	})
}
