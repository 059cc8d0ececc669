package starlarkbox

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.starlark.net/starlark"

	"github.com/understudy/understudy/internal/bounded"
)

// deep builds a program that nests a list n levels deep in l, then runs tail.
func deep(n int, wrap, tail string) string {
	return "l = []\nfor i in range(" + itoa(n) + "):\n    l = " + wrap + "\n" + tail
}

func itoa(n int) string { return strconv.Itoa(n) }

// shared builds x: a list of k copies of a list of k copies ... (levels
// deep), a few kilobytes whose comparison would visit k^levels elements.
func shared(k, levels int, tail string) string {
	return "x = [0] * " + itoa(k) + "\nfor i in range(" + itoa(levels) + "):\n    x = [x] * " + itoa(k) + "\n" + tail
}

// TestHostilePrograms runs programs written to crash, hang or bloat the
// interpreter: each must end with a clear error of the run (not of the
// process) within its limits, and a normal run after it must still work.
// The first three are the ones from the hardening issue; their failures
// were a Go stack overflow that ended the process, and str() of deep lists
// running 6.5 s and minutes past the 3 s limit.
func TestHostilePrograms(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		kind       ErrorKind
		msg        []string // the error names one of these
	}{
		{"issue: json.decode 1.5M deep", "s='['*1500000+']'*1500000\nlen(json.decode(s))", KindLimit, []string{"nesting limit: json.decode"}},
		{"issue: str of list 60k deep", deep(60000, "[l]", "len(str(l))"), KindLimit, []string{"nesting limit"}},
		{"issue: str of list 300k deep", deep(300000, "[l]", "len(str(l))"), KindLimit, []string{"nesting limit"}},
		{"json.decode objects deep", "s = '{\"a\":' * 100000 + '1' + '}' * 100000\njson.decode(s)", KindLimit, []string{"nesting limit: json.decode"}},
		{"json.decode via getattr", "f = getattr(json, 'decode')\nf('[' * 100000)", KindLimit, []string{"nesting limit: json.decode"}},
		{"json.decode bound method", "f = json.decode\nf('[' * 100000 + ']' * 100000)", KindLimit, []string{"nesting limit: json.decode"}},
		{"json.decode flat and huge", "s = '[' + '0,' * 5000000 + '0]'\nlen(json.decode(s))", KindLimit, []string{"memory limit"}},
		{"json.encode deep", deep(100000, "[l]", "json.encode(l)"), KindLimit, []string{"nesting limit"}},
		{"json.encode_indent deep", deep(100000, "{'k': l}", "json.encode_indent(l)"), KindLimit, []string{"nesting limit"}},
		{"json.indent deep text", "json.indent('[' * 100000 + ']' * 100000)", KindRuntime, []string{"depth"}},
		{"json.encode cycle", "d = {}\nd['a'] = d\njson.encode(d)", KindRuntime, []string{"cycle"}},
		{"repr of dict deep", deep(100000, "{'a': l}", "repr(l)"), KindLimit, []string{"nesting limit"}},
		{"print of tuple deep", deep(100000, "(l,)", "print(l)"), KindLimit, []string{"nesting limit"}},
		{"format deep", deep(100000, "[l]", "'{}'.format(l)"), KindLimit, []string{"nesting limit"}},
		{"percent deep", deep(100000, "[l]", "'%s' % (l,)"), KindLimit, []string{"nesting limit"}},
		{"fail deep", deep(100000, "[l]", "fail(l)"), KindLimit, []string{"nesting limit"}},
		{"last value deep", deep(100000, "[l]", "l"), KindLimit, []string{"nesting limit"}},
		{"deep via append", "l = []\nc = l\nfor i in range(100000):\n    n = []\n    c.append(n)\n    c = n\nprint(l)", KindLimit, []string{"nesting limit"}},
		{"deep list literal", "x = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\nx", KindSyntax, []string{"excessive nesting"}},
		{"hash of tuple deep", deep(100000, "(l,)", "hash(l)"), KindLimit, []string{"nesting limit"}},
		{"dict key deep", deep(100000, "(l,)", "d = {l: 1}"), KindLimit, []string{"nesting limit"}},
		{"set.add deep", deep(100000, "(l,)", "s = set()\ns.add(l)"), KindLimit, []string{"nesting limit"}},
		{"dict.update deep", deep(100000, "(l,)", "d = {}\nd.update([(l, 1)])"), KindLimit, []string{"nesting limit"}},
		{"set.union shared", "t = (1,)\nfor i in range(60):\n    t = (t, t)\ns = set([1]).union([t])", KindLimit, []string{"used as a key"}},
		{"in dict deep", deep(100000, "(l,)", "l in {}"), KindLimit, []string{"nesting limit"}},
		{"equal deep", "a = []\nb = []\nfor i in range(100000):\n    a = [a]\n    b = [b]\na == b", KindRuntime, []string{"maximum recursion depth"}},
		{"equal shared", shared(1000, 8, "x == x"), KindLimit, []string{"work limit"}},
		{"not equal shared copy", shared(1000, 8, "x != list(x)"), KindLimit, []string{"work limit"}},
		{"less shared", shared(1000, 8, "x < list(x)"), KindLimit, []string{"work limit"}},
		{"in list shared", shared(100, 8, "x in [list(x)]"), KindLimit, []string{"work limit"}},
		{"dict equal shared", shared(1000, 8, "{'a': x} == {'a': list(x)}"), KindLimit, []string{"work limit"}},
		{"sorted shared", shared(100, 6, "sorted([x, list(x), list(x)])"), KindLimit, []string{"work limit"}},
		{"sorted key shared", shared(100, 6, "sorted(range(100), key=lambda i: x)"), KindLimit, []string{"work limit"}},
		{"max shared", shared(100, 6, "max(x, list(x))"), KindLimit, []string{"work limit"}},
		{"list.index shared", shared(100, 8, "[list(x)].index(x)"), KindLimit, []string{"work limit"}},
		{"list.remove shared", shared(100, 8, "[list(x)].remove(x)"), KindLimit, []string{"work limit"}},
		{"print shared dict", "d = {'a': 1}\nfor i in range(40):\n    d = {'x': d, 'y': d}\nstr(d)", KindLimit, []string{"memory limit"}},
		{"set of shared tuples", "t = (1,)\nfor i in range(60):\n    t = (t, t)\ns = set([t])", KindLimit, []string{"used as a key"}},
		{"list of huge range", "sorted(list(range(10000000)))", KindLimit, []string{"memory limit"}},
		{"set of big range", "s = set(range(1000000))", KindLimit, []string{"memory limit"}},
		{"format amplifier", "s = 'x' * 1000000\n('{0}' * 100).format(s)", KindLimit, []string{"memory limit"}},
		{"elems of big string", "s = 'x' * 16000000\nl = list(s.elems())", KindLimit, []string{"memory limit"}},
		{"huge repeat", "'a' * (1 << 62)", KindLimit, []string{"memory limit"}},
		{"endless deepening", "l = []\nwhile True:\n    l = [l]", KindLimit, []string{"step limit", "wall-time limit"}},
		{"slow scans", "s = 'a' * 10000000\nwhile True:\n    s.find('b')", KindLimit, []string{"step limit", "wall-time limit"}},
		{"big int to text", "x = pow(7, 30000)\nwhile True:\n    s = str(x)", KindLimit, []string{"step limit", "wall-time limit"}},
		{"set of many shared tuples", "t = (1,)\nfor i in range(14):\n    t = (t, t)\ns = set([t] * 500000)", KindLimit, []string{"used as keys"}},
		{"dict of many shared pairs", "t = (1,)\nfor i in range(14):\n    t = (t, t)\nd = dict([(t, 1)] * 500000)", KindLimit, []string{"used as keys"}},
		{"sum of a huge range", "while True:\n    sum(range(10000000))", KindLimit, []string{"step limit", "wall-time limit"}},
		{"uncharged comprehension", "l = [[i] for i in range(10000000)]", KindLimit, []string{"step limit", "wall-time limit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res, err := Run(context.Background(), tc.code, Limits{})
			// A generous bound: the runs that used to hang ran for minutes.
			require.Less(t, time.Since(start), 10*DefaultLimits.Timeout)
			require.NotNil(t, res)
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, tc.kind, e.Kind, e.Error())
			require.True(t, containsAny(e.Msg, tc.msg), "%q names none of %q", e.Msg, tc.msg)
			require.NotContains(t, e.Msg, "__")

			after, err := Run(context.Background(), "sum([i * i for i in range(10)])", normalLimits)
			require.NoError(t, err)
			require.Equal(t, int64(285), after.Value)
		})
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestBoundsKeepNormalPrograms: the bounds refuse only the hostile shape,
// not its everyday cousin.
func TestBoundsKeepNormalPrograms(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		value      any
	}{
		{"brackets inside JSON strings", "len(json.decode('[\"' + '[' * 100000 + '\"]')[0])", int64(100000)},
		{"escaped quote in JSON string", `json.decode('["a\\"[[", [1]]')[1]`, []any{int64(1)}},
		{"nesting just under the limit", deep(maxNesting-1, "[l]", "len(str(l))"), int64(2 * maxNesting)},
		{"json round trip under the limit", deep(maxNesting-1, "[l]", "len(json.encode(json.decode(json.encode(l))))"), int64(2 * maxNesting)},
		{"cycle prints", "l = [1]\nl.append(l)\nstr(l)", "[1, [...]]"},
		{"compare big flat lists", "a = list(range(300000))\nb = list(range(300000))\na == b", true},
		{"sorted with key", "sorted([[3, 'c'], [1, 'a'], [2, 'b']], key=lambda p: p[0])[0]", []any{int64(1), "a"}},
		{"max of lists", "max([1, 2], [1, 3])", []any{int64(1), int64(3)}},
		{"in list of lists", "[1, 2] in [[0], [1, 2]]", true},
		{"index of list", "[[0], [1, 2]].index([1, 2])", int64(1)},
		{"sort many pairs", "l = sorted([(i % 7, i) for i in range(200000)])\nl[1]", []any{int64(0), int64(7)}},
		{"set of many pairs", "len(set([(i, i + 1) for i in range(200000)]))", int64(200000)},
		{"mixed comparison", "[1 < 2, 'a' != 'b', 2 >= 2, 'x' in 'xyz', 3 not in [1, 2]]", []any{true, true, true, true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, e := run(t, tc.code)
			require.Nil(t, e)
			require.Equal(t, tc.value, res.Value)
		})
	}
	_, e := run(t, "1 < 'a'")
	require.NotNil(t, e)
	require.Equal(t, KindRuntime, e.Kind)
	require.NotContains(t, e.Msg, "__")
}

// holdRun starts a run that occupies a pool slot until its context is
// cancelled, and waits until the pool counts it.
func holdRun(t *testing.T, p *Pool, wantRunning, wantWaiting int) (cancel func(), done <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(bounded.Context(t))
	ch := make(chan error, 1)
	go func() {
		_, err := p.Run(ctx, "while True:\n    pass", Limits{MaxSteps: 1 << 62, Timeout: time.Hour})
		ch <- err
	}()
	require.Eventually(t, func() bool {
		r, w := p.Load()
		return r == wantRunning && w == wantWaiting
	}, time.Minute, time.Millisecond)
	return cancel, ch
}

func TestPoolQueuesThenRefuses(t *testing.T) {
	p := NewPool(PoolLimits{Runs: 1, Queue: 1, Wait: time.Hour})
	cancelA, doneA := holdRun(t, p, 1, 0)
	cancelB, doneB := holdRun(t, p, 1, 1) // waits for A

	_, err := p.Run(bounded.Context(t), "1 + 1", Limits{})
	var busy *BusyError
	require.ErrorAs(t, err, &busy)
	require.Equal(t, 1, busy.Running)
	require.Equal(t, 1, busy.Waiting)
	require.Positive(t, busy.RetryAfter)
	require.Contains(t, err.Error(), "busy")

	cancelA()
	require.ErrorContains(t, bounded.Recv(t, doneA, "run A to end"), "cancelled by the caller")
	require.Eventually(t, func() bool { r, w := p.Load(); return r == 1 && w == 0 }, time.Minute, time.Millisecond)
	cancelB()
	require.ErrorContains(t, bounded.Recv(t, doneB, "run B to end"), "cancelled by the caller")

	res, err := p.Run(bounded.Context(t), "1 + 1", Limits{})
	require.NoError(t, err)
	require.Equal(t, int64(2), res.Value)
	r, w := p.Load()
	require.Zero(t, r)
	require.Zero(t, w)
}

func TestPoolBoundsMemory(t *testing.T) {
	// Two runs of 256 MiB fit in 512 MiB; a third waits however many
	// slots there are.
	p := NewPool(PoolLimits{Runs: 8, Memory: 512 << 20, Queue: 1, Wait: time.Hour})
	cancelA, doneA := holdRun(t, p, 1, 0)
	cancelB, doneB := holdRun(t, p, 2, 0)
	cancelC, doneC := holdRun(t, p, 2, 1)
	_, err := p.Run(bounded.Context(t), "1", Limits{})
	require.ErrorAs(t, err, new(*BusyError))
	for _, c := range []func(){cancelA, cancelB, cancelC} {
		c()
	}
	for _, d := range []<-chan error{doneA, doneB, doneC} {
		require.Error(t, bounded.Recv(t, d, "a held run to end"))
	}

	_, err = p.Run(bounded.Context(t), "1", Limits{MaxAllocated: 1 << 30})
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, KindLimit, e.Kind)
}

func TestPoolWaitEnds(t *testing.T) {
	p := NewPool(PoolLimits{Runs: 1, Queue: 4, Wait: time.Millisecond})
	cancel, done := holdRun(t, p, 1, 0)
	defer func() { cancel(); bounded.Recv(t, done, "the held run to end") }()
	_, err := p.Run(bounded.Context(t), "1", Limits{})
	require.ErrorAs(t, err, new(*BusyError))

	ctx, stop := context.WithCancel(bounded.Context(t))
	stop()
	p2 := NewPool(PoolLimits{Runs: 1, Queue: 4, Wait: time.Hour})
	cancel2, done2 := holdRun(t, p2, 1, 0)
	defer func() { cancel2(); bounded.Recv(t, done2, "the second held run to end") }()
	_, err = p2.Run(ctx, "1", Limits{})
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
}

// TestPoolManyConcurrentRuns: sixteen memory-hungry runs at once (the
// issue's 3.3 GB) all end, each with its result or a busy error, and the
// pool is empty afterwards.
func TestPoolManyConcurrentRuns(t *testing.T) {
	p := NewPool(PoolLimits{Runs: 2, Queue: 16, Wait: time.Hour})
	code := "s = 'x' * 4000000\nl = [s + str(i) for i in range(3)]\nlen(l)"
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = p.Run(bounded.Context(t), code, Limits{})
		})
	}
	bounded.Wait(t, &wg, "16 runs")
	for _, err := range errs {
		require.NoError(t, err)
	}
	r, w := p.Load()
	require.Zero(t, r)
	require.Zero(t, w)
}

func FuzzScanJSON(f *testing.F) {
	for _, s := range []string{`[]`, `{"a": [1, "]["]}`, `"\"[["`, strings.Repeat("[", 300), `[1, 2`, `]]]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := scanJSON(s)
		if err != nil {
			var le *LimitError
			if !errors.As(err, &le) {
				t.Fatalf("error %T is not a *LimitError", err)
			}
			return
		}
		if n < int64(len(s)) {
			t.Fatalf("size %d is less than the input's %d bytes", n, len(s))
		}
	})
}

// TestLongBuiltinsStop: a built-in that loops in Go notices a stopped run
// (Starlark itself checks only between steps).
func TestLongBuiltinsStop(t *testing.T) {
	th := &starlark.Thread{}
	g := &guard{lim: DefaultLimits}
	th.SetLocal(guardKey, g)
	g.stop(th, errTimeout(3*time.Second))
	_, err := starlark.Call(th, predeclared()["sum"], starlark.Tuple{starlark.MakeInt(0)}, nil)
	require.Error(t, err) // not iterable
	rng, err := starlark.Call(th, starlark.Universe["range"], starlark.Tuple{starlark.MakeInt(10000000)}, nil)
	require.NoError(t, err)
	_, err = starlark.Call(th, predeclared()["sum"], starlark.Tuple{rng}, nil)
	var se *stoppedError
	require.ErrorAs(t, err, &se)
	e := explainRun(err, DefaultLimits, g).(*Error)
	require.Equal(t, KindLimit, e.Kind)
	require.Equal(t, "wall-time limit of 3s exceeded", e.Msg)
}

// BenchmarkHostile measures how fast the hostile programs are
// refused (they used to crash the process or run for seconds to minutes)
// and what a refusal allocates.
func BenchmarkHostile(b *testing.B) {
	for _, bc := range []struct{ name, code string }{
		{"json.decode 1.5M deep", "s='['*1500000+']'*1500000\nlen(json.decode(s))"},
		{"str 60k deep", deep(60000, "[l]", "len(str(l))")},
		{"str 300k deep", deep(300000, "[l]", "len(str(l))")},
		{"equal shared", shared(1000, 8, "x == x")},
		{"set of shared tuples", "t = (1,)\nfor i in range(14):\n    t = (t, t)\ns = set([t] * 500000)"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(context.Background(), bc.code, Limits{}); err == nil {
					b.Fatal("not refused")
				}
			}
		})
	}
}

// BenchmarkRunCompareLoop: the cost of checking every comparison.
func BenchmarkRunCompareLoop(b *testing.B) {
	code := "n = 0\nc = 0\nwhile n < 10000:\n    if n % 3 == 0 and [n] != [1]:\n        c += 1\n    n += 1\nc"
	for b.Loop() {
		if _, err := Run(context.Background(), code, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}
