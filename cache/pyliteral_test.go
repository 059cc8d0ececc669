package cache

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
)

func TestParsePythonDict(t *testing.T) {
	tests := []struct {
		in   string
		want string // canonical JSON
	}{
		{`{}`, `{}`},
		{`{'listing_id': '456789', 'limit': 5, 'flag': True, 'x': None}`, `{"flag":true,"limit":5,"listing_id":"456789","x":null}`},
		{`{"q": "it's", 'n': -3, 'f': 2.5, 'g': -1e-05, 'h': 1e+16, 'i': .5, 'j': 5.}`, `{"f":2.5,"g":-0.00001,"h":10000000000000000,"i":0.5,"j":5,"n":-3,"q":"it's"}`},
		{`{'s': 'a\'b\"c\\d\n\t\r'}`, `{"s":"a'b\"c\\d\n\t\r"}`},
		{`{'u': '\xe9\u00e9\U0001F600é😀'}`, `{"u":"éé😀é😀"}`},
		{`{'o': '\101\0'}`, `{"o":"A\u0000"}`},
		{`{'unknown': '\d\q'}`, `{"unknown":"\\d\\q"}`},
		{`{'raw': r'a\nb', 'b': b'bytes', 'u': u'text'}`, `{"b":"bytes","raw":"a\\nb","u":"text"}`},
		{`{'nested': {'list': [1, [2, (3, 4)], ()], 'tuple1': (1,), 'paren': (7)}}`, `{"nested":{"list":[1,[2,[3,4]],[]],"paren":7,"tuple1":[1]}}`},
		{"{\n  'a' : [ 1 , 2 , ] ,\n  'b': False,\n}", `{"a":[1,2],"b":false}`},
		{`{'big': 123456789012345678901234567890, 'neg': -9223372036854775809}`, `{"big":123456789012345678901234567890,"neg":-9223372036854775809}`},
		{`{'hex': 0x1F, 'oct': 0o17, 'bin': 0b101, 'us': 1_000}`, `{"bin":5,"hex":31,"oct":15,"us":1000}`},
		{`{'dup': 1, 'dup': 2}`, `{"dup":2}`},
		{`{'tq': '''three 'quoted' '''}`, `{"tq":"three 'quoted' "}`},
		{`{'cont': 'a\` + "\n" + `b'}`, `{"cont":"ab"}`},
		{`{'zero': 0, 'zeros': 00, 'negzero': -0.0}`, `{"negzero":-0,"zero":0,"zeros":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParsePythonDict(tt.in)
			require.NoError(t, err)
			require.Equal(t, tt.want, string(canon.MustJSON(got)))
		})
	}
}

func TestParsePythonDictErrors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{``, "end of input"},
		{`[1, 2]`, "want a dict"},
		{`{'a': 1`, "want ',' or '}'"},
		{`{'a' 1}`, "want ':'"},
		{`{1: 'a'}`, "only string keys"},
		{`{1, 2}`, "sets are not supported"},
		{`{'a': 'unterminated}`, "unterminated string"},
		{`{'a': nan}`, "no JSON form"},
		{`{'a': inf}`, "no JSON form"},
		{`{'a': true}`, "unknown name"},
		{`{'a': 1j}`, "complex"},
		{`{'a': 012}`, "leading zeros"},
		{`{'a': '\x4'}`, "bad escape"},
		{`{'a': '\ud800'}`, "not a Unicode scalar"},
		{`{'a': '\N{BULLET}'}`, "named escapes"},
		{`{'a': f'x'}`, "unknown string prefix"},
		{`{'a': 1} extra`, "after the value"},
		{`{'a': --1}`, "sign must be followed"},
		{"{'a': 'new\nline'}", "newline"},
		{`{'a': [` + string(make([]byte, 0)) + `}`, "unexpected"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := ParsePythonDict(tt.in)
			var se *PythonSyntaxError
			require.ErrorAs(t, err, &se)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
	deep := ""
	for range 1000 {
		deep += "["
	}
	_, err := ParsePythonDict("{'a': " + deep + "}")
	require.ErrorContains(t, err, "nested deeper")
}

func TestFormatPython(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"listing_id":"456789","limit":5,"flag":true,"x":null}`, `{'flag': True, 'limit': 5, 'listing_id': '456789', 'x': None}`},
		{`{"q":"it's","r":"say \"hi\"","s":"both ' and \""}`, `{'q': "it's", 'r': 'say "hi"', 's': 'both \' and "'}`},
		{`{"f":[2.5,1e16,1.5e-5,100.0,0.0001,123456789012345.6,-0.0]}`, `{'f': [2.5, 1e+16, 1.5e-05, 100.0, 0.0001, 123456789012345.6, -0.0]}`},
		{`{"u":"é😀\u0001\u007f\u00a0\u2028\n\\"}`, `{'u': 'é😀\x01\x7f\xa0\u2028\n\\'}`},
		{`[]`, `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := FormatPython([]byte(tt.in))
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
	_, err := FormatPython([]byte(`{"a":`))
	require.Error(t, err)
	_, err = FormatPython([]byte(`1 2`))
	require.Error(t, err)
}

// FuzzParsePythonDict: no input panics, and whatever parses survives a
// round trip through FormatPython unchanged.
func FuzzParsePythonDict(f *testing.F) {
	for _, s := range []string{
		`{'listing_id': '456789', 'limit': 5, 'flag': True, 'x': None}`,
		`{"q": "it's", 'n': -3, 'f': 2.5e-7, 'l': [1, (2,), {}], 'big': 10**3}`,
		`{'u': '\xe9\u00e9\U0001F600\101', 'r': r'\n', 'b': b'\x00'}`,
		`{'tq': '''a'b''', 'h': 0x_1f, 'x': 1_0.5_0e1_0}`,
		"{'a':\\\n 1}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParsePythonDict(s)
		if err != nil {
			var se *PythonSyntaxError
			if !errorsAs(err, &se) {
				t.Fatalf("error is not a *PythonSyntaxError: %T %v", err, err)
			}
			return
		}
		c, err := canon.JSON(v)
		if err != nil {
			t.Fatalf("parsed value is not JSON: %v", err)
		}
		py, err := FormatPython(c)
		if err != nil {
			t.Fatalf("FormatPython(%s): %v", c, err)
		}
		back, err := ParsePythonDict(py)
		if err != nil {
			t.Fatalf("repr %q does not parse back: %v", py, err)
		}
		if c2 := canon.MustJSON(back); string(c2) != string(c) {
			t.Fatalf("round trip changed the value:\n%s\n%s\nvia %s", c, c2, py)
		}
		if !json.Valid(c) {
			t.Fatalf("canonical form %q is not valid JSON", c)
		}
	})
}
