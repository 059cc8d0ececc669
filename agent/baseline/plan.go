package baseline

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/toolset"
)

// A request for a plan (Task 8 of the evaluation paper, §3.4) gets a numbered plan in text:
// the offered APIs that fit the request and each of its clauses, by BM25,
// with the APIs that provide their required IDs, sources before dependents.

// planRequestRE recognises a system message asking for a plan before any call.
var planRequestRE = regexp.MustCompile(`(?i)\b(outline|plan)\b[^.]*\b(steps?|how you would)\b|\bbefore calling\b`)

// clauseRE splits a request into clauses.
var clauseRE = regexp.MustCompile(`(?i)[,;:.?!\n]+|\s+(?:and then|then|and|also|plus|after that)\s+`)

// wantsPlan tells whether the conversation's system messages ask for a plan.
func wantsPlan(messages []agent.Message) bool {
	for _, m := range messages {
		if m.Role == agent.RoleSystem && planRequestRE.MatchString(m.Content) {
			return true
		}
	}
	return false
}

// planText writes the plan for a request over the offered tools: the
// offered APIs that fit the request and each of its clauses (by BM25), with
// the APIs that provide their required IDs, sources before dependents.
func (b *Agent) planText(query string, offered []*offeredTool, now time.Time) string {
	if len(offered) == 0 {
		return "No tool fits this request; I would answer it directly."
	}
	rank := map[*offeredTool]int{}
	var order []*offeredTool
	add := func(o *offeredTool) {
		if _, ok := rank[o]; !ok {
			rank[o] = len(order)
			order = append(order, o)
		}
	}
	// Each clause's best tool, then the tools close to the best for the whole request.
	for _, c := range clauseRE.Split(query, -1) {
		if len(toolTerms(c)) == 0 {
			continue
		}
		if hits := b.rank(c, offered); len(hits) > 0 {
			add(hits[0].tool)
		}
	}
	hits := b.rank(query, offered)
	for i, h := range hits {
		if i < 2 || h.score >= 0.4*hits[0].score {
			add(h.tool)
		}
	}
	if len(order) == 0 {
		for i, o := range offered {
			if i == 3 {
				break
			}
			add(o)
		}
	}
	// The sources of the values the chosen tools need join the plan.
	for i := 0; i < len(order); i++ {
		o := order[i]
		for _, p := range o.params {
			if !p.Required {
				continue
			}
			if src, _ := b.source(o, p.Name, offered, map[string]bool{o.name: true}); src != nil {
				add(src)
			}
		}
		if p := b.poller(o, offered); p != nil {
			add(p)
		}
	}
	sorted := b.dependencyOrder(order, func(o *offeredTool) int { return rank[o] })
	return b.writePlan(query, sorted, offered, ExtractFacts(query, now))
}

// poller is the offered API that must be called after o until its results
// are complete (its description says so), or nil.
func (b *Agent) poller(o *offeredTool, offered []*offeredTool) *offeredTool {
	if b.Graph == nil || !o.known {
		return nil
	}
	for _, e := range b.Graph.OutOf(o.api.ID()) {
		for _, p := range offered {
			if p != o && p.known && p.api.ID() == e.To && untilRE.MatchString(p.api.Description) {
				return p
			}
		}
	}
	return nil
}

// handoff is a value one step of a plan gives a later one.
type handoff struct {
	from, to *offeredTool
	param    string
}

// writePlan writes one numbered step per tool, in the given order: what
// the step does in words read from the API's name, the request's values it
// is called with, and what it hands on to a later step or takes from an
// earlier one (the dependency graph's edges between the chosen tools). It
// says what the plan does with each tool, not what the documentation says
// the tool is.
func (b *Agent) writePlan(query string, tools, offered []*offeredTool, facts *Facts) string {
	pos := map[*offeredTool]int{}
	for i, o := range tools {
		pos[o] = i
	}
	// The request's values each tool is called with, over every call the
	// plans of the chosen tools make of it (an ID lookup runs once per place).
	values := map[*offeredTool][]string{}
	for _, o := range tools {
		for _, st := range b.plan(o, facts, offered) {
			if _, ok := pos[st.tool]; !ok {
				continue
			}
			for _, k := range slices.Sorted(maps.Keys(st.args)) {
				v := planValue(st.args[k], query)
				if v != "" && !containsString(values[st.tool], v) && len(values[st.tool]) < 4 {
					values[st.tool] = append(values[st.tool], v)
				}
			}
		}
	}
	var gives, takes = map[*offeredTool][]handoff{}, map[*offeredTool][]handoff{}
	if b.Graph != nil {
		byID := map[string]*offeredTool{}
		for _, o := range tools {
			if o.known {
				byID[o.api.ID()] = o
			}
		}
		for _, c := range tools {
			if !c.known {
				continue
			}
			seen := map[string]bool{}
			for _, e := range b.Graph.Into(c.api.ID()) {
				p := byID[e.From]
				if p == nil || p == c || pos[p] > pos[c] || seen[e.Param] {
					continue
				}
				seen[e.Param] = true
				h := handoff{from: p, to: c, param: e.Param}
				gives[p] = append(gives[p], h)
				takes[c] = append(takes[c], h)
			}
		}
	}
	quoted := descriptionRuns(offered)
	var sb strings.Builder
	sb.WriteString("Plan:\n")
	for i, o := range tools {
		head := fmt.Sprintf("%s with %s", upperFirst(purposeOf(o.api)), o.name)
		step := head
		if v := values[o]; len(v) > 0 {
			step += " for " + joinAnd(v)
		}
		if hs := takes[o]; len(hs) > 0 {
			step += ", with " + handoffText(hs, func(h handoff) int { return pos[h.from] + 1 }, "from step")
		}
		if hs := gives[o]; len(hs) > 0 {
			step += ", which gives " + handoffText(hs, func(h handoff) int { return pos[h.to] + 1 }, "to step")
		}
		if quotes(step, quoted) {
			// Said in the documentation's words: say less rather than quote it.
			step = head
		}
		fmt.Fprintf(&sb, "%d. %s.\n", i+1, step)
	}
	fmt.Fprintf(&sb, "%d. Put the results together and answer the request.", len(tools)+1)
	return sb.String()
}

// handoffText writes handoffs grouped by what is handed over: "the from
// id, to id to steps 3 and 4 and the session id to step 5".
func handoffText(hs []handoff, step func(handoff) int, prep string) string {
	var steps []int
	params := map[int][]string{}
	for _, h := range hs {
		n := step(h)
		if _, ok := params[n]; !ok {
			steps = append(steps, n)
		}
		if w := paramWords(h.param); !containsString(params[n], w) {
			params[n] = append(params[n], w)
		}
	}
	sort.Ints(steps)
	var what []string
	at := map[string][]string{}
	for _, n := range steps {
		w := strings.Join(params[n], ", ")
		if _, ok := at[w]; !ok {
			what = append(what, w)
		}
		at[w] = append(at[w], fmt.Sprint(n))
	}
	var parts []string
	for _, w := range what {
		p := prep + " " + at[w][0]
		if len(at[w]) > 1 {
			p = prep + "s " + joinAnd(at[w])
		}
		parts = append(parts, fmt.Sprintf("the %s %s", w, p))
	}
	return joinAnd(parts)
}

// quoteRun is how many words in a row a plan step may share with a tool's
// description before it quotes the documentation instead of saying what the
// step does.
const quoteRun = 6

// descriptionRuns are the runs of quoteRun words of the offered tools'
// descriptions.
func descriptionRuns(offered []*offeredTool) map[string]bool {
	runs := map[string]bool{}
	for _, o := range offered {
		ws := lowerWords(o.api.Description)
		for i := 0; i+quoteRun <= len(ws); i++ {
			runs[strings.Join(ws[i:i+quoteRun], " ")] = true
		}
	}
	return runs
}

// quotes tells whether a step holds a run of a description, the names of
// the functions aside.
func quotes(step string, runs map[string]bool) bool {
	var ws []string
	for _, f := range strings.Fields(step) {
		if strings.ContainsAny(strings.Trim(f, ".,;:"), "_-") {
			continue // a function name
		}
		ws = append(ws, lowerWords(f)...)
	}
	for i := 0; i+quoteRun <= len(ws); i++ {
		if runs[strings.Join(ws[i:i+quoteRun], " ")] {
			return true
		}
	}
	return false
}

// lowerWords are the lower-case runs of letters and digits of a text.
func lowerWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// planVerbs are the words of an API name that say what it does, and how a
// plan writes them.
var planVerbs = map[string]string{
	"get": "get", "search": "search", "find": "find", "list": "list", "check": "check", "take": "take",
	"remove": "remove", "resize": "resize", "compress": "compress", "convert": "convert", "lookup": "look up",
	"calculate": "calculate", "translate": "translate", "run": "run", "detect": "detect", "fetch": "fetch",
	"create": "create", "track": "track", "compute": "compute", "geocode": "geocode", "exchange": "exchange",
}

// purposeOf says what calling an API does, from the words of its name:
// its verb first ("flights_search_one_way" → "search flights one way"),
// "get" when the name has none ("five_day_forecast" → "get five day
// forecast"), and an auto-complete looks up matches.
func purposeOf(a *toolset.API) string {
	var ws []string
	for _, w := range nameWords(a.Name) {
		if w != "api" {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 && a.Tool != nil {
		ws = nameWords(a.Tool.StandardizedName)
	}
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "auto" && ws[i+1] == "complete" || ws[i] == "autocomplete" {
			rest := append(append([]string(nil), ws[:i]...), ws[i+2:]...)
			return strings.TrimSpace("look up the matching " + strings.Join(rest, " ") + " entries")
		}
	}
	for i, w := range ws {
		if v, ok := planVerbs[w]; ok {
			rest := append(append([]string(nil), ws[:i]...), ws[i+1:]...)
			if len(rest) == 0 {
				return v + " what the request asks for"
			}
			return v + " " + strings.Join(rest, " ")
		}
	}
	return "get " + strings.Join(ws, " ")
}

// nameWords splits an identifier (snake_case, camelCase, kebab-case) into
// lower-case words.
func nameWords(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = nil
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && unicode.IsLower(rs[i-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// paramWords writes a parameter name as words: "fromId" → "from id".
func paramWords(name string) string { return strings.Join(nameWords(name), " ") }

// planValue writes a request value a step is called with; "" for values a
// plan does not need to repeat: flags, long texts, and numbers the request
// does not write (a page size the baseline chose).
func planValue(v any, query string) string {
	switch x := v.(type) {
	case bool, nil:
		return ""
	case string:
		if len(x) > 40 {
			return ""
		}
		return x
	}
	s := fmt.Sprint(v)
	if len(s) > 40 || !strings.Contains(query, s) {
		return ""
	}
	return s
}

// joinAnd joins a list as prose: "a, b and c".
func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// dependencyOrder sorts tools so that every tool comes after the offered
// tools the dependency graph says provide its inputs; otherwise by rank.
func (b *Agent) dependencyOrder(tools []*offeredTool, rank func(*offeredTool) int) []*offeredTool {
	in := map[*offeredTool]bool{}
	byID := map[string]*offeredTool{}
	for _, o := range tools {
		in[o] = true
		if o.known {
			byID[o.api.ID()] = o
		}
	}
	before := map[*offeredTool][]*offeredTool{}
	if b.Graph != nil {
		for _, o := range tools {
			if !o.known {
				continue
			}
			for _, e := range b.Graph.Into(o.api.ID()) {
				if src := byID[e.From]; src != nil && src != o {
					before[o] = append(before[o], src)
				}
			}
		}
	}
	rest := append([]*offeredTool(nil), tools...)
	sort.SliceStable(rest, func(i, j int) bool { return rank(rest[i]) < rank(rest[j]) })
	var out []*offeredTool
	done := map[*offeredTool]bool{}
	for len(rest) > 0 {
		k := 0 // the first tool whose sources are all placed; the first one if a cycle
		for i, o := range rest {
			ready := true
			for _, s := range before[o] {
				ready = ready && (done[s] || !in[s])
			}
			if ready {
				k = i
				break
			}
		}
		done[rest[k]] = true
		out = append(out, rest[k])
		rest = append(rest[:k], rest[k+1:]...)
	}
	return out
}

// toolTerms are a text's content words of three letters or more.
func toolTerms(s string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, `.,;:!?"'()`)
		if len(w) >= 3 && !fillerWords[w] {
			out = append(out, w)
		}
	}
	return out
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
