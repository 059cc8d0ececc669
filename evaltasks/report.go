package evaltasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// Report is the run's summary: seed 004's Table 5 for one agent.
type Report struct {
	Agent string `json:"agent"`
	Model string `json:"model,omitempty"`
	// Dataset is a digest of the instructions evaluated.
	Dataset string `json:"dataset"`
	// Complete is false when the run was interrupted before every instance was scored.
	Complete bool         `json:"complete"`
	Tasks    []TaskReport `json:"tasks"`
}

// TaskReport is one task's row group of the table.
type TaskReport struct {
	ID      int                `json:"id"`
	Name    string             `json:"name"`
	Metrics map[string]float64 `json:"metrics"`
	// N is the number of instances scored; Errors those that could not be
	// (bad records, agent failures) and are left out of the metrics.
	N       int `json:"n"`
	Errors  int `json:"errors,omitempty"`
	Planned int `json:"planned"`
	// Scorer names what scored the task: "rules" or the judge.
	Scorer    string             `json:"scorer"`
	Criterion string             `json:"criterion"`
	Outcomes  map[string]int     `json:"outcomes,omitempty"`
	Mistakes  map[string]int     `json:"mistakes,omitempty"`
	Extra     map[string]float64 `json:"extra,omitempty"`
}

// MetricLabels are the metric names as Table 5 prints them.
var MetricLabels = map[string]string{
	"precision":    "Precision",
	"recall":       "Recall",
	"f1":           "F1-score",
	"accuracy":     "Accuracy",
	"percentage":   "Percentage",
	"relatedness":  "Relatedness",
	"passing_rate": "Passing rate",
	"progress":     "Progress",
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// Aggregate computes the report of a set of results. Results are taken in
// key order, so the report depends only on their content.
func Aggregate(agentName, model, dataset string, tasks []int, planned map[int]int, results map[string]*Result, scorers map[int]string) *Report {
	rep := &Report{Agent: agentName, Model: model, Dataset: dataset, Complete: true}
	byTask := map[int][]*Result{}
	for _, k := range sortedKeys(results) {
		r := results[k]
		byTask[r.Task] = append(byTask[r.Task], r)
	}
	for _, t := range tasks {
		spec, ok := Spec(t)
		if !ok {
			continue
		}
		tr := TaskReport{ID: t, Name: spec.Name, Metrics: map[string]float64{}, Planned: planned[t], Scorer: "rules", Criterion: Criteria[t], Outcomes: map[string]int{}}
		if s := scorers[t]; s != "" {
			tr.Scorer = s
		}
		var scored []*Result
		for _, r := range byTask[t] {
			if r.Error != "" {
				tr.Errors++
				tr.Outcomes[OutcomeError]++
				continue
			}
			scored = append(scored, r)
			tr.Outcomes[r.Outcome]++
		}
		tr.N = len(scored)
		if tr.N+tr.Errors < tr.Planned {
			rep.Complete = false
		}
		metricsFor(&tr, scored)
		if len(tr.Outcomes) == 0 {
			tr.Outcomes = nil
		}
		rep.Tasks = append(rep.Tasks, tr)
	}
	return rep
}

func metricsFor(tr *TaskReport, rs []*Result) {
	pass, score := 0, 0.0
	for _, r := range rs {
		if r.Pass {
			pass++
		}
		score += r.Score
	}
	n := len(rs)
	switch tr.ID {
	case TaskDecide:
		// Positive class: needs a tool (Type II). A parse error is its own
		// prediction: wrong for either class, a call for neither.
		var tp, fp, tn, fn, pos, neg int
		for _, r := range rs {
			positive := r.Label == "positive"
			if positive {
				pos++
			} else {
				neg++
			}
			switch {
			case r.Outcome == OutcomeCall && positive:
				tp++
			case r.Outcome == OutcomeCall:
				fp++
			case r.Outcome == OutcomeNoCall && !positive:
				tn++
			case r.Outcome == OutcomeNoCall:
				fn++
			}
		}
		p, rec := ratio(tp, tp+fp), ratio(tp, pos)
		np, nrec := ratio(tn, tn+fn), ratio(tn, neg)
		tr.Metrics["precision"] = p
		tr.Metrics["recall"] = rec
		// Macro-F1 averages the classes that occur, in the labels or the
		// predictions (a dataset of one class is not halved).
		var f1s []float64
		if pos > 0 || fp > 0 {
			f1s = append(f1s, f1(p, rec))
		}
		if neg > 0 || fn > 0 {
			f1s = append(f1s, f1(np, nrec))
		}
		sum := 0.0
		for _, x := range f1s {
			sum += x
		}
		tr.Metrics["f1"] = mean(sum, len(f1s))
		tr.Extra = map[string]float64{"positive_share": ratio(pos, n), "accuracy": ratio(pass, n)}
	case TaskSelect:
		tr.Metrics["accuracy"] = ratio(pass, n)
	case TaskClarify:
		tr.Metrics["percentage"] = ratio(pass, n)
		tr.Mistakes = map[string]int{}
		for _, r := range rs {
			for _, m := range r.Mistakes {
				tr.Mistakes[m.Kind]++
			}
		}
		if len(tr.Mistakes) == 0 {
			tr.Mistakes = nil
		}
	case TaskFill:
		tr.Metrics["precision"] = ratio(pass, n)
	case TaskIntrinsic:
		tr.Metrics["relatedness"] = ratio(pass, n)
		tr.Extra = map[string]float64{"key_point_coverage": mean(score, n)}
	case TaskToolReturn:
		tr.Metrics["passing_rate"] = ratio(pass, n)
	case TaskChain:
		tr.Metrics["progress"] = mean(score, n)
		tr.Extra = map[string]float64{"full_success": ratio(pass, n)}
	case TaskPlan:
		tr.Metrics["passing_rate"] = ratio(pass, n)
		tr.Extra = map[string]float64{"coverage": mean(score, n)}
	}
}

func mean(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// JSON is the report's canonical encoding (indented, trailing newline).
func (r *Report) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteTable prints the Table-5-style table: tasks × metrics.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Task\tMetric\t%s\tn\tscorer\n", r.label())
	for _, t := range r.Tasks {
		spec, _ := Spec(t.ID)
		for i, m := range spec.Metrics {
			task := ""
			if i == 0 {
				task = fmt.Sprintf("Task %d", t.ID)
			}
			n, scorer := "", ""
			if i == 0 {
				n = fmt.Sprint(t.N)
				if t.Errors > 0 {
					n += fmt.Sprintf(" (+%d err)", t.Errors)
				}
				scorer = t.Scorer
			}
			val := fmt.Sprintf("%.2f", t.Metrics[m])
			if t.N == 0 {
				val = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", task, MetricLabels[m], val, n, scorer)
		}
	}
	if !r.Complete {
		fmt.Fprintf(tw, "(incomplete run: resume it with -resume)\n")
	}
	return tw.Flush()
}

func (r *Report) label() string {
	if r.Model != "" && r.Model != r.Agent {
		return r.Agent + " (" + r.Model + ")"
	}
	return r.Agent
}

// Markdown is report.md: the table, then each task's criterion and outcomes.
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Evaluation report: %s\n\n", r.label())
	fmt.Fprintf(&b, "Dataset `%s`.", r.Dataset)
	if !r.Complete {
		b.WriteString(" **Incomplete run.**")
	}
	b.WriteString("\n\n| Task | Metric | " + mdEscape(r.label()) + " | n | scorer |\n|---|---|---:|---:|---|\n")
	for _, t := range r.Tasks {
		spec, _ := Spec(t.ID)
		for i, m := range spec.Metrics {
			task, n, scorer := "", "", ""
			if i == 0 {
				task, n, scorer = fmt.Sprintf("Task %d", t.ID), fmt.Sprint(t.N), t.Scorer
			}
			val := fmt.Sprintf("%.2f", t.Metrics[m])
			if t.N == 0 {
				val = "–"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", task, MetricLabels[m], val, n, mdEscape(scorer))
		}
	}
	b.WriteString("\n## Tasks\n")
	for _, t := range r.Tasks {
		fmt.Fprintf(&b, "\n### Task %d: %s\n\n", t.ID, t.Name)
		fmt.Fprintf(&b, "- Scorer: %s. %s.\n", t.Scorer, upperFirst(t.Criterion))
		fmt.Fprintf(&b, "- Instances: %d scored of %d", t.N, t.Planned)
		if t.Errors > 0 {
			fmt.Fprintf(&b, ", %d not scored (errors)", t.Errors)
		}
		b.WriteString(".\n")
		if len(t.Extra) > 0 {
			fmt.Fprintf(&b, "- Also: %s.\n", joinCounts(t.Extra, func(v float64) string { return fmt.Sprintf("%.2f", v) }))
		}
		if len(t.Outcomes) > 0 {
			fmt.Fprintf(&b, "- Outcomes: %s.\n", joinCounts(t.Outcomes, func(v int) string { return fmt.Sprint(v) }))
		}
		if len(t.Mistakes) > 0 {
			fmt.Fprintf(&b, "- Mistakes in calls made anyway: %s.\n", joinCounts(t.Mistakes, func(v int) string { return fmt.Sprint(v) }))
		}
	}
	return b.Bytes()
}

func joinCounts[V any](m map[string]V, f func(V) string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = strings.ReplaceAll(k, "_", " ") + " " + f(m[k])
	}
	return strings.Join(parts, ", ")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
