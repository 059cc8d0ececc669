package cache

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
)

func TestKeyOf(t *testing.T) {
	base := KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "days": 3, "lang": "fr"})
	tests := []struct {
		name string
		key  Key
		same bool
	}{
		{"other argument order", KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"lang": "fr", "q": "Paris", "days": 3}), true},
		{"3.0 is 3", KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "days": 3.0, "lang": "fr"}), true},
		{"json.Number 3", KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "days": json.Number("3"), "lang": "fr"}), true},
		{"int64 3", KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "days": int64(3), "lang": "fr"}), true},
		{"other value", KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "days": 4, "lang": "fr"}), false},
		{"string vs number", KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "days": "3", "lang": "fr"}), false},
		{"other api", KeyOf("weatherapi_com", "astronomy_api", map[string]any{"q": "Paris", "days": 3, "lang": "fr"}), false},
		{"other tool", KeyOf("open_weather", "forecast_weather_api", map[string]any{"q": "Paris", "days": 3, "lang": "fr"}), false},
		{"extra argument", KeyOf("weatherapi_com", "forecast_weather_api", map[string]any{"q": "Paris", "days": 3, "lang": "fr", "dt": nil}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.same, tt.key.Hash() == base.Hash())
			require.Len(t, tt.key.Hash(), 64)
		})
	}
	require.Equal(t, "weatherapi_com", base.Tool())
	require.Equal(t, "forecast_weather_api", base.API())
	require.Equal(t, `{"days":3,"lang":"fr","q":"Paris"}`, base.Args())
	require.Contains(t, base.String(), `weatherapi_com.forecast_weather_api{"days":3`)
	require.False(t, base.IsZero())
	require.True(t, Key{}.IsZero())
}

func TestKeyFraming(t *testing.T) {
	// Names that concatenate to the same text must not share a key.
	require.NotEqual(t, KeyOf("ab", "c", nil).Hash(), KeyOf("a", "bc", nil).Hash())
	require.NotEqual(t, KeyOf("a1:", "b", nil).Hash(), KeyOf("a", "1:b", nil).Hash())
	// No arguments, nil and empty, are the same call.
	require.Equal(t, KeyOf("t", "a", nil), KeyOf("t", "a", map[string]any{}))
	require.Equal(t, "{}", KeyOf("t", "a", nil).Args())
}

func TestKeyOfUnencodable(t *testing.T) {
	k := KeyOf("t", "a", map[string]any{"x": math.NaN()})
	require.Len(t, k.Hash(), 64)
	require.Equal(t, byte('!'), k.Args()[0])
	require.False(t, k.storable())
	require.Equal(t, k, KeyOf("t", "a", map[string]any{"x": math.NaN()}), "deterministic")
	require.NotEqual(t, k.Hash(), KeyOf("t", "a", map[string]any{"x": math.Inf(1)}).Hash())
}

func TestKeyFromHash(t *testing.T) {
	k := KeyOf("t", "a", nil)
	got, err := KeyFromHash(k.Hash())
	require.NoError(t, err)
	require.Equal(t, k.Hash(), got.Hash())
	require.Equal(t, k.Hash(), got.String())
	for _, bad := range []string{"", "../../etc/passwd", k.Hash()[:63], k.Hash() + "0", "ABCDEF" + k.Hash()[6:], "g" + k.Hash()[1:]} {
		_, err := KeyFromHash(bad)
		var ie *InvalidKeyError
		require.ErrorAs(t, err, &ie, bad)
	}
}

// FuzzKeyOf checks that a call keyed from its canonical form, or from the
// same JSON with its keys in another order, gets the same key, and that
// canonicalisation is idempotent.
func FuzzKeyOf(f *testing.F) {
	f.Add(`{"q":"Paris","days":3,"lang":"fr"}`)
	f.Add(`{"a":[1,2.50,{"z":null,"y":true}],"b":"<&>"}`)
	f.Add(`{"n":1e21,"m":-0.0,"o":1.0000000000000002}`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, doc string) {
		var args map[string]any
		dec := json.NewDecoder(bytes.NewReader([]byte(doc)))
		dec.UseNumber()
		if dec.Decode(&args) != nil {
			return
		}
		k1 := KeyOf("tool", "api", args)
		if !k1.storable() {
			return
		}
		var again map[string]any
		dec = json.NewDecoder(bytes.NewReader([]byte(k1.Args())))
		dec.UseNumber()
		if err := dec.Decode(&again); err != nil {
			t.Fatalf("canonical arguments %q do not parse: %v", k1.Args(), err)
		}
		k2 := KeyOf("tool", "api", again)
		if k1 != k2 {
			t.Fatalf("canonical form keys differently:\n%s\n%s", k1.Args(), k2.Args())
		}
		c, err := canon.JSON(json.RawMessage(k1.Args()))
		if err != nil || string(c) != k1.Args() {
			t.Fatalf("canonicalisation not idempotent: %q -> %q (%v)", k1.Args(), c, err)
		}
		if a, err := canon.JSON(args); err != nil || KeyOfCanonical("tool", "api", a) != k1 {
			t.Fatalf("KeyOfCanonical(%s) is not KeyOf (%v)", a, err)
		}
	})
}

// TestKeyOfCanonical: given the canonical arguments the engine has
// computed, the key is KeyOf's.
func TestKeyOfCanonical(t *testing.T) {
	for _, args := range []map[string]any{
		nil, {}, {"q": "Paris", "days": 3, "lang": "fr"}, {"id": json.Number("9007199254740993"), "x": []any{1.0, "<&>"}},
	} {
		c, err := canon.JSON(args)
		require.NoError(t, err)
		want := KeyOf("weatherapi_com", "forecast_weather_api", args)
		got := KeyOfCanonical("weatherapi_com", "forecast_weather_api", c)
		require.Equal(t, want, got, "%v", args)
		require.Equal(t, want.Args(), got.Args())
		require.Equal(t, want.Hash(), HashOfCanonical("weatherapi_com", "forecast_weather_api", c))
	}
}

func BenchmarkKeyOf(b *testing.B) {
	args := map[string]any{"q": "Paris", "days": 3.0, "lang": "fr"}
	b.ReportAllocs()
	for b.Loop() {
		_ = KeyOf("weatherapi_com", "forecast_weather_api", args)
	}
}

// TestKeyKeepsLargeIntegers: IDs beyond 2^53 are different calls, and one
// ID spelt two ways is one call.
func TestKeyKeepsLargeIntegers(t *testing.T) {
	a := KeyOf("t", "a", map[string]any{"id": json.Number("9007199254740993")})
	b := KeyOf("t", "a", map[string]any{"id": json.Number("9007199254740992")})
	require.NotEqual(t, a.Hash(), b.Hash())
	require.Equal(t, a.Hash(), KeyOf("t", "a", map[string]any{"id": int64(9007199254740993)}).Hash())
	require.Equal(t, a.Hash(), KeyOf("t", "a", map[string]any{"id": json.Number("9007199254740993.0")}).Hash())
	py, err := ParsePythonDict(`{'id': 9007199254740993}`)
	require.NoError(t, err)
	require.Equal(t, a.Hash(), KeyOf("t", "a", py).Hash(), "a StableToolBench key keeps the ID")
}
