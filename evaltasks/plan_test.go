package evaltasks

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/toolset"
)

// scoreAnswer scores a text answer to an embedded instruction through the
// real view and scorer.
func scoreAnswer(t testing.TB, ev *evaluator, task int, id, answer string) *Result {
	t.Helper()
	in := embeddedRecord(t, id)
	inst := Instance{Task: task, In: &in}
	v, err := ev.view(context.Background(), inst)
	require.NoError(t, err)
	res := &Result{Key: inst.Key()}
	ev.score(inst, v, agent.Reply{Content: answer}, res)
	return res
}

func TestPlanSteps(t *testing.T) {
	tests := []struct {
		name string
		plan string
		want int
	}{
		{"numbered", "Plan:\n1. Find the id.\n2. Search hotels.\n3. Done.", 4},
		{"bulleted with continuation lines", "- Step one\n  with more\n- Step two", 2},
		{"prose", "First, I geocode Cork. Then I find airports nearby! Finally, flights from https://x.test/a.b?", 3},
		{"decimals and dotted names stay whole", "Use geocoding.forward_geocode for 41.15 and -8.61. Done.", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Len(t, planSteps(tt.plan), tt.want)
		})
	}
}

func TestPlanScorer(t *testing.T) {
	ev := newEvaluator(testStack(t), 0, nil)
	const id = "V-hotel_stay-01"
	good := "Plan for a Paris hotel, June 20-23:\n" +
		"1. booking_com-search_hotel_destination: find the dest_id for Paris.\n" +
		"2. booking_com-search_hotels: search hotels for the dates with that dest_id.\n" +
		"3. booking_com-get_hotel_reviews: check the reviews of the best candidates.\n" +
		"4. booking_com-get_room_list: get room prices.\n" +
		"5. currency_exchange-exchange: convert the price into US dollars."
	in := embeddedRecord(t, id)
	v, err := ev.view(context.Background(), Instance{Task: TaskPlan, In: &in})
	require.NoError(t, err)
	list := policyReply(t, listTools, v)
	echo := policyReply(t, listToolsUnderRequest, v)
	tests := []struct {
		name   string
		plan   string
		pass   bool
		missed string // a part of one entry of Missed
	}{
		{"a plan", good, true, ""},
		{"the same plan in prose", "For your Paris stay I'd first find the dest_id for Paris with booking_com-search_hotel_destination. Then I'd search hotels for June 20-23 with booking_com-search_hotels, check the reviews of the best ones with booking_com-get_hotel_reviews, get room prices with booking_com-get_room_list and convert the price into US dollars with currency_exchange-exchange.", true, ""},
		{"functions described, not named", "For Paris: find the Paris destination id, search hotels for the dates, check the hotel reviews of the best candidates, get the room list with prices, convert the price into US dollars with the currency exchange.", true, ""},
		{"names without what they do", "For Paris: booking_com-search_hotel_destination, booking_com-search_hotels, booking_com-get_hotel_reviews, booking_com-get_room_list, currency_exchange-exchange.", false, "booking_com.search_hotels"},
		{"a consumer before its provider", "Plan for a Paris hotel, June 20-23:\n" +
			"1. booking_com-search_hotels: search hotels for the dates.\n" +
			"2. booking_com-search_hotel_destination: find the dest_id for Paris.\n" +
			"3. booking_com-get_room_list: get room prices.\n" +
			"4. currency_exchange-exchange: convert the price into US dollars.", true, "planned before booking_com.search_hotel_destination"},
		{"every offered tool with its description", list.Content, false, "booking_com.search_hotels"},
		{"every offered tool with its description, and the request", echo.Content, false, "booking_com.search_hotels"},
		{"empty", "", false, "booking_com.search_hotels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := scoreAnswer(t, ev, TaskPlan, id, tt.plan)
			require.Equal(t, tt.pass, res.Pass, "%s %.2f %v", res.Outcome, res.Score, res.Missed)
			if tt.missed != "" {
				require.Contains(t, strings.Join(res.Missed, "\n"), tt.missed)
			} else {
				require.Equal(t, 1.0, res.Score, "%v", res.Missed)
			}
		})
	}
}

func FuzzPlanSteps(f *testing.F) {
	for _, s := range []string{"1. a\n2. b", "- x\n  y\n- z", "A. B! C?", "", "\n\n1.", "Step 1: go\nStep 2: stop"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, plan string) {
		steps := planSteps(plan)
		for _, st := range steps {
			require.NotEmpty(t, strings.TrimSpace(st.text))
		}
	})
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
			st := planSteps(tt.step)[0]
			require.Equal(t, tt.want, refersTo(api(tt.api), st, ambiguous))
		})
	}
}

// TestNamedSiblingExplainsItsWords: a step that names one API outright is
// not read as also using a sibling whose name words it shares, so naming
// the flight search before the search mints the itinerary does not count
// as planning flights_detail too early.
func TestNamedSiblingExplainsItsWords(t *testing.T) {
	cat := testStack(t).Catalog
	api := func(id string) *toolset.API {
		a := dataset.ResolveAPI(cat, id)
		require.NotNil(t, a, id)
		return a
	}
	search, detail := api("skyscanner80.flights_search_one_way"), api("skyscanner80.flights_detail")
	offered := []*toolset.API{api("skyscanner80.flights_auto_complete"), search, detail}
	ambiguous := ambiguousWords(offered)
	st := planSteps("Search flights one way with skyscanner80-flights_search_one_way for the date.")[0]
	require.True(t, describedIn(detail, st, ambiguous), "the step holds flights_detail's words")
	require.True(t, explainedBy(detail, []*toolset.API{search}), "they are the words of the API it names")
	require.False(t, explainedBy(search, []*toolset.API{detail}), "the search has words of its own")
	require.False(t, explainedBy(detail, []*toolset.API{detail}), "an API never explains itself away")
}
