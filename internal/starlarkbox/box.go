// Package starlarkbox runs Python-like code in a Starlark sandbox with no file, network or OS access and bounded steps, time, output, memory and nesting, with a Pool bounding runs across the process.
package starlarkbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Limits bound one run. Zero fields take the defaults of DefaultLimits.
type Limits struct {
	MaxSourceBytes int           // length of the program text
	MaxSteps       uint64        // Starlark execution steps (roughly bytecode instructions)
	Timeout        time.Duration // wall time
	MaxOutputBytes int           // captured print output; longer output is cut and flagged
	MaxValueSize   int64         // size of one value built by an operation (bytes, or 16 per element)
	MaxAllocated   int64         // total size of the values the program builds
}

// DefaultLimits are the limits used when a field of Limits is zero.
var DefaultLimits = Limits{
	MaxSourceBytes: 64 << 10,
	MaxSteps:       5_000_000,
	Timeout:        3 * time.Second,
	MaxOutputBytes: 64 << 10,
	MaxValueSize:   16 << 20,
	MaxAllocated:   256 << 20,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	return Limits{
		MaxSourceBytes: positiveOr(l.MaxSourceBytes, d.MaxSourceBytes),
		MaxSteps:       positiveOr(l.MaxSteps, d.MaxSteps),
		Timeout:        positiveOr(l.Timeout, d.Timeout),
		MaxOutputBytes: positiveOr(l.MaxOutputBytes, d.MaxOutputBytes),
		MaxValueSize:   positiveOr(l.MaxValueSize, d.MaxValueSize),
		MaxAllocated:   positiveOr(l.MaxAllocated, d.MaxAllocated),
	}
}

// positiveOr is v when it is set (above zero), else the default d.
func positiveOr[T int | int64 | uint64 | time.Duration](v, d T) T {
	if v > 0 {
		return v
	}
	return d
}

// Result is what a run produced. Output holds what the program printed,
// even when the run failed part-way.
type Result struct {
	Output          string
	OutputTruncated bool
	// Value is the value of the program's last line when it is an
	// expression (as in a notebook cell), converted to JSON values; nil otherwise.
	Value any
	Steps uint64
}

// ErrorKind classifies a failed run.
type ErrorKind string

// The kinds of failure.
const (
	KindSyntax      ErrorKind = "SyntaxError"
	KindUnsupported ErrorKind = "UnsupportedFeature"
	KindRuntime     ErrorKind = "RuntimeError"
	KindLimit       ErrorKind = "LimitExceeded"
	KindForbidden   ErrorKind = "SandboxViolation"
)

// Error is a failed run: its kind, a message for the caller and the line
// (1-based, 0 when unknown).
type Error struct {
	Kind ErrorKind
	Msg  string
	Line int
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s (line %d): %s", e.Kind, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Kind, e.Msg)
}

const resultName = "__result__"

// fileOptions is the Starlark dialect: Python-like top-level loops and
// statements, while loops and sets, but no recursion.
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}

// Run executes code and returns what it printed and the value of its last
// expression. A failure is an *Error; the Result is still returned with
// the output printed before the failure.
func Run(ctx context.Context, code string, lim Limits) (*Result, error) {
	lim = lim.withDefaults()
	res := &Result{}
	if len(code) > lim.MaxSourceBytes {
		return res, &Error{Kind: KindLimit, Msg: fmt.Sprintf("the program is %d bytes, more than the %d-byte limit", len(code), lim.MaxSourceBytes)}
	}
	if strings.TrimSpace(code) == "" {
		return res, &Error{Kind: KindSyntax, Msg: "no code to run"}
	}
	f, err := fileOptions.Parse("main.py", code, 0)
	if err != nil {
		return res, explainParse(code, err)
	}
	rewrite(f)
	captureLast(f)

	g := &guard{lim: lim}
	out := &output{max: lim.MaxOutputBytes}
	thread := &starlark.Thread{
		Name: "sandbox",
		Print: func(t *starlark.Thread, msg string) {
			if !out.write(msg + "\n") {
				t.Cancel(errOutput)
			}
		},
		Load: func(*starlark.Thread, string) (starlark.StringDict, error) {
			return nil, errors.New(errLoad)
		},
	}
	thread.SetMaxExecutionSteps(lim.MaxSteps)
	thread.SetLocal(guardKey, g)

	pre := predeclared()
	prog, err := starlark.FileProgram(f, pre.Has)
	if err != nil {
		return res, explainResolve(code, err)
	}

	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				g.stop(thread, errTimeout(lim.Timeout))
			} else {
				g.stop(thread, "the run was cancelled by the caller")
			}
		case <-done:
		}
	}()
	globals, runErr := initProgram(prog, thread, pre)
	close(done)

	res.Steps = thread.ExecutionSteps()
	res.Output, res.OutputTruncated = out.String(), out.truncated
	if runErr != nil {
		return res, explainRun(runErr, lim, g)
	}
	if v, ok := globals[resultName]; ok && v != starlark.None {
		val, err := toJSON(v, g)
		if err != nil {
			return res, explainRun(err, lim, g)
		}
		res.Value = val
	}
	return res, nil
}

// captureLast turns a final expression statement into an assignment to
// resultName, so the program's last value can be reported.
func captureLast(f *syntax.File) {
	if len(f.Stmts) == 0 {
		return
	}
	last, ok := f.Stmts[len(f.Stmts)-1].(*syntax.ExprStmt)
	if !ok {
		return
	}
	if call, ok := last.X.(*syntax.CallExpr); ok {
		if id, ok := call.Fn.(*syntax.Ident); ok && id.Name == "print" {
			return // print(...) as the last line has no value worth reporting
		}
	}
	start, _ := last.X.Span()
	f.Stmts[len(f.Stmts)-1] = &syntax.AssignStmt{
		OpPos: start,
		Op:    syntax.EQ,
		LHS:   &syntax.Ident{NamePos: start, Name: resultName},
		RHS:   last.X,
	}
}

// output collects printed text up to a limit.
type output struct {
	b         strings.Builder
	max       int
	truncated bool
}

func (o *output) write(s string) bool {
	if o.truncated {
		return false
	}
	if o.b.Len()+len(s) > o.max {
		cut := s[:o.max-o.b.Len()]
		for len(cut) > 0 && !utf8.ValidString(cut) {
			cut = cut[:len(cut)-1]
		}
		o.b.WriteString(cut)
		o.truncated = true
		return false
	}
	o.b.WriteString(s)
	return true
}

func (o *output) String() string { return o.b.String() }

// initProgram runs prog, turning a panic inside a built-in into an error
// of this run rather than the end of the process.
func initProgram(prog *starlark.Program, thread *starlark.Thread, pre starlark.StringDict) (g starlark.StringDict, err error) {
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, fmt.Errorf("internal error in the interpreter: %v", r)
		}
	}()
	return prog.Init(thread, pre)
}
