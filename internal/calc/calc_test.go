package calc

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEval(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want float64
	}{
		{"1 + 2 * 3", 7},
		{"(1 + 2) * 3", 9},
		{"2 ^ 10", 1024},
		{"2 ** 3 ** 2", 512},
		{"-2 ^ 2", -4},
		{"2 ^ -1", 0.5},
		{"10 / 4", 2.5},
		{"10 % 3", 1},
		{"-7 % 3", 2},
		{"7 mod 4", 3},
		{"--3", 3},
		{"sqrt(16) + abs(-3)", 7},
		{"round(2.567, 2)", 2.57},
		{"round(2.5)", 3},
		{"floor(-2.5) + ceil(2.1)", 0},
		{"log(1000)", 3},
		{"log(8, 2)", 3},
		{"ln(e)", 1},
		{"exp(0)", 1},
		{"min(4, 2, 8) + max(1, 9)", 11},
		{"pow(2, 8)", 256},
		{"sin(0) + cos(0) + tan(0)", 1},
		{"2pi", 2 * 3.141592653589793},
		{"3(4 + 5)", 27},
		{"15% of 80", 12},
		{"15 % of 80", 12},
		{"50%", 0.5},
		{"80 + 15%", 92},
		{"80 - 25%", 60},
		{"200 * 15%", 30},
		{"15% of 80 + 5", 17},
		{"1,250,000 / 1,000", 1250},
		{"$1,200.50 * 2", 2401},
		{"max(1,250)", 250},
		{"1.5e3 + .5", 1500.5},
		{"2E-2", 0.02},
		{"5!", 120},
		{"6 × 7 ÷ 2 − 1", 20},
		{"sum(1, 2, 3) + avg(2, 4)", 9},
		{"PI", 3.141592653589793},
		{"0.1 + 0.2", 0.30000000000000004},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			got, err := Eval(tc.expr)
			require.NoError(t, err)
			require.InDelta(t, tc.want, got, 1e-9)
		})
	}
}

func TestEvalErrors(t *testing.T) {
	for _, tc := range []struct {
		expr string
		pos  int
		msg  string
	}{
		{"", 0, "empty expression"},
		{"   ", 0, "empty expression"},
		{"(1 + 2", 1, "'(' is never closed"},
		{"1 + 2)", 6, "')' without a matching '('"},
		{"sqrt(4", 5, "'(' is never closed"},
		{"foo(3)", 1, `unknown function or constant "foo"`},
		{"1 / 0", 3, "division by zero"},
		{"5 % 0", 3, "modulo by zero"},
		{"1 / (2 - 2)", 3, "division by zero"},
		{"sqrt(-1)", 1, "not defined for negative numbers"},
		{"log(0)", 1, "not defined for zero"},
		{"1 +", 4, "unexpected end of expression"},
		{"2 * * 3", 5, "expected a number, found '*'"},
		{"1 # 2", 3, "unexpected character '#'"},
		{"1 2", 3, "unexpected number 2"},
		{"sqrt 4", 1, "needs parentheses"},
		{"max()", 1, "at least 1 arguments"},
		{"pow(2)", 1, "2 arguments"},
		{"(-8) ^ 0.5", 6, "is not a real number"},
		{"0 ^ -1", 3, "division by zero"},
		{"1.2.3", 1, "malformed number"},
		{"10 ^ 400", 0, "not a finite number"},
		{"3.5!", 4, "non-negative whole number"},
		{"of 5", 1, "'of' must follow a percentage"},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			_, err := Eval(tc.expr)
			var ce *Error
			require.True(t, errors.As(err, &ce), "want *Error, got %v", err)
			require.Equal(t, tc.pos, ce.Pos, ce.Error())
			require.Contains(t, ce.Error(), tc.msg)
		})
	}
}

func TestLimits(t *testing.T) {
	deep := ""
	for range 300 {
		deep += "("
	}
	_, err := Eval(deep + "1")
	require.ErrorContains(t, err, "nested more than")
	long := make([]byte, MaxLength+1)
	for i := range long {
		long[i] = '1'
	}
	_, err = Eval(string(long))
	require.ErrorContains(t, err, "byte limit")
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0.1 + 0.2, "0.3"},
		{12, "12"},
		{-2.5, "-2.5"},
		{1e20, "100000000000000000000"},
		{1e22, "1e+22"},
		{1.5e17 + 0.5, "150000000000000000"},
		{-0.0, "0"},
		{1234567.891, "1234567.891"},
		{1.0 / 3, "0.333333333333"},
		{2e-9, "2e-09"},
	} {
		require.Equal(t, tc.want, Format(tc.v))
	}
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{"1 + 2 * 3", "15% of 80", "sqrt(2)^2", "max(1,250)", "1,000,000", "((1)", "2pi", "5!", "-(-(3))", "1e308*10", "log(8,2)", "×÷−"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Eval(s)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Eval(%q) error %T %v is not *Error", s, err, err)
			}
			return
		}
		_ = Format(v)
	})
}

func BenchmarkEval(b *testing.B) {
	for b.Loop() {
		if _, err := Eval("sqrt(16) + 15% of 1,250.50 * (2 ^ 3 - max(1, 2, 3)) / 4"); err != nil {
			b.Fatal(err)
		}
	}
}
