package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/internal/canon"
	"github.com/understudy/understudy/toolset"
)

// The text protocol follows the ReAct format ToolLLM uses for models
// without native tool calling:
//
//	Thought: <reasoning>
//	Action: <function name>
//	Action Input: <JSON object>
//
// answered by an "Observation: <result>" message, and ended by
// "Final Answer: <answer>" or by calling the Finish function.

// textStop ends generation where the model would start inventing the tool's result.
const textStop = "\nObservation:"

// TextPrompt is the system-prompt section that lists the tools and the
// format. Equal tools give equal text: parameter schemas are written as
// canonical JSON.
func TextPrompt(tools []toolset.OpenAITool) string {
	var b strings.Builder
	if len(tools) == 0 {
		b.WriteString("You have no tools for this task.\n")
	} else {
		b.WriteString("You can use the following tools. Each takes its arguments as a JSON object.\n\n")
		for _, t := range tools {
			f := t.Function
			fmt.Fprintf(&b, "%s: %s\n", f.Name, oneLine(f.Description))
			params := []byte("{}")
			if f.Parameters != nil {
				if p, err := canon.JSON(f.Parameters); err == nil {
					params = p
				}
			}
			fmt.Fprintf(&b, "  Parameters: %s\n", params)
		}
	}
	b.WriteString("\nUse exactly this format:\n\n")
	b.WriteString("Thought: think about what to do next\n")
	if len(tools) > 0 {
		fmt.Fprintf(&b, "Action: the tool to use, exactly one of [%s]\n", strings.Join(toolNames(tools), ", "))
		b.WriteString("Action Input: the tool's arguments as a JSON object\n")
		b.WriteString("\nThen stop and wait: the result comes back as \"Observation: ...\". ")
		b.WriteString("Repeat Thought/Action/Action Input as needed. When you can answer, write:\n\n")
		b.WriteString("Thought: I can answer now\n")
	}
	b.WriteString("Final Answer: your answer to the user\n")
	return b.String()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func toolNames(tools []toolset.OpenAITool) []string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Function.Name
	}
	return names
}

// TextMessages rewrites a conversation for the text protocol: the tool
// prompt joins the first system message (or becomes one), assistant tool
// calls become Thought/Action/Action Input text, and tool results become
// user "Observation:" messages, consecutive results merged into one so
// that roles keep alternating.
func TextMessages(messages []agent.Message, tools []toolset.OpenAITool) []agent.Message {
	prompt := TextPrompt(tools)
	out := make([]agent.Message, 0, len(messages)+1)
	placed := false
	lastWasObservation := false
	for _, m := range messages {
		switch m.Role {
		case agent.RoleSystem:
			if !placed {
				out = append(out, agent.Message{Role: agent.RoleSystem, Content: joinText("\n\n", strings.TrimSpace(m.Content), prompt)})
				placed = true
			} else {
				out = append(out, agent.Message{Role: agent.RoleSystem, Content: m.Content})
			}
			lastWasObservation = false
		case agent.RoleAssistant:
			out = append(out, agent.Message{Role: agent.RoleAssistant, Content: renderAssistant(m)})
			lastWasObservation = false
		case agent.RoleTool:
			obs := "Observation: " + m.Content
			if lastWasObservation {
				out[len(out)-1].Content += "\n" + obs
			} else {
				out = append(out, agent.Message{Role: agent.RoleUser, Content: obs})
			}
			lastWasObservation = true
		default:
			out = append(out, agent.Message{Role: m.Role, Content: m.Content})
			lastWasObservation = false
		}
	}
	if !placed {
		out = append([]agent.Message{{Role: agent.RoleSystem, Content: prompt}}, out...)
	}
	return out
}

// renderAssistant writes an assistant turn as the model would have in the text protocol.
func renderAssistant(m agent.Message) string {
	if len(m.ToolCalls) == 0 {
		if m.Content == "" {
			return ""
		}
		return "Final Answer: " + m.Content
	}
	var lines []string
	if m.Content != "" {
		lines = append(lines, "Thought: "+m.Content)
	}
	for _, tc := range m.ToolCalls {
		lines = append(lines, "Action: "+tc.Name, "Action Input: "+argumentsText(tc))
	}
	return strings.Join(lines, "\n")
}

// ParseText reads a text-protocol model output into a Reply. With actions,
// Content is the thought and ToolCalls the actions in order; with a final
// answer, Content is the answer and Reasoning the thought. Output that
// cannot be understood sets ParseError and keeps the output in Content,
// with no tool calls.
func ParseText(output string, tools []toolset.OpenAITool) agent.Reply {
	return parseText(output, tools, "")
}

var markerRE = regexp.MustCompile(`(?i)^[\s*_#>]*(thought|action[ _]?input|action|final[ _]?answer|observation)[\s*_]*:[*_]*[ \t]*`)

// inlineInputRE finds "Action Input:" written on the Action's line.
var inlineInputRE = regexp.MustCompile(`(?i)(\S)[ \t]+(Action[ _]?Input[ \t]*:)`)

type textSegment struct {
	kind string // "thought", "action", "input", "final"
	text string
}

func parseText(output string, tools []toolset.OpenAITool, salt string) agent.Reply {
	fail := func(format string, args ...any) agent.Reply {
		return agent.Reply{Content: output, ParseError: fmt.Sprintf(format, args...)}
	}
	text := strings.ReplaceAll(output, "\r\n", "\n")
	if strings.TrimSpace(text) == "" {
		return fail("empty output: no Action or Final Answer")
	}
	segs := splitSegments(text)

	var (
		thought []string
		final   *textSegment
		actions []*textAction
	)
	for i := range segs {
		s := &segs[i]
		switch s.kind {
		case "thought":
			if t := strings.TrimSpace(s.text); t != "" {
				thought = append(thought, t)
			}
		case "final":
			if final == nil {
				final = s
			}
		case "action":
			actions = append(actions, &textAction{name: s.text})
		case "input":
			if len(actions) == 0 {
				return fail("Action Input without an Action")
			}
			a := actions[len(actions)-1]
			if a.hasInput {
				return fail("action %q has more than one Action Input", cleanName(a.name))
			}
			a.input, a.hasInput = s.text, true
		}
	}
	thoughtText := strings.Join(thought, "\n")
	switch {
	case final != nil && len(actions) > 0:
		return fail("output has both an Action and a Final Answer")
	case final != nil:
		answer := strings.TrimSpace(final.text)
		if answer == "" {
			return fail("Final Answer is empty")
		}
		return agent.Reply{Content: answer, Reasoning: thoughtText}
	case len(actions) == 0:
		return fail("no Action or Final Answer found")
	}

	known := toolNames(tools)
	reply := agent.Reply{Content: thoughtText}
	for i, a := range actions {
		name := cleanName(a.name)
		if name == "" {
			return fail("Action %d has no function name", i+1)
		}
		if !a.hasInput {
			return fail("action %q has no Action Input", name)
		}
		tc := agent.ToolCall{}
		tc.Arguments, tc.RawArguments, tc.ArgumentsError = parseActionInput(a.input)
		resolved, ok := resolveName(name, known)
		if !ok {
			if strings.EqualFold(name, agent.FinishName) && len(actions) == 1 {
				return finishAsAnswer(output, tc, thoughtText)
			}
			return fail("unknown action %q; the tools are %s", name, listNames(known))
		}
		tc.Name = resolved
		tc.ID = callID(salt, i, tc.Name, argumentsText(tc))
		reply.ToolCalls = append(reply.ToolCalls, tc)
	}
	return reply
}

type textAction struct {
	name     string
	input    string
	hasInput bool
}

// splitSegments cuts text at marker lines. Text before the first marker
// counts as thought; everything from an Observation marker on is dropped,
// since it is the model inventing a tool result.
func splitSegments(text string) []textSegment {
	text = inlineInputRE.ReplaceAllString(text, "$1\n$2")
	var segs []textSegment
	cur := textSegment{kind: "thought"}
	for _, line := range strings.SplitAfter(text, "\n") {
		loc := markerRE.FindStringSubmatchIndex(line)
		if loc == nil {
			cur.text += line
			continue
		}
		kind := markerKind(line[loc[2]:loc[3]])
		segs = append(segs, cur)
		if kind == "observation" {
			return segs
		}
		cur = textSegment{kind: kind, text: line[loc[1]:]}
	}
	return append(segs, cur)
}

func markerKind(word string) string {
	w := strings.ToLower(strings.NewReplacer(" ", "", "_", "").Replace(word))
	switch w {
	case "actioninput":
		return "input"
	case "finalanswer":
		return "final"
	}
	return w
}

// cleanName strips decoration models put around a function name.
func cleanName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	s = strings.Trim(s, "`'\"*[]. \t")
	return s
}

// resolveName matches name exactly, else case-insensitively when that is unambiguous.
func resolveName(name string, known []string) (string, bool) {
	var folded []string
	for _, k := range known {
		if k == name {
			return k, true
		}
		if strings.EqualFold(k, name) {
			folded = append(folded, k)
		}
	}
	if len(folded) == 1 {
		return folded[0], true
	}
	return "", false
}

func listNames(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	const max = 12
	if len(names) > max {
		return "[" + strings.Join(names[:max], ", ") + fmt.Sprintf(", … %d more]", len(names)-max)
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// finishAsAnswer reads "Action: Finish" when no Finish tool was offered as
// a final answer, the way ToolLLM's give_answer is meant.
func finishAsAnswer(output string, tc agent.ToolCall, thought string) agent.Reply {
	var args struct {
		ReturnType  string `json:"return_type"`
		FinalAnswer string `json:"final_answer"`
	}
	if tc.ArgumentsError != "" || json.Unmarshal(tc.Arguments, &args) != nil {
		return agent.Reply{Content: output, ParseError: "action Finish: " + firstText(tc.ArgumentsError, "arguments are not an object")}
	}
	if strings.TrimSpace(args.FinalAnswer) == "" {
		return agent.Reply{Content: output, ParseError: fmt.Sprintf("action Finish (return_type %q) has no final_answer", args.ReturnType)}
	}
	return agent.Reply{Content: strings.TrimSpace(args.FinalAnswer), Reasoning: thought}
}

func firstText(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// parseActionInput finds the JSON object in an Action Input, tolerating
// code fences, text around the object, single quotes, Python literals and
// trailing commas. Blank input means no arguments.
func parseActionInput(text string) (json.RawMessage, string, string) {
	t := stripFences(strings.TrimSpace(text))
	if t == "" {
		return json.RawMessage("{}"), "", ""
	}
	start := strings.IndexByte(t, '{')
	if start < 0 {
		if json.Valid([]byte(t)) {
			return nil, t, fmt.Sprintf("Action Input is a JSON %s, want an object", jsonKind([]byte(t)))
		}
		return nil, t, "Action Input has no JSON object"
	}
	obj, ok := balancedObject(t[start:])
	if !ok {
		return nil, t, "Action Input has an unclosed JSON object"
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(obj)) == nil && objectProblem([]byte(obj)) == "" {
		return json.RawMessage(b.Bytes()), "", ""
	}
	if fixed, ok := pythonToJSON(obj); ok && objectProblem([]byte(fixed)) == "" {
		b.Reset()
		if json.Compact(&b, []byte(fixed)) == nil {
			return json.RawMessage(b.Bytes()), "", ""
		}
	}
	return nil, obj, "Action Input is not valid JSON: " + strings.TrimPrefix(objectProblem([]byte(obj)), "arguments are not valid JSON: ")
}

// stripFences removes a Markdown code fence (```json ... ```) or inline backticks.
func stripFences(t string) string {
	if strings.HasPrefix(t, "```") {
		t = t[3:]
		if nl := strings.IndexByte(t, '\n'); nl >= 0 && !strings.ContainsAny(t[:nl], "{[") {
			t = t[nl+1:]
		}
		if end := strings.Index(t, "```"); end >= 0 {
			t = t[:end]
		}
		return strings.TrimSpace(t)
	}
	if len(t) >= 2 && t[0] == '`' {
		if end := strings.IndexByte(t[1:], '`'); end >= 0 {
			return strings.TrimSpace(t[1 : end+1])
		}
	}
	return t
}

// balancedObject returns the prefix of s (which starts with '{') up to its
// matching '}', skipping brackets inside single- or double-quoted strings.
func balancedObject(s string) (string, bool) {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			switch c {
			case '\\':
				i++
			case quote:
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'':
			quote = c
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return s[:i+1], true
			}
			if depth < 0 {
				return "", false
			}
		}
	}
	return "", false
}

// pythonToJSON rewrites a Python- or JavaScript-style literal
// (single-quoted strings, True/False/None, unquoted keys, trailing commas)
// as JSON.
func pythonToJSON(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			var str strings.Builder
			closed := false
			for ; j < len(s); j++ {
				ch := s[j]
				if ch == '\\' && j+1 < len(s) {
					j++
					switch next := s[j]; next {
					case '\'':
						str.WriteByte('\'')
					case '"':
						str.WriteString(`\"`)
					default:
						// Keep other escapes for the JSON decoder to judge.
						str.WriteByte('\\')
						str.WriteByte(next)
					}
					continue
				}
				switch {
				case ch == c:
					closed = true
				case ch == '"':
					str.WriteString(`\"`)
				case ch == '\n':
					str.WriteString(`\n`)
				case ch == '\t':
					str.WriteString(`\t`)
				default:
					str.WriteByte(ch)
				}
				if closed {
					break
				}
			}
			if !closed {
				return "", false
			}
			b.WriteByte('"')
			b.WriteString(str.String())
			b.WriteByte('"')
			i = j
		case c == ',':
			k := i + 1
			for k < len(s) && strings.IndexByte(" \t\r\n", s[k]) >= 0 {
				k++
			}
			if k < len(s) && (s[k] == '}' || s[k] == ']') {
				continue
			}
			b.WriteByte(c)
		case isIdentStart(c):
			j := i
			for j < len(s) && (isIdentStart(s[j]) || (s[j] >= '0' && s[j] <= '9')) {
				j++
			}
			k := j
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
			word := s[i:j]
			switch {
			case k < len(s) && s[k] == ':':
				// An unquoted key, as in {city: "Paris"}.
				b.WriteString(`"` + word + `"`)
			case word == "True":
				b.WriteString("true")
			case word == "False":
				b.WriteString("false")
			case word == "None":
				b.WriteString("null")
			default:
				b.WriteString(word)
			}
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
