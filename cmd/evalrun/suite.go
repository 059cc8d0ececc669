package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/retrieve"
)

// Suites other than the eight tasks.
const (
	suiteToolBench = "toolbench"
	suiteRetrieval = "retrieval"
)

// suiteFlags are the flags of -suite toolbench|retrieval.
type suiteFlags struct {
	suite, queries, tools, solver, retrievers *string
	maxTurns, width, maxDepth                 *int
}

func addSuiteFlags(fs *flag.FlagSet) *suiteFlags {
	return &suiteFlags{
		suite:      fs.String("suite", "", "what to run: the eight tasks (default), toolbench (ToolBench query files, solved by -solver, scored by pass rate) or retrieval (NDCG@1/@5 of the API retrievers)"),
		queries:    fs.String("queries", "", "ToolBench query file or folder of *.json for -suite toolbench|retrieval (default: the embedded G1/G2/G3 queries over the built-in tools)"),
		tools:      fs.String("tools", "", "ToolBench tool folder (<Category>/<tool>.json) added to the built-in tools for -suite toolbench|retrieval"),
		solver:     fs.String("solver", toolbench.SolverDFSDT, "solver of -suite toolbench: react or dfsdt"),
		retrievers: fs.String("retrievers", "", "retrievers of -suite retrieval, comma-separated (default: bm25,hierarchical,deliberate)"),
		maxTurns:   fs.Int("max-turns", 0, "model turns per query of -suite toolbench (0: the solver's default, 30)"),
		width:      fs.Int("width", 0, "DFSDT: children tried from one state (0: 2, ToolBench's tree_beam_size)"),
		maxDepth:   fs.Int("max-depth", 0, "DFSDT: actions on one branch (0: 12, ToolBench's single_chain_max_step)"),
	}
}

// suiteRun is what the main flags give a suite.
type suiteRun struct {
	stack               *assemble.Stack
	agent               agent.Agent
	agentName, model    string
	judge               *evaltasks.Judge
	outDir              string
	resume, overwrite   bool
	concurrency, budget int
	format              string
	quiet, allowErrors  bool
	stdout, stderr      io.Writer
	// baseURL and timeout are the model server's, for the advice when
	// it is not reached.
	baseURL string
	timeout time.Duration
}

// runSuite runs -suite toolbench or retrieval.
func runSuite(ctx context.Context, sf *suiteFlags, r suiteRun) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(r.stderr, "evalrun: "+format+"\n", a...)
		return code
	}
	if *sf.suite != suiteToolBench && *sf.suite != suiteRetrieval {
		return fail(exitUsage, "-suite %q: want toolbench or retrieval (or nothing, for the eight tasks)", *sf.suite)
	}
	var qs []toolbench.Query
	if *sf.queries != "" {
		abs, err := filepath.Abs(*sf.queries)
		if err == nil {
			qs, err = toolbench.LoadQueries(os.DirFS("/"), strings.TrimPrefix(filepath.ToSlash(abs), "/"))
		}
		if err != nil {
			return fail(exitUsage, "-queries: %v", err)
		}
	}
	st := r.stack
	if *sf.tools != "" {
		cat, err := toolset.Load([]string{*sf.tools}, true)
		if err != nil {
			return fail(exitUsage, "-tools: %v", err)
		}
		if *sf.queries != "" {
			// The query files' template_response shapes the fake
			// answers of the APIs they name, as toolserver -queries does.
			if _, err := cat.AddQueryTemplates(*sf.queries); err != nil {
				return fail(exitUsage, "-queries: %v", err)
			}
		}
		if st, err = assemble.Build(assemble.Config{Catalog: cat}); err != nil {
			return fail(exitFailed, "sandbox: %v", err)
		}
		defer st.Close()
	}
	name := *sf.suite + "-" + r.agentName
	if *sf.suite == suiteRetrieval {
		name = suiteRetrieval
	}
	out := r.outDir
	if out == "" {
		if r.resume {
			if out = evaltasks.LatestRunDir("runs", name); out == "" {
				return fail(exitUsage, "-resume: no earlier run of %s under runs/; name it with -out", name)
			}
		} else {
			out = evaltasks.NextRunDir("runs", name)
		}
	}
	start := time.Now()
	var (
		rep interface {
			JSON() ([]byte, error)
			WriteTable(io.Writer) error
		}
		err  error
		errs int
	)
	if *sf.suite == suiteRetrieval {
		var rs []retrieve.Retriever
		if *sf.retrievers != "" {
			for _, n := range splitList(*sf.retrievers) {
				x, err := retrieve.New(n, st.Catalog)
				if err != nil {
					return fail(exitUsage, "-retrievers: %v", err)
				}
				rs = append(rs, x)
			}
		}
		var rr *toolbench.RetrievalReport
		rr, err = toolbench.RunRetrieval(toolbench.RetrievalConfig{Queries: qs, Catalog: st.Catalog, Retrievers: rs, OutDir: out, Overwrite: r.overwrite})
		if rr != nil {
			rep = rr
		}
	} else {
		cfg := toolbench.Config{Queries: qs, Agent: r.agent, AgentName: r.agentName, Model: r.model, Solver: *sf.solver,
			Budget: toolbench.Budget{Calls: r.budget, MaxTurns: *sf.maxTurns, Width: *sf.width, MaxDepth: *sf.maxDepth},
			Judge:  r.judge, Concurrency: r.concurrency, Stack: st, OutDir: out, Resume: r.resume, Overwrite: r.overwrite}
		if !r.quiet {
			cfg.Progress = r.stderr
		}
		var tr *toolbench.Report
		tr, err = toolbench.Run(ctx, cfg)
		if tr != nil {
			rep = tr
			errs = tr.Overall.Errors
		}
	}
	if explainUnreachable(r.stderr, err, r.baseURL, r.timeout) {
		return exitFailed
	}
	if rep != nil {
		if perr := printReport(r.stdout, rep, r.format); perr != nil {
			return fail(exitFailed, "%v", perr)
		}
	}
	var interrupted *evaltasks.InterruptedError
	switch {
	case errors.As(err, &interrupted):
		return fail(exitInterrupted, "%v; saved in %s, continue with -resume -out %s", err, out, out)
	case err != nil:
		return fail(exitFailed, "%v", err)
	}
	if !r.quiet {
		fmt.Fprintf(r.stderr, "evalrun: results in %s (%s)\n", out, time.Since(start).Round(time.Millisecond))
	}
	if errs > 0 {
		fmt.Fprintf(r.stderr, "evalrun: %s ended in an error; they score as unsolved (the trajectories are in %s; -resume -out %s retries agent errors)\n", queries(errs), out, out)
		if !r.allowErrors {
			return fail(exitFailed, "exiting with an error because of them; -allow-errors accepts them")
		}
	}
	return exitOK
}

func splitList(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if part := s[start:i]; part != "" {
				out = append(out, part)
			}
			start = i + 1
		}
	}
	return out
}

func queries(n int) string {
	if n == 1 {
		return "1 query"
	}
	return fmt.Sprintf("%d queries", n)
}
