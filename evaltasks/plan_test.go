package evaltasks

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
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
