package starlarkbox

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"go.starlark.net/lib/json"
	slmath "go.starlark.net/lib/math"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// forbidden are Python names for file, OS, network and dynamic-code access.
// They are defined so that using one fails with a clear message rather
// than "undefined".
var forbidden = []string{
	"open", "input", "exec", "eval", "compile", "__import__", "globals", "locals", "vars",
	"exit", "quit", "breakpoint", "help", "memoryview", "id",
}

// forbiddenModules are Python modules for the same; any use of one of
// their attributes fails.
var forbiddenModules = []string{"os", "sys", "subprocess", "socket", "requests", "urllib", "http", "shutil", "pathlib", "io"}

// forbiddenModule stands for a module the sandbox does not have.
type forbiddenModule string

var _ starlark.HasAttrs = forbiddenModule("")

func (m forbiddenModule) String() string        { return "<module " + string(m) + ">" }
func (m forbiddenModule) Type() string          { return "module" }
func (m forbiddenModule) Freeze()               {}
func (m forbiddenModule) Truth() starlark.Bool  { return starlark.True }
func (m forbiddenModule) Hash() (uint32, error) { return starlark.String(m).Hash() }
func (m forbiddenModule) AttrNames() []string   { return nil }
func (m forbiddenModule) Attr(name string) (starlark.Value, error) {
	return nil, &forbiddenError{name: string(m) + "." + name}
}

// predeclared is the sandbox's global environment. It is built per run
// because guarded built-ins are cheap and runs must not share state.
func predeclared() starlark.StringDict {
	d := starlark.StringDict{
		fnBinop:  starlark.NewBuiltin(fnBinop, binop),
		fnAug:    starlark.NewBuiltin(fnAug, augcheck),
		fnAttr:   starlark.NewBuiltin(fnAttr, attr),
		fnCharge: starlark.NewBuiltin(fnCharge, chargeResult),
		fnKey:    starlark.NewBuiltin(fnKey, key),
		fnCmp:    starlark.NewBuiltin(fnCmp, cmp),

		"print":     checkedBuiltin("print", printsArgs("print")),
		"str":       checkedBuiltin("str", printsArgs("str")),
		"repr":      checkedBuiltin("repr", printsArgs("repr")),
		"list":      checkedBuiltin("list", copiesArg("list")),
		"tuple":     checkedBuiltin("tuple", copiesArg("tuple")),
		"sorted":    sortedGuarded("sorted"),
		"min":       sortedGuarded("min"),
		"max":       sortedGuarded("max"),
		"reversed":  checkedBuiltin("reversed", copiesArg("reversed")),
		"dict":      checkedBuiltin("dict", keysOf),
		"set":       checkedBuiltin("set", keysOf),
		"hash":      checkedBuiltin("hash", keysOf),
		"fail":      checkedBuiltin("fail", printsArgs("fail")),
		"enumerate": checkedBuiltin("enumerate", copiesArg("enumerate")),
		"zip":       checkedBuiltin("zip", copiesArg("zip")),
		"bytes":     checkedBuiltin("bytes", copiesArg("bytes")),
		"range":     checkedBuiltin("range", checkRange),
		"int":       checkedBuiltin("int", checkInt),
		"getattr":   starlark.NewBuiltin("getattr", getattrGuarded),

		"sum":    starlark.NewBuiltin("sum", sum),
		"round":  starlark.NewBuiltin("round", round),
		"pow":    starlark.NewBuiltin("pow", pow),
		"divmod": starlark.NewBuiltin("divmod", divmod),
		"math":   slmath.Module,
		"json":   json.Module,
	}
	for _, name := range forbidden {
		d[name] = starlark.NewBuiltin(name, refuse)
	}
	for _, name := range forbiddenModules {
		d[name] = forbiddenModule(name)
	}
	return d
}

func refuse(_ *starlark.Thread, b *starlark.Builtin, _ starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	return nil, &forbiddenError{name: b.Name()}
}

type forbiddenError struct{ name string }

func (e *forbiddenError) Error() string {
	return fmt.Sprintf("%s is not available: the sandbox has no file, network or operating-system access", e.name)
}

// sum(iterable, start=0) as in Python.
func sum(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var it starlark.Iterable
	var acc starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackArgs("sum", args, kwargs, "iterable", &it, "start?", &acc); err != nil {
		return nil, err
	}
	g := guardOf(t)
	iter := it.Iterate()
	defer iter.Done()
	var x starlark.Value
	for i := 0; iter.Next(&x); i++ {
		// sum(range(10000000)) is one step; the deadline must still stop it.
		if i%1024 == 0 {
			if err := g.checkStopped(); err != nil {
				return nil, err
			}
		}
		r, err := binop(t, b, starlark.Tuple{starlark.String("+"), acc, x}, nil)
		if err != nil {
			return nil, fmt.Errorf("sum: %w", err)
		}
		acc = r
	}
	return acc, nil
}

// round(x, ndigits=None) rounds half to even, as Python does.
func round(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	var nd starlark.Value = starlark.None
	if err := starlark.UnpackArgs("round", args, kwargs, "number", &x, "ndigits?", &nd); err != nil {
		return nil, err
	}
	if i, ok := x.(starlark.Int); ok && nd == starlark.None {
		return i, nil
	}
	f, ok := starlark.AsFloat(x)
	if !ok {
		return nil, fmt.Errorf("round: got %s, want a number", x.Type())
	}
	if nd == starlark.None {
		r := math.RoundToEven(f)
		if math.IsInf(r, 0) || math.IsNaN(r) {
			return nil, errors.New("round: cannot convert infinity or NaN to an integer")
		}
		bf := new(big.Float).SetFloat64(r)
		bi, _ := bf.Int(nil)
		return starlark.MakeBigInt(bi), nil
	}
	n, err := starlark.AsInt32(nd)
	if err != nil {
		return nil, fmt.Errorf("round: ndigits: %w", err)
	}
	if _, isInt := x.(starlark.Int); isInt && n >= 0 {
		return x, nil
	}
	if n >= 0 {
		// Rounding the exact binary value, as Python does: round(2.675, 2) is 2.67.
		r, err := strconv.ParseFloat(strconv.FormatFloat(f, 'f', min(int(n), 340), 64), 64)
		if err != nil {
			return nil, fmt.Errorf("round: %w", err)
		}
		return starlark.Float(r), nil
	}
	p := math.Pow(10, float64(-n))
	return starlark.Float(math.RoundToEven(f/p) * p), nil
}

// pow(base, exp) for numbers; integer results stay exact.
func pow(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y starlark.Value
	if err := starlark.UnpackArgs("pow", args, kwargs, "base", &x, "exp", &y); err != nil {
		return nil, err
	}
	xi, xok := x.(starlark.Int)
	yi, yok := y.(starlark.Int)
	if xok && yok && yi.Sign() >= 0 {
		e, ok := yi.Int64()
		bits := int64(xi.BigInt().BitLen())
		if !ok || (bits > 1 && bits*e > maxIntBits) {
			return nil, &LimitError{Msg: fmt.Sprintf("memory limit: pow(%s, %s) would exceed the %d-bit integer limit", x, y, maxIntBits)}
		}
		return starlark.MakeBigInt(new(big.Int).Exp(xi.BigInt(), big.NewInt(e), nil)), nil
	}
	xf, ok1 := starlark.AsFloat(x)
	yf, ok2 := starlark.AsFloat(y)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("pow: unsupported operand types %s and %s", x.Type(), y.Type())
	}
	if xf == 0 && yf < 0 {
		return nil, errors.New("pow: 0.0 cannot be raised to a negative power")
	}
	r := math.Pow(xf, yf)
	if math.IsNaN(r) {
		return nil, errors.New("pow: math domain error (the result is a complex number)")
	}
	return starlark.Float(r), nil
}

// divmod(a, b) = (a // b, a % b).
func divmod(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x, y starlark.Value
	if err := starlark.UnpackPositionalArgs("divmod", args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	q, err := starlark.Binary(syntax.SLASHSLASH, x, y)
	if err != nil {
		return nil, err
	}
	r, err := starlark.Binary(syntax.PERCENT, x, y)
	if err != nil {
		return nil, err
	}
	return starlark.Tuple{q, r}, nil
}
