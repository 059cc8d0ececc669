package dataset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/search"
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
		{"an assistant turn before any user turn", func(in *Instruction) {
			in.History = []GoldStep{{API: "geocoding.forward_geocode", Arguments: map[string]any{"address": "Porto"}}}
		}, "earlier"},
		{"an earlier request without earlier turns", func(in *Instruction) { in.Earlier = "Where is Porto?" }, "earlier"},
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
	flaky := func(cat *toolset.Catalog, ix *search.Index, in Instruction) []string {
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
	golden.Check(t, filepath.Join("testdata", "validate_summary.golden.txt"), []byte(b.String()))
}

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

func TestOpenerCloser(t *testing.T) {
	tests := []struct{ text, opener, closer string }{
		{"Quick question: what's the capital of Peru? A ballpark is fine.", "quick question", "a ballpark is fine"},
		{"Hey! How hot does Rome get in July? thx", "hey", "thx"},
		{"ok so what's 7 times 3", "ok so", "times 3"},
		{"Sorry if this is basic, but which zone is Oslo in? (for a quiz tonight)", "sorry if this is basic", "for a quiz tonight"},
		{"What's the weather like in London right now?", "whats the", "right now"},
		{"I always forget — Phone prefix for Chile?", "i always forget", "for chile"},
		{"", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			require.Equal(t, tc.opener, Opener(tc.text))
			require.Equal(t, tc.closer, Closer(tc.text))
		})
	}
}

// leakySet builds Type-I and Type-II texts over the same cores; framed
// wraps the i-th text of a type.
func leakySet(framed func(typ, i int, core string) string) []Instruction {
	cores := []string{"what's the weather in Lisbon", "which zone is Oslo in", "how many hotels in Rome", "what time is it in Seoul", "the capital of Peru", "sunset in Athens", "the currency of Chile", "7 times 3", "photos of hotel 12", "news about climate talks", "the calling code for Japan", "headlines in Germany"}
	var ins []Instruction
	for i := 0; i < 60; i++ {
		core := cores[i%len(cores)] + "?"
		ins = append(ins, Instruction{ID: fmt.Sprintf("I-%d", i), Type: TypeNoTool, Text: framed(TypeNoTool, i, core)})
		ins = append(ins, Instruction{ID: fmt.Sprintf("II-%d", i), Type: TypeSufficient, Text: framed(TypeSufficient, i, core)})
	}
	return ins
}

func TestMeasureLeakage(t *testing.T) {
	openers := []string{"Quick question: ", "Hey! ", "", "Out of curiosity, ", "", "Hi, "}
	closers := []string{" Thanks!", "", " thx", "", " Cheers."}
	tests := []struct {
		name   string
		framed func(typ, i int, core string) string
		leaks  bool
	}{
		{"shared pools", func(typ, i int, core string) string {
			return openers[(i*7)%len(openers)] + core + closers[(i*3)%len(closers)]
		}, false},
		{"Type-I openers", func(typ, i int, core string) string {
			if typ == TypeNoTool {
				return openers[i%2] + core
			}
			return core
		}, true},
		{"Type-I closers", func(typ, i int, core string) string {
			if typ == TypeNoTool && i%3 != 0 {
				return core + " A ballpark is fine."
			}
			return core
		}, true},
		{"Type-II first word", func(typ, i int, core string) string {
			if typ == TypeSufficient {
				return "Can you tell me " + core
			}
			return "Tell me " + core
		}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := MeasureLeakage(leakySet(tc.framed))
			require.Equal(t, 120, rep.Records)
			require.Equal(t, 60, rep.NoTool)
			require.InDelta(t, 2*60.0/(2*60+60), rep.AlwaysCallF1, 1e-9)
			require.NotEmpty(t, rep.Worst)
			if !tc.leaks {
				require.Empty(t, rep.Leaks, "%v", rep.Worst)
				require.LessOrEqual(t, rep.FramingRuleF1, rep.AlwaysCallF1+1e-9)
				return
			}
			require.NotEmpty(t, rep.Leaks)
			require.GreaterOrEqual(t, rep.Leaks[0].Precision, LeakageMaxPrecision)
			require.GreaterOrEqual(t, rep.Leaks[0].Support, LeakageMinSupport)
		})
	}
	// The validator turns leaks into problems, with the rule's F1.
	probs := mustProblems(t, leakySet(func(typ, i int, core string) string {
		if typ == TypeNoTool {
			return "Quick question: " + core + " Just curious."
		}
		return core
	}))
	var msgs []string
	for _, p := range probs {
		if p.Field == "leakage" {
			msgs = append(msgs, p.Msg)
		}
	}
	require.NotEmpty(t, msgs)
	require.Contains(t, strings.Join(msgs, "\n"), "better than always calling a tool")
	require.Contains(t, strings.Join(msgs, "\n"), `opener "quick question"`)
}

// TestShippedDatasetDoesNotLeak holds the shipped dataset to the leakage
// bounds directly, so that a failure names the features.
func TestShippedDatasetDoesNotLeak(t *testing.T) {
	ins, err := LoadDir(fixtures.FS, "instructions")
	require.NoError(t, err)
	rep := MeasureLeakage(ins)
	require.Empty(t, rep.Leaks)
	require.LessOrEqual(t, rep.FramingRuleF1, rep.AlwaysCallF1)
	for _, f := range rep.Worst {
		require.Less(t, f.Precision, LeakageMaxPrecision, "%s", f)
	}
}

func TestExpectedFactFault(t *testing.T) {
	doc := map[string]any{"status": "success", "steps": 10.0, "ok": true, "output": "[1, 3, 5, 9]\n", "city": "Lisbon",
		"items": []any{map[string]any{"title": "Insurers ease Red Sea premiums, raising hopes for Asia–Europe trade"}, map[string]any{"title": "Doctors warn of heat illness as temperatures soar"}}}
	search := &Instruction{Text: "What do the papers say about people falling ill in the heat?", GoldCall: &GoldCall{API: "web_search.news_search", Arguments: map[string]Acceptable{"q": {Values: []any{"heat illness"}}}}}
	plain := &Instruction{Text: "Run print(sorted([5, 3, 9, 1])) in Python; where is it run? Lisbon?", GoldCall: &GoldCall{API: "python_interpreter.run_python"}}
	tests := []struct {
		in    *Instruction
		fact  string
		fault string
	}{
		{plain, "[1, 3, 5, 9]", ""},
		{plain, "success", "status literal"},
		{plain, "OK", "status literal"},
		{plain, "true", "status literal"},
		{plain, "10", "bookkeeping"},
		{plain, "Lisbon", "already in the question"},
		{search, "Doctors warn of heat illness as temperatures soar", ""},
		{search, "Insurers ease Red Sea premiums, raising hopes for Asia–Europe trade", "unrelated"},
	}
	for _, tc := range tests {
		t.Run(tc.fact, func(t *testing.T) {
			got := ExpectedFactFault(tc.in, doc, tc.fact)
			if tc.fault == "" {
				require.Empty(t, got)
				return
			}
			require.Contains(t, got, tc.fault)
		})
	}
}

func TestEmptyAcceptableValues(t *testing.T) {
	in := goodTypeII()
	in.GoldCall.Arguments["ip"] = Acceptable{Optional: true}
	var ea *EmptyAcceptableError
	require.True(t, errors.As(in.Check(), &ea), "%v", in.Check())
	require.Equal(t, "ip", ea.Param)
	probs := mustProblems(t, []Instruction{in})
	require.NotEmpty(t, probs)
	require.Contains(t, probs[0].Msg, "no acceptable values")
	_, err := ReadJSONL(strings.NewReader(`{"id":"x","type":2,"text":"Where is 8.8.8.8?","target_api":"ip_geolocation.lookup_ip","gold_call":{"api":"ip_geolocation.lookup_ip","arguments":{"ip":{"values":[]}}},"expected_facts":["United States"]}`), "t.jsonl")
	require.True(t, errors.As(err, &ea), "%v", err)
}

func TestTypeIKeyPoints(t *testing.T) {
	ref := "In July, Lisbon usually has daytime highs around 28 °C and lows around 18 °C, with rain on about 1 days of the month, so it is fairly dry."
	rec := func(text string, kps ...string) Instruction {
		return Instruction{ID: "t1", Type: TypeNoTool, Text: text, TemptingAPI: "weatherapi_com.forecast_weather_api", ReferenceAnswer: ref, KeyPoints: kps}
	}
	tests := []struct {
		name  string
		in    Instruction
		field string
	}{
		{"rain asked, rain given", rec("Is Lisbon generally rainy in July?", "1 days"), ""},
		{"rain asked, temperatures given", rec("Is Lisbon generally rainy in July?", "28 °C", "18 °C"), "key_points"},
		{"cold asked, rain given", rec("Does it get cold at night in Lisbon in July?", "1 days"), "key_points"},
		{"roughly, number", rec("Roughly how warm is Lisbon in July?", "28 °C"), ""},
		{"roughly, no number", rec("Roughly how warm is Lisbon in July?", "fairly dry"), "key_points[0]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fields []string
			for _, p := range mustProblems(t, []Instruction{tc.in}) {
				fields = append(fields, p.Field)
			}
			if tc.field == "" {
				require.Empty(t, fields)
				return
			}
			require.Contains(t, fields, tc.field)
		})
	}
}

func FuzzFraming(f *testing.F) {
	f.Add("Quick question: what's the capital of Peru? A ballpark is fine.")
	f.Add("ok so (what) — ! : ,")
	f.Add("é — ?")
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range []string{Opener(text), Closer(text)} {
			if s != strings.ToLower(s) || strings.TrimSpace(s) != s || len(strings.Fields(s)) > maxFramingWords {
				t.Fatalf("framing %q of %q is not a short lower-case phrase", s, text)
			}
		}
	})
}
