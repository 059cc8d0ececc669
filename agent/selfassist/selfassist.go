// Package selfassist is Self-Assist's tool selection with a model in the loop: query analysis, a tool description, BM25 retrieval over the description and the query, an analysis of each candidate's documentation, and the selection.
package selfassist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/retrieve"
)

// DefaultCandidates is the paper's k: the candidates retrieved and analysed.
const DefaultCandidates = 5

// SelfAssist selects APIs for a query in five model-driven stages.
type SelfAssist struct {
	Agent  agent.Agent
	corpus retrieve.Corpus
	byID   map[string]*toolset.API
	// Candidates is k, the candidates analysed (default 5).
	Candidates int
	// DateLine, when set, opens every stage's system prompt, as it opens
	// the solvers' (the sandbox's date; "" for the paper's bare prompts).
	DateLine string

	mu    sync.Mutex
	stats Stats
}

var _ retrieve.ContextRetriever = (*SelfAssist)(nil)

// Stats are what the stages spent, over every query retrieved.
type Stats struct {
	Queries    int         `json:"queries"`
	ModelCalls int         `json:"model_calls"`
	Usage      agent.Usage `json:"usage"`
	// Selected counts the APIs the selection stage chose; Unparsed the
	// selections that named no candidate.
	Selected int `json:"selected"`
	Unparsed int `json:"unparsed,omitempty"`
}

// New selects over a corpus (retrieve.CatalogCorpus, or a pool).
func New(a agent.Agent, co retrieve.Corpus) *SelfAssist {
	s := &SelfAssist{Agent: a, corpus: co, byID: map[string]*toolset.API{}}
	for _, x := range co.APIs {
		s.byID[x.ID()] = x
	}
	return s
}

// Name is "self-assist".
func (*SelfAssist) Name() string { return retrieve.NameSelfAssist }

// Stats returns the figures so far.
func (s *SelfAssist) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Retrieve is RetrieveContext without a deadline; a model fault gives no hits.
func (s *SelfAssist) Retrieve(query string, k int) []Hit {
	hs, _ := s.RetrieveContext(context.Background(), query, k)
	return hs
}

// Hit is a retrieved API.
type Hit = retrieve.Hit

// Trace is one query's stages, for golden tests and reports.
type Trace struct {
	Analysis    string   `json:"analysis"`
	Description string   `json:"description"`
	Candidates  []string `json:"candidates"`
	Analyses    []string `json:"analyses"`
	Selected    []string `json:"selected"`
}

// RetrieveContext runs the five stages and returns the selected APIs
// first, then the other candidates in retrieval order, at most k; with
// k <= 0, the selection alone (what Self-Assist's accuracy scores).
func (s *SelfAssist) RetrieveContext(ctx context.Context, query string, k int) ([]Hit, error) {
	tr, err := s.Select(ctx, query)
	if err != nil {
		return nil, err
	}
	var out []Hit
	for i, id := range tr.Selected {
		out = append(out, Hit{ID: id, Score: float64(2*len(tr.Candidates) - i)})
	}
	if k <= 0 {
		return out, nil
	}
	for i, id := range tr.Candidates {
		if !slices.Contains(tr.Selected, id) {
			out = append(out, Hit{ID: id, Score: float64(len(tr.Candidates) - i)})
		}
	}
	if len(out) > k {
		out = out[:k]
	}
	return out, nil
}

// Select runs the stages for one query.
func (s *SelfAssist) Select(ctx context.Context, query string) (*Trace, error) {
	if s.Agent == nil {
		return nil, errors.New("selfassist: no model")
	}
	tr := &Trace{}
	var err error
	// 1. Query analysis.
	if tr.Analysis, err = s.ask(ctx, analysisPrompt, query); err != nil {
		return nil, fmt.Errorf("selfassist: query analysis: %w", err)
	}
	// 2. A general description of the tool the query needs.
	if tr.Description, err = s.ask(ctx, descriptionPrompt, query, "Analysis of the query:\n"+tr.Analysis); err != nil {
		return nil, fmt.Errorf("selfassist: tool description: %w", err)
	}
	// 3. Retrieval with the description and the query.
	k := s.Candidates
	if k <= 0 {
		k = DefaultCandidates
	}
	for _, h := range s.corpus.Index.Search(tr.Description+"\n"+query, k) {
		tr.Candidates = append(tr.Candidates, h.ID)
	}
	// 4. Each candidate's core functionality, from its documentation.
	for _, id := range tr.Candidates {
		a, err := s.ask(ctx, candidatePrompt, query, "Documentation:\n"+documentation(s.byID[id]))
		if err != nil {
			return nil, fmt.Errorf("selfassist: candidate analysis of %s: %w", id, err)
		}
		tr.Analyses = append(tr.Analyses, a)
	}
	// 5. The selection.
	reply, err := s.ask(ctx, selectionPrompt, query, selectionInput(tr))
	if err != nil {
		return nil, fmt.Errorf("selfassist: selection: %w", err)
	}
	tr.Selected = parseSelection(reply, tr.Candidates)
	s.mu.Lock()
	s.stats.Queries++
	s.stats.Selected += len(tr.Selected)
	if len(tr.Selected) == 0 {
		s.stats.Unparsed++
	}
	s.mu.Unlock()
	return tr, nil
}

// ask is one stage's model call: the stage's prompt, the query, and what
// the stage reads; the reply's text is the stage's output.
func (s *SelfAssist) ask(ctx context.Context, system, query string, inputs ...string) (string, error) {
	if s.DateLine != "" {
		system = s.DateLine + "\n\n" + system
	}
	msgs := Messages(system, query, inputs...)
	reply, err := s.Agent.Respond(ctx, msgs, nil)
	s.mu.Lock()
	s.stats.ModelCalls++
	if err == nil {
		s.stats.Usage.PromptTokens += reply.Usage.PromptTokens
		s.stats.Usage.CompletionTokens += reply.Usage.CompletionTokens
		s.stats.Usage.TotalTokens += reply.Usage.TotalTokens
	}
	s.mu.Unlock()
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(reply.Content), nil
}

// Messages is a stage's conversation.
func Messages(system, query string, inputs ...string) []agent.Message {
	msgs := []agent.Message{{Role: agent.RoleSystem, Content: system}, {Role: agent.RoleUser, Content: query}}
	for _, in := range inputs {
		msgs = append(msgs, agent.Message{Role: agent.RoleUser, Content: in})
	}
	return msgs
}

// documentation is an API's documentation as the candidate analysis reads it.
func documentation(a *toolset.API) string {
	if a == nil {
		return "(none)"
	}
	doc := map[string]any{"id": a.ID(), "api": a.Name, "description": a.Description}
	if a.Tool != nil {
		doc["tool"] = a.Tool.Name
		doc["tool_description"] = a.Tool.Description
		doc["category"] = a.Tool.Category
	}
	var params []map[string]any
	for _, p := range a.Params {
		params = append(params, map[string]any{"name": p.Name, "required": p.Required, "description": p.Description})
	}
	doc["parameters"] = params
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(doc)
	return strings.TrimSpace(b.String())
}

func selectionInput(tr *Trace) string {
	var b strings.Builder
	b.WriteString("Description of the tool needed:\n" + tr.Description + "\n\nCandidates:\n")
	for i, id := range tr.Candidates {
		fmt.Fprintf(&b, "[%d] %s: %s\n", i+1, id, tr.Analyses[i])
	}
	return b.String()
}

var numberRE = regexp.MustCompile(`\[(\d+)\]`)

// parseSelection reads the candidates a reply names, by ID or by [n], in
// the order the reply names them; a reply naming none selects none.
func parseSelection(reply string, candidates []string) []string {
	type at struct {
		pos int
		id  string
	}
	var found []at
	for _, id := range candidates {
		if i := strings.Index(reply, id); i >= 0 {
			found = append(found, at{i, id})
		}
	}
	for _, m := range numberRE.FindAllStringSubmatchIndex(reply, -1) {
		n, err := strconv.Atoi(reply[m[2]:m[3]])
		if err == nil && n >= 1 && n <= len(candidates) {
			found = append(found, at{m[0], candidates[n-1]})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].pos < found[j].pos })
	var out []string
	for _, f := range found {
		if !slices.Contains(out, f.id) {
			out = append(out, f.id)
		}
	}
	return out
}

// The stages' prompts, Self-Assist's §3 in our words.
const (
	analysisPrompt = "You help choose the tool (API) for a user's request. First analyse the request: what the user wants done, " +
		"what information must be looked up or computed, and so what a tool must be able to do. Answer in at most five sentences."
	descriptionPrompt = "Write a general description of the tool (API) that would serve the user's request, in the words API documentation uses: " +
		"what it does, what it takes and what it returns. Describe the tool, not this request; do not invent a name. At most four sentences."
	candidatePrompt = "Read the documentation of one API and state its core functionality in one or two sentences: what it does, " +
		"what it needs and what it returns. Say nothing the documentation does not support."
	selectionPrompt = "Choose the APIs that serve the user's request from the candidates below, using the request, the description of the tool needed " +
		"and the analysis of each candidate. Name each chosen API by its bracketed number or its id, the best first; choose one per distinct need of the request, " +
		"and none that does not fit. If no candidate fits, say None."
)

// Stages of the method, as Stage names them.
const (
	StageAnalysis    = "analysis"
	StageDescription = "description"
	StageCandidate   = "candidate"
	StageSelection   = "selection"
)

// Stage names the stage whose system prompt this is, "" for none.
func Stage(system string) string {
	for _, p := range []struct{ prompt, stage string }{
		{analysisPrompt, StageAnalysis}, {descriptionPrompt, StageDescription},
		{candidatePrompt, StageCandidate}, {selectionPrompt, StageSelection},
	} {
		// A date line may open the prompt (SelfAssist.DateLine).
		if system == p.prompt || strings.HasSuffix(system, "\n\n"+p.prompt) {
			return p.stage
		}
	}
	return ""
}
