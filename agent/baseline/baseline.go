// Package baseline is the agent without a model, the floor models are compared against: it knows only the catalog, the tool responses and arithmetic.
package baseline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/internal/clip"
	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/search"
)

// Agent is the agent without a model, the floor models are compared
// against. It knows what an agent is told — the catalog's names,
// descriptions and enums, the dependency graph, the tool responses and the
// present date — and no facts about the world: it never reads the
// sandbox's world data. It ranks the offered tools by BM25 against the
// instruction, fills required parameters from the instruction's text (see
// Facts), calls first the offered APIs the dependency graph says provide a
// value it needs (a geocoder for coordinates, an auto-complete for an ID),
// asks for the parameters it can neither read nor look up, polls an API
// that must be called until a search is complete, and answers from the tool
// results with their key fields. To a question that needs no tool it gives
// what arithmetic and unit conversion can give, and otherwise says that it
// does not know. It is deterministic: the same conversation gets the same
// reply.
//
// The plan is recomputed from the conversation at every turn; the calls it
// makes carry IDs ("bl_<step>") that tie their results to the plan's steps.
type Agent struct {
	// Catalog maps offered function names to APIs (their parameters and
	// dependencies); nil works from the tool schemas alone, without chains.
	Catalog *toolset.Catalog
	// Graph is the dependency graph; nil means no chains.
	Graph *deps.Graph
	// Clock is the present that relative dates are read against (default frozen).
	Clock clock.Clock
	// MaxPolls bounds the calls of a polling API (default 5).
	MaxPolls int
}

var _ agent.Agent = (*Agent)(nil)

// New builds a baseline over a catalog and its dependency graph (either
// may be nil) with the frozen clock.
func New(c *toolset.Catalog, g *deps.Graph) *Agent {
	return &Agent{Catalog: c, Graph: g, Clock: clock.Frozen()}
}

// offeredTool is one offered function with what the baseline knows of it.
type offeredTool struct {
	name   string
	api    *toolset.API // the catalog's API, or one built from the schema
	known  bool         // api comes from the catalog
	params []SlotParam
}

// planStep is one call of the baseline's plan.
type planStep struct {
	tool    *offeredTool
	args    map[string]any
	binds   map[string]deps.Binding
	missing []SlotParam
}

// toolResult is one tool message read back.
type toolResult struct {
	raw []byte // the response's JSON (or text)
	doc any
	err string
}

// Respond answers the conversation.
func (b *Agent) Respond(ctx context.Context, messages []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	if err := ctx.Err(); err != nil {
		return agent.Reply{}, err
	}
	now := clock.Default
	if b.Clock != nil {
		now = b.Clock.Now()
	}
	qi := -1
	for i := len(messages) - 1; i >= 0; i-- {
		if messages[i].Role == agent.RoleUser {
			qi = i
			break
		}
	}
	if qi < 0 || strings.TrimSpace(messages[qi].Content) == "" {
		return agent.Reply{Content: "What would you like me to do?"}, nil
	}
	query := messages[qi].Content
	results, order := readResults(messages[qi+1:])
	offered := b.offered(tools)
	if wantsPlan(messages) && len(messages[qi+1:]) == 0 {
		return agent.Reply{Content: b.planText(query, offered, now)}, nil
	}
	facts := ExtractFacts(query, now)
	if len(order) == 0 {
		if a, ok := knownAnswer(query); ok {
			return agent.Reply{Content: a}, nil
		}
		if kind, ok := stableFact(query, facts); ok {
			return agent.Reply{Content: unknownFactAnswer(kind, facts)}, nil
		}
	}

	target, steps := b.choose(query, facts, offered)
	if target == nil {
		if len(order) > 0 {
			return agent.Reply{Content: answerFrom(query, results[order[len(order)-1]])}, nil
		}
		return agent.Reply{Content: intrinsicAnswer()}, nil
	}

	done := 0
	for done < len(steps) {
		if _, ok := results[stepID(done)]; !ok {
			break
		}
		done++
	}
	if done == 0 && len(order) > 0 {
		// Tool results this plan did not ask for: answer from the last one.
		return agent.Reply{Content: answerFrom(query, results[order[len(order)-1]])}, nil
	}
	if done == 0 {
		var missing []SlotParam
		var fns []string
		for _, st := range steps {
			for _, p := range st.missing {
				missing = append(missing, p)
				fns = append(fns, st.tool.name)
			}
		}
		if len(missing) > 0 {
			return agent.Reply{Content: clarification(missing, fns)}, nil
		}
	}
	if done > 0 {
		if r := results[stepID(done-1)]; r.err != "" {
			return agent.Reply{Content: fmt.Sprintf("I could not finish this: %s failed: %s", steps[done-1].tool.name, clip.Text(r.err, 300))}, nil
		}
	}
	if done < len(steps) {
		return b.callStep(steps, done, results)
	}

	// The plan is done: poll while the target says its results are incomplete.
	last := results[stepID(len(steps)-1)]
	if reply, ok := b.poll(steps, target, offered, facts, results); ok {
		return reply, nil
	}
	for k := 0; ; k++ {
		r, ok := results[pollID(k)]
		if !ok {
			break
		}
		if r.err != "" {
			return agent.Reply{Content: fmt.Sprintf("I could not finish this: polling failed: %s", clip.Text(r.err, 300))}, nil
		}
		last = r
	}
	return agent.Reply{Content: answerFrom(query, last)}, nil
}

func stepID(i int) string { return fmt.Sprintf("bl_%d", i) }
func pollID(k int) string { return fmt.Sprintf("bl_poll_%d", k) }

// callStep makes the call of step i, binding values from earlier results.
func (b *Agent) callStep(steps []planStep, i int, results map[string]toolResult) (agent.Reply, error) {
	st := steps[i]
	args := make(map[string]any, len(st.args)+len(st.binds))
	for k, v := range st.args {
		args[k] = v
	}
	for _, param := range slices.Sorted(maps.Keys(st.binds)) {
		bd := st.binds[param]
		vals := deps.Values(results[stepID(bd.Step)].doc, bd.Path)
		if len(vals) == 0 {
			return agent.Reply{Content: fmt.Sprintf("I could not finish this: the result of %s has no %s for %s's %s.", steps[bd.Step].tool.name, bd.Path, st.tool.name, param)}, nil
		}
		args[param] = vals[0]
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return agent.Reply{}, fmt.Errorf("agent: baseline arguments: %w", err)
	}
	return agent.Reply{
		Content:   fmt.Sprintf("Calling %s.", st.tool.name),
		ToolCalls: []agent.ToolCall{{ID: stepID(i), Name: st.tool.name, Arguments: raw}},
	}, nil
}

// untilRE reads a polling condition from a description: "(data->context->status=complete)".
var untilRE = regexp.MustCompile(`(?i)until[^.]*?\(([A-Za-z_]\w*(?:->\w+)+)\s*=\s*(\w+)\)`)

// poll calls the offered API that must be called again and again after the
// target until its condition holds; false when no poll is needed.
func (b *Agent) poll(steps []planStep, target *offeredTool, offered []*offeredTool, facts *Facts, results map[string]toolResult) (agent.Reply, bool) {
	if b.Graph == nil || !target.known {
		return agent.Reply{}, false
	}
	maxPolls := b.MaxPolls
	if maxPolls <= 0 {
		maxPolls = 5
	}
	targetStep := len(steps) - 1
	for _, e := range b.Graph.OutOf(target.api.ID()) {
		var poller *offeredTool
		for _, o := range offered {
			if o.known && o.api.ID() == e.To {
				poller = o
			}
		}
		if poller == nil {
			continue
		}
		m := untilRE.FindStringSubmatch(poller.api.Description)
		if m == nil {
			continue
		}
		path, want := strings.ReplaceAll(m[1], "->", "."), m[2]
		latest := results[stepID(targetStep)]
		k := 0
		for ; ; k++ {
			r, ok := results[pollID(k)]
			if !ok {
				break
			}
			latest = r
		}
		if latest.err != "" || holds(latest.doc, path, want) || k >= maxPolls {
			return agent.Reply{}, false
		}
		if len(deps.Values(latest.doc, path)) == 0 {
			return agent.Reply{}, false // the result does not speak of the condition
		}
		args := map[string]any{}
		for _, p := range poller.params {
			if !p.Required {
				continue
			}
			if p.Name == e.Param {
				vals := deps.Values(results[stepID(targetStep)].doc, e.Path)
				if len(vals) == 0 {
					return agent.Reply{}, false
				}
				args[p.Name] = vals[0]
				continue
			}
			if v, ok := facts.Fill(p, ""); ok {
				args[p.Name] = v
			}
		}
		raw, _ := json.Marshal(args)
		return agent.Reply{
			Content:   fmt.Sprintf("The results are not complete yet; calling %s.", poller.name),
			ToolCalls: []agent.ToolCall{{ID: pollID(k), Name: poller.name, Arguments: raw}},
		}, true
	}
	return agent.Reply{}, false
}

func holds(doc any, path, want string) bool {
	for _, v := range deps.Values(doc, path) {
		if fmt.Sprint(v) == want {
			return true
		}
	}
	return false
}

// offered reads the tool list; Finish is not a tool to choose.
func (b *Agent) offered(tools []toolset.OpenAITool) []*offeredTool {
	var out []*offeredTool
	for _, t := range tools {
		if t.Function.Name == agent.FinishName || t.Function.Name == "" {
			continue
		}
		o := &offeredTool{name: t.Function.Name}
		if b.Catalog != nil {
			if a := b.Catalog.APIByExportName(t.Function.Name); a != nil {
				o.api, o.known = a, true
			}
		}
		o.params = schemaParams(t.Function.Parameters)
		if o.api == nil {
			o.api = &toolset.API{Name: t.Function.Name, Description: t.Function.Description}
			for _, p := range o.params {
				o.api.Params = append(o.api.Params, &toolset.Param{Name: p.Name, Description: p.Description, Required: p.Required})
			}
		}
		out = append(out, o)
	}
	return out
}

// schemaParams reads a function's parameters from its JSON Schema, in
// name order with the required ones first.
func schemaParams(schema map[string]any) []SlotParam {
	props, _ := schema["properties"].(map[string]any)
	required := map[string]bool{}
	switch r := schema["required"].(type) {
	case []any:
		for _, x := range r {
			if s, ok := x.(string); ok {
				required[s] = true
			}
		}
	case []string:
		for _, s := range r {
			required[s] = true
		}
	}
	var out []SlotParam
	for _, name := range slices.Sorted(maps.Keys(props)) {
		m, _ := props[name].(map[string]any)
		p := SlotParam{Name: name, Required: required[name]}
		p.Kind, _ = m["type"].(string)
		p.Description, _ = m["description"].(string)
		p.Format, _ = m["format"].(string)
		if e, ok := m["enum"].([]any); ok {
			p.Enum = e
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Required && !out[j].Required })
	return out
}

var (
	intrinsicRE = regexp.MustCompile(`(?i)^\s*(explain|why\b|define|describe|what does .* mean|what is the meaning|who (was|wrote|invented|discovered|painted)|how (does|do|did) .* work|write (a|an|me)|summari[sz]e the (idea|concept)|what are the (benefits|advantages|differences))`)
	liveRE      = regexp.MustCompile(`(?i)\b(current|currently|now|today|tonight|tomorrow|latest|live|real-time|this (week|month|year)|next|upcoming|price|cost|rate|forecast|weather|flight|hotel|schedule|holiday|convert|exchange|screenshot|image|photo|translate|detect|ip\b|headline|news)`)
)

// choose picks the offered tool that best fits the instruction, with its
// plan, or nil when the instruction needs no tool. Among the hits scoring
// close to the best, the first whose plan the instruction fills wholly wins:
// of two near-equal tools, the one that can be called.
func (b *Agent) choose(query string, facts *Facts, offered []*offeredTool) (*offeredTool, []planStep) {
	if len(offered) == 0 {
		return nil, nil
	}
	if intrinsicRE.MatchString(query) && !liveRE.MatchString(query) {
		return nil, nil
	}
	hits := b.rank(query, offered)
	if len(hits) == 0 {
		return nil, nil
	}
	top := hits[0].tool
	// A tool is worth calling when it shares a content word with the
	// instruction, or the instruction gives values for it.
	valued := len(facts.Dates)+len(facts.Places)+len(facts.URLs)+len(facts.IPs)+len(facts.Currencies)+len(facts.Quoted) > 0
	if sharedTerms(query, top) == 0 && !valued {
		return nil, nil
	}
	topPlan := b.plan(top, facts, offered)
	for i, h := range hits {
		if i == 3 || h.score < 0.75*hits[0].score {
			break
		}
		o := h.tool
		p := topPlan
		if i > 0 {
			p = b.plan(o, facts, offered)
		}
		if !anyMissing(p) {
			return o, p
		}
	}
	return top, topPlan
}

type rankedTool struct {
	tool  *offeredTool
	score float64
}

// rank orders the offered tools by BM25 score against the query, best
// first, dropping those that share no term with it. When the catalog knows
// every offered tool, scores come from the catalog-wide index, whose term
// statistics a handful of offered tools cannot give; otherwise from an
// index over the offered tools alone.
func (b *Agent) rank(query string, offered []*offeredTool) []rankedTool {
	var out []rankedTool
	allKnown := b.Catalog != nil
	for _, o := range offered {
		allKnown = allKnown && o.known
	}
	if allKnown {
		pos := map[*toolset.API]int{}
		for i, a := range b.Catalog.APIs() {
			pos[a] = i
		}
		scores := search.Of(b.Catalog).Scores(query)
		for _, o := range offered {
			if i, ok := pos[o.api]; ok && i < len(scores) && scores[i] > 0 {
				out = append(out, rankedTool{o, scores[i]})
			}
		}
	} else {
		apis := make([]*toolset.API, len(offered))
		byAPI := map[*toolset.API]*offeredTool{}
		for i, o := range offered {
			apis[i] = o.api
			byAPI[o.api] = o
		}
		for _, h := range search.NewIndex(apis).Search(query, len(apis)) {
			out = append(out, rankedTool{byAPI[h.API], h.Score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].tool.name < out[j].tool.name
	})
	return out
}

func anyMissing(steps []planStep) bool {
	for _, s := range steps {
		if len(s.missing) > 0 {
			return true
		}
	}
	return false
}

// sharedTerms counts the distinct content words of the query found in the tool's text.
func sharedTerms(query string, o *offeredTool) int {
	toolText := map[string]bool{}
	text := o.name + " " + o.api.Description
	if o.api.Tool != nil {
		text += " " + o.api.Tool.Name + " " + o.api.Tool.Description
	}
	for _, p := range o.params {
		text += " " + p.Name + " " + p.Description
	}
	for _, t := range search.Tokenize(text) {
		toolText[t] = true
	}
	seen := map[string]bool{}
	n := 0
	for _, t := range search.Tokenize(query) {
		if seen[t] || fillerWords[t] || stopWords[t] && t != "weather" && t != "flight" && t != "flights" && t != "hotel" && t != "hotels" && t != "news" || len(t) < 3 {
			continue
		}
		seen[t] = true
		if toolText[t] {
			n++
		}
	}
	return n
}

// plan lists the calls that lead to the target: for each required
// parameter an offered source API provides (by the dependency graph), the
// source's own plan first; the target last.
func (b *Agent) plan(target *offeredTool, facts *Facts, offered []*offeredTool) []planStep {
	var steps []planStep
	b.planInto(target, "", facts, offered, &steps, map[string]bool{})
	return steps
}

func (b *Agent) planInto(t *offeredTool, role string, facts *Facts, offered []*offeredTool, steps *[]planStep, visiting map[string]bool) int {
	st := planStep{tool: t, args: map[string]any{}}
	visiting[t.name] = true
	defer delete(visiting, t.name)
	for _, p := range t.params {
		prole := roleOf(p.Name, role)
		if p.Required {
			if src, edge := b.source(t, p.Name, offered, visiting); src != nil {
				i := b.planInto(src, prole, facts, offered, steps, visiting)
				if st.binds == nil {
					st.binds = map[string]deps.Binding{}
				}
				st.binds[p.Name] = deps.Binding{Step: i, Path: edge.Path}
				continue
			}
			if v, ok := facts.Fill(p, prole); ok {
				st.args[p.Name] = v
			} else {
				if prole != "" {
					// Ask for what the user knows: the origin, not the query of a lookup.
					p.Description = "the " + prole + "; " + p.Description
				}
				st.missing = append(st.missing, p)
			}
			continue
		}
		if v, ok := fillOptional(facts, p, prole); ok {
			st.args[p.Name] = v
		}
	}
	// A source the plan already calls with the same arguments is called once.
	for i, prev := range *steps {
		if prev.tool == t && sameArgs(prev, st) {
			return i
		}
	}
	*steps = append(*steps, st)
	return len(*steps) - 1
}

// fillOptional fills an optional parameter only on a clear mention.
func fillOptional(facts *Facts, p SlotParam, role string) (any, bool) {
	name := strings.ToLower(p.Name)
	switch {
	case len(p.Enum) > 0:
		return facts.fillEnum(p)
	case strings.Contains(name, "currency"):
		if len(facts.Currencies) > 0 {
			return facts.Currencies[0], true
		}
	case strings.Contains(name, "adult") || name == "days" || strings.Contains(name, "room_qty"):
		return facts.fillNumber(p)
	case (strings.Contains(name, "date") || name == "dt") && len(facts.Dates) > 0:
		return facts.fillDate(name)
	case (p.Kind == "number" || p.Kind == "integer") && strings.Contains(strings.ToLower(p.Description), "amount"):
		for _, n := range facts.Numbers {
			if n.Unit != "%" {
				return n.Value, true
			}
		}
	}
	return nil, false
}

func sameArgs(a, b planStep) bool {
	x, _ := json.Marshal(a.args)
	y, _ := json.Marshal(b.args)
	u, _ := json.Marshal(a.binds)
	v, _ := json.Marshal(b.binds)
	return bytes.Equal(x, y) && bytes.Equal(u, v)
}

// roleOf reads the place role a parameter name implies: fromId → origin.
func roleOf(name, inherited string) string {
	n := strings.ToLower(name)
	switch {
	case strings.HasPrefix(n, "from") || strings.HasPrefix(n, "origin") || strings.HasPrefix(n, "depart") && !strings.Contains(n, "date"):
		return roleOrigin
	case strings.HasPrefix(n, "to") && !strings.HasPrefix(n, "token") && !strings.HasPrefix(n, "topic") || strings.HasPrefix(n, "dest"):
		return roleDestination
	}
	return inherited
}

// source picks the offered API that provides a parameter: same tool first,
// then the shorter chain, then by ID.
func (b *Agent) source(t *offeredTool, param string, offered []*offeredTool, visiting map[string]bool) (*offeredTool, deps.Edge) {
	if b.Graph == nil || !t.known {
		return nil, deps.Edge{}
	}
	byID := map[string]*offeredTool{}
	for _, o := range offered {
		if o.known {
			byID[o.api.ID()] = o
		}
	}
	// Under ToolBench naming the schema spells the parameter as ToolBench
	// rewrites it (countryCode → countrycode); the graph knows the real name.
	if real, ok := t.api.ParamAliases()[param]; ok {
		param = real
	}
	var best *offeredTool
	var bestEdge deps.Edge
	bestLen := 0
	tool := t.api.Tool.StandardizedName + "."
	for _, e := range b.Graph.Into(t.api.ID()) {
		o := byID[e.From]
		if e.Param != param || o == nil || o == t || visiting[o.name] {
			continue
		}
		n := 1
		if ch, err := b.Graph.ChainFor(e.From); err == nil {
			n = len(ch.Steps)
		}
		better := best == nil
		if !better {
			same, bestSame := strings.HasPrefix(e.From, tool), strings.HasPrefix(bestEdge.From, tool)
			switch {
			case same != bestSame:
				better = same
			case n != bestLen:
				better = n < bestLen
			default:
				better = e.From < bestEdge.From
			}
		}
		if better {
			best, bestEdge, bestLen = o, e, n
		}
	}
	return best, bestEdge
}

// clarification asks for the parameters the instruction does not give.
func clarification(missing []SlotParam, fns []string) string {
	var parts []string
	for _, p := range missing {
		d := strings.TrimSpace(p.Description)
		if i := strings.IndexAny(d, ".\n"); i > 0 {
			d = d[:i]
		}
		if d != "" {
			parts = append(parts, fmt.Sprintf("%s (%s)", p.Name, clip.Text(d, 100)))
		} else {
			parts = append(parts, p.Name)
		}
	}
	return fmt.Sprintf("To do this with %s I need more information. Could you tell me the %s?", fns[0], strings.Join(parts, ", and the "))
}

// intrinsicAnswer is the reply when no tool fits and neither arithmetic
// nor a conversion answers: the baseline has no knowledge to answer from,
// and says so rather than repeating the question back.
func intrinsicAnswer() string {
	return "No tool is needed for this, but I have no knowledge to answer it from."
}

// readResults reads the tool messages after the instruction, by call id, in order.
func readResults(msgs []agent.Message) (map[string]toolResult, []string) {
	out := map[string]toolResult{}
	var order []string
	for i, m := range msgs {
		if m.Role != agent.RoleTool {
			continue
		}
		id := m.ToolCallID
		if id == "" {
			id = fmt.Sprintf("#%d", i)
		}
		out[id] = parseToolResult(m.Content)
		order = append(order, id)
	}
	return out, order
}

// parseToolResult reads a tool message: the solvers' {"error", "response"}
// envelope, a bare JSON response, or text. An API answer that says it
// failed ({"status": false, "message": ...}, {"error": "..."}) is an error.
func parseToolResult(content string) toolResult {
	doc, err := decodeNumbers([]byte(content))
	if err != nil {
		return toolResult{raw: []byte(content), doc: content}
	}
	r := toolResult{raw: []byte(content), doc: doc}
	var env map[string]json.RawMessage
	if json.Unmarshal([]byte(content), &env) == nil {
		resp, hasResp := env["response"]
		e, hasErr := env["error"]
		if hasResp && hasErr {
			_ = json.Unmarshal(e, &r.err)
			r.raw = resp
			r.doc, _ = decodeNumbers(resp)
			if s, ok := r.doc.(string); ok {
				if d, err := decodeNumbers([]byte(s)); err == nil {
					r.doc, r.raw = d, []byte(s)
				}
			}
		}
	}
	if r.err == "" {
		if m, ok := r.doc.(map[string]any); ok {
			if st, ok := m["status"].(bool); ok && !st {
				r.err = fmt.Sprint(m["message"])
			} else if e, ok := m["error"].(string); ok && e != "" && m["data"] == nil {
				r.err = e
			}
		}
	}
	return r
}

func decodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// leaf is one scalar of a document with its path ("data.items[0].name").
type leaf struct {
	path  string
	key   string
	value string
}

// maxLeaves bounds the scalars read from one result.
const maxLeaves = 20000

// firstKeyRE and importantKeyRE name the fields an answer states first and next.
var (
	firstKeyRE     = regexp.MustCompile(`(?i)(price|formatted|amount|total|name|title|temp|rate|converted|answer|result|headline|translat)`)
	importantKeyRE = regexp.MustCompile(`(?i)(value|feels|description|summary|text|date|time|departure|arrival|duration|rating|score|city|country|status|count|stops|carrier|address|condition|language)`)
)

// skipKeyRE names fields an answer leaves out: opaque ids, tokens, links.
var skipKeyRE = regexp.MustCompile(`(?i:^(id|ids|token|session|sessionid|url|uri|href|link|logo|logourl|image|imageurl|icon|thumbnail|photo|timestamp|hash)$)|Id$|Url$|Token$|_id$|_url$|_token$`)

// pickFields keeps up to n leaves: important keys first, shallow paths
// before deep ones, otherwise in document order; a value already stated is
// not repeated.
func pickFields(ls []leaf, n int) []leaf {
	type ranked struct {
		l    leaf
		rank int
	}
	var rs []ranked
	for _, l := range ls {
		if skipKeyRE.MatchString(l.key) || l.value == "" || strings.HasPrefix(l.value, "http") || len(l.value) > 200 {
			continue
		}
		tier := 2
		switch {
		case firstKeyRE.MatchString(l.key):
			tier = 0
		case importantKeyRE.MatchString(l.key):
			tier = 1
		}
		rs = append(rs, ranked{l, tier*100 + strings.Count(l.path, ".")})
	}
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].rank < rs[j].rank })
	var out []leaf
	seen := map[string]bool{}
	for _, r := range rs {
		if len(out) == n {
			break
		}
		if seen[r.l.value] {
			continue
		}
		seen[r.l.value] = true
		out = append(out, r.l)
	}
	return out
}

// readLeaves lists the scalars of a JSON document in document order.
func readLeaves(raw []byte) []leaf {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	type frame struct {
		array  bool
		index  int
		key    string
		hasKey bool
	}
	var stack []frame
	var out []leaf
	pathOf := func() string {
		var b strings.Builder
		for _, f := range stack {
			if f.array {
				fmt.Fprintf(&b, "[%d]", f.index-1)
			} else if f.hasKey {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			}
		}
		return b.String()
	}
	for len(out) < maxLeaves {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		d, isDelim := tok.(json.Delim)
		if isDelim && (d == '}' || d == ']') {
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if n := len(stack); n > 0 && !stack[n-1].array {
				stack[n-1].hasKey = false
			}
			continue
		}
		n := len(stack)
		if n > 0 && !stack[n-1].array && !stack[n-1].hasKey {
			stack[n-1].key, stack[n-1].hasKey = fmt.Sprint(tok), true
			continue
		}
		if n > 0 && stack[n-1].array {
			stack[n-1].index++
		}
		if isDelim {
			stack = append(stack, frame{array: d == '['})
			continue
		}
		key := ""
		if n > 0 && !stack[n-1].array {
			key = stack[n-1].key
		}
		p := pathOf()
		if n > 0 && !stack[n-1].array {
			stack[n-1].hasKey = false
		}
		if p == "" {
			p = "value"
		}
		if tok != nil {
			out = append(out, leaf{path: p, key: key, value: fmt.Sprint(tok)})
		}
	}
	return out
}
