package starlarkbox

import (
	"fmt"
	"math/bits"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Comparisons run inside Starlark's Go code, where no deadline can stop
// them, and compare lists element by element without noticing that two
// elements are the same object: l = [x] * 1000 repeated nine times is a few
// kilobytes but l == l would visit 1000^9 elements. Every comparison, `in`,
// sort, min, max, list.index and list.remove is therefore measured first
// and refused when it could visit more than maxCompareNodes elements.
const maxCompareNodes = 4 << 20

// maxSortNodes bounds the elements one sort, min or max may visit in all:
// sorting 500,000 pairs is about 30M visits.
const maxSortNodes = 32 << 20

// compareNodes counts the elements a comparison of v could visit (shared
// elements count every time they occur, as the comparison visits them),
// down to Starlark's comparison depth, stopping once past budget.
func compareNodes(v starlark.Value, budget int64) int64 {
	var n int64
	var walk func(v starlark.Value, depth int)
	walk = func(v starlark.Value, depth int) {
		n++
		if n > budget || depth >= starlark.CompareLimit {
			return
		}
		switch x := v.(type) {
		case *starlark.List:
			for i := 0; i < x.Len() && n <= budget; i++ {
				walk(x.Index(i), depth+1)
			}
		case starlark.Tuple:
			for _, e := range x {
				if n > budget {
					return
				}
				walk(e, depth+1)
			}
		case *starlark.Dict:
			for _, kv := range x.Items() {
				if n > budget {
					return
				}
				walk(kv[1], depth+1)
			}
		}
	}
	walk(v, 0)
	return n
}

// isContainer reports whether comparing v can recurse.
func isContainer(v starlark.Value) bool {
	switch v.(type) {
	case *starlark.List, starlark.Tuple, *starlark.Dict:
		return true
	}
	return false
}

func compareError(what string) error {
	return &LimitError{Msg: fmt.Sprintf("work limit: %s would compare more than %d elements (the values are too large or share too much)", what, maxCompareNodes)}
}

// checkCompare refuses x op y when the comparison could visit more than
// maxCompareNodes elements: it visits at most the smaller side's elements.
func checkCompare(x, y starlark.Value) error {
	if !isContainer(x) || !isContainer(y) {
		return nil
	}
	if compareNodes(x, maxCompareNodes) <= maxCompareNodes || compareNodes(y, maxCompareNodes) <= maxCompareNodes {
		return nil
	}
	return compareError("the comparison")
}

// checkMembership refuses x in seq (and seq.index(x)) when comparing x
// with every element of a list or tuple could run too long; x in a dict or
// set hashes x, which checkKey bounds.
func checkMembership(x, seq starlark.Value) error {
	switch s := seq.(type) {
	case *starlark.Dict, *starlark.Set:
		return checkKey(x)
	case *starlark.List, starlark.Tuple:
		if !isContainer(x) {
			return nil
		}
		if compareNodes(s, maxCompareNodes) <= maxCompareNodes {
			return nil
		}
		n := int64(starlark.Len(s))
		if n > 0 && compareNodes(x, maxCompareNodes/n) <= maxCompareNodes/n {
			return nil
		}
		return compareError("the membership test")
	}
	return nil
}

var cmpTokens = map[string]syntax.Token{
	"==": syntax.EQL, "!=": syntax.NEQ, "<": syntax.LT, "<=": syntax.LE, ">": syntax.GT, ">=": syntax.GE,
	"in": syntax.IN, "not in": syntax.NOT_IN,
}

// cmp is x op y for the comparison operators and in / not in, measured first.
func cmp(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 3 {
		return nil, fmt.Errorf("internal: %s wants 3 arguments", b.Name())
	}
	op, x, y := string(args[0].(starlark.String)), args[1], args[2]
	tok := cmpTokens[op]
	if tok == syntax.IN || tok == syntax.NOT_IN {
		if err := checkMembership(x, y); err != nil {
			return nil, err
		}
		return starlark.Binary(tok, x, y)
	}
	if err := checkCompare(x, y); err != nil {
		return nil, err
	}
	ok, err := starlark.Compare(tok, x, y)
	if err != nil {
		return nil, err
	}
	return starlark.Bool(ok), nil
}

// sortedGuarded wraps sorted, min and max: sorting n values compares each
// about log2(n) times, so the elements (or the keys the key function
// returns) may hold at most maxSortNodes / log2(n) elements in all.
func sortedGuarded(name string) *starlark.Builtin {
	orig := starlark.Universe[name].(*starlark.Builtin)
	return starlark.NewBuiltin(name, func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		g := guardOf(t)
		if name == "sorted" {
			if err := copiesArg(name)(g, args, kwargs); err != nil {
				return nil, err
			}
		}
		var n int
		for _, a := range args {
			n += max(starlark.Len(a), 1)
		}
		rounds := int64(bits.Len(uint(n)) + 1)
		budget := int64(maxSortNodes) / rounds
		var used int64
		for _, a := range args {
			if err := eachCompared(a, func(e starlark.Value) error {
				if !isContainer(e) {
					return nil
				}
				used += compareNodes(e, budget)
				if used > budget {
					return compareError(name + "()")
				}
				return nil
			}); err != nil {
				return nil, err
			}
		}
		kw := make([]starlark.Tuple, len(kwargs))
		for i, kv := range kwargs {
			kw[i] = kv
			fn, ok := kv[1].(starlark.Callable)
			if string(kv[0].(starlark.String)) != "key" || !ok {
				continue
			}
			kw[i] = starlark.Tuple{kv[0], starlark.NewBuiltin(fn.Name(), func(t *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
				k, err := starlark.Call(t, fn, args, kwargs)
				if err != nil || !isContainer(k) {
					return k, err
				}
				used += compareNodes(k, budget)
				if used > budget {
					return nil, compareError(name + "()")
				}
				return k, nil
			})}
		}
		r, err := starlark.Call(t, orig, args, kw)
		if err != nil || name != "sorted" {
			return r, err
		}
		if err := g.charge(name+"()", shallowSize(r)); err != nil {
			return nil, err
		}
		return r, nil
	})
}

// eachCompared calls f on the values sorted, min or max compare: the
// elements of a list, tuple, set or dict argument, or the argument itself.
func eachCompared(v starlark.Value, f func(starlark.Value) error) error {
	switch v.(type) {
	case *starlark.List, starlark.Tuple, *starlark.Set, *starlark.Dict:
	default:
		return f(v)
	}
	it := starlark.Iterate(v)
	defer it.Done()
	var e starlark.Value
	for it.Next(&e) {
		if err := f(e); err != nil {
			return err
		}
	}
	return nil
}
