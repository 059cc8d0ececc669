package htmlreport

import (
	"bytes"
	"fmt"
	"html/template"
	"math/rand/v2"
	"net/url"
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
	// AllowIncomplete compares runs without an outcome for every planned
	// instance (interrupted ones, whose instances not run score as
	// failures): their unfinished tasks are marked and their differences
	// never called significant.
	AllowIncomplete bool
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

// IncompleteError is a comparison refused because a run has no outcome
// for some of its planned instances: they score as failures, so its
// differences from another run would measure the interruption, not the
// agent.
type IncompleteError struct {
	Run           string
	Done, Planned int
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("run %s is incomplete: %d of %d instances have an outcome", e.Run, e.Done, e.Planned)
}

// progress counts a report's instances with an outcome, and planned.
func progress(rep *evaltasks.Report) (done, planned int) {
	for _, t := range rep.Tasks {
		done += max(min(t.N, t.Planned), 0)
		planned += max(t.Planned, 0)
	}
	return done, planned
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
	// Done and Planned count the run's instances with an outcome, and all.
	Done, Planned int
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
	// Incomplete: the run has no outcome for some of the task's planned
	// instances (compared with CompareOptions.AllowIncomplete).
	Incomplete bool
}

// Diff is a run's difference from the first run, with its interval;
// Significant when the interval excludes 0 over at least MinClaimN
// instances in both runs (Small when fewer) and both runs finished the
// task (Incomplete when one did not).
type Diff struct {
	Present     bool
	Delta       float64
	HasInterval bool
	Lo, Hi      float64
	Significant bool
	Small       bool
	Incomplete  bool
}

// Compare puts runs side by side. It refuses runs over different
// datasets, date lines, task sets or instance samples unless
// opts.AllowMismatch (*MismatchError), and incomplete runs unless
// opts.AllowIncomplete (*IncompleteError).
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
		done, planned := progress(r.Report)
		if !r.Report.Complete && !opts.AllowIncomplete {
			return nil, &IncompleteError{Run: r.Dir, Done: done, Planned: planned}
		}
		c.Runs = append(c.Runs, RunInfo{Label: labels[i], Dir: r.Dir, Agent: r.Report.Agent, Model: r.Report.Model, Dataset: r.Report.Dataset,
			Complete: r.Report.Complete, Done: done, Planned: planned})
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
	// The runs are compared on one metric that each of them holds: an
	// earlier run may predate the task's present headline.
	metric := evaltasks.Headline(id)
	for _, r := range runs {
		if t, ok := taskOf(r.Report, id); ok {
			if m := evaltasks.HeadlineOf(t); m != metric {
				metric = m
			}
		}
	}
	tc := TaskComparison{Task: id, Name: spec.Name, Metric: metric, Cells: make([]Cell, len(runs)), Diffs: make([]Diff, len(runs)-1)}
	scores := make([][]evaltasks.InstanceScore, len(runs))
	for i, r := range runs {
		t, ok := taskOf(r.Report, id)
		if !ok {
			continue
		}
		tc.Cells[i] = Cell{Present: true, Value: t.Metrics[metric], N: t.Planned, Incomplete: !r.Report.Complete && t.N < t.Planned}
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
		d := Diff{Present: true, Delta: b.Value - a.Value, Incomplete: a.Incomplete || b.Incomplete}
		if a.HasInterval && b.HasInterval {
			deltas := make([]float64, resamples)
			for k := range deltas {
				deltas[k] = values[i][k] - values[0][k]
			}
			d.HasInterval = true
			d.Lo, d.Hi = percentiles(deltas)
			d.Small = (len(scores[0]) < MinClaimN || len(scores[i]) < MinClaimN)
			d.Significant = !d.Small && !d.Incomplete && (d.Lo > 0 || d.Hi < 0)
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
		"a difference is significant (*) when its interval excludes 0, and claimed only over at least %d instances per run "+
		"and for tasks every run finished. Δ is each run minus the first.", c.Resamples, how, MinClaimN)
}

// Incomplete says which runs were compared without an outcome for every
// planned instance, or "" when none was.
func (c *Comparison) Incomplete() string {
	var parts []string
	for _, r := range c.Runs {
		if !r.Complete {
			parts = append(parts, fmt.Sprintf("%s (%s, %d of %d instances)", r.Label, r.Dir, r.Done, r.Planned))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Incomplete runs compared anyway: " + strings.Join(parts, "; ") + ". Their instances not run score as failures; " +
		"the tasks they did not finish are marked (incomplete) and their differences are never significant."
}

func (c Cell) text() string {
	if !c.Present {
		return "–"
	}
	s := fmt.Sprintf("%.2f", c.Value)
	if c.HasInterval {
		s += fmt.Sprintf(" [%.2f, %.2f]", c.Lo, c.Hi)
	}
	if c.Incomplete {
		s += " (incomplete)"
	}
	return s
}

func (d Diff) text() string {
	if !d.Present {
		return "–"
	}
	if !d.HasInterval {
		s := fmt.Sprintf("%+.2f (no interval)", d.Delta)
		if d.Incomplete {
			s += " (incomplete)"
		}
		return s
	}
	s := fmt.Sprintf("%+.2f [%+.2f, %+.2f]", d.Delta, d.Lo, d.Hi)
	switch {
	case d.Incomplete:
		return s + " (incomplete)"
	case d.Small:
		return s + fmt.Sprintf(" (n < %d)", MinClaimN)
	case d.Significant:
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
	if inc := c.Incomplete(); inc != "" {
		b.WriteString(inc + "\n")
	}
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
	C          *Comparison
	Style      template.CSS
	Charts     [2]svgChart
	Rows       []compareRow
	Links      []string // each run's report.html, from the page
	Method     string
	Incomplete string
}

type compareRow struct {
	TaskComparison
	MetricLabel string
	N           string
	CellText    []string
	// CellLink opens each run's failure browser on the task.
	CellLink  []string
	DiffText  []string
	DiffClass []string
}

// compareChart is Figure 4 of the paper as grouped bars: a group per
// task, a bar per run with its interval.
func compareChart(c *Comparison) chartData {
	d := chartData{Title: "Headline metric per task and run, with 95% intervals"}
	for _, t := range c.Tasks {
		g := chartGroup{Labels: []string{fmt.Sprintf("Task %d", t.Task), metricLabel(t.Metric)}}
		for i, cell := range t.Cells {
			b := chartBar{Task: t.Task, Run: i, Class: "bar " + runClass(i), Present: cell.Present, Value: cell.Value,
				HasInterval: cell.HasInterval, Lo: cell.Lo, Hi: cell.Hi,
				Title: fmt.Sprintf("%s, Task %d %s: %s", c.Runs[i].Label, t.Task, metricLabel(t.Metric), cell.text())}
			if !cell.Present {
				b.Value, b.Title = 0, c.Runs[i].Label+": task not run"
			}
			g.Bars = append(g.Bars, b)
		}
		d.Groups = append(d.Groups, g)
	}
	for _, r := range c.Runs {
		d.Legend = append(d.Legend, r.Label)
	}
	return d
}

// reportLink is the path of a run's report.html from the folder of a
// page at pagePath ("" for a page whose links resolve from the working
// directory), in URL form.
func reportLink(runDir, pagePath string) string {
	target := filepath.Join(runDir, ReportFile)
	if pagePath != "" {
		from, errFrom := filepath.Abs(filepath.Dir(pagePath))
		to, errTo := filepath.Abs(target)
		if errFrom == nil && errTo == nil {
			if rel, err := filepath.Rel(from, to); err == nil {
				target = rel
			}
		}
	}
	return (&url.URL{Path: filepath.ToSlash(target)}).EscapedPath()
}

// HTML renders compare.html, to be written at pagePath: its links to
// each run's failure browser are relative to the page's folder ("": to
// the working directory, where the runs' directories were named).
func (c *Comparison) HTML(pagePath string) ([]byte, error) {
	p := comparePage{C: c, Style: style, Charts: charts(compareChart(c)), Method: c.Method(), Incomplete: c.Incomplete()}
	for _, r := range c.Runs {
		p.Links = append(p.Links, reportLink(r.Dir, pagePath))
	}
	for _, t := range c.Tasks {
		row := compareRow{TaskComparison: t, MetricLabel: metricLabel(t.Metric), N: t.nText()}
		for i, cell := range t.Cells {
			row.CellText = append(row.CellText, cell.text())
			link := ""
			if cell.Present {
				link = fmt.Sprintf("%s?task=%d#failures", p.Links[i], t.Task)
			}
			row.CellLink = append(row.CellLink, link)
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
