// Command evalrun evaluates an agent on the eight tool-use tasks of the evaluation paper (§3.4) and prints the Table-5-style report.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/cli"
)

// defaultMemoryLimit is the Go heap's soft limit when GOMEMLIMIT is not
// set. On StableToolBench's whole tree the live heap stays under 250 MiB
// (the catalog, its BM25 indexes), but the collector, left to double it,
// lets the process reach 530 MiB; the limit makes it collect sooner
// instead. A larger tree whose live heap nears the limit only costs more
// collections (the runtime caps their share of CPU), never a failure.
const defaultMemoryLimit = 400 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stderr))
	stop()
	os.Exit(code)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Exit codes.
const (
	exitOK          = 0
	exitFailed      = 1
	exitUsage       = 2
	exitInterrupted = 130
)

func run(ctx context.Context, args []string, stdout, stderr io.Writer, tty bool) int {
	if code, ok := subcommand(args, stdout, stderr); ok {
		return code
	}
	fs := flag.NewFlagSet("evalrun", flag.ContinueOnError)
	var (
		tasks       = fs.String("tasks", "all", "tasks to run: all, or a list such as 1,2,7 or 1-4,8")
		agentName   = fs.String("agent", evaltasks.DefaultAgent(), "agent under test: baseline, oracle, openai, or another registered agent")
		baseURL     = fs.String("base-url", "", "OpenAI-compatible API root for -agent openai, e.g. http://127.0.0.1:8000/v1")
		model       = fs.String("model", "", "model name for -agent openai")
		apiKeyEnv   = fs.String("api-key-env", "", "NAME of the environment variable holding the API key (empty: none)")
		protocol    = fs.String("protocol", "native", "how tools reach the model: native (tool calls) or text (ReAct-style prompt)")
		temperature = fs.Float64("temperature", 0, "sampling temperature")
		maxTokens   = fs.Int("max-tokens", 0, "completion token limit (0: server default)")
		timeout     = fs.Duration("timeout", openai.DefaultTimeout, "timeout of one model request")
		retries     = fs.Int("retries", openai.DefaultMaxRetries, "retries of a failed model request")
		dataDir     = fs.String("data", "", "instruction dataset directory of *.jsonl (default: the embedded dataset)")
		sample      = fs.Int("sample", 0, "at most this many instances per task, stratified by instruction type, scenario and API (0: all); with -suite, at most this many queries, stratified by query file and category")
		seed        = fs.Uint64("seed", 0, "seed choosing the -sample instances (and the -pool of -suite retrieval)")
		concurrency = fs.Int("concurrency", 1, "instances evaluated at once")
		budget      = fs.Int("budget", evaltasks.DefaultCallBudget, "call budget of a Task-7 instance")
		noDate      = fs.Bool("no-date", false, "start every suite's conversations (the eight tasks, the ToolBench solvers, the retrieval suite's model-driven retrievers) without the line giving the sandbox's date and time, as the paper's prompts did")
		outDir      = fs.String("out", "", "run directory (default: runs/<agent>-NNN, a new one each run)")
		resume      = fs.Bool("resume", false, "continue the run in -out (default: the latest runs/<agent>-NNN)")
		overwrite   = fs.Bool("overwrite", false, "start the run in -out again, discarding its results")
		private     = fs.Bool("private", false, "make the run directory owner-only (0700), so its files, transcripts included, are 0600 (default: as readable as the directory, 0644 in a 0755 one)")
		judgeURL    = fs.String("judge-url", "", "OpenAI-compatible API root of an LLM judge for tasks 3, 5, 6, 8 (default: rule scorers)")
		judgeModel  = fs.String("judge-model", "", "judge model name")
		judgeKeyEnv = fs.String("judge-api-key-env", "", "NAME of the environment variable holding the judge's API key")
		judgeVotes  = fs.Int("judge-votes", evaltasks.MinJudgeVotes, "judge votes per instance (at least 3, majority)")
		format      = fs.String("format", "table", "what to print: table or json (the report)")
		quiet       = fs.Bool("quiet", false, "no progress reports")
		allowErrors = fs.Bool("allow-errors", false, "exit 0 even when instances ended in an error (they score as failures either way)")
		hints       = fs.Bool("dependency-hints", true, "serve the documentation's sentences that say where a value comes from and the x-depends annotations; false removes them (the graph and its enforcement stay), so Task 7 measures inferring the chains, not following directions")
		validate    = fs.Bool("validate", false, "validate the instruction dataset (execute every gold annotation in the sandbox), print its counts and exit")
	)
	suite := addSuiteFlags(fs)
	if code, ok := cli.Parse(fs, args, func(w io.Writer) { usage(fs, w) }, stdout, stderr); !ok {
		return code
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "evalrun: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		if near := cli.Nearest(fs.Arg(0), subcommands); near != "" {
			return usage("unknown command %q: did you mean %s? (run 'evalrun -h')", fs.Arg(0), near)
		}
		return usage("unexpected arguments %q: evalrun takes flags, or a command (%s) first; run 'evalrun -h'", fs.Args(), strings.Join(subcommands, ", "))
	}
	if *format != "table" && *format != "json" {
		return usage("-format %q: want table or json", *format)
	}
	if *validate {
		return validateDataset(ctx, *dataDir, stdout, stderr)
	}
	taskList, err := evaltasks.ParseTasks(*tasks)
	if err != nil {
		return usage("%v", err)
	}
	// The offline sandbox: the engine the calls run in, and the catalog
	// and dependency graph agents may read.
	st, err := assemble.Build(assemble.Config{NoDependencyHints: !*hints})
	if err != nil {
		fmt.Fprintf(stderr, "evalrun: sandbox: %v\n", err)
		return exitFailed
	}
	defer st.Close()
	opts := evaltasks.AgentOptions{BaseURL: *baseURL, Model: *model, APIKeyEnv: *apiKeyEnv, Protocol: *protocol, Temperature: *temperature,
		MaxTokens: *maxTokens, Timeout: *timeout, MaxRetries: *retries, Concurrency: *concurrency, Catalog: st.Catalog, Graph: st.Graph}
	a, err := evaltasks.NewAgent(*agentName, opts)
	if err != nil {
		return usage("%v", err)
	}
	cfg := evaltasks.Config{Tasks: taskList, Agent: a, AgentName: *agentName, Model: *model, Sample: *sample, Seed: *seed,
		Concurrency: *concurrency, Budget: *budget, NoDate: *noDate, Resume: *resume, Overwrite: *overwrite, TTY: tty, Stack: st,
		NoDependencyHints: !*hints}
	if *dataDir != "" {
		cfg.Data, cfg.DataDir = os.DirFS(*dataDir), "."
	}
	if *judgeURL != "" || *judgeModel != "" {
		j, err := evaltasks.NewOpenAIJudge(evaltasks.AgentOptions{BaseURL: *judgeURL, Model: *judgeModel, APIKeyEnv: *judgeKeyEnv,
			Timeout: *timeout, MaxRetries: *retries, Concurrency: *concurrency}, *judgeVotes)
		if err != nil {
			return usage("%v", err)
		}
		if *allowErrors {
			// The judge's errors are accepted: they score as failures
			// and the run goes on, however many come in a row.
			j.StopAfter = -1
		}
		cfg.Judge = j
	}
	if *suite.suite != "" {
		return runSuite(ctx, suite, suiteRun{stack: st, agent: a, agentName: *agentName, model: *model, judge: cfg.Judge, outDir: *outDir, resume: *resume,
			overwrite: *overwrite, private: *private, concurrency: *concurrency, budget: *budget, sample: *sample, seed: *seed, format: *format, quiet: *quiet, allowErrors: *allowErrors, stdout: stdout, stderr: stderr,
			baseURL: *baseURL, judgeURL: *judgeURL, timeout: *timeout, noHints: !*hints, noDate: *noDate})
	}
	cfg.OutDir = *outDir
	if cfg.OutDir == "" {
		if *resume {
			if cfg.OutDir = evaltasks.LatestRunDir("runs", *agentName); cfg.OutDir == "" {
				return usage("-resume: no earlier run of %s under runs/; name it with -out", *agentName)
			}
		} else {
			cfg.OutDir = evaltasks.NextRunDir("runs", *agentName)
		}
	}
	if *private {
		if err := evaltasks.MakePrivate(cfg.OutDir); err != nil {
			fmt.Fprintf(stderr, "evalrun: -private: %v\n", err)
			return exitFailed
		}
	}
	if !*quiet {
		cfg.Progress = stderr
	}

	start := time.Now()
	rep, err := evaltasks.Run(ctx, cfg)
	var interrupted *evaltasks.InterruptedError
	if explainUnreachable(stderr, err, *baseURL, *timeout) || explainJudgeUnreachable(stderr, err, *judgeURL, *timeout) {
		return exitFailed
	}
	// The page's path is the last line, whatever the outcome: what to open.
	if page := writePage(cfg.OutDir, rep, stderr); page != "" && !*quiet {
		defer fmt.Fprintf(stderr, "evalrun: report in %s\n", page)
	}
	if rep != nil {
		if perr := printReport(stdout, rep, *format); perr != nil {
			fmt.Fprintf(stderr, "evalrun: %v\n", perr)
			return exitFailed
		}
	}
	switch {
	case errors.As(err, &interrupted):
		fmt.Fprintf(stderr, "evalrun: %v; saved in %s, continue with -resume -out %s\n", err, cfg.OutDir, cfg.OutDir)
		return exitInterrupted
	case err != nil:
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitFailed
	}
	if !*quiet {
		fmt.Fprintf(stderr, "evalrun: results in %s (%s)\n", cfg.OutDir, time.Since(start).Round(time.Millisecond))
	}
	if agentErrs, dataErrs := rep.ErrorCounts(); agentErrs+dataErrs+rep.JudgeErrors() > 0 {
		judgeErrs := rep.JudgeErrors()
		fmt.Fprintf(stderr, "evalrun: %s; they score as failures (%s)\n", errorCounts(agentErrs, dataErrs, judgeErrs), rep.ErrorSummary())
		if agentErrs+judgeErrs > 0 {
			fmt.Fprintf(stderr, "evalrun: errored instances are retried by -resume -out %s\n", cfg.OutDir)
		}
		if dataErrs > 0 {
			fmt.Fprintf(stderr, "evalrun: evalrun -validate names the bad records\n")
		}
		if !*allowErrors {
			fmt.Fprintf(stderr, "evalrun: exiting with an error because of them; -allow-errors accepts them\n")
			return exitFailed
		}
	}
	return exitOK
}

// errorCounts says how many instances ended in which kind of error.
func errorCounts(agentErrs, dataErrs, judgeErrs int) string {
	var parts []string
	if agentErrs > 0 {
		parts = append(parts, plural(agentErrs, "instance")+" ended in an agent error")
	}
	if judgeErrs > 0 {
		parts = append(parts, plural(judgeErrs, "instance")+" got no majority from the judge (judge errors; report.md says how its votes failed)")
	}
	if dataErrs > 0 {
		parts = append(parts, plural(dataErrs, "instance")+" could not be run (dataset errors)")
	}
	return strings.Join(parts, " and ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func printReport(w io.Writer, rep interface {
	JSON() ([]byte, error)
	WriteTable(io.Writer) error
}, format string) error {
	if format == "json" {
		b, err := rep.JSON()
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	return rep.WriteTable(w)
}

// validateDataset runs the dataset validator: the shipped dataset is held to
// the paper's counts and full coverage, a -data directory only to correctness.
func validateDataset(ctx context.Context, dataDir string, stdout, stderr io.Writer) int {
	opts := dataset.ShippedOptions()
	if dataDir != "" {
		opts = dataset.ValidateOptions{FS: os.DirFS(dataDir), Dir: "."}
	}
	rep, err := dataset.Validate(ctx, opts)
	if rep != nil {
		if werr := rep.WriteSummary(stdout); werr != nil {
			fmt.Fprintf(stderr, "evalrun: %v\n", werr)
			return exitFailed
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "evalrun: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// explainJudgeUnreachable reports a run stopped because the judge was
// never reached (*evaltasks.JudgeUnreachableError), with what to check;
// it returns false for any other err. No table is printed: scores without
// their judge would be no scores.
func explainJudgeUnreachable(stderr io.Writer, err error, judgeURL string, timeout time.Duration) bool {
	var ju *evaltasks.JudgeUnreachableError
	if !errors.As(err, &ju) {
		return false
	}
	fmt.Fprintf(stderr, "evalrun: %v; the run stops rather than score without it (what was done is saved; -resume continues)\n", err)
	if judgeURL != "" {
		fmt.Fprintf(stderr, "evalrun: is the judge's server running and answering at %s?\n", judgeURL)
	}
	if ju.Kind == evaltasks.ErrorTimeout {
		fmt.Fprintf(stderr, "evalrun: a judge that is only slow needs a longer -timeout (now %v)\n", timeout)
	}
	return true
}

// explainUnreachable reports a run stopped because the agent never reached
// its model server (*evaltasks.UnreachableError), with what to check; it
// returns false for any other err. The caller prints no table: a column
// of zeros would measure the network, not the agent.
func explainUnreachable(stderr io.Writer, err error, baseURL string, timeout time.Duration) bool {
	var unreachable *evaltasks.UnreachableError
	if !errors.As(err, &unreachable) {
		return false
	}
	fmt.Fprintf(stderr, "evalrun: %v\n", err)
	if baseURL != "" {
		fmt.Fprintf(stderr, "evalrun: is the model server running and answering at %s?\n", baseURL)
	}
	if unreachable.Kind == evaltasks.ErrorTimeout {
		fmt.Fprintf(stderr, "evalrun: a model that is only slow needs a longer -timeout (now %v)\n", timeout)
	}
	return true
}
