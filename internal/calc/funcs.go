package calc

import (
	"errors"
	"math"
)

type function struct {
	min, max int // argument count; max < 0 means any number
	usage    string
	fn       func(args []float64) (float64, error)
}

var constants = map[string]float64{
	"pi":  math.Pi,
	"e":   math.E,
	"tau": 2 * math.Pi,
	"phi": math.Phi,
}

func isFunction(name string) bool { _, ok := functions[name]; return ok }

func one(f func(float64) float64) func([]float64) (float64, error) {
	return func(a []float64) (float64, error) { return f(a[0]), nil }
}

var errNegative = errors.New("not defined for negative numbers")
var errNonPositive = errors.New("not defined for zero or negative numbers")

var functions = map[string]function{}

func init() {
	for name, f := range map[string]function{
		"sqrt": {1, 1, "x", func(a []float64) (float64, error) {
			if a[0] < 0 {
				return 0, errNegative
			}
			return math.Sqrt(a[0]), nil
		}},
		"cbrt":  {1, 1, "x", one(math.Cbrt)},
		"abs":   {1, 1, "x", one(math.Abs)},
		"floor": {1, 1, "x", one(math.Floor)},
		"ceil":  {1, 1, "x", one(math.Ceil)},
		"round": {1, 2, "x[, digits]", func(a []float64) (float64, error) {
			if len(a) == 1 {
				return math.Round(a[0]), nil
			}
			d := a[1]
			if d != math.Trunc(d) || d < -15 || d > 15 {
				return 0, errors.New("digits must be a whole number between -15 and 15")
			}
			p := math.Pow(10, d)
			return math.Round(a[0]*p) / p, nil
		}},
		"sin":  {1, 1, "radians", one(math.Sin)},
		"cos":  {1, 1, "radians", one(math.Cos)},
		"tan":  {1, 1, "radians", one(math.Tan)},
		"asin": {1, 1, "x", domain(math.Asin, -1, 1)},
		"acos": {1, 1, "x", domain(math.Acos, -1, 1)},
		"atan": {1, 1, "x", one(math.Atan)},
		"log": {1, 2, "x[, base]", func(a []float64) (float64, error) {
			if a[0] <= 0 {
				return 0, errNonPositive
			}
			if len(a) == 1 {
				return math.Log10(a[0]), nil
			}
			if a[1] <= 0 || a[1] == 1 {
				return 0, errors.New("the base must be positive and not 1")
			}
			return math.Log(a[0]) / math.Log(a[1]), nil
		}},
		"ln":   {1, 1, "x", positive(math.Log)},
		"log2": {1, 1, "x", positive(math.Log2)},
		"exp":  {1, 1, "x", one(math.Exp)},
		"pow": {2, 2, "base, exponent", func(a []float64) (float64, error) {
			if a[0] == 0 && a[1] < 0 {
				return 0, errors.New("division by zero (zero to a negative power)")
			}
			r := math.Pow(a[0], a[1])
			if math.IsNaN(r) {
				return 0, errors.New("the result is not a real number")
			}
			return r, nil
		}},
		"min": {1, -1, "a, b, ...", func(a []float64) (float64, error) {
			m := a[0]
			for _, x := range a[1:] {
				m = math.Min(m, x)
			}
			return m, nil
		}},
		"max": {1, -1, "a, b, ...", func(a []float64) (float64, error) {
			m := a[0]
			for _, x := range a[1:] {
				m = math.Max(m, x)
			}
			return m, nil
		}},
	} {
		functions[name] = f
	}
	functions["sum"] = function{1, -1, "a, b, ...", func(a []float64) (float64, error) {
		s := 0.0
		for _, x := range a {
			s += x
		}
		return s, nil
	}}
	functions["avg"] = function{1, -1, "a, b, ...", func(a []float64) (float64, error) {
		s, _ := functions["sum"].fn(a)
		return s / float64(len(a)), nil
	}}
}

func domain(f func(float64) float64, lo, hi float64) func([]float64) (float64, error) {
	return func(a []float64) (float64, error) {
		if a[0] < lo || a[0] > hi {
			return 0, errors.New("defined only between -1 and 1")
		}
		return f(a[0]), nil
	}
}

func positive(f func(float64) float64) func([]float64) (float64, error) {
	return func(a []float64) (float64, error) {
		if a[0] <= 0 {
			return 0, errNonPositive
		}
		return f(a[0]), nil
	}
}
