package toolbench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/anytool"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/retrieve"
)

// Solver names.
const (
	SolverReAct = "react"
	SolverDFSDT = "dfsdt"
)

// Budget is a solver's limits (zero values take the solvers' defaults).
type Budget struct {
	Calls          int `json:"calls"`
	MaxTurns       int `json:"max_turns,omitempty"`
	Width          int `json:"width,omitempty"`
	MaxDepth       int `json:"max_depth,omitempty"`
	MaxObservation int `json:"max_observation,omitempty"`
}

// Config is one run of the ToolBench suite.
type Config struct {
	// Queries to run; nil loads the shipped files (fixtures' toolbench/).
	Queries []Query
	// Sample keeps at most this many queries (0: all), chosen by Seed and
	// stratified by query file and category (see Sample).
	Sample int
	Seed   uint64
	// Agent answers; AgentName and Model name it in the report.
	Agent     agent.Agent
	AgentName string
	Model     string
	// Solver is SolverReAct, SolverDFSDT (default) or SolverAnyTool.
	Solver string
	Budget Budget
	// AnyToolSolver is the solver AnyTool runs on its pool: SolverDFSDT
	// (default) or SolverReAct. Reflections are its self-reflection
	// rounds (0: 4; negative: none); AgentConcurrency how many of its
	// agents converse at once (0: 4; 1 runs them in order, reproducibly).
	AnyToolSolver    string
	Reflections      int
	AgentConcurrency int
	// Retriever, when set, is the solvers' API source: each query is
	// offered the RetrieveK (default 5) APIs it finds for the query's
	// text instead of the query's api_list.
	Retriever retrieve.Retriever
	// DateLine opens every solver's system prompt (evaltasks.DateLine of
	// the sandbox clock), as in the eight tasks; "" keeps ToolLLM's bare
	// prompt (-no-date).
	DateLine  string
	RetrieveK int
	// Judge, when set, decides solvable and solved by majority vote;
	// without it the rules do (RuleCriterion).
	Judge *evaltasks.Judge
	// Concurrency is the number of queries solved at once (default 1).
	Concurrency int
	// Stack is the sandbox; nil builds the default offline one.
	Stack *assemble.Stack
	// OutDir receives run.json, results.jsonl, report.json and report.md
	// ("" writes nothing); Resume and Overwrite as in evaltasks.Config.
	OutDir            string
	Resume, Overwrite bool
	// Progress receives one line per query (nil: none).
	Progress io.Writer
}

// Result is one query's line of results.jsonl, with its whole trajectory.
type Result struct {
	Key      string   `json:"key"`
	Group    string   `json:"group"`
	QueryID  string   `json:"query_id"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant,omitempty"`
	Offered  []string `json:"offered,omitempty"`
	// Absent are the query's APIs the catalog lacks; with a relevant one
	// among them the query is unresolved (Outcome OutcomeUnresolved,
	// Unresolved its reason) and not run.
	Absent     []Absence `json:"absent,omitempty"`
	Unresolved string    `json:"unresolved,omitempty"`
	// Outcome is the solver's (solve.Outcome*), OutcomeUnresolved, or
	// OutcomeError.
	Outcome    string       `json:"outcome"`
	Answer     string       `json:"answer,omitempty"`
	Verdict    *Verdict     `json:"verdict,omitempty"`
	Trajectory *solve.Trace `json:"trajectory,omitempty"`
	// AnyTool are the search's figures (SolverAnyTool only).
	AnyTool *anytool.Stats `json:"anytool,omitempty"`
	Usage   agent.Usage    `json:"usage"`
	// Error and ErrorKind as in evaltasks.Result: "data" for a query the
	// catalog cannot serve, else an agent error, retried on resume.
	Error     string `json:"error,omitempty"`
	ErrorKind string `json:"error_kind,omitempty"`
}

// Outcomes of a query besides the solver's.
const (
	// OutcomeError marks a query that ended in an error; it scores as
	// unsolved.
	OutcomeError = "error"
	// OutcomeUnresolved marks a query a relevant API of which the catalog
	// lacks: it is not run, and reports count it apart from the pass
	// rates, with its reason.
	OutcomeUnresolved = "unresolved"
)

func (r *Result) agentError() bool { return r.Error != "" && r.ErrorKind != evaltasks.ErrorData }

// manifest is run.json: what a resumed run must repeat.
type manifest struct {
	Suite   string `json:"suite"`
	Agent   string `json:"agent"`
	Model   string `json:"model,omitempty"`
	Solver  string `json:"solver"`
	Budget  Budget `json:"budget"`
	Judge   string `json:"judge,omitempty"`
	Queries string `json:"queries"`
	Sample  int    `json:"sample,omitempty"`
	Seed    uint64 `json:"seed,omitempty"`
	// Retriever is the solvers' API source, when not the api_list.
	Retriever string `json:"retriever,omitempty"`
	DateLine  string `json:"date_line,omitempty"`
}

// ShippedQueries are the query files shipped with the project.
func ShippedQueries() ([]Query, error) { return LoadQueries(fixtures.ToolBench, "toolbench") }

// Digest identifies a query set: SHA-256 over its records in key order.
func Digest(qs []Query) string {
	h := sha256.New()
	for _, q := range sortedQueries(qs) {
		b, _ := json.Marshal(q)
		h.Write([]byte(q.Key() + "\x00"))
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// Run solves every query with the agent and scores it, appending each
// result to results.jsonl as it completes, then writes the reports. On
// cancellation it writes the report of what was done and returns it with
// an *evaltasks.InterruptedError; when the first queries all end without
// reaching the model server, it stops with an *evaltasks.UnreachableError.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Agent == nil {
		return nil, errors.New("toolbench: no agent")
	}
	if cfg.Solver == "" {
		cfg.Solver = SolverDFSDT
	}
	if cfg.Solver != SolverReAct && cfg.Solver != SolverDFSDT && cfg.Solver != SolverAnyTool {
		return nil, fmt.Errorf("toolbench: solver %q: want %s, %s or %s", cfg.Solver, SolverReAct, SolverDFSDT, SolverAnyTool)
	}
	if cfg.AnyToolSolver != "" && cfg.AnyToolSolver != SolverReAct && cfg.AnyToolSolver != SolverDFSDT {
		return nil, fmt.Errorf("toolbench: AnyTool's solver %q: want %s or %s", cfg.AnyToolSolver, SolverReAct, SolverDFSDT)
	}
	qs := cfg.Queries
	if qs == nil {
		var err error
		if qs, err = ShippedQueries(); err != nil {
			return nil, err
		}
	}
	st := cfg.Stack
	if st == nil {
		var err error
		if st, err = assemble.Build(assemble.Config{}); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		defer st.Close()
	}
	name := cfg.AgentName
	if name == "" {
		name = "agent"
	}
	scorer := "rules"
	if cfg.Judge != nil {
		scorer = cfg.Judge.Name
		if scorer == "" {
			scorer = "judge"
		}
	}
	digest := Digest(qs)
	qs = Sample(qs, cfg.Sample, cfg.Seed)

	results := map[string]*Result{}
	var files *evaltasks.RunFiles
	if cfg.OutDir != "" {
		m := manifest{Suite: "toolbench", Agent: name, Model: cfg.Model, Solver: cfg.Solver, Budget: cfg.Budget, Queries: digest, Sample: cfg.Sample, Seed: cfg.Seed, DateLine: cfg.DateLine}
		if cfg.Sample <= 0 {
			m.Seed = 0
		}
		if cfg.Retriever != nil {
			m.Retriever = cfg.Retriever.Name()
		}
		if cfg.Judge != nil {
			m.Judge = scorer
		}
		var old map[string]json.RawMessage
		var err error
		if files, old, err = evaltasks.OpenRunFiles(cfg.OutDir, cfg.Resume, cfg.Overwrite, m); err != nil {
			return nil, err
		}
		defer files.Close()
		for k, line := range old {
			var r Result
			if err := json.Unmarshal(line, &r); err != nil {
				return nil, fmt.Errorf("%s: %s: %w", cfg.OutDir, k, err)
			}
			results[k] = &r
		}
	}

	// Every query is resolved first: one the catalog cannot serve is
	// recorded at once, and the rest are run.
	resolver := NewResolver(st.Catalog)
	type job struct {
		q *Query
		r *Resolved
	}
	var pending []job
	for i := range qs {
		q := &qs[i]
		if r, ok := results[q.Key()]; ok && !r.agentError() {
			continue
		}
		r, err := resolver.Resolve(q)
		if err != nil {
			res := unresolvedResult(q, r, err)
			if files != nil {
				if err := files.Append(res); err != nil {
					return nil, err
				}
			}
			results[res.Key] = res
			continue
		}
		pending = append(pending, job{q, r})
	}
	tools := exportTools(st.Catalog)
	exec := &agent.EngineExecutor{Engine: st.Engine}
	newSolver := func(exec agent.Executor) solve.Solver {
		b := cfg.Budget
		if cfg.Solver == SolverReAct || cfg.Solver == SolverAnyTool && cfg.AnyToolSolver == SolverReAct {
			return &solve.ReAct{Agent: cfg.Agent, Executor: exec, Budget: b.Calls, MaxTurns: b.MaxTurns, MaxObservation: b.MaxObservation}
		}
		return &solve.DFSDT{Agent: cfg.Agent, Executor: exec, Budget: b.Calls, MaxTurns: b.MaxTurns, Width: b.Width, MaxDepth: b.MaxDepth, MaxObservation: b.MaxObservation}
	}

	var (
		mu   sync.Mutex
		done int
		// A model server that is not there stops the run at once, as in
		// the eight-task suite, instead of erroring every query.
		watch = evaltasks.NewReachWatch(len(pending))
	)
	firstErr := evaltasks.ForEach(ctx, pending, cfg.Concurrency, func(ctx context.Context, j job) error {
		var at *anytool.AnyTool
		if cfg.Solver == SolverAnyTool {
			at = newAnyTool(cfg, st.Catalog, tools, newSolver(exec))
		}
		res, err := runQuery(ctx, cfg, resolver, tools, func(names map[string]string) solve.Solver {
			return newSolver(&agent.RenamedExecutor{Executor: exec, Names: names})
		}, at, j.q, j.r)
		if err == nil && files != nil {
			err = files.Append(res)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		results[res.Key] = res
		done++
		stop := watch.Observe(res.ErrorKind, res.Error)
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "toolbench: %d/%d %s %s%s\n", done, len(pending), res.Key, res.Outcome, passNote(res))
		}
		return stop
	})

	rep := Aggregate(name, cfg.Model, cfg.Solver, scorer, digest, qs, results)
	if cfg.Retriever != nil {
		rep.Retriever = cfg.Retriever.Name()
	}
	if cfg.Solver == SolverAnyTool {
		var keys []string
		for _, q := range sortedQueries(qs) {
			keys = append(keys, q.Key())
		}
		rep.AnyTool = summariseAnyTool(keys, results)
	}
	rep.Sample, rep.Seed = cfg.Sample, cfg.Seed
	if cfg.Sample <= 0 {
		rep.Seed = 0
	}
	if files != nil {
		js, err := rep.JSON()
		if err == nil {
			err = files.WriteReports(js, rep.Markdown())
		}
		if err != nil {
			return rep, errors.Join(firstErr, err)
		}
	}
	if firstErr != nil {
		return rep, firstErr
	}
	if err := ctx.Err(); err != nil {
		return rep, &evaltasks.InterruptedError{Done: len(results), Total: len(qs), Err: err}
	}
	return rep, nil
}

func passNote(r *Result) string {
	if r.Verdict == nil {
		return ""
	}
	return fmt.Sprintf(" pass=%t revised=%t", r.Verdict.Pass, r.Verdict.RevisedPass)
}

// unresolvedResult is the result of a query Resolve refused: unresolved
// (with its reason) when a relevant API is absent, else a data error (an
// annotation of ours that does not resolve).
func unresolvedResult(q *Query, r *Resolved, err error) *Result {
	res := &Result{Key: q.Key(), Group: q.Group, QueryID: q.ID, Query: q.Text}
	var ue *UnresolvedError
	if r != nil && errors.As(err, &ue) {
		res.Outcome, res.Unresolved, res.Absent = OutcomeUnresolved, ue.Reason(), r.Absent
		res.Relevant, res.Offered = r.RelevantIDs(), r.OfferedIDs()
		return res
	}
	res.Outcome, res.Error, res.ErrorKind = OutcomeError, err.Error(), evaltasks.ErrorData
	return res
}

// runQuery solves and scores one resolved query, with a solver
// newSolver makes for the names its functions are offered under (see
// offerTools). It returns an error only when the run must stop
// (cancellation, a judge that is not there); a model that failed, or a
// judge that gave no majority, is a Result with Error set.
func runQuery(ctx context.Context, cfg Config, rv *Resolver, tools map[string]toolset.OpenAITool, newSolver func(names map[string]string) solve.Solver, at *anytool.AnyTool, q *Query, r *Resolved) (*Result, error) {
	res := &Result{Key: q.Key(), Group: q.Group, QueryID: q.ID, Query: q.Text, Absent: r.Absent}
	res.Relevant, res.Offered = r.RelevantIDs(), r.OfferedIDs()
	p := solve.Problem{ID: q.Key(), Query: q.Text, System: cfg.DateLine}
	offered := r.Offered
	if cfg.Retriever != nil && at == nil {
		var ok bool
		if offered, ok = offerRetrieved(ctx, cfg, rv.c, q, res); !ok {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return res, nil
		}
	}
	var names map[string]string
	p.Tools, names = offerTools(tools, offered)
	// The oracle, when it is the agent, follows the query's annotation;
	// other agents never read it.
	script, err := q.OracleScript(rv)
	if err != nil {
		res.Outcome, res.Error, res.ErrorKind = OutcomeError, err.Error(), evaltasks.ErrorData
		return res, nil
	}
	renameSteps(script, names)
	var tr *solve.Trace
	if at != nil {
		tr, err = solveAnyTool(agent.WithOracleScript(ctx, script), at, p, res)
	} else {
		tr, err = newSolver(names).Solve(agent.WithOracleScript(ctx, script), p)
	}
	if err != nil || tr == nil {
		if err == nil {
			err = errors.New("anytool: no solver run")
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res.Outcome, res.Error, res.ErrorKind = OutcomeError, err.Error(), evaltasks.ErrorData
		return res, nil
	}
	res.Trajectory, res.Outcome, res.Answer, res.Usage = tr, tr.Outcome, tr.Answer, tr.Usage
	if res.AnyTool != nil {
		res.Usage = res.AnyTool.Usage
	}
	if tr.Outcome == solve.OutcomeModelError {
		res.Error, res.ErrorKind = tr.Error, evaltasks.AgentErrorKind(tr.Err)
	}
	if cfg.Judge != nil && res.Error == "" {
		v, err := judgeVerdict(ctx, cfg.Judge, q, r, tr)
		var je *evaltasks.JudgeError
		switch {
		case errors.As(err, &je):
			// No majority is no verdict: an error, never a pass.
			res.Verdict, res.Error, res.ErrorKind = v, err.Error(), evaltasks.ErrorJudge
			return res, nil
		case err != nil:
			return nil, err
		}
		res.Verdict = v
	} else {
		res.Verdict = ruleVerdict(q, r, tr)
	}
	return res, nil
}

// offerTools are the functions of the APIs offered to a query, under the
// names ToolBench offers them under (toolset.ToolBenchNames: a category
// twin by its own name, not the catalog's "<name>_for_<category>"), and,
// for each offered under another name than the catalog's, that name's
// catalog name, for the executor to run it by.
func offerTools(tools map[string]toolset.OpenAITool, apis []*toolset.API) ([]toolset.OpenAITool, map[string]string) {
	names := toolset.ToolBenchNames(apis)
	out := make([]toolset.OpenAITool, 0, len(apis))
	var catalog map[string]string
	for i, a := range apis {
		f := tools[a.ID()]
		if f.Function.Name != names[i] {
			if catalog == nil {
				catalog = map[string]string{}
			}
			catalog[names[i]] = f.Function.Name
			f.Function.Name = names[i]
		}
		out = append(out, f)
	}
	return out, catalog
}

// renameSteps gives the oracle's steps, which name the catalog's
// functions, the names the query offers them under.
func renameSteps(s *agent.OracleScript, catalog map[string]string) {
	if s == nil || len(catalog) == 0 {
		return
	}
	offered := make(map[string]string, len(catalog))
	for o, c := range catalog {
		offered[c] = o
	}
	for i, st := range s.Steps {
		if o, ok := offered[st.Name]; ok {
			s.Steps[i].Name = o
		}
	}
}
