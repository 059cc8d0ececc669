package observe

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// forecast is a weather forecast of days, each with 24 hours.
func forecast(days int) []byte {
	type hour struct {
		Time  string  `json:"time"`
		TempC float64 `json:"temp_c"`
		Text  string  `json:"text"`
	}
	type day struct {
		Date  string  `json:"date"`
		MaxC  float64 `json:"maxtemp_c"`
		Hours []hour  `json:"hour"`
	}
	var ds []day
	for d := range days {
		dd := day{Date: fmt.Sprintf("2025-06-%02d", d+2), MaxC: 20 + float64(d)}
		for h := range 24 {
			dd.Hours = append(dd.Hours, hour{Time: fmt.Sprintf("%02d:00", h), TempC: 15 + float64(h)/2, Text: "Partly cloudy with a light breeze"})
		}
		ds = append(ds, dd)
	}
	b, _ := json.Marshal(map[string]any{"location": map[string]any{"name": "Lisbon"}, "forecast": map[string]any{"forecastday": ds}})
	return b
}

// search is a result list of n items of about size bytes each.
func search(n, size int) []byte {
	var items []map[string]any
	for i := range n {
		items = append(items, map[string]any{"id": i + 1, "name": fmt.Sprintf("Item %d", i+1), "blurb": strings.Repeat("x", size)})
	}
	b, _ := json.Marshal(map[string]any{"data": items, "status": "OK"})
	return b
}

// itineraries is a flight search of n itineraries.
func itineraries(n int) []byte {
	var items []map[string]any
	for i := range n {
		items = append(items, map[string]any{"id": fmt.Sprint(i + 1), "price": 100 + i, "legs": []any{map[string]any{"from": "LIS", "to": "CDG", "note": strings.Repeat("y", 150)}}})
	}
	b, _ := json.Marshal(map[string]any{"data": map[string]any{"itineraries": items}})
	return b
}

func TestResult(t *testing.T) {
	tests := []struct {
		name   string
		raw    []byte
		budget int
		args   map[string]any
		paging Paging
		check  func(t *testing.T, f Fitted)
	}{
		{"whole", []byte(` {"a": 1} `), 100, nil, Paging{}, func(t *testing.T, f Fitted) {
			require.True(t, f.Whole())
			require.Equal(t, `{"a": 1}`, f.Text, "a result that fits is shown as it is")
		}},
		{"whole once compacted", []byte("{\n  \"a\": [1, 2, 3]\n}"), 13, nil, Paging{}, func(t *testing.T, f Fitted) {
			require.True(t, f.Whole())
			require.Equal(t, `{"a":[1,2,3]}`, f.Text)
		}},
		{"the hours are cut, every day stays", forecast(5), 4000, nil, Paging{}, func(t *testing.T, f Fitted) {
			require.False(t, f.Whole())
			require.Len(t, f.Cuts, 1)
			require.Equal(t, "forecast.forecastday[].hour", f.Cuts[0].Path)
			require.Equal(t, 24, f.Cuts[0].Total)
			var doc struct {
				Forecast struct {
					Days []struct {
						Date  string `json:"date"`
						Hours []any  `json:"hour"`
					} `json:"forecastday"`
				} `json:"forecast"`
			}
			require.NoError(t, json.Unmarshal([]byte(f.Text), &doc))
			require.Len(t, doc.Forecast.Days, 5, "a 5-day forecast shows 5 days")
			require.Len(t, doc.Forecast.Days[4].Hours, f.Cuts[0].Shown)
			require.Contains(t, f.Note, fmt.Sprintf("forecast.forecastday[].hour shows the first %d of up to 24 items in each list", f.Cuts[0].Shown))
		}},
		{"the main list is cut, with the way to the rest", search(16, 200), 2000, map[string]any{"offset": 10.0}, Paging{Offset: "offset", Limit: "limit"}, func(t *testing.T, f Fitted) {
			require.Len(t, f.Cuts, 1)
			c := f.Cuts[0]
			require.Equal(t, "data", c.Path)
			require.Equal(t, 16, c.Total)
			require.Contains(t, f.Note, fmt.Sprintf("showing %d of 16 items of data", c.Shown))
			require.Contains(t, f.Note, fmt.Sprintf("call again with offset=%d and limit=%d", 10+c.Shown, c.Shown))
			var doc struct{ Data []any }
			require.NoError(t, json.Unmarshal([]byte(f.Text), &doc))
			require.Len(t, doc.Data, c.Shown)
		}},
		{"named items, page-numbered API", itineraries(16), 2000, nil, Paging{Page: "page_number"}, func(t *testing.T, f Fitted) {
			require.Regexp(t, `showing (\d+) of 16 itineraries \(data\.itineraries\), \d+ left out; page_number=2 gives the next page`, f.Note)
			require.Contains(t, f.Note, "cut to fit 2,000 bytes")
		}},
		{"a single huge string", []byte(`{"text":"` + strings.Repeat("é", 3000) + `"}`), 1000, nil, Paging{}, func(t *testing.T, f Fitted) {
			require.True(t, f.Strings)
			require.False(t, f.Bytes)
			require.True(t, json.Valid([]byte(f.Text)))
			require.Contains(t, f.Note, "texts longer than 300 bytes end with …")
		}},
		{"not JSON", []byte(strings.Repeat("line of text\n", 200)), 500, nil, Paging{}, func(t *testing.T, f Fitted) {
			require.True(t, f.Bytes)
			require.Regexp(t, `showing its first \d+ of 2599 bytes`, f.Note)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Result(tt.raw, tt.budget, tt.args, tt.paging)
			require.LessOrEqual(t, len(f.Text)+len(f.Note), tt.budget, "text and note fit the budget")
			tt.check(t, f)
			require.Equal(t, f, Result(tt.raw, tt.budget, tt.args, tt.paging), "the same result gives the same text")
		})
	}
}

// TestCutKeepsRankedItems pins that a cut list keeps the items the API
// ranks first for the request: its first items, and the ones tagged
// cheapest or shortest wherever they stand in the list.
func TestCutKeepsRankedItems(t *testing.T) {
	var items []map[string]any
	for i := range 16 {
		it := map[string]any{"id": fmt.Sprint(i + 1), "price": 300 - i, "tags": []any{}, "legs": []any{map[string]any{"note": strings.Repeat("y", 150)}}}
		switch i {
		case 13:
			it["tags"] = []any{"shortest"}
		case 15:
			it["tags"] = []any{"cheapest"}
		}
		items = append(items, it)
	}
	raw, _ := json.Marshal(map[string]any{"data": map[string]any{"itineraries": items}})
	f := Result(raw, 2000, nil, Paging{})
	require.LessOrEqual(t, len(f.Text)+len(f.Note), 2000)
	var doc struct {
		Data struct {
			Itineraries []struct {
				ID   string   `json:"id"`
				Tags []string `json:"tags"`
			} `json:"itineraries"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal([]byte(f.Text), &doc))
	its := doc.Data.Itineraries
	require.Len(t, f.Cuts, 1)
	require.Len(t, its, f.Cuts[0].Shown)
	require.Less(t, len(its), 16)
	var ids []string
	for _, it := range its {
		ids = append(ids, it.ID)
	}
	require.Equal(t, "1", ids[0], "the API's first item stays first")
	require.Equal(t, []string{"14", "16"}, ids[len(ids)-2:], "the shortest and the cheapest are kept, in list order")
	require.Equal(t, []string{"shortest", "cheapest"}, f.Cuts[0].Ranked)
	require.Contains(t, f.Note, fmt.Sprintf("showing %d of 16 itineraries (data.itineraries), %d left out (the first in the API's order, and the ones tagged shortest and cheapest)", len(its), 16-len(its)))
}

// TestReservingStatesTheOneBudget pins that a caller's envelope does not
// change the figure the note states: 16,384 bytes, not what is left.
func TestReservingStatesTheOneBudget(t *testing.T) {
	raw := search(200, 200)
	f := ResultReserving(raw, Budget, 100, nil, Paging{})
	require.LessOrEqual(t, len(f.Text)+len(f.Note), Budget-100)
	require.Contains(t, f.Note, "the result is cut to fit 16,384 bytes")
	g := Result(raw, Budget, nil, Paging{})
	require.Contains(t, g.Note, "the result is cut to fit 16,384 bytes")
	b := ResultReserving([]byte(strings.Repeat("text ", 5000)), Budget, 100, nil, Paging{})
	require.True(t, b.Bytes)
	require.Contains(t, b.Note, "cut to fit 16,384 bytes")
}

func TestPagingOf(t *testing.T) {
	require.Equal(t, Paging{Offset: "offset", Limit: "limit"}, PagingOf([]string{"location_id", "limit", "offset"}))
	require.Equal(t, Paging{Offset: "from", Limit: "size"}, PagingOf([]string{"from", "size", "q"}))
	require.Equal(t, Paging{Page: "page_number"}, PagingOf([]string{"hotel_id", "page_number"}))
	require.Equal(t, Paging{}, PagingOf([]string{"q", "days", "limit"}), "a limit alone gives no way to the rest")
}

func FuzzResult(f *testing.F) {
	f.Add(forecast(2), 600)
	f.Add(search(5, 50), 300)
	f.Add([]byte(`[1,[2,[3,[4]]],"x"]`), 10)
	f.Add([]byte(`{"a":`), 3)
	f.Fuzz(func(t *testing.T, raw []byte, budget int) {
		if budget < 0 || budget > 1<<20 {
			return
		}
		out := Result(raw, budget, nil, Paging{})
		if out.Whole() {
			return
		}
		if len(out.Text)+len(out.Note) > budget && len(out.Text) > 0 {
			t.Fatalf("%d bytes of text and note over a budget of %d", len(out.Text)+len(out.Note), budget)
		}
		if !out.Bytes && !json.Valid([]byte(out.Text)) {
			t.Fatalf("a cut JSON result is no longer JSON: %q", out.Text)
		}
	})
}
