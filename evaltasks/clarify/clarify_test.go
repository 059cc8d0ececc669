package clarify

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/internal/assemble"
)

var (
	stackOnce sync.Once
	stack     *assemble.Stack
	stackErr  error
)

// testStack is the default offline sandbox, built once for the package's
// tests: its catalog is the one clarifications are judged against.
func testStack(t testing.TB) *assemble.Stack {
	t.Helper()
	stackOnce.Do(func() { stack, stackErr = assemble.Build(assemble.Config{}) })
	require.NoError(t, stackErr)
	return stack
}

func TestClarification(t *testing.T) {
	cat := testStack(t).Catalog
	in := &dataset.Instruction{TargetAPI: "geocoding.forward_geocode", Missing: []string{"address"}}
	require.Empty(t, Judge(cat, in, "Which address or city do you mean?").Unasked)
	require.Empty(t, Judge(cat, in, "Which landmark are you thinking of?").Unasked, "a key term of the description")
	require.Equal(t, []string{"address"}, Judge(cat, in, "Sure, happy to help!").Unasked)
	require.True(t, Asks("Could you tell me the city?"))
	require.False(t, Asks("Paris is in France."))
}

// TestClarificationMutations: a clarification passes when it asks for what
// is missing, by meaning, and fails when it asks for nothing, for what the
// user gave, or for everything.
func TestClarificationMutations(t *testing.T) {
	cat := testStack(t).Catalog
	fx := &dataset.Instruction{TargetAPI: "currency_exchange.exchange", Missing: []string{"from"}, Present: map[string]any{"to": []any{"euros"}}}
	fx2 := &dataset.Instruction{TargetAPI: "currency_exchange.exchange", Missing: []string{"to"}, Present: map[string]any{"from": []any{"dollars"}}}
	hotel := &dataset.Instruction{TargetAPI: "booking_com.search_hotels", Missing: []string{"dest_id", "arrival_date", "departure_date"}}
	weather := &dataset.Instruction{TargetAPI: "weatherapi_com.realtime_weather_api", Missing: []string{"q"}}
	png := &dataset.Instruction{TargetAPI: "image_file_processing.convert_image_format", Missing: []string{"image_url"}, Present: map[string]any{"format": []any{"png"}}}
	video := &dataset.Instruction{TargetAPI: "web_search.video_search", Missing: []string{"q"}}
	amount := &dataset.Instruction{TargetAPI: "currency_exchange.exchange", Missing: []string{"q"}, Present: map[string]any{"from": []any{"dollars"}, "to": []any{"euros"}}}
	translate := &dataset.Instruction{TargetAPI: "google_translate.translate", Missing: []string{"q"}, Present: map[string]any{"target": []any{"Portuguese"}}}
	flights := &dataset.Instruction{TargetAPI: "skyscanner80.flights_search_one_way", Missing: []string{"fromId", "toId", "departDate"}}
	tests := []struct {
		name  string
		in    *dataset.Instruction
		reply string
		pass  bool
	}{
		{"asks by a synonym", fx, "Which currency is the 200 in?", true},
		{"asks by the description", fx, "What's the source currency?", true},
		{"asks nothing", fx, "Sure, I can convert that.", false},
		{"states instead of asking", fx, "The source currency is USD.", false},
		{"asks again for the given target", fx, "Which currency are you converting from, and which currency do you want to convert to?", false},
		{"restates the given value", fx2, "Which currency would you like to convert your dollars into?", true},
		{"asks again for the given source", fx2, "What is the source currency, and what's the target currency?", false},
		{"a given value's alternatives ask again", png, "Which image should I convert?\n- format: png, jpeg or gif", false},
		{"given value restated", png, "Sure — which image should I convert to PNG? Please send the link.", true},
		{"all missing dates and destination", hotel, "Where would you like to stay, and what are your check-in and check-out dates?", true},
		{"one optional choice is help", hotel, "Where would you like to stay, and what are your check-in and check-out dates? How many adults?", true},
		{"every optional parameter is asking for everything", hotel, "Where would you like to stay, what are your check-in and check-out dates, how many adults, any children, how many rooms, which page, metric or imperial, which temperature unit, which language code and which currency?", false},
		{"misses a date", hotel, "Where would you like to stay?", false},
		{"example debris is not a parameter", weather, "Is it pari or 48.85672.3508?", false},
		{"asks for the city", weather, "Which city should I check?", true},
		{"a search's words apart", video, "Sure! What would you like me to search videos for?", true},
		{"a search by its topic", video, "What kind of video are you after?", true},
		{"one-word sentences", video, "Query please. Videos please?", false},
		{"an imperative to the user", video, "Happy to. Give me a topic and I'll find some videos.", true},
		{"an imperative to nobody: a tool's description", video, "Search videos for a query.", false},
		{"an offer", translate, "If you paste the text you want translated, I'll put it into Portuguese.", true},
		{"an amount by meaning", amount, "How much would you like to convert from dollars to euros?", true},
		{"an amount, lemmatised", amount, "What amount are you converting?", true},
		{"the text to translate", translate, "Of course! What text would you like me to translate into Portuguese?", true},
		{"the text, and the given language again", translate, "What text should I translate, and into which language?", false},
		{"a word list", translate, "Could you tell me: text, language, source?", false},
		{"a bare word, no question", translate, "Text. Language. Source.", false},
		{"a list of names asks again for the given target", translate, "Please send me the text, target, source, format.", false},
		{"places and a date by meaning", flights, "Happy to help! Where are you flying from and to, and on which date do you want to travel?", true},
		{"places and a date, in camelCase names", flights, "Could you tell me the fromId (your origin), the toId (the destination) and the departDate?", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cv := Judge(cat, tt.in, tt.reply)
			require.Equal(t, tt.pass, cv.OK() && Asks(tt.reply), "%+v", cv)
		})
	}
}

// TestParamTermsDropDebris: the examples, defaults and cross-references of
// descriptions are not words that name a parameter.
func TestParamTermsDropDebris(t *testing.T) {
	cat := testStack(t).Catalog
	for _, a := range cat.APIs() {
		for _, p := range a.Params {
			for _, w := range paramTerms(p, p.Name) {
				require.NotContains(t, []string{"pari", "48.85672.3508", "lisbon", "returned", "retrieved", "endpoint", "http"}, w, "%s.%s", a.ID(), p.Name)
				require.NotRegexp(t, `\d`, w, "%s.%s", a.ID(), p.Name)
			}
		}
	}
	q := dataset.ResolveAPI(cat, "weatherapi_com.realtime_weather_api").Param("q")
	require.Subset(t, paramTerms(q, "q"), []string{"query", "latitude", "longitude", "city", "name"})
}

func TestTermsFileNamesRealParameters(t *testing.T) {
	cat := testStack(t).Catalog
	for id, ps := range textmatch.Vocabulary.Params {
		a := dataset.ResolveAPI(cat, id)
		require.NotNil(t, a, id)
		for name := range ps {
			require.NotNil(t, a.Param(name), "%s.%s", id, name)
		}
	}
}

func FuzzJudgeClarification(f *testing.F) {
	for _, s := range []string{"Which city?", "Could you tell me the date and the city?", "", "?"} {
		f.Add("city", s)
	}
	f.Fuzz(func(t *testing.T, missing, reply string) {
		_ = Judge(nil, &dataset.Instruction{Missing: []string{missing}}, reply)
	})
}
