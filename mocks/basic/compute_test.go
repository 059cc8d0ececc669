package basic

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/starlarkbox"
	"github.com/understudy/understudy/mocks/internal/standintest"
	"github.com/understudy/understudy/sandbox"
)

func TestBasicCalculator(t *testing.T) {
	r := standintest.New(t, Register).WithDefaults().Object("calculator", "calculate", nil)
	require.Equal(t, "(1,250 * 1.23 + 15% of 80) / 3", r["expression"])
	require.Equal(t, 516.5, r["result"])
	require.Equal(t, "516.5", r["result_text"])

	r = standintest.New(t, Register).WithDefaults().Object("calculator", "calculate", map[string]any{"expression": "0.1 + 0.2"})
	require.Equal(t, 0.3, r["result"])

	for _, tc := range []struct {
		expr string
		msg  string
		pos  any
	}{
		{"1 / 0", "division by zero", float64(3)},
		{"(2 + 3", "never closed", float64(1)},
		{"foo(2)", "unknown function", float64(1)},
		{"", "empty expression", nil},
	} {
		body := standintest.New(t, Register).WithDefaults().Fails(400, "calculator", "calculate", map[string]any{"expression": tc.expr})
		require.Contains(t, body["error"], tc.msg)
		require.Equal(t, tc.pos, body["position"])
	}
	require.Equal(t, standintest.New(t, Register).WithDefaults().Bytes("calculator", "calculate", nil), standintest.New(t, Register).WithDefaults().Bytes("calculator", "calculate", nil))
	require.NotEqual(t, standintest.New(t, Register).WithDefaults().Bytes("calculator", "calculate", map[string]any{"expression": "2+2"}), standintest.New(t, Register).WithDefaults().Bytes("calculator", "calculate", map[string]any{"expression": "2+3"}))
	standintest.GoldenCalls(t, "calculator.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "default", Tool: "calculator", API: "calculate", Args: nil},
		{Name: "percent", Tool: "calculator", API: "calculate", Args: map[string]any{"expression": "80 + 15%"}},
		{Name: "functions", Tool: "calculator", API: "calculate", Args: map[string]any{"expression": "round(sqrt(2) * 100, 2) + max(1, 2, 3)"}},
		{Name: "big", Tool: "calculator", API: "calculate", Args: map[string]any{"expression": "2^70"}},
		{Name: "error", Tool: "calculator", API: "calculate", Args: map[string]any{"expression": "3 * (4 + "}},
	})
}

func TestBasicPython(t *testing.T) {
	r := standintest.New(t, Register).WithDefaults().Object("python_interpreter", "run_python", nil)
	require.Equal(t, "total: 44.4\n", r["output"])
	require.Equal(t, 14.8, r["result"])
	require.Nil(t, r["error"])

	r = standintest.New(t, Register).WithDefaults().Object("python_interpreter", "run_python", map[string]any{"code": "def f(n):\n    return f(n)\nf(1)"})
	require.Equal(t, "UnsupportedFeature", r["error_type"])
	require.Contains(t, r["error"], "recursion")
	require.Equal(t, float64(2), r["line"])

	r = standintest.New(t, Register).WithDefaults().Object("python_interpreter", "run_python", map[string]any{"code": "import os"})
	require.Contains(t, r["error"], "Python feature import is not supported by the sandboxed interpreter (Starlark dialect)")

	r = standintest.New(t, Register).WithDefaults().Object("python_interpreter", "run_python", map[string]any{"code": "while True:\n    pass"})
	require.Equal(t, "LimitExceeded", r["error_type"])

	r = standintest.New(t, Register).WithDefaults().Object("python_interpreter", "run_python", map[string]any{"code": "print('start')\nopen('/etc/passwd')"})
	require.Equal(t, "SandboxViolation", r["error_type"])
	require.Equal(t, "start\n", r["output"])

	r = standintest.New(t, Register).WithDefaults().Object("python_interpreter", "run_python", map[string]any{"code": `x = "x" * 1000000000`})
	require.Equal(t, "LimitExceeded", r["error_type"])
	require.Contains(t, r["error"], "memory limit")

	standintest.GoldenCalls(t, "python_interpreter.json", standintest.New(t, Register).WithDefaults(), []standintest.Case{
		{Name: "default", Tool: "python_interpreter", API: "run_python", Args: nil},
		{Name: "json", Tool: "python_interpreter", API: "run_python", Args: map[string]any{"code": "data = json.decode('{\"a\": [1, 2, 3]}')\nprint(json.encode({'sum': sum(data['a'])}))\ndata"}},
		{Name: "fstring", Tool: "python_interpreter", API: "run_python", Args: map[string]any{"code": "name = 'x'\nprint(f'hi {name}')"}},
		{Name: "runtime", Tool: "python_interpreter", API: "run_python", Args: map[string]any{"code": "x = [1, 2]\nx[5]"}},
	})
}

func BenchmarkBasicCalculate(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "calculator", "calculate", nil)
}

func BenchmarkBasicRunPython(b *testing.B) {
	standintest.New(b, Register).WithDefaults().Bench(b, "python_interpreter", "run_python", nil)
}

// TestBasicPythonBusy: when the interpreter is at capacity the call fails
// with the engine's rate-limited kind (a 429 problem with Retry-After),
// and once a run ends the next call is served.
func TestBasicPythonBusy(t *testing.T) {
	saved := interpreter
	interpreter = starlarkbox.NewPool(starlarkbox.PoolLimits{Runs: 1, Queue: 1, Wait: time.Hour})
	t.Cleanup(func() { interpreter = saved })

	hold := func(running, waiting int) (context.CancelFunc, <-chan error) {
		ctx, cancel := context.WithCancel(bounded.Context(t))
		done := make(chan error, 1)
		go func() {
			_, err := interpreter.Run(ctx, "while True:\n    pass", starlarkbox.Limits{MaxSteps: 1 << 62, Timeout: time.Hour})
			done <- err
		}()
		require.Eventually(t, func() bool {
			r, w := interpreter.Load()
			return r == running && w == waiting
		}, time.Minute, time.Millisecond)
		return cancel, done
	}
	cancelA, doneA := hold(1, 0)
	cancelB, doneB := hold(1, 1)

	_, err := standintest.New(t, Register).WithDefaults().Call("python_interpreter", "run_python", map[string]any{"code": "1 + 1"})
	require.Error(t, err)
	require.Equal(t, sandbox.KindRateLimited, sandbox.KindOf(err), err.Error())
	require.Equal(t, 429, sandbox.StatusOf(err))
	var rl *sandbox.RateLimitError
	require.ErrorAs(t, err, &rl)
	require.Equal(t, "python_interpreter", rl.Tool)
	require.Positive(t, rl.RetryAfter)
	require.Contains(t, err.Error(), "the interpreter is busy")

	cancelA()
	bounded.Recv(t, doneA, "the first held run to end")
	cancelB()
	bounded.Recv(t, doneB, "the second held run to end")
	r := standintest.New(t, Register).WithDefaults().Object("python_interpreter", "run_python", map[string]any{"code": "1 + 1"})
	require.Equal(t, float64(2), r["result"])
}
