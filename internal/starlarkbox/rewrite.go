package starlarkbox

import (
	"strconv"

	"go.starlark.net/syntax"
)

// The program is rewritten before it is compiled so that every operation
// that can build a large value passes through the guard first:
//
//	a + b, a * b, a % b   →  __binop("+", a, b)
//	x += y (x a name)     →  x += __augcheck("+", x, y)
//	obj.attr              →  __attr(obj, "attr")  (guarded methods)
//	s[i:j]                →  __charge(s[i:j])
//	d[k], {k: v}          →  d[__key(k)], {__key(k): v}
//	a == b, a < b, k in d →  __cmp("==", a, b), __cmp("<", a, b), __cmp("in", k, d)
//
// Keys are checked because hashing a tuple walks all of it: a tuple built
// by doubling ((t, t), then ((t, t), (t, t)), ...) is small in memory but
// would take hours to hash. Comparisons are checked for the same reason
// (see compare.go).
//
// Starlark's own checks stop single allocations above 1 GiB; the guard
// stops far smaller ones and counts what the whole program builds.
const (
	fnBinop  = "__binop"
	fnAug    = "__augcheck"
	fnAttr   = "__attr"
	fnCharge = "__charge"
	fnKey    = "__key"
	fnCmp    = "__cmp"
)

func rewrite(f *syntax.File) {
	for _, s := range f.Stmts {
		rewriteStmt(s)
	}
}

func rewriteStmts(ss []syntax.Stmt) {
	for _, s := range ss {
		rewriteStmt(s)
	}
}

func rewriteStmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.AssignStmt:
		s.LHS = rewriteTarget(s.LHS)
		s.RHS = rewriteExpr(s.RHS)
		if op, ok := augOps[s.Op]; ok {
			if id, ok := s.LHS.(*syntax.Ident); ok {
				cp := &syntax.Ident{NamePos: id.NamePos, Name: id.Name}
				s.RHS = call(fnAug, s.OpPos, str(op, s.OpPos), cp, s.RHS)
			}
		}
	case *syntax.ExprStmt:
		s.X = rewriteExpr(s.X)
	case *syntax.ReturnStmt:
		if s.Result != nil {
			s.Result = rewriteExpr(s.Result)
		}
	case *syntax.IfStmt:
		s.Cond = rewriteExpr(s.Cond)
		rewriteStmts(s.True)
		rewriteStmts(s.False)
	case *syntax.ForStmt:
		s.Vars = rewriteTarget(s.Vars)
		s.X = rewriteExpr(s.X)
		rewriteStmts(s.Body)
	case *syntax.WhileStmt:
		s.Cond = rewriteExpr(s.Cond)
		rewriteStmts(s.Body)
	case *syntax.DefStmt:
		rewriteParams(s.Params)
		rewriteStmts(s.Body)
	}
}

var augOps = map[syntax.Token]string{syntax.PLUS_EQ: "+", syntax.STAR_EQ: "*", syntax.PERCENT_EQ: "%", syntax.LTLT_EQ: "<<"}

var binOps = map[syntax.Token]string{syntax.PLUS: "+", syntax.STAR: "*", syntax.PERCENT: "%", syntax.LTLT: "<<"}

var cmpOps = map[syntax.Token]string{
	syntax.EQL: "==", syntax.NEQ: "!=", syntax.LT: "<", syntax.LE: "<=", syntax.GT: ">", syntax.GE: ">=",
	syntax.IN: "in", syntax.NOT_IN: "not in",
}

// rewriteTarget rewrites inside an assignment target without changing
// its shape: a[f(x)] = v keeps the index expression assignable.
func rewriteTarget(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case *syntax.IndexExpr:
		e.X = rewriteExpr(e.X)
		e.Y = keyed(rewriteExpr(e.Y))
	case *syntax.ParenExpr:
		e.X = rewriteTarget(e.X)
	case *syntax.TupleExpr:
		for i := range e.List {
			e.List[i] = rewriteTarget(e.List[i])
		}
	case *syntax.ListExpr:
		for i := range e.List {
			e.List[i] = rewriteTarget(e.List[i])
		}
	case *syntax.DotExpr:
		e.X = rewriteExpr(e.X)
	}
	return e
}

func rewriteParams(params []syntax.Expr) {
	for _, p := range params {
		if b, ok := p.(*syntax.BinaryExpr); ok && b.Op == syntax.EQ {
			b.Y = rewriteExpr(b.Y) // default value
		}
	}
}

func rewriteExpr(e syntax.Expr) syntax.Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case *syntax.BinaryExpr:
		e.X = rewriteExpr(e.X)
		e.Y = rewriteExpr(e.Y)
		if op, ok := binOps[e.Op]; ok {
			return call(fnBinop, e.OpPos, str(op, e.OpPos), e.X, e.Y)
		}
		if op, ok := cmpOps[e.Op]; ok && !isScalarLiteral(e.X) && !isScalarLiteral(e.Y) {
			return call(fnCmp, e.OpPos, str(op, e.OpPos), e.X, e.Y)
		}
	case *syntax.UnaryExpr:
		e.X = rewriteExpr(e.X)
	case *syntax.ParenExpr:
		e.X = rewriteExpr(e.X)
	case *syntax.CondExpr:
		e.Cond = rewriteExpr(e.Cond)
		e.True = rewriteExpr(e.True)
		e.False = rewriteExpr(e.False)
	case *syntax.IndexExpr:
		e.X = rewriteExpr(e.X)
		e.Y = keyed(rewriteExpr(e.Y))
	case *syntax.SliceExpr:
		pos, _ := e.Span()
		e.X = rewriteExpr(e.X)
		e.Lo = rewriteExpr(e.Lo)
		e.Hi = rewriteExpr(e.Hi)
		e.Step = rewriteExpr(e.Step)
		return call(fnCharge, pos, e)
	case *syntax.DotExpr:
		return call(fnAttr, e.Dot, rewriteExpr(e.X), str(e.Name.Name, e.Name.NamePos))
	case *syntax.CallExpr:
		e.Fn = rewriteExpr(e.Fn)
		for i, a := range e.Args {
			switch a := a.(type) {
			case *syntax.BinaryExpr:
				if a.Op == syntax.EQ { // keyword argument
					a.Y = rewriteExpr(a.Y)
					continue
				}
			case *syntax.UnaryExpr:
				if a.Op == syntax.STAR || a.Op == syntax.STARSTAR {
					a.X = rewriteExpr(a.X)
					continue
				}
			}
			e.Args[i] = rewriteExpr(a)
		}
	case *syntax.ListExpr:
		for i := range e.List {
			e.List[i] = rewriteExpr(e.List[i])
		}
	case *syntax.TupleExpr:
		for i := range e.List {
			e.List[i] = rewriteExpr(e.List[i])
		}
	case *syntax.DictExpr:
		for _, ent := range e.List {
			if d, ok := ent.(*syntax.DictEntry); ok {
				d.Key = keyed(rewriteExpr(d.Key))
				d.Value = rewriteExpr(d.Value)
			}
		}
	case *syntax.Comprehension:
		e.Body = rewriteExpr(e.Body)
		if d, ok := e.Body.(*syntax.DictEntry); ok {
			d.Key = keyed(rewriteExpr(d.Key))
			d.Value = rewriteExpr(d.Value)
		}
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *syntax.ForClause:
				c.Vars = rewriteTarget(c.Vars)
				c.X = rewriteExpr(c.X)
			case *syntax.IfClause:
				c.Cond = rewriteExpr(c.Cond)
			}
		}
	case *syntax.LambdaExpr:
		rewriteParams(e.Params)
		e.Body = rewriteExpr(e.Body)
	}
	return e
}

// isScalarLiteral reports a number or string literal (or its negation):
// comparing anything with one is quick, so n < 10 and s == "x" are left
// alone and cost no extra steps.
func isScalarLiteral(e syntax.Expr) bool {
	if u, ok := e.(*syntax.UnaryExpr); ok && (u.Op == syntax.MINUS || u.Op == syntax.PLUS) {
		e = u.X
	}
	_, ok := e.(*syntax.Literal)
	return ok
}

// keyed wraps an expression used as a dict or set key, leaving literals
// (the common d["name"], l[0]) alone.
func keyed(e syntax.Expr) syntax.Expr {
	if _, ok := e.(*syntax.Literal); ok {
		return e
	}
	pos, _ := e.Span()
	return call(fnKey, pos, e)
}

func call(fn string, pos syntax.Position, args ...syntax.Expr) *syntax.CallExpr {
	return &syntax.CallExpr{Fn: &syntax.Ident{NamePos: pos, Name: fn}, Lparen: pos, Args: args, Rparen: pos}
}

func str(s string, pos syntax.Position) *syntax.Literal {
	return &syntax.Literal{Token: syntax.STRING, TokenPos: pos, Raw: strconv.Quote(s), Value: s}
}
