package canon_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
)

func TestJSON(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
	}{
		{"sorted keys", map[string]any{"b": 1.0, "a": "x"}, `{"a":"x","b":1}`},
		{"whole float", 5.0, `5`},
		{"int", 5, `5`},
		{"fraction", 0.1, `0.1`},
		{"no html escaping", "<a&b>", `"<a&b>"`},
		{"json.Number", json.Number("5.0"), `5`},
		{"nested", map[string]any{"z": []any{map[string]any{"y": true, "x": nil}}}, `{"z":[{"x":null,"y":true}]}`},
		{"raw message", json.RawMessage(`{"b": 2, "a": 1.50}`), `{"a":1.5,"b":2}`},
		{"struct", struct {
			B int `json:"b"`
			A int `json:"a"`
		}{1, 2}, `{"a":2,"b":1}`},
		{"nil pointer", (*int)(nil), `null`},
	}
	for _, tc := range cases {
		got, err := canon.JSON(tc.in)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, string(got), tc.name)
	}
	_, err := canon.JSON(math.NaN())
	require.Error(t, err)
	_, err = canon.JSON(json.Number("x1"))
	require.Error(t, err)
}

// FuzzJSON checks that canonical JSON is a fixed point: decoding it and
// encoding again gives the same bytes, and it decodes to the same value as
// the input.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1,2,{"c":"d"}]}`, `[1.0, 2.50, -0, 1e21, 1e-7]`, `"\u003c"`, `null`, `{"":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decode := func(b []byte) (any, error) {
			var v any
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			err := dec.Decode(&v)
			return v, err
		}
		if json.Unmarshal(data, new(any)) != nil {
			return
		}
		v, err := decode(data)
		require.NoError(t, err)
		c1, err := canon.JSON(json.RawMessage(data))
		if err != nil {
			return // numbers beyond float64
		}
		v2, err := decode(c1)
		require.NoError(t, err)
		c2, err := canon.JSON(v2)
		require.NoError(t, err)
		require.True(t, bytes.Equal(c1, c2), "%s → %s → %s", data, c1, c2)
		c3, err := canon.JSON(v)
		require.NoError(t, err)
		require.Equal(t, string(c1), string(c3))
	})
}

// TestLargeIntegers: integers beyond 2^53 keep their exact digits, so two
// different IDs never share a cache key, and one integer has one encoding.
func TestLargeIntegers(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"2^53+1 as a literal", json.Number("9007199254740993"), `9007199254740993`},
		{"2^53+1 with a fraction", json.Number("9007199254740993.0"), `9007199254740993`},
		{"2^53+1 with an exponent", json.Number("9.007199254740993e15"), `9007199254740993`},
		{"2^53+1 negative", json.Number("-9007199254740993"), `-9007199254740993`},
		{"2^53+1 as int64", int64(9007199254740993), `9007199254740993`},
		{"2^53+1 as int", 9007199254740993, `9007199254740993`},
		{"max int64", int64(math.MaxInt64), `9223372036854775807`},
		{"min int64", int64(math.MinInt64), `-9223372036854775808`},
		{"2^60 as float64", float64(1 << 60), `1152921504606846976`},
		{"2^60 as its shortest float digits", json.Number("1152921504606847000"), `1152921504606847000`},
		{"beyond int64", json.Number("123456789012345678901234567890"), `123456789012345678901234567890`},
		{"in a raw message", json.RawMessage(`{"id": 9007199254740993, "ids": [9007199254740995]}`), `{"id":9007199254740993,"ids":[9007199254740995]}`},
		// What float64 holds exactly prints as it always did.
		{"2^53", json.Number("9007199254740992"), `9007199254740992`},
		{"2^53 as int64", int64(1 << 53), `9007199254740992`},
		{"2^60", json.Number("1152921504606846976"), `1152921504606846976`},
		{"1e21", json.Number("1e21"), `1e+21`},
		{"2^53+1 is not an integer with a fraction", json.Number("9007199254740993.5"), `9007199254740994`},
		{"small", json.Number("42"), `42`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := canon.JSON(tc.in)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(got))
		})
	}
	a, err := canon.JSON(map[string]any{"id": json.Number("12345678901234567993")})
	require.NoError(t, err)
	b, err := canon.JSON(map[string]any{"id": json.Number("12345678901234567992")})
	require.NoError(t, err)
	require.NotEqual(t, string(a), string(b))
}

// FuzzLargeIntegers: any two different int64s encode differently, each
// encoding reads back as its integer, and every spelling of one integer
// encodes the same.
func FuzzLargeIntegers(f *testing.F) {
	f.Add(int64(9007199254740993), int64(9007199254740992))
	f.Add(int64(math.MaxInt64), int64(math.MaxInt64-1))
	f.Add(int64(-9007199254740993), int64(5))
	f.Fuzz(func(t *testing.T, a, b int64) {
		ca, err := canon.JSON(a)
		require.NoError(t, err)
		cb, err := canon.JSON(b)
		require.NoError(t, err)
		require.Equal(t, a == b, string(ca) == string(cb), "%d → %s, %d → %s", a, ca, b, cb)

		var back json.Number
		dec := json.NewDecoder(bytes.NewReader(ca))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&back))
		n, ok := new(big.Int).SetString(back.String(), 10)
		if !ok { // a float64 spelling such as 1e+21 is not an int64, so it is exact
			bf, _, err := big.ParseFloat(back.String(), 10, 0, big.ToNearestEven)
			require.NoError(t, err)
			n, _ = bf.Int(nil)
		}
		require.Equal(t, big.NewInt(a).String(), n.String())

		for _, spelling := range []string{strconv.FormatInt(a, 10), strconv.FormatInt(a, 10) + ".0", strconv.FormatInt(a, 10) + "e0"} {
			c, err := canon.JSON(json.Number(spelling))
			require.NoError(t, err)
			require.Equal(t, string(ca), string(c), spelling)
		}
	})
}

func TestNumber(t *testing.T) {
	cases := []struct {
		lit  string
		want any // float64, json.Number, or nil when refused
	}{
		{"5", 5.0},
		{"-2.5", -2.5},
		{"5.0", 5.0},
		{"9007199254740992", 9007199254740992.0}, // 2^53: float64 holds it
		{"9007199254740993", json.Number("9007199254740993")},
		{"-9007199254740993", json.Number("-9007199254740993")},
		{"9007199254740993.0", json.Number("9007199254740993")},
		{"9.007199254740993e15", json.Number("9007199254740993")},
		{"1152921504606846976", 1152921504606846976.0}, // 2^60, exact
		{"1152921504606847000", json.Number("1152921504606847000")},
		{"1e22", 1e22},
		{"10000000000000000000001", json.Number("10000000000000000000001")},
		{"9007199254740993.5", 9007199254740994.0}, // not an integer: the nearest float64
		{"1e-400", 0.0},
		{"0x10", nil}, {"NaN", nil}, {"+5", nil}, {"1e999", nil}, {"", nil}, {"05", nil}, {" 5", nil},
	}
	for _, tc := range cases {
		got, ok := canon.Number(tc.lit)
		if tc.want == nil {
			require.False(t, ok, tc.lit)
			continue
		}
		require.True(t, ok, tc.lit)
		require.Equal(t, tc.want, got, tc.lit)
	}
}

// FuzzNumber: Number accepts exactly the finite JSON number literals, and
// what it returns encodes as the literal itself does, so a decoder that
// calls it never changes a cache key, and it returns a json.Number only
// where float64 would have lost the integer.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "1.5", "9007199254740993", "9007199254740992", "1e21", "123456789012345678901234567890", "1e999", "0x1", "1_0", "-", "1."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		v, ok := canon.Number(lit)
		valid := json.Valid([]byte(lit)) && len(lit) > 0 && (lit[0] == '-' || (lit[0] >= '0' && lit[0] <= '9'))
		if f, err := strconv.ParseFloat(lit, 64); valid && (err != nil || math.IsInf(f, 0)) {
			valid = false
		}
		if ok != valid {
			t.Fatalf("Number(%q) ok=%v, want %v", lit, ok, valid)
		}
		if !ok {
			return
		}
		got, err := canon.JSON(v)
		if err != nil {
			t.Fatalf("JSON(Number(%q)): %v", lit, err)
		}
		want, err := canon.JSON(json.Number(lit))
		if err != nil {
			t.Fatalf("JSON(json.Number(%q)): %v", lit, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("Number(%q) = %v encodes as %s, the literal as %s", lit, v, got, want)
		}
		if n, isNumber := v.(json.Number); isNumber {
			f, _ := strconv.ParseFloat(lit, 64)
			r, _ := new(big.Rat).SetString(string(n))
			if r == nil || !r.IsInt() || r.Cmp(new(big.Rat).SetFloat64(f)) == 0 {
				t.Fatalf("Number(%q) = json.Number %s, but float64 holds it", lit, n)
			}
		}
	})
}

func TestDecode(t *testing.T) {
	v, err := canon.Decode([]byte(` {"id": 9007199254740993, "n": [2.50, 9007199254740992, {"t": 1e21}], "s": "x", "b": true, "z": null} `))
	require.NoError(t, err)
	require.Equal(t, map[string]any{
		"id": json.Number("9007199254740993"),
		"n":  []any{2.5, 9007199254740992.0, map[string]any{"t": 1e21}},
		"s":  "x", "b": true, "z": nil,
	}, v)
	for _, bad := range []string{``, `{`, `{"a":1} x`, `{"a":1} {}`, `{"a":1e999}`, `[-1e400, 2e308]`} {
		_, err := canon.Decode([]byte(bad))
		require.Error(t, err, bad)
	}
}

// FuzzDecode: Decode accepts exactly what json.Unmarshal accepts, reads
// the same values but for integers float64 cannot hold, and what it reads
// encodes as the document does.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[9007199254740993, 1.0, "x"]`, `{"a":1e999}`, `1 2`, `null`, ` 5 `, `{"a":[{"b":12345678901234567890123}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := canon.Decode(data)
		var want any
		if errWant := json.Unmarshal(data, &want); (err == nil) != (errWant == nil) {
			t.Fatalf("%q: Decode error %v, json.Unmarshal error %v", data, err, errWant)
		}
		if err != nil {
			return
		}
		a, errA := canon.JSON(got)
		b, errB := canon.JSON(json.RawMessage(data))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Fatalf("%q: Decode encodes as %s (%v), the document as %s (%v)", data, a, errA, b, errB)
		}
		// Where float64 holds the value, it is json.Unmarshal's float64.
		c, _ := canon.JSON(want)
		var plain func(v any) bool // whether v has no json.Number
		plain = func(v any) bool {
			switch x := v.(type) {
			case json.Number:
				return false
			case map[string]any:
				for _, e := range x {
					if !plain(e) {
						return false
					}
				}
			case []any:
				for _, e := range x {
					if !plain(e) {
						return false
					}
				}
			}
			return true
		}
		if plain(got) && !bytes.Equal(a, c) {
			t.Fatalf("%q: Decode gives %s, json.Unmarshal %s", data, a, c)
		}
	})
}

// BenchmarkDecode: a document without long numbers takes json.Unmarshal's
// path; one with a 64-bit ID takes the exact one.
func BenchmarkDecode(b *testing.B) {
	for _, bc := range []struct{ name, doc string }{
		{"small numbers", `{"city":"Lisbon","days":3,"lat":38.72,"units":"metric","tags":["a","b"]}`},
		{"64-bit ID", `{"city":"Lisbon","days":3,"lat":38.72,"units":"metric","id":9007199254740993}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := []byte(bc.doc)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := canon.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
