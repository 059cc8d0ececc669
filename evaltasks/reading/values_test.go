package reading

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// TestStates: one reading decides whether an answer states a value, for
// every check of the answer, on both sides of each rule.
func TestStates(t *testing.T) {
	tests := []struct {
		name, answer, value string
		kind                Kind
		want                bool
	}{
		{"a number in its field's unit", "It's 17.7 °C.", "17.7", Temperature, true},
		{"a number without a unit", "Temperature: 17.7", "17.7", Temperature, true},
		{"a number in a unit of another kind", "Here: 17.7 km.", "17.7", Temperature, false},
		{"a speed in km/h", "Wind 17 km/h.", "17.1", Speed, true},
		{"a temperature is no speed", "It's 17 °C.", "17.1", Speed, false},
		{"a sum with its sign", "The cheapest is $553.", "$553", Plain, true},
		{"a sum in words", "The cheapest is 553 USD.", "$553", Plain, true},
		{"a sum in another currency", "The cheapest is €553.", "$553", Plain, false},
		{"a sum rounded to the unit", "From €119 one way.", "€119", Plain, true},
		{"a company without its generic words", "Cheapest on British, then Delta.", "British Airways", Plain, true},
		{"another company", "Cheapest on Delta.", "British Airways", Plain, false},
		{"a condition by its adjective", "Misty, 2 °C.", "Mist", Plain, true},
		{"a denied adjective", "Not misty at all.", "Mist", Plain, false},
		{"a text in its order", "Top story: heat wave grips southern Europe this week.", "Heat wave grips southern Europe", Plain, true},
		{"a text with its words reversed", "Europe southern grips wave heat.", "Heat wave grips southern Europe", Plain, false},
		{"a text's parts in another order", "The non-refundable Superior Double Room is cheapest.", "Superior Double Room - Non-refundable", Plain, true},
		{"a text in a table", "| Room | Price |\n|---|---|\n| Superior Double Room | €402 |", "Superior Double Room", Plain, true},
		{"a date range with weekdays", "| Fri 18 – Sun 20 Apr | 3 |", "2025-04-18", Plain, true},
		{"a date range without weekdays", "- 18–20 Apr", "2025-04-18", Plain, true},
		{"another date", "- 19–20 Apr", "2025-04-18", Plain, false},
		{"a quoted value", `Portuguese: code "pt", native name "Português".`, "Português", Plain, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Read(tt.answer).States(tt.value, tt.kind, textmatch.Rounded) == textmatch.FactStated
			require.Equal(t, tt.want, got)
		})
	}
}

// TestRead: the values an answer states carry the kind of their unit,
// the currency of a sum and the label before them.
func TestRead(t *testing.T) {
	tests := []struct {
		answer   string
		kind     Kind
		currency string
		field    string
	}{
		{"Humidity: 69 %", Percent, "", "Humidity"},
		{"- **Wind:** SW 15 km/h", Speed, "", "Wind"},
		{"Gusts of 10 mph", Speed, "", ""},
		{"About 3.2 m/s", Speed, "", ""},
		{"Total: €402.24", Money, "EUR", "Total"},
		{"It costs 45 dollars", Money, "USD", ""},
		{"Pressure 1015 hPa", Pressure, "", ""},
		{"Visibility 10 km", Length, "", ""},
		{"It's 20 °C", Temperature, "", ""},
		{"Rainy days: around 8–10", Duration, "", "Rainy days"},
		{"Item 42", Plain, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			r := Read(tt.answer)
			require.NotEmpty(t, r.Values)
			v := r.Values[0]
			require.Equal(t, tt.kind, v.Kind)
			require.Equal(t, tt.currency, v.Currency)
			require.Equal(t, tt.field, v.Field)
		})
	}
}

func TestProse(t *testing.T) {
	require.Equal(t, "Temperature: 17.7 °C\nWind: 15 km/h", Prose("- **Temperature:** 17.7 °C\n* **Wind:** 15 km/h"))
	require.Equal(t, "Day; Rain.\n\nMon; 79 %.", Prose("| Day | Rain |\n|---|---|\n| Mon | 79 % |"))
	require.Equal(t, "Long weekends", Prose("## Long weekends"))
}

func TestFieldKind(t *testing.T) {
	for key, want := range map[string]Kind{"temp_c": Temperature, "feelslike_f": Temperature, "wind_kph": Speed, "humidity": Percent,
		"vis_km": Length, "pressure_mb": Pressure, "durationInMinutes": Duration, "formattedPrice": Money, "name": Plain} {
		require.Equal(t, want, FieldKind(key), key)
	}
	require.Equal(t, Percent, PathsKind([]string{"clouds.all"}), "a key of no kind takes its object's")
}

func FuzzReadValues(f *testing.F) {
	for _, s := range []string{"| Fri 18 – Sun 20 Apr | 3 |", "- **Wind:** SW 15 km/h", "$553, €119 and 45 dollars", "Rainy days: ~8", ":5 :-3", "**", "|", "US$", "€"} {
		f.Add(s, "17.7")
	}
	f.Fuzz(func(t *testing.T, answer, value string) {
		r := Read(answer)
		for _, v := range r.Values {
			require.True(t, v.Start >= 0 && v.End <= len(r.Text) && v.Start <= v.End)
		}
		for _, k := range []Kind{Plain, Temperature, Money} {
			_ = r.States(value, k, textmatch.Rounded)
			_ = r.Where(value, k, textmatch.Rounded)
		}
		_, _, _ = Sum(value)
	})
}
