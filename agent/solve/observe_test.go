package solve_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/observe"
	"github.com/understudy/understudy/agent/solve"
)

// TestLongResultsShowEveryDay: a 5-day forecast (80 KB with its hourly
// detail) is shown within observe.Budget with all five days, its hours
// cut, and a note saying so. Lists used to be cut to their first items
// whatever they held, which showed 2 of the 5 days.
func TestLongResultsShowEveryDay(t *testing.T) {
	ts := newToolServer(t)
	var seen observation
	var note string
	model := agenttest.NewServer(t,
		agenttest.Tool("weatherapi_com-forecast_weather_api", `{"q": "Rome", "days": 5}`),
		agenttest.Turn{Reply: func(req agenttest.ChatRequest) (agenttest.Turn, error) {
			last := req.Messages[len(req.Messages)-1]
			require.LessOrEqual(t, len(last.Content), observe.Budget)
			var o struct {
				observation
				Note string `json:"note"`
			}
			require.NoError(t, json.Unmarshal([]byte(last.Content), &o), "the observation stays JSON")
			seen, note = o.observation, o.Note
			return agenttest.Tool(agent.FinishName, `{"return_type": "give_answer", "final_answer": "Sunny all week."}`), nil
		}},
	)
	client, _ := newClient(t, model.URL(), nil)
	s := &solve.ReAct{Agent: client, Executor: &agent.EngineExecutor{Engine: ts.Stack.Engine}}
	tr, err := s.Solve(context.Background(), solve.Problem{ID: "forecast", Query: "5-day forecast for Rome?", Tools: toolsOf(ts.Stack.Catalog, "weatherapi_com")})
	require.NoError(t, err)
	require.Equal(t, solve.OutcomeAnswer, tr.Outcome, tr.Error)

	var doc struct {
		Forecast struct {
			Days []struct {
				Day   map[string]any `json:"day"`
				Hours []any          `json:"hour"`
			} `json:"forecastday"`
		} `json:"forecast"`
	}
	require.NoError(t, json.Unmarshal(seen.Response, &doc))
	require.Len(t, doc.Forecast.Days, 5, "every day of the forecast is shown")
	for _, d := range doc.Forecast.Days {
		require.NotEmpty(t, d.Day["maxtemp_c"])
		require.Less(t, len(d.Hours), 24)
	}
	require.Contains(t, note, "forecast.forecastday[].hour shows the first")
	require.Contains(t, note, "of up to 24 items in each list")
}
