package evaltasks

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/progress"
	"github.com/understudy/understudy/evaltasks/sampling"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/atomicfile"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/search"
)

// Config is one evaluation run.
type Config struct {
	// Tasks to run; nil means all eight.
	Tasks []int
	// Agent answers; AgentName and Model name it in the report.
	Agent     agent.Agent
	AgentName string
	Model     string

	// Instructions to evaluate; nil loads every *.jsonl under DataDir of
	// Data (default: the embedded fixtures' "instructions").
	Instructions []dataset.Instruction
	Data         fs.FS
	DataDir      string

	// Sample keeps at most this many instances per task (0: all), chosen
	// by Seed and stratified by instruction type, scenario and API.
	Sample int
	Seed   uint64
	// Concurrency is the number of instances evaluated at once (default 1).
	Concurrency int
	// Budget bounds the calls of a Task-7 instance (default DefaultCallBudget).
	Budget int
	// NoDate starts conversations without the date line (DateLine of the
	// sandbox clock), as the paper's prompts did. The instructions say
	// "today" and "next Friday" and the tools run on that clock, so by
	// default every conversation starts with it; run.json and the report
	// say which, so that runs with and without are not compared unawares.
	NoDate bool
	// NoDependencyHints marks a run whose sandbox serves the catalog
	// without dependency hints (assemble.Config.NoDependencyHints); the
	// report says so, and a resumed run must match.
	NoDependencyHints bool
	// Judge, when set, scores Tasks 3, 5, 6 and 8 instead of the rules.
	Judge *Judge

	// OutDir receives results.jsonl, report.json and report.md; "" writes nothing.
	OutDir string
	// Resume continues the run in OutDir; Overwrite starts it again. With
	// neither, an OutDir holding results is refused.
	Resume    bool
	Overwrite bool

	// Stack is the sandbox to execute calls in; nil builds the default
	// offline one (built-in tools, fake mode, frozen clock).
	Stack *assemble.Stack

	// Progress receives progress reports (nil: none); TTY draws a bar.
	Progress io.Writer
	TTY      bool
	// Clock times the progress ETA (default: the system clock). It never
	// reaches a result or report.
	Clock clock.Clock
}

// InterruptedError reports a run stopped before every instance was scored;
// everything scored so far is saved.
type InterruptedError struct {
	Done, Total int
	Err         error
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("evaluation interrupted after %d of %d instances: %v", e.Done, e.Total, e.Err)
}
func (e *InterruptedError) Unwrap() error { return e.Err }

// RunDirError reports an output directory that cannot be used as asked.
type RunDirError struct {
	Dir    string
	Reason string
}

func (e *RunDirError) Error() string { return fmt.Sprintf("run directory %s: %s", e.Dir, e.Reason) }

// unreachableAfter is how many instances must end without reaching the
// model server, while none has reached it, before a run stops: the client
// has already retried each of them, so a server that is not there is not
// waited for on every instance of the dataset.
const unreachableAfter = 3

// UnreachableError reports a run stopped because the agent never reached
// its model server (connection refused, no answer in time). What was
// recorded is saved; the errored instances are retried on resume.
type UnreachableError struct {
	// Failed is the number of instances that ended without an answer.
	Failed int
	// Kind is the error kind of the first of them, Err its error.
	Kind string
	Err  string
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("the agent never reached its model server: the first %d instances ended in %q errors, none got an answer (first: %s)", e.Failed, e.Kind, e.Err)
}

// ReachWatch stops a run whose agent never reaches its model server: once
// unreachableAfter instances (or all of them, when fewer are planned) have
// ended unreached while none reached it, Observe returns an
// *UnreachableError. Every suite that runs an agent over a dataset uses
// it. It is safe for concurrent use.
type ReachWatch struct {
	mu        sync.Mutex
	planned   int
	reached   bool
	unreached int
	kind, err string // of the first instance unreached
}

// NewReachWatch watches a run of planned instances.
func NewReachWatch(planned int) *ReachWatch { return &ReachWatch{planned: planned} }

// Observe notes how an instance ended: its error kind (AgentErrorKind,
// or ErrorData) and error text, "" for an answer. A data error says
// nothing about the server; any answer or other error (an HTTP error the
// server answered with) means it was reached.
func (w *ReachWatch) Observe(kind, errText string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case kind == ErrorData:
	case unreachedKind(kind, errText):
		if w.unreached == 0 {
			w.kind, w.err = kind, errText
		}
		w.unreached++
	default:
		w.reached = true
	}
	if !w.reached && w.unreached > 0 && w.unreached >= min(unreachableAfter, w.planned) {
		return &UnreachableError{Failed: w.unreached, Kind: w.kind, Err: w.err}
	}
	return nil
}

// Output file names inside a run directory.
const (
	ResultsFile  = "results.jsonl"
	ReportFile   = "report.json"
	MarkdownFile = "report.md"
	ManifestFile = "run.json"
)

// evaluator holds what every instance needs.
type evaluator struct {
	cat    *toolset.Catalog
	index  *search.Index
	engine *sandbox.Engine
	tools  map[string]toolset.OpenAITool // by API ID
	budget int
	judge  *Judge
	graph  *deps.Graph // dependencies, for Task 8's step order
	// dateLine opens every conversation; "" with Config.NoDate.
	dateLine string
}

func newEvaluator(st *assemble.Stack, budget int, judge *Judge) *evaluator {
	ev := &evaluator{cat: st.Catalog, index: search.Of(st.Catalog), engine: st.Engine, tools: map[string]toolset.OpenAITool{}, budget: budget, judge: judge, graph: st.Graph, dateLine: DateLine(st.Clock)}
	apis := st.Catalog.APIs()
	for i, t := range toolset.OpenAITools(st.Catalog, toolset.ExportOptions{Style: toolset.NameDotted}) {
		ev.tools[apis[i].ID()] = t
	}
	if ev.budget <= 0 {
		ev.budget = DefaultCallBudget
	}
	return ev
}

// manifest is run.json: what a resumed run must agree with.
type manifest struct {
	Agent   string `json:"agent"`
	Model   string `json:"model,omitempty"`
	Tasks   []int  `json:"tasks"`
	Sample  int    `json:"sample,omitempty"`
	Seed    uint64 `json:"seed"`
	Budget  int    `json:"budget"`
	Judge   string `json:"judge,omitempty"`
	Dataset string `json:"dataset"`
	// DateLine is the line conversations start with; "" for none (-no-date).
	DateLine string `json:"date_line,omitempty"`
	// NoDependencyHints: the catalog was served without dependency hints.
	NoDependencyHints bool `json:"no_dependency_hints,omitempty"`
}

// Run evaluates an agent: every instance of the chosen tasks, scored and
// appended to results.jsonl as it completes, then report.json and
// report.md. On cancellation it stops, writes the report of what was
// completed and returns it with an *InterruptedError.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Agent == nil {
		return nil, errors.New("evaltasks: no agent")
	}
	tasks := cfg.Tasks
	if len(tasks) == 0 {
		tasks, _ = ParseTasks("")
	}
	ins := cfg.Instructions
	if ins == nil {
		var err error
		if ins, err = loadData(cfg); err != nil {
			return nil, err
		}
	}
	digest := Digest(ins)
	insts := sample(Instances(ins, tasks), cfg.Sample, cfg.Seed)
	planned := map[int]int{}
	for _, in := range insts {
		planned[in.Task]++
	}

	st := cfg.Stack
	if st == nil {
		var err error
		if st, err = assemble.Build(assemble.Config{}); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		defer st.Close()
	}
	ev := newEvaluator(st, cfg.Budget, cfg.Judge)
	if cfg.NoDate {
		ev.dateLine = ""
	}
	scorers := map[int]string{}
	for _, t := range tasks {
		if cfg.Judge.judges(t) {
			scorers[t] = cfg.Judge.Name
			if scorers[t] == "" {
				scorers[t] = "judge"
			}
		}
	}
	name := cfg.AgentName
	if name == "" {
		name = "agent"
	}

	results := map[string]*Result{}
	var out *resultsFile
	if cfg.OutDir != "" {
		m := manifest{Agent: name, Model: cfg.Model, Tasks: tasks, Sample: cfg.Sample, Seed: cfg.Seed, Budget: ev.budget, Dataset: digest, DateLine: ev.dateLine, NoDependencyHints: cfg.NoDependencyHints}
		if cfg.Judge != nil {
			m.Judge = cfg.Judge.Name
		}
		var err error
		if results, out, err = openRunDir(cfg, m); err != nil {
			return nil, err
		}
		defer out.close()
	}

	var pending []Instance
	for _, inst := range insts {
		if r, ok := results[inst.Key()]; !ok || r.agentError() {
			pending = append(pending, inst)
		}
	}
	prog := progress.New(cfg.Progress, cfg.TTY, cfg.Clock, len(pending))

	var (
		mu    sync.Mutex
		watch = NewReachWatch(len(pending))
	)
	firstErr := ForEach(ctx, pending, cfg.Concurrency, func(ctx context.Context, inst Instance) error {
		res, err := ev.runInstance(ctx, cfg.Agent, inst)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if out != nil {
			if err := out.append(res); err != nil {
				return fmt.Errorf("writing results: %w", err)
			}
		}
		mu.Lock()
		results[res.Key] = res
		stop := watch.Observe(res.ErrorKind, res.Error)
		mu.Unlock()
		prog.Tick(res.Error != "")
		return stop
	})
	prog.Finish()

	// The report covers the planned instances only; one without an
	// outcome yet (an interrupted run) is there as not run, a failure.
	keep := map[string]*Result{}
	done := 0
	for _, inst := range insts {
		if r, ok := results[inst.Key()]; ok {
			keep[inst.Key()] = r
			done++
		} else {
			keep[inst.Key()] = notRun(inst)
		}
	}
	rep := Aggregate(name, cfg.Model, digest, tasks, planned, keep, scorers)
	rep.DateLine = ev.dateLine
	rep.NoDependencyHints = cfg.NoDependencyHints
	rep.Describe(insts, keep)
	if cfg.OutDir != "" {
		if err := writeReport(cfg.OutDir, rep); err != nil {
			return rep, errors.Join(firstErr, err)
		}
	}
	if firstErr != nil {
		return rep, firstErr
	}
	if err := ctx.Err(); err != nil {
		return rep, &InterruptedError{Done: done, Total: len(insts), Err: err}
	}
	return rep, nil
}

// newResult is the result of an instance before it is run.
func newResult(inst Instance) *Result {
	res := &Result{Key: inst.Key(), Task: inst.Task, Instance: inst.In.ID}
	if inst.Task == TaskDecide {
		res.Label = "negative"
		if inst.Positive {
			res.Label = "positive"
		}
	}
	return res
}

// notRun stands for a planned instance without a recorded outcome in the
// report of an interrupted run; it is never written to results.jsonl.
func notRun(inst Instance) *Result {
	res := newResult(inst)
	res.Outcome = OutcomeNotRun
	return res
}

// runInstance evaluates one instance. It returns an error only when the
// context is cancelled or the run must stop; a bad record or a failing
// agent is a Result with Error set, which scores as a failure.
func (ev *evaluator) runInstance(ctx context.Context, a agent.Agent, inst Instance) (*Result, error) {
	res := newResult(inst)
	v, err := ev.view(ctx, inst)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var de *DataError
		if !errors.As(err, &de) {
			return nil, err
		}
		res.Outcome, res.Error, res.ErrorKind = OutcomeError, err.Error(), ErrorData
		return res, nil
	}
	res.Tools = v.offered
	// The gold script rides in the context for the oracle, which may be
	// wrapped (recorded, counted); other agents never read it.
	actx := agent.WithOracleScript(ctx, ev.oracleScript(inst))
	// Every reply is cut to MaxStoredReply before it is scored or kept.
	capped := &cappingAgent{next: a, limit: MaxStoredReply}
	defer func() { res.Cut = capped.result() }()
	if inst.Task == TaskChain {
		err = ev.runChain(actx, capped, inst, v, res)
	} else {
		var r agent.Reply
		r, err = capped.Respond(actx, v.messages, v.tools)
		if err == nil {
			res.addUsage(r.Usage)
			res.Reply = &r
			res.Messages = append(append([]agent.Message(nil), v.messages...), agent.Message{Role: agent.RoleAssistant, Content: r.Content, ToolCalls: r.ToolCalls})
			ev.score(inst, v, r, res)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res.Outcome, res.Error, res.ErrorKind = OutcomeError, err.Error(), AgentErrorKind(err)
		res.Pass, res.Score = false, 0
		return res, nil
	}
	if ev.judge.judges(inst.Task) && res.Reply != nil && !ruleVetoes[res.Outcome] {
		if _, bad := parseFailure(*res.Reply); !bad {
			reply, _ := scoredText(res.Reply.Content)
			rec, err := ev.judge.judge(ctx, inst.Task, inst.In, reply, res.Pass)
			var je *JudgeError
			switch {
			case errors.As(err, &je):
				// No majority is no verdict: an error, never a pass or a fail.
				res.Judge = rec
				res.Outcome, res.Error, res.ErrorKind = OutcomeError, err.Error(), ErrorJudge
				res.Pass, res.Score = false, 0
				return res, nil
			case err != nil:
				return nil, err
			}
			res.Judge = rec
			res.Pass = rec.Pass
			if inst.Task == TaskClarify || inst.Task == TaskToolReturn {
				res.pass(rec.Pass)
			}
		}
	}
	return res, nil
}

// ruleVetoes are the rule outcomes a judge cannot overturn: a reply that
// pastes the tool's data holds every fact a judge looks for, and one that
// asks for everything asks for the missing part too, yet neither does the
// task. Such replies fail without a vote.
var ruleVetoes = map[string]bool{OutcomeCopied: true, OutcomeOverAsked: true}

// loadData reads the dataset the config names.
func loadData(cfg Config) ([]dataset.Instruction, error) {
	fsys, dir := cfg.Data, cfg.DataDir
	if fsys == nil {
		fsys = fixtures.FS
		if dir == "" {
			dir = "instructions"
		}
	}
	if dir == "" {
		dir = "."
	}
	ins, err := dataset.LoadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return ins, nil
}

// Digest identifies a dataset: SHA-256 over its records in ID order.
func Digest(ins []dataset.Instruction) string {
	idx := make([]int, len(ins))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return ins[idx[a]].ID < ins[idx[b]].ID })
	h := sha256.New()
	for _, i := range idx {
		b, _ := json.Marshal(&ins[i])
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// sample keeps at most n instances per task, stratified by instruction
// type, scenario and API (see strata) and chosen by seed
// (sampling.Keep). The sample keeps the instances' order.
func sample(insts []Instance, n int, seed uint64) []Instance {
	if n <= 0 {
		return insts
	}
	items := make([]sampling.Item, len(insts))
	for i, in := range insts {
		st := strata(in.In)
		items[i] = sampling.Item{Task: in.Task, Key: in.Key(), Strata: st[:]}
	}
	keep := sampling.Keep(items, n, seed)
	var out []Instance
	for i, in := range insts {
		if keep[i] {
			out = append(out, in)
		}
	}
	return out
}

// strata are the nested strata of an instance for sampling: its
// instruction type, its scenario, and the API it is about (Type I: the
// tempting API; Types II and III: the target API; Type IV: the chain's
// APIs; Type V: the group).
func strata(in *dataset.Instruction) [3]string {
	api := ""
	switch in.Type {
	case dataset.TypeNoTool:
		api = in.TemptingAPI
	case dataset.TypeSufficient, dataset.TypeMissing:
		api = in.TargetAPI
	case dataset.TypeDependencies:
		steps := make([]string, len(in.Chain))
		for i, st := range in.Chain {
			steps[i] = st.API
		}
		api = strings.Join(steps, ">")
	case dataset.TypeHighLevel:
		api = in.Group
	}
	return [3]string{strconv.Itoa(in.Type), in.Scenario, api}
}

// openRunDir prepares the output directory: a fresh run writes its
// manifest; a resumed one must match it and reads the results so far.
func openRunDir(cfg Config, m manifest) (map[string]*Result, *resultsFile, error) {
	want, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	results := map[string]*Result{}
	out, err := openRun(cfg.OutDir, cfg.Resume, cfg.Overwrite, want, func(have []byte) string { return manifestDiff(have, m) },
		func(r io.Reader, path string) (err error) {
			results, err = ReadResults(r, path)
			return err
		})
	if err != nil {
		return nil, nil, err
	}
	return results, out, nil
}

// openRun prepares a run directory (prepareRunDir), hands the results
// recorded so far to read when they belong to this run, and opens the
// results file for appending.
func openRun(dir string, resume, overwrite bool, want []byte, diff func(have []byte) string, read func(r io.Reader, path string) error) (*resultsFile, error) {
	resultsPath, readOld, err := prepareRunDir(dir, resume, overwrite, want, diff)
	if err != nil {
		return nil, err
	}
	if readOld {
		f, err := os.Open(resultsPath)
		if err != nil {
			return nil, err
		}
		err = read(f, resultsPath)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return openResults(resultsPath, RunFileMode(dir))
}

// prepareRunDir checks a run directory against a run's manifest (want,
// its JSON) and writes it: a resumed run must match the manifest there
// (diff says how it differs), a fresh one must find no results unless
// overwrite removes them. It returns the results file's path and whether
// its lines belong to this run and must be read.
func prepareRunDir(dir string, resume, overwrite bool, want []byte, diff func(have []byte) string) (string, bool, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, err
	}
	resultsPath := filepath.Join(dir, ResultsFile)
	manifestPath := filepath.Join(dir, ManifestFile)
	want = append(bytes.TrimSpace(want), '\n')
	info, statErr := os.Stat(resultsPath)
	hasResults := statErr == nil && info.Size() > 0
	readOld := false
	switch {
	case resume:
		have, err := os.ReadFile(manifestPath)
		if err == nil {
			if !bytes.Equal(bytes.TrimSpace(have), bytes.TrimSpace(want)) {
				return "", false, &RunDirError{Dir: dir, Reason: "its run.json differs from this run's settings (" + diff(have) + "); resume with the same flags, or start a new run"}
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", false, err
		} else if hasResults {
			return "", false, &RunDirError{Dir: dir, Reason: "results without a run.json; cannot check they belong to this run"}
		}
		readOld = hasResults
	case hasResults && !overwrite:
		return "", false, &RunDirError{Dir: dir, Reason: "it already holds results; pass -resume to continue that run or -overwrite to start again"}
	case hasResults:
		if err := os.Remove(resultsPath); err != nil {
			return "", false, err
		}
	}
	if err := atomicfile.WriteFile(manifestPath, want, RunFileMode(dir)); err != nil {
		return "", false, err
	}
	return resultsPath, readOld, nil
}

func manifestDiff(have []byte, want manifest) string {
	var old manifest
	if err := json.Unmarshal(have, &old); err != nil {
		return "unreadable: " + err.Error()
	}
	var diffs []string
	add := func(field string, a, b any) {
		if fmt.Sprint(a) != fmt.Sprint(b) {
			diffs = append(diffs, fmt.Sprintf("%s %v, now %v", field, a, b))
		}
	}
	add("agent", old.Agent, want.Agent)
	add("model", old.Model, want.Model)
	add("tasks", old.Tasks, want.Tasks)
	add("sample", old.Sample, want.Sample)
	add("seed", old.Seed, want.Seed)
	add("budget", old.Budget, want.Budget)
	add("judge", old.Judge, want.Judge)
	add("dataset", old.Dataset, want.Dataset)
	add("date line", fmt.Sprintf("%q", old.DateLine), fmt.Sprintf("%q", want.DateLine))
	add("dependency hints off", old.NoDependencyHints, want.NoDependencyHints)
	return strings.Join(diffs, "; ")
}

// RunFileMode is the mode of every file of a run directory (run.json,
// results.jsonl, the reports and their pages): readable by whoever may
// read the directory, written by its owner only. A directory made with
// the default umask (0755) gets 0644 files; an owner-only one (0700,
// evalrun -private, or a umask of 077) gets 0600 files, so the
// transcripts it holds stay private. A directory that cannot be read
// gets owner-only files.
func RunFileMode(dir string) fs.FileMode {
	info, err := os.Stat(dir)
	if err != nil {
		return 0o600
	}
	return 0o600 | info.Mode().Perm()&0o044
}

// MakePrivate creates dir, or makes an existing one, owner-only (0700),
// so that every file a run writes into it is too (RunFileMode).
func MakePrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.Chmod(dir, 0o700)
}

func writeReport(dir string, rep *Report) error {
	js, err := rep.JSON()
	if err != nil {
		return err
	}
	mode := RunFileMode(dir)
	return errors.Join(atomicfile.WriteFile(filepath.Join(dir, ReportFile), js, mode), atomicfile.WriteFile(filepath.Join(dir, MarkdownFile), rep.Markdown(), mode))
}

// NextRunDir returns base/<name>-NNN with the first number not yet used.
func NextRunDir(base, name string) string {
	for i := 1; ; i++ {
		dir := filepath.Join(base, fmt.Sprintf("%s-%03d", SafeName(name), i))
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return dir
		}
	}
}

// LatestRunDir returns the highest-numbered base/<name>-NNN, or "".
func LatestRunDir(base, name string) string {
	entries, err := os.ReadDir(base)
	if err != nil {
		return ""
	}
	prefix := SafeName(name) + "-"
	best, bestN := "", 0
	for _, e := range entries {
		num, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() {
			continue
		}
		if n, err := strconv.Atoi(num); err == nil && n > bestN {
			best, bestN = filepath.Join(base, e.Name()), n
		}
	}
	return best
}

// SafeName makes a name safe as a file name: letters, digits, '-', '_'
// and '.' kept, anything else '_' ("run" for an empty name).
func SafeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "run"
	}
	return b.String()
}
