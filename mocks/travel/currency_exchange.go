package travel

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/understudy/understudy/mocks/standin"
	"github.com/understudy/understudy/mocks/world"
	"github.com/understudy/understudy/sandbox"
)

// The currency_exchange stand-in: an amount converted between two
// currencies at the world's fixed rates (the rate itself for one unit),
// answered as a bare number like the real API.

const fxTool = "currency_exchange"

// fxClassic are the quotes the real API lists first, in its order.
var fxClassic = []string{"SGD", "MYR", "EUR", "USD", "AUD", "JPY", "CNH", "HKD", "CAD", "INR", "DKK", "GBP", "RUB", "NZD", "MXN", "IDR", "TWD", "THB", "VND"}

func fxError(msg string) *sandbox.Rejection {
	return &sandbox.Rejection{Status: 400, Body: map[string]any{"message": msg}}
}

// fxCode maps the real API's CNH (offshore yuan) onto the world's CNY.
func fxCode(w *world.World, s string) (string, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "CNH" {
		s = "CNY"
	}
	cur, ok := w.Currency(s)
	if !ok {
		return "", false
	}
	return cur.Code, true
}

func fxExchange(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	from, ok := fxCode(w, c.ArgString("from"))
	if !ok {
		return nil, fxError("Invalid currency code in from: " + strconv.Quote(c.ArgString("from")))
	}
	to, ok := fxCode(w, c.ArgString("to"))
	if !ok {
		return nil, fxError("Invalid currency code in to: " + strconv.Quote(c.ArgString("to")))
	}
	// q is the source amount: the answer is what q units of from buy, so
	// a model asking for $250 in euros gets 250 times the rate.
	q := 1.0
	if c.Has("q") {
		var ok bool
		if q, ok = c.ArgFloat("q"); !ok {
			return nil, fxError("q must be a number")
		}
		if q < 0 {
			return nil, fxError("q must not be negative")
		}
	}
	r, err := w.Rate(from, to)
	if err != nil {
		return nil, err
	}
	return fxSignificant(r*q, 6), nil
}

// fxSignificant rounds v to n significant digits.
func fxSignificant(v float64, n int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	p := math.Pow10(n - 1 - int(math.Floor(math.Log10(math.Abs(v)))))
	return math.Round(v*p) / p
}

func fxListQuotes(_ context.Context, w *world.World, c *standin.Call) (any, error) {
	out := []any{}
	seen := map[string]bool{}
	for _, code := range fxClassic {
		if k, ok := fxCode(w, code); ok && !seen[k] {
			seen[k] = true
			out = append(out, code)
		}
	}
	for _, cur := range w.Currencies() {
		if !seen[cur.Code] {
			seen[cur.Code] = true
			out = append(out, cur.Code)
		}
	}
	return out, nil
}
