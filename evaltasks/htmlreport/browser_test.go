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
// -update the runs are the default full ones, as the README's screenshots
// show them.
const browserSample = 12

type run struct {
	dir string
	rep *evaltasks.Report
}

// realRun evaluates a built-in agent in the offline sandbox, as evalrun
// does, and writes its report.html.
func realRun(t *testing.T, st *assemble.Stack, name string, sample int) run {
	t.Helper()
	a, err := evaltasks.NewAgent(name, evaltasks.AgentOptions{Catalog: st.Catalog, Graph: st.Graph})
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), name)
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
	b.mu.Lock()
	b.requests, b.problems = nil, nil
	b.mu.Unlock()
	url := "file://" + path
	// Navigate returns after the load event; the round trip of an
	// evaluation after it brings every event the page sent while loading.
	var state string
	require.NoError(t, chromedp.Run(b.ctx, emulation.SetScriptExecutionDisabled(!script), chromedp.Navigate(url),
		chromedp.WaitReady("footer", chromedp.ByQuery), chromedp.Evaluate(`document.readyState`, &state)))
	require.Equal(t, "complete", state)
	b.mu.Lock()
	defer b.mu.Unlock()
	require.Empty(t, b.problems, "console errors on %s", path)
	var fetched []string
	for _, r := range b.requests {
		if r != url && !strings.HasPrefix(r, "data:") {
			fetched = append(fetched, r)
		}
	}
	require.Empty(t, fetched, "network requests from %s", path)
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
// with -update, as the README's picture under docs/.
func saveShot(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
	if golden.Update() {
		require.NoError(t, os.MkdirAll("../../docs", 0o755))
		require.NoError(t, os.WriteFile(filepath.Join("../../docs", name), png, 0o644))
	}
}

type barRead struct {
	Task   int     `json:"task"`
	Run    int     `json:"run"`
	Height float64 `json:"height"`
}

const readBars = `Array.from(document.querySelectorAll("svg.chart rect.bar")).map(r => ({task: Number(r.dataset.task), run: Number(r.dataset.run), height: r.getBBox().height}))`

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
	st, err := assemble.Build(assemble.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	sample := browserSample
	if golden.Update() {
		sample = 0
	}
	base := realRun(t, st, "baseline", sample)
	orc := realRun(t, st, "oracle", sample)
	shots := t.TempDir()
	b := newBrowser(t, exe)

	t.Run("report", func(t *testing.T) {
		rep := base.rep
		require.NotEmpty(t, rep.Failures, "the baseline fails somewhere")
		b.open(t, filepath.Join(base.dir, ReportFile), true)

		var bars []barRead
		b.eval(t, readBars, &bars)
		require.Len(t, bars, len(rep.Tasks), "one bar per task")
		for i, tr := range rep.Tasks {
			require.Equal(t, tr.ID, bars[i].Task)
			require.InDelta(t, tr.Metrics[evaltasks.Headline(tr.ID)]*plotHeight, bars[i].Height, 0.01, "task %d's bar", tr.ID)
		}
		saveShot(t, shots, "report.png", b.screenshot(t, false))

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
		want = count(rep.Failures, func(f evaltasks.Failure) bool { return f.Task == task && f.Outcome == outcome })
		b.eval(t, visibleFailures("outcome", outcome), &counts)
		require.Equal(t, [2]int{want, want}, counts, "task %d, outcome %s", task, outcome)
		b.eval(t, visibleFailures("task", ""), &counts)
		b.eval(t, visibleFailures("outcome", ""), &counts)
		require.Equal(t, [2]int{all, all}, counts, "filters cleared")
		want = count(rep.Failures, func(f evaltasks.Failure) bool { return slices.Contains(f.APIs, api) })
		b.eval(t, visibleFailures("api", api), &counts)
		require.Equal(t, [2]int{want, want}, counts, "API %s", api)
		require.Less(t, want, all)

		// A Task-7 failure opened, for the README's picture of the browser.
		b.eval(t, visibleFailures("api", ""), &counts)
		b.eval(t, visibleFailures("task", "7"), &counts)
		require.Positive(t, counts[0], "the baseline breaks some chains")
		var ok bool
		b.eval(t, `(() => { const d = document.querySelector("#failure-list .failure:not([hidden])"); d.open = true; document.getElementById("failures").scrollIntoView(); return true; })()`, &ok)
		saveShot(t, shots, "failures.png", b.screenshot(t, false))
	})

	t.Run("report without JavaScript", func(t *testing.T) {
		b.open(t, filepath.Join(base.dir, ReportFile), false)
		var state struct {
			FormHidden bool `json:"formHidden"`
			Listed     int  `json:"listed"`
			Transcript int  `json:"transcript"`
		}
		b.eval(t, `({formHidden: document.getElementById("filters").hidden, listed: Array.from(document.querySelectorAll("#failure-list .failure")).filter(e => e.getClientRects().length > 0).length, transcript: document.querySelectorAll("#failure-list .transcript").length})`, &state)
		require.True(t, state.FormHidden, "filters that cannot work are not shown")
		require.Equal(t, len(base.rep.Failures), state.Listed, "every failure readable")
		require.Positive(t, state.Transcript)
	})

	t.Run("compare", func(t *testing.T) {
		// The directories as evalrun names them, for the page's run table.
		c, err := Compare([]Run{{Dir: "runs/baseline-001", Report: base.rep}, {Dir: "runs/oracle-001", Report: orc.rep}}, CompareOptions{})
		require.NoError(t, err)
		page, err := c.HTML()
		require.NoError(t, err)
		path := filepath.Join(t.TempDir(), CompareFile)
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
		var rows int
		b.eval(t, `document.querySelectorAll("table.compare tbody tr").length`, &rows)
		require.Equal(t, len(c.Tasks), rows)
		saveShot(t, shots, "compare.png", b.screenshot(t, true))
	})
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
