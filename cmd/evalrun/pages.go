package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/htmlreport"
	"github.com/understudy/understudy/internal/atomicfile"
	"github.com/understudy/understudy/internal/cli"
)

// The subcommands over finished runs: evalrun report RUN_DIR rebuilds a
// run's report.html from its report.json; evalrun compare RUN_DIR... puts
// runs side by side.

// subcommands are evalrun's commands over finished runs.
var subcommands = []string{"report", "compare"}

// subcommand runs "report" or "compare"; ok is false for any other args.
func subcommand(args []string, stdout, stderr io.Writer) (code int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case subcommands[0]:
		return reportCommand(args[1:], stdout, stderr), true
	case subcommands[1]:
		return compareCommand(args[1:], stdout, stderr), true
	}
	return 0, false
}

// usage is evalrun -h: the run's flags, then the subcommands.
func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintln(w, "usage: evalrun [flags]                      evaluate an agent on the eight tasks")
	fmt.Fprintln(w, "       evalrun -suite toolbench [flags]     solve ToolBench queries (ReAct or DFSDT), pass rates")
	fmt.Fprintln(w, "       evalrun -suite retrieval [flags]     rank the catalog's APIs for ToolBench queries, NDCG@1/@5")
	fmt.Fprintln(w, "       evalrun report RUN_DIR...           rebuild report.html from report.json")
	fmt.Fprintln(w, "       evalrun compare RUN_DIR RUN_DIR...  put runs side by side (compare -h)")
	fmt.Fprintln(w, "\nflags:")
	fs.PrintDefaults()
}

func reportCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("evalrun report", flag.ContinueOnError)
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: evalrun report RUN_DIR...\n\nRebuilds each run directory's report.html from its report.json.")
	}
	if code, ok := cli.Parse(fs, args, usage, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() == 0 {
		usage(stderr)
		return exitUsage
	}
	for _, dir := range fs.Args() {
		path, err := htmlreport.Rebuild(dir)
		if err != nil {
			fmt.Fprintf(stderr, "evalrun: %v\n", err)
			return exitFailed
		}
		fmt.Fprintf(stderr, "evalrun: report in %s\n", path)
	}
	return exitOK
}

func compareCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("evalrun compare", flag.ContinueOnError)
	out := fs.String("out", "", "where to write the comparison page (default: beside the first run, compare-RUN-vs-RUN.html)")
	mismatch := fs.Bool("allow-mismatch", false, "compare runs over different datasets, date lines, task sets or instance samples")
	incomplete := fs.Bool("allow-incomplete", false, "compare runs without an outcome for every instance (interrupted): their unfinished tasks are marked, their differences never significant")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: evalrun compare [-out FILE] [-allow-mismatch] [-allow-incomplete] RUN_DIR RUN_DIR...\n\n"+
			"Prints the runs' headline metrics side by side as a markdown table, with the difference of each run\n"+
			"from the first and 95% paired bootstrap intervals, and writes the same as an HTML page (with links to\n"+
			"each run's failure browser) beside the first run, printing its path.")
		fs.PrintDefaults()
	}
	if code, ok := cli.Parse(fs, args, usage, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "evalrun compare: name at least two run directories")
		return exitUsage
	}
	var runs []htmlreport.Run
	mode := os.FileMode(0o644)
	for _, dir := range fs.Args() {
		rep, err := htmlreport.ReadReport(dir)
		if err != nil {
			fmt.Fprintf(stderr, "evalrun: %v\n", err)
			return exitFailed
		}
		runs = append(runs, htmlreport.Run{Dir: dir, Report: rep})
		// The page is no more readable than the least readable run.
		mode &= evaltasks.RunFileMode(dir)
	}
	cmp, err := htmlreport.Compare(runs, htmlreport.CompareOptions{AllowMismatch: *mismatch, AllowIncomplete: *incomplete})
	var (
		mm  *htmlreport.MismatchError
		inc *htmlreport.IncompleteError
	)
	switch {
	case errors.As(err, &mm):
		fmt.Fprintf(stderr, "evalrun: %v; -allow-mismatch compares them anyway\n", err)
		return exitFailed
	case errors.As(err, &inc):
		fmt.Fprintf(stderr, "evalrun: %v (the rest score as failures); finish it with evalrun -resume -out %s, "+
			"or -allow-incomplete compares it anyway, marked and never significant\n", err, inc.Run)
		return exitFailed
	case err != nil:
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitFailed
	}
	if _, err := stdout.Write(cmp.Markdown()); err != nil {
		return exitFailed
	}
	path := *out
	if path == "" {
		path = defaultComparePage(fs.Args())
	}
	page, err := cmp.HTML(path)
	if err == nil {
		err = atomicfile.WriteFile(path, page, mode)
	}
	if err != nil {
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitFailed
	}
	for _, dir := range fs.Args() {
		if _, err := os.Stat(filepath.Join(dir, htmlreport.ReportFile)); err != nil {
			fmt.Fprintf(stderr, "evalrun: %s has no %s for the page's links; evalrun report %s writes it\n", dir, htmlreport.ReportFile, dir)
		}
	}
	fmt.Fprintf(stderr, "evalrun: comparison in %s\n", path)
	return exitOK
}

// maxPageName bounds the default comparison page's name, well under the
// 255 bytes file systems allow.
const maxPageName = 160

// defaultComparePage is where compare writes its page without -out:
// beside the first run's directory, named after the runs so that one
// comparison does not overwrite another (runs/baseline-001 and
// runs/openai-001 give runs/compare-baseline-001-vs-openai-001.html).
func defaultComparePage(dirs []string) string {
	names := make([]string, len(dirs))
	for i, d := range dirs {
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		names[i] = evaltasks.SafeName(filepath.Base(d))
	}
	name := "compare-" + strings.Join(names, "-vs-") + ".html"
	if len(name) > maxPageName {
		name = fmt.Sprintf("compare-%s-vs-%d-runs.html", names[0], len(names)-1)
	}
	if len(name) > maxPageName {
		name = htmlreport.CompareFile
	}
	return filepath.Join(dirs[0], "..", name)
}

// writePage writes report.html into the run directory and returns its
// path; "" when there is no run directory or the page could not be
// written (said on stderr: report.json and report.md are there anyway).
func writePage(dir string, rep *evaltasks.Report, stderr io.Writer) string {
	if dir == "" || rep == nil {
		return ""
	}
	path, err := htmlreport.WriteRunDir(dir, rep)
	if err != nil {
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return ""
	}
	return path
}
