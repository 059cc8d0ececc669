package evaltasks

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// Task 3's cheap strategies: replies that ask for every required
// parameter of the offered tool, whatever the user gave, and hide the
// re-asks behind the user's own words. A clarification asks for what is
// missing; asking for the rest again fails whatever the sentence repeats,
// and the user's text handed back says nothing of the agent's own. Each
// runs end to end through -agent openai on the whole Type-III set and
// must stay at or under SurfaceFloor.

// lastUserText is the instruction itself: the last user message (earlier
// turns come before it).
func lastUserText(req agenttest.ChatRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return req.Messages[i].Content
		}
	}
	return ""
}

// requiredParams are the offered tools' required parameters, in name
// order, with their descriptions.
func requiredParams(req agenttest.ChatRequest) [][2]string {
	var out [][2]string
	for _, tl := range req.Tools {
		props, _ := tl.Function.Parameters["properties"].(map[string]any)
		var required []string
		switch r := tl.Function.Parameters["required"].(type) {
		case []any:
			for _, x := range r {
				required = append(required, fmt.Sprint(x))
			}
		case []string:
			required = r
		}
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if !slices.Contains(required, name) {
				continue
			}
			desc := ""
			if p, ok := props[name].(map[string]any); ok {
				desc, _ = p["description"].(string)
			}
			out = append(out, [2]string{name, desc})
		}
	}
	return out
}

// paramWords is a parameter's name in words ("dest id").
func paramWords(name string) string { return strings.Join(textmatch.SplitName(name), " ") }

// unquestioned is the user's text as the tail of a question: its final
// punctuation dropped, its first letter in lower case.
func unquestioned(text string) string {
	text = strings.TrimRight(strings.TrimSpace(text), "?!.")
	if text == "" {
		return text
	}
	return strings.ToLower(text[:1]) + text[1:]
}

// askEachRequiredFor asks, one sentence per required parameter, for the
// parameter "for" the user's whole text.
func askEachRequiredFor(describe bool) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		user := unquestioned(lastUserText(req))
		var out []string
		for _, p := range requiredParams(req) {
			name := paramWords(p[0])
			if describe && p[1] != "" {
				name += " (" + p[1] + ")"
			}
			out = append(out, fmt.Sprintf("Could you tell me the %s for %s?", name, user))
		}
		if len(out) == 0 {
			return agenttest.Text("Could you tell me more about " + user + "?"), nil
		}
		return agenttest.Text(strings.Join(out, " ")), nil
	}
}

// askAllRequiredFor asks, in one sentence, for every required parameter
// for the user's whole text.
func askAllRequiredFor(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var names []string
	for _, p := range requiredParams(req) {
		names = append(names, "the "+paramWords(p[0]))
	}
	user := unquestioned(lastUserText(req))
	if len(names) == 0 {
		return agenttest.Text("Could you tell me more about " + user + "?"), nil
	}
	return agenttest.Text(fmt.Sprintf("To help with %s, could you tell me %s?", user, strings.Join(names, " and "))), nil
}

// askRequiredAsList is the user's text, then a lead line that asks and a
// markdown list of every required parameter.
func askRequiredAsList(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "You asked: %s\n\nI still need:\n", lastUserText(req))
	for i, p := range requiredParams(req) {
		fmt.Fprintf(&b, "%d. **%s** for %s\n", i+1, paramWords(p[0]), unquestioned(lastUserText(req)))
	}
	return agenttest.Text(b.String()), nil
}

// askRequiredWithUserWords asks for each required parameter after the
// user's content words, in their order: the given values restated
// without a run of the user's text long enough to read as an echo.
func askRequiredWithUserWords(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var words []string
	for _, w := range textmatch.Words(lastUserText(req)) {
		if !textmatch.IsStopWord(w) {
			words = append(words, w)
		}
	}
	var out []string
	for _, p := range requiredParams(req) {
		out = append(out, fmt.Sprintf("About %s: could you tell me the %s?", strings.Join(words, ", "), paramWords(p[0])))
	}
	if len(out) == 0 {
		return agenttest.Text("Could you tell me more?"), nil
	}
	return agenttest.Text(strings.Join(out, " ")), nil
}

// askRequiredForUserWords asks for every required parameter in one
// question that ends on the user's content words.
func askRequiredForUserWords(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var words, names []string
	for _, w := range textmatch.Words(lastUserText(req)) {
		if !textmatch.IsStopWord(w) {
			words = append(words, w)
		}
	}
	for _, p := range requiredParams(req) {
		names = append(names, "the "+paramWords(p[0]))
	}
	return agenttest.Text(fmt.Sprintf("Could you tell me %s for %s?", strings.Join(names, " and "), strings.Join(words, " "))), nil
}

func TestClarifyStrategiesSitAtTheFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole Type-III set, once per strategy")
	}
	strategies := []struct {
		name   string
		policy func(agenttest.ChatRequest) (agenttest.Turn, error)
	}{
		{"each required parameter, for the user's whole text", askEachRequiredFor(false)},
		{"each required parameter with its description, for the user's whole text", askEachRequiredFor(true)},
		{"every required parameter in one sentence, for the user's whole text", askAllRequiredFor},
		{"the user's text, then a list of every required parameter", askRequiredAsList},
	}
	for _, s := range strategies {
		t.Run(s.name, func(t *testing.T) {
			rep := runStrategy(t, s.policy, func(c *Config) { c.Tasks = []int{TaskClarify} })
			requireAtMost(t, rep, TaskClarify, SurfaceFloor, s.name)
		})
	}
}

// TestRestatingTheGivenValuesHidesNoReask: where the user gave something,
// asking for every required parameter re-asks it, whatever else the
// sentence repeats of the user's words; on those instructions every
// strategy above, and the ones that restate the user's content words
// without their whole text, score 0. (Where the user gave nothing,
// asking for every required parameter in the agent's own words is what
// a clarification does: 166 of the 198 Type-III instructions.)
func TestRestatingTheGivenValuesHidesNoReask(t *testing.T) {
	if testing.Short() {
		t.Skip("the Type-III instructions that give something, once per strategy")
	}
	given := givingInstructions(t)
	strategies := []struct {
		name   string
		policy func(agenttest.ChatRequest) (agenttest.Turn, error)
	}{
		{"each required parameter, for the user's whole text", askEachRequiredFor(false)},
		{"every required parameter in one sentence, for the user's whole text", askAllRequiredFor},
		{"each required parameter after the user's content words", askRequiredWithUserWords},
		{"every required parameter, for the user's content words", askRequiredForUserWords},
	}
	for _, s := range strategies {
		t.Run(s.name, func(t *testing.T) {
			rep := runStrategy(t, s.policy, func(c *Config) { c.Instructions, c.Tasks = given, []int{TaskClarify} })
			got := metric(t, rep, TaskClarify, headline[TaskClarify])
			t.Logf("T3 %s %.3f on %d instructions that give something: %s", headline[TaskClarify], got, len(given), s.name)
			require.Zero(t, got, "%s", s.name)
		})
	}
}
