package evaltasks

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/understudy/understudy/toolset"

	"github.com/stretchr/testify/require"
)

// TestValidateShipped holds the embedded dataset to every check: counts,
// coverage, gold calls executed on the stand-ins, facts, chains, groups.
func TestValidateShipped(t *testing.T) {
	rep, err := Validate(context.Background(), ShippedOptions())
	if rep != nil && (err != nil || testing.Verbose()) {
		_ = rep.WriteSummary(os.Stdout)
	}
	require.NoError(t, err)
	require.True(t, rep.OK())
	require.Empty(t, rep.Uncovered)
	for typ, min := range PaperCounts {
		require.GreaterOrEqual(t, rep.ByType[typ], min, "type %d", typ)
	}
}

func mustProblems(t *testing.T, ins []Instruction) []Problem {
	t.Helper()
	rep, err := Validate(context.Background(), ValidateOptions{Instructions: ins})
	require.NotNil(t, rep)
	var ve *ValidationError
	if err != nil {
		require.True(t, errors.As(err, &ve), "%v", err)
	}
	return rep.Problems
}

func goodTypeII() Instruction {
	return Instruction{ID: "t2", Type: TypeSufficient, Text: "Where is the IP address 85.17.142.23 located?", TargetAPI: "ip_geolocation.lookup_ip",
		GoldCall:      &GoldCall{API: "ip_geolocation.lookup_ip", Arguments: map[string]Acceptable{"ip": {Values: []any{"85.17.142.23"}}}},
		ExpectedFacts: []string{"Lisbon"}}
}

// TestValidateCatches checks that each kind of bad record is reported with
// the field at fault.
func TestValidateCatches(t *testing.T) {
	chainOK := []GoldStep{{API: "geocoding.forward_geocode", Arguments: map[string]any{"address": "Porto"}},
		{API: "world_time.timezone_by_location", Bindings: map[string]Binding{"lat": {Step: 0, Path: "results[].lat"}, "lon": {Step: 0, Path: "results[].lon"}}}}
	tests := []struct {
		name  string
		edit  func(in *Instruction)
		field string
	}{
		{"good", func(in *Instruction) {}, ""},
		{"fact not in response", func(in *Instruction) { in.ExpectedFacts = []string{"Atlantis"} }, "expected_facts[0]"},
		{"unknown argument", func(in *Instruction) { in.GoldCall.Arguments["zip"] = Acceptable{Values: []any{"1"}} }, "gold_call.arguments.zip"},
		{"missing required", func(in *Instruction) { delete(in.GoldCall.Arguments, "ip") }, "gold_call.arguments"},
		{"bad alternative", func(in *Instruction) {
			in.GoldCall.Arguments["ip"] = Acceptable{Values: []any{"85.17.142.23", map[string]any{"a": 1.0}}}
		}, "gold_call.arguments.ip.values[1]"},
		{"unknown target", func(in *Instruction) {
			in.TargetAPI, in.GoldCall.API = "ip_geolocation.lookup", "ip_geolocation.lookup"
		}, "target_api"},
		{"names the API", func(in *Instruction) { in.Text = "call lookup_ip for 85.17.142.23" }, "text"},
		{"type III value present", func(in *Instruction) {
			*in = Instruction{ID: "t3", Type: TypeMissing, Text: "What's the weather in Paris?", TargetAPI: "weatherapi_com.realtime_weather_api", Missing: []string{"q"}}
		}, "missing"},
		{"type III present absent", func(in *Instruction) {
			*in = Instruction{ID: "t3", Type: TypeMissing, Text: "What are the holidays?", TargetAPI: "public_holiday.public_holidays", Missing: []string{"countryCode"}, Present: map[string]any{"year": 2025.0}}
		}, "present.year"},
		{"type IV good", func(in *Instruction) {
			*in = Instruction{ID: "t4", Type: TypeDependencies, Text: "Which time zone is Porto in?", Chain: chainOK}
		}, ""},
		{"type IV not an edge", func(in *Instruction) {
			*in = Instruction{ID: "t4", Type: TypeDependencies, Text: "Which time zone is Porto in?", Chain: []GoldStep{chainOK[0],
				{API: "world_time.timezone_by_location", Bindings: map[string]Binding{"lat": {Step: 0, Path: "results[].lon"}, "lon": {Step: 0, Path: "results[].lon"}}}}}
		}, "chain[1].bindings.lat"},
		{"type IV fails to run", func(in *Instruction) {
			*in = Instruction{ID: "t4", Type: TypeDependencies, Text: "Which airports are near Atlantis?", Chain: []GoldStep{{API: "geocoding.forward_geocode", Arguments: map[string]any{"address": "Atlantis"}},
				{API: "airport_info.nearby_airports", Bindings: map[string]Binding{"lat": {Step: 0, Path: "results[].lat"}, "lon": {Step: 0, Path: "results[].lon"}}}}}
		}, "chain[1].bindings.lat"},
		{"type V not in group", func(in *Instruction) {
			*in = Instruction{ID: "t5", Type: TypeHighLevel, Text: "Plan a trip.", Group: "trip_planning", GroupAPIs: []string{"booking_com.search_hotels", "calculator.calculate"}, KeySteps: []string{"a", "b", "c"}}
		}, "group_apis[1]"},
		{"type V unknown group", func(in *Instruction) {
			*in = Instruction{ID: "t5", Type: TypeHighLevel, Text: "Plan a trip.", Group: "space_travel", GroupAPIs: []string{"booking_com.search_hotels"}, KeySteps: []string{"a", "b", "c"}}
		}, "group"},
		{"type I key point not in reference", func(in *Instruction) {
			*in = Instruction{ID: "t1", Type: TypeNoTool, Text: "Capital of France?", TemptingAPI: "iso_codes.country_by_code", ReferenceAnswer: "Paris is the capital.", KeyPoints: []string{"Lyon"}}
		}, "key_points[0]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := goodTypeII()
			tc.edit(&in)
			probs := mustProblems(t, []Instruction{in})
			if tc.field == "" {
				require.Empty(t, probs)
				return
			}
			var fields []string
			for _, p := range probs {
				fields = append(fields, p.Field)
			}
			require.Contains(t, fields, tc.field, "%v", probs)
		})
	}
}

func TestValidateNearDuplicatesAndCounts(t *testing.T) {
	a, b := goodTypeII(), goodTypeII()
	b.ID, b.Text = "t2b", "Where is the IP address 8.8.8.8 located?"
	b.GoldCall = &GoldCall{API: "ip_geolocation.lookup_ip", Arguments: map[string]Acceptable{"ip": {Values: []any{"8.8.8.8"}}}}
	b.ExpectedFacts = []string{"United States"}
	rep, err := Validate(context.Background(), ValidateOptions{Instructions: []Instruction{a, b}, MinCounts: map[int]int{TypeSufficient: 3}})
	require.Error(t, err)
	var msgs []string
	for _, p := range rep.Problems {
		msgs = append(msgs, p.String())
	}
	require.Len(t, rep.Problems, 2, "%v", msgs)
	require.Contains(t, msgs[0]+msgs[1], "near-duplicate")
	require.Contains(t, msgs[0]+msgs[1], "fewer than the 3")
}

func TestValidatePerturbingReproducible(t *testing.T) {
	calls := 0
	flaky := func(cat *toolset.Catalog, ix *toolset.Index, in Instruction) []string {
		calls++
		out := PerturbingAPIs(cat, ix, in)
		if calls%2 == 0 {
			out[0], out[1] = out[1], out[0]
		}
		return out
	}
	rep, err := Validate(context.Background(), ValidateOptions{Instructions: []Instruction{goodTypeII()}, Perturb: flaky})
	require.Error(t, err)
	require.Equal(t, "perturbing", rep.Problems[0].Field)

	rep, err = Validate(context.Background(), ValidateOptions{Instructions: []Instruction{goodTypeII()}})
	require.NoError(t, err)
	require.Len(t, rep.Perturbing["t2"], 4)
	require.NotContains(t, rep.Perturbing["t2"], "ip_geolocation.lookup_ip")
}

func TestWriteSummaryGolden(t *testing.T) {
	rep, err := Validate(context.Background(), ValidateOptions{Instructions: []Instruction{goodTypeII()}})
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, rep.WriteSummary(&b))
	golden := filepath.Join("testdata", "validate_summary.golden.txt")
	if *updateValidate {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	require.Equal(t, string(want), b.String())
}

var updateValidate = flag.Bool("update-validate", false, "rewrite the validator's golden files")

func FuzzTextSimilarity(f *testing.F) {
	f.Add("What's the weather in Paris?", "What's the weather in Rome?")
	f.Add("", "x")
	f.Add("a. B! 3", "«quoted» 'text' 12.5 °C")
	f.Fuzz(func(t *testing.T, a, b string) {
		s := TextSimilarity(a, b)
		if s < 0 || s > 1 || s != TextSimilarity(b, a) {
			t.Fatalf("similarity(%q, %q) = %v, not in [0,1] or not symmetric", a, b, s)
		}
		if TextSimilarity(a, a) != 1 {
			t.Fatalf("similarity of %q with itself is not 1", a)
		}
	})
}

func BenchmarkTextSimilarity(b *testing.B) {
	x := "Hey! what's the weather usually like in Lisbon in July? Just curious."
	y := "Quick question: how hot does Amsterdam typically get in February? Thanks!"
	for b.Loop() {
		TextSimilarity(x, y)
	}
}
