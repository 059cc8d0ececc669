package evaltasks

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks/reading"
	"github.com/understudy/understudy/evaltasks/textmatch"
	"github.com/understudy/understudy/mocks/world"
)

// Strategies aimed at Tasks 5 and 6 that exploit checks reading an answer
// differently: a value one check reads and another does not. Each is
// served through -agent openai on its task's whole set and must stay at
// or under SurfaceFloor.

// t56Guard is one such strategy.
type t56Guard struct {
	task   int
	name   string
	policy func(agenttest.ChatRequest) (agenttest.Turn, error)
}

func TestGuardsT56SitAtTheFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole embedded sets of Tasks 5 and 6, once per strategy")
	}
	w, err := world.DefaultWorld()
	require.NoError(t, err)
	guards := []t56Guard{
		{TaskIntrinsic, "one constant reply: numbers after a colon, time zones in lower case, names in a plural form", say(constantReadTwice(w))},
		{TaskToolReturn, "every value of the result, long texts with their words reversed, numbers with a unit of the wrong kind", everyValueDistorted(true, true)},
		{TaskToolReturn, "every value of the result, long texts with their words reversed", everyValueDistorted(true, false)},
		{TaskToolReturn, "every value of the result, numbers with a unit of the wrong kind", everyValueDistorted(false, true)},
		{TaskToolReturn, "every value of the result, each under its field's name in words", everyValueNamed},
	}
	for _, g := range guards {
		t.Run(fmt.Sprintf("T%d %s", g.task, g.name), func(t *testing.T) {
			rep := runStrategy(t, g.policy, func(c *Config) { c.Tasks = []int{g.task} })
			requireAtMost(t, rep, g.task, SurfaceFloor, g.name)
		})
	}
}

// wrongUnit is a unit of another kind than the field's: a temperature in
// kilometres, anything else in degrees.
func wrongUnit(key string) string {
	if reading.FieldKind(key) == reading.Temperature {
		return " km"
	}
	return " °C"
}

// everyValueDistorted states every value of the last tool result in
// document order, texts of three words or more with their words reversed
// (reverse) and numbers with a unit of the wrong kind (units).
func everyValueDistorted(reverse, units bool) func(agenttest.ChatRequest) (agenttest.Turn, error) {
	return func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		rs := toolResults(req)
		if len(rs) == 0 {
			return agenttest.Text("Done."), nil
		}
		var vals []string
		for _, l := range resultLeaves(rs[len(rs)-1]) {
			v := l.value
			ws := strings.Fields(v)
			switch {
			case reverse && len(ws) >= 3:
				slices.Reverse(ws)
				v = strings.Join(ws, " ")
			case units:
				if _, _, _, _, ok := textmatch.NumberFact(v); ok {
					v += wrongUnit(l.key)
				}
			}
			vals = append(vals, v)
		}
		return agenttest.Text("Here is what I found: " + strings.Join(vals, "; ") + "."), nil
	}
}

// everyValueNamed states every value of the last tool result, each after
// its field's name in words ("temp c 17.7, condition text Mist").
func everyValueNamed(req agenttest.ChatRequest) (agenttest.Turn, error) {
	rs := toolResults(req)
	if len(rs) == 0 {
		return agenttest.Text("Done."), nil
	}
	var parts []string
	for _, l := range resultLeaves(rs[len(rs)-1]) {
		parts = append(parts, strings.Join(textmatch.SplitName(l.key), " ")+" "+l.value)
	}
	return agenttest.Text("Here is what I found: " + strings.Join(parts, ", ") + "."), nil
}

// constantReadTwice is one reply for every Task-5 question, written so
// that a check that reads values one way states them and a check that
// reads them another way does not count them as claims: every number from
// -10 to 100 after a colon, every zone and UTC offset in lower case, and
// every capital, currency, language and phrase in a plural form.
func constantReadTwice(w *world.World) string {
	var b strings.Builder
	b.WriteString("The values:")
	for n := -10; n <= 100; n++ {
		fmt.Fprintf(&b, " :%d", n)
		if n > 0 && n <= 31 {
			fmt.Fprintf(&b, " days:%d", n)
		}
	}
	b.WriteString(".\nZones:")
	var zones []string
	for _, c := range w.Countries() {
		zones = append(zones, c.TimeZones...)
	}
	for _, z := range slices.Compact(slices.Sorted(slices.Values(zones))) {
		fmt.Fprintf(&b, " %s", strings.ToLower(z))
	}
	for h := -12; h <= 14; h++ {
		fmt.Fprintf(&b, " utc%+03d:00", h)
	}
	b.WriteString(".\nNames:")
	for _, c := range w.Countries() {
		fmt.Fprintf(&b, " %ss,", c.Capital)
	}
	for _, c := range w.Currencies() {
		fmt.Fprintf(&b, " %ss,", c.Name)
	}
	for _, l := range w.Languages() {
		fmt.Fprintf(&b, " %ss,", l.Name)
	}
	for _, e := range w.Phrasebook() {
		for _, k := range slices.Sorted(maps.Keys(e)) {
			if k != "en" {
				fmt.Fprintf(&b, " %ss,", e[k])
			}
		}
	}
	return b.String()
}
