package mocks

import (
	"fmt"
	"testing"
	"time"
)

func TestZZScratch(t *testing.T) {
	for _, now := range []time.Time{time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC), time.Date(2025, 5, 20, 9, 0, 0, 0, time.UTC), time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC), time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)} {
		s := newTravelSession(t)
		s.now = now
		lis := s.ok(skyTool, "flights_auto_complete", map[string]any{"query": "Lisbon"})
		par := s.ok(skyTool, "flights_auto_complete", map[string]any{"query": "Paris"})
		from := travelGet(t, lis, "data[0].id").(string)
		to := travelGet(t, par, "data[0].id").(string)
		for _, cab := range []string{"economy", "business"} {
			r, err := s.call(skyTool, "flights_search_one_way", map[string]any{"fromId": from, "toId": to, "departDate": "2025-06-06", "cabinClass": cab})
			if err != nil {
				fmt.Println(err)
				continue
			}
			fmt.Println(now, cab, travelGet(t, r, "data.token"), travelGet(t, r, "data.itineraries[0].id"))
			v, _ := s.state.Get(skySessionKind, travelGet(t, r, "data.context.sessionId").(string))
			for _, o := range v.(*skySearch).Options {
				fmt.Println("   ", o.ID, o.Order, o.Score)
			}
		}
	}
}
