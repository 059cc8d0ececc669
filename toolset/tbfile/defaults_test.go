package tbfile_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/toolset/tbfile"
)

func TestUnfitDefaultsDropped(t *testing.T) {
	const tool = `{"tool_name": "Defaults", "api_list": [{"name": "list", "url": "https://d.p.rapidapi.com/list", "method": "GET",
	  "required_parameters": [],
	  "optional_parameters": [
	    {"name": "limit", "type": "NUMBER", "default": "None"},
	    {"name": "page", "type": "INTEGER", "default": "2.5"},
	    {"name": "size", "type": "INTEGER", "default": "10"},
	    {"name": "safe", "type": "BOOLEAN", "default": "maybe"},
	    {"name": "tags", "type": "ARRAY", "default": "a,b"},
	    {"name": "q", "type": "STRING", "default": "None"}]}]}`
	loaded, err := tbfile.LoadFile([]byte(tool), "Other", "defaults.json")
	require.NoError(t, err)
	a := loaded.API("list")
	out, err := a.Validate(nil)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"size": float64(10), "q": "None"}, out, "only defaults of their parameter's kind are applied")
	for _, name := range []string{"limit", "page", "safe", "tags"} {
		require.Nil(t, a.Param(name).Default, name)
		require.Nil(t, a.Param(name).Schema.Default, name)
	}
	notes := strings.Join(loaded.Notes, "\n")
	for _, want := range []string{`"limit": default the string "None" is not a number`, `"page": default the string "2.5" is not an integer`,
		`"safe": default the string "maybe" is not a boolean`, `"tags": default the string "a,b" is not an array`} {
		require.Contains(t, notes, want)
	}
	require.Len(t, loaded.Notes, 4)
}
