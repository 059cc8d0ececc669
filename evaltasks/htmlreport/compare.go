package htmlreport

import (
	"bytes"
	"fmt"
	"html/template"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/understudy/understudy/evaltasks"
)

// Run is one run directory's report, to compare.
type Run struct {
	Dir    string
	Report *evaltasks.Report
}

// CompareOptions tunes a comparison.
type CompareOptions struct {
	// AllowMismatch compares runs over different datasets, date lines, task sets or
	// instance samples; their differences then mix the agents with the data.
	AllowMismatch bool
	// Resamples is the number of bootstrap resamples (default 1000).
	Resamples int
}

// DefaultResamples is the bootstrap's number of resamples.
const DefaultResamples = 1000

// Confidence of the intervals.
const confidence = 0.95

// MinClaimN is the fewest instances a task needs in each run before a
// difference is called significant: the percentile bootstrap of a handful
// of pass/fail instances gives intervals of one point (two instances
// failed by one run and passed by the other always resample to the same
// difference), which would claim what a few instances cannot show.
const MinClaimN = 20

// MismatchError is a comparison refused because the runs were not made
// over the same instances: their difference would measure the data.
type MismatchError struct {
	// What differs: "dataset", "date line", "tasks" or "instances".
	What string
	// Runs are the two runs that differ, Values what each has.
	Runs   [2]string
	Values [2]string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("runs %s and %s have different %s (%s vs %s)", e.Runs[0], e.Runs[1], e.What, e.Values[0], e.Values[1])
}

// Comparison is several runs side by side: Figure 4 of the evaluation
// paper (agents × tasks), with the difference of every run from the first
// and bootstrap intervals.
type Comparison struct {
	Runs  []RunInfo
	Tasks []TaskComparison
	// Resamples is the number of bootstrap resamples behind the intervals.
	Resamples int
	// Mismatches lists what differs between runs compared anyway.
	Mismatches []string
}

// RunInfo names a compared run.
type RunInfo struct {
	Label    string
	Dir      string
	Agent    string
	Model    string
	Dataset  string
	Complete bool
}

// TaskComparison is one task's row: each run's value and each later
// run's difference from the first.
type TaskComparison struct {
	Task   int
	Name   string
	Metric string
	// Paired tells whether every run scored the same instances, so that
	// the bootstrap resamples instances, not runs' scores independently.
	Paired bool
	Cells  []Cell
	Diffs  []Diff // Diffs[i] is run i+1 minus run 0
}

// Cell is a run's value of a task's metric with its 95% interval. A run
// without the task, or without per-instance verdicts (a report.json of an
// older evalrun), has no interval.
type Cell struct {
	Present     bool
	Value       float64
	N           int
	HasInterval bool
	Lo, Hi      float64
}

// Diff is a run's difference from the first run, with its interval;
// Significant when the interval excludes 0 over at least MinClaimN
// instances in both runs (Small when fewer).
type Diff struct {
	Present     bool
	Delta       float64
	HasInterval bool
	Lo, Hi      float64
	Significant bool
	Small       bool
}

// Compare puts runs side by side. It refuses runs over different
// datasets, date lines, task sets or instance samples unless opts.AllowMismatch.
func Compare(runs []Run, opts CompareOptions) (*Comparison, error) {
	if len(runs) < 2 {
		return nil, fmt.Errorf("compare: need at least two runs, have %d", len(runs))
	}
	if opts.Resamples <= 0 {
		opts.Resamples = DefaultResamples
	}
	c := &Comparison{Resamples: opts.Resamples}
	labels := runLabels(runs)
	for i, r := range runs {
		c.Runs = append(c.Runs, RunInfo{Label: labels[i], Dir: r.Dir, Agent: r.Report.Agent, Model: r.Report.Model, Dataset: r.Report.Dataset, Complete: r.Report.Complete})
	}
	for i := 1; i < len(runs); i++ {
		for _, mm := range mismatches(runs[0], runs[i]) {
			if !opts.AllowMismatch {
				return nil, mm
			}
			c.Mismatches = append(c.Mismatches, mm.Error())
		}
	}
	for _, task := range taskUnion(runs) {
		c.Tasks = append(c.Tasks, compareTask(runs, task, opts.Resamples))
	}
	return c, nil
}

// runLabels names runs by agent (and model); runs of the same agent are
// told apart by their directory.
func runLabels(runs []Run) []string {
	out := make([]string, len(runs))
	count := map[string]int{}
	for i, r := range runs {
		out[i] = label(r.Report)
		count[out[i]]++
	}
	for i, r := range runs {
		if count[out[i]] > 1 {
			out[i] += " [" + filepath.Base(r.Dir) + "]"
		}
	}
	return out
}

func taskIDs(rep *evaltasks.Report) []int {
	ids := make([]int, len(rep.Tasks))
	for i, t := range rep.Tasks {
		ids[i] = t.ID
	}
	return ids
}

func instanceKeys(rep *evaltasks.Report) []string {
	keys := make([]string, len(rep.Instances))
	for i, s := range rep.Instances {
		keys[i] = s.Key
	}
	sort.Strings(keys)
	return keys
}

// mismatches says how run b differs from run a in what it was run over.
func mismatches(a, b Run) []*MismatchError {
	var out []*MismatchError
	dirs := [2]string{a.Dir, b.Dir}
	if a.Report.Dataset != b.Report.Dataset {
		out = append(out, &MismatchError{What: "dataset", Runs: dirs, Values: [2]string{a.Report.Dataset, b.Report.Dataset}})
	}
	if a.Report.DateLine != b.Report.DateLine {
		out = append(out, &MismatchError{What: "date line", Runs: dirs, Values: [2]string{dateLine(a.Report.DateLine), dateLine(b.Report.DateLine)}})
	}
	ta, tb := taskIDs(a.Report), taskIDs(b.Report)
	if !slices.Equal(ta, tb) {
		out = append(out, &MismatchError{What: "tasks", Runs: dirs, Values: [2]string{fmt.Sprint(ta), fmt.Sprint(tb)}})
	} else if ka, kb := instanceKeys(a.Report), instanceKeys(b.Report); len(ka) > 0 && len(kb) > 0 && !slices.Equal(ka, kb) {
		out = append(out, &MismatchError{What: "instances", Runs: dirs,
			Values: [2]string{fmt.Sprintf("%d instances", len(ka)), fmt.Sprintf("%d instances, another sample", len(kb))}})
	}
	return out
}

// dateLine names a run's date line for a mismatch.
func dateLine(s string) string {
	if s == "" {
		return "no date line"
	}
	return fmt.Sprintf("%q", s)
}

// taskUnion is every task of any run, in order.
func taskUnion(runs []Run) []int {
	seen := map[int]bool{}
	for _, r := range runs {
		for _, t := range r.Report.Tasks {
			seen[t.ID] = true
		}
	}
	var ids []int
	for id := range seen {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

func taskOf(rep *evaltasks.Report, id int) (evaltasks.TaskReport, bool) {
	for _, t := range rep.Tasks {
		if t.ID == id {
			return t, true
		}
	}
	return evaltasks.TaskReport{}, false
}

func scoresOf(rep *evaltasks.Report, id int) []evaltasks.InstanceScore {
	var out []evaltasks.InstanceScore
	for _, s := range rep.Instances {
		if s.Task == id {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Key < out[b].Key })
	return out
}

// compareTask bootstraps one task's metric: percentile intervals of each
// run's value and of each difference from the first run. When every run
// scored the same instances the resamples are paired (the same instances
// drawn for every run), which is what makes a difference between agents
// on the same questions detectable; otherwise each run is resampled on
// its own. The generator is seeded by the task, so a comparison prints the
// same every time.
func compareTask(runs []Run, id, resamples int) TaskComparison {
	spec, _ := evaltasks.Spec(id)
	metric := evaltasks.Headline(id)
	tc := TaskComparison{Task: id, Name: spec.Name, Metric: metric, Cells: make([]Cell, len(runs)), Diffs: make([]Diff, len(runs)-1)}
	scores := make([][]evaltasks.InstanceScore, len(runs))
	for i, r := range runs {
		t, ok := taskOf(r.Report, id)
		if !ok {
			continue
		}
		tc.Cells[i] = Cell{Present: true, Value: t.Metrics[metric], N: t.Planned}
		scores[i] = scoresOf(r.Report, id)
		tc.Cells[i].HasInterval = len(scores[i]) > 0
	}
	tc.Paired = true
	for i := range runs {
		if !tc.Cells[i].HasInterval || !sameKeys(scores[0], scores[i]) {
			tc.Paired = false
		}
	}
	rng := rand.New(rand.NewPCG(uint64(id), 0x5eed_c0de_b007))
	values := make([][]float64, len(runs))
	sample := make([]evaltasks.InstanceScore, 0, 64)
	draw := func(from []evaltasks.InstanceScore, idx []int) []evaltasks.InstanceScore {
		sample = sample[:0]
		for _, j := range idx {
			sample = append(sample, from[j])
		}
		return sample
	}
	var idx []int
	for b := 0; b < resamples; b++ {
		if tc.Paired {
			idx = indices(rng, len(scores[0]), idx)
		}
		for i := range runs {
			if !tc.Cells[i].HasInterval {
				continue
			}
			if !tc.Paired {
				idx = indices(rng, len(scores[i]), idx)
			}
			values[i] = append(values[i], evaltasks.MetricOver(id, metric, draw(scores[i], idx)))
		}
	}
	for i := range runs {
		if tc.Cells[i].HasInterval {
			tc.Cells[i].Lo, tc.Cells[i].Hi = percentiles(values[i])
		}
	}
	for i := 1; i < len(runs); i++ {
		a, b := tc.Cells[0], tc.Cells[i]
		if !a.Present || !b.Present {
			continue
		}
		d := Diff{Present: true, Delta: b.Value - a.Value}
		if a.HasInterval && b.HasInterval {
			deltas := make([]float64, resamples)
			for k := range deltas {
				deltas[k] = values[i][k] - values[0][k]
			}
			d.HasInterval = true
			d.Lo, d.Hi = percentiles(deltas)
			d.Small = (len(scores[0]) < MinClaimN || len(scores[i]) < MinClaimN)
			d.Significant = !d.Small && (d.Lo > 0 || d.Hi < 0)
		}
		tc.Diffs[i-1] = d
	}
	return tc
}

func sameKeys(a, b []evaltasks.InstanceScore) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key {
			return false
		}
	}
	return true
}

// indices draws n indices in [0, n) with replacement.
func indices(rng *rand.Rand, n int, buf []int) []int {
	buf = buf[:0]
	for range n {
		buf = append(buf, rng.IntN(n))
	}
	return buf
}

// percentiles is the central 95% interval of the values (sorted in place).
func percentiles(v []float64) (lo, hi float64) {
	if len(v) == 0 {
		return 0, 0
	}
	sort.Float64s(v)
	at := func(q float64) float64 {
		i := int(q * float64(len(v)-1))
		return v[min(max(i, 0), len(v)-1)]
	}
	tail := (1 - confidence) / 2
	return at(tail), at(1 - tail)
}

// Method says how the intervals were computed, for both pages.
func (c *Comparison) Method() string {
	paired := true
	for _, t := range c.Tasks {
		paired = paired && t.Paired
	}
	how := "paired (the same instances drawn for every run)"
	if !paired {
		how = "paired where the runs scored the same instances, else per run"
	}
	return fmt.Sprintf("Intervals are 95%% bootstrap percentile intervals over the instances (%d resamples, %s, fixed seed); "+
		"a difference is significant (*) when its interval excludes 0, and claimed only over at least %d instances per run. "+
		"Δ is each run minus the first.", c.Resamples, how, MinClaimN)
}

func (c Cell) text() string {
	if !c.Present {
		return "–"
	}
	if !c.HasInterval {
		return fmt.Sprintf("%.2f", c.Value)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", c.Value, c.Lo, c.Hi)
}

func (d Diff) text() string {
	if !d.Present {
		return "–"
	}
	if !d.HasInterval {
		return fmt.Sprintf("%+.2f (no interval)", d.Delta)
	}
	s := fmt.Sprintf("%+.2f [%+.2f, %+.2f]", d.Delta, d.Lo, d.Hi)
	if d.Small {
		return s + fmt.Sprintf(" (n < %d)", MinClaimN)
	}
	if d.Significant {
		return s + " *"
	}
	return s + " n.s."
}

// Markdown is the comparison as a markdown table: tasks × runs, then the
// difference of every run from the first.
func (c *Comparison) Markdown() []byte {
	var b bytes.Buffer
	head, rule := "| Task | Metric | n |", "|---|---|---:|"
	for _, r := range c.Runs {
		head += " " + mdCell(r.Label) + " |"
		rule += "---:|"
	}
	for _, r := range c.Runs[1:] {
		head += " Δ " + mdCell(r.Label) + " |"
		rule += "---:|"
	}
	b.WriteString(head + "\n" + rule + "\n")
	for _, t := range c.Tasks {
		fmt.Fprintf(&b, "| Task %d | %s | %s |", t.Task, metricLabel(t.Metric), t.nText())
		for _, cell := range t.Cells {
			b.WriteString(" " + cell.text() + " |")
		}
		for _, d := range t.Diffs {
			b.WriteString(" " + d.text() + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + c.Method() + "\n")
	for _, m := range c.Mismatches {
		b.WriteString("Compared anyway: " + m + ".\n")
	}
	return b.Bytes()
}

// nText is the task's instance count, or each run's when they differ.
func (t TaskComparison) nText() string {
	var ns []string
	same := true
	for _, c := range t.Cells {
		if c.Present {
			if len(ns) > 0 && ns[0] != fmt.Sprint(c.N) {
				same = false
			}
			ns = append(ns, fmt.Sprint(c.N))
		}
	}
	if len(ns) == 0 {
		return "–"
	}
	if same {
		return ns[0]
	}
	return strings.Join(ns, "/")
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// comparePage is what compare.html is drawn from.
type comparePage struct {
	C      *Comparison
	Style  template.CSS
	Script template.JS
	Chart  barChart
	Rows   []compareRow
	Method string
}

type compareRow struct {
	TaskComparison
	MetricLabel string
	N           string
	CellText    []string
	DiffText    []string
	DiffClass   []string
}

// compareChart is Figure 4 of the paper as grouped bars: a group per
// task, a bar per run.
func compareChart(c *Comparison) barChart {
	const inner = 4.0
	w := barWidth / 2
	ch := barChart{Title: "Headline metric per task and run", Baseline: plotTop + plotHeight, Ticks: ticks()}
	x := plotLeft + barGap
	for _, t := range c.Tasks {
		start := x
		for i, cell := range t.Cells {
			b := barAt(x, cell.Value)
			b.Value = cell.Value
			b.W, b.Task, b.Run, b.Class = w, t.Task, i, fmt.Sprintf("bar run%d", i%6)
			b.LabelX = x + w/2
			b.Title = fmt.Sprintf("%s, Task %d %s: %s", c.Runs[i].Label, t.Task, metricLabel(t.Metric), cell.text())
			if !cell.Present {
				b.H, b.Y, b.Title = 0, plotTop+plotHeight, c.Runs[i].Label+": task not run"
			}
			ch.Bars = append(ch.Bars, b)
			x += w + inner
		}
		mid := (start + x - inner) / 2
		ch.Bars[len(ch.Bars)-len(t.Cells)].Lines = labels(mid, fmt.Sprintf("Task %d", t.Task), metricLabel(t.Metric))
		x += barGap
	}
	lx := plotLeft
	for i, r := range c.Runs {
		ch.Legend = append(ch.Legend, legendItem{Label: r.Label, Class: fmt.Sprintf("run%d", i%6), X: lx, Y: plotTop + plotHeight + 44})
		lx += 24 + 7*float64(len([]rune(r.Label)))
	}
	ch.Width, ch.Height = max(x, lx), plotTop+plotHeight+60
	return ch
}

// HTML renders compare.html.
func (c *Comparison) HTML() ([]byte, error) {
	p := comparePage{C: c, Style: style, Script: script, Chart: compareChart(c), Method: c.Method()}
	for _, t := range c.Tasks {
		row := compareRow{TaskComparison: t, MetricLabel: metricLabel(t.Metric), N: t.nText()}
		for _, cell := range t.Cells {
			row.CellText = append(row.CellText, cell.text())
		}
		for _, d := range t.Diffs {
			row.DiffText = append(row.DiffText, d.text())
			class := ""
			switch {
			case d.Significant && d.Delta > 0:
				class = "diff-pos"
			case d.Significant && d.Delta < 0:
				class = "diff-neg"
			}
			row.DiffClass = append(row.DiffClass, class)
		}
		p.Rows = append(p.Rows, row)
	}
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, "compare.html.tmpl", p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
