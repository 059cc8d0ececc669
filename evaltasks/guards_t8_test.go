package evaltasks

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/textmatch"
)

// Task 8's cheap strategies: plans that solve nothing, written so that
// the words a scorer looks for are all there. Each runs end to end
// through -agent openai on the whole Type-V set and must stay at or under
// SurfaceFloor on the task's passing rate.

// planVerbs are the actions plans are written with.
var planVerbs = strings.Fields(`add average calculate capture check combine compare compress convert find get list look
	pick poll recommend remove resize search summarise translate wait`)

// planBag is the request's and the offered tools' words, with planVerbs,
// distinct and in alphabetical order: every action and every thing the
// plan could be about, with no order a reader could follow.
func planBag(req agenttest.ChatRequest) string {
	words := map[string]bool{}
	for _, w := range planVerbs {
		words[w] = true
	}
	add := func(text string) {
		for _, w := range textmatch.Words(text) {
			if !textmatch.IsStopWord(w) && !textmatch.HasDigit(w) && len(w) > 2 {
				words[w] = true
			}
		}
	}
	add(userText(req))
	for _, tl := range req.Tools {
		add(strings.Join(textmatch.SplitName(tl.Function.Name), " "))
		add(tl.Function.Description)
	}
	return strings.Join(slices.Sorted(maps.Keys(words)), " ")
}

// bagStepPerTool is a step per offered function, each the function's name
// and the same bag of words.
func bagStepPerTool(req agenttest.ChatRequest) (agenttest.Turn, error) {
	bag := planBag(req)
	var b strings.Builder
	b.WriteString("Plan:\n")
	for i, tl := range req.Tools {
		fmt.Fprintf(&b, "%d. `%s`: %s.\n", i+1, tl.Function.Name, bag)
	}
	return agenttest.Text(b.String()), nil
}

// verbNounStepPerTool is a step per offered function, each calling it to
// do every plan verb to the request's words: "use X to add, average,
// check … the …".
func verbNounStepPerTool(req agenttest.ChatRequest) (agenttest.Turn, error) {
	var nouns []string
	for _, w := range textmatch.Words(userText(req)) {
		if !textmatch.IsStopWord(w) && !textmatch.HasDigit(w) && len(w) > 2 && !slices.Contains(nouns, w) {
			nouns = append(nouns, w)
		}
	}
	slices.Sort(nouns)
	var b strings.Builder
	b.WriteString("Plan:\n")
	for i, tl := range req.Tools {
		fmt.Fprintf(&b, "%d. Use `%s` to %s the %s.\n", i+1, tl.Function.Name, strings.Join(planVerbs, ", "), strings.Join(nouns, " "))
	}
	return agenttest.Text(b.String()), nil
}

func TestPlanGuardsSitAtTheFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole Type-V set, once per strategy")
	}
	for _, s := range []struct {
		name   string
		policy func(agenttest.ChatRequest) (agenttest.Turn, error)
	}{
		{"one step per tool, each holding the same alphabetised bag of verbs and nouns", bagStepPerTool},
		{"one step per tool, each doing every verb to the request's words", verbNounStepPerTool},
	} {
		t.Run(s.name, func(t *testing.T) {
			rep := runStrategy(t, s.policy, func(c *Config) { c.Tasks = []int{TaskPlan} })
			requireAtMost(t, rep, TaskPlan, SurfaceFloor, s.name)
		})
	}
}
