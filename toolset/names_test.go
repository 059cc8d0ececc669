package toolset

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStandardizeIsToolBenchs pins the names ToolBench's standardize and
// change_name give; StableToolBench's clients send exactly these.
func TestStandardizeIsToolBenchs(t *testing.T) {
	cases := []struct{ in, std, param string }{
		{"countryCode", "countrycode", "countrycode"},
		{"id", "id", "is_id"},
		{"from", "from", "is_from"},
		{"And", "and", "is_and"},
		{"fromId", "fromid", "fromid"},
		{"X-Request-ID", "x_request_id", "x_request_id"},
		{"  Hello,  World! ", "hello_world", "hello_world"},
		{"__a--b__", "a_b", "a_b"},
		{"2nd day", "get_2nd_day", "get_2nd_day"},
		{"a^b", "a^b", "a^b"}, // '^' is in ToolBench's kept characters
		{"天气 forecast", "天气_forecast", "天气_forecast"},
		{"café", "caf", "caf"},
		{"$", "", ""},
		{"", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			require.Equal(t, tc.std, Standardize(tc.in))
			require.Equal(t, tc.param, ToolBenchParamName(tc.in))
		})
	}
}

func aliasAPI(names ...string) *API {
	a := &API{Name: "call", Tool: &Tool{StandardizedName: "t"}}
	for _, n := range names {
		a.Params = append(a.Params, &Param{Name: n, Kind: KindString, In: InQuery})
	}
	return a
}

func TestParamAliases(t *testing.T) {
	cases := []struct {
		name   string
		params []string
		want   map[string]string
	}{
		{"rewritten", []string{"id", "from", "countryCode", "q"}, map[string]string{"is_id": "id", "is_from": "from", "countrycode": "countryCode"}},
		{"shared spelling says nothing", []string{"pageSize", "page_size", "PageSize"}, map[string]string{}},
		{"a real name is never an alias", []string{"id", "is_id"}, map[string]string{}},
		{"none needed", []string{"q", "limit"}, map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, aliasAPI(tc.params...).ParamAliases())
		})
	}
}

func TestValidateAcceptsToolBenchSpellings(t *testing.T) {
	a := aliasAPI("id", "countryCode", "q")
	a.Params[0].Required = true
	cases := []struct {
		name string
		args map[string]any
		want map[string]any
		code string // the violation expected instead
	}{
		{"real names", map[string]any{"id": "7", "countryCode": "DE"}, map[string]any{"id": "7", "countryCode": "DE"}, ""},
		{"rewritten names", map[string]any{"is_id": "7", "countrycode": "DE"}, map[string]any{"id": "7", "countryCode": "DE"}, ""},
		{"mixed", map[string]any{"is_id": 7, "q": "x"}, map[string]any{"id": "7", "q": "x"}, ""},
		{"both spellings", map[string]any{"is_id": "7", "id": "8"}, nil, "duplicate"},
		{"alias null is absent", map[string]any{"is_id": nil}, nil, "required"},
		{"alias of bad type", map[string]any{"is_id": []any{1}}, nil, "type"},
		{"unknown stays unknown", map[string]any{"id": "7", "is_q2": "x"}, nil, "unknown"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Validate(tc.args)
			if tc.code == "" {
				require.NoError(t, err)
				require.Equal(t, tc.want, got)
				return
			}
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			require.Equal(t, tc.code, ve.Violations[0].Code, "%v", ve)
		})
	}
}

// TestToolBenchExportUsesToolBenchParamNames: what the export shows a
// model is what a call may send back.
func TestToolBenchExportUsesToolBenchParamNames(t *testing.T) {
	a := aliasAPI("id", "countryCode", "q")
	a.Params[0].Required = true
	c, err := NewCatalog([]*Tool{{Name: "T", Category: "Data", APIs: []*API{a}}})
	require.NoError(t, err)
	for _, tc := range []struct {
		style    NameStyle
		props    []string
		required []string
	}{
		{NameToolBench, []string{"countrycode", "is_id", "q"}, []string{"is_id"}},
		{NameDotted, []string{"countryCode", "id", "q"}, []string{"id"}},
	} {
		tools := OpenAITools(c, ExportOptions{Style: tc.style})
		require.Len(t, tools, 1)
		b, err := json.Marshal(tools[0].Function.Parameters)
		require.NoError(t, err)
		var schema struct {
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
		}
		require.NoError(t, json.Unmarshal(b, &schema))
		var props []string
		for k := range schema.Properties {
			props = append(props, k)
		}
		require.ElementsMatch(t, tc.props, props)
		require.Equal(t, tc.required, schema.Required)
		args := map[string]any{}
		for _, k := range props {
			args[k] = "v"
		}
		_, err = a.Validate(args)
		require.NoError(t, err, "a call with the exported names validates")
	}
}

// TestStandardizeTwinParams: two required parameters whose names
// standardize alike (a real StableToolBench defect) are both given by the
// one name ToolBench's schema shows, and each still by its own name.
func TestStandardizeTwinParams(t *testing.T) {
	a := aliasAPI("zip_code", "zip code", "CountryCode", "countryCode")
	for _, p := range a.Params {
		p.Required = true
	}
	for _, tc := range []struct {
		name string
		args map[string]any
		want map[string]any
		code string
	}{
		{"ToolBench's names", map[string]any{"zip_code": "10115", "countrycode": "DE"},
			map[string]any{"zip_code": "10115", "zip code": "10115", "CountryCode": "DE", "countryCode": "DE"}, ""},
		{"each by its own name", map[string]any{"zip_code": "1", "zip code": "2", "CountryCode": "A", "countryCode": "B"},
			map[string]any{"zip_code": "1", "zip code": "2", "CountryCode": "A", "countryCode": "B"}, ""},
		{"a spelling that is a real name", map[string]any{"zip code": "2", "zip_code": "1", "countrycode": "C"},
			map[string]any{"zip_code": "1", "zip code": "2", "CountryCode": "C", "countryCode": "C"}, ""},
		{"a spelling and a real name it stands for", map[string]any{"zip_code": "1", "countryCode": "B", "countrycode": "C"}, nil, "duplicate"},
		{"missing", map[string]any{"zip_code": "1"}, nil, "required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := a.Validate(tc.args)
			if tc.code != "" {
				var ve *ValidationError
				require.ErrorAs(t, err, &ve)
				require.Equal(t, tc.code, ve.Violations[0].Code)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	// ToolBench's schema shows each spelling once, as its files do.
	c, err := NewCatalog([]*Tool{{Name: "T", Category: "Data", APIs: []*API{a}}})
	require.NoError(t, err)
	params := OpenAITools(c, ExportOptions{Style: NameToolBench})[0].Function.Parameters
	require.ElementsMatch(t, []string{"zip_code", "countrycode"}, keysOf(params["properties"].(map[string]any)))
	require.Equal(t, []string{"zip_code", "countrycode"}, params["required"])
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
