package starlarkbox

import (
	"math"

	"go.starlark.net/starlark"
)

// toJSON converts a Starlark value to plain JSON values (nil, bool,
// float64 or int64, string, []any, map[string]any). Integers beyond int64
// and values with no JSON form become their repr string; dict keys that
// are not strings become their str.
func toJSON(v starlark.Value, g *guard) (any, error) {
	if err := g.checkPrinted("the result", v); err != nil {
		return nil, err
	}
	return convert(v, 0), nil
}

const maxConvertDepth = 64

func convert(v starlark.Value, depth int) any {
	if depth > maxConvertDepth {
		return v.String()
	}
	switch x := v.(type) {
	case starlark.NoneType:
		return nil
	case starlark.Bool:
		return bool(x)
	case starlark.Int:
		if i, ok := x.Int64(); ok && i >= -(1<<53) && i <= 1<<53 {
			return i
		}
		return x.String()
	case starlark.Float:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return x.String()
		}
		return f
	case starlark.String:
		return string(x)
	case *starlark.List:
		out := make([]any, x.Len())
		for i := range out {
			out[i] = convertChild(x, x.Index(i), depth)
		}
		return out
	case starlark.Tuple:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = convert(e, depth+1)
		}
		return out
	case *starlark.Set:
		out := make([]any, 0, x.Len())
		it := x.Iterate()
		defer it.Done()
		var e starlark.Value
		for it.Next(&e) {
			out = append(out, convert(e, depth+1))
		}
		return out
	case *starlark.Dict:
		out := make(map[string]any, x.Len())
		items := x.Items()
		for _, kv := range items {
			key, ok := kv[0].(starlark.String)
			k := string(key)
			if !ok {
				k = kv[0].String()
			}
			out[k] = convertChild(x, kv[1], depth)
		}
		return out
	}
	return v.String()
}

// convertChild converts a container's element, printing a reference back
// to the container itself as Starlark does.
func convertChild(parent, child starlark.Value, depth int) any {
	if child == parent {
		return "[...]"
	}
	return convert(child, depth+1)
}
