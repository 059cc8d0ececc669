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
		// "find the Paris destination id" states the key step, but names
		// neither search_hotel_destination nor its function.
		{"functions described, not named", "For Paris: find the Paris destination id, search hotels for the dates, check the hotel reviews of the best candidates, get the room list with prices, convert the price into US dollars with the currency exchange.", true, "booking_com.search_hotel_destination"},
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

// TestPlanReadsMeaning: key steps match by meaning, alternatives are
// any-of, a step counts for one API and one key step, and the order is
// checked between steps.
func TestPlanReadsMeaning(t *testing.T) {
	ev := newEvaluator(testStack(t), 0, nil)
	tests := []struct {
		name, id, plan string
		pass           bool
		// missed is a part of one entry of Missed or of the verdict's
		// detail (the APIs the request does not need), "" for none.
		missed string
	}{
		{"key steps in other words", "V-daily_briefing-01",
			"1. Check the clock with agent_clock-get_current_time so the briefing opens with today's date.\n" +
				"2. Work out where you are with user_info-get_user_location (city and coordinates).\n" +
				"3. Pull the current conditions for that city with weatherapi_com-realtime_weather_api.\n" +
				"4. Fetch the latest headlines with real_time_news_data-top_headlines and keep the top five.", true, ""},
		{"a calculator or python_interpreter: either is the job", "V-data_analysis-01",
			"1. Compute the average of the numbers with calculator-calculate (or python_interpreter-run_python for a longer list).\n" +
				"2. Get the EUR to USD rate with currency_exchange-exchange.\n" +
				"3. Convert the average into dollars at that rate with the calculator.", true, ""},
		{"python_interpreter alone does the calculator's job", "V-data_analysis-01",
			"1. Work out the mean of the figures with python_interpreter-run_python.\n" +
				"2. Look up the EUR to USD rate with currency_exchange-exchange.\n" +
				"3. Convert the average into dollars, again in Python.", true, ""},
		{"one step naming every API", "V-daily_briefing-01",
			"1. Use agent_clock-get_current_time, user_info-get_user_location, weatherapi_com-realtime_weather_api and real_time_news_data-top_headlines to get the current time, the user's location, the weather there and the top headlines.", false, "user_info.get_user_location"},
		{"steps that only repeat the APIs' names", "V-daily_briefing-01",
			"1. Get current time with agent_clock-get_current_time.\n2. Get user location with user_info-get_user_location.\n3. Get realtime weather with weatherapi_com-realtime_weather_api.\n4. Get top headlines with real_time_news_data-top_headlines.", false, "agent_clock.get_current_time"},
		{"the search before the place ids it needs", "V-flight_booking-03",
			"1. Search one-way business-class flights from Madrid to New York on 2025-07-01 with skyscanner80-flights_search_one_way.\n" +
				"2. Look up the place ids of Madrid and New York with skyscanner80-flights_auto_complete.\n" +
				"3. Get the details and fares of the best itinerary with skyscanner80-flights_detail.", true, "planned before skyscanner80.flights_auto_complete"},
		{"an arrow between two APIs plans both", "V-hotel_stay-01",
			"1. booking_com-search_hotel_destination → booking_com-search_hotels — find the Paris destination id, then search hotels for June 20–23.\n" +
				"2. booking_com-get_hotel_reviews — check the reviews of the best candidates.\n" +
				"3. booking_com-get_room_list — get room prices.\n" +
				"4. currency_exchange-exchange — convert the price into US dollars.", true, ""},
		{"two APIs in parentheses, one then the other", "V-hotel_stay-01",
			"1. Find the Paris destination id and search hotels for June 20–23 (booking_com-search_hotel_destination, then booking_com-search_hotels).\n" +
				"2. Check the reviews of the best candidates with booking_com-get_hotel_reviews.\n" +
				"3. Get room prices with booking_com-get_room_list.\n" +
				"4. Convert the price into US dollars with currency_exchange-exchange.", true, ""},
		{"a phrase shared with a description is no copy", "V-local_context-03",
			"1. geocoding-reverse_geocode — reverse-geocode 41.1496, -8.611 to the place name.\n" +
				"2. open_weather-five_day_forecast — get the weather there for the same coordinates.\n" +
				"3. world_time-timezone_by_location — with the same coordinates, to get the time zone and current local time.", true, ""},
		{"a description written out is a copy", "V-local_context-03",
			"1. geocoding-reverse_geocode: Reverse geocoding: get the nearest place (landmark within 300 m, else city within 60 km) of a coordinate, with its address.\n" +
				"2. open_weather-five_day_forecast — get the weather there, every three hours.\n" +
				"3. world_time-timezone_by_location — get the local time there.", true, "reverse-geocode the coordinates"},
		{"polling and fetching the details the docs require are needed", "V-flight_booking-03",
			"1. skyscanner80-flights_auto_complete — look up the place ids of Madrid and New York.\n" +
				"2. skyscanner80-flights_search_one_way — search one-way business-class flights on 2025-07-01.\n" +
				"3. skyscanner80-flights_search_incomplete — poll with the sessionId until the results are complete.\n" +
				"4. skyscanner80-flights_detail — get the details of the best itinerary, with its fares.", true, ""},
		{"an API the request does not need costs coverage", "V-flight_booking-03",
			"1. skyscanner80-flights_auto_complete — look up the place ids of Madrid and New York.\n" +
				"2. skyscanner80-flights_search_one_way — search one-way business-class flights on 2025-07-01.\n" +
				"3. skyscanner80-flights_detail — get the details of the best itinerary, with its fares.\n" +
				"4. airport_info-nearby_airports — find the airports near Madrid within 50 km.", true, "airport_info.nearby_airports"},
		{"an API that only takes an ID a group API returns is a detour", "V-hotel_stay-01",
			"1. booking_com-search_hotel_destination — find the Paris destination id.\n" +
				"2. booking_com-search_hotels — search hotels for June 20–23.\n" +
				"3. booking_com-get_hotel_reviews — check the reviews of the best candidates.\n" +
				"4. booking_com-get_hotel_photos — look at the photos of the best candidates.\n" +
				"5. booking_com-get_room_list — get room prices.\n" +
				"6. currency_exchange-exchange — convert the price into US dollars.", true, "booking_com.get_hotel_photos"},
		{"an optional step costs nothing", "V-image_pipeline-04",
			"1. web_capture-take_screenshot — capture https://www.timeout.com.\n" +
				"2. image_file_processing-resize_image — resize it to 640 px wide.\n" +
				"3. image_file_processing-compress_image — compress it to cut the file size.\n" +
				"4. image_file_processing-convert_image_format — convert to GIF.\n" +
				"5. (Optional) image_file_processing-image_info — confirm the format and size.", true, ""},
		{"the same step unmarked is a detour", "V-image_pipeline-04",
			"1. web_capture-take_screenshot — capture https://www.timeout.com.\n" +
				"2. image_file_processing-resize_image — resize it to 640 px wide.\n" +
				"3. image_file_processing-compress_image — compress it to cut the file size.\n" +
				"4. image_file_processing-convert_image_format — convert to GIF.\n" +
				"5. image_file_processing-image_info — confirm the format and size.", true, "image_file_processing.image_info"},
		{"steps packing every action on every thing plan nothing", "V-image_pipeline-04",
			"1. web_capture-take_screenshot: capture compress convert gif page resize screenshot small.\n" +
				"2. image_file_processing-resize_image: capture compress convert gif page resize screenshot small.\n" +
				"3. image_file_processing-compress_image: capture compress convert gif page resize screenshot small.\n" +
				"4. image_file_processing-convert_image_format: capture compress convert gif page resize screenshot small.", false, "capture the page"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := scoreAnswer(t, ev, TaskPlan, tt.id, tt.plan)
			require.Equal(t, tt.pass, res.Pass, "%s %.2f %v %s", res.Outcome, res.Score, res.Missed, res.Detail)
			if tt.missed != "" {
				require.Contains(t, strings.Join(append(res.Missed, res.Detail), "\n"), tt.missed)
			} else {
				require.Equal(t, 1.0, res.Score, "%v %s", res.Missed, res.Detail)
			}
		})
	}
}
