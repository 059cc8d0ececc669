package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/internal/golden"
)

const mini = "../../evaltasks/testdata/mini"

func TestOracleTable(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-agent", "oracle", "-data", mini, "-out", dir}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	require.Contains(t, out.String(), "Task 7  Chain score   1.00")
	require.Contains(t, out.String(), "        Progress      1.00")
	require.Contains(t, errb.String(), "instances (100%)", "plain progress lines off a terminal")
	for _, f := range []string{"results.jsonl", "report.json", "report.md", "run.json"} {
		_, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err, f)
	}
	// A second run refuses to clobber; -resume finds nothing left to do.
	code = run(context.Background(), []string{"-agent", "oracle", "-data", mini, "-out", dir, "-quiet"}, &out, &errb, false)
	require.Equal(t, exitFailed, code)
	out.Reset()
	code = run(context.Background(), []string{"-agent", "oracle", "-data", mini, "-out", dir, "-resume", "-format", "json", "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	var rep struct {
		Agent string `json:"agent"`
		Tasks []struct {
			ID      int                `json:"id"`
			Name    string             `json:"name"`
			Metrics map[string]float64 `json:"metrics"`
			N       int                `json:"n"`
		} `json:"tasks"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
	require.Equal(t, "oracle", rep.Agent)
	require.Len(t, rep.Tasks, 8)
	require.Equal(t, map[string]float64{"precision": 1, "recall": 1, "f1": 1, "macro_f1": 1}, rep.Tasks[0].Metrics)
	require.Equal(t, map[string]float64{"chain_score": 1, "progress": 1}, rep.Tasks[6].Metrics)
}

func TestOpenAIAgent(t *testing.T) {
	// Task 2 over the three Type-II records: right, wrong, and unparseable.
	srv := agenttest.NewServer(t,
		agenttest.Tool("calculator-calculate", `{"expression":"1234*5678"}`),
		agenttest.Tool("currency_exchange-listquotes", `{}`),
		agenttest.Tool("geocoding-forward_geocode", `{"address":`),
	)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-agent", "openai", "-base-url", srv.URL(), "-model", "m", "-tasks", "2", "-data", mini, "-out", dir, "-quiet"}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	require.Contains(t, out.String(), "Task 2  Accuracy  0.33")
	require.Len(t, srv.Requests(), 3)
	results, err := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(results), `"outcome":"parse_error"`))
}

func TestAgentErrorsFailTheRun(t *testing.T) {
	// Task 2 over the three Type-II records: one right answer, then the
	// server refuses the other two (context too long).
	script := func() *agenttest.Server {
		return agenttest.NewServer(t,
			agenttest.Tool("calculator-calculate", `{"expression":"1234*5678"}`),
			agenttest.Fail(http.StatusBadRequest, "This model's maximum context length is 4096 tokens."),
			agenttest.Fail(http.StatusBadRequest, "This model's maximum context length is 4096 tokens."),
		)
	}
	for _, tt := range []struct {
		name  string
		extra []string
		code  int
	}{
		{"errors fail the run", nil, exitFailed},
		{"-allow-errors accepts them", []string{"-allow-errors"}, exitOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := script()
			var out, errb bytes.Buffer
			args := append([]string{"-agent", "openai", "-base-url", srv.URL(), "-model", "m", "-tasks", "2", "-data", mini, "-out", t.TempDir()}, tt.extra...)
			require.Equal(t, tt.code, run(context.Background(), args, &out, &errb, false), errb.String())
			require.Contains(t, errb.String(), "evalrun: 3/3 instances (100%), 2 errors\n", "progress counts the errors as they come")
			require.Equal(t, `Task    Metric    openai (m)  n  errors  scorer
Task 2  Accuracy  0.33        3  2       rules
Task 2: 2 of 3 instances ended in an error (http_400 2); they score as failures.
`, out.String())
			require.Contains(t, errb.String(), "2 instances ended in an agent error; they score as failures (task 2: http_400 2)")
			require.Contains(t, errb.String(), "retried by -resume")
			if tt.code != exitOK {
				require.Contains(t, errb.String(), "-allow-errors")
			}
		})
	}
}

func TestUnreachableModelServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refused := "http://" + l.Addr().String() + "/v1"
	require.NoError(t, l.Close())
	hanging := agenttest.NewServer(t, agenttest.Turn{Hang: true}, agenttest.Turn{Hang: true}, agenttest.Turn{Hang: true})
	for _, tt := range []struct {
		name, url, kind string
	}{
		{"connection refused", refused, "unreachable"},
		{"no answer", hanging.URL(), "timeout"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), []string{"-agent", "openai", "-base-url", tt.url, "-model", "m", "-retries", "0", "-timeout", "200ms",
				"-data", mini, "-out", t.TempDir(), "-quiet"}, &out, &errb, false)
			require.Equal(t, exitFailed, code)
			require.Empty(t, out.String(), "no table of failures")
			require.Contains(t, errb.String(), "never reached its model server")
			require.Contains(t, errb.String(), `"`+tt.kind+`" errors`)
			require.Contains(t, errb.String(), "is the model server running and answering at "+tt.url)
			if tt.kind == "timeout" {
				require.Contains(t, errb.String(), "longer -timeout (now 200ms)")
			}
		})
	}
}

// TestHelpAndNearest: -h is the usage on standard output and exit 0 on
// every command and subcommand; a misspelt flag or command is answered
// with the nearest real one.
func TestHelpAndNearest(t *testing.T) {
	for _, tt := range []struct {
		args      []string
		code      int
		out, errs string
	}{
		{[]string{"-h"}, exitOK, "usage: evalrun [flags]", ""},
		{[]string{"report", "-h"}, exitOK, "usage: evalrun report RUN_DIR", ""},
		{[]string{"compare", "-help"}, exitOK, "usage: evalrun compare", ""},
		{[]string{"comapre", "a", "b"}, exitUsage, "", `unknown command "comapre": did you mean compare?`},
		{[]string{"-sampel", "3"}, exitUsage, "", "flag provided but not defined: -sampel\ndid you mean -sample?"},
		{[]string{"compare", "-allow-mismach"}, exitUsage, "", "did you mean -allow-mismatch?"},
	} {
		var out, errb bytes.Buffer
		require.Equal(t, tt.code, run(context.Background(), tt.args, &out, &errb, false), "%v", tt.args)
		require.Contains(t, out.String(), tt.out, "%v", tt.args)
		require.Contains(t, errb.String(), tt.errs, "%v", tt.args)
		if tt.code == exitOK {
			require.Empty(t, errb.String(), "%v: help goes to standard output", tt.args)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-tasks", "9"},
		{"-agent", "nobody"},
		{"-format", "xml"},
		{"-agent", "openai"},
		{"stray"},
	} {
		var out, errb bytes.Buffer
		require.Equal(t, exitUsage, run(context.Background(), args, &out, &errb, false), "%v", args)
		require.NotEmpty(t, errb.String())
	}
}

func TestInterruptedRunSaves(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"-agent", "oracle", "-data", mini, "-out", dir, "-quiet"}, &out, &errb, false)
	require.Equal(t, exitInterrupted, code, errb.String())
	require.Contains(t, errb.String(), "-resume")
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	require.NoError(t, err)
	var rep struct {
		Complete *bool `json:"complete"`
		Tasks    []struct {
			Planned int                `json:"planned"`
			N       int                `json:"n"`
			Metrics map[string]float64 `json:"metrics"`
		} `json:"tasks"`
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	require.NotNil(t, rep.Complete)
	require.False(t, *rep.Complete)
	require.Len(t, rep.Tasks, 8)
	// A worker may take an instance before it sees the cancellation.
	done, planned := 0, 0
	for _, tr := range rep.Tasks {
		require.Positive(t, tr.Planned)
		done, planned = done+tr.N, planned+tr.Planned
	}
	require.Less(t, done, planned)
	require.Contains(t, out.String(), "(incomplete run: instances not run score as failures; resume it with -resume)")
}

// Markers of the example report in README.md, generated from a real run.
const (
	reportBegin = "<!-- report:begin -->"
	reportEnd   = "<!-- report:end -->"
)

// TestReadmeReportIsARealRun runs `evalrun` as the README shows it (the
// built-in baseline on the embedded dataset) and requires the README's
// example table to be exactly what it prints; -update rewrites the block.
func TestReadmeReportIsARealRun(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole embedded dataset")
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-quiet", "-out", t.TempDir()}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	block := "```\n$ go run ./cmd/evalrun\n" + out.String() + "```\n"
	// Both READMEs are golden files: -update rewrites their report blocks.
	for _, path := range []string{"README.md", "../../README.md"} {
		readme, err := os.ReadFile(path)
		require.NoError(t, err)
		got, err := withReportBlock(string(readme), block)
		require.NoError(t, err, path)
		golden.Check(t, path, []byte(got))
	}
}

// withReportBlock replaces what lies between the report markers.
func withReportBlock(doc, block string) (string, error) {
	before, rest, ok := strings.Cut(doc, reportBegin+"\n")
	if !ok {
		return "", fmt.Errorf("no %q line", reportBegin)
	}
	_, after, ok := strings.Cut(rest, reportEnd)
	if !ok {
		return "", fmt.Errorf("no %q after %q", reportEnd, reportBegin)
	}
	if strings.Contains(after, reportBegin) {
		return "", fmt.Errorf("more than one %q", reportBegin)
	}
	return before + reportBegin + "\n" + block + reportEnd + after, nil
}

func TestWithReportBlock(t *testing.T) {
	tests := []struct {
		doc, want string
		bad       bool
	}{
		{"a\n" + reportBegin + "\nold\n" + reportEnd + "\nb\n", "a\n" + reportBegin + "\nnew\n" + reportEnd + "\nb\n", false},
		{reportBegin + "\n" + reportEnd + "\n", reportBegin + "\nnew\n" + reportEnd + "\n", false},
		{"no markers\n", "", true},
		{reportBegin + "\nold\n", "", true},
		{reportBegin + "\n" + reportEnd + reportBegin + "\n" + reportEnd, "", true},
	}
	for _, tt := range tests {
		got, err := withReportBlock(tt.doc, "new\n")
		if tt.bad {
			require.Error(t, err, tt.doc)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tt.want, got)
	}
}

func TestRunWritesTheReportPage(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-agent", "oracle", "-data", mini, "-out", dir}, &out, &errb, false)
	require.Equal(t, exitOK, code, errb.String())
	page := filepath.Join(dir, "report.html")
	require.FileExists(t, page)
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	require.Equal(t, "evalrun: report in "+page, lines[len(lines)-1], "the run ends by saying which page to open")

	// -quiet prints no path but writes the page all the same.
	quiet := t.TempDir()
	errb.Reset()
	require.Equal(t, exitOK, run(context.Background(), []string{"-agent", "oracle", "-data", mini, "-out", quiet, "-quiet"}, &out, &errb, false))
	require.FileExists(t, filepath.Join(quiet, "report.html"))
	require.NotContains(t, errb.String(), "report in")
}

func TestReportSubcommandRebuildsThePage(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	require.Equal(t, exitOK, run(context.Background(), []string{"-agent", "oracle", "-data", mini, "-out", dir, "-quiet"}, &out, &errb, false), errb.String())
	page := filepath.Join(dir, "report.html")
	want, err := os.ReadFile(page)
	require.NoError(t, err)
	require.NoError(t, os.Remove(page))

	errb.Reset()
	require.Equal(t, exitOK, run(context.Background(), []string{"report", dir}, &out, &errb, false), errb.String())
	got, err := os.ReadFile(page)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "the page rebuilt from report.json is the page the run wrote")
	require.Equal(t, "evalrun: report in "+page+"\n", errb.String())

	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report"}, exitUsage, "usage: evalrun report RUN_DIR"},
		{[]string{"report", t.TempDir()}, exitFailed, "no report: is"},
		{[]string{"compare", dir}, exitUsage, "at least two run directories"},
		{[]string{"compare", dir, t.TempDir()}, exitFailed, "no report"},
	} {
		errb.Reset()
		require.Equal(t, tt.code, run(context.Background(), tt.args, &out, &errb, false), "%v", tt.args)
		require.Contains(t, errb.String(), tt.want, "%v", tt.args)
	}
}

func TestCompareSubcommand(t *testing.T) {
	dirs := map[string]string{}
	var out, errb bytes.Buffer
	for _, agent := range []string{"baseline", "oracle"} {
		dirs[agent] = filepath.Join(t.TempDir(), agent)
		require.Equal(t, exitOK, run(context.Background(), []string{"-agent", agent, "-data", mini, "-out", dirs[agent], "-quiet"}, &out, &errb, false), errb.String())
	}
	page := filepath.Join(t.TempDir(), "compare.html")
	out.Reset()
	errb.Reset()
	require.Equal(t, exitOK, run(context.Background(), []string{"compare", "-out", page, dirs["baseline"], dirs["oracle"]}, &out, &errb, false), errb.String())
	require.Contains(t, out.String(), "| Task | Metric | n | baseline | oracle | Δ oracle |\n")
	require.Contains(t, out.String(), "| Task 7 | Chain score | 2 |")
	require.Contains(t, out.String(), "bootstrap percentile intervals")
	require.FileExists(t, page)
	require.Equal(t, "evalrun: comparison in "+page+"\n", errb.String())

	// A run over a subset of the tasks is not compared unless told.
	sub := filepath.Join(t.TempDir(), "sub")
	require.Equal(t, exitOK, run(context.Background(), []string{"-agent", "oracle", "-tasks", "1,2", "-data", mini, "-out", sub, "-quiet"}, &out, &errb, false))
	errb.Reset()
	require.Equal(t, exitFailed, run(context.Background(), []string{"compare", "-out", page, dirs["baseline"], sub}, &out, &errb, false))
	require.Contains(t, errb.String(), "different tasks")
	require.Contains(t, errb.String(), "-allow-mismatch")
	out.Reset()
	require.Equal(t, exitOK, run(context.Background(), []string{"compare", "-allow-mismatch", "-out", page, dirs["baseline"], sub}, &out, &errb, false))
	require.Contains(t, out.String(), "Compared anyway")
}

// TestCompareWritesBesideTheFirstRun: without -out the page lands
// beside the first run, named after the runs, as readable as they are,
// and its path is the last line.
func TestCompareWritesBesideTheFirstRun(t *testing.T) {
	runs := filepath.Join(t.TempDir(), "runs")
	var out, errb bytes.Buffer
	for _, agent := range []string{"baseline", "oracle"} {
		require.Equal(t, exitOK, run(context.Background(), []string{"-agent", agent, "-data", mini, "-out", filepath.Join(runs, agent+"-001"), "-quiet"}, &out, &errb, false), errb.String())
	}
	// Elsewhere than the runs, as a user's shell would be.
	t.Chdir(t.TempDir())
	errb.Reset()
	require.Equal(t, exitOK, run(context.Background(), []string{"compare", filepath.Join(runs, "baseline-001"), filepath.Join(runs, "oracle-001")}, &out, &errb, false), errb.String())
	page := filepath.Join(runs, "compare-baseline-001-vs-oracle-001.html")
	require.Equal(t, "evalrun: comparison in "+page+"\n", errb.String())
	info, err := os.Stat(page)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	b, err := os.ReadFile(page)
	require.NoError(t, err)
	require.Contains(t, string(b), `<a class="failures-link" href="baseline-001/report.html#failures">`)
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	require.Empty(t, entries, "nothing written to the working directory")

	require.Equal(t, "compare-x-vs-y.html", defaultComparePage([]string{"x", "y"}), "beside a run in the working directory")
	require.Equal(t, filepath.Join("a", "compare-b-vs-c_d.html"), defaultComparePage([]string{"a/b/", "c d"}))
	long := strings.Repeat("r", 60)
	require.Equal(t, filepath.Join("runs", "compare-"+long+"-vs-3-runs.html"), defaultComparePage([]string{"runs/" + long, long, long, long}))
}

// TestCompareRefusesIncompleteRuns: a run interrupted before every
// instance had an outcome is not compared unless told, and then its
// unfinished tasks are marked.
func TestCompareRefusesIncompleteRuns(t *testing.T) {
	dirs := map[string]string{}
	var out, errb bytes.Buffer
	for _, agent := range []string{"baseline", "oracle"} {
		dirs[agent] = filepath.Join(t.TempDir(), agent)
		require.Equal(t, exitOK, run(context.Background(), []string{"-agent", agent, "-data", mini, "-out", dirs[agent], "-quiet"}, &out, &errb, false), errb.String())
	}
	// The oracle's report as an interruption leaves it: Task 1 with one
	// instance done.
	path := filepath.Join(dirs["oracle"], "report.json")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var rep map[string]any
	require.NoError(t, json.Unmarshal(b, &rep))
	rep["complete"] = false
	rep["tasks"].([]any)[0].(map[string]any)["n"] = 1
	b, err = json.Marshal(rep)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))

	page := filepath.Join(t.TempDir(), "compare.html")
	errb.Reset()
	require.Equal(t, exitFailed, run(context.Background(), []string{"compare", "-out", page, dirs["baseline"], dirs["oracle"]}, &out, &errb, false))
	require.Contains(t, errb.String(), "run "+dirs["oracle"]+" is incomplete: 17 of 21 instances have an outcome")
	require.Contains(t, errb.String(), "evalrun -resume -out "+dirs["oracle"])
	require.Contains(t, errb.String(), "-allow-incomplete")
	require.NoFileExists(t, page)

	out.Reset()
	errb.Reset()
	require.Equal(t, exitOK, run(context.Background(), []string{"compare", "-allow-incomplete", "-out", page, dirs["baseline"], dirs["oracle"]}, &out, &errb, false), errb.String())
	require.Contains(t, out.String(), "| Task 1 | F1-score | 5 | ")
	require.Contains(t, out.String(), "(incomplete)")
	require.Contains(t, out.String(), "Incomplete runs compared anyway")
	require.FileExists(t, page)
}

// TestRunFileModes: a run's files are 0644 like its page, or 0600 in an
// owner-only directory with -private.
func TestRunFileModes(t *testing.T) {
	for _, tt := range []struct {
		flags     []string
		dir, file os.FileMode
	}{
		{nil, 0o755, 0o644},
		{[]string{"-private"}, 0o700, 0o600},
	} {
		// A directory as the usual umask (022) makes it, whatever this
		// process's umask is; -private makes it owner-only all the same.
		dir := filepath.Join(t.TempDir(), "run")
		require.NoError(t, os.Mkdir(dir, 0o755))
		require.NoError(t, os.Chmod(dir, 0o755))
		var out, errb bytes.Buffer
		args := append([]string{"-agent", "oracle", "-tasks", "1,2", "-data", mini, "-out", dir, "-quiet"}, tt.flags...)
		require.Equal(t, exitOK, run(context.Background(), args, &out, &errb, false), errb.String())
		info, err := os.Stat(dir)
		require.NoError(t, err)
		require.Equal(t, tt.dir, info.Mode().Perm(), "%v", tt.flags)
		for _, f := range []string{"run.json", "results.jsonl", "report.json", "report.md", "report.html"} {
			info, err := os.Stat(filepath.Join(dir, f))
			require.NoError(t, err)
			require.Equal(t, tt.file, info.Mode().Perm(), "%v: %s", tt.flags, f)
		}
	}
}

func TestHelpNamesTheSubcommands(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, exitOK, run(context.Background(), []string{"-h"}, &out, &errb, false))
	require.Contains(t, out.String(), "evalrun report RUN_DIR...")
	require.Contains(t, out.String(), "evalrun compare RUN_DIR RUN_DIR...")
	require.Contains(t, out.String(), "-sample int", "then the flags")
}
