package claims

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

func TestKindOf(t *testing.T) {
	tests := []struct {
		point string
		want  Kind
	}{
		{"33 °C", Temperature},
		{"-1 °C", Temperature},
		{"8 days", Days},
		{"3.1", Number},
		{"2640", Number},
		{"+971", Code},
		{"Africa/Lagos", Zone},
		{"Abu Dhabi", Capital},
		{"Reykjavík", Capital},
		{"United Arab Emirates Dirham", Currency},
		{"Euro", Currency},
		{"Spanish", Language},
		{"hola", Phrase},
		{"OCR stands for optical character recognition", Text},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, KindOf(tt.point), tt.point)
	}
}

// TestKeyPointsCommit: a key point counts when the answer states it and
// commits to it; candidates listed side by side commit to none.
func TestKeyPointsCommit(t *testing.T) {
	tests := []struct {
		name, question string
		points         []string
		reply          string
		share          float64
	}{
		{"a sum", "What's 3 times 2?", []string{"6"}, "3 times 2 is 6.", 1},
		{"a sum with working steps", "Double 5, then add 2: what do I get?", []string{"12"}, "Double 5 is 10, and adding 2 gives 12.", 1},
		{"numbers listed as candidates", "What's 3 times 2?", []string{"6"}, "It is 4, 5, 6, 7 or 8.", 0},
		{"a conversion with its factor", "How many miles is 5 km?", []string{"3.1"}, "5 km is about 3.1 miles (1 km ≈ 0.62 miles).", 1},
		{"a conversion rounded", "How many miles is 20 km?", []string{"12.4"}, "20 km is roughly 12 miles.", 1},
		{"a conversion with more digits", "How many miles is 20 km?", []string{"12.4"}, "That's 12.43 miles.", 1},
		{"normals in both scales", "What's the weather usually like in Abu Dhabi in April?", []string{"33 °C", "20 °C"}, "Hot: highs around 33 °C (91 °F) and lows around 20 °C (68 °F).", 1},
		{"a misspelt question keeps the normal's tolerance", "Show me what a typiacl December in Budapest feels like", []string{"3 °C", "-1 °C"}, "Cold: highs of about 4 °C and lows just below freezing, around -2 °C.", 1},
		{"a narrow range holds the normal", "What's April like in Seoul?", []string{"18 °C"}, "Days reach 17–19 °C.", 1},
		{"a range of both normals", "Average temperatures in Athens in December?", []string{"15 °C", "9 °C"}, "Between 9 and 15 °C.", 1},
		{"a wide range commits to nothing", "What's April like in Seoul?", []string{"18 °C"}, "Anywhere from 5 to 30 °C.", 0},
		{"the high beside the low asked for", "How chilly are the nights in Cancún in August?", []string{"25 °C"}, "Nights stay warm, around 25 °C, after days of 33 °C.", 1},
		{"temperatures listed as candidates", "What's April like in Seoul?", []string{"18 °C"}, "It could be 10 °C, 14 °C, 18 °C, 22 °C or 26 °C.", 0},
		{"days of rain", "Historically, how much does it rain in Nairobi during December?", []string{"8 days"}, "About 8 rainy days, some 100 mm in all.", 1},
		{"a capital", "What's the capital of Australia?", []string{"Canberra"}, "It's Canberra, not Sydney.", 1},
		{"capitals listed", "What's the capital of Australia?", []string{"Canberra"}, "One of Wellington, Ottawa, Canberra, Dublin or Oslo.", 0},
		{"a currency and its peg", "What currency do they use in the United Arab Emirates?", []string{"United Arab Emirates Dirham"}, "The UAE dirham (AED), pegged to the US dollar.", 1},
		{"currencies listed", "What currency do they use in Japan?", []string{"Japanese Yen"}, "Euro, US dollar, Japanese yen, pound sterling or Swiss franc.", 0},
		{"languages, the question's aside", "Do people in Switzerland mostly speak English, or another language?", []string{"German"}, "Mostly German; French and Italian are spoken too, and English is widely understood.", 1},
		{"a zone by its names and offsets", "Which time zone is Abuja in?", []string{"Africa/Lagos"}, "West Africa Time (WAT, UTC+1), the Africa/Lagos zone.", 1},
		{"offsets listed", "Which time zone is Abuja in?", []string{"Africa/Lagos"}, "UTC-1, UTC+0, UTC+1, UTC+2 or UTC+3.", 0},
		{"a phrase beside another language's", "How do you say hello in Spanish?", []string{"hola"}, "¡Hola! (In Portuguese it's olá.)", 1},
		{"a variant the phrasebook gives as an alias", `What's "i would like a coffee" in Portuguese?`, []string{"queria um café"}, `"Eu gostaria de um café."`, 1},
		{"variants and words of other phrases beside the point", `What's "i would like a coffee" in Portuguese?`, []string{"queria um café"}, "In Portuguese: **\"Eu gostaria de um café.\"**\n\nOther ways:\n- **\"Queria um café, por favor.\"**\n- **\"Um café, por favor.\"**", 1},
		{"formal and informal variants", `French for "how are you"?`, []string{"comment allez-vous"}, "\"How are you?\" in French:\n\n- **Comment allez-vous ?** — formal\n- **Comment vas-tu ?** — informal\n\nA reply: \"Ça va bien, merci. Et vous ?\"", 1},
		{"the other register alone", `French for "how are you"?`, []string{"comment allez-vous"}, `"Comment ça va ?"`, 1},
		{"the other gender alone", `"thank you" in Portuguese?`, []string{"obrigado"}, `"Obrigada" (if you're a woman).`, 1},
		{"renderings in other languages listed", `French for "how are you"?`, []string{"comment allez-vous"}, "Cómo estás, wie geht es Ihnen, come stai, comment allez-vous or como está.", 0},
		{"days under a label that names them", "Is November a wet month in Rabat?", []string{"8 days"}, "Yes:\n\n- **Rainfall:** about 80–100 mm\n- **Rainy days:** around 8–10", 1},
		{"a range of days too wide", "Is November a wet month in Rabat?", []string{"8 days"}, "Rainy days: anywhere from 2 to 20.", 0},
		{"a calling code", "What's the dialling code for the UAE?", []string{"+971"}, "Dial +971 (00 971 from most of Europe).", 1},
		{"calling codes listed", "What's the dialling code for the UAE?", []string{"+971"}, "+1, +44, +971, +81 or +61.", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := KeyPoints(tt.question, tt.points, tt.reply)
			require.InDelta(t, tt.share, v.Share, 1e-9, "%+v", v)
		})
	}
}

func TestCommittedCutsLongAnswers(t *testing.T) {
	long := "Canberra is the capital. " + strings.Repeat("Some more words about the country follow here. ", 40) + "Or maybe Sydney."
	c := Committed(long)
	require.Contains(t, c, "Canberra")
	require.NotContains(t, c, "Sydney")
	require.LessOrEqual(t, len(textmatch.Words(c)), MaxAnswerWords)
	require.Equal(t, "short", Committed("short"))
}

// TestFactsFollowTheirField: a number is as exact as the field that
// holds it asks, whatever the question's wording.
func TestFactsFollowTheirField(t *testing.T) {
	weather := textmatch.ReadToolData(`{"current":{"temp_c":20.9,"condition":{"text":"Clear"}},"location":{"lat":48.8566}}`)
	rate := textmatch.ReadToolData(`0.8811`)
	flight := textmatch.ReadToolData(`{"legs":[{"durationInMinutes":155,"id":"LIS-PAR"}]}`)
	tests := []struct {
		name  string
		fact  string
		data  textmatch.ToolData
		reply string
		ok    bool
	}{
		{"a reading rounded", "20.9", weather, "It's about 21 °C and clear.", true},
		{"a coordinate rounded", "48.8566", weather, "Latitude 48.86.", false},
		{"a rate rounded", "0.8811", rate, "One dollar buys about 0.88 euros.", true},
		{"a duration in hours and minutes", "155", flight, "The flight takes 2 h 35 min.", true},
		{"a duration rounded", "155", flight, "About two and a half hours: 2.5 hours.", true},
		{"a duration far off", "155", flight, "It takes 3 hours.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			missed, inexact := Facts([]string{tt.fact}, reading.Read(tt.reply), tt.data)
			require.Equal(t, tt.ok, len(missed)+len(inexact) == 0, "missed %v inexact %v", missed, inexact)
		})
	}
}

// TestSelect: what the question does not ask counts against an answer,
// whatever its wrapping.
func TestSelect(t *testing.T) {
	tool := `{"current":{"temp_c":14.3,"temp_f":57.7,"humidity":93,"wind_kph":20.2,"pressure_mb":1012,"uv":4,"vis_km":10,"condition":{"text":"Overcast"}},"location":{"name":"London","country":"United Kingdom","lat":51.52,"lon":-0.11,"tz_id":"Europe/London","localtime":"2025-06-02 10:00"}}`
	data := textmatch.ReadToolData(tool)
	question := "What's the weather like in London right now?"
	facts := []string{"14.3", "Overcast"}
	tests := []struct {
		name, reply string
		ok          bool
	}{
		{"the answer", "It's overcast in London, 14.3 °C (57.7 °F).", true},
		{"the answer with a little context", "It's overcast, 14.3 °C, with 93% humidity and a 20.2 km/h wind.", true},
		{"humidity asked", "Overcast and 14.3 °C; humidity 93%.", true},
		{"every value listed", "Here is what I found: 14.3, 57.7, 93, 20.2, 1012, 10, Overcast, London, United Kingdom, 51.52, -0.11, Europe/London, 2025-06-02 10:00.", false},
		{"a sentence per field", "The temp c is 14.3. The temp f is 57.7. The humidity is 93. The wind kph is 20.2. The pressure mb is 1012. The text is Overcast. The country is United Kingdom. The lat is 51.52. The lon is -0.11.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Select(question, facts, reading.Read(tt.reply), data)
			require.Equal(t, tt.ok, s.OK(), "%+v", s)
		})
	}
	holidays := textmatch.ReadToolData(`[{"date":"2025-01-01","name":"New Year's Day","localName":"New Year's Day","types":["Public"]},{"date":"2025-12-25","name":"Christmas Day","localName":"Christmas Day","types":["Public"]},{"date":"2025-12-26","name":"Boxing Day","localName":"Boxing Day","types":["Public"]},{"date":"2025-04-18","name":"Good Friday","localName":"Good Friday","types":["Public"]}]`)
	s := Select("Which bank holidays does the UK have this year?", []string{"New Year's Day"}, reading.Read("New Year's Day (1 January), Good Friday (18 April), Christmas Day (25 December) and Boxing Day (26 December)."), holidays)
	require.True(t, s.OK(), "the date of each holiday is one field: %+v", s)
}

// TestSelectNamedFields: a question names a field by its key or the
// object that holds it, never by a top-level section, a link's words or
// an internal field; a number in °C states only a temperature.
func TestSelectNamedFields(t *testing.T) {
	forecast := textmatch.ReadToolData(`{"current":{"temp_c":22.1,"humidity":60,"cloud":26},"forecast":{"forecastday":[{"date":"2025-06-02","day":{"maxtemp_c":25.7,"mintemp_c":18.9,"maxwind_kph":19.1,"condition":{"text":"Partly cloudy"}},"hour":[{"time":"2025-06-02 00:00","temp_c":19.4,"humidity":81,"wind_kph":7.2,"pressure_mb":1014,"cloud":12,"condition":{"text":"Clear"}}]}]}}`)
	objects := textmatch.ReadToolData(`{"results":{"image":{"width":640,"height":480},"objects":[{"label":"boat","confidence":0.86,"box":{"x":150,"y":160,"width":250,"height":200}},{"label":"bird","confidence":0.975,"box":{"x":440,"y":40,"width":35,"height":30}}]}}`)
	capture := textmatch.ReadToolData(`{"data":{"image_url":"https://images.example/shot.png","captured_at":"2025-06-02T09:00:00Z","screenshot_id":"caa6bef6","height":844,"size_bytes":100080,"title":"Time Out"}}`)
	tests := []struct {
		name, question string
		data           textmatch.ToolData
		facts          []string
		reply          string
		ok             bool
	}{
		{"a day's fields are the forecast's", "Show me the three-day forecast for Barcelona.", forecast, []string{"25.7"},
			"Partly cloudy today, a high of 25.7 °C, a low of 18.9 °C and wind up to 19.1 km/h.", true},
		{"degrees state no gust or cloud cover", "Show me the three-day forecast for Barcelona.", forecast, []string{"25.7"},
			"Partly cloudy with a high of about 26 °C (25.7 °C) and a low near 19 °C.", true},
		{"the forecast section names no hourly field", "Show me the three-day forecast for Barcelona.", forecast, []string{"25.7"},
			"25.7, 2025-06-02 00:00, 19.4, 81, 7.2, 1014, Clear.", false},
		{"naming objects asks for no box", "Run object detection on https://images.example/harbour.jpg and tell me what's there.", objects, []string{"bird"},
			"A boat (0.86) and a bird (0.975).", true},
		{"boxes and the image size are not asked", "Run object detection on https://images.example/harbour.jpg and tell me what's there.", objects, []string{"bird"},
			"640, 480, boat, 0.86, 150, 160, 250, 200, bird, 0.975, 440, 40, 35.", false},
		{"capture it asks not when", "How does timeout.com look right now? Capture it.", capture, []string{"https://images.example/shot.png"},
			"Here it is: https://images.example/shot.png (Time Out).", true},
		{"a small result told whole", "How does timeout.com look right now? Capture it.", capture, []string{"https://images.example/shot.png"},
			"https://images.example/shot.png, taken 2025-06-02T09:00:00Z (id caa6bef6), 844 px high, 100080 bytes.", true},
		{"a small result run through in its order", "How does timeout.com look right now? Capture it.", capture, []string{"https://images.example/shot.png"},
			"2025-06-02T09:00:00Z, 844, https://images.example/shot.png, caa6bef6, 100080.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Select(tt.question, tt.facts, reading.Read(tt.reply), tt.data)
			require.Equal(t, tt.ok, s.OK(), "%+v", s)
		})
	}
}

func FuzzKeyPoints(f *testing.F) {
	for _, s := range []string{"33 °C", "+971", "Abu Dhabi", "Africa/Lagos", "hola", "8 days", ""} {
		f.Add(s, "Highs of 31–35 °C, +971, UTC+1, Abu Dhabi, hola, 8 rainy days.")
	}
	f.Fuzz(func(t *testing.T, point, reply string) {
		v := KeyPoints(point, []string{point}, reply)
		require.True(t, v.Share >= 0 && v.Share <= 1)
		_ = Select(point, []string{point}, reading.Read(reply), textmatch.ReadToolData(reply))
		_, _ = Facts([]string{point}, reading.Read(reply), textmatch.ReadToolData(point))
	})
}
