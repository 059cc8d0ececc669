package dataset

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/search"
)

// PaperCounts are the instruction counts of the evaluation paper's Table 2, the floor
// the shipped dataset must reach per type.
var PaperCounts = map[int]int{
	TypeNoTool:       372,
	TypeSufficient:   326,
	TypeMissing:      195,
	TypeDependencies: 141,
	TypeHighLevel:    50,
}

// MinTypeIIPerAPI is how many Type-II instructions every API needs.
const MinTypeIIPerAPI = 3

// DefaultSimilarity is the word-bigram Jaccard similarity, over texts with
// their values masked, at or above which two texts are near-duplicates.
const DefaultSimilarity = 0.8

// ValidateOptions says what to validate and how strictly.
type ValidateOptions struct {
	// FS and Dir locate the JSONL files (default: the embedded fixtures,
	// "instructions").
	FS  fs.FS
	Dir string
	// Instructions, when set, are validated instead of reading FS.
	Instructions []Instruction
	// Stack is the sandbox to execute gold calls in (default: built with
	// assemble.Build(assemble.Config{})).
	Stack *assemble.Stack
	// MinCounts are the per-type floors (default PaperCounts); Coverage
	// requires every API, dependency pair and group to be covered. Both are
	// for the shipped dataset; small test datasets turn them off.
	MinCounts map[int]int
	Coverage  bool
	// Similarity is the near-duplicate threshold (default DefaultSimilarity;
	// negative turns the check off).
	Similarity float64
	// Perturb computes Task 2's perturbing APIs (default PerturbingAPIs).
	Perturb func(cat *toolset.Catalog, ix *search.Index, in Instruction) []string
}

// ShippedOptions are the options the shipped dataset is held to.
func ShippedOptions() ValidateOptions {
	return ValidateOptions{MinCounts: PaperCounts, Coverage: true}
}

// Problem is one failed check.
type Problem struct {
	File  string `json:"file,omitempty"`
	ID    string `json:"id,omitempty"`
	Type  int    `json:"type,omitempty"`
	Field string `json:"field,omitempty"`
	Msg   string `json:"message"`
}

func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File + ": ")
	}
	if p.ID != "" {
		b.WriteString(p.ID + ": ")
	}
	if p.Field != "" {
		b.WriteString(p.Field + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// ValidationError is returned when the dataset fails any check.
type ValidationError struct{ Problems []Problem }

func (e *ValidationError) Error() string {
	const show = 20
	var b strings.Builder
	fmt.Fprintf(&b, "instruction dataset: %d problem(s)", len(e.Problems))
	for i, p := range e.Problems {
		if i == show {
			fmt.Fprintf(&b, "\n  … and %d more", len(e.Problems)-show)
			break
		}
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// ValidationReport is what the validator found: counts and problems.
type ValidationReport struct {
	Total      int                    `json:"total"`
	ByType     map[int]int            `json:"by_type"`
	ByScenario map[string]int         `json:"by_scenario"`
	ByTypeScen map[int]map[string]int `json:"by_type_scenario"`
	// ByTool counts instructions whose target (Types II, III), chain
	// (Type IV), group APIs (Type V) or tempting API (Type I) use the tool.
	ByTool map[string]int `json:"by_tool"`
	// APICoverage counts, per API ID, instructions per type that target it
	// (Type IV: every step; Type V: the group's APIs).
	APICoverage map[string]map[int]int `json:"api_coverage"`
	// Uncovered lists the APIs with no instruction of any type.
	Uncovered []string `json:"uncovered"`
	// Perturbing holds Task 2's perturbing APIs per Type-II instruction.
	Perturbing map[string][]string `json:"perturbing"`
	// Leakage measures how well the words framing Task 1's texts predict
	// its label.
	Leakage   *LeakageReport `json:"leakage,omitempty"`
	Problems  []Problem      `json:"problems"`
	MinCounts map[int]int    `json:"min_counts,omitempty"`
}

// OK tells whether every check passed.
func (r *ValidationReport) OK() bool { return len(r.Problems) == 0 }

// Validate loads the dataset and checks every record: annotations against
// the catalog, every gold call validated and executed on the stand-ins,
// expected facts found in the executed responses, Type-III texts really
// missing their parameters, Type-IV chains run end to end, Type-V groups,
// Task 2's perturbing APIs, near-duplicates, counts and coverage. It
// returns a *ValidationError (with the report) when any check fails, and
// another error only when the dataset or the sandbox cannot be loaded.
func Validate(ctx context.Context, opts ValidateOptions) (*ValidationReport, error) {
	st := opts.Stack
	if st == nil {
		var err error
		st, err = assemble.Build(assemble.Config{})
		if err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		defer st.Close()
	}
	v := &validator{opts: opts, st: st, cat: st.Catalog, files: map[string]string{}}
	if v.opts.Similarity == 0 {
		v.opts.Similarity = DefaultSimilarity
	}
	if v.opts.Perturb == nil {
		v.opts.Perturb = PerturbingAPIs
	}
	ins := opts.Instructions
	if ins == nil {
		var err error
		ins, err = v.load()
		if err != nil {
			return nil, err
		}
	}
	annot, err := deps.Build(st.Catalog, deps.Options{Annotations: true})
	if err != nil {
		return nil, fmt.Errorf("dependency graph: %w", err)
	}
	v.annot = annot
	v.ix = search.NewIndex(st.Catalog.APIs())
	rep := v.run(ctx, ins)
	if !rep.OK() {
		return rep, &ValidationError{Problems: rep.Problems}
	}
	return rep, nil
}

type validator struct {
	opts  ValidateOptions
	st    *assemble.Stack
	cat   *toolset.Catalog
	annot *deps.Graph
	ix    *search.Index
	files map[string]string // id → file
	rep   *ValidationReport
}

func (v *validator) load() ([]Instruction, error) {
	fsys, dir := v.opts.FS, v.opts.Dir
	if fsys == nil {
		fsys = fixtures.FS
	}
	if dir == "" {
		dir = "instructions"
	}
	ins, err := LoadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	// Remember each record's file for messages.
	err = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".jsonl" {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		recs, err := ReadJSONL(bytes.NewReader(data), p)
		if err != nil {
			return err
		}
		for _, in := range recs {
			v.files[in.ID] = p
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(ins) == 0 {
		return nil, fmt.Errorf("%s: no instructions", dir)
	}
	return ins, nil
}

func (v *validator) problem(in *Instruction, field, format string, args ...any) {
	p := Problem{Field: field, Msg: fmt.Sprintf(format, args...)}
	if in != nil {
		p.ID, p.Type, p.File = in.ID, in.Type, v.files[in.ID]
	}
	v.rep.Problems = append(v.rep.Problems, p)
}

func (v *validator) run(ctx context.Context, ins []Instruction) *ValidationReport {
	v.rep = &ValidationReport{
		ByType: map[int]int{}, ByScenario: map[string]int{}, ByTypeScen: map[int]map[string]int{},
		ByTool: map[string]int{}, APICoverage: map[string]map[int]int{}, Perturbing: map[string][]string{},
		MinCounts: v.opts.MinCounts,
	}
	seen := map[string]bool{}
	for i := range ins {
		in := &ins[i]
		if seen[in.ID] {
			v.problem(in, "id", "duplicate id")
		}
		seen[in.ID] = true
		if err := in.Check(); err != nil {
			v.problem(in, "", "%v", err)
			continue
		}
		if err := ctx.Err(); err != nil {
			v.problem(nil, "", "stopped: %v", err)
			break
		}
		v.count(in)
		v.checkText(in)
		v.checkEarlierTurns(in)
		switch in.Type {
		case TypeNoTool:
			v.checkTypeI(in)
		case TypeSufficient:
			v.checkTypeII(ctx, in)
		case TypeMissing:
			v.checkTypeIII(ctx, in)
		case TypeDependencies:
			v.checkTypeIV(ctx, in)
		case TypeHighLevel:
			v.checkTypeV(in)
		}
	}
	v.checkSimilarity(ins)
	v.checkLeakage(ins)
	v.checkCounts()
	v.checkDocumentedDefaults()
	if v.opts.Coverage {
		v.checkCoverage(ins)
	}
	for _, a := range v.cat.APIs() {
		if len(v.rep.APICoverage[a.ID()]) == 0 {
			v.rep.Uncovered = append(v.rep.Uncovered, a.ID())
		}
	}
	sort.SliceStable(v.rep.Problems, func(i, j int) bool {
		a, b := v.rep.Problems[i], v.rep.Problems[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.ID < b.ID
	})
	return v.rep
}

// scenarioOf is the scenario an instruction belongs to: its own field, or
// the scenario of the API it is about.
func (v *validator) scenarioOf(in *Instruction) string {
	if in.Scenario != "" {
		return in.Scenario
	}
	if a := v.api(v.mainAPI(in)); a != nil {
		return a.Tool.Scenario
	}
	return "unknown"
}

// mainAPI is the API an instruction is mostly about.
func (v *validator) mainAPI(in *Instruction) string {
	switch in.Type {
	case TypeNoTool:
		return in.TemptingAPI
	case TypeSufficient, TypeMissing:
		return in.TargetAPI
	case TypeDependencies:
		return in.Chain[len(in.Chain)-1].API
	case TypeHighLevel:
		if len(in.GroupAPIs) > 0 {
			return in.GroupAPIs[0]
		}
	}
	return ""
}

// apisOf lists the APIs an instruction uses, for the per-tool counts.
func (v *validator) apisOf(in *Instruction) []string {
	var ids []string
	switch in.Type {
	case TypeNoTool:
		if in.TemptingAPI != "" {
			ids = append(ids, in.TemptingAPI)
		}
	case TypeSufficient, TypeMissing:
		ids = append(ids, in.TargetAPI)
	case TypeDependencies:
		for _, s := range in.Chain {
			ids = append(ids, s.API)
		}
	case TypeHighLevel:
		ids = append(ids, in.GroupAPIs...)
	}
	return ids
}

func (v *validator) count(in *Instruction) {
	r := v.rep
	r.Total++
	r.ByType[in.Type]++
	sc := v.scenarioOf(in)
	r.ByScenario[sc]++
	if r.ByTypeScen[in.Type] == nil {
		r.ByTypeScen[in.Type] = map[string]int{}
	}
	r.ByTypeScen[in.Type][sc]++
	tools := map[string]bool{}
	apis := map[string]bool{}
	for _, id := range v.apisOf(in) {
		a := v.api(id)
		if a == nil {
			continue
		}
		tools[a.Tool.StandardizedName] = true
		apis[a.ID()] = true
	}
	for t := range tools {
		r.ByTool[t]++
	}
	for id := range apis {
		if r.APICoverage[id] == nil {
			r.APICoverage[id] = map[int]int{}
		}
		r.APICoverage[id][in.Type]++
	}
}

// api resolves an API ID "tool.api".
func (v *validator) api(id string) *toolset.API {
	tool, name, ok := strings.Cut(id, ".")
	if !ok {
		return nil
	}
	return v.cat.API(tool, name)
}

// needAPI resolves an API ID or reports it.
func (v *validator) needAPI(in *Instruction, field, id string) *toolset.API {
	if a := v.api(id); a != nil {
		if a.ID() != id {
			v.problem(in, field, "API %q is spelled %q in the catalog", id, a.ID())
		}
		return a
	}
	msg := fmt.Sprintf("unknown API %q", id)
	if tool, name, ok := strings.Cut(id, "."); ok {
		if s := search.Suggest(v.cat, tool, name, 3); len(s) > 0 {
			msg += " (did you mean " + strings.Join(s, ", ") + "?)"
		}
	} else {
		msg += ` (want "tool.api")`
	}
	v.problem(in, field, "%s", msg)
	return nil
}
