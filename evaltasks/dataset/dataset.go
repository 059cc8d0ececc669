// Package dataset is the instruction dataset of the evaluation: its records, their loader and the validator that checks them against the catalog and the sandbox.
package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/understudy/understudy/internal/canon"
)

// Instruction types of the evaluation paper §3.3.
const (
	TypeNoTool       = 1 // Type I: no tool needed (may mislead)
	TypeSufficient   = 2 // Type II: tool needed, information sufficient
	TypeMissing      = 3 // Type III: tool needed, information missing
	TypeDependencies = 4 // Type IV: dependencies between APIs
	TypeHighLevel    = 5 // Type V: high-level task
)

// Instruction is one record of the dataset, with the gold annotations of its type.
type Instruction struct {
	ID       string `json:"id"`
	Type     int    `json:"type"`
	Text     string `json:"text"`
	Scenario string `json:"scenario,omitempty"`

	// Type I: an API that looks relevant but is not needed, and what a good
	// answer says without tools.
	TemptingAPI     string   `json:"tempting_api,omitempty"`
	ReferenceAnswer string   `json:"reference_answer,omitempty"`
	KeyPoints       []string `json:"key_points,omitempty"`

	// Types II and III: the API to call ("tool.api").
	TargetAPI string `json:"target_api,omitempty"`
	// AlsoCorrect lists other APIs that answer the instruction equally well
	// (never used as Task 2's perturbing APIs, accepted by Task 2).
	AlsoCorrect []string `json:"also_correct,omitempty"`
	// Type II: the gold call, and facts of the executed response the answer must state.
	GoldCall      *GoldCall `json:"gold_call,omitempty"`
	ExpectedFacts []string  `json:"expected_facts,omitempty"`
	// Type III: the required parameters the text does not give.
	Missing []string `json:"missing,omitempty"`
	// Type III: values present in the text for the other required parameters
	// (for the validator), by parameter.
	Present map[string]any `json:"present,omitempty"`

	// Type IV: the gold chain, each step's literal arguments and bindings to
	// earlier steps' responses. Type II: the steps that mint the opaque
	// values the user quotes, run before the gold call and never shown.
	Chain []GoldStep `json:"chain,omitempty"`
	// Types II and III: the earlier turns of the conversation, calls the
	// assistant made before the instruction. They run first, in the
	// instance's session, and the agent is shown each call with its result
	// (ShownResult) before the user's text: an instruction that speaks of
	// them ("the hotel you just showed me") carries them.
	History []GoldStep `json:"history,omitempty"`
	// Earlier is the user's request the history answered: the
	// conversation opens with it, so that no assistant turn comes before
	// a user's (the validator requires it with a history).
	Earlier string `json:"earlier,omitempty"`

	// Type V: the coherent group, the APIs a good plan uses, and its key steps.
	Group     string   `json:"group,omitempty"`
	GroupAPIs []string `json:"group_apis,omitempty"`
	KeySteps  []string `json:"key_steps,omitempty"`
}

// GoldCall is a correct call with BFCL-style acceptable values.
type GoldCall struct {
	API       string                `json:"api"`
	Arguments map[string]Acceptable `json:"arguments"`
}

// Acceptable lists the equivalent values a parameter may take. Optional
// means the parameter may also be omitted.
type Acceptable struct {
	Values   []any `json:"values"`
	Optional bool  `json:"optional,omitempty"`
}

// GoldStep is one call of a Type-IV chain.
type GoldStep struct {
	API       string             `json:"api"`
	Arguments map[string]any     `json:"arguments,omitempty"`
	Bindings  map[string]Binding `json:"bindings,omitempty"`
	Repeat    bool               `json:"repeat,omitempty"`
	Until     string             `json:"until,omitempty"`
}

// Binding takes a value from an earlier step's response.
type Binding struct {
	Step int    `json:"step"`
	Path string `json:"path"`
}

// EmptyAcceptableError is a gold-call argument with no acceptable value:
// a dataset error, never "any value goes".
type EmptyAcceptableError struct {
	ID    string
	Param string
}

func (e *EmptyAcceptableError) Error() string {
	return fmt.Sprintf("%s: gold_call.arguments.%s: no acceptable values (list the values, or mark the parameter optional with its values)", e.ID, e.Param)
}

// LineError is a bad record in a dataset file.
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// MaxLine bounds one JSONL record.
const MaxLine = 1 << 20

// ReadJSONL reads instructions from JSONL (blank lines and lines starting
// with '#' are skipped). Every record is checked for the fields its type
// needs. Numbers are read exactly (canon.Exact): an integer float64
// cannot hold, such as a 19-digit ID, keeps its digits as a json.Number.
func ReadJSONL(r io.Reader, file string) ([]Instruction, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	var out []Instruction
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		var in Instruction
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		dec.UseNumber()
		if err := dec.Decode(&in); err != nil {
			return nil, &LineError{File: file, Line: n, Err: err}
		}
		if err := in.exactNumbers(); err != nil {
			return nil, &LineError{File: file, Line: n, Err: err}
		}
		if err := in.Check(); err != nil {
			return nil, &LineError{File: file, Line: n, Err: err}
		}
		out = append(out, in)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("a record is longer than %d bytes", MaxLine)
		}
		return nil, &LineError{File: file, Err: err}
	}
	return out, nil
}

// exactNumbers turns the json.Numbers of a record decoded with UseNumber
// into the values canon.Decode gives (float64, or a json.Number of its
// digits for an integer float64 cannot hold).
func (in *Instruction) exactNumbers() error {
	exact := func(v *any) error {
		x, err := canon.Exact(*v)
		*v = x
		return err
	}
	var errs []error
	if in.GoldCall != nil {
		for name, acc := range in.GoldCall.Arguments {
			for i := range acc.Values {
				errs = append(errs, exact(&acc.Values[i]))
			}
			in.GoldCall.Arguments[name] = acc
		}
	}
	for k, v := range in.Present {
		errs = append(errs, exact(&v))
		in.Present[k] = v
	}
	for _, st := range append(slices.Clip(in.Chain), in.History...) {
		for k, v := range st.Arguments {
			errs = append(errs, exact(&v))
			st.Arguments[k] = v
		}
	}
	return errors.Join(errs...)
}

// Check verifies that a record has the annotations of its type.
func (in *Instruction) Check() error {
	if strings.TrimSpace(in.ID) == "" {
		return errors.New("id: missing")
	}
	if strings.TrimSpace(in.Text) == "" {
		return fmt.Errorf("%s: text: missing", in.ID)
	}
	need := func(ok bool, field string) error {
		if !ok {
			return fmt.Errorf("%s: type %d needs %s", in.ID, in.Type, field)
		}
		return nil
	}
	switch in.Type {
	case TypeNoTool:
		return errors.Join(need(in.ReferenceAnswer != "", "reference_answer"), need(len(in.KeyPoints) > 0, "key_points"))
	case TypeSufficient:
		err := errors.Join(need(in.TargetAPI != "", "target_api"), need(in.GoldCall != nil && in.GoldCall.API != "", "gold_call"), need(len(in.ExpectedFacts) > 0, "expected_facts"))
		if in.GoldCall != nil {
			// Task 4 compares each argument with its acceptable values;
			// an empty list would accept anything.
			for _, name := range slices.Sorted(maps.Keys(in.GoldCall.Arguments)) {
				if len(in.GoldCall.Arguments[name].Values) == 0 {
					err = errors.Join(err, &EmptyAcceptableError{ID: in.ID, Param: name})
				}
			}
		}
		return err
	case TypeMissing:
		return errors.Join(need(in.TargetAPI != "", "target_api"), need(len(in.Missing) > 0, "missing"))
	case TypeDependencies:
		return need(len(in.Chain) >= 2, "a chain of at least 2 steps")
	case TypeHighLevel:
		return errors.Join(need(in.Group != "", "group"), need(len(in.GroupAPIs) > 0, "group_apis"), need(len(in.KeySteps) > 0, "key_steps"))
	}
	return fmt.Errorf("%s: type %d is not 1-5", in.ID, in.Type)
}

// LoadDir reads every *.jsonl file under dir in name order; IDs must be unique.
func LoadDir(fsys fs.FS, dir string) ([]Instruction, error) {
	var files []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && path.Ext(p) == ".jsonl" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var all []Instruction
	seen := map[string]string{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		ins, err := ReadJSONL(bytes.NewReader(data), f)
		if err != nil {
			return nil, err
		}
		for _, in := range ins {
			if prev, dup := seen[in.ID]; dup {
				return nil, fmt.Errorf("%s: duplicate id %q (also in %s)", f, in.ID, prev)
			}
			seen[in.ID] = f
		}
		all = append(all, ins...)
	}
	return all, nil
}

// GoldError reports a gold call that cannot judge a call.
type GoldError struct {
	API    string
	Param  string
	Reason string
}

func (e *GoldError) Error() string {
	if e.Param == "" {
		return fmt.Sprintf("gold call %s: %s", e.API, e.Reason)
	}
	return fmt.Sprintf("gold call %s: argument %s: %s", e.API, e.Param, e.Reason)
}

// FirstValues are the arguments of the call a gold call stands for: the
// first acceptable value of each argument that lists one.
func (g *GoldCall) FirstValues() map[string]any {
	args := map[string]any{}
	for name, acc := range g.Arguments {
		if len(acc.Values) > 0 {
			args[name] = acc.Values[0]
		}
	}
	return args
}

// Check verifies that a gold call can judge a call: every argument lists
// at least one acceptable value. An empty list would accept anything.
func (g *GoldCall) Check() error {
	for _, name := range slices.Sorted(maps.Keys(g.Arguments)) {
		if len(g.Arguments[name].Values) == 0 {
			return &GoldError{API: g.API, Param: name, Reason: "no acceptable values (an empty list would accept anything)"}
		}
	}
	return nil
}
