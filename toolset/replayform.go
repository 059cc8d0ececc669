package toolset

import (
	"encoding/json"
	"strings"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/internal/fuzzy"
)

// ReplayForm is the form of validated arguments that replay compares a
// call with the recorded ones by, when no recording has its exact
// arguments: what the API would read the same way is made the same, by
// each parameter's declared type. A string is trimmed and its inner runs
// of spaces made one space, and case-folded only where the parameter says
// the API ignores case (x-case-insensitive); a number, however written
// (5, 5.0, "5" for a number parameter, 5e0), is its canonical digits; an
// array's elements are made so one by one. Arguments the API does not
// declare, and values of other kinds, are left as they are. The caller's
// map is not modified.
func (a *API) ReplayForm(args map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for name, v := range args {
		out[name] = replayValue(a.Param(name), v)
	}
	return out
}

func replayValue(p *Param, v any) any {
	if p == nil {
		return v
	}
	switch x := v.(type) {
	case string:
		if p.Kind == KindNumber || p.Kind == KindInteger {
			if n, ok := canon.Number(strings.TrimSpace(x)); ok {
				return replayValue(p, n)
			}
		}
		s := strings.Join(strings.Fields(x), " ")
		if p.CaseInsensitive {
			s = strings.ToLower(s)
		}
		return s
	case float64, json.Number, int, int64:
		if b, err := canon.JSON(x); err == nil {
			return json.Number(b)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = replayValue(p, e)
		}
		return out
	}
	return v
}

// ReplayDistance says how far apart two calls' arguments are, in their
// replay forms: 0 when they are the same; each argument one of them lacks
// or holds of another kind counts 1, two different strings their edit
// distance over the longer one's length (so "Londn" is near "London"),
// other different values 1. Replay names the recorded calls nearest a
// miss by it.
func (a *API) ReplayDistance(x, y map[string]any) float64 {
	fx, fy := a.ReplayForm(x), a.ReplayForm(y)
	var d float64
	for name, vx := range fx {
		vy, ok := fy[name]
		if !ok {
			d++
			continue
		}
		d += valueDistance(vx, vy)
	}
	for name := range fy {
		if _, ok := fx[name]; !ok {
			d++
		}
	}
	return d
}

// maxDistanceLen bounds the strings compared by edit distance, whose cost
// is the product of their lengths.
const maxDistanceLen = 256

func valueDistance(x, y any) float64 {
	sx, okx := x.(string)
	sy, oky := y.(string)
	if okx && oky {
		if sx == sy {
			return 0
		}
		lx, ly := strings.ToLower(sx), strings.ToLower(sy)
		n := max(len(lx), len(ly))
		if n > maxDistanceLen {
			return 1 // long texts (code, documents) are only same or not
		}
		// A case difference alone still counts a little: the API reads it.
		return (float64(fuzzy.Levenshtein(lx, ly)) + 0.1) / float64(n+1)
	}
	bx, errx := canon.JSON(x)
	by, erry := canon.JSON(y)
	if errx == nil && erry == nil && string(bx) == string(by) {
		return 0
	}
	return 1
}
