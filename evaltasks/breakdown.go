package evaltasks

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/understudy/understudy/evaltasks/dataset"
)

// The breakdowns below are the parts of report.json that say where an
// agent fails, beyond the metrics of Table 5: what the HTML report and the
// comparison of runs are drawn from.

// Confusion is Task 1's confusion matrix over the planned instances; the
// positive class is "needs a tool". An error, a parse error or an instance
// not run is the wrong prediction for its label (see metricsFor).
type Confusion struct {
	TP int `json:"tp"`
	FP int `json:"fp"`
	TN int `json:"tn"`
	FN int `json:"fn"`
}

// ChainBreakdown says where Task 7's chains break.
type ChainBreakdown struct {
	// FirstBroken[i] counts the answered instances whose first gold step
	// not done is step i+1.
	FirstBroken []int `json:"first_broken,omitempty"`
	// Kinds counts every gold step not done by why (the ChainBreak kinds).
	Kinds map[string]int `json:"kinds,omitempty"`
	// Violations counts the dependency violations of the agent's calls by
	// kind, as the sandbox's session traces record them (fabricated,
	// wrong_source, before_dependency).
	Violations map[string]int `json:"violations,omitempty"`
}

// CoverageBins is the number of bins of Task 8's coverage histogram, of
// equal width over [0, 1] (the last one includes 1).
const CoverageBins = 5

// Slice is one row of a per-scenario or per-instruction-type table: each
// task's metric over the instances of that scenario or type.
type Slice struct {
	Name  string      `json:"name"`
	Cells []SliceCell `json:"cells"`
}

// SliceCell is one task's metric over a slice of its instances.
type SliceCell struct {
	Task   int     `json:"task"`
	Metric string  `json:"metric"`
	N      int     `json:"n"`
	Value  float64 `json:"value"`
}

// InstanceScore is the verdict on one planned instance: enough to
// recompute any metric over any subset of the instances (a slice, a
// bootstrap resample).
type InstanceScore struct {
	Key      string  `json:"key"`
	Task     int     `json:"task"`
	Type     int     `json:"type,omitempty"`
	Scenario string  `json:"scenario,omitempty"`
	Label    string  `json:"label,omitempty"`
	Outcome  string  `json:"outcome"`
	Pass     bool    `json:"pass"`
	Score    float64 `json:"score"`
	// Calls counts Task 7's executed calls, OnChain those on the chain:
	// what call precision and wasted calls are computed from.
	Calls   int `json:"calls,omitempty"`
	OnChain int `json:"on_chain,omitempty"`
}

// result is the least Result that scores as the instance did.
func (s InstanceScore) result() *Result {
	r := &Result{Key: s.Key, Task: s.Task, Label: s.Label, Outcome: s.Outcome, Pass: s.Pass, Score: s.Score}
	if s.Outcome == OutcomeError {
		r.Error = OutcomeError
	}
	for i := range s.Calls {
		r.Calls = append(r.Calls, ExecutedCall{OnChain: i < s.OnChain})
	}
	return r
}

// Failure is an instance that did not pass, for the failure browser: the
// result as recorded (transcript, verdict and its reasons) with the
// instruction and its gold annotations.
type Failure struct {
	*Result
	Type     int    `json:"type"`
	Scenario string `json:"scenario,omitempty"`
	// APIs are the APIs the instance is about: the tempting API (Type I),
	// the target API (Types II, III), the chain's (Type IV) or the
	// group's (Type V).
	APIs []string `json:"apis,omitempty"`
	// Text is the instruction; Gold its record with the gold annotations.
	Text string               `json:"text"`
	Gold *dataset.Instruction `json:"gold,omitempty"`
}

// Headline is the metric that stands for a task in a chart or a
// comparison: Task 1's positive-class F1, else the task's one metric.
func Headline(task int) string {
	if task == TaskDecide {
		return "f1"
	}
	spec, ok := Spec(task)
	if !ok || len(spec.Metrics) == 0 {
		return ""
	}
	return spec.Metrics[0]
}

// HeadlineOf is the headline of a task as a report holds it: Headline,
// or for a report written before that metric existed the first of the
// task's metrics it does hold, so that an earlier run's page shows what
// that run measured (a Task 7 run without a chain score shows progress).
func HeadlineOf(t TaskReport) string {
	m := Headline(t.ID)
	if _, ok := t.Metrics[m]; ok || len(t.Metrics) == 0 {
		return m
	}
	spec, _ := Spec(t.ID)
	for _, o := range spec.Metrics {
		if _, ok := t.Metrics[o]; ok {
			return o
		}
	}
	return m
}

// SliceMetric is the metric of a task's cells in the per-scenario and
// per-type tables: the headline, but Task 1's accuracy, as a slice may
// hold one class only (Type I has no positives, so no F1).
func SliceMetric(task int) string {
	if task == TaskDecide {
		return "accuracy"
	}
	return Headline(task)
}

// MetricOver computes a task's metric (one of its metrics or extras) over
// the given instances, which are all its planned instances: the report's
// own computation (metricsFor), so that a slice or a resample is scored
// exactly as the whole run is.
func MetricOver(task int, metric string, scores []InstanceScore) float64 {
	rs := make([]*Result, len(scores))
	for i, s := range scores {
		rs[i] = s.result()
	}
	tr := TaskReport{ID: task, Metrics: map[string]float64{}}
	metricsFor(&tr, rs, len(rs))
	if v, ok := tr.Metrics[metric]; ok {
		return v
	}
	return tr.Extra[metric]
}

// instanceAPIs are the APIs an instruction is about.
func instanceAPIs(in *dataset.Instruction) []string {
	var apis []string
	switch in.Type {
	case dataset.TypeNoTool:
		apis = []string{in.TemptingAPI}
	case dataset.TypeSufficient, dataset.TypeMissing:
		apis = []string{in.TargetAPI}
	case dataset.TypeDependencies:
		for _, st := range in.Chain {
			apis = append(apis, st.API)
		}
	case dataset.TypeHighLevel:
		apis = append(apis, in.GroupAPIs...)
	}
	slices.Sort(apis)
	return slices.DeleteFunc(slices.Compact(apis), func(s string) bool { return s == "" })
}

// TypeName is an instruction type as the paper writes it: "Type II".
func TypeName(t int) string {
	if t >= 1 && t <= 5 {
		return "Type " + [...]string{"I", "II", "III", "IV", "V"}[t-1]
	}
	return fmt.Sprintf("Type %d", t)
}

// Describe adds to a report what its pages show beyond the metrics: every
// instance's verdict, the per-type and per-scenario tables and the failed
// instances with their transcripts and gold annotations. insts are the
// planned instances, results their results (a planned instance without
// one counts as not run, as in Aggregate).
func (r *Report) Describe(insts []Instance, results map[string]*Result) {
	sorted := slices.Clone(insts)
	sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].Key() < sorted[b].Key() })
	inReport := map[int]bool{}
	for _, t := range r.Tasks {
		inReport[t.ID] = true
	}
	r.Instances, r.Failures = nil, nil
	for _, inst := range sorted {
		if !inReport[inst.Task] {
			continue
		}
		res := results[inst.Key()]
		if res == nil {
			res = notRun(inst)
		}
		score := InstanceScore{Key: res.Key, Task: res.Task, Type: inst.In.Type, Scenario: inst.In.Scenario,
			Label: res.Label, Outcome: res.Outcome, Pass: res.Pass, Score: res.Score, Calls: len(res.Calls)}
		for _, c := range res.Calls {
			if c.OnChain {
				score.OnChain++
			}
		}
		r.Instances = append(r.Instances, score)
		if !res.Pass {
			r.Failures = append(r.Failures, Failure{Result: res, Type: inst.In.Type, Scenario: inst.In.Scenario, APIs: instanceAPIs(inst.In),
				Text: inst.In.Text, Gold: inst.In})
		}
	}
	r.ByType = r.slices(func(s InstanceScore) string { return TypeName(s.Type) })
	r.ByScenario = r.slices(func(s InstanceScore) string {
		if s.Scenario == "" {
			return "(none)"
		}
		return s.Scenario
	})
}

// slices groups the report's instances by name and scores every task of
// the report over each group.
func (r *Report) slices(name func(InstanceScore) string) []Slice {
	groups := map[string]map[int][]InstanceScore{}
	for _, s := range r.Instances {
		n := name(s)
		if groups[n] == nil {
			groups[n] = map[int][]InstanceScore{}
		}
		groups[n][s.Task] = append(groups[n][s.Task], s)
	}
	var out []Slice
	for _, n := range slices.Sorted(maps.Keys(groups)) {
		sl := Slice{Name: n}
		for _, t := range r.Tasks {
			scores := groups[n][t.ID]
			if len(scores) == 0 {
				continue
			}
			m := SliceMetric(t.ID)
			sl.Cells = append(sl.Cells, SliceCell{Task: t.ID, Metric: m, N: len(scores), Value: MetricOver(t.ID, m, scores)})
		}
		out = append(out, sl)
	}
	return out
}

// chainBreakdown counts where Task 7's answered instances break.
func chainBreakdown(rs []*Result) *ChainBreakdown {
	cb := &ChainBreakdown{Kinds: map[string]int{}, Violations: map[string]int{}}
	for _, r := range rs {
		if !answered(r) {
			continue
		}
		for _, c := range r.Calls {
			for _, v := range c.Violations {
				cb.Violations[v.Kind]++
			}
		}
		for i, b := range r.Breaks {
			cb.Kinds[b.Kind]++
			if i == 0 && b.Step > 0 {
				for len(cb.FirstBroken) < b.Step {
					cb.FirstBroken = append(cb.FirstBroken, 0)
				}
				cb.FirstBroken[b.Step-1]++
			}
		}
	}
	if len(cb.Kinds) == 0 {
		cb.Kinds = nil
	}
	if len(cb.Violations) == 0 {
		cb.Violations = nil
	}
	return cb
}

// coverageBins is the histogram of Task 8's coverage over the answered
// instances.
func coverageBins(rs []*Result) []int {
	bins := make([]int, CoverageBins)
	for _, r := range rs {
		if !answered(r) {
			continue
		}
		i := int(r.Score * CoverageBins)
		bins[min(max(i, 0), CoverageBins-1)]++
	}
	return bins
}
