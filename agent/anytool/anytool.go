// Package anytool is AnyTool's method with a model in the loop: a meta-agent, category agents and tool agents that explore the catalog by function calling and fill a shared API-candidate pool, a solver on the pool, and self-reflection that re-activates the unfinished agents.
package anytool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/toolset"
)

// Defaults of the search (AnyTool's appendix A.1 and §5).
const (
	// DefaultReflections is the number of self-reflection rounds; the
	// paper's pass rate levels off after 4-6.
	DefaultReflections = 4
	// DefaultAgentTurns bounds one activation of one agent.
	DefaultAgentTurns = 8
	// DefaultMaxPool bounds the candidate pool.
	DefaultMaxPool = 64
	// DefaultMaxTokens is the paper's token limit per query, across every
	// agent, the solvable checks and the solver.
	DefaultMaxTokens = 200_000
	// DefaultConcurrency is how many agents converse at once.
	DefaultConcurrency = 4
)

// Checker reviews a solver's answer, as GPT-4 does in AnyTool's loop: it
// says whether the query is solved and, when not, why. A nil Checker
// takes every answer as solved.
type Checker func(ctx context.Context, query string, tr *solve.Trace) (solved bool, reason string, err error)

// AnyTool runs the method on a catalog.
type AnyTool struct {
	// Agent is the model behind every agent and the solvable check.
	Agent   agent.Agent
	Catalog *toolset.Catalog
	// Solver solves the query with the pool (solve.DFSDT, or solve.ReAct).
	Solver solve.Solver
	// Export is the function the solver is offered for an API, by API ID;
	// nil exports the catalog in ToolBench's naming.
	Export map[string]toolset.OpenAITool
	// Check reviews answers; nil accepts them.
	Check Checker
	// Reflections is the number of self-reflection rounds (0: 4; negative: none).
	Reflections int
	// AgentTurns, MaxPool, MaxTokens and Concurrency as their defaults
	// say; Concurrency 1 runs agents one at a time in creation order,
	// which makes a scripted model's run reproducible to the byte.
	AgentTurns, MaxPool, MaxTokens, Concurrency int
	// DateLine, when set, opens the system prompt of every agent and of
	// the solvable check, as Problem.System opens the solver's.
	DateLine string

	once sync.Once
	h    *hierarchy
	// byFunction finds a pooled API by the function name the solver saw.
	export map[string]toolset.OpenAITool
}

// Counts are agents by level.
type Counts struct {
	Meta     int `json:"meta"`
	Category int `json:"category"`
	Tool     int `json:"tool"`
}

func (c *Counts) add(level string) {
	switch level {
	case levelMeta:
		c.Meta++
	case levelCategory:
		c.Category++
	default:
		c.Tool++
	}
}

// Total is the number of agents counted.
func (c Counts) Total() int { return c.Meta + c.Category + c.Tool }

// Round is one search and one solver run: round 0 is the first search,
// each later one a self-reflection.
type Round struct {
	Round int `json:"round"`
	// Activated counts the agents that conversed this round; Created those created.
	Activated Counts `json:"activated"`
	Created   Counts `json:"created"`
	// Added and Removed are the pool's changes (API IDs); Pool its size
	// when the solver ran.
	Added   []string `json:"added,omitempty"`
	Removed []string `json:"removed,omitempty"`
	Pool    int      `json:"pool"`
	// Solvable is set when a tool agent's check found the pool enough.
	Solvable bool `json:"solvable,omitempty"`
	// Outcome is the solver's; Reason why the round did not solve the query.
	Outcome    string `json:"outcome"`
	Reason     string `json:"reason,omitempty"`
	ModelCalls int    `json:"model_calls"`
}

// Stats are one query's figures.
type Stats struct {
	Agents      Counts         `json:"agents"`
	Functions   map[string]int `json:"functions"`
	Rounds      []Round        `json:"rounds"`
	Reflections int            `json:"reflections"`
	// ModelCalls counts every request to the model: agents, solvable
	// checks and solver turns.
	ModelCalls int         `json:"model_calls"`
	Usage      agent.Usage `json:"usage"`
	// Pool is the final pool, API IDs in the order they were added.
	Pool []string `json:"pool"`
	// Stopped says why a search ended early (token limit, a model fault).
	Stopped string `json:"stopped,omitempty"`
}

// PoolSizes lists the pool's size per round.
func (s *Stats) PoolSizes() []int {
	out := make([]int, len(s.Rounds))
	for i, r := range s.Rounds {
		out[i] = r.Pool
	}
	return out
}

func (t *AnyTool) init() {
	t.once.Do(func() {
		t.h = newHierarchy(t.Catalog)
		t.export = t.Export
		if t.export == nil {
			t.export = map[string]toolset.OpenAITool{}
			apis := t.Catalog.APIs()
			for i, f := range toolset.OpenAITools(t.Catalog, toolset.ExportOptions{Style: toolset.NameToolBench}) {
				t.export[apis[i].ID()] = f
			}
		}
	})
}

func orDefault(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

// Solve searches, solves and reflects. The trace is the last solver run's;
// the error is non-nil only for a bad problem or a cancelled context.
func (t *AnyTool) Solve(ctx context.Context, p solve.Problem) (*solve.Trace, *Stats, error) {
	if t.Agent == nil || t.Catalog == nil || t.Solver == nil {
		return nil, nil, errors.New("anytool: needs an agent, a catalog and a solver")
	}
	if strings.TrimSpace(p.Query) == "" {
		return nil, nil, &solve.ProblemError{Reason: "empty query"}
	}
	t.init()
	s := &search{t: t, query: p.Query, inPool: map[*toolset.API]bool{}, removed: map[*toolset.API]bool{},
		stats: &Stats{Functions: map[string]int{}, Pool: []string{}}}
	reflections := orDefault(t.Reflections, DefaultReflections)
	base := p.SessionFor("anytool")

	meta := s.newAgent(levelMeta, "", nil)
	var tr *solve.Trace
	for round := 0; ; round++ {
		s.round = &Round{Round: round}
		if round == 0 {
			s.round.Created.add(levelMeta)
			s.converse(ctx, []job{{a: meta}})
		}
		if round > 0 {
			reason := s.stats.Rounds[round-1].Reason
			s.reflect(ctx, reason, tr)
		}
		if ctx.Err() != nil {
			return tr, s.finish(), ctx.Err()
		}
		s.round.Pool = len(s.pool)
		s.round.Solvable = s.solvable.Load()
		prob := solve.Problem{ID: p.ID, Query: p.Query, System: joinSystem(p.System, solverNote), Tools: s.poolTools(), Session: fmt.Sprintf("%s-r%d", base, round)}
		var err error
		tr, err = t.Solver.Solve(ctx, prob)
		s.countSolver(tr)
		if err != nil {
			s.endRound(tr, "")
			return tr, s.finish(), err
		}
		solved, reason, err := s.review(ctx, p.Query, tr)
		if err != nil {
			s.stats.Stopped = "review: " + err.Error()
			s.endRound(tr, "")
			break
		}
		s.endRound(tr, reason)
		if solved || tr.Outcome == solve.OutcomeModelError || tr.Outcome == solve.OutcomeCancelled || tr.Outcome == solve.OutcomeInvalid {
			break
		}
		if round >= reflections || reflections < 0 || s.stats.Stopped != "" {
			break
		}
		s.stats.Reflections++
	}
	return tr, s.finish(), nil
}

func joinSystem(a, b string) string {
	if strings.TrimSpace(a) == "" {
		return b
	}
	return a + "\n\n" + b
}

// review decides whether the solver's run solved the query and, if not, why.
func (s *search) review(ctx context.Context, query string, tr *solve.Trace) (bool, string, error) {
	if tr.Outcome != solve.OutcomeAnswer {
		reason := tr.Error
		if reason == "" {
			reason = "the solver ended with " + tr.Outcome
		}
		return false, reason, nil
	}
	if s.t.Check == nil {
		return true, "", nil
	}
	ok, reason, err := s.t.Check(ctx, query, tr)
	if err != nil {
		return false, "", err
	}
	if !ok && reason == "" {
		reason = "the answer was judged not to solve the query"
	}
	return ok, reason, nil
}

func (s *search) endRound(tr *solve.Trace, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tr != nil {
		s.round.Outcome = tr.Outcome
	}
	s.round.Reason = reason
	s.stats.Rounds = append(s.stats.Rounds, *s.round)
}

func (s *search) countSolver(tr *solve.Trace) {
	if tr == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.ModelCalls += tr.ModelTurns
	s.round.ModelCalls += tr.ModelTurns
	addUsage(&s.stats.Usage, tr.Usage)
}

func (s *search) finish() *Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.pool {
		s.stats.Pool = append(s.stats.Pool, a.ID())
	}
	return s.stats
}

// reflect is self-reflection (§4.3): the APIs the solver named as failing
// leave the pool, the reason goes into every agent's history, and the
// unfinished agents are re-activated bottom-up, tool → category → meta,
// going up a level only while the pool gains nothing.
func (s *search) reflect(ctx context.Context, reason string, tr *solve.Trace) {
	if tr != nil && tr.Outcome == solve.OutcomeGiveUp {
		s.dropNamed(reason)
	}
	s.solvable.Store(false)
	for _, level := range []string{levelTool, levelCategory, levelMeta} {
		var jobs []job
		s.mu.Lock()
		for _, a := range s.agents {
			if a.level == level && !a.finished {
				jobs = append(jobs, job{a: a, note: reactivation(level, reason)})
			}
		}
		before := len(s.round.Added)
		s.mu.Unlock()
		if len(jobs) == 0 {
			continue
		}
		s.converse(ctx, jobs)
		if len(s.round.Added) > before || ctx.Err() != nil || s.stats.Stopped != "" {
			return
		}
	}
}

func reactivation(level, reason string) string {
	switch level {
	case levelTool:
		return reactivateTool(reason)
	case levelCategory:
		return reactivateCategory(reason)
	}
	return reactivateMeta(reason)
}

// dropNamed removes from the pool every API whose function the reason names.
func (s *search) dropNamed(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.pool[:0]
	for _, a := range s.pool {
		if name := s.t.export[a.ID()].Function.Name; name != "" && strings.Contains(reason, name) {
			s.removed[a] = true
			delete(s.inPool, a)
			s.round.Removed = append(s.round.Removed, a.ID())
			continue
		}
		kept = append(kept, a)
	}
	s.pool = kept
}

// search is one query's state: the agents with their histories, the pool.
type search struct {
	t     *AnyTool
	query string

	mu       sync.Mutex
	agents   []*searchAgent
	pool     []*toolset.API
	inPool   map[*toolset.API]bool
	removed  map[*toolset.API]bool
	stats    *Stats
	round    *Round
	solvable atomic.Bool
	tokens   atomic.Int64
}

// searchAgent is one agent of the hierarchy and its history.
type searchAgent struct {
	level    string
	category string
	tools    []*toolset.Tool
	msgs     []agent.Message
	funcs    []toolset.OpenAITool
	finished bool
	// busy guards msgs: an agent converses in one goroutine at a time.
	busy sync.Mutex
}

// job is an activation of an agent, with the note it is given.
type job struct {
	a    *searchAgent
	note string
}

func (s *search) newAgent(level, category string, tools []*toolset.Tool) *searchAgent {
	var sys string
	switch level {
	case levelMeta:
		sys = metaPrompt(s.t.h.categories)
	case levelCategory:
		sys = categoryPrompt(category)
	default:
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Name
		}
		sys = toolPrompt(category, names)
	}
	a := &searchAgent{level: level, category: category, tools: tools, funcs: functionsOf(level),
		msgs: []agent.Message{{Role: agent.RoleSystem, Content: joinSystem(s.t.DateLine, sys)}, {Role: agent.RoleUser, Content: s.query}}}
	s.agents = append(s.agents, a)
	s.stats.Agents.add(level)
	return a
}

// converse runs the jobs and every agent they create until all are done:
// one at a time in order with Concurrency 1, else in parallel.
func (s *search) converse(ctx context.Context, jobs []job) {
	workers := orDefault(s.t.Concurrency, DefaultConcurrency)
	if workers <= 1 {
		queue := jobs
		for len(queue) > 0 {
			j := queue[0]
			queue = queue[1:]
			s.activate(ctx, j, func(c *searchAgent) { queue = append(queue, job{a: c}) })
		}
		return
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	var spawn func(job)
	spawn = func(j job) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			s.activate(ctx, j, func(c *searchAgent) { spawn(job{a: c}) })
		}()
	}
	for _, j := range jobs {
		spawn(j)
	}
	wg.Wait()
}

// activate lets one agent converse until it finishes, stops calling
// functions, runs out of turns, or the pool is found enough.
func (s *search) activate(ctx context.Context, j job, spawn func(*searchAgent)) {
	a := j.a
	a.busy.Lock()
	defer a.busy.Unlock()
	s.mu.Lock()
	s.round.Activated.add(a.level)
	s.mu.Unlock()
	if j.note != "" {
		a.msgs = append(a.msgs, agent.Message{Role: agent.RoleUser, Content: j.note})
	}
	turns := orDefault(s.t.AgentTurns, DefaultAgentTurns)
	for range turns {
		if s.solvable.Load() || ctx.Err() != nil || !s.spendable() {
			return
		}
		reply, err := s.respond(ctx, a.msgs, a.funcs)
		if err != nil {
			s.stop("a model fault: " + err.Error())
			return
		}
		a.msgs = append(a.msgs, agent.Message{Role: agent.RoleAssistant, Content: reply.Content, ToolCalls: reply.ToolCalls})
		if len(reply.ToolCalls) == 0 {
			return
		}
		for _, tc := range reply.ToolCalls {
			obs := s.call(ctx, a, tc, spawn)
			a.msgs = append(a.msgs, agent.Message{Role: agent.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Content: obs})
		}
		if a.finished {
			return
		}
	}
}

// respond is one model request, counted.
func (s *search) respond(ctx context.Context, msgs []agent.Message, funcs []toolset.OpenAITool) (agent.Reply, error) {
	reply, err := s.t.Agent.Respond(ctx, msgs, funcs)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.ModelCalls++
	s.round.ModelCalls++
	if err == nil {
		addUsage(&s.stats.Usage, reply.Usage)
		s.tokens.Add(int64(reply.Usage.TotalTokens))
	}
	return reply, err
}

func (s *search) spendable() bool {
	limit := orDefault(s.t.MaxTokens, DefaultMaxTokens)
	if limit > 0 && s.tokens.Load() >= int64(limit) {
		s.stop(fmt.Sprintf("the token limit of %d was reached", limit))
		return false
	}
	return true
}

func (s *search) stop(why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stats.Stopped == "" {
		s.stats.Stopped = why
	}
}

func addUsage(u *agent.Usage, v agent.Usage) {
	u.PromptTokens += v.PromptTokens
	u.CompletionTokens += v.CompletionTokens
	u.TotalTokens += v.TotalTokens
}

// poolTools are the pooled APIs' functions, in pool order.
func (s *search) poolTools() []toolset.OpenAITool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]toolset.OpenAITool, 0, len(s.pool))
	for _, a := range s.pool {
		if f, ok := s.t.export[a.ID()]; ok {
			out = append(out, f)
		}
	}
	return out
}

// call executes one of Table 10's functions for an agent.
func (s *search) call(ctx context.Context, a *searchAgent, tc agent.ToolCall, spawn func(*searchAgent)) string {
	s.mu.Lock()
	s.stats.Functions[tc.Name]++
	s.mu.Unlock()
	if !slices.ContainsFunc(a.funcs, func(f toolset.OpenAITool) bool { return f.Function.Name == tc.Name }) {
		names := make([]string, len(a.funcs))
		for i, f := range a.funcs {
			names[i] = f.Function.Name
		}
		return observation(fmt.Sprintf("no function %q here; call one of %s", tc.Name, strings.Join(names, ", ")), "")
	}
	if tc.ArgumentsError != "" {
		return observation("the arguments are not valid JSON: "+tc.ArgumentsError, "")
	}
	resp, err := s.dispatch(ctx, a, tc, spawn)
	if err != nil {
		return observation(err.Error(), "")
	}
	return observation("", resp)
}

func (s *search) dispatch(ctx context.Context, a *searchAgent, tc agent.ToolCall, spawn func(*searchAgent)) (any, error) {
	var args struct {
		Category string   `json:"category"`
		Offset   int      `json:"offset"`
		Tools    []string `json:"tools"`
		Tool     string   `json:"tool"`
		APIs     []string `json:"apis"`
	}
	if err := decodeArgs(tc.Arguments, &args); err != nil {
		return nil, err
	}
	h := s.t.h
	switch tc.Name {
	case FnToolsInCategory:
		cat := h.category(args.Category)
		if cat == nil {
			return nil, &argsError{fmt.Sprintf("no category %q; the categories are %s", args.Category, strings.Join(h.categories, ", "))}
		}
		var names []string
		for _, t := range cat.Tools[min(max(args.Offset, 0), len(cat.Tools)):] {
			names = append(names, t.Name)
		}
		if len(names) > maxListedTools {
			rest := len(names) - maxListedTools
			return map[string]any{"tools": names[:maxListedTools], "more": fmt.Sprintf("%d more; call again with offset %d", rest, max(args.Offset, 0)+maxListedTools)}, nil
		}
		return names, nil
	case FnToolDescriptions:
		out := map[string]string{}
		for _, n := range args.Tools {
			t := h.tool(n, a.category)
			if t == nil {
				out[n] = "no such tool"
				continue
			}
			d := t.Description
			if d == "" {
				d = t.Title
			}
			out[n] = clipText(d, maxDescriptionBytes)
		}
		return out, nil
	case FnCreateCategory:
		cat := h.category(args.Category)
		if cat == nil {
			return nil, &argsError{fmt.Sprintf("no category %q; the categories are %s", args.Category, strings.Join(h.categories, ", "))}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, o := range s.agents {
			if o.level == levelCategory && o.category == cat.Name {
				return nil, &argsError{fmt.Sprintf("category %q already has an agent", cat.Name)}
			}
		}
		c := s.newAgent(levelCategory, cat.Name, nil)
		s.round.Created.add(levelCategory)
		spawn(c)
		return fmt.Sprintf("an agent now searches the category %q", cat.Name), nil
	case FnCreateTool:
		if len(args.Tools) == 0 || len(args.Tools) > MaxToolsPerAgent {
			return nil, &argsError{fmt.Sprintf("give between 1 and %d tools", MaxToolsPerAgent)}
		}
		var tools []*toolset.Tool
		var names []string
		for _, n := range args.Tools {
			t := h.tool(n, a.category)
			if t == nil || t.Category != a.category {
				return nil, &argsError{fmt.Sprintf("no tool %q in the category %q", n, a.category)}
			}
			if !slices.Contains(tools, t) {
				tools = append(tools, t)
				names = append(names, t.Name)
			}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, o := range s.agents {
			if o.level == levelTool && slices.Equal(o.tools, tools) {
				return nil, &argsError{"these tools already have an agent"}
			}
		}
		c := s.newAgent(levelTool, a.category, tools)
		s.round.Created.add(levelTool)
		spawn(c)
		return "an agent now searches the tools " + quoteAll(names), nil
	case FnAPIsInTool:
		t := a.ownTool(args.Tool)
		if t == nil {
			return nil, &argsError{fmt.Sprintf("%q is not one of your tools (%s)", args.Tool, a.toolNames())}
		}
		names := make([]string, len(t.APIs))
		for i, x := range t.APIs {
			names[i] = x.Name
		}
		return names, nil
	case FnAPIDetail:
		t := a.ownTool(args.Tool)
		if t == nil {
			return nil, &argsError{fmt.Sprintf("%q is not one of your tools (%s)", args.Tool, a.toolNames())}
		}
		var docs []apiDoc
		for _, n := range args.APIs {
			x := t.API(n)
			if x == nil {
				return nil, &argsError{fmt.Sprintf("the tool %q has no API %q", t.Name, n)}
			}
			docs = append(docs, docOf(x, false))
		}
		return docs, nil
	case FnAddAPIs:
		return s.add(a, args.APIs)
	case FnCheckSolvable:
		return s.checkSolvable(ctx)
	case FnFinishSearch:
		a.finished = true
		return "search finished", nil
	}
	return nil, &argsError{"unknown function " + tc.Name}
}

func (a *searchAgent) ownTool(name string) *toolset.Tool {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, t := range a.tools {
		if strings.ToLower(t.Name) == n || strings.ToLower(t.StandardizedName) == n {
			return t
		}
	}
	return nil
}

func (a *searchAgent) toolNames() string {
	names := make([]string, len(a.tools))
	for i, t := range a.tools {
		names[i] = t.Name
	}
	return quoteAll(names)
}

// add puts APIs of the agent's tools into the pool.
func (s *search) add(a *searchAgent, names []string) (any, error) {
	if len(names) == 0 {
		return nil, &argsError{"name at least one API"}
	}
	var found []*toolset.API
	for _, n := range names {
		var x *toolset.API
		for _, t := range a.tools {
			if x = t.API(n); x != nil {
				break
			}
		}
		if x == nil {
			return nil, &argsError{fmt.Sprintf("no API %q in your tools (%s)", n, a.toolNames())}
		}
		found = append(found, x)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	limit := orDefault(s.t.MaxPool, DefaultMaxPool)
	var added, refused []string
	for _, x := range found {
		switch {
		case s.inPool[x]:
		case s.removed[x]:
			refused = append(refused, x.Name+" (removed: it failed the solver)")
		case len(s.pool) >= limit:
			refused = append(refused, x.Name+" (the pool is full)")
		default:
			s.pool = append(s.pool, x)
			s.inPool[x] = true
			s.round.Added = append(s.round.Added, x.ID())
			added = append(added, x.Name)
		}
	}
	out := map[string]any{"added": added, "pool_size": len(s.pool)}
	if len(refused) > 0 {
		out["refused"] = refused
	}
	return out, nil
}

// checkSolvable asks the model whether the pool covers the query.
func (s *search) checkSolvable(ctx context.Context) (any, error) {
	msgs := s.solvableMessages()
	reply, err := s.respond(ctx, msgs, nil)
	if err != nil {
		return nil, fmt.Errorf("the check failed: %w", err)
	}
	ok := parseVerdict(reply.Content)
	if ok {
		s.solvable.Store(true)
	}
	return ok, nil
}

// solvableMessages is the check's conversation: the query and the pool's documentation.
func (s *search) solvableMessages() []agent.Message {
	s.mu.Lock()
	docs := make([]apiDoc, len(s.pool))
	for i, a := range s.pool {
		docs[i] = docOf(a, true)
	}
	s.mu.Unlock()
	b, _ := json.MarshalIndent(docs, "", "  ")
	return []agent.Message{
		{Role: agent.RoleSystem, Content: joinSystem(s.t.DateLine, solvablePrompt)},
		{Role: agent.RoleUser, Content: s.query},
		{Role: agent.RoleUser, Content: "The APIs:\n" + string(b)},
	}
}

// parseVerdict reads True or False at the start of a reply; anything else is False.
func parseVerdict(s string) bool {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 {
		return false
	}
	w := strings.Trim(f[0], ".,:;!*\"'`")
	return w == "true" || w == "yes"
}
