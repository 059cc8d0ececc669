package server

import (
	"bytes"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/understudy/understudy/docs"
)

// ProblemPath is where the server serves the page of each problem type:
// a problem's type is ProblemPath + its name, a reference relative to the
// server (RFC 7807 §3.1 allows any URI reference), so that it resolves on
// whatever address the server is reached at.
const ProblemPath = "/problems/"

// problemPage is the section of docs/problems.md about one problem type.
type problemPage struct {
	Name string
	// Text is the section as written (markdown), without its heading.
	Text string
}

// problemPages parses docs/problems.md once: its "#### problem-NAME"
// sections, in the page's order, and the introduction before them.
var problemPages = sync.OnceValues(func() (intro string, pages []problemPage) {
	var cur *problemPage
	var head strings.Builder
	for line := range strings.Lines(string(docs.Problems)) {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "#### problem-"); ok {
			pages = append(pages, problemPage{Name: name})
			cur = &pages[len(pages)-1]
			continue
		}
		if cur == nil {
			head.WriteString(line)
		} else {
			cur.Text += line
		}
	}
	for i := range pages {
		pages[i].Text = strings.TrimSpace(pages[i].Text) + "\n"
	}
	return strings.TrimSpace(head.String()) + "\n", pages
})

// problemPageOf is the page of a problem type, if the docs have one.
func problemPageOf(name string) (problemPage, bool) {
	_, pages := problemPages()
	i := slices.IndexFunc(pages, func(p problemPage) bool { return p.Name == name })
	if i < 0 {
		return problemPage{}, false
	}
	return pages[i], true
}

// problemIndex is GET /problems: every problem type with its first line.
func (s *Server) problemIndex(r *http.Request) (any, error) {
	intro, pages := problemPages()
	var b strings.Builder
	b.WriteString(intro)
	b.WriteString("\n")
	for _, p := range pages {
		first, _, _ := strings.Cut(p.Text, "\n")
		fmt.Fprintf(&b, "- [%s](%s%s): %s\n", p.Name, ProblemPath, p.Name, first)
	}
	return pageBody(r, "Problems", b.String()), nil
}

// problemDoc is GET /problems/{name}: the page a problem's type points to.
func (s *Server) problemDoc(r *http.Request) (any, error) {
	name := r.PathValue("name")
	p, ok := problemPageOf(name)
	if !ok {
		return nil, newProblem(http.StatusNotFound, "no-route", "No such problem type",
			fmt.Sprintf("no problem type is named %q; GET %s lists them", prefix(name, 256), strings.TrimSuffix(ProblemPath, "/")))
	}
	return pageBody(r, "problem-"+p.Name, p.Text+"\nAll problem types: "+strings.TrimSuffix(ProblemPath, "/")+"\n"), nil
}

// pageBody answers a documentation page as HTML to a client that asks
// for it (a browser) and as the markdown text it is written in otherwise
// (curl, a terminal).
func pageBody(r *http.Request, title, text string) *rawBody {
	vary := http.Header{"Vary": {"Accept"}}
	if !wantsHTML(r.Header.Get("Accept")) {
		return &rawBody{status: http.StatusOK, contentType: "text/plain; charset=utf-8", header: vary, body: []byte(text)}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>%s</title></head>\n<body>\n<h1>%s</h1>\n", html.EscapeString(title), html.EscapeString(title))
	for para := range strings.SplitSeq(strings.TrimSpace(text), "\n\n") {
		lines := strings.Split(para, "\n")
		if strings.HasPrefix(lines[0], "- ") {
			b.WriteString("<ul>\n")
			for _, l := range lines {
				fmt.Fprintf(&b, "<li>%s</li>\n", inlineHTML(strings.TrimPrefix(l, "- ")))
			}
			b.WriteString("</ul>\n")
			continue
		}
		if h, ok := strings.CutPrefix(lines[0], "# "); ok && len(lines) == 1 {
			fmt.Fprintf(&b, "<h2>%s</h2>\n", inlineHTML(h))
			continue
		}
		fmt.Fprintf(&b, "<p>%s</p>\n", inlineHTML(strings.Join(lines, " ")))
	}
	b.WriteString("</body>\n</html>\n")
	return &rawBody{status: http.StatusOK, contentType: "text/html; charset=utf-8", header: vary, body: b.Bytes()}
}

// wantsHTML tells whether an Accept header names text/html before (or
// instead of) plain text: a browser's does, curl's "*/*" does not.
func wantsHTML(accept string) bool {
	for part := range strings.SplitSeq(accept, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		switch strings.ToLower(strings.TrimSpace(mt)) {
		case "text/html", "application/xhtml+xml":
			return true
		case "text/plain", "text/markdown":
			return false
		}
	}
	return false
}

var (
	mdCode = regexp.MustCompile("`([^`]+)`")
	mdLink = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
)

// inlineHTML renders a line of the pages' markdown: code spans, links
// (a link to another section, #problem-NAME, goes to that problem's page)
// and escaped text.
func inlineHTML(s string) string {
	var b strings.Builder
	for s != "" {
		code, link := mdCode.FindStringSubmatchIndex(s), mdLink.FindStringSubmatchIndex(s)
		switch {
		case code == nil && link == nil:
			b.WriteString(html.EscapeString(s))
			s = ""
		case link == nil || code != nil && code[0] < link[0]:
			b.WriteString(html.EscapeString(s[:code[0]]))
			b.WriteString("<code>" + html.EscapeString(s[code[2]:code[3]]) + "</code>")
			s = s[code[1]:]
		default:
			b.WriteString(html.EscapeString(s[:link[0]]))
			href := s[link[4]:link[5]]
			if name, ok := strings.CutPrefix(href, "#problem-"); ok {
				href = ProblemPath + name
			}
			fmt.Fprintf(&b, `<a href="%s">%s</a>`, html.EscapeString(href), inlineHTML(s[link[2]:link[3]]))
			s = s[link[1]:]
		}
	}
	return b.String()
}
