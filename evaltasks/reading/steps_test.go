package reading

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
)

var (
	catOnce sync.Once
	cat     *toolset.Catalog
	catErr  error
)

// testAPIs are catalog APIs by ID, from the default offline sandbox.
func testAPIs(t testing.TB, ids ...string) []*toolset.API {
	t.Helper()
	catOnce.Do(func() {
		st, err := assemble.Build(assemble.Config{})
		if err == nil {
			cat = st.Catalog
		}
		catErr = err
	})
	require.NoError(t, catErr)
	var out []*toolset.API
	for _, id := range ids {
		tool, name, _ := strings.Cut(id, ".")
		a := cat.API(tool, name)
		require.NotNil(t, a, id)
		out = append(out, a)
	}
	return out
}

// planAPIs are the APIs the tests' plans name.
var planAPIs = []string{"booking_com.search_hotel_destination", "booking_com.search_hotels", "booking_com.get_hotel_reviews",
	"image_file_processing.resize_image", "image_file_processing.compress_image", "world_time.timezone_by_location",
	"skyscanner80.flights_search_one_way", "skyscanner80.flights_search_incomplete"}

func ids(as []*toolset.API) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.ID())
	}
	return out
}

func TestItems(t *testing.T) {
	tests := []struct {
		name string
		plan string
		want []string
	}{
		{"numbered", "Plan:\n1. Find the id.\n2. Search hotels.\n3. Done.", []string{"Plan:", "1. Find the id.", "2. Search hotels.", "3. Done."}},
		{"bulleted with continuation lines", "- Step one\n  with more\n- Step two", []string{"- Step one   with more", "- Step two"}},
		{"prose", "First, I geocode Cork. Then I find airports nearby! Finally, flights from https://x.test/a.b?", []string{"First, I geocode Cork.", " Then I find airports nearby!", " Finally, flights from https://x.test/a.b?"}},
		{"decimals and dotted names stay whole", "Use geocoding.forward_geocode for 41.15 and -8.61. Done.", []string{"Use geocoding.forward_geocode for 41.15 and -8.61.", " Done."}},
		{"bold and code read as text", "1. **Hotels** — `booking_com-search_hotels`\n2. **Reviews**", []string{"1. Hotels — booking_com-search_hotels", "2. Reviews"}},
		{"a table's rows are items, its rule is not", "| Step | API | What for |\n|---|---|---|\n| 1 | search_hotels | the hotels |\n| 2 | get_hotel_reviews | their reviews |",
			[]string{"- Step — API — What for", "- 1 — search_hotels — the hotels", "- 2 — get_hotel_reviews — their reviews"}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, Items(tt.plan))
		})
	}
}

func TestReadPlanSteps(t *testing.T) {
	apis := testAPIs(t, planAPIs...)
	type want struct {
		text    string
		actions []string
		apis    []string
	}
	tests := []struct {
		name string
		plan string
		want []want
	}{
		{"an arrow between names is two steps", "1. booking_com-search_hotel_destination → booking_com-search_hotels — cheap hotels for the dates.",
			[]want{{"booking_com-search_hotel_destination", []string{"search"}, []string{"booking_com.search_hotel_destination"}},
				{"booking_com-search_hotels — cheap hotels for the dates.", []string{"search"}, []string{"booking_com.search_hotels"}}}},
		{"an arrow between values is not", "1. world_time-timezone_by_location — 41.1496, -8.611 → the local time.",
			[]want{{"world_time-timezone_by_location — 41.1496, -8.611 → the local time.", []string{"call"}, []string{"world_time.timezone_by_location"}}}},
		{"a then inside parentheses cuts", "Find the hotel (booking_com-search_hotel_destination, then booking_com-search_hotels).",
			[]want{{"Find the hotel (booking_com-search_hotel_destination,", []string{"find"}, []string{"booking_com.search_hotel_destination"}},
				{"then booking_com-search_hotels).", []string{"search"}, []string{"booking_com.search_hotels"}}}},
		{"the verb, not the carrier", "Call image_file_processing-compress_image to shrink it and convert it to GIF.",
			[]want{{"Call image_file_processing-compress_image to shrink it", []string{"compress", "shrink"}, []string{"image_file_processing.compress_image"}},
				{"convert it to GIF.", []string{"convert"}, nil}}},
		{"a name without an action is a call", "- skyscanner80-flights_search_incomplete — until complete",
			[]want{{"skyscanner80-flights_search_incomplete — until complete", []string{"search"}, []string{"skyscanner80.flights_search_incomplete"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ReadPlan(tt.plan, apis)
			require.Len(t, p.Steps, len(tt.want))
			for i, w := range tt.want {
				st := p.Steps[i]
				require.Equal(t, w.text, st.Text)
				for _, a := range w.actions {
					require.Contains(t, st.Actions, lemma(a), "actions of %q", st.Text)
				}
				require.Equal(t, w.apis, ids(st.APIs))
			}
		})
	}
}

func lemma(w string) string { return strings.Join(textmatch.Lemmas(w), " ") }

func TestChainsLendTheirPurpose(t *testing.T) {
	apis := testAPIs(t, planAPIs...)
	p := ReadPlan("1. booking_com-search_hotel_destination → booking_com-search_hotels — cheap hotels in Lisbon.\n2. booking_com-get_hotel_reviews — their reviews.", apis)
	require.Len(t, p.Steps, 3)
	require.Empty(t, p.Steps[0].Prose, "the first step only names its API")
	require.Contains(t, p.Steps[0].Chain, lemma("hotels"), "it is for what its chain does")
	require.NotContains(t, p.Steps[2].Chain, lemma("cheap"), "another item is another chain")
}

func TestPackedSteps(t *testing.T) {
	apis := testAPIs(t, planAPIs...)
	tests := []struct {
		name   string
		step   string
		packed bool
	}{
		{"one action on one object", "Search hotels in Lisbon for the dates with booking_com-search_hotels.", false},
		{"two actions in one breath", "Search the hotels to compare their prices.", false},
		{"a list of objects", "Get the legs, segments, fare conditions and booking options with their prices.", false},
		{"a long natural phrase", "Check typical late-September Kyoto weather conditions for the trip.", false},
		{"a bag of verbs", "booking_com-search_hotels: add average calculate capture check combine compare.", true},
		{"a bag of words", "booking_com-search_hotels: airport city destination flight forecast hotel news weather.", true},
		{"verbs listed with commas", "Use booking_com-search_hotels to find, check, compare, rank and pick the hotels.", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ReadPlan(tt.step, apis)
			packed := false
			for _, st := range p.Steps {
				packed = packed || st.Packed
			}
			require.Equal(t, tt.packed, packed, "%+v", p.Steps)
		})
	}
}

func TestOptionalSteps(t *testing.T) {
	apis := testAPIs(t, planAPIs...)
	tests := []struct {
		step     string
		optional bool
	}{
		{"4. (Optional) Squeeze further with image_file_processing-compress_image.", true},
		{"Compress it with image_file_processing-compress_image if it is still large, if needed.", true},
		{"Poll skyscanner80-flights_search_incomplete as needed.", true},
		{"Compress it with image_file_processing-compress_image.", false},
	}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			p := ReadPlan(tt.step, apis)
			require.NotEmpty(t, p.Steps)
			require.Equal(t, tt.optional, p.Steps[0].Optional)
		})
	}
}

func TestKindsOfValues(t *testing.T) {
	apis := testAPIs(t, planAPIs...)
	p := ReadPlan("Capture https://www.timeout.com. Reverse-geocode 41.1496, -8.611.", apis)
	require.Len(t, p.Steps, 2)
	require.Contains(t, p.Steps[0].Lemmas, lemma("page"), "a URL is a page")
	require.Contains(t, p.Steps[1].Lemmas, lemma("coordinates"), "a pair of decimals is coordinates")
	require.NotContains(t, p.Steps[1].Lemmas, lemma("page"))
}

func TestCopies(t *testing.T) {
	desc := "Get the time zone (and current local time) of a point given by latitude and longitude; also names the nearest city."
	short := "Get the current weather for a city."
	tests := []struct {
		name string
		text string
		want bool
	}{
		{"a phrase shared with the description", "world_time-timezone_by_location to get the time zone and current local time", false},
		{"the description written out", "Call it: get the time zone and current local time of a point given by latitude and longitude.", true},
		{"a short description is no quotation", "Get the current weather for a city.", false},
		{"another description's words", "Search hotels for the dates and check their reviews.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, Copies(tt.text, []string{desc, short}))
		})
	}
}

func FuzzReadPlan(f *testing.F) {
	for _, s := range []string{"1. a\n2. b", "- x\n  y\n- z", "A. B! C?", "", "\n\n1.", "Step 1: go\nStep 2: stop",
		"| a | b |\n|---|---|\n| c | d |", "**x** → `booking_com-search_hotels`, then y", "→ → then and , ;", "(optional) 41.1, -8.6 https://a.b"} {
		f.Add(s)
	}
	apis := testAPIs(f, planAPIs...)
	f.Fuzz(func(t *testing.T, plan string) {
		p := ReadPlan(plan, apis)
		for _, it := range p.Items {
			require.NotEmpty(t, strings.TrimSpace(it))
		}
		for _, st := range p.Steps {
			require.NotEmpty(t, strings.TrimSpace(st.Text))
			require.GreaterOrEqual(t, st.Item, 0)
			require.Less(t, st.Item, len(p.Items))
			require.False(t, st.Packed && len(st.Actions) > 0, "a packed step does nothing: %+v", st)
			for _, a := range st.APIs {
				require.NotNil(t, a)
			}
		}
	})
}
