package baseline

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/internal/clip"
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

// planText writes the plan for a request over the offered tools.
func (b *Agent) planText(query string, offered []*offeredTool) string {
	if len(offered) == 0 {
		return "No tool fits this request; I would answer it directly."
	}
	type pick struct {
		tool   *offeredTool
		clause string
		order  int
	}
	picked := map[*offeredTool]*pick{}
	var order []*offeredTool
	add := func(o *offeredTool, clause string) {
		if p, ok := picked[o]; ok {
			if p.clause == "" {
				p.clause = clause
			}
			return
		}
		picked[o] = &pick{tool: o, clause: clause, order: len(order)}
		order = append(order, o)
	}
	// Each clause's best tool, then the tools close to the best for the whole request.
	for _, c := range clauseRE.Split(query, -1) {
		c = strings.TrimSpace(c)
		if len(toolTerms(c)) == 0 {
			continue
		}
		if hits := b.rank(c, offered); len(hits) > 0 {
			add(hits[0].tool, c)
		}
	}
	hits := b.rank(query, offered)
	for i, h := range hits {
		if i < 2 || h.score >= 0.4*hits[0].score {
			add(h.tool, "")
		}
	}
	if len(order) == 0 {
		for i, o := range offered {
			if i == 3 {
				break
			}
			add(o, "")
		}
	}
	// The sources of the IDs the chosen tools need join the plan.
	for i := 0; i < len(order); i++ {
		o := order[i]
		for _, p := range o.params {
			if !p.Required {
				continue
			}
			if src, _ := b.source(o, p.Name, offered, map[string]bool{o.name: true}); src != nil {
				if _, ok := picked[src]; !ok {
					add(src, "")
					picked[src].clause = fmt.Sprintf("get the %s that %s needs", p.Name, o.name)
				}
			}
		}
	}
	sorted := b.dependencyOrder(order, func(o *offeredTool) int { return picked[o].order })
	var sb strings.Builder
	sb.WriteString("Plan:\n")
	for i, o := range sorted {
		p := picked[o]
		what := p.clause
		if what == "" {
			what = firstSentence(o.api.Description)
		}
		fmt.Fprintf(&sb, "%d. %s — call %s", i+1, upperFirst(what), o.name)
		if d := firstSentence(o.api.Description); d != "" && d != what {
			fmt.Fprintf(&sb, " (%s)", d)
		}
		sb.WriteString(".\n")
	}
	fmt.Fprintf(&sb, "%d. Combine the results and answer the request.", len(sorted)+1)
	return sb.String()
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

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".\n"); i > 0 {
		s = s[:i]
	}
	return clip.Text(s, 120)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
