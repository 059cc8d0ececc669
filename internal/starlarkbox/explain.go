package starlarkbox

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

const (
	errOutput = "output limit exceeded"
	errLoad   = "load() is disabled: the sandbox has no modules, files or network (math and json are predefined)"
)

func errTimeout(d time.Duration) string { return fmt.Sprintf("wall-time limit of %s exceeded", d) }

// feature is a Python construct Starlark lacks, how to spot it in source
// text, and what to write instead.
type feature struct {
	name string
	re   *regexp.Regexp
	hint string
}

var features = []feature{
	{"import", regexp.MustCompile(`^\s*(import\s+\w|from\s+[\w.]+\s+import\b)`), "no modules can be imported; math and json are predefined"},
	{"class", regexp.MustCompile(`^\s*class\s+\w`), "use dicts and functions instead of classes"},
	{"try/except", regexp.MustCompile(`^\s*(try|except|finally)\b[^:]*:`), "errors cannot be caught; check values before using them"},
	{"with", regexp.MustCompile(`^\s*with\s.*:`), "there are no context managers (and no files)"},
	{"raise", regexp.MustCompile(`^\s*raise\b`), "use fail(\"message\") to stop with an error"},
	{"assert", regexp.MustCompile(`^\s*assert\b`), "use if ...: fail(\"message\")"},
	{"f-strings", regexp.MustCompile(`(^|[^\w])[fF][rR]?["']`), "use \"{}\".format(x) or \"%s\" % x"},
	{"decorators", regexp.MustCompile(`^\s*@\w`), "call the wrapping function explicitly"},
	{"yield (generators)", regexp.MustCompile(`\byield\b`), "build and return a list instead"},
	{"async/await", regexp.MustCompile(`\b(async|await)\b`), "code runs synchronously"},
	{"global/nonlocal", regexp.MustCompile(`^\s*(global|nonlocal)\b`), "return new values from functions instead"},
	{"del", regexp.MustCompile(`^\s*del\b`), "use dict.pop(key) or list.pop(index)"},
	{"the 'is' operator", regexp.MustCompile(`\bis\s+(not\s+)?\w`), "use == and !="},
	{"the ** power operator", regexp.MustCompile(`[\w)\]]\s*\*\*\s*[\w(\-.]`), "use pow(x, y) or math.pow(x, y)"},
	{"the := operator", regexp.MustCompile(`:=`), "assign on a separate line"},
}

// detectUnsupported finds the first line using a Python feature Starlark
// lacks. Text inside comments is ignored; text inside strings is not
// understood, which is why this only runs after the parser has failed.
func detectUnsupported(code string) (*Error, bool) {
	for i, line := range strings.Split(code, "\n") {
		if k := strings.Index(line, "#"); k >= 0 && !strings.ContainsAny(line[:k], `"'`) {
			line = line[:k]
		}
		for _, f := range features {
			if f.re.MatchString(line) {
				return &Error{Kind: KindUnsupported, Line: i + 1, Msg: fmt.Sprintf("Python feature %s is not supported by the sandboxed interpreter (Starlark dialect): %s", f.name, f.hint)}, true
			}
		}
	}
	return nil, false
}

func explainParse(code string, err error) error {
	if e, ok := detectUnsupported(code); ok {
		return e
	}
	var se syntax.Error
	if errors.As(err, &se) {
		return &Error{Kind: KindSyntax, Line: int(se.Pos.Line), Msg: se.Msg}
	}
	return &Error{Kind: KindSyntax, Msg: err.Error()}
}

func explainResolve(code string, err error) error {
	var list resolve.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		first := list[0]
		if e, ok := detectUnsupported(code); ok && strings.Contains(first.Msg, "not allowed") {
			return e
		}
		msg := first.Msg
		if name, ok := strings.CutPrefix(msg, "undefined: "); ok {
			msg = fmt.Sprintf("name %q is not defined", name)
		}
		return &Error{Kind: KindSyntax, Line: int(first.Pos.Line), Msg: msg}
	}
	return &Error{Kind: KindSyntax, Msg: err.Error()}
}

// internalPrefixes are the guard functions' names as they appear at the
// start of error messages; the caller never wrote them.
var internalPrefixes = []string{fnBinop + ": ", fnAug + ": ", fnAttr + ": ", fnCharge + ": ", fnKey + ": ", fnCmp + ": "}

func explainRun(err error, lim Limits, g *guard) error {
	line := 0
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		for i := 0; i < len(ee.CallStack); i++ {
			if fr := ee.CallStack.At(i); fr.Pos.Filename() == "main.py" {
				line = int(fr.Pos.Line)
				break
			}
		}
	}
	var se *stoppedError
	if errors.As(err, &se) {
		if strings.Contains(se.reason, "wall-time limit") {
			return &Error{Kind: KindLimit, Line: line, Msg: se.reason}
		}
		return &Error{Kind: KindRuntime, Line: line, Msg: se.Error()}
	}
	var le *LimitError
	if errors.As(err, &le) {
		return &Error{Kind: KindLimit, Line: line, Msg: le.Msg}
	}
	var fe *forbiddenError
	if errors.As(err, &fe) {
		return &Error{Kind: KindForbidden, Line: line, Msg: fe.Error()}
	}
	msg := err.Error()
	if ee != nil {
		msg = ee.Msg
	}
	for _, p := range internalPrefixes {
		msg = strings.ReplaceAll(msg, p, "")
	}
	switch {
	case strings.Contains(msg, "too many steps"):
		return &Error{Kind: KindLimit, Line: line, Msg: fmt.Sprintf("execution step limit of %d steps exceeded: the program runs too long (an infinite loop?)", lim.MaxSteps)}
	case strings.Contains(msg, errOutput):
		return &Error{Kind: KindLimit, Line: line, Msg: fmt.Sprintf("output limit of %d bytes exceeded: print less", lim.MaxOutputBytes)}
	case strings.Contains(msg, "wall-time limit"):
		return &Error{Kind: KindLimit, Line: line, Msg: strings.TrimPrefix(msg, "Starlark computation cancelled: ")}
	case strings.Contains(msg, "called recursively"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg[strings.Index(msg, "function "):], "function "), " called recursively")
		return &Error{Kind: KindUnsupported, Line: line, Msg: fmt.Sprintf("Python feature recursion is not supported by the sandboxed interpreter (Starlark dialect): function %s calls itself; rewrite it with a loop", name)}
	case strings.Contains(msg, "load() is disabled"):
		return &Error{Kind: KindForbidden, Line: line, Msg: errLoad}
	}
	return &Error{Kind: KindRuntime, Line: line, Msg: msg}
}
