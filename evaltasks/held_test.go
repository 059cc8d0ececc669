package evaltasks

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/toolset"
)

// scriptedChain makes the same calls whatever it sees, one per turn (an
// argument "$colosseum" is Rome's top sight's location_id as the first
// answer gave it), then gives answer.
func scriptedChain(calls [][2]string, answer string) agent.Agent {
	return funcAgent(func(_ context.Context, msgs []agent.Message, _ []toolset.OpenAITool) (agent.Reply, error) {
		var results []string
		for _, m := range msgs {
			if m.Role == agent.RoleTool {
				results = append(results, m.Content)
			}
		}
		if len(results) >= len(calls) {
			return agent.Reply{Content: answer}, nil
		}
		c := calls[len(results)]
		args := c[1]
		if args == `{"location_id":"$colosseum"}` {
			var obs struct {
				Response struct {
					Data []struct {
						ResultObject struct {
							LocationID string `json:"location_id"`
							Name       string `json:"name"`
						} `json:"result_object"`
					} `json:"data"`
				} `json:"response"`
			}
			if err := json.Unmarshal([]byte(results[0]), &obs); err != nil {
				return agent.Reply{}, err
			}
			for _, d := range obs.Response.Data {
				if d.ResultObject.Name == "Colosseum" {
					args = `{"location_id":` + strconv.Quote(d.ResultObject.LocationID) + `}`
				}
			}
		}
		return agent.Reply{ToolCalls: []agent.ToolCall{{ID: "c" + strconv.Itoa(len(results)+1), Name: c[0], Arguments: json.RawMessage(args)}}}, nil
	})
}

// TestAStepAlreadyHeldCounts: "What's the top-ranked sight in Rome, and
// where exactly is it?" answered from locations_search, which lists the
// Colosseum with its address, is the whole chain done (it scored 1/3);
// so is the details call made with the ID locations_search gave (the
// sandbox's provenance rule). Answers that do not select the sight, or
// select another, and an ID of another kind of location, are not.
func TestAStepAlreadyHeldCounts(t *testing.T) {
	ins, err := dataset.LoadDir(fixtures.FS, "instructions")
	require.NoError(t, err)
	var rome []dataset.Instruction
	for _, in := range ins {
		if in.ID == "IV-132-travel_advisor.attractions_get_details" {
			rome = append(rome, in)
		}
	}
	require.Len(t, rome, 1)
	search := [2]string{"travel_advisor-locations_search", `{"query":"Rome"}`}
	details := [2]string{"travel_advisor-attractions_get_details", `{"location_id":"$colosseum"}`}
	geoDetails := [2]string{"travel_advisor-attractions_get_details", `{"location_id":"187791"}`}
	tests := []struct {
		name      string
		calls     [][2]string
		answer    string
		progress  float64
		precision float64
	}{
		{"answered from the search", [][2]string{search},
			"Rome's top-ranked sight is the Colosseum, at Piazza del Colosseo, 00184 Rome Italy.", 1, 1},
		{"details with the ID the search gave", [][2]string{search, details},
			"It is the Colosseum, Piazza del Colosseo.", 1, 1},
		{"the search, then a twice-made search", [][2]string{search, search},
			"Rome's top-ranked sight is the Colosseum, at Piazza del Colosseo, 00184 Rome Italy.", 1, 0.5},
		{"the search and no answer", [][2]string{search}, "Done.", 1.0 / 3, 1},
		{"another sight", [][2]string{search},
			"The top sight in Rome is the Pantheon, at Piazza della Rotonda.", 1.0 / 3, 1},
		{"every sight listed", [][2]string{search},
			"Top sights: the Colosseum, the Pantheon and the Trevi Fountain.", 1.0 / 3, 1},
		{"details of the city itself", [][2]string{search, geoDetails}, "Here are the details.", 1.0 / 3, 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Run(context.Background(), Config{Agent: scriptedChain(tc.calls, tc.answer), AgentName: "scripted", Tasks: []int{TaskChain},
				Instructions: rome, Stack: testStack(t)})
			require.NoError(t, err)
			require.InDelta(t, tc.progress, metric(t, rep, TaskChain, "progress"), 1e-9)
			require.InDelta(t, tc.precision, rep.Tasks[0].Extra["call_precision"], 1e-9)
			require.InDelta(t, float64(len(tc.calls))*(1-tc.precision), rep.Tasks[0].Extra["wasted_calls_per_instance"], 1e-9)
		})
	}
}
