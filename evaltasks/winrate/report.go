package winrate

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/understudy/understudy/evaltasks"
)

// JSON is the report's canonical encoding.
func (r *Report) JSON() ([]byte, error) { return evaltasks.EncodeReport(r) }

func pct(v float64) string { return fmt.Sprintf("%.1f", 100*v) }

func ci(v [2]float64) string { return fmt.Sprintf("[%.1f, %.1f]", 100*v[0], 100*v[1]) }

func (r *Report) rows() []Row { return append(slices.Clone(r.Groups), r.Overall) }

func groupName(g string) string {
	if g == "" {
		return "all"
	}
	return g
}

// WriteTable prints ToolEval's Table 4 row per query file (ties split),
// then the raw shares (Table 6).
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "Win rate of %s against %s (judge %s, %d votes each, majority)\n", r.LabelA, r.LabelB, r.Judge, r.Votes)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Queries\twin rate %\t95% CI\twin\ttie\tlose\traw win %\traw tie %\tn\tby pass rate\terrors")
	for _, g := range r.rows() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%d\t%d\t%d\n", groupName(g.Group), pct(g.WinRate), ci(g.WinRateCI), g.Win, g.Tie, g.Lose,
			pct(g.RawWin), pct(g.RawTie), g.N, g.ByPassRate, g.Errors)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range r.notes() {
		fmt.Fprintln(w, n)
	}
	return nil
}

func (r *Report) notes() []string {
	out := []string{"Win rate splits ties half to each side (ToolEval's Table 4); raw win and tie are unsplit (Table 6). " +
		"A query one run passed and the other failed is decided by the pass rate without a vote; intervals are 95 % Wilson intervals."}
	if r.OnlyOne > 0 {
		out = append(out, fmt.Sprintf("%d queries were answered by one run only and are not compared.", r.OnlyOne))
	}
	if e := r.Overall.Errors; e > 0 {
		out = append(out, fmt.Sprintf("%d comparisons got no majority from the judge and are in no rate.", e))
	}
	return out
}

// Markdown is the comparison as Markdown.
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Win rate: %s against %s\n\nJudge %s, %d votes per comparison, majority.\n\n", r.LabelA, r.LabelB, r.Judge, r.Votes)
	b.WriteString("| Queries | Win rate % | 95% CI | Win | Tie | Lose | Raw win % | Raw tie % | n | By pass rate | Errors |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, g := range r.rows() {
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %s | %s | %d | %d | %d |\n", groupName(g.Group), pct(g.WinRate), ci(g.WinRateCI), g.Win, g.Tie, g.Lose,
			pct(g.RawWin), pct(g.RawTie), g.N, g.ByPassRate, g.Errors)
	}
	b.WriteString("\n")
	for _, n := range r.notes() {
		b.WriteString("- " + n + "\n")
	}
	return b.Bytes()
}

var page = template.Must(template.New("winrate").Funcs(template.FuncMap{"pct": pct, "ci": ci, "group": groupName}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Win rate: {{.LabelA}} against {{.LabelB}}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}td:first-child,th:first-child{text-align:left}.win{color:#070}.lose{color:#a00}</style>
</head><body>
<h1>Win rate: {{.LabelA}} against {{.LabelB}}</h1>
<p>Judge {{.Judge}}, {{.Votes}} votes per comparison, majority.</p>
<table><tr><th>Queries</th><th>Win rate %</th><th>95% CI</th><th>Win</th><th>Tie</th><th>Lose</th><th>Raw win %</th><th>Raw tie %</th><th>n</th><th>By pass rate</th><th>Errors</th></tr>
{{range .Rows}}<tr><td>{{group .Group}}</td><td>{{pct .WinRate}}</td><td>{{ci .WinRateCI}}</td><td>{{.Win}}</td><td>{{.Tie}}</td><td>{{.Lose}}</td><td>{{pct .RawWin}}</td><td>{{pct .RawTie}}</td><td>{{.N}}</td><td>{{.ByPassRate}}</td><td>{{.Errors}}</td></tr>
{{end}}</table>
<ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>
<h2>Comparisons</h2>
<table><tr><th>Query</th><th>Outcome</th><th>By</th><th>Votes</th></tr>
{{range .Comparisons}}<tr><td>{{.Key}}</td><td class="{{.Outcome}}">{{if .Error}}{{.Error}}{{else}}{{.Outcome}}{{end}}</td><td>{{.By}}</td><td>{{range $i, $v := .Votes}}{{if $i}}/{{end}}{{$v}}{{end}}</td></tr>
{{end}}</table>
</body></html>
`))

// HTML is the comparison page (compare.html).
func (r *Report) HTML() ([]byte, error) {
	var b bytes.Buffer
	err := page.Execute(&b, struct {
		*Report
		Rows  []Row
		Notes []string
	}{r, r.rows(), r.notes()})
	return b.Bytes(), err
}
