package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/toolset"
)

func textTools(names ...string) []toolset.OpenAITool {
	var tools []toolset.OpenAITool
	for _, n := range names {
		tools = append(tools, toolset.OpenAITool{Type: "function", Function: toolset.OpenAIFunction{
			Name: n, Description: "does " + n, Parameters: map[string]any{"type": "object"},
		}})
	}
	return tools
}

func TestParseText(t *testing.T) {
	tools := textTools("get_weather", "search_flights", "Finish")
	noFinish := textTools("get_weather")
	type call struct{ name, args, raw, argErr string }
	tests := []struct {
		name      string
		output    string
		tools     []toolset.OpenAITool
		content   string // Content when parsing succeeds
		reasoning string
		calls     []call
		parseErr  string // substring; set means failure
	}{
		{
			name:    "plain action",
			output:  "Thought: I need the weather.\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}",
			content: "I need the weather.",
			calls:   []call{{name: "get_weather", args: `{"city":"Paris"}`}},
		},
		{
			name:    "extra whitespace and CRLF",
			output:  "\r\n  Thought:   check it  \r\n\r\n   Action:    get_weather   \r\n  Action Input:     {  \"city\" :  \"Paris\"  }   \r\n\r\n",
			content: "check it",
			calls:   []call{{name: "get_weather", args: `{"city":"Paris"}`}},
		},
		{
			name:    "code fence around the JSON",
			output:  "Thought: ok\nAction: get_weather\nAction Input:\n```json\n{\n  \"city\": \"Paris\",\n  \"days\": 2\n}\n```",
			content: "ok",
			calls:   []call{{name: "get_weather", args: `{"city":"Paris","days":2}`}},
		},
		{
			name:    "bare code fence on the same line",
			output:  "Action: get_weather\nAction Input: ```{\"city\": \"Oslo\"}```",
			calls:   []call{{name: "get_weather", args: `{"city":"Oslo"}`}},
			content: "",
		},
		{
			name:    "inline backticks",
			output:  "Action: `get_weather`\nAction Input: `{\"city\": \"Rome\"}`",
			calls:   []call{{name: "get_weather", args: `{"city":"Rome"}`}},
			content: "",
		},
		{
			name:    "single quotes and Python literals",
			output:  "Thought: x\nAction: get_weather\nAction Input: {'city': 'Saint-Étienne', 'metric': True, 'note': None, 'q': 'say \"hi\"', 'it': 'it\\'s'}",
			content: "x",
			calls:   []call{{name: "get_weather", args: `{"city":"Saint-Étienne","metric":true,"note":null,"q":"say \"hi\"","it":"it's"}`}},
		},
		{
			name:    "unquoted keys and trailing comma",
			output:  "Action: get_weather\nAction Input: {city: \"Paris\", days: 3,}",
			calls:   []call{{name: "get_weather", args: `{"city":"Paris","days":3}`}},
			content: "",
		},
		{
			name:    "trailing text after the JSON",
			output:  "Thought: go\nAction: get_weather\nAction Input: {\"city\": \"Paris\"} I will wait for the result.",
			content: "go",
			calls:   []call{{name: "get_weather", args: `{"city":"Paris"}`}},
		},
		{
			name:    "hallucinated observation is cut off",
			output:  "Thought: go\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}\nObservation: {\"temp\": 99}\nThought: done\nFinal Answer: 99 degrees",
			content: "go",
			calls:   []call{{name: "get_weather", args: `{"city":"Paris"}`}},
		},
		{
			name:    "multiple actions become calls in order",
			output:  "Thought: both\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}\nAction: search_flights\nAction Input: {\"from\": \"CDG\", \"to\": \"OSL\"}",
			content: "both",
			calls:   []call{{name: "get_weather", args: `{"city":"Paris"}`}, {name: "search_flights", args: `{"from":"CDG","to":"OSL"}`}},
		},
		{
			name:    "markdown bold markers",
			output:  "**Thought:** hmm\n**Action:** get_weather\n**Action Input:** {\"city\": \"Paris\"}",
			content: "hmm",
			calls:   []call{{name: "get_weather", args: `{"city":"Paris"}`}},
		},
		{
			name:    "Action Input on the Action line",
			output:  "Action: get_weather Action Input: {\"city\": \"Paris\"}",
			calls:   []call{{name: "get_weather", args: `{"city":"Paris"}`}},
			content: "",
		},
		{
			name:    "case-insensitive name match",
			output:  "Action: GET_WEATHER\nAction Input: {}",
			calls:   []call{{name: "get_weather", args: `{}`}},
			content: "",
		},
		{
			name:    "empty Action Input means no arguments",
			output:  "Action: get_weather\nAction Input:",
			calls:   []call{{name: "get_weather", args: `{}`}},
			content: "",
		},
		{
			name:    "Action Input not JSON keeps the call with an arguments error",
			output:  "Action: get_weather\nAction Input: city=Paris",
			calls:   []call{{name: "get_weather", raw: "city=Paris", argErr: "Action Input has no JSON object"}},
			content: "",
		},
		{
			name:    "Action Input a JSON string",
			output:  "Action: get_weather\nAction Input: \"Paris\"",
			calls:   []call{{name: "get_weather", raw: `"Paris"`, argErr: "Action Input is a JSON string, want an object"}},
			content: "",
		},
		{
			name:    "Action Input unclosed",
			output:  "Action: get_weather\nAction Input: {\"city\": \"Par",
			calls:   []call{{name: "get_weather", raw: `{"city": "Par`, argErr: "Action Input has an unclosed JSON object"}},
			content: "",
		},
		{
			name:    "Action Input broken inside",
			output:  "Action: get_weather\nAction Input: {\"city\": Paris}",
			calls:   []call{{name: "get_weather", raw: `{"city": Paris}`, argErr: "Action Input is not valid JSON: invalid character 'P'"}},
			content: "",
		},
		{
			name:      "final answer",
			output:    "Thought: I know it.\nFinal Answer: It is 21 °C and clear.",
			content:   "It is 21 °C and clear.",
			reasoning: "I know it.",
		},
		{
			name:      "multi-line final answer",
			output:    "Final Answer: Line one.\nLine two.",
			content:   "Line one.\nLine two.",
			reasoning: "",
		},
		{
			name:    "Finish offered as a tool stays a call",
			output:  "Thought: done\nAction: Finish\nAction Input: {\"return_type\": \"give_answer\", \"final_answer\": \"21 °C\"}",
			content: "done",
			calls:   []call{{name: "Finish", args: `{"return_type":"give_answer","final_answer":"21 °C"}`}},
		},
		{
			name:      "Finish not offered reads as the final answer",
			tools:     noFinish,
			output:    "Thought: done\nAction: Finish\nAction Input: {\"return_type\": \"give_answer\", \"final_answer\": \"21 °C\"}",
			content:   "21 °C",
			reasoning: "done",
		},
		{name: "Finish not offered without an answer", tools: noFinish, output: "Action: Finish\nAction Input: {\"return_type\": \"give_up_and_restart\"}", parseErr: `action Finish (return_type "give_up_and_restart") has no final_answer`},
		{name: "unknown action", output: "Thought: x\nAction: book_hotel\nAction Input: {}", parseErr: `unknown action "book_hotel"; the tools are [get_weather, search_flights, Finish]`},
		{name: "missing Action Input", output: "Thought: x\nAction: get_weather", parseErr: `action "get_weather" has no Action Input`},
		{name: "missing Action Input before another action", output: "Action: get_weather\nAction: search_flights\nAction Input: {}", parseErr: `action "get_weather" has no Action Input`},
		{name: "Action Input without Action", output: "Thought: x\nAction Input: {}", parseErr: "Action Input without an Action"},
		{name: "two inputs", output: "Action: get_weather\nAction Input: {}\nAction Input: {\"a\":1}", parseErr: "more than one Action Input"},
		{name: "empty action name", output: "Action:\nAction Input: {}", parseErr: "Action 1 has no function name"},
		{name: "both action and final answer", output: "Action: get_weather\nAction Input: {}\nFinal Answer: sunny", parseErr: "both an Action and a Final Answer"},
		{name: "plain prose", output: "The weather in Paris is sunny.", parseErr: "no Action or Final Answer found"},
		{name: "empty output", output: "   \n ", parseErr: "empty output"},
		{name: "empty final answer", output: "Thought: hm\nFinal Answer:   ", parseErr: "Final Answer is empty"},
		{name: "tools list empty", tools: []toolset.OpenAITool{}, output: "Action: get_weather\nAction Input: {}", parseErr: `unknown action "get_weather"; the tools are none`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := tools
			if tt.tools != nil {
				ts = tt.tools
			}
			got := ParseText(tt.output, ts)
			if tt.parseErr != "" {
				require.Contains(t, got.ParseError, tt.parseErr)
				require.Empty(t, got.ToolCalls, "a parse error carries no calls")
				require.Equal(t, tt.output, got.Content, "the raw output is kept")
				return
			}
			require.Empty(t, got.ParseError)
			require.Equal(t, tt.content, got.Content)
			require.Equal(t, tt.reasoning, got.Reasoning)
			require.Len(t, got.ToolCalls, len(tt.calls))
			for i, c := range tt.calls {
				tc := got.ToolCalls[i]
				require.Equal(t, c.name, tc.Name)
				require.Regexp(t, `^call_[0-9a-f]{24}$`, tc.ID)
				if c.argErr != "" {
					require.Contains(t, tc.ArgumentsError, c.argErr)
					require.Equal(t, c.raw, tc.RawArguments)
					require.Empty(t, tc.Arguments)
					continue
				}
				require.Empty(t, tc.ArgumentsError)
				require.Equal(t, c.args, string(tc.Arguments))
			}
		})
	}
}

func TestTextMessagesRoundTrip(t *testing.T) {
	tools := textTools("get_weather")
	msgs := []agent.Message{
		{Role: agent.RoleUser, Content: "Weather in Paris and Oslo?"},
		{Role: agent.RoleAssistant, Content: "Two lookups.", ToolCalls: []agent.ToolCall{
			{ID: "a", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)},
			{ID: "b", Name: "get_weather", RawArguments: "{city: Oslo", ArgumentsError: "bad"},
		}},
		{Role: agent.RoleTool, ToolCallID: "a", Content: "sunny"},
		{Role: agent.RoleTool, ToolCallID: "b", Content: "error: bad arguments"},
		{Role: agent.RoleAssistant, Content: "Paris is sunny."},
	}
	out := TextMessages(msgs, tools)
	require.Len(t, out, 5)
	require.Equal(t, agent.RoleSystem, out[0].Role, "the tool prompt becomes the system message when there is none")
	require.Equal(t, TextPrompt(tools), out[0].Content)
	require.Equal(t, "Thought: Two lookups.\nAction: get_weather\nAction Input: {\"city\":\"Paris\"}\nAction: get_weather\nAction Input: {city: Oslo", out[2].Content)
	require.Equal(t, agent.Message{Role: agent.RoleUser, Content: "Observation: sunny\nObservation: error: bad arguments"}, out[3], "consecutive results merge")
	require.Equal(t, "Final Answer: Paris is sunny.", out[4].Content)
	for _, m := range out {
		require.NotEqual(t, agent.RoleTool, m.Role)
		require.Empty(t, m.ToolCalls)
	}
	// What the protocol writes for a call, it reads back as the same call.
	back := ParseText(out[2].Content, tools)
	require.Empty(t, back.ParseError)
	require.Equal(t, "Two lookups.", back.Content)
	require.Equal(t, `{"city":"Paris"}`, string(back.ToolCalls[0].Arguments))
	require.Contains(t, back.ToolCalls[1].ArgumentsError, "unclosed")
}

func TestTextPromptNoTools(t *testing.T) {
	p := TextPrompt(nil)
	require.Contains(t, p, "You have no tools")
	require.NotContains(t, p, "Action:")
	require.True(t, strings.HasSuffix(p, "Final Answer: your answer to the user\n"))
}

func FuzzParseText(f *testing.F) {
	for _, s := range []string{
		"Thought: a\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}",
		"Action: get_weather\nAction Input: ```json\n{'a': True,}\n```",
		"Final Answer: done",
		"Action: Finish\nAction Input: {\"return_type\":\"give_answer\",\"final_answer\":\"x\"}",
		"**Action:** x Action Input: {a: [1, {b: 'c'}]}\nObservation: y",
		"Action Input: {",
		"",
	} {
		f.Add(s)
	}
	tools := textTools("get_weather", "Finish")
	f.Fuzz(func(t *testing.T, output string) {
		r := ParseText(output, tools)
		if r.ParseError != "" {
			if len(r.ToolCalls) != 0 || r.Content != output {
				t.Fatalf("parse error must keep the output and no calls: %+v", r)
			}
			return
		}
		if len(r.ToolCalls) == 0 && strings.TrimSpace(r.Content) == "" {
			t.Fatalf("success with neither calls nor answer: %+v", r)
		}
		for _, tc := range r.ToolCalls {
			if tc.Name != "get_weather" && tc.Name != "Finish" {
				t.Fatalf("unknown tool accepted: %q", tc.Name)
			}
			if tc.ArgumentsError == "" {
				var obj map[string]any
				if err := json.Unmarshal(tc.Arguments, &obj); err != nil || obj == nil {
					t.Fatalf("arguments not an object: %q", tc.Arguments)
				}
			} else if len(tc.Arguments) != 0 {
				t.Fatalf("arguments error with arguments: %+v", tc)
			}
		}
	})
}
