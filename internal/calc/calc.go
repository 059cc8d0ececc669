// Package calc evaluates arithmetic expressions as people type them: operators, functions, constants, percentages and thousands separators.
package calc

import (
	"fmt"
	"math"
	"strconv"
)

// MaxLength bounds the expression's length in bytes; MaxDepth bounds the
// nesting of parentheses and operators, so no input can exhaust the stack.
const (
	MaxLength = 4096
	MaxDepth  = 200
)

// Error is a bad expression: what is wrong and where (1-based column).
type Error struct {
	Pos int
	Msg string
}

func (e *Error) Error() string {
	if e.Pos <= 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s at position %d", e.Msg, e.Pos)
}

type plainError string

func (e plainError) Error() string { return string(e) }

func errorf(format string, args ...any) error { return plainError(fmt.Sprintf(format, args...)) }

func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

// Eval evaluates an expression such as "2 * (3 + 4)", "sqrt(16) + 15% of 80"
// or "1,250.50 * 1.2". Every failure is an *Error.
func Eval(expr string) (float64, error) {
	if len(expr) > MaxLength {
		return 0, &Error{Msg: fmt.Sprintf("expression is %d bytes long, more than the %d-byte limit", len(expr), MaxLength)}
	}
	toks, err := lex(expr)
	if err != nil {
		return 0, err
	}
	if toks[0].kind == tokEOF {
		return 0, &Error{Msg: "empty expression"}
	}
	p := &parser{toks: toks}
	v, err := p.expr()
	if err != nil {
		return 0, err
	}
	if t := p.peek(); t.kind != tokEOF {
		if t.text == ")" {
			return 0, &Error{Pos: t.pos, Msg: "unbalanced parentheses: ')' without a matching '('"}
		}
		return 0, &Error{Pos: t.pos, Msg: fmt.Sprintf("unexpected %s", describe(t))}
	}
	if math.IsNaN(v.v) || math.IsInf(v.v, 0) {
		return 0, &Error{Msg: "result is not a finite number (overflow)"}
	}
	return v.v, nil
}

// Round gives a result at 12 significant digits, so that 0.1 + 0.2 shows
// as 0.3 the way a pocket calculator would.
func Round(v float64) float64 {
	if v == 0 {
		return 0 // no negative zero
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v == math.Trunc(v) {
		return v // whole numbers stay exact: 2^70 is 1180591620717411303424
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil {
		return v
	}
	if r == 0 {
		return 0 // no negative zero
	}
	return r
}

// Format writes a result the way a calculator displays it: plain decimals
// for everyday magnitudes, scientific notation for very large or small ones.
func Format(v float64) string {
	v = Round(v)
	a := math.Abs(v)
	if v == math.Trunc(v) && a < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	if a != 0 && (a >= 1e15 || a < 1e-6) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
