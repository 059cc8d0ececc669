package htmlreport

import (
	"fmt"
	"html/template"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/understudy/understudy/evaltasks"
)

// reportPage is what report.html is drawn from.
type reportPage struct {
	Rep    *evaltasks.Report
	Label  string
	Style  template.CSS
	Script template.JS
	Charts [2]svgChart
	Tasks  []taskSection
	// Columns are the report's tasks, the columns of the slice tables.
	Columns    []int
	ByType     []sliceRow
	ByScenario []sliceRow
	Failures   []failureView
	// The failure browser's filter choices.
	FilterTasks    []int
	FilterOutcomes []string
	FilterAPIs     []string
}

// reportChart is the bar chart of the tasks' headline metrics, each
// labelled with its n, errors and scorer.
func reportChart(rep *evaltasks.Report) chartData {
	d := chartData{Title: "Headline metric per task"}
	for _, t := range rep.Tasks {
		m := evaltasks.HeadlineOf(t)
		d.Groups = append(d.Groups, chartGroup{
			Labels: []string{fmt.Sprintf("Task %d", t.ID), metricLabel(m)},
			Notes:  []string{"n " + nCell(t), fmt.Sprintf("err %d · %s", t.Errors, t.Scorer)},
			Bars: []chartBar{{Task: t.ID, Class: "bar", Present: true, Value: t.Metrics[m],
				Title: fmt.Sprintf("Task %d, %s: %.3f over %d instances", t.ID, metricLabel(m), t.Metrics[m], t.Planned)}},
		})
	}
	return d
}

func metricLabel(m string) string {
	if l, ok := evaltasks.MetricLabels[m]; ok {
		return l
	}
	return words(m)
}

// nCell is a task's instance count: planned, or done/planned in an
// incomplete run.
func nCell(t evaltasks.TaskReport) string {
	if t.N < t.Planned {
		return fmt.Sprintf("%d/%d", t.N, t.Planned)
	}
	return fmt.Sprint(t.Planned)
}

// countRow is one line of a breakdown: a kind, its count and its share.
type countRow struct {
	Name  string
	Count int
	Share float64
}

func countRows(m map[string]int, total int) []countRow {
	var out []countRow
	for _, k := range slices.Sorted(maps.Keys(m)) {
		share := 0.0
		if total > 0 {
			share = float64(m[k]) / float64(total)
		}
		out = append(out, countRow{Name: words(k), Count: m[k], Share: share})
	}
	return out
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

type metricRow struct {
	Label string
	Value float64
}

// taskSection is one task's breakdown.
type taskSection struct {
	evaltasks.TaskReport
	NCell      string
	MetricRows []metricRow
	OutcomeRows,
	MistakeRows,
	ErrorRows []countRow
	Chain    *chainView
	Coverage []countRow
}

type chainView struct {
	FirstBroken, Kinds, Violations []countRow
}

func newTaskSection(t evaltasks.TaskReport) taskSection {
	s := taskSection{TaskReport: t, NCell: nCell(t)}
	spec, _ := evaltasks.Spec(t.ID)
	for _, m := range spec.Metrics {
		// A metric added after the run was written is not shown as 0.
		if _, ok := t.Metrics[m]; ok {
			s.MetricRows = append(s.MetricRows, metricRow{Label: metricLabel(m), Value: t.Metrics[m]})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(t.Extra)) {
		s.MetricRows = append(s.MetricRows, metricRow{Label: upperFirst(words(k)), Value: t.Extra[k]})
	}
	s.OutcomeRows = countRows(t.Outcomes, t.Planned)
	s.MistakeRows = countRows(t.Mistakes, sum(t.Mistakes))
	s.ErrorRows = countRows(t.ErrorKinds, t.Planned)
	if c := t.Chain; c != nil {
		broken := 0
		for _, n := range c.FirstBroken {
			broken += n
		}
		cv := &chainView{Kinds: countRows(c.Kinds, sum(c.Kinds)), Violations: countRows(c.Violations, sum(c.Violations))}
		for i, n := range c.FirstBroken {
			cv.FirstBroken = append(cv.FirstBroken, countRow{Name: fmt.Sprintf("step %d", i+1), Count: n, Share: float64(n) / float64(max(broken, 1))})
		}
		s.Chain = cv
	}
	if len(t.CoverageBins) > 0 {
		total := 0
		for _, n := range t.CoverageBins {
			total += n
		}
		w := 100 / len(t.CoverageBins)
		for i, n := range t.CoverageBins {
			name := fmt.Sprintf("%d–%d%%", i*w, (i+1)*w)
			s.Coverage = append(s.Coverage, countRow{Name: name, Count: n, Share: float64(n) / float64(max(total, 1))})
		}
	}
	return s
}

// sliceRow is a row of the per-type or per-scenario table, one cell per
// column task.
type sliceRow struct {
	Name  string
	Cells []sliceCellView
}

type sliceCellView struct {
	Present bool
	evaltasks.SliceCell
}

func sliceRows(slices []evaltasks.Slice, columns []int) []sliceRow {
	var out []sliceRow
	for _, sl := range slices {
		row := sliceRow{Name: sl.Name}
		for _, t := range columns {
			cell := sliceCellView{}
			for _, c := range sl.Cells {
				if c.Task == t {
					cell = sliceCellView{Present: true, SliceCell: c}
				}
			}
			row.Cells = append(row.Cells, cell)
		}
		out = append(out, row)
	}
	return out
}

// sliceTable is a per-type or per-scenario table for the template.
type sliceTable struct {
	Head    string
	Columns []int
	Rows    []sliceRow
}

func slicesOf(columns []int, rows []sliceRow, head string) sliceTable {
	return sliceTable{Head: head, Columns: columns, Rows: rows}
}

// failureView is one failed instance in the browser.
type failureView struct {
	evaltasks.Failure
	APIList string // space-separated, for the filter
	Summary string
	Versus  goldView
	// Link is the failure's fragment, #f-KEY: its deep link.
	Link template.URL
}

// fragment is #id as a URL writes it: the id percent-encoded only where
// it must be (a key's "/" stays as it is, readable in a shared link).
// It is a fragment of the page itself, never a place to go: safe to
// hand the template as a URL.
func fragment(id string) template.URL {
	return template.URL((&url.URL{Fragment: id}).String())
}

func newReportPage(rep *evaltasks.Report) reportPage {
	p := reportPage{Rep: rep, Label: label(rep), Style: style, Script: script, Charts: charts(reportChart(rep))}
	for _, t := range rep.Tasks {
		p.Tasks = append(p.Tasks, newTaskSection(t))
		p.Columns = append(p.Columns, t.ID)
	}
	p.ByType = sliceRows(rep.ByType, p.Columns)
	p.ByScenario = sliceRows(rep.ByScenario, p.Columns)
	tasks, outcomes, apis := map[int]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range rep.Failures {
		if f.Result == nil {
			continue
		}
		tasks[f.Task], outcomes[f.Outcome] = true, true
		for _, a := range f.APIs {
			apis[a] = true
		}
		p.Failures = append(p.Failures, failureView{Failure: f, APIList: strings.Join(f.APIs, " "), Summary: clip(f.Text, 140), Versus: newGoldView(f), Link: fragment("f-" + f.Key)})
	}
	p.FilterTasks = slices.Sorted(maps.Keys(tasks))
	p.FilterOutcomes = slices.Sorted(maps.Keys(outcomes))
	p.FilterAPIs = slices.Sorted(maps.Keys(apis))
	return p
}

func upperFirst(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	return strings.ToUpper(string(r[:1])) + string(r[1:])
}

// clip shortens a text to at most n runes for a one-line summary.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
