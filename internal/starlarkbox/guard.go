package starlarkbox

import (
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

const guardKey = "starlarkbox.guard"

// Sizes are in bytes: a string's length, 16 per list or tuple element and
// 32 per dict or set entry, the cost of the slots Starlark allocates.
const (
	elemSize  = 16
	entrySize = 32
	// maxIntBits bounds integers built by * and <<, so arithmetic on them
	// stays fast; about 30,000 decimal digits.
	maxIntBits = 100_000
	// maxIntDigits is Python's limit on int(str) conversion.
	maxIntDigits = 4300
	// maxRange bounds range(); no loop can run longer than MaxSteps anyway.
	maxRange = 10_000_000
)

// guard counts the size of the values a program builds and refuses any
// operation whose result would exceed the limits.
type guard struct {
	lim       Limits
	allocated int64
	// stopped is set, with the reason, when the run's deadline passes or
	// its caller cancels it; built-ins that loop in Go check it, since
	// Starlark checks its own cancellation only between steps.
	stopped atomic.Pointer[string]
}

// stop cancels the run: the thread at its next step, guarded built-ins at
// their next check.
func (g *guard) stop(t *starlark.Thread, reason string) {
	g.stopped.Store(&reason)
	t.Cancel(reason)
}

// checkStopped is the error of a built-in that noticed the run was stopped.
func (g *guard) checkStopped() error {
	if r := g.stopped.Load(); r != nil {
		return &stoppedError{reason: *r}
	}
	return nil
}

// stoppedError is a built-in interrupted by the deadline or the caller;
// its message is the reason, as Starlark's own cancellation gives it.
type stoppedError struct{ reason string }

func (e *stoppedError) Error() string { return "Starlark computation cancelled: " + e.reason }

// LimitError is a refused operation; it reaches the caller as KindLimit.
type LimitError struct{ Msg string }

func (e *LimitError) Error() string { return e.Msg }

func guardOf(t *starlark.Thread) *guard { return t.Local(guardKey).(*guard) }

// charge accounts for a value of size n about to be built.
func (g *guard) charge(what string, n int64) error {
	if n > g.lim.MaxValueSize || n < 0 {
		return &LimitError{Msg: fmt.Sprintf("memory limit: %s would build a value of about %s, more than the %s allowed for one value", what, human(n), human(g.lim.MaxValueSize))}
	}
	g.allocated += n
	if g.allocated > g.lim.MaxAllocated {
		return &LimitError{Msg: fmt.Sprintf("memory limit: the program built more than %s of values in total", human(g.lim.MaxAllocated))}
	}
	return nil
}

func human(n int64) string {
	switch {
	case n < 0 || n >= 1<<40:
		return "more than 1 TiB"
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// shallowSize is the size of v's own storage, not of what it refers to.
func shallowSize(v starlark.Value) int64 {
	switch v := v.(type) {
	case starlark.String:
		return int64(len(v))
	case starlark.Bytes:
		return int64(len(v))
	case *starlark.List:
		return int64(v.Len()) * elemSize
	case starlark.Tuple:
		return int64(len(v)) * elemSize
	case *starlark.Dict:
		return int64(v.Len()) * entrySize
	case *starlark.Set:
		return int64(v.Len()) * entrySize
	case starlark.Int:
		if _, ok := v.Int64(); ok {
			return 8 // without BigInt, which allocates a copy
		}
		return int64(v.BigInt().BitLen()/8) + 8
	}
	return elemSize
}

// deepSize estimates the size of v's printed form, stopping as soon as it
// exceeds budget so that huge or shared structures cost little to measure.
// A value nested deeper than maxNesting is refused: printing, encoding or
// hashing it recurses once per level in Go, where no deadline can stop it
// and a deep enough value overflows the stack and ends the process.
func deepSize(v starlark.Value, budget int64) (int64, error) {
	w := walker{budget: budget, onPath: map[starlark.Value]bool{}}
	w.walk(v, 0)
	return w.total, w.err
}

// maxNesting bounds how deeply containers may nest in a value that is
// printed, encoded, hashed or decoded. Python's own repr and json give up
// near 1,000 levels; data an agent handles is a few levels deep.
const maxNesting = 200

// walker is deepSize's state. onPath holds the mutable containers being
// walked (a cycle prints as [...]); a map keeps each check O(1) however
// deep the value.
type walker struct {
	total, budget int64
	onPath        map[starlark.Value]bool
	err           error
}

func (w *walker) walk(v starlark.Value, depth int) {
	if w.total > w.budget || w.err != nil {
		return
	}
	switch x := v.(type) {
	case starlark.String, starlark.Bytes, starlark.Int:
		w.total += shallowSize(v) + 2
		return
	case *starlark.List, starlark.Tuple, *starlark.Dict, *starlark.Set:
		if depth >= maxNesting {
			w.err = nestingError("the value")
			return
		}
		if _, isTuple := x.(starlark.Tuple); !isTuple {
			if w.onPath[v] {
				w.total += 5 // a cycle prints as [...]
				return
			}
			w.onPath[v] = true
			defer delete(w.onPath, v)
		}
		w.total += 2
		switch x := x.(type) {
		case *starlark.Dict:
			for _, kv := range x.Items() {
				w.total += 4
				w.walk(kv[0], depth+1)
				w.walk(kv[1], depth+1)
				if w.total > w.budget || w.err != nil {
					return
				}
			}
		case starlark.Tuple:
			// Indexed, not iterated: an iterator per element would make
			// measuring a widely shared tuple allocate millions of times.
			for _, e := range x {
				w.elem(e, depth)
				if w.total > w.budget || w.err != nil {
					return
				}
			}
		case *starlark.List:
			for i := 0; i < x.Len(); i++ {
				w.elem(x.Index(i), depth)
				if w.total > w.budget || w.err != nil {
					return
				}
			}
		case *starlark.Set:
			it := x.Iterate()
			defer it.Done()
			var e starlark.Value
			for it.Next(&e) {
				w.elem(e, depth)
				if w.total > w.budget || w.err != nil {
					return
				}
			}
		}
		return
	}
	w.total += 24
}

func (w *walker) elem(e starlark.Value, depth int) {
	w.total += 2
	w.walk(e, depth+1)
}

func nestingError(what string) error {
	return &LimitError{Msg: fmt.Sprintf("nesting limit: %s is nested more than %d levels deep", what, maxNesting)}
}

// checkPrinted refuses to turn values into text longer than one value may be.
func (g *guard) checkPrinted(what string, vs ...starlark.Value) error {
	var n int64
	for _, v := range vs {
		m, err := deepSize(v, g.lim.MaxValueSize+1)
		if err != nil {
			return err
		}
		n += m
		if n > g.lim.MaxValueSize {
			break
		}
	}
	return g.charge(what, n)
}

func isNumber(v starlark.Value) bool {
	switch v.(type) {
	case starlark.Int, starlark.Float:
		return true
	}
	return false
}

// sizeOf predicts the size of x op y without computing it.
func (g *guard) sizeOf(op string, x, y starlark.Value) (int64, error) {
	if isNumber(x) && isNumber(y) {
		xi, xok := x.(starlark.Int)
		yi, yok := y.(starlark.Int)
		if !xok || !yok {
			return 0, nil
		}
		switch op {
		case "*":
			bits := xi.BigInt().BitLen() + yi.BigInt().BitLen()
			if bits > maxIntBits {
				return 0, &LimitError{Msg: fmt.Sprintf("memory limit: integer multiplication would give a number of about %d bits, more than the %d-bit limit", bits, maxIntBits)}
			}
		case "<<":
			if s, ok := yi.Int64(); ok && s > 0 && int64(xi.BigInt().BitLen())+s > maxIntBits {
				return 0, &LimitError{Msg: fmt.Sprintf("memory limit: the shift would give a number of more than %d bits", maxIntBits)}
			}
		}
		return 0, nil
	}
	switch op {
	case "+":
		return shallowSize(x) + shallowSize(y), nil
	case "*":
		seq, n := x, y
		if _, ok := x.(starlark.Int); ok {
			seq, n = y, x
		}
		k, ok := n.(starlark.Int)
		if !ok {
			return 0, nil
		}
		cnt, ok := k.Int64()
		if !ok {
			return -1, nil
		}
		if cnt <= 0 {
			return 0, nil
		}
		unit := shallowSize(seq)
		if unit > 0 && cnt > (1<<50)/unit {
			return -1, nil
		}
		return unit * cnt, nil
	case "%":
		if s, ok := x.(starlark.String); ok {
			m, err := deepSize(y, g.lim.MaxValueSize+1)
			if err != nil {
				return 0, err
			}
			return int64(len(s)) + int64(strings.Count(string(s), "%"))*m, nil
		}
	}
	return 0, nil
}

var opTokens = map[string]syntax.Token{"+": syntax.PLUS, "*": syntax.STAR, "%": syntax.PERCENT, "<<": syntax.LTLT}

// binop is a + b, a * b, a % b and a << b with a size check first.
func binop(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("internal: %s wants 3 arguments", b.Name())
	}
	op, x, y := string(args[0].(starlark.String)), args[1], args[2]
	g := guardOf(t)
	n, err := g.sizeOf(op, x, y)
	if err != nil {
		return nil, err
	}
	if n != 0 {
		if err := g.charge(fmt.Sprintf("%s %s %s", x.Type(), op, y.Type()), n); err != nil {
			return nil, err
		}
	}
	return starlark.Binary(opTokens[op], x, y)
}

// augcheck checks x op= y and returns y, leaving the in-place update to Starlark.
func augcheck(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	op, x, y := string(args[0].(starlark.String)), args[1], args[2]
	g := guardOf(t)
	n, err := g.sizeOf(op, x, y)
	if err != nil {
		return nil, err
	}
	if n != 0 {
		if err := g.charge(fmt.Sprintf("%s %s= %s", x.Type(), op, y.Type()), n); err != nil {
			return nil, err
		}
	}
	return y, nil
}

// maxKeyNodes bounds the work of hashing one key.
const maxKeyNodes = 1 << 20

// checkKey refuses a tuple key whose hashing would walk more than
// maxKeyNodes elements (shared sub-tuples count every time they occur).
func checkKey(v starlark.Value) error {
	t, ok := v.(starlark.Tuple)
	if !ok || len(t) == 0 {
		return nil
	}
	n, err := deepSize(t, maxKeyNodes)
	if err != nil {
		return err
	}
	if n > maxKeyNodes {
		return keyError()
	}
	return nil
}

func keyError() error {
	return &LimitError{Msg: "memory limit: this tuple is too large (or too deeply shared) to be used as a key"}
}

// key checks a value about to be used as a dict or set key and returns it.
func key(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if err := checkKey(args[0]); err != nil {
		return nil, err
	}
	return args[0], nil
}

// maxKeyWork bounds the hashing one built-in call may do in all: set(l)
// hashes every element of l, and a list of 500,000 copies of a tuple just
// under maxKeyNodes would take hours.
const maxKeyWork = 16 << 20

// keysOf checks every element of a built-in's iterable argument as a key,
// one by one and all together.
func keysOf(g *guard, args starlark.Tuple, kwargs []starlark.Tuple) error {
	if err := copiesArg("")(g, args, kwargs); err != nil {
		return err
	}
	var work int64
	check := func(v starlark.Value) error {
		if t, ok := v.(starlark.Tuple); ok && len(t) > 0 {
			n, err := deepSize(t, maxKeyWork)
			if err != nil {
				return err
			}
			if n > maxKeyNodes {
				return keyError()
			}
			if work += n; work > maxKeyWork {
				return &LimitError{Msg: "memory limit: these tuples are too large together (or too deeply shared) to be used as keys"}
			}
		}
		return nil
	}
	for _, a := range args {
		if err := check(a); err != nil {
			return err
		}
		switch seq := a.(type) {
		case *starlark.List, starlark.Tuple:
			ix := seq.(starlark.Indexable)
			for i := 0; i < ix.Len(); i++ {
				if err := check(ix.Index(i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// chargeResult accounts for a value already built (a slice copy).
func chargeResult(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v := args[0]
	if err := guardOf(t).charge("slicing", shallowSize(v)); err != nil {
		return nil, err
	}
	return v, nil
}

// attr is obj.name; built-in methods come back wrapped by the guard.
func attr(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	x, name := args[0], string(args[1].(starlark.String))
	ha, ok := x.(starlark.HasAttrs)
	if !ok {
		return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
	}
	v, err := ha.Attr(name)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
	}
	if fn, ok := v.(*starlark.Builtin); ok {
		return guardMethod(fn), nil
	}
	return v, nil
}

// guardMethod wraps a built-in method: methods that can multiply sizes
// are checked before they run, all are charged for what they return.
func guardMethod(fn *starlark.Builtin) *starlark.Builtin {
	recv := fn.Receiver()
	return starlark.NewBuiltin(fn.Name(), func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		g := guardOf(t)
		if err := precheckMethod(g, fn.Name(), recv, args, kwargs); err != nil {
			return nil, err
		}
		r, err := starlark.Call(t, fn, args, kwargs)
		if err != nil || !buildingMethods[fn.Name()] {
			return r, err
		}
		if err := g.charge(fn.Name()+"()", shallowSize(r)); err != nil {
			return nil, err
		}
		return r, nil
	})
}

// buildingMethods return new values (charged); the others return values
// that already exist (d.get, l.pop) or small ones.
var buildingMethods = map[string]bool{
	"split": true, "rsplit": true, "splitlines": true, "join": true, "replace": true, "format": true,
	"upper": true, "lower": true, "title": true, "capitalize": true, "strip": true, "lstrip": true,
	"rstrip": true, "removeprefix": true, "removesuffix": true, "partition": true, "rpartition": true,
	"elems": true, "codepoints": true, "elem_ords": true, "codepoint_ords": true,
	"items": true, "keys": true, "values": true,
	"json.encode": true, "json.indent": true, "json.encode_indent": true,
}

// keyMethods take a key as their first argument.
var keyMethods = map[string]bool{"get": true, "pop": true, "setdefault": true, "add": true, "remove": true, "discard": true}

// keysMethods hash every element of their iterable arguments.
var keysMethods = map[string]bool{
	"update": true, "union": true, "intersection": true, "difference": true, "symmetric_difference": true,
	"issubset": true, "issuperset": true, "isdisjoint": true,
}

// precheckMethod refuses a method call whose result would be too large
// or whose work (hashing, comparing, printing) would run too long.
func precheckMethod(g *guard, name string, recv starlark.Value, args starlark.Tuple, kwargs []starlark.Tuple) error {
	budget := g.lim.MaxValueSize + 1
	if keyMethods[name] && len(args) > 0 {
		if err := checkKey(args[0]); err != nil {
			return err
		}
	}
	if keysMethods[name] {
		// keysOf checks each element of a list or tuple argument, and a
		// pair (k, v) for dict.update whole; a set's or dict's own
		// elements were hashed when they were added.
		if err := keysOf(g, args, nil); err != nil {
			return err
		}
	}
	var n int64
	switch name {
	case "index", "remove":
		// list.index and list.remove compare x with every element.
		if _, isList := recv.(*starlark.List); isList && len(args) > 0 {
			if err := checkMembership(args[0], recv); err != nil {
				return err
			}
		}
	case "join":
		if sep, ok := recv.(starlark.String); ok && len(args) == 1 {
			var total int64
			cnt := int64(0)
			it := starlark.Iterate(args[0])
			if it == nil {
				return nil
			}
			defer it.Done()
			var e starlark.Value
			for it.Next(&e) && total <= budget {
				total += shallowSize(e)
				cnt++
			}
			n = total + cnt*int64(len(sep))
		}
	case "replace":
		if s, ok := recv.(starlark.String); ok && len(args) >= 2 {
			old, ok1 := args[0].(starlark.String)
			nw, ok2 := args[1].(starlark.String)
			if ok1 && ok2 {
				count := int64(strings.Count(string(s), string(old)))
				n = int64(len(s)) + count*int64(len(nw))
			}
		}
	case "format":
		if s, ok := recv.(starlark.String); ok {
			var largest int64
			vs := append(starlark.Tuple(nil), args...)
			for _, kv := range kwargs {
				vs = append(vs, kv[1])
			}
			for _, a := range vs {
				m, err := deepSize(a, budget)
				if err != nil {
					return err
				}
				largest = max(largest, m)
			}
			n = int64(len(s)) + int64(strings.Count(string(s), "{"))*largest
		}
	case "extend":
		if len(args) == 1 {
			if l := starlark.Len(args[0]); l > 0 {
				n = int64(l+starlark.Len(recv)) * elemSize
			}
		}
	case "json.encode", "json.indent", "json.encode_indent":
		if len(args) >= 1 {
			// The encoded text is about as long as the printed value
			// (escapes can make it longer: the result is charged too).
			m, err := deepSize(args[0], budget)
			if err != nil {
				return err
			}
			n = m
		}
	case "json.decode":
		if len(args) >= 1 {
			if s, ok := args[0].(starlark.String); ok {
				m, err := scanJSON(string(s))
				if err != nil {
					return err
				}
				n = m
			}
		}
	}
	if n > 0 {
		return g.charge(name+"()", n)
	}
	return nil
}

// checkedBuiltin wraps a Universe built-in so that its argument is checked
// before it runs (pre) and its result charged after.
func checkedBuiltin(name string, pre func(g *guard, args starlark.Tuple, kwargs []starlark.Tuple) error) *starlark.Builtin {
	orig := starlark.Universe[name].(*starlark.Builtin)
	return starlark.NewBuiltin(name, func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		g := guardOf(t)
		if pre != nil {
			if err := pre(g, args, kwargs); err != nil {
				return nil, err
			}
		}
		r, err := starlark.Call(t, orig, args, kwargs)
		if err != nil {
			return nil, err
		}
		if err := g.charge(name+"()", shallowSize(r)); err != nil {
			return nil, err
		}
		return r, nil
	})
}

// copiesArg checks a built-in that copies its iterable argument, before the copy.
func copiesArg(name string) func(g *guard, args starlark.Tuple, kwargs []starlark.Tuple) error {
	return func(g *guard, args starlark.Tuple, _ []starlark.Tuple) error {
		var n int64
		for _, a := range args {
			if l := starlark.Len(a); l > 0 {
				n += int64(l) * entrySize
			}
		}
		if n > g.lim.MaxValueSize {
			return g.charge(name+"()", n)
		}
		return nil
	}
}

func printsArgs(name string) func(g *guard, args starlark.Tuple, kwargs []starlark.Tuple) error {
	return func(g *guard, args starlark.Tuple, kwargs []starlark.Tuple) error {
		vs := append(starlark.Tuple(nil), args...)
		for _, kv := range kwargs {
			vs = append(vs, kv[1])
		}
		return g.checkPrinted(name+"()", vs...)
	}
}

func checkRange(g *guard, args starlark.Tuple, _ []starlark.Tuple) error {
	var start, stop, step int64 = 0, 0, 1
	ints := make([]int64, 0, 3)
	for _, a := range args {
		i, ok := a.(starlark.Int)
		if !ok {
			return nil // the real range reports the type error
		}
		v, ok := i.Int64()
		if !ok {
			return &LimitError{Msg: fmt.Sprintf("range(): %s is too large for the sandbox", i)}
		}
		ints = append(ints, v)
	}
	switch len(ints) {
	case 1:
		stop = ints[0]
	case 2:
		start, stop = ints[0], ints[1]
	case 3:
		start, stop, step = ints[0], ints[1], ints[2]
	default:
		return nil
	}
	if step == 0 {
		return nil
	}
	n := new(big.Int).Sub(big.NewInt(stop), big.NewInt(start))
	n.Quo(n, big.NewInt(step))
	if n.Cmp(big.NewInt(maxRange)) > 0 {
		return &LimitError{Msg: fmt.Sprintf("range(): %s elements is more than the sandbox's %d (no loop may run longer than the step limit anyway)", n, maxRange)}
	}
	return nil
}

func checkInt(g *guard, args starlark.Tuple, _ []starlark.Tuple) error {
	if len(args) > 0 {
		if s, ok := args[0].(starlark.String); ok && len(s) > maxIntDigits {
			return &LimitError{Msg: fmt.Sprintf("int(): a string of %d digits exceeds the limit of %d digits for integer conversion", len(s), maxIntDigits)}
		}
	}
	return nil
}

// getattrGuarded is getattr(obj, name[, default]) with guarded methods.
func getattrGuarded(t *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	orig := starlark.Universe["getattr"].(*starlark.Builtin)
	v, err := starlark.Call(t, orig, args, kwargs)
	if err != nil {
		return nil, err
	}
	if fn, ok := v.(*starlark.Builtin); ok {
		return guardMethod(fn), nil
	}
	return v, nil
}
