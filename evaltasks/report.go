package evaltasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/understudy/understudy/evaltasks/callcheck"
)

// Report is the run's summary: Table 5 of the evaluation paper for one agent.
type Report struct {
	Agent string `json:"agent"`
	Model string `json:"model,omitempty"`
	// Dataset is a digest of the instructions evaluated.
	Dataset string `json:"dataset"`
	// DateLine is the line every conversation started with (the sandbox's
	// date and time), "" when none did (-no-date, or a run made before the
	// line existed): runs that differ in it are not comparable.
	DateLine string `json:"date_line,omitempty"`
	// NoDependencyHints marks a run whose catalog was served without the
	// sentences naming a value's source (-dependency-hints=false).
	NoDependencyHints bool `json:"no_dependency_hints,omitempty"`
	// Complete tells whether every planned instance has a recorded
	// outcome (an error is an outcome); false after an interruption.
	Complete bool         `json:"complete"`
	Tasks    []TaskReport `json:"tasks"`

	// What the report's pages show beyond Table 5 (see Describe): the
	// tasks' metrics per instruction type and per scenario, every planned
	// instance's verdict (what a comparison of runs resamples) and every
	// instance that did not pass, with its transcript and gold.
	ByType     []Slice         `json:"by_type,omitempty"`
	ByScenario []Slice         `json:"by_scenario,omitempty"`
	Instances  []InstanceScore `json:"instances,omitempty"`
	Failures   []Failure       `json:"failures,omitempty"`
}

// TaskReport is one task's row group of the table.
type TaskReport struct {
	ID      int                `json:"id"`
	Name    string             `json:"name"`
	Metrics map[string]float64 `json:"metrics"`
	// Planned is the number of instances of the task in the run: the
	// denominator of every metric, whatever became of them.
	Planned int `json:"planned"`
	// N is the number of planned instances with a recorded outcome, errors
	// included (N < Planned only in an incomplete run, whose missing
	// instances score as failures).
	N int `json:"n"`
	// Errors counts the instances that ended in an error instead of an
	// answer, ErrorKinds the same by kind (ErrorData for a bad record, else
	// the agent's: "http_400", "timeout", "unreachable", ...). They score as
	// failures: an error can never raise a metric.
	Errors     int            `json:"errors,omitempty"`
	ErrorKinds map[string]int `json:"error_kinds,omitempty"`
	// Scorer names what scored the task: "rules" or the judge.
	Scorer string `json:"scorer"`
	// JudgeFailures says how often the judge failed to give a vote or a
	// majority; absent while it never did.
	JudgeFailures *JudgeFailures     `json:"judge_failures,omitempty"`
	Criterion     string             `json:"criterion"`
	Outcomes      map[string]int     `json:"outcomes,omitempty"`
	Mistakes      map[string]int     `json:"mistakes,omitempty"`
	Extra         map[string]float64 `json:"extra,omitempty"`
	// Confusion is Task 1's confusion matrix.
	Confusion *Confusion `json:"confusion,omitempty"`
	// Chain says where Task 7's chains break.
	Chain *ChainBreakdown `json:"chain,omitempty"`
	// CoverageBins is Task 8's coverage histogram over the answered
	// instances: CoverageBins bins of equal width over [0, 1].
	CoverageBins []int `json:"coverage_bins,omitempty"`
}

// MetricLabels are the metric names as Table 5 prints them.
var MetricLabels = map[string]string{
	"precision":    "Precision",
	"recall":       "Recall",
	"f1":           "F1-score",
	"macro_f1":     "Macro-F1",
	"accuracy":     "Accuracy",
	"percentage":   "Percentage",
	"relatedness":  "Relatedness",
	"passing_rate": "Passing rate",
	"progress":     "Progress",
	"chain_score":  "Chain score",
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
//
// Every metric's denominator is the planned number of instances of its
// task: an instance that ended in an error (the agent's or the dataset's)
// or has no outcome yet scores as a failure, never as an exclusion, so
// neither errors nor an interruption can raise a score. Results marked
// OutcomeNotRun stand for planned instances without an outcome; planned
// instances missing from results altogether count as failures too (in
// Task 1, whose label is then unknown, as missed positives).
func Aggregate(agentName, model, dataset string, tasks []int, planned map[int]int, results map[string]*Result, scorers map[int]string) *Report {
	rep := &Report{Agent: agentName, Model: model, Dataset: dataset, Complete: true}
	byTask := map[int][]*Result{}
	for _, k := range slices.Sorted(maps.Keys(results)) {
		r := results[k]
		byTask[r.Task] = append(byTask[r.Task], r)
	}
	for _, t := range tasks {
		spec, ok := Spec(t)
		if !ok {
			continue
		}
		tr := TaskReport{ID: t, Name: spec.Name, Metrics: map[string]float64{}, Planned: planned[t], Scorer: "rules", Criterion: Criteria[t],
			Outcomes: map[string]int{}, ErrorKinds: map[string]int{}}
		if s := scorers[t]; s != "" {
			tr.Scorer = s
		}
		var jf *JudgeFailures
		for _, r := range byTask[t] {
			jf = AddJudgeRecord(jf, tr.Scorer, r.Judge)
			switch {
			case r.Outcome == OutcomeNotRun:
				continue
			case r.Error != "":
				tr.Errors++
				tr.ErrorKinds[errorKind(r)]++
				tr.Outcomes[OutcomeError]++
			default:
				tr.Outcomes[r.Outcome]++
			}
			tr.N++
		}
		if len(byTask[t]) > tr.Planned {
			tr.Planned = len(byTask[t])
		}
		if tr.N < tr.Planned {
			rep.Complete = false
		}
		metricsFor(&tr, byTask[t], tr.Planned)
		if len(tr.Outcomes) == 0 {
			tr.Outcomes = nil
		}
		if len(tr.ErrorKinds) == 0 {
			tr.ErrorKinds = nil
		}
		if jf.Failed() {
			tr.JudgeFailures = jf
		}
		rep.Tasks = append(rep.Tasks, tr)
	}
	return rep
}

// errorKind is a result's error kind; results written before kinds were
// recorded have none and count as ErrorAgent.
func errorKind(r *Result) string {
	if r.ErrorKind == "" {
		return ErrorAgent
	}
	return r.ErrorKind
}

// answered tells whether a result holds the agent's answer, scored.
func answered(r *Result) bool { return r.Error == "" && r.Outcome != OutcomeNotRun }

// metricsFor fills a task's metrics over den planned instances. Only
// answered results can pass or score.
func metricsFor(tr *TaskReport, rs []*Result, den int) {
	pass, score := 0, 0.0
	for _, r := range rs {
		if !answered(r) {
			continue
		}
		if r.Pass {
			pass++
		}
		score += r.Score
	}
	switch tr.ID {
	case TaskDecide:
		// Positive class: needs a tool (Type II). f1 is that class's F1, as
		// Table 5 of the paper prints it (GPT-3.5: P .96, R .75, F1 .84);
		// macro_f1 averages it with the negative class's. Anything but a
		// clean call or no-call (a parse error, an agent or dataset error,
		// an instance not run) is the wrong prediction for its label: a
		// missed positive (FN) or a false alarm (FP). So it scores exactly
		// as the wrong answer would and can never raise any of the metrics,
		// whatever the agent would have answered.
		var tp, fp, tn, fn, pos, neg int
		for _, r := range rs {
			positive := r.Label == "positive"
			if positive {
				pos++
			} else {
				neg++
			}
			call := answered(r) && r.Outcome == OutcomeCall
			noCall := answered(r) && r.Outcome == callcheck.OutcomeNoCall
			switch {
			case positive && call:
				tp++
			case positive:
				fn++
			case noCall:
				tn++
			default:
				fp++
			}
		}
		// Planned instances missing from the results have no label here
		// (Run always passes them, as not run): missed positives.
		if missing := den - len(rs); missing > 0 {
			pos += missing
			fn += missing
		}
		// No call at all: precision 0, not undefined, and so F1 0.
		p, rec := ratio(tp, tp+fp), ratio(tp, pos)
		np, nrec := ratio(tn, tn+fn), ratio(tn, neg)
		tr.Metrics["precision"] = p
		tr.Metrics["recall"] = rec
		tr.Metrics["f1"] = f1(p, rec)
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
		tr.Metrics["macro_f1"] = mean(sum, len(f1s))
		tr.Extra = map[string]float64{"positive_share": ratio(pos, den), "accuracy": ratio(pass, den)}
		tr.Confusion = &Confusion{TP: tp, FP: fp, TN: tn, FN: fn}
	case TaskSelect:
		tr.Metrics["accuracy"] = ratio(pass, den)
	case TaskClarify:
		tr.Metrics["percentage"] = ratio(pass, den)
		tr.Mistakes = map[string]int{}
		for _, r := range rs {
			if !answered(r) {
				continue
			}
			for _, m := range r.Mistakes {
				tr.Mistakes[m.Kind]++
			}
		}
		if len(tr.Mistakes) == 0 {
			tr.Mistakes = nil
		}
	case TaskFill:
		tr.Metrics["precision"] = ratio(pass, den)
	case TaskIntrinsic:
		tr.Metrics["relatedness"] = ratio(pass, den)
		tr.Extra = map[string]float64{"key_point_coverage": mean(score, den)}
	case TaskToolReturn:
		tr.Metrics["passing_rate"] = ratio(pass, den)
	case TaskChain:
		// The headline is the chain score, the F-measure of each
		// instance's progress and call precision, so that every wasted
		// call lowers it; the paper's progress rate is the second metric.
		// Call precision over every answered instance's calls and the
		// wasted calls per instance say what the progress cost.
		tr.Metrics["progress"] = mean(score, den)
		calls, on := 0, 0
		chain := 0.0
		for _, r := range rs {
			if !answered(r) {
				continue
			}
			calls += len(r.Calls)
			n := 0
			for _, c := range r.Calls {
				if c.OnChain {
					n++
				}
			}
			on += n
			chain += ChainScore(r.Score, n, len(r.Calls))
		}
		tr.Metrics["chain_score"] = mean(chain, den)
		tr.Extra = map[string]float64{"full_success": ratio(pass, den), "call_precision": ratio(on, calls), "wasted_calls_per_instance": mean(float64(calls-on), den)}
		tr.Chain = chainBreakdown(rs)
	case TaskPlan:
		tr.Metrics["passing_rate"] = ratio(pass, den)
		tr.Extra = map[string]float64{"coverage": mean(score, den)}
		tr.CoverageBins = coverageBins(rs)
	}
}

// ChainScore is Task 7's headline for one instance: the F-measure of its
// progress (the share of the gold steps done) and its call precision (on
// of its calls were on the chain). A step done among wasted, failed or
// distractor calls counts less, so calling every offered tool cannot buy
// progress: an instance with no call on the chain scores 0.
func ChainScore(progress float64, on, calls int) float64 {
	if calls == 0 {
		return 0
	}
	return f1(float64(on)/float64(calls), progress)
}

func mean(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// JSON is the report's canonical encoding (indented, trailing newline).
func (r *Report) JSON() ([]byte, error) { return EncodeReport(r) }

// EncodeReport is the canonical encoding of every suite's report.json:
// indented by two spaces, HTML characters as they are, a trailing newline.
func EncodeReport(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ErrorCounts totals the instances that ended in an error: the agent's
// (every kind but ErrorData and ErrorJudge) and the dataset's.
func (r *Report) ErrorCounts() (agentErrs, dataErrs int) {
	for _, t := range r.Tasks {
		for k, n := range t.ErrorKinds {
			switch k {
			case ErrorData:
				dataErrs += n
			case ErrorJudge:
			default:
				agentErrs += n
			}
		}
	}
	return agentErrs, dataErrs
}

// JudgeErrors totals the instances the judge left without a majority.
func (r *Report) JudgeErrors() int {
	n := 0
	for _, t := range r.Tasks {
		n += t.ErrorKinds[ErrorJudge]
	}
	return n
}

// ErrorSummary lists the tasks with errors and their kinds, e.g.
// "task 4: http_400 282; task 6: timeout 1", or "" when there are none.
func (r *Report) ErrorSummary() string {
	var parts []string
	for _, t := range r.Tasks {
		if t.Errors > 0 {
			parts = append(parts, fmt.Sprintf("task %d: %s", t.ID, kindCounts(t.ErrorKinds)))
		}
	}
	return strings.Join(parts, "; ")
}

func (r *Report) hasErrors() bool {
	for _, t := range r.Tasks {
		if t.Errors > 0 {
			return true
		}
	}
	return false
}

// nCell is a task's instance count for the table: the planned number, or
// "done/planned" in an incomplete run.
func (t TaskReport) nCell() string {
	if t.N < t.Planned {
		return fmt.Sprintf("%d/%d", t.N, t.Planned)
	}
	return fmt.Sprint(t.Planned)
}

// valueCell is a metric's value; "-" only for a task without instances.
func (t TaskReport) valueCell(metric, none string) string {
	if t.Planned == 0 {
		return none
	}
	return fmt.Sprintf("%.2f", t.Metrics[metric])
}

// WriteTable prints the Table-5-style table: tasks × metrics, with an
// errors column and a line per task with errors when any instance ended in one.
func (r *Report) WriteTable(w io.Writer) error {
	var tb bytes.Buffer
	tw := tabwriter.NewWriter(&tb, 0, 0, 2, ' ', 0)
	errCol := r.hasErrors()
	head := "Task\tMetric\t" + r.label() + "\tn\t"
	if errCol {
		head += "errors\t"
	}
	fmt.Fprintf(tw, "%sscorer\n", head)
	for _, t := range r.Tasks {
		spec, _ := Spec(t.ID)
		for i, m := range spec.Metrics {
			task, n, errs, scorer := "", "", "", ""
			if i == 0 {
				task, n, scorer = fmt.Sprintf("Task %d", t.ID), t.nCell(), t.Scorer
				errs = fmt.Sprint(t.Errors)
			}
			row := task + "\t" + MetricLabels[m] + "\t" + t.valueCell(m, "-") + "\t" + n + "\t"
			if errCol {
				row += errs + "\t"
			}
			fmt.Fprintf(tw, "%s%s\n", row, scorer)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Empty cells leave trailing blanks, which editors strip from copies.
	for _, line := range strings.SplitAfter(tb.String(), "\n") {
		if line != "" {
			fmt.Fprintln(w, strings.TrimRight(line, " \n"))
		}
	}
	for _, t := range r.Tasks {
		if t.Errors > 0 {
			fmt.Fprintf(w, "Task %d: %d of %d instances ended in an error (%s); they score as failures.\n", t.ID, t.Errors, t.Planned, kindCounts(t.ErrorKinds))
		}
		if t.JudgeFailures != nil {
			fmt.Fprintf(w, "Task %d: %s.\n", t.ID, t.JudgeFailures)
		}
	}
	if !r.Complete {
		fmt.Fprintf(w, "(incomplete run: instances not run score as failures; resume it with -resume)\n")
	}
	if r.NoDependencyHints {
		fmt.Fprintln(w, "Dependency hints off (-dependency-hints=false): no description said where a value comes from.")
	}
	return nil
}

func (r *Report) label() string {
	if r.Model != "" && r.Model != r.Agent {
		return r.Agent + " (" + r.Model + ")"
	}
	return r.Agent
}

// metricNotes say how a task's metrics are computed beyond its criterion.
var metricNotes = map[int]string{
	TaskDecide: "F1-score is the F1 of the positive class (the instruction needs a tool), as Table 5 of the paper prints it; " +
		"Macro-F1 averages it with the negative class's F1. An agent that never calls a tool has precision 0 and F1 0. " +
		"A reply that is neither a clean call nor a clean answer (a parse error), an error and an instance not run " +
		"are the wrong prediction for their label (a missed positive, or a false positive), so they score as a wrong answer would",
}

// Markdown is report.md: the table, then each task's criterion and outcomes.
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Evaluation report: %s\n\n", r.label())
	fmt.Fprintf(&b, "Dataset `%s`.", r.Dataset)
	if r.NoDependencyHints {
		b.WriteString(" The catalog was served without dependency hints (-dependency-hints=false): no description says where a value comes from.")
	}
	if r.DateLine != "" {
		fmt.Fprintf(&b, " Every conversation starts with the line %q.", r.DateLine)
	} else {
		b.WriteString(" Conversations start with no date line (`-no-date`, the paper's bare prompts).")
	}
	if !r.Complete {
		b.WriteString(" **Incomplete run.**")
	}
	b.WriteString(" Every metric is over the planned instances of its task: an instance that ended in an error " +
		"(the agent's, or a bad dataset record) or was not run scores as a failure, never as an exclusion.\n\n")
	errCol := r.hasErrors()
	head, rule := "| Task | Metric | "+mdEscape(r.label())+" | n |", "|---|---|---:|---:|"
	if errCol {
		head, rule = head+" errors |", rule+"---:|"
	}
	b.WriteString(head + " scorer |\n" + rule + "---|\n")
	for _, t := range r.Tasks {
		spec, _ := Spec(t.ID)
		for i, m := range spec.Metrics {
			task, n, errs, scorer := "", "", "", ""
			if i == 0 {
				task, n, errs, scorer = fmt.Sprintf("Task %d", t.ID), t.nCell(), fmt.Sprint(t.Errors), t.Scorer
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |", task, MetricLabels[m], t.valueCell(m, "–"), n)
			if errCol {
				fmt.Fprintf(&b, " %s |", errs)
			}
			fmt.Fprintf(&b, " %s |\n", mdEscape(scorer))
		}
	}
	b.WriteString("\n## Tasks\n")
	for _, t := range r.Tasks {
		fmt.Fprintf(&b, "\n### Task %d: %s\n\n", t.ID, t.Name)
		fmt.Fprintf(&b, "- Scorer: %s. %s.\n", t.Scorer, upperFirst(t.Criterion))
		if note := metricNotes[t.ID]; note != "" {
			fmt.Fprintf(&b, "- Metrics: %s.\n", note)
		}
		fmt.Fprintf(&b, "- Instances: %d planned, %d with an outcome", t.Planned, t.N)
		if t.Errors > 0 {
			fmt.Fprintf(&b, "; %d ended in an error (%s) and score as failures", t.Errors, kindCounts(t.ErrorKinds))
			if t.ErrorKinds[ErrorData] > 0 {
				b.WriteString("; `data` errors are bad records of the dataset (find them with `evalrun -validate`), failures too so that a bad record can never raise a score")
			}
			if t.ErrorKinds[ErrorJudge] > 0 {
				b.WriteString("; `judge` errors are instances whose judge votes formed no majority (a vote the judge did not give or that held no verdict is no verdict), failures too, retried by `-resume`")
			}
		}
		b.WriteString(".\n")
		if t.JudgeFailures != nil {
			fmt.Fprintf(&b, "- Judge failures: %s; every vote and its error is in `%s`.\n", t.JudgeFailures, ResultsFile)
		}
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

// kindCounts lists error kinds and counts, sorted by kind: "http_400 3, timeout 1".
func kindCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
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
