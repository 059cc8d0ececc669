package toolbench

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/understudy/understudy/evaltasks"
)

// Report is the ToolBench suite's summary: pass rates overall and per
// query file (G1, G2, G3).
type Report struct {
	Suite  string `json:"suite"`
	Agent  string `json:"agent"`
	Model  string `json:"model,omitempty"`
	Solver string `json:"solver"`
	// Scorer is "rules" or the judge; Criterion says what passes.
	Scorer    string  `json:"scorer"`
	Criterion string  `json:"criterion"`
	Queries   string  `json:"queries"`
	Complete  bool    `json:"complete"`
	Overall   Rates   `json:"overall"`
	Groups    []Rates `json:"groups"`
}

// Rates are the pass rates of a set of queries. Every rate is over the
// planned queries: one that ended in an error or was not run counts as
// solvable and unsolved, so neither can raise a rate.
type Rates struct {
	Group   string `json:"group,omitempty"`
	Planned int    `json:"planned"`
	N       int    `json:"n"`
	Errors  int    `json:"errors,omitempty"`
	// Solvable, Solved and Unsolved count ToolEval's verdicts (Unsolved:
	// solvable and not solved).
	Solvable int `json:"solvable"`
	Solved   int `json:"solved"`
	Unsolved int `json:"unsolved"`
	// PassRate is ToolEval's (AnyTool Eq. 1): (non-solvable + solved) / all.
	PassRate float64 `json:"pass_rate"`
	// RevisedPassRate is AnyTool's Eq. 2: solved without giving up / all.
	RevisedPassRate float64        `json:"revised_pass_rate"`
	Outcomes        map[string]int `json:"outcomes,omitempty"`
	// MeanCalls is the mean number of tool calls a query used.
	MeanCalls float64 `json:"mean_calls"`
}

// Aggregate computes the report of a run's results; it depends only on
// their content, taken in key order.
func Aggregate(agentName, model, solver, scorer, digest string, qs []Query, results map[string]*Result) *Report {
	rep := &Report{Suite: "toolbench", Agent: agentName, Model: model, Solver: solver, Scorer: scorer, Queries: digest, Complete: true,
		Criterion: RuleCriterion}
	if scorer != "rules" {
		rep.Criterion = "ToolEval's two questions put to the judge, majority of its votes: solvable with the offered APIs, then solved by the final answer (an answer that gives up is unsolved without a vote)"
	}
	planned := map[string][]string{}
	for _, q := range sortedQueries(qs) {
		planned[q.Group] = append(planned[q.Group], q.Key())
	}
	var all []string
	for _, g := range slices.Sorted(maps.Keys(planned)) {
		r := rates(g, planned[g], results)
		rep.Groups = append(rep.Groups, r)
		all = append(all, planned[g]...)
		if r.N < r.Planned {
			rep.Complete = false
		}
	}
	rep.Overall = rates("", all, results)
	return rep
}

func rates(group string, keys []string, results map[string]*Result) Rates {
	r := Rates{Group: group, Planned: len(keys), Outcomes: map[string]int{}}
	pass, revised, calls := 0, 0, 0
	for _, k := range keys {
		res, ok := results[k]
		if !ok {
			r.Solvable++
			r.Unsolved++
			continue
		}
		r.N++
		r.Outcomes[res.Outcome]++
		if res.Trajectory != nil {
			calls += res.Trajectory.CallsUsed
		}
		v := res.Verdict
		if res.Error != "" || v == nil {
			r.Errors += boolInt(res.Error != "")
			r.Solvable++
			r.Unsolved++
			continue
		}
		if v.Solvable {
			r.Solvable++
		}
		if v.Solved {
			r.Solved++
		} else if v.Solvable {
			r.Unsolved++
		}
		pass += boolInt(v.Pass)
		revised += boolInt(v.RevisedPass)
	}
	if r.Planned > 0 {
		r.PassRate = float64(pass) / float64(r.Planned)
		r.RevisedPassRate = float64(revised) / float64(r.Planned)
		r.MeanCalls = float64(calls) / float64(r.Planned)
	}
	if len(r.Outcomes) == 0 {
		r.Outcomes = nil
	}
	return r
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sortedQueries(qs []Query) []Query {
	out := slices.Clone(qs)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// JSON is the report's canonical encoding (indented, trailing newline).
func (r *Report) JSON() ([]byte, error) { return evaltasks.EncodeReport(r) }

func (r *Report) label() string {
	s := r.Agent
	if r.Model != "" && r.Model != r.Agent {
		s += " (" + r.Model + ")"
	}
	return s + ", " + r.Solver
}

// WriteTable prints pass rates per query file and overall.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Queries\t%s pass rate\trevised pass rate\tsolvable\tsolved\tn\terrors\tscorer\n", r.label())
	for _, g := range append(slices.Clone(r.Groups), r.Overall) {
		name := g.Group
		if name == "" {
			name = "all"
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%d\t%d\t%s\t%d\t%s\n", name, g.PassRate, g.RevisedPassRate, g.Solvable, g.Solved, nCell(g), g.Errors, r.Scorer)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !r.Complete {
		fmt.Fprintln(w, "(incomplete run: queries not run score as unsolved; resume it with -resume)")
	}
	return nil
}

func nCell(g Rates) string {
	if g.N < g.Planned {
		return fmt.Sprintf("%d/%d", g.N, g.Planned)
	}
	return fmt.Sprint(g.Planned)
}

// Markdown is report.md.
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# ToolBench report: %s\n\n", r.label())
	fmt.Fprintf(&b, "Queries `%s`.", r.Queries)
	if !r.Complete {
		b.WriteString(" **Incomplete run.**")
	}
	b.WriteString(" Pass rate is ToolEval's (AnyTool's Eq. 1: non-solvable and solved queries pass); revised pass rate is " +
		"AnyTool's Eq. 2 (only solved queries pass, and an answer that gives up never does). Both are over every planned " +
		"query: an error or a query not run is unsolved.\n\n")
	b.WriteString("| Queries | Pass rate | Revised pass rate | Solvable | Solved | n | errors |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, g := range append(slices.Clone(r.Groups), r.Overall) {
		name := g.Group
		if name == "" {
			name = "**all**"
		}
		fmt.Fprintf(&b, "| %s | %.2f | %.2f | %d | %d | %s | %d |\n", name, g.PassRate, g.RevisedPassRate, g.Solvable, g.Solved, nCell(g), g.Errors)
	}
	fmt.Fprintf(&b, "\n- Scorer: %s: %s.\n", r.Scorer, r.Criterion)
	if len(r.Overall.Outcomes) > 0 {
		keys := slices.Sorted(maps.Keys(r.Overall.Outcomes))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s %d", strings.ReplaceAll(k, "_", " "), r.Overall.Outcomes[k])
		}
		fmt.Fprintf(&b, "- Solver outcomes: %s.\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "- Mean tool calls per query: %.2f. Every trajectory is in `%s`.\n", r.Overall.MeanCalls, evaltasks.ResultsFile)
	return b.Bytes()
}
