package starlarkbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// normalLimits are the default limits but for wall time, which a loaded
// machine stretches: a normal program must pass by its steps and memory,
// not by the speed of the machine running the test.
var normalLimits = Limits{Timeout: time.Minute}

func run(t *testing.T, code string) (*Result, *Error) {
	t.Helper()
	res, err := Run(context.Background(), code, normalLimits)
	require.NotNil(t, res)
	if err == nil {
		return res, nil
	}
	var e *Error
	require.True(t, errors.As(err, &e), "want *Error, got %T %v", err, err)
	return res, e
}

func TestRunValues(t *testing.T) {
	for _, tc := range []struct {
		name, code, output string
		value              any
	}{
		{"expression", "1 + 2 * 3", "", int64(7)},
		{"print", "print('hello', 42)", "hello 42\n", nil},
		{"loop", "total = 0\nfor i in range(10):\n    total += i\nprint(total)\ntotal", "45\n", int64(45)},
		{"while", "n = 0\nwhile n < 5:\n    n += 1\nn", "", int64(5)},
		{"function", "def area(w, h=2):\n    return w * h\narea(3)", "", int64(6)},
		{"strings", "s = 'ab' * 3\ns.upper()", "", "ABABAB"},
		{"format", "'{} is {:}'.format('x', 1) + ' %d%%' % 5", "", "x is 1 5%"},
		{"comprehension", "[x * x for x in range(4) if x % 2 == 0]", "", []any{int64(0), int64(4)}},
		{"dict", "d = {'a': 1}\nd['b'] = [1, 2]\nd", "", map[string]any{"a": int64(1), "b": []any{int64(1), int64(2)}}},
		{"math", "math.sqrt(16) + math.pi - math.pi", "", 4.0},
		{"json", "json.encode({'k': [1, 2]})", "", `{"k":[1,2]}`},
		{"json decode", "json.decode('[1, 2.5]')[1]", "", 2.5},
		{"sum round pow", "[sum([1, 2, 3]), round(2.675, 2), round(2.5), pow(2, 10), divmod(7, 2)]", "", []any{int64(6), 2.67, int64(2), int64(1024), []any{int64(3), int64(1)}}},
		{"big int", "pow(2, 100)", "", "1267650600228229401496703205376"},
		{"slice", "'hello world'[0:5][::-1]", "", "olleh"},
		{"set", "sorted(set([3, 1, 3]))", "", []any{int64(1), int64(3)}},
		{"list extend", "l = [1]\nl.extend([2, 3])\nl += [4]\nl", "", []any{int64(1), int64(2), int64(3), int64(4)}},
		{"join split", "'-'.join('a b c'.split(' '))", "", "a-b-c"},
		{"lambda", "f = lambda x: x + 1\nf(1)", "", int64(2)},
		{"no value", "x = 1", "", nil},
		{"float", "10 / 4", "", 2.5},
		{"getattr", "getattr('a,b', 'split')(',')", "", []any{"a", "b"}},
		{"augmented index", "l = [1, 2]\nl[0] += 5\nl", "", []any{int64(6), int64(2)}},
		{"dict keys", "d = {(1, 2): 'a', 'k': 1}\nd[(3, 4)] = 'b'\n[d[(1, 2)], (3, 4) in d, d.get((5,), 'none'), d['k']]", "", []any{"a", true, "none", int64(1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, e := run(t, tc.code)
			require.Nil(t, e)
			require.Equal(t, tc.output, res.Output)
			require.Equal(t, tc.value, res.Value)
		})
	}
}

func TestRunRefused(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		kind       ErrorKind
		msg        string
		line       int
	}{
		{"infinite loop", "while True:\n    pass", KindLimit, "step limit", 0},
		{"infinite loop in function", "def f():\n    n = 0\n    while True:\n        n += 1\nf()", KindLimit, "step limit", 0},
		{"huge string", `s = "x" * 1000000000`, KindLimit, "memory limit", 1},
		{"huge list", `l = [0] * 1000000000`, KindLimit, "memory limit", 1},
		{"doubling string", "s = 'x'\nfor i in range(64):\n    s = s + s", KindLimit, "memory limit", 3},
		{"doubling list", "l = [0]\nfor i in range(64):\n    l += l", KindLimit, "memory limit", 3},
		{"extend doubling", "l = [0]\nfor i in range(64):\n    l.extend(l)", KindLimit, "memory limit", 3},
		{"join amplifier", "s = 'x' * 1000000\nprint(len(','.join([s] * 100)))", KindLimit, "memory limit", 2},
		{"replace amplifier", "s = 'a' * 5000\nt = s.replace('a', s)", KindLimit, "memory limit", 2},
		{"repr amplifier", "s = 'x' * 1000000\nl = [s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s]\nt = str(l)", KindLimit, "memory limit", 3},
		{"nested aliasing", "l = ['x' * 1000]\nfor i in range(40):\n    l = [l, l]\nprint(l)", KindLimit, "memory limit", 4},
		{"list of range", "l = list(range(1000000000))", KindLimit, "range()", 1},
		{"int squaring", "x = 3\nfor i in range(40):\n    x = x * x", KindLimit, "bits", 3},
		{"int shifting", "x = 1\nfor i in range(1000):\n    x = x << 500", KindLimit, "bits", 3},
		{"big pow", "pow(10, 1000000)", KindLimit, "bit integer limit", 1},
		{"int parse", "int('9' * 5000)", KindLimit, "4300", 1},
		{"output flood", "for i in range(100000):\n    print('line', i)", KindLimit, "output limit", 2},
		{"recursion", "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\nfact(5)", KindUnsupported, "recursion", 2},
		{"load", `load("os", "system")`, KindForbidden, "load() is disabled", 1},
		{"open", `open("/etc/passwd").read()`, KindForbidden, "open is not available", 1},
		{"network", `requests.get("http://example.com")`, KindForbidden, "not available", 1},
		{"import", "import os\nos.system('ls')", KindUnsupported, "Python feature import is not supported", 1},
		{"from import", "from math import sqrt", KindUnsupported, "import", 1},
		{"class", "class A:\n    pass", KindUnsupported, "class", 1},
		{"try", "try:\n    x = 1\nexcept:\n    pass", KindUnsupported, "try/except", 1},
		{"with", "with open('f') as f:\n    pass", KindUnsupported, "with", 1},
		{"f-string", "x = 1\nprint(f\"x={x}\")", KindUnsupported, "f-strings", 2},
		{"power", "x = 2 ** 10", KindUnsupported, "** power operator", 1},
		{"is none", "x = None\nif x is None:\n    pass", KindUnsupported, "'is' operator", 2},
		{"syntax", "x = (1 +", KindSyntax, "got end of file", 0},
		{"undefined", "print(y)", KindSyntax, `name "y" is not defined`, 1},
		{"runtime", "x = 1 // 0", KindRuntime, "division by zero", 1},
		{"fail", `fail("boom")`, KindRuntime, "boom", 1},
		{"empty", "  \n ", KindSyntax, "no code", 0},
		{"exec", `exec("1")`, KindForbidden, "exec is not available", 1},
		{"shared tuple key", "t = (1,)\nfor i in range(60):\n    t = (t, t)\nd = {t: 1}", KindLimit, "used as a key", 4},
		{"shared tuple in", "t = (1,)\nfor i in range(60):\n    t = (t, t)\nprint(t in {})", KindLimit, "used as a key", 4},
		{"shared tuple via zip", "t = (1,)\nfor i in range(60):\n    t = list(zip([t], [t]))[0]\ns = set([t])", KindLimit, "used as a key", 4},
		{"shared tuple hash", "t = (1,)\nfor i in range(60):\n    t = (t, t)\nhash(t)", KindLimit, "used as a key", 4},
		{"shared tuple fail", "t = (1,)\nfor i in range(60):\n    t = (t, t)\nfail(t)", KindLimit, "memory limit", 4},
		{"shared tuple get", "t = (1,)\nfor i in range(60):\n    t = (t, t)\n{}.get(t)", KindLimit, "memory limit", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, e := run(t, tc.code)
			require.NotNil(t, e)
			require.Equal(t, tc.kind, e.Kind, e.Error())
			require.Contains(t, e.Msg, tc.msg)
			if tc.line > 0 {
				require.Equal(t, tc.line, e.Line, e.Error())
			}
			require.NotContains(t, e.Msg, "__")
		})
	}
}

func TestOutputKeptOnError(t *testing.T) {
	res, e := run(t, "print('before')\nx = 1 // 0")
	require.NotNil(t, e)
	require.Equal(t, "before\n", res.Output)
}

func TestOutputTruncated(t *testing.T) {
	res, err := Run(context.Background(), "for i in range(1000):\n    print('é' * 10)", Limits{MaxOutputBytes: 101})
	require.Error(t, err)
	require.True(t, res.OutputTruncated)
	require.LessOrEqual(t, len(res.Output), 101)
	require.True(t, strings.HasPrefix(res.Output, "éé"))
}

func TestTimeout(t *testing.T) {
	_, err := Run(context.Background(), "while True:\n    pass", Limits{MaxSteps: 1 << 62, Timeout: 50 * time.Millisecond})
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, KindLimit, e.Kind)
	require.Contains(t, e.Msg, "wall-time limit of 50ms")
}

func TestCallerCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, "while True:\n    pass", Limits{MaxSteps: 1 << 62})
	require.ErrorContains(t, err, "cancelled by the caller")
}

func TestSourceLimit(t *testing.T) {
	_, err := Run(context.Background(), strings.Repeat("x = 1\n", 20000), Limits{})
	require.ErrorContains(t, err, "byte limit")
}

func TestDeterministic(t *testing.T) {
	code := "d = {'b': 2, 'a': 1, 'c': [1.5, None, True]}\nprint(d)\nd"
	a, errA := Run(context.Background(), code, Limits{})
	b, errB := Run(context.Background(), code, Limits{})
	require.NoError(t, errA)
	require.NoError(t, errB)
	require.Equal(t, a, b)
}

func FuzzRun(f *testing.F) {
	for _, s := range []string{"1 + 1", "print('x' * 3)", "while True: pass", "def f(x): return f(x)\nf(1)", "[0] * 10", "import os", "x = {}\nx['a'] = x\nx", "l = [1]\nl.append(l)\nl"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		// A run that outlives its limits by far is a hang: crash loudly so
		// the fuzzer keeps the input.
		hang := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("run did not stop: %q", code)) })
		defer hang.Stop()
		res, err := Run(context.Background(), code, Limits{MaxSteps: 20000, Timeout: time.Second})
		if res == nil {
			t.Fatal("nil result")
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %v is not *Error", err, err)
			}
		}
	})
}

func BenchmarkRunSmall(b *testing.B) {
	for b.Loop() {
		if _, err := Run(context.Background(), "x = [i * i for i in range(10)]\nsum(x)", Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRunLoop(b *testing.B) {
	code := "total = 0\nfor i in range(10000):\n    total += i % 7\ntotal"
	for b.Loop() {
		if _, err := Run(context.Background(), code, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
