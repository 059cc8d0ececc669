package toolset_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/tbfile"
)

// fareAPI is fare_finder.search_fares from testdata: string, number,
// integer, boolean, object and array params, with pattern, format, enum,
// minimum/maximum and defaults.
func fareAPI(t testing.TB) *toolset.API {
	c, err := loader.Load([]string{"testdata/toolbench"}, false)
	require.NoError(t, err)
	a := c.API("fare_finder", "search_fares")
	require.NotNil(t, a)
	return a
}

func requireViolations(t *testing.T, err error, want ...toolset.Violation) {
	t.Helper()
	var ve *toolset.ValidationError
	require.True(t, errors.As(err, &ve), "want a *ValidationError, got %v", err)
	require.Len(t, ve.Violations, len(want), "%v", ve.Violations)
	for i, w := range want {
		require.Equal(t, w.Location, ve.Violations[i].Location, "violation %d: %v", i, ve.Violations[i])
		require.Equal(t, w.Code, ve.Violations[i].Code, "violation %d: %v", i, ve.Violations[i])
		require.NotEmpty(t, ve.Violations[i].Message)
	}
}

func TestValidateCoercions(t *testing.T) {
	a := fareAPI(t)
	base := func(extra map[string]any) map[string]any {
		m := map[string]any{"from": "LHR", "to": "JFK", "date": "2025-03-01"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		name  string
		param string
		in    any
		want  any    // the normalised value when accepted
		code  string // the violation code when refused
	}{
		// number
		{"number from string", "adults", "5", 5.0, ""},
		{"number from padded string", "adults", " 2.5 ", 2.5, ""},
		{"number from exponent string", "adults", "2e0", 2.0, ""},
		{"number from int", "adults", 3, 3.0, ""},
		{"number from json.Number", "adults", json.Number("4"), 4.0, ""},
		{"number refuses empty", "adults", "", nil, "type"},
		{"number refuses units", "adults", "5px", nil, "type"},
		{"number refuses hex", "adults", "0x5", nil, "type"},
		{"number refuses NaN", "adults", "NaN", nil, "type"},
		{"number refuses Inf", "adults", "Inf", nil, "type"},
		{"number refuses plus", "adults", "+5", nil, "type"},
		{"number refuses bool", "adults", true, nil, "type"},
		{"number refuses array", "adults", []any{1.0}, nil, "type"},
		// integer
		{"integer from string", "seats", "3", 3.0, ""},
		{"integer refuses fraction", "seats", "2.5", nil, "type"},
		{"integer refuses fraction number", "seats", 2.5, nil, "type"},
		// boolean
		{"boolean from string", "flexible", "true", true, ""},
		{"boolean from any case", "flexible", " FALSE ", false, ""},
		{"boolean refuses yes", "flexible", "yes", nil, "type"},
		{"boolean refuses 1 string", "flexible", "1", nil, "type"},
		{"boolean refuses 1", "flexible", 1, nil, "type"},
		// string
		{"null is absent", "contact", nil, nil, ""},
		{"string from int", "to", 5, "5", "pattern"},
		{"string from float", "from", 2.5, "2.5", "pattern"},
		{"string from bool", "cabin", true, "true", "enum"},
		{"string refuses array", "from", []any{"LHR"}, nil, "type"},
		{"string refuses object", "from", map[string]any{"a": 1.0}, nil, "type"},
		// object
		{"object from object", "filters", map[string]any{"stops": 0}, map[string]any{"stops": 0.0}, ""},
		{"object from JSON string", "filters", `{"stops": 1}`, map[string]any{"stops": 1.0}, ""},
		{"object refuses other string", "filters", "stops=1", nil, "type"},
		// array
		{"array kept", "carriers", []any{"BA", 7}, []any{"BA", 7.0}, ""},
		{"array refuses scalar", "carriers", "BA", nil, "type"},
		{"array refuses comma string", "carriers", "BA,AF", nil, "type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := base(map[string]any{tc.param: tc.in})
			got, err := a.Validate(args)
			switch {
			case tc.in == nil:
				require.NoError(t, err)
				_, present := got[tc.param]
				require.False(t, present, "null is absent")
			case tc.code == "":
				require.NoError(t, err)
				require.Equal(t, tc.want, got[tc.param])
			default:
				requireViolations(t, err, toolset.Violation{Location: []string{tc.param}, Code: tc.code})
			}
		})
	}
}

func TestValidateViolations(t *testing.T) {
	a := fareAPI(t)
	for _, tc := range []struct {
		name string
		args map[string]any
		want []toolset.Violation
	}{
		{"every violation at once", map[string]any{
			"to": "jfk", "date": "01/03/2025", "adults": 12, "cabin": "premium", "contact": "not-an-email",
			"callback": "just text", "seats": 0, "depart_after": "2025-03-01 10:00", "bogus": 1, "fromm": "LHR",
		}, []toolset.Violation{
			{Location: []string{"adults"}, Code: "maximum"},
			{Location: []string{"bogus"}, Code: "unknown"},
			{Location: []string{"cabin"}, Code: "enum"},
			{Location: []string{"callback"}, Code: "format"},
			{Location: []string{"contact"}, Code: "format"},
			{Location: []string{"date"}, Code: "format"},
			{Location: []string{"depart_after"}, Code: "format"},
			{Location: []string{"from"}, Code: "required"},
			{Location: []string{"fromm"}, Code: "unknown"},
			{Location: []string{"seats"}, Code: "minimum"},
			{Location: []string{"to"}, Code: "pattern"},
		}},
		{"required only", map[string]any{}, []toolset.Violation{
			{Location: []string{"date"}, Code: "required"},
			{Location: []string{"from"}, Code: "required"},
			{Location: []string{"to"}, Code: "required"},
		}},
		{"null required is missing", map[string]any{"from": nil, "to": "JFK", "date": "2025-03-01"}, []toolset.Violation{
			{Location: []string{"from"}, Code: "required"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.Validate(tc.args)
			requireViolations(t, err, tc.want...)
		})
	}

	_, err := a.Validate(map[string]any{"fromm": "LHR", "to": "JFK", "date": "2025-03-01", "from": "LHR"})
	require.ErrorContains(t, err, `did you mean "from"`)
	require.ErrorContains(t, err, "fare_finder.search_fares")
}

func TestValidateNormalises(t *testing.T) {
	a := fareAPI(t)
	valid := map[string]any{
		"from": "LHR", "to": "JFK", "date": "2025-03-01", "contact": "a@b.example", "callback": "https://x.example/cb",
		"depart_after": "2025-03-01T10:00:00Z", "seats": 2,
	}
	got, err := a.Validate(valid)
	require.NoError(t, err)
	// Defaults of absent optionals are applied; the caller's map is untouched.
	require.Equal(t, 1.0, got["adults"])
	require.Equal(t, "economy", got["cabin"])
	require.Equal(t, 2.0, got["seats"])
	_, touched := valid["adults"]
	require.False(t, touched)
	_, flexible := got["flexible"]
	require.False(t, flexible, "no default, stays absent")

	// A call leaning on defaults and one spelling them out, in any form, agree.
	spelt, err := a.Validate(map[string]any{
		"from": "LHR", "to": "JFK", "date": "2025-03-01", "contact": "a@b.example", "callback": "https://x.example/cb",
		"depart_after": "2025-03-01T10:00:00Z", "seats": "2", "adults": "1", "cabin": "economy",
	})
	require.NoError(t, err)
	require.Equal(t, got, spelt)

	// Required defaults are examples and are not applied.
	_, err = a.Validate(map[string]any{"date": "2025-03-01"})
	requireViolations(t, err, toolset.Violation{Location: []string{"from"}, Code: "required"}, toolset.Violation{Location: []string{"to"}, Code: "required"})

	// Nil args are an empty call.
	_, err = a.Validate(nil)
	require.Error(t, err)
}

func TestValidateOpenAPISchemas(t *testing.T) {
	tools, err := loader.LoadPath("testdata/openapi/petstore.yaml")
	require.NoError(t, err)
	c, err := toolset.NewCatalog(tools)
	require.NoError(t, err)
	add := c.API("pet_store", "addPet")
	_, err = add.Validate(map[string]any{"name": "rex", "photoUrls": []any{"https://img.example/rex.png"}, "category": map[string]any{"id": 1, "name": "dogs"}})
	require.NoError(t, err)
	_, err = add.Validate(map[string]any{"name": "rex", "photoUrls": []any{"not a uri"}, "category": map[string]any{"id": "one"}, "status": "lost"})
	requireViolations(t, err,
		toolset.Violation{Location: []string{"category", "id"}, Code: "type"},
		toolset.Violation{Location: []string{"photoUrls", "0"}, Code: "format"},
		toolset.Violation{Location: []string{"status"}, Code: "enum"},
	)
	order := c.API("pet_store", "place_order")
	require.NotNil(t, order)
	got, err := order.Validate(map[string]any{"petId": "7", "quantity": 3})
	require.NoError(t, err)
	require.Equal(t, 7.0, got["petId"])
	_, err = order.Validate(map[string]any{"petId": 7, "quantity": 30, "email": "x"})
	requireViolations(t, err, toolset.Violation{Location: []string{"email"}, Code: "format"}, toolset.Violation{Location: []string{"quantity"}, Code: "maximum"})
	find := c.API("pet_store", "findPetsByStatus")
	got, err = find.Validate(nil)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"status": "available", "limit": 20.0}, got)
	notes := c.API("pet_store", "putNotes")
	_, err = notes.Validate(map[string]any{"body": "hello"})
	require.NoError(t, err)
	none := &toolset.API{Name: "none"}
	_, err = none.Validate(map[string]any{"x": 1})
	require.ErrorContains(t, err, "takes no arguments")
}

// BenchmarkValidate3Params is a typical ToolBench call: three bare-typed
// parameters, one of them a number sent as a string.
func BenchmarkValidate3Params(b *testing.B) {
	tool, err := tbfile.LoadFile([]byte(`{"tool_name": "t", "api_list": [{"name": "search", "required_parameters": [{"name": "q", "type": "STRING"}],
		"optional_parameters": [{"name": "limit", "type": "NUMBER", "default": 10}, {"name": "safe", "type": "BOOLEAN"}]}]}`), "Cat", "t.json")
	if err != nil {
		b.Fatal(err)
	}
	a := tool.APIs[0]
	args := map[string]any{"q": "hotels in paris", "limit": "5", "safe": true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Validate(args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate3ParamsRich needs kin-openapi for every argument:
// a pattern, an enum and a bounded number.
func BenchmarkValidate3ParamsRich(b *testing.B) {
	a := fareAPI(b)
	args := map[string]any{"from": "LHR", "to": "JFK", "date": "2025-03-01"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Validate(args); err != nil {
			b.Fatal(err)
		}
	}
}

func TestValidateInvalidSchemaFallsBack(t *testing.T) {
	a := &toolset.API{Name: "x", Params: []*toolset.Param{{Name: "n", Kind: toolset.KindString, Required: true,
		Schema: &openapi3.Schema{Type: &openapi3.Types{"string"}, Pattern: "(["}}}}
	got, err := a.Validate(map[string]any{"n": "anything"})
	require.NoError(t, err, "a pattern that does not compile is not applied")
	require.Equal(t, "anything", got["n"])
	_, err = a.Validate(map[string]any{"n": []any{}})
	requireViolations(t, err, toolset.Violation{Location: []string{"n"}, Code: "type"})
}

// TestValidateLargeIntegers: an integer float64 cannot hold (above 2^53)
// keeps its digits through validation however it arrives, so two calls
// that differ only there normalise differently; everything else about the
// check (minimum, maximum, integer-ness, the lenient string forms) holds.
func TestValidateLargeIntegers(t *testing.T) {
	a := fareAPI(t)
	const big, below = "9007199254740993", "9007199254740992" // 2^53+1 and 2^53
	for _, tc := range []struct {
		name  string
		param string
		in    any
		want  any
		code  string
	}{
		{"integer json.Number", "seats", json.Number(big), json.Number(big), ""},
		{"integer 2^53 stays float64", "seats", json.Number(below), 9007199254740992.0, ""},
		{"integer from string", "seats", big, json.Number(big), ""},
		{"integer from padded exponent string", "seats", " 9.007199254740993e15 ", json.Number(big), ""},
		{"integer from fraction-free decimal", "seats", json.Number(big + ".0"), json.Number(big), ""},
		{"integer from int64", "seats", int64(9007199254740993), json.Number(big), ""},
		{"integer from int", "seats", 9007199254740993, json.Number(big), ""},
		{"integer minimum still holds", "seats", json.Number("-" + big), nil, "minimum"},
		{"number maximum still holds", "adults", json.Number(big), nil, "maximum"},
		{"integer refuses fraction", "seats", "2.5", nil, "type"},
		{"object member", "filters", map[string]any{"id": json.Number(big)}, map[string]any{"id": json.Number(big)}, ""},
		{"object from JSON string", "filters", `{"id": ` + big + `, "n": 2}`, map[string]any{"id": json.Number(big), "n": 2.0}, ""},
		{"array element", "carriers", []any{json.Number(big), json.Number("7")}, []any{json.Number(big), 7.0}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"from": "LHR", "to": "JFK", "date": "2025-03-01", tc.param: tc.in}
			got, err := a.Validate(args)
			if tc.code != "" {
				requireViolations(t, err, toolset.Violation{Location: []string{tc.param}, Code: tc.code})
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got[tc.param])
		})
	}

	// The two calls the issue names normalise to two cache keys.
	key := func(seats any) string {
		got, err := a.Validate(map[string]any{"from": "LHR", "to": "JFK", "date": "2025-03-01", "seats": seats})
		require.NoError(t, err)
		return string(canon.MustJSON(got))
	}
	require.NotEqual(t, key(json.Number(big)), key(json.Number(below)))
	require.Equal(t, key(json.Number(big)), key(big), "a number and its lenient string spelling agree")
	require.Equal(t, key(json.Number(below)), key(9007199254740992.0))
	require.Contains(t, key(json.Number(big)), `"seats":`+big)

}

// FuzzValidateNumberSpellings: an integer parameter given a literal as a
// json.Number and as a string either refuses both or accepts both with the
// same canonical value, which is the literal's own canonical encoding.
func FuzzValidateNumberSpellings(f *testing.F) {
	a := fareAPI(f)
	for _, s := range []string{"1", "9007199254740993", "9007199254740992", "9.007199254740993e15", "1e21", "123456789012345678901234567", "2.5", "-3", "0x10", "1e999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		if !json.Valid([]byte(lit)) || strings.TrimSpace(lit) != lit {
			return // a json.Number holds a bare literal; padding is the string's leniency
		}
		validate := func(v any) (map[string]any, error) {
			return a.Validate(map[string]any{"from": "LHR", "to": "JFK", "date": "2025-03-01", "seats": v})
		}
		asNumber, errN := validate(json.Number(lit))
		asString, errS := validate(lit)
		if (errN == nil) != (errS == nil) {
			t.Fatalf("%q: as json.Number err=%v, as string err=%v", lit, errN, errS)
		}
		if errN != nil {
			return
		}
		got, want := canon.MustJSON(asNumber["seats"]), canon.MustJSON(json.Number(lit))
		if !bytes.Equal(got, want) || !bytes.Equal(got, canon.MustJSON(asString["seats"])) {
			t.Fatalf("%q: json.Number gives %s, string gives %s, the literal is %s", lit, got, canon.MustJSON(asString["seats"]), want)
		}
	})
}

// TestValidateLenient: lenient mode accepts what StableToolBench's servers
// accept, each with a warning; strict refuses the same calls.
func TestValidateLenient(t *testing.T) {
	body := `{"tool_name": "T", "api_list": [{"name": "list", "required_parameters": [{"name": "q", "type": "STRING"}, {"name": "n", "type": "NUMBER"}],
		"optional_parameters": [{"name": "page", "type": "NUMBER", "default": "[]"}, {"name": "limit", "type": "NUMBER", "default": "10"},
		{"name": "year", "type": "INTEGER", "default": "None"}, {"name": "safe", "type": "BOOLEAN"}, {"name": "tags", "type": "STRING"}]}]}`
	tool, err := tbfile.LoadFile([]byte(body), "Cat", "Cat/t.json")
	require.NoError(t, err)
	a := tool.APIs[0]
	require.Equal(t, toolset.Lenient, tool.Validation(), "a ToolBench file of the user's")
	type warning struct{ loc, code string }
	for _, tc := range []struct {
		name     string
		args     map[string]any
		want     map[string]any
		warnings []warning
		strict   string // the violation strict mode gives
		lenient  string // the violation lenient mode gives, if any
	}{
		{"clean", map[string]any{"q": "x", "n": 1}, map[string]any{"q": "x", "n": 1.0, "limit": 10.0}, nil, "", ""},
		{"undocumented argument", map[string]any{"q": "x", "n": 1, "lang": "en"}, map[string]any{"q": "x", "n": 1.0, "limit": 10.0},
			[]warning{{"lang", "undocumented"}}, "unknown", ""},
		{"empty string for a number", map[string]any{"q": "x", "n": 1, "limit": ""}, map[string]any{"q": "x", "n": 1.0, "limit": 10.0},
			[]warning{{"limit", "placeholder"}}, "type", ""},
		{"documented default [] given back", map[string]any{"q": "x", "n": 1, "page": []any{}}, map[string]any{"q": "x", "n": 1.0, "limit": 10.0},
			[]warning{{"page", "placeholder"}}, "type", ""},
		{"documented default None given back", map[string]any{"q": "x", "n": 1, "year": "None"}, map[string]any{"q": "x", "n": 1.0, "limit": 10.0},
			[]warning{{"year", "placeholder"}}, "type", ""},
		{"blank for a boolean, {} for a string", map[string]any{"q": "x", "n": 1, "safe": " ", "tags": map[string]any{}}, map[string]any{"q": "x", "n": 1.0, "limit": 10.0},
			[]warning{{"safe", "placeholder"}, {"tags", "placeholder"}}, "type", ""},
		{"a real wrong value stays wrong", map[string]any{"q": "x", "n": "five"}, nil, nil, "type", "type"},
		{"a placeholder for a required value", map[string]any{"q": "x", "n": ""}, nil, nil, "type", "required"},
		{"missing stays missing", map[string]any{"q": "x", "lang": "en"}, nil, nil, "unknown", "required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := a.ValidateIn(tc.args, toolset.Strict)
			if tc.strict == "" {
				require.NoError(t, err)
			} else {
				var ve *toolset.ValidationError
				require.ErrorAs(t, err, &ve)
				require.Equal(t, tc.strict, ve.Violations[0].Code, "strict: %v", ve)
			}
			got, warnings, err := a.ValidateIn(tc.args, "")
			if tc.lenient != "" {
				var ve *toolset.ValidationError
				require.ErrorAs(t, err, &ve)
				require.Equal(t, tc.lenient, ve.Violations[0].Code, "lenient: %v", ve)
				require.Nil(t, warnings)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			var gotW []warning
			for _, w := range warnings {
				gotW = append(gotW, warning{strings.Join(w.Location, "."), w.Code})
				require.NotEmpty(t, w.Message)
			}
			require.Equal(t, tc.warnings, gotW)
		})
	}
	_, _, err = a.ValidateIn(map[string]any{"q": "x", "n": ""}, toolset.Lenient)
	require.ErrorContains(t, err, `required argument "n" is missing (the string "" is a placeholder, not a number)`)
	_, w, err := a.ValidateIn(map[string]any{"q": "x", "n": 1, "limit": "", "zz": 1}, toolset.Lenient)
	require.NoError(t, err)
	require.Equal(t, `the string "" is not a number: taken as not given (the default 10 applies)`, w[0].Message)
	require.Equal(t, `argument "zz" is not documented and is ignored; the API takes: q, n, page, limit, year, safe, tags`, w[1].Message)
}

// TestValidationByOrigin: tools read from a user's ToolBench files are
// validated leniently by default; built-in tools and OpenAPI documents
// strictly.
func TestValidationByOrigin(t *testing.T) {
	c, err := loader.Load([]string{"testdata/toolbench", "testdata/openapi/petstore.yaml"}, true)
	require.NoError(t, err)
	require.Equal(t, toolset.Strict, c.Tool("pet_store").Validation())
	require.Equal(t, toolset.Lenient, c.Tool("fare_finder").Validation())
	require.Equal(t, toolset.Strict, c.Tool("skyscanner80").Validation())
	require.Equal(t, toolset.Strict, (*toolset.Tool)(nil).Validation())
	for _, tc := range []struct {
		in   string
		want toolset.ValidationMode
		err  bool
	}{{"strict", toolset.Strict, false}, {" Lenient ", toolset.Lenient, false}, {"", "", false}, {"loose", "", true}} {
		m, err := toolset.ParseValidationMode(tc.in)
		require.Equal(t, tc.err, err != nil, tc.in)
		require.Equal(t, tc.want, m, tc.in)
	}
}
