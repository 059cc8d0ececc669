package reading

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// sentenceFacts is what the reader says of one sentence.
type sentenceFacts struct {
	Text                 string
	Asks, Optional, Echo bool
}

func facts(q Questions) []sentenceFacts {
	var out []sentenceFacts
	for _, s := range q.Sentences {
		out = append(out, sentenceFacts{s.Text, s.Asks, s.Optional, s.Echo})
	}
	return out
}

func TestReadQuestions(t *testing.T) {
	tests := []struct {
		name, user, reply string
		want              []sentenceFacts
	}{
		{"a question and a statement", "", "Sure. Which city do you mean?",
			[]sentenceFacts{{"Sure", false, false, false}, {"Which city do you mean?", true, false, false}}},
		{"a request without a question mark", "", "Please send me the link.",
			[]sentenceFacts{{"Please send me the link", true, false, false}}},
		{"an imperative that addresses nobody", "", "Search videos for a query.",
			[]sentenceFacts{{"Search videos for a query", false, false, false}}},
		{"a parenthesis belongs to its sentence", "", "Which year (e.g. 2025)? Thanks.",
			[]sentenceFacts{{"Which year (e.g. 2025)?", true, false, false}, {"Thanks", false, false, false}}},
		{"an offer of something optional", "", "Optionally, tell me the cabin class; otherwise I'll use economy.",
			[]sentenceFacts{{"Optionally, tell me the cabin class; otherwise I'll use economy", true, true, false}}},
		{"markdown list under a lead that asks, item by item", "", "I still need:\n1. **Departure date**\n2. **Return date**",
			[]sentenceFacts{{"I still need:", true, false, false}, {"Departure date", true, false, false}, {"Return date", true, false, false}}},
		{"markdown list under a lead that asks nothing", "", "Here is what it takes:\n- **Departure date**\n- **Return date**",
			[]sentenceFacts{{"Here is what it takes:", false, false, false}, {"Departure date", false, false, false}, {"Return date", false, false, false}}},
		{"a list ends at the next line that is no item", "", "I still need:\n- the date\nThat is all.",
			[]sentenceFacts{{"I still need:", true, false, false}, {"the date", true, false, false}, {"That is all", false, false, false}}},
		{"the user's text handed back", "What time is sunset today?", "What time is sunset today?",
			[]sentenceFacts{{"What time is sunset today?", false, false, true}}},
		{"the user's text cut at its own full stops", "Tell me about the airport. thx",
			"Could you tell me the code for tell me about the airport. thx, which one?",
			[]sentenceFacts{{"Could you tell me the code for tell me about the airport", false, false, true}, {"thx, which one?", false, false, true}}},
		{"a short part of the user's text is the agent's own", "Which city has the most hotels?", "Which city?",
			[]sentenceFacts{{"Which city?", true, false, false}}},
		{"a run of six of the user's words", "I want to book a hotel in Paris for next weekend please",
			"So you want to book a hotel in Paris, which dates?",
			[]sentenceFacts{{"So you want to book a hotel in Paris, which dates?", false, false, true}}},
		{"five of the user's words are a quote", "I want to book a hotel in Paris for next weekend please",
			"To book a hotel, which dates?",
			[]sentenceFacts{{"To book a hotel, which dates?", true, false, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, facts(ReadQuestions(tt.user, tt.reply)))
		})
	}
}

func vocab(phrases []string, terms ...string) Vocab {
	var v Vocab
	for _, p := range phrases {
		v.Phrases = append(v.Phrases, textmatch.Lemmas(p))
	}
	v.Terms = terms
	return v
}

func TestAsksForAndAgain(t *testing.T) {
	format := vocab([]string{"format", "which format", "png"})
	image := vocab([]string{"image url", "picture", "image"})
	from := vocab([]string{"which currency", "convert from", "source currency"})
	to := vocab([]string{"currency would you like", "convert into", "target currency"})
	ret := vocab([]string{"return date", "return"})
	tests := []struct {
		name, user, reply string
		v                 Vocab
		given             []string
		missing           []Vocab
		asks, again       bool
	}{
		{"a phrase asks", "", "Which format do you want?", format, nil, nil, true, true},
		{"words apart ask", "", "Which image format?", format, nil, nil, true, true},
		{"no reference, no question", "", "Which picture should I use?", format, nil, nil, false, false},
		{"a reference in a statement asks nothing", "", "The format is PNG.", format, nil, nil, false, false},
		{"the given value stated as the value", "", "Which picture should I convert to PNG?", format, []string{"png"}, []Vocab{image}, true, false},
		{"the given value beside another reference asks again", "", "Which format do you want for the PNG?", format, []string{"png"}, []Vocab{image}, true, true},
		{"the value right after its reference", "", "What would you like to convert from dollars into?", from, []string{"dollars"}, []Vocab{to}, true, false},
		{"after a determiner", "", "What would you like to convert from your dollars into?", from, []string{"dollars"}, []Vocab{to}, true, false},
		{"the missing parameter's words", "", "Which currency would you like?", from, []string{"dollars"}, []Vocab{to}, true, false},
		{"the given one named on its own", "", "Which source currency, and which currency would you like?", from, []string{"dollars"}, []Vocab{to}, true, true},
		{"optional, nobody gave it", "", "If you like, tell me the format too.", format, nil, nil, true, false},
		{"optional, the user gave it", "", "If you like, tell me the format too.", format, []string{"png"}, nil, true, true},
		{"the user's phrase modifies, it does not ask", "Search return flights to Rome.", "To search return flights, where do you leave from?", ret, nil, nil, false, false},
		{"the agent's own reference asks", "Search return flights to Rome.", "When do you return?", ret, nil, nil, true, true},
		{"the agent's own phrase asks", "Search return flights to Rome.", "What is your return date?", ret, nil, nil, true, true},
		{"a bare word list asks for nothing", "", "Could you tell me: format, size, colour?", format, nil, nil, false, false},
		{"an echo asks for nothing", "Which format is best for my picture?", "Which format is best for my picture?", format, nil, nil, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := ReadQuestions(tt.user, tt.reply)
			require.Equal(t, tt.asks, q.AsksFor(tt.v), "asks for")
			require.Equal(t, tt.again, q.AsksAgainFor(tt.v, tt.given, tt.missing), "asks again for")
		})
	}
}

func TestAsksWhich(t *testing.T) {
	city := vocab([]string{"which city"})
	tests := []struct {
		name, user, reply string
		want              bool
	}{
		{"which of the user's things", "What's the address of the museum I'm visiting?", "Which museum is it?", true},
		{"its name", "more info on the attraction", "Could you tell me its name?", true},
		{"a thing the user did not name", "What's the address of the museum I'm visiting?", "Which restaurant?", false},
		{"a statement", "What's the address of the museum I'm visiting?", "The museum is open.", false},
		{"a thing another parameter names", "Hotels in the city?", "Which city?", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, ReadQuestions(tt.user, tt.reply).AsksWhich(tt.user, []Vocab{city}))
		})
	}
}

// FuzzReadQuestions: any reply reads without panic into sentences whose
// words and lemmas agree, an echo never asks, and the user's text handed
// back asks for nothing.
func FuzzReadQuestions(f *testing.F) {
	for _, s := range [][2]string{
		{"Which city?", "Which city do you mean?"},
		{"Tell me about the airport. thx", "Could you tell me the iata for tell me about the airport. thx?"},
		{"", "I still need:\n1. **Departure date**\n2. **Return date**"},
		{"book (a) hotel", "((("},
		{"departDate", "the departDate?"},
		{"", "?"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, user, reply string) {
		q := ReadQuestions(user, reply)
		for _, s := range q.Sentences {
			require.Len(t, s.Lems, len(s.Words))
			require.False(t, s.Echo && s.Asks, "%q", s.Text)
		}
		require.False(t, ReadQuestions(user, user).Asks(), "%q handed back", user)
		v := vocab([]string{user})
		_ = q.AsksFor(v)
		_ = q.AsksAgainFor(v, []string{reply}, []Vocab{v})
		_ = q.AsksWhich(user, []Vocab{v})
	})
}
