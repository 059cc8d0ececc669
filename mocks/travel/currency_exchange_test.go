package travel

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/mocks/internal/standintest"
)

func TestCurrencyExchange(t *testing.T) {
	s := standintest.New(t, Register)
	w := standintest.World(t)
	for _, tc := range []struct{ from, to string }{{"USD", "EUR"}, {"EUR", "GBP"}, {"SGD", "MYR"}, {"JPY", "USD"}, {"usd", "brl"}, {"CNH", "USD"}} {
		v := s.OK(fxTool, "exchange", map[string]any{"from": tc.from, "to": tc.to, "q": 1.0})
		conforms(s, fxTool, "exchange", v)
		from, _ := fxCode(w, tc.from)
		to, _ := fxCode(w, tc.to)
		want, err := w.Rate(from, to)
		require.NoError(t, err)
		require.InEpsilon(t, want, v.(float64), 1e-5, "%s→%s", tc.from, tc.to)
	}
	// q is the amount: $250 buys 250 times what $1 buys, in the same shape.
	a := s.OK(fxTool, "exchange", map[string]any{"from": "USD", "to": "EUR", "q": 250.0})
	b := s.OK(fxTool, "exchange", map[string]any{"from": "USD", "to": "EUR"})
	require.InEpsilon(t, 250*b.(float64), a.(float64), 1e-5)
	conforms(s, fxTool, "exchange", a)
	require.Equal(t, 0.0, s.OK(fxTool, "exchange", map[string]any{"from": "USD", "to": "EUR", "q": 0.0}))
	s.Fails(400, fxTool, "exchange", map[string]any{"from": "USD", "to": "EUR", "q": -5.0})
	require.Equal(t, 1.0, s.OK(fxTool, "exchange", map[string]any{"from": "EUR", "to": "EUR"}))

	body := s.Fails(400, fxTool, "exchange", map[string]any{"from": "XYZ", "to": "EUR"})
	require.Equal(t, map[string]any{"message": `Invalid currency code in from: "XYZ"`}, body)
	s.Fails(400, fxTool, "exchange", map[string]any{"from": "USD", "to": ""})
	s.Fails(400, fxTool, "exchange", map[string]any{"from": "USD", "to": "EUR", "q": "lots"})
}

func TestCurrencyListQuotes(t *testing.T) {
	s := standintest.New(t, Register)
	v := s.OK(fxTool, "listquotes", nil)
	conforms(s, fxTool, "listquotes", v)
	quotes := v.([]any)
	require.Equal(t, []any{"SGD", "MYR", "EUR", "USD"}, quotes[:4], "the real API's order first")
	w := standintest.World(t)
	seen := map[string]bool{}
	for _, q := range quotes {
		code, ok := fxCode(w, q.(string))
		require.True(t, ok, q)
		require.False(t, seen[code], "duplicate %s", q)
		seen[code] = true
		s.OK(fxTool, "exchange", map[string]any{"from": q, "to": "USD"})
	}
	require.Len(t, seen, len(w.Currencies()))
}

func TestCurrencyGolden(t *testing.T) {
	s := standintest.New(t, Register)
	standintest.Golden(t, "currency_exchange.golden.json", map[string]any{
		"usd_eur":    s.OK(fxTool, "exchange", map[string]any{"from": "USD", "to": "EUR", "q": 1.0}),
		"gbp_jpy":    s.OK(fxTool, "exchange", map[string]any{"from": "GBP", "to": "JPY"}),
		"listquotes": s.OK(fxTool, "listquotes", nil),
		"bad":        s.Fails(400, fxTool, "exchange", map[string]any{"from": "USD", "to": "ABC"}),
	})
}

func TestFxSignificant(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{{0.92134567, 0.921346}, {151.234567, 151.235}, {0.00012345678, 0.000123457}, {0, 0}} {
		require.Equal(t, tc.want, fxSignificant(tc.in, 6))
	}
}

func BenchmarkCurrencyExchange(b *testing.B) {
	s := standintest.New(b, Register)
	args := map[string]any{"from": "USD", "to": "EUR", "q": 1.0}
	s.Bench(b, fxTool, "exchange", args)
}
