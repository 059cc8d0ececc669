package calc

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// value is an intermediate result; pct marks a bare percentage ("15%"),
// which addition and subtraction read relative to the left operand.
type value struct {
	v   float64
	pct bool
}

// parser is a recursive-descent evaluator. Precedence, lowest first:
// + - ; * / % and implicit multiplication ; unary - + ; ^ ** (right
// associative) ; postfix ! and % ; primaries.
type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}
func (p *parser) isOp(s string) bool { t := p.peek(); return t.kind == tokOp && t.text == s }

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return &Error{Pos: p.peek().pos, Msg: fmt.Sprintf("expression nested more than %d levels deep", MaxDepth)}
	}
	return nil
}

func (p *parser) expr() (value, error) {
	if err := p.enter(); err != nil {
		return value{}, err
	}
	defer func() { p.depth-- }()
	left, err := p.term()
	if err != nil {
		return value{}, err
	}
	for p.isOp("+") || p.isOp("-") {
		op := p.next()
		right, err := p.term()
		if err != nil {
			return value{}, err
		}
		r := right.v
		if right.pct {
			r = left.v * right.v // "80 + 15%" adds 15% of 80
		}
		if op.text == "+" {
			left = value{v: left.v + r}
		} else {
			left = value{v: left.v - r}
		}
	}
	return left, nil
}

func (p *parser) term() (value, error) {
	left, err := p.unary()
	if err != nil {
		return value{}, err
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tokOp && (t.text == "*" || t.text == "/" || t.text == "%"):
			p.next()
			right, err := p.unary()
			if err != nil {
				return value{}, err
			}
			switch t.text {
			case "*":
				left = value{v: left.v * right.v}
			case "/":
				if right.v == 0 {
					return value{}, &Error{Pos: t.pos, Msg: "division by zero"}
				}
				left = value{v: left.v / right.v}
			case "%":
				if right.v == 0 {
					return value{}, &Error{Pos: t.pos, Msg: "modulo by zero"}
				}
				left = value{v: pyMod(left.v, right.v)}
			}
		case t.kind == tokIdent && t.text == "mod":
			p.next()
			right, err := p.unary()
			if err != nil {
				return value{}, err
			}
			if right.v == 0 {
				return value{}, &Error{Pos: t.pos, Msg: "modulo by zero"}
			}
			left = value{v: pyMod(left.v, right.v)}
		case (t.kind == tokIdent && t.text != "of" && t.text != "mod") || (t.kind == tokOp && t.text == "("):
			// Implicit multiplication: "2pi", "3(4 + 5)", "2 sqrt(9)".
			right, err := p.unary()
			if err != nil {
				return value{}, err
			}
			left = value{v: left.v * right.v}
		default:
			return left, nil
		}
	}
}

func (p *parser) unary() (value, error) {
	if p.isOp("-") || p.isOp("+") {
		if err := p.enter(); err != nil {
			return value{}, err
		}
		defer func() { p.depth-- }()
		op := p.next()
		v, err := p.unary()
		if err != nil {
			return value{}, err
		}
		if op.text == "-" {
			v.v = -v.v
		}
		return v, nil
	}
	return p.power()
}

func (p *parser) power() (value, error) {
	base, err := p.postfix()
	if err != nil {
		return value{}, err
	}
	if p.isOp("^") || p.isOp("**") {
		if err := p.enter(); err != nil {
			return value{}, err
		}
		defer func() { p.depth-- }()
		op := p.next()
		exp, err := p.unary() // right associative; "2^-1" allowed
		if err != nil {
			return value{}, err
		}
		r := math.Pow(base.v, exp.v)
		if math.IsNaN(r) {
			return value{}, &Error{Pos: op.pos, Msg: fmt.Sprintf("%s ^ %s is not a real number", Format(base.v), Format(exp.v))}
		}
		if base.v == 0 && exp.v < 0 {
			return value{}, &Error{Pos: op.pos, Msg: "division by zero (zero to a negative power)"}
		}
		return value{v: r}, nil
	}
	return base, nil
}

func (p *parser) postfix() (value, error) {
	v, err := p.primary()
	if err != nil {
		return value{}, err
	}
	for {
		t := p.peek()
		switch {
		case t.kind == tokOp && t.text == "!":
			p.next()
			if v.v < 0 || v.v != math.Trunc(v.v) {
				return value{}, &Error{Pos: t.pos, Msg: fmt.Sprintf("factorial needs a non-negative whole number, got %s", Format(v.v))}
			}
			if v.v > 170 {
				return value{}, &Error{Pos: t.pos, Msg: "factorial overflows beyond 170!"}
			}
			r := 1.0
			for k := 2.0; k <= v.v; k++ {
				r *= k
			}
			v = value{v: r}
		case t.kind == tokOp && t.text == "%" && p.percentFollows():
			p.next()
			v = value{v: v.v / 100, pct: true}
			if n := p.peek(); n.kind == tokIdent && n.text == "of" {
				p.next()
				of, err := p.unary()
				if err != nil {
					return value{}, err
				}
				v = value{v: v.v * of.v}
			}
		default:
			return v, nil
		}
	}
}

// percentFollows reports whether the '%' at the cursor is a percent sign
// rather than the modulo operator: it is one when no operand follows it
// ("50%", "15% of 80", "80 + 15% - 2").
func (p *parser) percentFollows() bool {
	n := p.toks[p.i+1]
	switch n.kind {
	case tokEOF:
		return true
	case tokNum:
		return false
	case tokIdent:
		return n.text == "of" || n.text == "mod"
	}
	return n.text != "("
}

func (p *parser) primary() (value, error) {
	t := p.next()
	switch t.kind {
	case tokNum:
		return value{v: t.num}, nil
	case tokIdent:
		if c, ok := constants[t.text]; ok {
			return value{v: c}, nil
		}
		f, ok := functions[t.text]
		if !ok {
			if t.text == "of" {
				return value{}, &Error{Pos: t.pos, Msg: "'of' must follow a percentage, as in \"15% of 80\""}
			}
			return value{}, &Error{Pos: t.pos, Msg: fmt.Sprintf("unknown function or constant %q (known: %s)", t.text, knownNames())}
		}
		return p.call(t, f)
	case tokOp:
		if t.text == "(" {
			if err := p.enter(); err != nil {
				return value{}, err
			}
			defer func() { p.depth-- }()
			v, err := p.expr()
			if err != nil {
				return value{}, err
			}
			if !p.isOp(")") {
				return value{}, &Error{Pos: t.pos, Msg: "unbalanced parentheses: '(' is never closed"}
			}
			p.next()
			return value{v: v.v}, nil
		}
		if t.text == ")" {
			return value{}, &Error{Pos: t.pos, Msg: "unbalanced parentheses: ')' without a matching '('"}
		}
		return value{}, &Error{Pos: t.pos, Msg: fmt.Sprintf("expected a number, found '%s'", t.text)}
	}
	return value{}, &Error{Pos: t.pos, Msg: "unexpected end of expression, expected a number"}
}

func (p *parser) call(name token, f function) (value, error) {
	if !p.isOp("(") {
		return value{}, &Error{Pos: name.pos, Msg: fmt.Sprintf("function %s needs parentheses, as in %s(%s)", name.text, name.text, f.usage)}
	}
	open := p.next()
	if err := p.enter(); err != nil {
		return value{}, err
	}
	defer func() { p.depth-- }()
	var args []float64
	if !p.isOp(")") {
		for {
			v, err := p.expr()
			if err != nil {
				return value{}, err
			}
			args = append(args, v.v)
			if p.isOp(",") {
				p.next()
				continue
			}
			break
		}
	}
	if !p.isOp(")") {
		if p.peek().kind == tokEOF {
			return value{}, &Error{Pos: open.pos, Msg: "unbalanced parentheses: '(' is never closed"}
		}
		return value{}, &Error{Pos: p.peek().pos, Msg: fmt.Sprintf("expected ',' or ')' in the arguments of %s, found %s", name.text, describe(p.peek()))}
	}
	p.next()
	if len(args) < f.min || (f.max >= 0 && len(args) > f.max) {
		return value{}, &Error{Pos: name.pos, Msg: fmt.Sprintf("%s takes %s, got %d (usage: %s(%s))", name.text, arity(f), len(args), name.text, f.usage)}
	}
	r, err := f.fn(args)
	if err != nil {
		return value{}, &Error{Pos: name.pos, Msg: fmt.Sprintf("%s: %v", name.text, err)}
	}
	return value{v: r}, nil
}

func arity(f function) string {
	switch {
	case f.max < 0:
		return fmt.Sprintf("at least %d arguments", f.min)
	case f.min == f.max && f.min == 1:
		return "1 argument"
	case f.min == f.max:
		return fmt.Sprintf("%d arguments", f.min)
	default:
		return fmt.Sprintf("%d to %d arguments", f.min, f.max)
	}
}

func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "end of expression"
	case tokNum:
		return "number " + t.text
	case tokIdent:
		return fmt.Sprintf("%q", t.text)
	}
	return "'" + t.text + "'"
}

// pyMod is the floored modulo (the sign follows the divisor), as in Python
// and spreadsheet MOD.
func pyMod(a, b float64) float64 {
	m := math.Mod(a, b)
	if m != 0 && (m < 0) != (b < 0) {
		m += b
	}
	return m
}

func knownNames() string {
	names := make([]string, 0, len(functions)+len(constants))
	for n := range functions {
		names = append(names, n)
	}
	for n := range constants {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
