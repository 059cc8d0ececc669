package toolset_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/toolset"
)

func TestPyLiteralJSON(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{`{'symbol': 'str', 'date': 'str'}`, `{"symbol":"str","date":"str"}`},
		{`{"symbol": "str"}`, `{"symbol":"str"}`},
		{`{'data': [{'id': 'int', '_list_length': 3}], 'next': None, 'ok': True, 'more': False}`, `{"data":[{"id":"int","_list_length":3}],"next":null,"ok":true,"more":false}`},
		{`{'it\'s': "say \"hi\"", 'tab': 'a\tb', 'x': '\x41\u00e9'}`, `{"it's":"say \"hi\"","tab":"a\tb","x":"Aé"}`},
		{`[1, -2.5, 1e3, (3, 4), [], {},]`, `[1,-2.5,1000,[3,4],[],{}]`},
		{`{1: 'one', None: 'none'}`, `{"1":"one","null":"none"}`},
		{` {'a': {'b': {'c': 'list of int with length 3'}}} `, `{"a":{"b":{"c":"list of int with length 3"}}}`},
	} {
		got, err := toolset.PyLiteralJSON(tc.in)
		require.NoError(t, err, tc.in)
		require.JSONEq(t, tc.want, string(got), tc.in)
	}
	for _, bad := range []string{``, `{'a': 'str'`, `{'a' 'str'}`, `{'a': 'str'} trailing`, `{'a': undefined}`, `'unclosed`, `[1 2]`, `{'a': 'x\u12'}`} {
		_, err := toolset.PyLiteralJSON(bad)
		require.ErrorIs(t, err, toolset.ErrPyLiteral, bad)
	}
}

// TestNormalizeTemplate: a template_response is kept as the faker reads
// it, whatever form the query file gives it.
func TestNormalizeTemplate(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"symbol": "str"}`, `{"symbol":"str"}`},
		{`"{'symbol': 'str', 'price': 'float'}"`, `{"symbol":"str","price":"float"}`},
		{`"{\"symbol\": \"str\"}"`, `{"symbol":"str"}`},
		{`"str"`, `"str"`},
		{`"{'broken': "`, `"{'broken': "`},
		{`null`, ``},
		{`"{}"`, ``},
		{`"  "`, ``},
	} {
		got := toolset.NormalizeTemplate(json.RawMessage(tc.in))
		if tc.want == "" {
			require.Nil(t, got, tc.in)
			continue
		}
		require.JSONEq(t, tc.want, string(got), tc.in)
	}
}

// FuzzPyLiteralJSON: any text either fails with ErrPyLiteral or reads
// into valid JSON, and JSON reads as itself.
func FuzzPyLiteralJSON(f *testing.F) {
	for _, s := range []string{`{'a': 'str'}`, `[{'id': 'int', '_list_length': 2}]`, `{"x": [1, 2.5, null, true]}`, `(None, True, 'a\'b')`, `{'\u00e9': '\x41'}`, `{1: {2: [3,]}}`, `-1_000.5e-3`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := toolset.PyLiteralJSON(s)
		if err != nil {
			require.ErrorIs(t, err, toolset.ErrPyLiteral)
			return
		}
		require.True(t, json.Valid(got), "%q → %s", s, got)
		var in, out any
		if json.Unmarshal([]byte(s), &in) == nil {
			require.NoError(t, json.Unmarshal(got, &out))
			require.Equal(t, in, out, "JSON reads as itself: %q", s)
		}
	})
}
