package main

import (
	"fmt"
	"strings"

	"github.com/understudy/understudy/evaltasks/dataset"
)

// earlierRequest is the user's request that a record's earlier turns
// answered, in the user's words and with the values they gave: the
// conversation opens with it, as a conversation starts with the user.
func earlierRequest(history []dataset.GoldStep) string {
	arg := func(i int, name string) string {
		if i >= len(history) {
			return ""
		}
		return fmt.Sprint(history[i].Arguments[name])
	}
	switch history[0].API {
	case "background_removal.remove_background":
		return "Can you cut the background out of " + arg(0, "image_url") + "?"
	case "real_time_news_data.search":
		return "Find me news about " + arg(0, "query") + "."
	case "real_time_news_data.topic_headlines":
		return "What are today's " + strings.ToLower(arg(0, "topic")) + " headlines?"
	case "skyscanner80.flights_auto_complete":
		if len(history) > 1 {
			return "Look up " + arg(0, "query") + " and " + arg(1, "query") + " for a flight search."
		}
		return "Look up " + arg(0, "query") + " for a flight search."
	case "tasty.recipes_list":
		return "Find me some " + arg(0, "q") + " recipes."
	case "travel_advisor.locations_search":
		return "What attractions are there in " + arg(0, "query") + "?"
	case "booking_com.search_hotel_destination":
		if len(history) > 1 && history[1].API == "booking_com.search_hotels" {
			return "Find hotels in " + arg(0, "query") + " from " + arg(1, "arrival_date") + " to " + arg(1, "departure_date") + "."
		}
		return "Look up " + arg(0, "query") + " as a hotel destination."
	}
	return ""
}
