package claims

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// TestCopiedData: a reply that pastes the tool's data or the conversation
// is not an answer; one that quotes a title or a URL is.
func TestCopiedData(t *testing.T) {
	user := "What's the weather like in London right now?"
	tool := `{"current":{"condition":{"text":"Overcast"},"feelslike_c":14.3,"humidity":93,"temp_c":14.3,"temp_f":57.7,"wind_kph":20.2},"location":{"country":"United Kingdom","name":"London","tz_id":"Europe/London"}}`
	d := textmatch.ReadToolData(tool)
	tests := []struct {
		name, reply string
		copied      bool
	}{
		{"natural", "It's overcast in London, 14.3 °C (57.7 °F), with 93% humidity.", false},
		{"raw JSON", tool, true},
		{"fenced JSON", "```json\n" + tool + "\n```", true},
		{"JSON with a digit changed", strings.Replace(tool, "14.3", "15.3", 2), true},
		{"JSON inside prose", "Here you go: " + tool[:120] + " and so on.", true},
		{"user text and JSON", user + "\n\n" + tool, true},
		{"field lines", "temp_c: 14.3\nhumidity: 93\ntext: Overcast\nname: London", true},
		{"one identifier field line", "temp_c: 14.3", true},
		{"key-value pairs in prose", `The "temp_c": 14.3, "humidity": 93 and "text": "Overcast".`, true},
		{"labels people write", "**Temperature:** 14.3 °C\n**Conditions:** Overcast\n**Humidity:** 93%", false},
		{"values quoted in prose", `London: condition "Overcast", country "United Kingdom", zone "Europe/London".`, false},
		{"a markdown table", "| Field | Value |\n|---|---|\n| Temperature | 14.3 °C |\n| Humidity | 93 % |", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			why := CopiedData(reading.Read(tt.reply), user, tool, d)
			require.Equal(t, tt.copied, why != "", why)
		})
	}
	bare := "0.8811"
	bd := textmatch.ReadToolData(bare)
	require.NotEmpty(t, CopiedData(reading.Read("0.8811"), "How many euros is a dollar?", bare, bd), "the tool message alone")
	require.NotEmpty(t, CopiedData(reading.Read("How many euros is a dollar? 0.8811"), "How many euros is a dollar?", bare, bd), "question and tool message")
	require.Empty(t, CopiedData(reading.Read("One US dollar buys 0.8811 euros."), "How many euros is a dollar?", bare, bd))
	title := `{"items":[{"title":"How to Make Portuguese Custard Tarts (Pastéis de Nata)","link":"https://www.youtube.com/watch?v=Ck3lFHaW8_M"}]}`
	require.Empty(t, CopiedData(reading.Read(`Try "How to Make Portuguese Custard Tarts (Pastéis de Nata)": https://www.youtube.com/watch?v=Ck3lFHaW8_M`), "Find a video", title, textmatch.ReadToolData(title)))
}

// TestCopiedDataReadsQuotesAsText: quote marks in prose are no JSON.
func TestCopiedDataReadsQuotesAsText(t *testing.T) {
	tool := `{"count":1,"data":[{"code":"pt","name":"Portuguese","native_name":"Português"}]}`
	d := textmatch.ReadToolData(tool)
	user := "Look up Portuguese in the language-code registry: which code and native name does it list?"
	require.Empty(t, CopiedData(reading.Read(`Portuguese: code "pt", native name "Português".`), user, tool, d))
	require.Empty(t, CopiedData(reading.Read("The registry lists **Portuguese** as:\n\n- **ISO 639-1 code:** pt\n- **Native name:** Português"), user, tool, d))
	require.NotEmpty(t, CopiedData(reading.Read(`{"code": "pt", "native_name": "Português"}`), user, tool, d))
	require.NotEmpty(t, CopiedData(reading.Read(`["pt", "Portuguese", "Português", "pt", "Portuguese", "Português"]`), user, tool, d))
}
