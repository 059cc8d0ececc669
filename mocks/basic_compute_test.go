package mocks

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBasicCalculator(t *testing.T) {
	r := basicOK(t, "calculator", "calculate", nil)
	require.Equal(t, "(1,250 * 1.23 + 15% of 80) / 3", r["expression"])
	require.Equal(t, 516.5, r["result"])
	require.Equal(t, "516.5", r["result_text"])

	r = basicOK(t, "calculator", "calculate", map[string]any{"expression": "0.1 + 0.2"})
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
		body := basicErr(t, "calculator", "calculate", map[string]any{"expression": tc.expr}, 400)
		require.Contains(t, body["error"], tc.msg)
		require.Equal(t, tc.pos, body["position"])
	}
	require.Equal(t, basicBytes(t, "calculator", "calculate", nil), basicBytes(t, "calculator", "calculate", nil))
	require.NotEqual(t, basicBytes(t, "calculator", "calculate", map[string]any{"expression": "2+2"}), basicBytes(t, "calculator", "calculate", map[string]any{"expression": "2+3"}))
	basicGolden(t, "calculator", []basicCase{
		{"default", "calculate", nil},
		{"percent", "calculate", map[string]any{"expression": "80 + 15%"}},
		{"functions", "calculate", map[string]any{"expression": "round(sqrt(2) * 100, 2) + max(1, 2, 3)"}},
		{"big", "calculate", map[string]any{"expression": "2^70"}},
		{"error", "calculate", map[string]any{"expression": "3 * (4 + "}},
	})
}

func TestBasicPython(t *testing.T) {
	r := basicOK(t, "python_interpreter", "run_python", nil)
	require.Equal(t, "total: 44.4\n", r["output"])
	require.Equal(t, 14.8, r["result"])
	require.Nil(t, r["error"])

	r = basicOK(t, "python_interpreter", "run_python", map[string]any{"code": "def f(n):\n    return f(n)\nf(1)"})
	require.Equal(t, "UnsupportedFeature", r["error_type"])
	require.Contains(t, r["error"], "recursion")
	require.Equal(t, float64(2), r["line"])

	r = basicOK(t, "python_interpreter", "run_python", map[string]any{"code": "import os"})
	require.Contains(t, r["error"], "Python feature import is not supported by the sandboxed interpreter (Starlark dialect)")

	r = basicOK(t, "python_interpreter", "run_python", map[string]any{"code": "while True:\n    pass"})
	require.Equal(t, "LimitExceeded", r["error_type"])

	r = basicOK(t, "python_interpreter", "run_python", map[string]any{"code": "print('start')\nopen('/etc/passwd')"})
	require.Equal(t, "SandboxViolation", r["error_type"])
	require.Equal(t, "start\n", r["output"])

	r = basicOK(t, "python_interpreter", "run_python", map[string]any{"code": `x = "x" * 1000000000`})
	require.Equal(t, "LimitExceeded", r["error_type"])
	require.Contains(t, r["error"], "memory limit")

	basicGolden(t, "python_interpreter", []basicCase{
		{"default", "run_python", nil},
		{"json", "run_python", map[string]any{"code": "data = json.decode('{\"a\": [1, 2, 3]}')\nprint(json.encode({'sum': sum(data['a'])}))\ndata"}},
		{"fstring", "run_python", map[string]any{"code": "name = 'x'\nprint(f'hi {name}')"}},
		{"runtime", "run_python", map[string]any{"code": "x = [1, 2]\nx[5]"}},
	})
}

func BenchmarkBasicCalculate(b *testing.B) { basicBench(b, "calculator", "calculate") }

func BenchmarkBasicRunPython(b *testing.B) { basicBench(b, "python_interpreter", "run_python") }
