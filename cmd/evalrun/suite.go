package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/understudy/understudy/toolset/tbfile"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/anytool"
	"github.com/understudy/understudy/agent/selfassist"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/toolbench"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/retrieve"
)

// Suites other than the eight tasks.
const (
	suiteToolBench = "toolbench"
	suiteRetrieval = "retrieval"
)

// suiteFlags are the flags of -suite toolbench|retrieval.
type suiteFlags struct {
	suite, queries, tools, solver, retrievers, validation *string
	maxTurns, width, maxDepth, pool                       *int
	// AnyTool's: the solver on its pool, its reflections, its agents at once.
	anytoolSolver                 *string
	reflections, agentConcurrency *int
	// retriever is the toolbench solvers' API source.
	retriever *string
	noBuiltin *bool
	// setup is -suite retrieval's: what is ranked and what is relevant.
	setup *string
}

func addSuiteFlags(fs *flag.FlagSet) *suiteFlags {
	return &suiteFlags{
		suite:            fs.String("suite", "", "what to run: the eight tasks (default), toolbench (ToolBench query files, solved by -solver, scored by pass rate) or retrieval (NDCG@1/@5 of the API retrievers)"),
		queries:          fs.String("queries", "", "ToolBench query file or folder of *.json for -suite toolbench|retrieval (default: the embedded G1/G2/G3 queries over the built-in tools)"),
		tools:            fs.String("tools", "", "ToolBench tool folder (<Category>/<tool>.json) added to the built-in tools for -suite toolbench|retrieval"),
		solver:           fs.String("solver", toolbench.SolverDFSDT, "solver of -suite toolbench: react, dfsdt, or anytool (AnyTool's agents search the whole catalog for an API pool, -anytool-solver solves on it, self-reflection widens it)"),
		retriever:        fs.String("retriever", "", "-suite toolbench: offer each query the 5 APIs this retriever finds for it instead of its api_list: bm25, hierarchical, deliberate, or self-assist (Self-Assist's five stages with the -agent model)"),
		anytoolSolver:    fs.String("anytool-solver", toolbench.SolverDFSDT, "-solver anytool: the solver on the API pool, dfsdt or react"),
		reflections:      fs.Int("reflections", 0, "-solver anytool: self-reflection rounds (0: 4, as AnyTool's pass rate levels off after 4-6; -1: none)"),
		agentConcurrency: fs.Int("agent-concurrency", 0, "-solver anytool: agents conversing at once (0: 4; 1 runs them in order, reproducibly)"),
		retrievers:       fs.String("retrievers", "", "retrievers of -suite retrieval, comma-separated (default: bm25,hierarchical,deliberate)"),
		validation:       fs.String("validation", "", "how -suite toolbench reads tool calls' arguments: strict or lenient (default: lenient for the -tools files, strict for the built-in tools)"),
		maxTurns:         fs.Int("max-turns", 0, "model turns per query of -suite toolbench (0: the solver's default, 30)"),
		width:            fs.Int("width", 0, "DFSDT: children tried from one state (0: 2, ToolBench's tree_beam_size)"),
		maxDepth:         fs.Int("max-depth", 0, "DFSDT: actions on one branch (0: 12, ToolBench's single_chain_max_step)"),
		noBuiltin:        fs.Bool("no-builtin", false, "-suite toolbench|retrieval: load only the -tools files, without the built-in tools (a -tools file of a built-in tool's category and name replaces it either way)"),
		pool: fs.Int("pool", 0, fmt.Sprintf("-suite retrieval: rank a pool of this many APIs instead of the whole catalog: every API the queries name, "+
			"then a -seed sample of the rest by category (%d: ToolBench's, as ToolLLM's Table 2)", toolbench.ToolBenchPool)),
		setup: fs.String("setup", toolbench.SetupDefault, fmt.Sprintf("-suite retrieval: %q ranks the queries' api_list entries and counts every one relevant, as ToolLLM's retrieval scripts did for Table 2 (default: the catalog, against the relevant APIs)", toolbench.SetupToolLLM)),
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
	private             bool
	concurrency, budget int
	sample              int
	seed                uint64
	format              string
	quiet, allowErrors  bool
	stdout, stderr      io.Writer
	// baseURL and timeout are the model server's, judgeURL the judge's,
	// for the advice when one is not reached.
	baseURL, judgeURL string
	timeout           time.Duration
	// noHints builds the suite's own sandbox without dependency hints too.
	noHints bool
	// noDate leaves the date line out of the solvers' prompts.
	noDate bool
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
	if *sf.pool < 0 || *sf.pool > 0 && *sf.suite != suiteRetrieval {
		return fail(exitUsage, "-pool %d: a positive pool size, for -suite retrieval", *sf.pool)
	}
	validation, err := toolset.ParseValidationMode(*sf.validation)
	if err != nil {
		return fail(exitUsage, "-validation: %v", err)
	}
	st := r.stack
	cat := st.Catalog
	var tools *toolset.Catalog // nil: the built-in tools
	if *sf.noBuiltin && *sf.tools == "" {
		return fail(exitUsage, "-no-builtin: name the tools to load with -tools")
	}
	if *sf.tools != "" {
		if tools, err = loader.Load([]string{*sf.tools}, !*sf.noBuiltin); err != nil {
			return fail(exitUsage, "-tools: %v", err)
		}
		if *sf.queries != "" {
			// The query files' template_response shapes the fake
			// answers of the APIs they name, as toolserver -queries does.
			if _, err := tbfile.AddQueryTemplates(tools, *sf.queries); err != nil {
				return fail(exitUsage, "-queries: %v", err)
			}
		}
		cat = tools
	}
	// Retrieval ranks the catalog and calls nothing: it needs no sandbox.
	if *sf.suite == suiteToolBench && (tools != nil || validation != "") {
		if st, err = assemble.Build(assemble.Config{Catalog: tools, Validation: validation, NoDependencyHints: r.noHints}); err != nil {
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
	if r.private {
		if err := evaltasks.MakePrivate(out); err != nil {
			return fail(exitFailed, "-private: %v", err)
		}
	}
	start := time.Now()
	var (
		rep interface {
			JSON() ([]byte, error)
			WriteTable(io.Writer) error
		}
		errs, judgeErrs int
	)
	// dateLine opens every model prompt of either suite (-no-date: none).
	dateLine := ""
	if !r.noDate {
		dateLine = evaltasks.DateLine(st.Clock)
	}
	if *sf.suite == suiteRetrieval {
		var names []string
		var models []func(retrieve.Corpus) retrieve.Retriever
		if *sf.retrievers != "" {
			names = []string{}
			for _, n := range splitList(*sf.retrievers) {
				switch {
				case slices.Contains(retrieve.Names(), n):
					names = append(names, n)
				case n == retrieve.NameSelfAssist:
					models = append(models, func(co retrieve.Corpus) retrieve.Retriever {
						sa := selfassist.New(r.agent, co)
						sa.DateLine = dateLine
						return sa
					})
				case n == anytool.NameRetriever:
					if *sf.pool > 0 {
						return fail(exitUsage, "-retrievers anytool searches the whole catalog; it takes no -pool")
					}
					at := &anytool.AnyTool{Agent: r.agent, Catalog: cat, Concurrency: *sf.agentConcurrency, DateLine: dateLine}
					models = append(models, func(retrieve.Corpus) retrieve.Retriever { return anytool.Retriever{AnyTool: at} })
				default:
					return fail(exitUsage, "-retrievers: %v (or %s, %s with a model)", &retrieve.UnknownError{Name: n}, retrieve.NameSelfAssist, anytool.NameRetriever)
				}
			}
		}
		var rr *toolbench.RetrievalReport
		rr, err = toolbench.RunRetrieval(toolbench.RetrievalConfig{Queries: qs, Sample: r.sample, Seed: r.seed, Catalog: cat, Names: names, Models: models, Pool: *sf.pool,
			Setup: *sf.setup, OutDir: out, Overwrite: r.overwrite})
		if rr != nil {
			rep = rr
		}
	} else {
		cfg := toolbench.Config{Queries: qs, Sample: r.sample, Seed: r.seed, Agent: r.agent, AgentName: r.agentName, Model: r.model, Solver: *sf.solver,
			Budget:        toolbench.Budget{Calls: r.budget, MaxTurns: *sf.maxTurns, Width: *sf.width, MaxDepth: *sf.maxDepth},
			AnyToolSolver: *sf.anytoolSolver, Reflections: *sf.reflections, AgentConcurrency: *sf.agentConcurrency,
			Judge: r.judge, Concurrency: r.concurrency, Stack: st, OutDir: out, Resume: r.resume, Overwrite: r.overwrite}
		cfg.DateLine = dateLine
		if !r.quiet {
			cfg.Progress = r.stderr
		}
		switch n := *sf.retriever; {
		case n == "":
		case n == retrieve.NameSelfAssist:
			sa := selfassist.New(r.agent, retrieve.CatalogCorpus(st.Catalog))
			sa.DateLine = dateLine
			cfg.Retriever = sa
		case slices.Contains(retrieve.Names(), n):
			if cfg.Retriever, err = retrieve.New(n, st.Catalog); err != nil {
				return fail(exitUsage, "-retriever: %v", err)
			}
		default:
			return fail(exitUsage, "-retriever: %v (or %s)", &retrieve.UnknownError{Name: n}, retrieve.NameSelfAssist)
		}
		var tr *toolbench.Report
		tr, err = toolbench.Run(ctx, cfg)
		if tr != nil {
			rep = tr
			errs = tr.Overall.Errors
			judgeErrs = tr.Overall.ErrorKinds[evaltasks.ErrorJudge]
		}
	}
	if explainUnreachable(r.stderr, err, r.baseURL, r.timeout) || explainJudgeUnreachable(r.stderr, err, r.judgeURL, r.timeout) {
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
		fmt.Fprintf(r.stderr, "evalrun: %s ended in an error; they score as unsolved (the trajectories are in %s; -resume -out %s retries agent and judge errors)\n", queries(errs), out, out)
		if judgeErrs > 0 {
			fmt.Fprintf(r.stderr, "evalrun: %s got no majority from the judge; report.md says how its votes failed\n", queries(judgeErrs))
		}
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
