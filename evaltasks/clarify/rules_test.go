package clarify

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/fixtures"
)

var (
	typeThreeOnce sync.Once
	typeThree     map[string]*dataset.Instruction
	typeThreeErr  error
)

// instruction is an embedded Type-III instruction by id: the rules are
// read against the user's own text and labels.
func instruction(t testing.TB, id string) *dataset.Instruction {
	t.Helper()
	typeThreeOnce.Do(func() {
		ins, err := dataset.LoadDir(fixtures.FS, "instructions")
		typeThreeErr = err
		typeThree = map[string]*dataset.Instruction{}
		for i := range ins {
			typeThree[ins[i].ID] = &ins[i]
		}
	})
	require.NoError(t, typeThreeErr)
	in, ok := typeThree[id]
	require.True(t, ok, id)
	return in
}

// TestClarificationRules holds each rule of Task 3 from both sides: a
// reply a careful reader signs, and the nearest one that fails.
func TestClarificationRules(t *testing.T) {
	cat := testStack(t).Catalog
	tests := []struct {
		rule, id, reply string
		pass            bool
	}{
		// One recogniser: the words that ask for a parameter when it is
		// missing ask again for it when the user gave it.
		{"one recogniser: asks for the missing dates", "III-skyscanner80.flights_search_roundtrip-02",
			"Which departure date and which return date?", true},
		{"one recogniser: the same words ask again for given dates", "III-skyscanner80.flights_search_roundtrip-03",
			"Where are you flying from and to? Which departure date and which return date?", false},
		{"one recogniser: the same words ask for missing places", "III-skyscanner80.flights_search_roundtrip-03",
			"Where are you flying from and to?", true},
		{"one recogniser: the same words ask again for given places", "III-skyscanner80.flights_search_roundtrip-02",
			"Where are you flying from and to, and on which dates do you leave and come back?", false},

		// Re-asking a given value fails whatever else the sentence repeats.
		{"re-ask: the given value stated as the value", "III-image_file_processing.convert_image_format-02",
			"Sure — which picture should I convert to PNG? Please send me its link.", true},
		{"re-ask: the given value named beside its parameter", "III-image_file_processing.convert_image_format-02",
			"Which picture should I convert, and which format do you want for your PNG?", false},
		{"re-ask: the user's values restated around the re-ask", "III-image_file_processing.convert_image_format-02",
			"About your picture and the PNG: could you tell me the image url and the format?", false},
		{"re-ask: the given value right after its reference", "III-currency_exchange.exchange-02",
			"Sure — what currency would you like to convert from dollars into?", true},
		{"re-ask: the source asked for again beside the target", "III-currency_exchange.exchange-02",
			"Which currency do you have, and which currency would you like?", false},
		{"re-ask: a missing parameter's words are no re-ask", "III-google_translate.translate-02",
			"Into which language should I translate \"where is the bathroom\"?", true},
		{"re-ask: a parameter named by its code", "III-google_translate.translate-02",
			"Could you tell me the q and the target language?", false},

		// The user's own text echoed back counts for nothing.
		{"echo: the user's text handed back", "III-image_file_processing.convert_image_format-02",
			"Hey! Turn my picture into a PNG. Appreciate it!", false},
		{"echo: the user's text inside the question", "III-image_file_processing.convert_image_format-02",
			"Could you tell me the image url for hey turn my picture into a png appreciate it?", false},
		{"echo: the user's text cut at its own full stops", "III-image_file_processing.convert_image_format-02",
			"To help with hey turn my picture into a png. appreciate it, could you tell me the image url?", false},
		{"echo: a few of the user's words in the agent's question", "III-image_file_processing.convert_image_format-02",
			"Which picture should I turn into a PNG? Send me its link.", true},
		{"echo: the user's text, then a question of the agent's own", "III-image_file_processing.convert_image_format-02",
			"Hey! Turn my picture into a PNG. Appreciate it! Which image do you mean? Please send me its link.", true},

		// Asking for every required parameter when only some are missing.
		{"all required: the missing ones only", "III-skyscanner80.flights_search_one_way-02",
			"Where are you flying from, and where to?", true},
		{"all required: the given date asked for again", "III-skyscanner80.flights_search_one_way-02",
			"Where are you flying from and to, and on which date?", false},
		{"all required: a given destination without a recorded value", "III-booking_com.search_hotels-02",
			"What are your check-in and check-out dates?", true},
		{"all required: the destination asked for again", "III-booking_com.search_hotels-02",
			"Which city would you like to stay in, and what are your check-in and check-out dates?", false},

		// What identifies a thing satisfies an opaque ID the user cannot know.
		{"opaque ID: the museum's name and city", "III-travel_advisor.attractions_get_details-02",
			"Which museum is it, and in which city?", true},
		{"opaque ID: the attraction's name", "III-travel_advisor.attractions_get_details-03",
			"Sure — which attraction do you mean? Tell me its name and city.", true},
		{"opaque ID: nothing asked", "III-travel_advisor.attractions_get_details-02",
			"Museums are usually open on Saturdays.", false},
		{"opaque ID: a question about something else", "III-travel_advisor.attractions_get_details-02",
			"Would you like the opening hours as well?", false},

		// Optional extras offered as optional are no over-asking.
		{"optional: extras offered as optional", "III-skyscanner80.flights_search_roundtrip-02",
			"What are your departure and return dates? Optionally, tell me the number of adults and the cabin class; otherwise I'll search for 1 adult in economy.", true},
		{"optional: extras after 'if you like'", "III-booking_com.search_hotels-01",
			"Where would you like to stay, and what are your check-in and check-out dates? If you like, tell me how many adults, how many rooms and which currency too.", true},
		{"optional: every extra offered as optional", "III-booking_com.search_hotels-01",
			"Where would you like to stay, and what are your check-in and check-out dates? If you like, also tell me how many adults, any children, how many rooms, which page, metric or imperial, which temperature unit, which language code and which currency.", true},
		{"optional: every extra asked as if required", "III-booking_com.search_hotels-01",
			"Where would you like to stay, and what are your check-in and check-out dates? How many adults, any children, how many rooms, which page, metric or imperial, which temperature unit, which language code and which currency?", false},

		// Markdown lists ask item by item.
		{"markdown: a numbered bold list under a lead that asks", "III-skyscanner80.flights_search_roundtrip-02",
			"I have the Paris and Rome place IDs ready. To search return flights I still need:\n\n1. **Departure date** (Paris → Rome)\n2. **Return date** (Rome → Paris)", true},
		{"markdown: a bulleted list under a question", "III-skyscanner80.flights_search_roundtrip-01",
			"Could you tell me:\n- **From** where are you flying?\n- **Destination**\n- **Departure date**\n- **Return date**", true},
		{"markdown: the list under a lead that asks nothing", "III-skyscanner80.flights_search_roundtrip-02",
			"Here is what a search takes:\n\n1. **Departure date**\n2. **Return date**", false},
		{"markdown: one item missing, the user's 'return flights' asks nothing", "III-skyscanner80.flights_search_roundtrip-02",
			"To search return flights I still need:\n\n1. **Departure date**", false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			in := instruction(t, tt.id)
			v := Judge(cat, in, tt.reply)
			require.Equal(t, tt.pass, v.Pass(), "%q missing %v present %v: %+v", in.Text, in.Missing, in.Present, v)
		})
	}
}
