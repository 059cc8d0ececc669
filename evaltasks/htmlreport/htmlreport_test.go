package htmlreport

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/internal/golden"
)

// The fixtures are the report.json of two real runs on the evaluator's
// hand-written mini dataset (evaltasks/testdata/mini), kept as they were
// written: the pages must rebuild from a report.json of an earlier run.
const (
	baselineDir = "testdata/baseline"
	oracleDir   = "testdata/oracle"
)

func readFixture(t *testing.T, dir string) *evaltasks.Report {
	t.Helper()
	rep, err := ReadReport(dir)
	require.NoError(t, err)
	return rep
}

// TestReportGolden pins report.html's structure and content for a fixed
// report.json; -update rewrites the golden file.
func TestReportGolden(t *testing.T) {
	rep := readFixture(t, baselineDir)
	var b bytes.Buffer
	require.NoError(t, WriteReport(&b, rep))
	page := b.String()
	golden.Check(t, "testdata/report.golden.html", b.Bytes())

	// What the golden file must hold, said outright.
	for _, layout := range []string{layoutColumns, layoutRows} {
		chart := between(t, page, `<svg class="chart `+layout+`"`, "</svg>")
		require.Equal(t, len(rep.Tasks), strings.Count(chart, `<rect class="bar"`), "%s: one bar per task", layout)
	}
	require.Equal(t, len(rep.Failures), strings.Count(page, `<details class="failure"`), "every failure in the browser")
	require.NotContains(t, page, "ZgotmplZ", "no value the template refused")
	for _, want := range []string{`id="task-1"`, "Confusion matrix", `id="by-type"`, `id="by-scenario"`, "Type II", `id="filters" class="filters" hidden`} {
		require.Contains(t, page, want)
	}
	for _, f := range rep.Failures {
		require.Contains(t, page, `<a class="permalink" href="#f-`+f.Key+`"`, "a link to each failure")
	}
	// The gold beside the agent's call, the raw record folded away.
	require.Equal(t, len(rep.Failures), strings.Count(page, `<details class="raw"><summary>Gold record (JSON)</summary>`))
	require.Contains(t, page, `<table class="diff call">`)
	require.Contains(t, page, `<tr class="differs">`)
	require.Contains(t, page, `<table class="diff items">`)
	requireSelfContained(t, page)
}

// between is the part of s from the first begin to the next end.
func between(t *testing.T, s, begin, end string) string {
	t.Helper()
	i := strings.Index(s, begin)
	require.GreaterOrEqual(t, i, 0, "no %q", begin)
	j := strings.Index(s[i:], end)
	require.GreaterOrEqual(t, j, 0, "no %q after %q", end, begin)
	return s[i : i+j+len(end)]
}

// requireSelfContained fails on anything a browser would fetch.
func requireSelfContained(t *testing.T, page string) {
	t.Helper()
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)<(script|img|iframe|link)[^>]+(src|href)="(https?:)?//`),
		regexp.MustCompile(`(?i)url\(\s*['"]?(https?:)?//`),
		regexp.MustCompile(`(?i)@import`),
	} {
		require.NotRegexp(t, re, page)
	}
	require.Contains(t, page, "default-src 'none'", "the page forbids itself any fetch")
}

func TestRebuildWritesThePageOfAnOldRun(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(baselineDir, "report.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "report.json"), src, 0o644))
	path, err := Rebuild(dir)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(dir, ReportFile), path)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/report.golden.html")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "the same page as from the report in memory")
}

func TestReadReportErrors(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"no report.json", "", "no report"},
		{"not JSON", "{", "not a report"},
		{"JSON but no report", `{"hello": 1}`, "no agent or no tasks"},
		{"wrong type", `{"agent": "x", "tasks": 3}`, "not a report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.content != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "report.json"), []byte(tt.content), 0o644))
			}
			_, err := ReadReport(dir)
			var re *ReportError
			require.ErrorAs(t, err, &re)
			require.Equal(t, filepath.Join(dir, "report.json"), re.Path)
			require.ErrorContains(t, err, tt.want)
		})
	}
}

func TestCompareGolden(t *testing.T) {
	runs := []Run{{Dir: baselineDir, Report: readFixture(t, baselineDir)}, {Dir: oracleDir, Report: readFixture(t, oracleDir)}}
	c, err := Compare(runs, CompareOptions{})
	require.NoError(t, err)
	md := c.Markdown()
	page, err := c.HTML("")
	require.NoError(t, err)
	golden.Check(t, "testdata/compare.golden.md", md)
	golden.Check(t, "testdata/compare.golden.html", page)
	requireSelfContained(t, string(page))
	// Every bar with its interval's whisker, in both layouts.
	for _, layout := range []string{layoutColumns, layoutRows} {
		chart := between(t, string(page), `<svg class="chart `+layout+`"`, "</svg>")
		require.Equal(t, 2*len(c.Tasks), strings.Count(chart, `<rect class="bar run`), layout)
		require.Equal(t, 2*len(c.Tasks), strings.Count(chart, `<path class="whisker"`), layout)
	}

	require.Len(t, c.Tasks, 8)
	for _, tc := range c.Tasks {
		require.True(t, tc.Paired, "task %d: both runs scored the same instances", tc.Task)
		base, orc := tc.Cells[0], tc.Cells[1]
		require.Equal(t, runs[0].Report.Tasks[tc.Task-1].Metrics[tc.Metric], base.Value)
		require.Equal(t, 1.0, orc.Value, "the oracle passes everything")
		require.LessOrEqual(t, base.Lo, base.Value)
		require.GreaterOrEqual(t, base.Hi, base.Value)
		require.InDelta(t, orc.Value-base.Value, tc.Diffs[0].Delta, 1e-12)
		require.True(t, tc.Diffs[0].Small, "a mini dataset is too small for a claim")
		require.False(t, tc.Diffs[0].Significant)
	}
	again, err := Compare(runs, CompareOptions{})
	require.NoError(t, err)
	require.Equal(t, string(md), string(again.Markdown()), "the bootstrap is seeded: the same table every time")
}

func TestCompareARunWithItselfFindsNoDifference(t *testing.T) {
	rep := readFixture(t, baselineDir)
	c, err := Compare([]Run{{Dir: "a", Report: rep}, {Dir: "b", Report: rep}}, CompareOptions{Resamples: 200})
	require.NoError(t, err)
	require.Equal(t, []string{"baseline [a]", "baseline [b]"}, []string{c.Runs[0].Label, c.Runs[1].Label}, "runs of one agent told apart by directory")
	for _, tc := range c.Tasks {
		require.Equal(t, Diff{Present: true, HasInterval: true, Small: true}, tc.Diffs[0], "task %d", tc.Task)
	}
}

// selection is a Task-2 report over n instances, the first k passed.
func selection(n, k int) *evaltasks.Report {
	rep := &evaltasks.Report{Agent: fmt.Sprintf("passes-%d", k), Dataset: "sha256:x", Complete: true,
		Tasks: []evaltasks.TaskReport{{ID: 2, Metrics: map[string]float64{"accuracy": float64(k) / float64(n)}, Planned: n, N: n}}}
	for i := range n {
		s := evaltasks.InstanceScore{Key: fmt.Sprintf("T2/%03d", i), Task: 2, Outcome: "wrong_api"}
		if i < k {
			s.Outcome, s.Pass, s.Score = "correct", true, 1
		}
		rep.Instances = append(rep.Instances, s)
	}
	return rep
}

func TestCompareSignificance(t *testing.T) {
	tests := []struct {
		name        string
		n, ka, kb   int
		significant bool
		small       bool
	}{
		{"a large gain", 60, 15, 45, true, false},
		{"a large loss", 60, 45, 15, true, false},
		{"the same score", 60, 30, 30, false, false},
		{"one instance apart", 60, 30, 31, false, false},
		{"too few instances for a claim", 6, 0, 6, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Compare([]Run{{Dir: "a", Report: selection(tt.n, tt.ka)}, {Dir: "b", Report: selection(tt.n, tt.kb)}}, CompareOptions{})
			require.NoError(t, err)
			d := c.Tasks[0].Diffs[0]
			require.InDelta(t, float64(tt.kb-tt.ka)/float64(tt.n), d.Delta, 1e-12)
			require.LessOrEqual(t, d.Lo, d.Delta)
			require.GreaterOrEqual(t, d.Hi, d.Delta)
			require.Equal(t, tt.significant, d.Significant)
			require.Equal(t, tt.small, d.Small)
		})
	}
}

// interrupted is a Task-2 and Task-4 report over n instances each, the
// first k of each passed, of which Task 4 has outcomes for done only
// (the rest not run, failures).
func interrupted(n, k, done int) *evaltasks.Report {
	rep := selection(n, k)
	rep.Agent = "interrupted"
	t4 := evaltasks.TaskReport{ID: 4, Metrics: map[string]float64{"precision": float64(min(k, done)) / float64(n)}, Planned: n, N: done}
	rep.Tasks = append(rep.Tasks, t4)
	for i := range n {
		s := evaltasks.InstanceScore{Key: fmt.Sprintf("T4/%03d", i), Task: 4, Outcome: evaltasks.OutcomeNotRun}
		if i < done {
			s.Outcome = "wrong_value"
			if i < k {
				s.Outcome, s.Pass, s.Score = "correct", true, 1
			}
		}
		rep.Instances = append(rep.Instances, s)
	}
	rep.Complete = done == n
	return rep
}

// TestCompareRefusesIncompleteRuns: a run without an outcome for every
// instance is refused, or compared with its unfinished tasks marked and
// their differences never significant, however large.
func TestCompareRefusesIncompleteRuns(t *testing.T) {
	full, cut := interrupted(60, 15, 60), interrupted(60, 45, 3)
	runs := []Run{{Dir: "runs/full", Report: full}, {Dir: "runs/cut", Report: cut}}
	_, err := Compare(runs, CompareOptions{})
	var ie *IncompleteError
	require.ErrorAs(t, err, &ie)
	require.Equal(t, IncompleteError{Run: "runs/cut", Done: 63, Planned: 120}, *ie)
	require.EqualError(t, err, "run runs/cut is incomplete: 63 of 120 instances have an outcome")

	c, err := Compare(runs, CompareOptions{AllowIncomplete: true})
	require.NoError(t, err)
	require.False(t, c.Runs[1].Complete)
	byTask := map[int]TaskComparison{}
	for _, tc := range c.Tasks {
		byTask[tc.Task] = tc
	}
	// Task 2, finished by both runs: a real difference, starred.
	require.False(t, byTask[2].Cells[1].Incomplete)
	require.True(t, byTask[2].Diffs[0].Significant)
	// Task 4, 3 of 60 done: marked, never starred (the interval alone
	// would exclude 0: the 57 not run score as failures in both runs' favour).
	d := byTask[4].Diffs[0]
	require.True(t, byTask[4].Cells[1].Incomplete)
	require.True(t, d.Incomplete)
	require.False(t, d.Significant)
	require.True(t, d.Hi < 0 || d.Lo > 0, "the bootstrap alone would have called it")
	md := string(c.Markdown())
	require.Contains(t, md, "(incomplete)")
	require.Contains(t, md, "Incomplete runs compared anyway: interrupted [cut] (runs/cut, 63 of 120 instances)")
	require.NotContains(t, strings.Split(md, "| Task 4 |")[1], " *", "no star on the unfinished task")
	page, err := c.HTML("")
	require.NoError(t, err)
	require.Contains(t, string(page), "incomplete: 63 of 120 instances")
}

// TestCompareLinksEachRunsFailures: compare.html links every run's
// failure browser, and each value to the run's failures of that task,
// relative to where the page is written.
func TestCompareLinksEachRunsFailures(t *testing.T) {
	runs := []Run{{Dir: filepath.Join("runs", "baseline-001"), Report: selection(30, 10)}, {Dir: filepath.Join("runs", "my run"), Report: selection(30, 20)}}
	c, err := Compare(runs, CompareOptions{Resamples: 50})
	require.NoError(t, err)
	tests := []struct {
		page  string
		links []string
	}{
		{filepath.Join("runs", "compare.html"), []string{"baseline-001/report.html", "my%20run/report.html"}},
		{"", []string{"runs/baseline-001/report.html", "runs/my%20run/report.html"}},
		{filepath.Join("elsewhere", "c.html"), []string{"../runs/baseline-001/report.html", "../runs/my%20run/report.html"}},
	}
	for _, tt := range tests {
		page, err := c.HTML(tt.page)
		require.NoError(t, err)
		for _, link := range tt.links {
			require.Contains(t, string(page), `<a class="failures-link" href="`+link+`#failures">`, "page at %q", tt.page)
			require.Contains(t, string(page), `<a href="`+link+`?task=2#failures"`, "page at %q", tt.page)
		}
	}
}

func TestCompareRefusesRunsOverDifferentData(t *testing.T) {
	base := readFixture(t, baselineDir)
	tests := []struct {
		name   string
		change func(r *evaltasks.Report)
		what   string
	}{
		{"another dataset", func(r *evaltasks.Report) { r.Dataset = "sha256:other" }, "dataset"},
		{"other tasks", func(r *evaltasks.Report) { r.Tasks = r.Tasks[:3] }, "tasks"},
		{"another sample", func(r *evaltasks.Report) { r.Instances = r.Instances[1:] }, "instances"},
		{"another date line", func(r *evaltasks.Report) { r.DateLine += " (or none)" }, "date line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			other := readFixture(t, oracleDir)
			tt.change(other)
			runs := []Run{{Dir: "a", Report: base}, {Dir: "b", Report: other}}
			_, err := Compare(runs, CompareOptions{})
			var mm *MismatchError
			require.ErrorAs(t, err, &mm)
			require.Equal(t, tt.what, mm.What)
			require.Equal(t, [2]string{"a", "b"}, mm.Runs)

			c, err := Compare(runs, CompareOptions{AllowMismatch: true, Resamples: 50})
			require.NoError(t, err, "compared when told to")
			require.Len(t, c.Mismatches, 1)
			require.Contains(t, string(c.Markdown()), "Compared anyway: runs a and b have different "+tt.what)
		})
	}
	_, err := Compare([]Run{{Dir: "a", Report: base}}, CompareOptions{})
	require.ErrorContains(t, err, "at least two runs")
}

// TestCompareOldReports compares reports without per-instance verdicts
// (written before they were recorded): values and differences, no
// intervals.
func TestCompareOldReports(t *testing.T) {
	a, b := readFixture(t, baselineDir), readFixture(t, oracleDir)
	a.Instances, b.Instances = nil, nil
	c, err := Compare([]Run{{Dir: "a", Report: a}, {Dir: "b", Report: b}}, CompareOptions{})
	require.NoError(t, err)
	for _, tc := range c.Tasks {
		require.False(t, tc.Cells[0].HasInterval)
		require.False(t, tc.Diffs[0].HasInterval)
		require.False(t, tc.Diffs[0].Significant)
	}
	require.Contains(t, string(c.Markdown()), "(no interval)")
}

func TestPercentiles(t *testing.T) {
	v := make([]float64, 1001)
	for i := range v {
		v[len(v)-1-i] = float64(i) / 1000
	}
	lo, hi := percentiles(v)
	require.Equal(t, [2]float64{0.025, 0.975}, [2]float64{lo, hi})
	lo, hi = percentiles(nil)
	require.Zero(t, lo)
	require.Zero(t, hi)
}

func BenchmarkWriteReport(b *testing.B) {
	rep, err := ReadReport(baselineDir)
	require.NoError(b, err)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		require.NoError(b, WriteReport(&buf, rep))
	}
	b.ReportMetric(float64(buf.Len()), "bytes/page")
}

func BenchmarkCompare(b *testing.B) {
	base, err := ReadReport(baselineDir)
	require.NoError(b, err)
	orc, err := ReadReport(oracleDir)
	require.NoError(b, err)
	for b.Loop() {
		_, err := Compare([]Run{{Dir: "a", Report: base}, {Dir: "b", Report: orc}}, CompareOptions{})
		require.NoError(b, err)
	}
}

// TestModelOutputIsText: a transcript is the model's and the tools' text,
// never markup of the page.
func TestModelOutputIsText(t *testing.T) {
	rep := readFixture(t, baselineDir)
	require.NotEmpty(t, rep.Failures)
	evil := `</pre></details><script>alert(1)</script><img src=x onerror=alert(2)>`
	f := &rep.Failures[0]
	f.Text = evil
	f.Messages = append(f.Messages, agent.Message{Role: agent.RoleAssistant, Content: evil}, agent.Message{Role: agent.RoleTool, Name: evil, Content: `{"a": "` + evil + `"}`})
	f.APIs = []string{evil}
	f.Key = `T1/"><script>alert(3)</script>`
	var b bytes.Buffer
	require.NoError(t, WriteReport(&b, rep))
	page := b.String()
	require.NotContains(t, page, "<script>alert")
	require.NotContains(t, page, "<img src=x")
	require.Equal(t, 1, strings.Count(page, "<script>"), "the page's own script only")
	require.Contains(t, page, "&lt;script&gt;alert(1)&lt;/script&gt;")
}
