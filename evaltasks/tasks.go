package evaltasks

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/understudy/understudy/evaltasks/dataset"
)

// The eight tasks of the evaluation paper (§3.4, Table 1).
const (
	TaskDecide     = 1 // deciding whether to use tools (Types I and II)
	TaskSelect     = 2 // tool selection (Type II)
	TaskClarify    = 3 // requesting the user to clarify missing information (Type III)
	TaskFill       = 4 // filling parameter values (Type II)
	TaskIntrinsic  = 5 // responding with intrinsic knowledge (Type I)
	TaskToolReturn = 6 // responding according to tool returns (Type II)
	TaskChain      = 7 // planning for resolving dependencies (Type IV)
	TaskPlan       = 8 // planning for a high-level task (Type V)
)

// TaskSpec describes one task: its name, the instruction types it uses and
// the metrics of Table 5 of the evaluation paper.
type TaskSpec struct {
	ID      int
	Name    string
	Types   []int
	Metrics []string
}

// Tasks lists the eight tasks in order.
var Tasks = []TaskSpec{
	{TaskDecide, "Deciding whether to use tools", []int{dataset.TypeNoTool, dataset.TypeSufficient}, []string{"precision", "recall", "f1", "macro_f1"}},
	{TaskSelect, "Tool selection", []int{dataset.TypeSufficient}, []string{"accuracy"}},
	{TaskClarify, "Requesting user to clarify missing info", []int{dataset.TypeMissing}, []string{"percentage"}},
	{TaskFill, "Filling parameter values", []int{dataset.TypeSufficient}, []string{"precision"}},
	{TaskIntrinsic, "Responding with intrinsic knowledge", []int{dataset.TypeNoTool}, []string{"relatedness"}},
	{TaskToolReturn, "Responding according to tool returns", []int{dataset.TypeSufficient}, []string{"passing_rate"}},
	{TaskChain, "Planning for resolving dependency", []int{dataset.TypeDependencies}, []string{"chain_score", "progress"}},
	{TaskPlan, "Planning for high-level task", []int{dataset.TypeHighLevel}, []string{"passing_rate"}},
}

// Spec returns the spec of a task ID.
func Spec(id int) (TaskSpec, bool) {
	if id < 1 || id > len(Tasks) {
		return TaskSpec{}, false
	}
	return Tasks[id-1], true
}

// TaskListError is a bad -tasks value.
type TaskListError struct {
	Value  string
	Reason string
}

func (e *TaskListError) Error() string {
	return fmt.Sprintf("tasks %q: %s", e.Value, e.Reason)
}

// ParseTasks reads a task list such as "1,2,7" or "1-4,8"; "" or "all"
// means every task. The result is sorted and free of duplicates.
func ParseTasks(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "all") {
		return []int{1, 2, 3, 4, 5, 6, 7, 8}, nil
	}
	seen := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := taskNumber(lo)
		if err != nil {
			return nil, &TaskListError{Value: s, Reason: err.Error()}
		}
		b := a
		if isRange {
			if b, err = taskNumber(hi); err != nil {
				return nil, &TaskListError{Value: s, Reason: err.Error()}
			}
			if b < a {
				return nil, &TaskListError{Value: s, Reason: fmt.Sprintf("range %q runs backwards", part)}
			}
		}
		for t := a; t <= b; t++ {
			seen[t] = true
		}
	}
	out := make([]int, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Ints(out)
	return out, nil
}

func taskNumber(s string) (int, error) {
	s = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "T"), "t")
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > len(Tasks) {
		return 0, fmt.Errorf("%q is not a task number 1-%d", s, len(Tasks))
	}
	return n, nil
}

// Instance is one evaluation item: an instruction seen through one task.
type Instance struct {
	Task int
	In   *dataset.Instruction
	// Positive is Task 1's label: the instruction needs a tool (Type II).
	Positive bool
}

// Key identifies the instance in results: "T<task>/<instruction id>".
func (i Instance) Key() string { return "T" + strconv.Itoa(i.Task) + "/" + i.In.ID }

// Instances derives the instances of the chosen tasks from the dataset, as
// Table 1 maps instruction types to tasks: in task order, and within a task
// by instruction ID.
func Instances(ins []dataset.Instruction, tasks []int) []Instance {
	byType := map[int][]*dataset.Instruction{}
	for i := range ins {
		byType[ins[i].Type] = append(byType[ins[i].Type], &ins[i])
	}
	for _, list := range byType {
		sort.Slice(list, func(a, b int) bool { return list[a].ID < list[b].ID })
	}
	var out []Instance
	for _, t := range tasks {
		spec, ok := Spec(t)
		if !ok {
			continue
		}
		var inst []Instance
		for _, typ := range spec.Types {
			for _, in := range byType[typ] {
				inst = append(inst, Instance{Task: t, In: in, Positive: typ == dataset.TypeSufficient})
			}
		}
		sort.SliceStable(inst, func(a, b int) bool { return inst[a].In.ID < inst[b].In.ID })
		out = append(out, inst...)
	}
	return out
}
