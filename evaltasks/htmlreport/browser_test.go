package htmlreport

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/golden"
)

// chromiumNames are the executables the browser test looks for on PATH.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}

func findChromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, n := range chromiumNames {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// browserSample is the instances per task of the test's runs; with
// -update the runs are the default full ones, as the screenshots of the README
// and docs/reports.md show them.
const browserSample = 12

type run struct {
	dir string
	rep *evaltasks.Report
}

// realRun evaluates a built-in agent in the offline sandbox, as evalrun
// does, into root/runs/<agent>-001, and writes its report.html.
func realRun(t *testing.T, st *assemble.Stack, root, name string, sample int) run {
	t.Helper()
	a, err := evaltasks.NewAgent(name, evaltasks.AgentOptions{Catalog: st.Catalog, Graph: st.Graph})
	require.NoError(t, err)
	dir := filepath.Join(root, "runs", name+"-001")
	rep, err := evaltasks.Run(context.Background(), evaltasks.Config{Agent: a, AgentName: name, Sample: sample, OutDir: dir, Stack: st})
	require.NoError(t, err)
	_, err = WriteRunDir(dir, rep)
	require.NoError(t, err)
	return run{dir: dir, rep: rep}
}

// browser is a headless Chromium tab that records what a page asks of
// the network and what it complains about.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	requests []string
	problems []string
}

func newBrowser(t *testing.T, exe string) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		// Without these Chromium reaches for Google's services and, on a
		// closed network, fails.
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		// /dev/shm is small in containers; Chromium crashes when it fills.
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	b := &browser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, ev.Request.URL)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				var args []string
				for _, a := range ev.Args {
					if len(a.Value) > 0 {
						args = append(args, string(a.Value))
					} else {
						args = append(args, a.Description)
					}
				}
				b.problems = append(b.problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			b.problems = append(b.problems, "exception: "+ev.ExceptionDetails.Error())
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.LevelError {
				b.problems = append(b.problems, fmt.Sprintf("%s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		}
	})
	require.NoError(t, chromedp.Run(ctx, network.Enable(), runtime.Enable(), log.Enable()), "starting %s", exe)
	return b
}

// open loads a page and requires that it fetched nothing but itself and
// logged no error.
func (b *browser) open(t *testing.T, path string, script bool) {
	t.Helper()
	b.openURL(t, "file://"+path, script)
}

// openURL loads a file: URL, which may carry a query and a fragment.
func (b *browser) openURL(t *testing.T, url string, script bool) {
	t.Helper()
	b.mu.Lock()
	b.requests, b.problems = nil, nil
	b.mu.Unlock()
	// Navigate returns after the load event; the round trip of an
	// evaluation after it brings every event the page sent while loading.
	var state string
	require.NoError(t, chromedp.Run(b.ctx, emulation.SetScriptExecutionDisabled(!script), chromedp.Navigate(url),
		chromedp.WaitReady("footer", chromedp.ByQuery), chromedp.Evaluate(`document.readyState`, &state)))
	require.Equal(t, "complete", state)
	b.requireQuiet(t, url)
}

// requireQuiet requires that the page asked the network for nothing but
// its own file and logged no error since it was opened.
func (b *browser) requireQuiet(t *testing.T, url string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	require.Empty(t, b.problems, "console errors on %s", url)
	page, _, _ := strings.Cut(url, "#")
	file, _, _ := strings.Cut(page, "?")
	var fetched []string
	for _, r := range b.requests {
		if r != page && r != file && !strings.HasPrefix(r, "data:") {
			fetched = append(fetched, r)
		}
	}
	require.Empty(t, fetched, "network requests from %s", url)
}

func (b *browser) eval(t *testing.T, js string, out any) {
	t.Helper()
	require.NoError(t, chromedp.Run(b.ctx, chromedp.Evaluate(js, out)))
}

// screenshot captures the viewport, or the whole page, as PNG.
func (b *browser) screenshot(t *testing.T, full bool) []byte {
	t.Helper()
	var png []byte
	action := chromedp.CaptureScreenshot(&png)
	if full {
		action = chromedp.FullScreenshot(&png, 100) // 100: PNG, not JPEG
	}
	require.NoError(t, chromedp.Run(b.ctx, action))
	require.True(t, bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")), "a PNG")
	return png
}

// saveShot writes a screenshot under the test's temporary directory and,
// with -update, as the docs pages' picture under docs.
func saveShot(t *testing.T, dir, docs, name string, png []byte) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	if golden.Update() {
		require.NoError(t, os.MkdirAll(docs, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(docs, name), png, 0o644))
	}
}

type barRead struct {
	Task   int     `json:"task"`
	Run    int     `json:"run"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Left and Right are the bar's edges on the screen, in CSS pixels.
	Left  float64 `json:"left"`
	Right float64 `json:"right"`
}

// readBars reads the bars of the charts on screen (of the two layouts,
// the one the page's width shows): their size in the chart's units and
// their place in the viewport.
const readBars = `Array.from(document.querySelectorAll("svg.chart rect.bar")).filter(r => r.closest("svg").getClientRects().length > 0).map(r => {
	const box = r.getBBox(), screen = r.getBoundingClientRect();
	return {task: Number(r.dataset.task), run: Number(r.dataset.run), width: box.width, height: box.height, left: screen.left, right: screen.right};
})`

type whiskerRead struct {
	Task   int     `json:"task"`
	Run    int     `json:"run"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	Height float64 `json:"height"`
}

const readWhiskers = `Array.from(document.querySelectorAll("svg.chart path.whisker")).filter(p => p.closest("svg").getClientRects().length > 0).map(p => ({task: Number(p.dataset.task), run: Number(p.dataset.run), lo: Number(p.dataset.lo), hi: Number(p.dataset.hi), height: p.getBBox().height}))`

// readOverlaps lists the pairs of texts of the charts on screen whose
// boxes overlap (by more than half a pixel each way): labels a reader
// cannot tell apart.
const readOverlaps = `(() => {
	const texts = Array.from(document.querySelectorAll("svg.chart text")).filter(t => t.closest("svg").getClientRects().length > 0 && t.textContent.trim() !== "");
	const boxes = texts.map(t => t.getBoundingClientRect()), out = [];
	for (let i = 0; i < boxes.length; i++) {
		for (let j = i + 1; j < boxes.length; j++) {
			const a = boxes[i], b = boxes[j];
			if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5) {
				out.push(texts[i].textContent + " / " + texts[j].textContent);
			}
		}
	}
	return out;
})()`

// requireNoOverlaps fails on chart labels drawn over one another at the
// page's current width.
func requireNoOverlaps(t *testing.T, b *browser, what string) {
	t.Helper()
	var overlaps []string
	b.eval(t, readOverlaps, &overlaps)
	require.Empty(t, overlaps, "%s: chart labels overlap", what)
}

// visibleFailures filters the failure browser (name=value, then a change
// event, as a user's choice sends) and counts the failures shown.
func visibleFailures(name, value string) string {
	return fmt.Sprintf(`(() => {
	const s = document.querySelector('#filters select[name=%q]');
	if (s) { s.value = %q; s.dispatchEvent(new Event("change", {bubbles: true})); }
	const shown = Array.from(document.querySelectorAll("#failure-list .failure")).filter(e => e.getClientRects().length > 0).length;
	return [shown, Number(document.getElementById("shown").textContent)];
})()`, name, value)
}

// filterState is what the failure browser's filters show.
type filterState struct {
	Task    string `json:"task"`
	Outcome string `json:"outcome"`
	API     string `json:"api"`
	Shown   int    `json:"shown"`
	Search  string `json:"search"`
	// Offered are the outcome options a user can choose (not disabled),
	// with the count each says.
	Offered map[string]string `json:"offered"`
}

const readFilters = `(() => {
	const f = document.getElementById("filters"), offered = {};
	for (const o of f.elements.outcome.options) { if (o.value && !o.disabled) offered[o.value] = o.textContent; }
	return {task: f.elements.task.value, outcome: f.elements.outcome.value, api: f.elements.api.value,
		shown: Array.from(document.querySelectorAll("#failure-list .failure")).filter(e => e.getClientRects().length > 0).length,
		search: location.search, offered: offered};
})()`

// openFailure is the failure a fragment opened: its id, whether it is
// open and shown, and whether its summary is on screen under the sticky
// filter bar.
type openFailure struct {
	ID      string `json:"id"`
	Open    bool   `json:"open"`
	Shown   bool   `json:"shown"`
	OnPage  bool   `json:"onPage"`
	Linked  int    `json:"linked"`
	Opened  int    `json:"opened"`
	Filters string `json:"filters"`
}

func readOpened(id string) string {
	return fmt.Sprintf(`(() => {
	const a = document.getElementById(%q), d = a.closest(".failure"), bar = document.getElementById("filters").getBoundingClientRect();
	const top = d.querySelector("summary").getBoundingClientRect().top;
	const f = document.getElementById("filters").elements;
	return {id: a.id, open: d.open, shown: d.getClientRects().length > 0, onPage: top >= bar.bottom - 1 && top < innerHeight,
		linked: document.querySelectorAll(".failure.linked").length, opened: document.querySelectorAll(".failure[open]").length,
		filters: [f.task.value, f.outcome.value, f.api.value].join("|")};
})()`, id)
}

// TestPagesInBrowser opens report.html and compare.html of real runs of
// the built-in agents in headless Chromium.
func TestPagesInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the evaluator and a browser")
	}
	exe := findChromium()
	if exe == "" {
		t.Skipf("no Chromium found (set CHROMIUM or install one of %v; on Debian: apt-get install chromium): the pages are not checked in a browser", chromiumNames)
	}
	docs, err := filepath.Abs(filepath.Join("..", "..", "docs"))
	require.NoError(t, err)
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	sample := browserSample
	if golden.Update() {
		sample = 0
	}
	root := t.TempDir()
	base := realRun(t, st, root, "baseline", sample)
	orc := realRun(t, st, root, "oracle", sample)
	shots := t.TempDir()
	b := newBrowser(t, exe)
	report := filepath.Join(base.dir, ReportFile)

	t.Run("report", func(t *testing.T) {
		rep := base.rep
		require.NotEmpty(t, rep.Failures, "the baseline fails somewhere")
		b.open(t, report, true)

		var bars []barRead
		b.eval(t, readBars, &bars)
		require.Len(t, bars, len(rep.Tasks), "one bar per task, in columns")
		for i, tr := range rep.Tasks {
			require.Equal(t, tr.ID, bars[i].Task)
			require.InDelta(t, tr.Metrics[evaltasks.Headline(tr.ID)]*plotHeight, bars[i].Height, 0.01, "task %d's bar", tr.ID)
		}
		requireNoOverlaps(t, b, "report at 1280 px")
		saveShot(t, shots, docs, "report.png", b.screenshot(t, false))

		// The failure browser: every failure listed, then each filter
		// shows exactly the failures it selects.
		all := len(rep.Failures)
		var counts [2]int
		b.eval(t, visibleFailures("", ""), &counts)
		require.Equal(t, [2]int{all, all}, counts)
		task, outcome, api := pickFilters(rep.Failures)
		want := count(rep.Failures, func(f evaltasks.Failure) bool { return f.Task == task })
		require.Less(t, want, all, "the chosen task does not hold every failure")
		b.eval(t, visibleFailures("task", fmt.Sprint(task)), &counts)
		require.Equal(t, [2]int{want, want}, counts, "task %d", task)

		// The filters compose: with a task chosen, the outcome list
		// offers that task's outcomes only, each with its count.
		var fs filterState
		b.eval(t, readFilters, &fs)
		offered := map[string]string{}
		for _, f := range rep.Failures {
			if f.Task == task {
				n := count(rep.Failures, func(g evaltasks.Failure) bool { return g.Task == task && g.Outcome == f.Outcome })
				offered[f.Outcome] = fmt.Sprintf("%s (%d)", words(f.Outcome), n)
			}
		}
		require.Equal(t, offered, fs.Offered, "task %d's outcomes, counted", task)
		want = count(rep.Failures, func(f evaltasks.Failure) bool { return f.Task == task && f.Outcome == outcome })
		b.eval(t, visibleFailures("outcome", outcome), &counts)
		require.Equal(t, [2]int{want, want}, counts, "task %d, outcome %s", task, outcome)

		// An outcome no failure of the chosen task has is not offered.
		var zero []string
		b.eval(t, `Array.from(document.querySelectorAll("#filters option")).filter(o => !o.hidden && / \(0\)$/.test(o.textContent)).map(o => o.textContent)`, &zero)
		require.Empty(t, zero, "options that would show nothing")

		// Back undoes the last filter change, and Forward redoes it.
		require.NoError(t, chromedp.Run(b.ctx, chromedp.NavigateBack()))
		b.eval(t, readFilters, &fs)
		require.Equal(t, [3]string{fmt.Sprint(task), "", fmt.Sprintf("?task=%d", task)}, [3]string{fs.Task, fs.Outcome, fs.Search}, "Back")
		require.Equal(t, count(rep.Failures, func(f evaltasks.Failure) bool { return f.Task == task }), fs.Shown, "Back shows the task's failures again")
		require.NoError(t, chromedp.Run(b.ctx, chromedp.NavigateForward()))

		// The filters live in the URL: a reload shows the same selection.
		b.eval(t, readFilters, &fs)
		require.Equal(t, outcome, fs.Outcome, "Forward")
		require.Equal(t, fmt.Sprintf("?task=%d&outcome=%s", task, outcome), fs.Search)
		require.NoError(t, chromedp.Run(b.ctx, chromedp.Reload(), chromedp.WaitReady("footer", chromedp.ByQuery)))
		var again filterState
		b.eval(t, readFilters, &again)
		require.Equal(t, filterState{Task: fmt.Sprint(task), Outcome: outcome, Shown: want, Search: fs.Search, Offered: fs.Offered}, again, "restored by the reload")

		b.eval(t, visibleFailures("task", ""), &counts)
		b.eval(t, visibleFailures("outcome", ""), &counts)
		require.Equal(t, [2]int{all, all}, counts, "filters cleared")
		b.eval(t, readFilters, &fs)
		require.Empty(t, fs.Search, "no filter, no query")
		want = count(rep.Failures, func(f evaltasks.Failure) bool { return slices.Contains(f.APIs, api) })
		b.eval(t, visibleFailures("api", api), &counts)
		require.Equal(t, [2]int{want, want}, counts, "API %s", api)
		require.Less(t, want, all)

		// A deep link opens its failure, even one the filters in the
		// same link would hide.
		target := pickShown(rep.Failures)
		id := "f-" + target.Key
		for _, url := range []string{"file://" + report + "#" + id, fmt.Sprintf("file://%s?task=%d#%s", report, otherTask(rep.Failures, target.Task), id)} {
			b.openURL(t, url, true)
			var of openFailure
			b.eval(t, readOpened(id), &of)
			require.Equal(t, openFailure{ID: id, Open: true, Shown: true, OnPage: true, Linked: 1, Opened: 1, Filters: "||"}, of, url)
		}
		saveShot(t, shots, docs, "failures.png", b.screenshot(t, false))
	})

	t.Run("report at 420 px", func(t *testing.T) {
		require.NoError(t, chromedp.Run(b.ctx, emulation.SetDeviceMetricsOverride(420, 900, 1, true)))
		t.Cleanup(func() { require.NoError(t, chromedp.Run(b.ctx, emulation.ClearDeviceMetricsOverride())) })
		b.open(t, report, true)
		var width float64
		b.eval(t, `innerWidth`, &width)
		require.Equal(t, 420.0, width)
		var bars []barRead
		b.eval(t, readBars, &bars)
		require.Len(t, bars, len(base.rep.Tasks), "one bar per task, in rows")
		for i, tr := range base.rep.Tasks {
			require.Equal(t, tr.ID, bars[i].Task)
			require.InDelta(t, tr.Metrics[evaltasks.Headline(tr.ID)]*plotWidth, bars[i].Width, 0.01, "task %d's bar", tr.ID)
			require.GreaterOrEqual(t, bars[i].Left, 0.0, "task %d's bar on screen", tr.ID)
			require.LessOrEqual(t, bars[i].Right, width, "task %d's bar on screen", tr.ID)
		}
		var scrollWidth float64
		b.eval(t, `document.documentElement.scrollWidth`, &scrollWidth)
		require.LessOrEqual(t, scrollWidth, width, "the page does not scroll sideways")
		requireNoOverlaps(t, b, "report at 420 px")
		saveShot(t, shots, docs, "report-narrow.png", b.screenshot(t, false))
	})

	t.Run("report without JavaScript", func(t *testing.T) {
		b.open(t, report, false)
		var state struct {
			FormHidden bool `json:"formHidden"`
			Listed     int  `json:"listed"`
			Transcript int  `json:"transcript"`
			Diffs      int  `json:"diffs"`
		}
		b.eval(t, `({formHidden: document.getElementById("filters").hidden, listed: Array.from(document.querySelectorAll("#failure-list .failure")).filter(e => e.getClientRects().length > 0).length, transcript: document.querySelectorAll("#failure-list .transcript").length, diffs: document.querySelectorAll("#failure-list table.diff").length})`, &state)
		require.True(t, state.FormHidden, "filters that cannot work are not shown")
		var controls []string
		b.eval(t, `Array.from(document.querySelectorAll("select, button, input, #filters-note")).filter(e => e.getClientRects().length > 0).map(e => e.outerHTML.slice(0, 60))`, &controls)
		require.Empty(t, controls, "no control or text that needs script is on screen")
		require.Equal(t, len(base.rep.Failures), state.Listed, "every failure readable")
		require.Positive(t, state.Transcript)
		require.Positive(t, state.Diffs, "the gold beside the agent")

		// A deep link opens its failure without script too.
		id := "f-" + pickShown(base.rep.Failures).Key
		b.openURL(t, "file://"+report+"#"+id, false)
		var opened struct {
			Open   bool `json:"open"`
			OnPage bool `json:"onPage"`
		}
		b.eval(t, fmt.Sprintf(`(() => { const d = document.getElementById(%q).closest(".failure"), top = d.querySelector("summary").getBoundingClientRect().top; return {open: d.open, onPage: top >= 0 && top < innerHeight}; })()`, id), &opened)
		require.Equal(t, struct {
			Open   bool `json:"open"`
			OnPage bool `json:"onPage"`
		}{true, true}, opened, "the linked failure is open and its summary on screen")
	})

	t.Run("compare", func(t *testing.T) {
		// The directories as evalrun names them, for the page's run
		// table, and the page beside them, where compare writes it.
		t.Chdir(root)
		runs := []Run{{Dir: filepath.Join("runs", "baseline-001"), Report: base.rep}, {Dir: filepath.Join("runs", "oracle-001"), Report: orc.rep}}
		c, err := Compare(runs, CompareOptions{})
		require.NoError(t, err)
		path := filepath.Join(root, "runs", "compare-baseline-001-vs-oracle-001.html")
		page, err := c.HTML(path)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, page, 0o644))
		b.open(t, path, true)
		var bars []barRead
		b.eval(t, readBars, &bars)
		require.Len(t, bars, 2*len(c.Tasks), "a bar per run and task")
		for i, bar := range bars {
			tc := c.Tasks[i/2]
			require.Equal(t, [2]int{tc.Task, i % 2}, [2]int{bar.Task, bar.Run})
			require.InDelta(t, tc.Cells[bar.Run].Value*plotHeight, bar.Height, 0.01, "task %d, run %d", tc.Task, bar.Run)
		}
		// Each bar's interval as a whisker as long as the interval.
		var whiskers []whiskerRead
		b.eval(t, readWhiskers, &whiskers)
		require.Len(t, whiskers, 2*len(c.Tasks), "a whisker per bar")
		wide := 0
		for i, w := range whiskers {
			cell := c.Tasks[i/2].Cells[i%2]
			require.InDelta(t, cell.Lo, w.Lo, 1e-6)
			require.InDelta(t, cell.Hi, w.Hi, 1e-6)
			require.InDelta(t, max((cell.Hi-cell.Lo)*plotHeight, 0), w.Height, 0.01, "task %d, run %d", w.Task, w.Run)
			if cell.Hi > cell.Lo {
				wide++
			}
		}
		require.Positive(t, wide, "the baseline's intervals have a width")
		var rows int
		b.eval(t, `document.querySelectorAll("table.compare tbody tr").length`, &rows)
		require.Equal(t, len(c.Tasks), rows)
		requireNoOverlaps(t, b, "compare at 1280 px")
		saveShot(t, shots, docs, "compare.png", b.screenshot(t, true))
		require.NoError(t, chromedp.Run(b.ctx, emulation.SetDeviceMetricsOverride(420, 900, 1, true)))
		b.open(t, path, true)
		requireNoOverlaps(t, b, "compare at 420 px")
		require.NoError(t, chromedp.Run(b.ctx, emulation.ClearDeviceMetricsOverride()))

		// A link per run to its failure browser, and from each value to
		// the run's failures of that task.
		var links []string
		b.eval(t, `Array.from(document.querySelectorAll("a.failures-link")).map(a => a.href)`, &links)
		require.Equal(t, []string{"file://" + filepath.Join(base.dir, ReportFile) + "#failures", "file://" + filepath.Join(orc.dir, ReportFile) + "#failures"}, links)
		b.openURL(t, links[0], true)
		var cell string
		b.open(t, path, true)
		b.eval(t, `document.querySelector("table.compare tbody tr[data-task='4'] td:nth-child(4) a").href`, &cell)
		require.Equal(t, "file://"+filepath.Join(base.dir, ReportFile)+"?task=4#failures", cell)
		b.openURL(t, cell, true)
		var fs filterState
		b.eval(t, readFilters, &fs)
		require.Equal(t, "4", fs.Task)
		require.Equal(t, count(base.rep.Failures, func(f evaltasks.Failure) bool { return f.Task == 4 }), fs.Shown)
	})
}

// pickShown chooses the failure a deep link opens: one deep in the list,
// whose gold is set beside the agent's call when there is one (Task 4).
func pickShown(fs []evaltasks.Failure) evaltasks.Failure {
	for _, f := range fs {
		if f.Task == evaltasks.TaskFill && f.Reply != nil && len(f.Reply.ToolCalls) > 0 {
			return f
		}
	}
	return fs[len(fs)-1]
}

// otherTask is a task of some failure, not task.
func otherTask(fs []evaltasks.Failure, task int) int {
	for _, f := range fs {
		if f.Task != task {
			return f.Task
		}
	}
	return task
}

// pickFilters chooses filter values that select some failures but not
// all: the task with the most failures, its most common outcome, and the
// API of most failures.
func pickFilters(fs []evaltasks.Failure) (task int, outcome, api string) {
	byTask, byOutcome, byAPI := map[int]int{}, map[string]int{}, map[string]int{}
	for _, f := range fs {
		byTask[f.Task]++
	}
	for t, n := range byTask {
		if n > byTask[task] || n == byTask[task] && t < task {
			task = t
		}
	}
	for _, f := range fs {
		if f.Task == task {
			byOutcome[f.Outcome]++
		}
		for _, a := range f.APIs {
			byAPI[a]++
		}
	}
	best := func(m map[string]int) string {
		k := ""
		for x, n := range m {
			if k == "" || n > m[k] || n == m[k] && x < k {
				k = x
			}
		}
		return k
	}
	return task, best(byOutcome), best(byAPI)
}

func count(fs []evaltasks.Failure, keep func(evaltasks.Failure) bool) int {
	n := 0
	for _, f := range fs {
		if keep(f) {
			n++
		}
	}
	return n
}
