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
	Scorer    string `json:"scorer"`
	Criterion string `json:"criterion"`
	Queries   string `json:"queries"`
	// Sample and Seed are the run's -sample and -seed (0: every query).
	Sample   int     `json:"sample,omitempty"`
	Seed     uint64  `json:"seed,omitempty"`
	Complete bool    `json:"complete"`
	Overall  Rates   `json:"overall"`
	Groups   []Rates `json:"groups"`
	// Unresolved lists the queries a relevant API of which the catalog
	// lacks, with why; they are in no rate.
	Unresolved []UnresolvedQuery `json:"unresolved,omitempty"`
	// JudgeFailures says how often the judge failed to give a vote or a
	// majority; absent while it never did.
	JudgeFailures *evaltasks.JudgeFailures `json:"judge_failures,omitempty"`
	// Retriever is the solvers' API source when not the queries' api_list.
	Retriever string `json:"retriever,omitempty"`
	// AnyTool are the figures of AnyTool's search (SolverAnyTool only).
	AnyTool *AnyToolSummary `json:"anytool,omitempty"`
}

// UnresolvedQuery is one query the catalog cannot serve.
type UnresolvedQuery struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

// Rates are the pass rates of a set of queries. Every rate is over the
// planned queries the catalog can serve (Scored): one that ended in an
// error or was not run counts as solvable and unsolved, so neither can
// raise a rate. Unresolved queries (a relevant API absent from the
// catalog) are counted apart, by reason, and in no rate.
type Rates struct {
	Group   string `json:"group,omitempty"`
	Planned int    `json:"planned"`
	// Unresolved counts the planned queries a relevant API of which the
	// catalog lacks, UnresolvedReasons the same by reason (ReasonToolAbsent,
	// ReasonAPIAbsent); Scored = Planned - Unresolved is every rate's
	// denominator.
	Unresolved        int            `json:"unresolved"`
	UnresolvedReasons map[string]int `json:"unresolved_reasons,omitempty"`
	Scored            int            `json:"scored"`
	// MissingOther counts the scored queries that ran without an api_list
	// entry the catalog lacks (not a relevant one).
	MissingOther int `json:"missing_other,omitempty"`
	N            int `json:"n"`
	Errors       int `json:"errors,omitempty"`
	// ErrorKinds counts the errors by kind (evaltasks error kinds:
	// "unreachable", "http_500", "judge", "data", ...).
	ErrorKinds map[string]int `json:"error_kinds,omitempty"`
	// Solvable, Solved and Unsolved count ToolEval's verdicts (Unsolved:
	// solvable and not solved).
	Solvable int `json:"solvable"`
	Solved   int `json:"solved"`
	Unsolved int `json:"unsolved"`
	// PassRate is ToolEval's (AnyTool Eq. 1): (non-solvable + solved) / scored.
	PassRate float64 `json:"pass_rate"`
	// RevisedPassRate is AnyTool's Eq. 2: solved without giving up / scored.
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
	var jf *evaltasks.JudgeFailures
	for _, k := range all {
		res := results[k]
		if res == nil {
			continue
		}
		if res.Outcome == OutcomeUnresolved {
			rep.Unresolved = append(rep.Unresolved, UnresolvedQuery{Key: k, Reason: res.Unresolved, Detail: absentDetail(res.Absent)})
		}
		if v := res.Verdict; v != nil {
			jf = evaltasks.AddJudgeRecord(jf, scorer, v.SolvableJudge)
			jf = evaltasks.AddJudgeRecord(jf, scorer, v.SolvedJudge)
		}
	}
	if jf.Failed() {
		rep.JudgeFailures = jf
	}
	return rep
}

// absentDetail says which relevant APIs are absent and why.
func absentDetail(abs []Absence) string {
	var parts []string
	for _, a := range abs {
		if a.Relevant {
			parts = append(parts, fmt.Sprintf("%s: %s", a.Ref, a.Detail))
		}
	}
	return strings.Join(parts, "; ")
}

func rates(group string, keys []string, results map[string]*Result) Rates {
	r := Rates{Group: group, Planned: len(keys), Outcomes: map[string]int{}, UnresolvedReasons: map[string]int{}, ErrorKinds: map[string]int{}}
	pass, revised, calls := 0, 0, 0
	for _, k := range keys {
		res, ok := results[k]
		if !ok {
			r.Solvable++
			r.Unsolved++
			continue
		}
		r.N++
		if res.Outcome == OutcomeUnresolved {
			r.Unresolved++
			r.UnresolvedReasons[res.Unresolved]++
			continue
		}
		r.Outcomes[res.Outcome]++
		if len(res.Absent) > 0 {
			r.MissingOther++
		}
		if res.Trajectory != nil {
			calls += res.Trajectory.CallsUsed
		}
		v := res.Verdict
		if res.Error != "" || v == nil {
			if res.Error != "" {
				r.Errors++
				r.ErrorKinds[res.ErrorKind]++
			}
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
	r.Scored = r.Planned - r.Unresolved
	if r.Scored > 0 {
		r.PassRate = float64(pass) / float64(r.Scored)
		r.RevisedPassRate = float64(revised) / float64(r.Scored)
		r.MeanCalls = float64(calls) / float64(r.Scored)
	}
	if len(r.Outcomes) == 0 {
		r.Outcomes = nil
	}
	if len(r.UnresolvedReasons) == 0 {
		r.UnresolvedReasons = nil
	}
	if len(r.ErrorKinds) == 0 {
		r.ErrorKinds = nil
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

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// maxListed is how many unresolved queries report.md lists.
const maxListed = 100

// JSON is the report's canonical encoding (indented, trailing newline).
func (r *Report) JSON() ([]byte, error) { return evaltasks.EncodeReport(r) }

func (r *Report) label() string {
	s := r.Agent
	if r.Model != "" && r.Model != r.Agent {
		s += " (" + r.Model + ")"
	}
	s += ", " + r.Solver
	if r.Retriever != "" {
		s += " on " + r.Retriever
	}
	return s
}

// WriteTable prints pass rates per query file and overall.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Queries\t%s pass rate\trevised pass rate\tsolvable\tsolved\tn\tunresolved\terrors\tscorer\n", r.label())
	for _, g := range append(slices.Clone(r.Groups), r.Overall) {
		name := g.Group
		if name == "" {
			name = "all"
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%d\t%d\t%s\t%d\t%d\t%s\n", name, g.PassRate, g.RevisedPassRate, g.Solvable, g.Solved, nCell(g), g.Unresolved, g.Errors, r.Scorer)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range r.notes() {
		fmt.Fprintln(w, line)
	}
	if !r.Complete {
		fmt.Fprintln(w, "(incomplete run: queries not run score as unsolved; resume it with -resume)")
	}
	r.AnyTool.write(w)
	return nil
}

// nCell is the number of scored queries, "done/scored" in an
// incomplete run.
func nCell(g Rates) string {
	if g.N < g.Planned {
		return fmt.Sprintf("%d/%d", g.N-g.Unresolved, g.Scored)
	}
	return fmt.Sprint(g.Scored)
}

// notes say what the rates leave out: unresolved queries, queries run
// without some of their APIs, errors.
func (r *Report) notes() []string {
	var out []string
	o := r.Overall
	if r.Sample > 0 {
		out = append(out, fmt.Sprintf("A sample of %d of the queries (-sample %d -seed %d), stratified by query file and category.", o.Planned, r.Sample, r.Seed))
	}
	if o.Unresolved > 0 {
		out = append(out, fmt.Sprintf("%d of %d queries are unresolved (%s): a relevant API is not in the catalog, so nothing can score them; "+
			"they are in no rate (report.md lists them).", o.Unresolved, o.Planned, joinCounts(o.UnresolvedReasons)))
	}
	if o.MissingOther > 0 {
		out = append(out, fmt.Sprintf("%d scored queries ran without an api_list entry the catalog lacks (not a relevant one).", o.MissingOther))
	}
	if o.Errors > 0 {
		out = append(out, fmt.Sprintf("%d queries ended in an error (%s); they score as unsolved.", o.Errors, joinCounts(o.ErrorKinds)))
	}
	if f := r.JudgeFailures; f != nil {
		out = append(out, upperFirst(f.String())+"; a vote it did not give or that held no verdict is no verdict, and a query without a majority is a `judge` error.")
	}
	return out
}

// joinCounts lists counts by key, sorted: "API absent 2, tool absent 3".
func joinCounts(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
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
		"query the catalog can serve (n): an error or a query not run is unsolved. A query a relevant API of which the " +
		"catalog lacks is unresolved and in no rate.\n\n")
	b.WriteString("| Queries | Pass rate | Revised pass rate | Solvable | Solved | n | unresolved | errors |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, g := range append(slices.Clone(r.Groups), r.Overall) {
		name := g.Group
		if name == "" {
			name = "**all**"
		}
		fmt.Fprintf(&b, "| %s | %.2f | %.2f | %d | %d | %s | %d | %d |\n", name, g.PassRate, g.RevisedPassRate, g.Solvable, g.Solved, nCell(g), g.Unresolved, g.Errors)
	}
	b.WriteString("\n")
	for _, line := range r.notes() {
		fmt.Fprintf(&b, "- %s\n", line)
	}
	fmt.Fprintf(&b, "- Scorer: %s: %s.\n", r.Scorer, r.Criterion)
	if len(r.Overall.Outcomes) > 0 {
		keys := slices.Sorted(maps.Keys(r.Overall.Outcomes))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s %d", strings.ReplaceAll(k, "_", " "), r.Overall.Outcomes[k])
		}
		fmt.Fprintf(&b, "- Solver outcomes: %s.\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "- Mean tool calls per query: %.2f. Every trajectory is in `%s`.\n", r.Overall.MeanCalls, evaltasks.ResultsFile)
	if len(r.Unresolved) > 0 {
		fmt.Fprintf(&b, "\n## Unresolved queries\n\n%s. Each names a relevant API the catalog lacks; load the tools it needs (`-tools`) to score it.\n\n",
			joinCounts(r.Overall.UnresolvedReasons))
		for i, u := range r.Unresolved {
			if i == maxListed {
				fmt.Fprintf(&b, "- … and %d more (`report.json` lists every one)\n", len(r.Unresolved)-maxListed)
				break
			}
			fmt.Fprintf(&b, "- `%s`: %s: %s\n", u.Key, u.Reason, u.Detail)
		}
	}
	b.Write(r.AnyTool.markdown())
	return b.Bytes()
}
