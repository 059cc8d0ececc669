package callcheck

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/understudy/understudy/internal/starlarkbox"
	"github.com/understudy/understudy/toolset"
)

// Code is judged by what it does, not how it is written: print("%.2f" %
// avg) and print(round(avg, 2)) are the same call when both print 14.8.
// Gold and reply run in the interpreter the code tool's stand-in uses,
// with the same limits, and compare what they print, the value of their
// last line and whether (and how) they fail.

// interpreter bounds the scorer's runs together, as the stand-in's pool
// bounds the tool's.
var interpreter = starlarkbox.NewPool(starlarkbox.DefaultPoolLimits)

// IsCodeParam tells whether p is the program of a code-running tool (a
// Python interpreter's code): its value is judged by effect.
func IsCodeParam(api *toolset.API, p *toolset.Param) bool {
	if api == nil || p == nil || p.Kind != toolset.KindString {
		return false
	}
	switch p.Name {
	case "code", "script", "program", "source":
	default:
		return false
	}
	tool := ""
	if api.Tool != nil {
		tool = api.Tool.StandardizedName + " " + api.Tool.Name
	}
	return strings.Contains(strings.ToLower(tool), "python")
}

// effect is what a program did: its output, its last value and its
// failure's kind ("" when it ran through).
type effect struct {
	output string
	value  any
	fail   string
}

// runEffect runs code in the interpreter; ok is false when it could not
// run at all (the pool is busy, the context ended), so that nothing is
// judged on a run that did not happen.
func runEffect(code string) (effect, bool) {
	res, err := interpreter.Run(context.Background(), code, starlarkbox.Limits{})
	var e effect
	if res != nil {
		e.output, e.value = res.Output, res.Value
	}
	if err != nil {
		var be *starlarkbox.Error
		if !errors.As(err, &be) {
			return effect{}, false
		}
		e.fail = string(be.Kind)
	}
	return e, true
}

// SameEffect tells whether two programs print the same, end on the same
// value and fail alike. A program that fails matches only one failing the
// same way with the same output.
func SameEffect(want, got string) bool {
	if want == got {
		return true
	}
	w, ok := runEffect(want)
	if !ok {
		return false
	}
	g, ok := runEffect(got)
	if !ok {
		return false
	}
	if w.fail != g.fail || !sameOutput(w.output, g.output) {
		return false
	}
	if w.value == nil || g.value == nil {
		return w.value == nil && g.value == nil
	}
	return SameValue(w.value, g.value)
}

// outputNumber finds the numbers of a program's output.
var outputNumber = regexp.MustCompile(`-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`)

// sameOutput compares two programs' printed output: the same text between
// the numbers, and the numbers by value (14.80 is 14.8), trailing blanks
// aside.
func sameOutput(a, b string) bool {
	a, b = strings.TrimRight(a, "\n "), strings.TrimRight(b, "\n ")
	if a == b {
		return true
	}
	an, bn := outputNumber.FindAllStringIndex(a, -1), outputNumber.FindAllStringIndex(b, -1)
	if len(an) != len(bn) {
		return false
	}
	pa, pb := 0, 0
	for i := range an {
		if a[pa:an[i][0]] != b[pb:bn[i][0]] {
			return false
		}
		x, err1 := strconv.ParseFloat(a[an[i][0]:an[i][1]], 64)
		y, err2 := strconv.ParseFloat(b[bn[i][0]:bn[i][1]], 64)
		if err1 != nil || err2 != nil || !sameFloat(x, y) {
			return false
		}
		pa, pb = an[i][1], bn[i][1]
	}
	return a[pa:] == b[pb:]
}
