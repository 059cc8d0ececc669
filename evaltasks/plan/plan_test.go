package plan

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/toolset"
)

var (
	stackOnce sync.Once
	stack     *assemble.Stack
	stackErr  error
)

// testStack is the default offline sandbox, built once for the package's
// tests: its catalog is the one plans are read against.
func testStack(t testing.TB) *assemble.Stack {
	t.Helper()
	stackOnce.Do(func() { stack, stackErr = assemble.Build(assemble.Config{}) })
	require.NoError(t, stackErr)
	return stack
}

func TestRefersTo(t *testing.T) {
	cat := testStack(t).Catalog
	api := func(id string) *toolset.API {
		a := dataset.ResolveAPI(cat, id)
		require.NotNil(t, a, id)
		return a
	}
	offered := []*toolset.API{api("real_time_news_data.search"), api("web_search.web_search"), api("booking_com.search_hotels"), api("skyscanner80.flights_search_roundtrip")}
	ambiguous := ambiguousWords(offered)
	tests := []struct {
		name string
		api  string
		step string
		want bool
	}{
		{"dotted export name", "booking_com.search_hotels", "Call booking_com-search_hotels for the dates.", true},
		{"catalog id", "booking_com.search_hotels", "Call booking_com.search_hotels for the dates.", true},
		{"toolbench name", "booking_com.search_hotels", "Call search_hotels_for_booking_com.", true},
		{"by its function", "booking_com.search_hotels", "Search hotels in Lisbon.", true},
		{"a compound written apart", "skyscanner80.flights_search_roundtrip", "Search round-trip flights for the dates.", true},
		{"half its function", "booking_com.search_hotels", "Search for things to do.", false},
		{"an ambiguous one-word name alone", "real_time_news_data.search", "Search the web for background.", false},
		{"an ambiguous one-word name with its tool", "real_time_news_data.search", "Search the news about the talks.", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := reading.ReadPlan(tt.step, offered).Steps[0]
			require.Equal(t, tt.want, refersTo(api(tt.api), st, ambiguous))
		})
	}
}

// TestNamedAPIsAreWhatAStepIsAbout: a step that names one API outright is
// not read as also using a sibling whose name words it shares, so naming
// the flight search before the search mints the itinerary does not count
// as planning flights_detail too early.
func TestNamedAPIsAreWhatAStepIsAbout(t *testing.T) {
	cat := testStack(t).Catalog
	api := func(id string) *toolset.API {
		a := dataset.ResolveAPI(cat, id)
		require.NotNil(t, a, id)
		return a
	}
	search, detail := api("skyscanner80.flights_search_one_way"), api("skyscanner80.flights_detail")
	offered := []*toolset.API{api("skyscanner80.flights_auto_complete"), search, detail}
	ambiguous := ambiguousWords(offered)
	st := reading.ReadPlan("Search flights one way with skyscanner80-flights_search_one_way for the date.", offered).Steps[0]
	require.True(t, describedIn(detail, st, ambiguous), "the step holds flights_detail's words")
	require.False(t, refersTo(detail, st, ambiguous), "it is about the API it names")
	require.True(t, refersTo(search, st, ambiguous))
	st = reading.ReadPlan("Search flights one way on skyscanner80 for the date.", offered).Steps[0]
	require.True(t, refersTo(detail, st, ambiguous), "a step that names nothing is read by its words")
}
