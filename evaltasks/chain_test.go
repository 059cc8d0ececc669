package evaltasks

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/toolset"
)

// scriptAgent follows its own script (agent.Oracle's replay of calls,
// bindings read from the solver's observations), whatever the gold says.
type scriptAgent struct{ script *agent.OracleScript }

func (s scriptAgent) Respond(ctx context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	return agent.Oracle{}.Respond(agent.WithOracleScript(ctx, s.script), msgs, tools)
}

// call is a script step with literal arguments.
func call(name string, args map[string]any) agent.OracleStep {
	return agent.OracleStep{Name: name, Arguments: args}
}

// bound is a script step with literal arguments and values taken from the
// results of earlier steps (param → step, path in the API's response).
func bound(name string, args map[string]any, from map[string]agent.OracleSource) agent.OracleStep {
	st := call(name, args)
	st.Bindings = map[string]agent.OracleSource{}
	for p, src := range from {
		st.Bindings[p] = agent.OracleSource{Step: src.Step, Path: observedPath(src.Path)}
	}
	return st
}

func src(step int, path string) agent.OracleSource { return agent.OracleSource{Step: step, Path: path} }

// embeddedRecord is one record of the embedded dataset.
func embeddedRecord(t testing.TB, id string) dataset.Instruction {
	t.Helper()
	ins, err := dataset.LoadDir(fixtures.FS, "instructions")
	require.NoError(t, err)
	for _, in := range ins {
		if in.ID == id {
			return in
		}
	}
	t.Fatalf("no record %s", id)
	return dataset.Instruction{}
}

func runChainInstance(t testing.TB, in dataset.Instruction, steps ...agent.OracleStep) *Result {
	t.Helper()
	ev := newEvaluator(testStack(t), 0, nil)
	a := scriptAgent{&agent.OracleScript{Steps: steps, Answer: "Done."}}
	res, err := ev.runInstance(context.Background(), a, Instance{Task: TaskChain, In: &in})
	require.NoError(t, err)
	require.Empty(t, res.Error)
	return res
}

func TestChainScoredByArguments(t *testing.T) {
	porto := embeddedRecord(t, "IV-001-airport_info.nearby_airports")
	removal := embeddedRecord(t, "IV-023-background_removal.get_removal_result")
	portugal := embeddedRecord(t, "IV-079-iso_codes.country_by_code")
	flights := embeddedRecord(t, "IV-095-skyscanner80.flights_search_one_way")
	seoul := embeddedRecord(t, "IV-021-booking_com.search_hotels")
	holidays := embeddedRecord(t, "IV-083-public_holiday.public_holidays")
	holidaysAU := dataset.Instruction{ID: "au", Type: dataset.TypeDependencies, Text: "Which public holidays does AU have in 2025?", Chain: []dataset.GoldStep{
		{API: "public_holiday.available_countries"},
		{API: "public_holiday.public_holidays", Arguments: map[string]any{"year": 2025.0}, Bindings: map[string]dataset.Binding{"countryCode": {Step: 0, Path: "[].countryCode"}}},
	}}
	coords := map[string]agent.OracleSource{"lat": src(0, "results[].lat"), "lon": src(0, "results[].lon")}
	ids := map[string]agent.OracleSource{"fromId": src(0, "data[].id"), "toId": src(1, "data[].id")}
	// The flight search answers incomplete and its docs say to poll until
	// complete, so the gold chain polls the search of script step search.
	poll := func(search int) agent.OracleStep {
		st := bound("skyscanner80-flights_search_incomplete", nil, map[string]agent.OracleSource{"sessionId": src(search, "data.context.sessionId")})
		st.Repeat, st.Until = true, observedPath("data.context.status")+" == complete"
		return st
	}
	tests := []struct {
		name  string
		in    dataset.Instruction
		steps []agent.OracleStep
		want  float64
	}{
		{"the gold chain", porto, []agent.OracleStep{
			call("geocoding-forward_geocode", map[string]any{"address": "Porto"}),
			bound("airport_info-nearby_airports", nil, coords)}, 1},
		{"the user's place, said more fully", porto, []agent.OracleStep{
			call("geocoding-forward_geocode", map[string]any{"address": "Porto, Portugal"}),
			bound("airport_info-nearby_airports", nil, coords)}, 1},
		{"the user's city with its country, for an opaque id", seoul, []agent.OracleStep{
			call("booking_com-search_hotel_destination", map[string]any{"query": "Seoul, South Korea"}),
			bound("booking_com-search_hotels", map[string]any{"arrival_date": "2025-10-10", "departure_date": "2025-10-12", "search_type": "CITY"}, map[string]agent.OracleSource{"dest_id": src(0, "data[].dest_id")})}, 1},
		{"another city, for an opaque id", seoul, []agent.OracleStep{
			call("booking_com-search_hotel_destination", map[string]any{"query": "Lisbon"}),
			bound("booking_com-search_hotels", map[string]any{"arrival_date": "2025-10-10", "departure_date": "2025-10-12", "search_type": "CITY"}, map[string]agent.OracleSource{"dest_id": src(0, "data[].dest_id")})}, 0},
		{"geocoding another city", porto, []agent.OracleStep{
			call("geocoding-forward_geocode", map[string]any{"address": "Tokyo"}),
			bound("airport_info-nearby_airports", nil, coords)}, 0},
		{"coordinates made up after geocoding", porto, []agent.OracleStep{
			call("geocoding-forward_geocode", map[string]any{"address": "Porto"}),
			call("airport_info-nearby_airports", map[string]any{"lat": 41.0, "lon": -8.0})}, 0.5},
		{"only the final API, with made-up coordinates", porto, []agent.OracleStep{
			call("airport_info-nearby_airports", map[string]any{"lat": 41.0, "lon": -8.0})}, 0},
		{"a fabricated result id", removal, []agent.OracleStep{
			call("background_removal-remove_background", map[string]any{"image_url": "https://images.understudy.test/product_water_bottle.jpg"}),
			call("background_removal-get_removal_result", map[string]any{"result_id": "res_0001"})}, 0.5},
		{"only the final API, with a fabricated id", removal, []agent.OracleStep{
			call("background_removal-get_removal_result", map[string]any{"result_id": "res_0001"})}, 0},
		{"another image", removal, []agent.OracleStep{
			call("background_removal-remove_background", map[string]any{"image_url": "https://images.understudy.test/product_laptop.jpg"}),
			bound("background_removal-get_removal_result", nil, map[string]agent.OracleSource{"result_id": src(0, "result_id")})}, 0},
		{"a country code known without looking it up", portugal, []agent.OracleStep{
			call("iso_codes-country_by_code", map[string]any{"code": "PT"})}, 1},
		{"a wrong country code", portugal, []agent.OracleStep{
			call("iso_codes-country_by_code", map[string]any{"code": "ES"})}, 0},
		{"the user's country, from the list of countries", holidays, []agent.OracleStep{
			call("public_holiday-available_countries", nil),
			bound("public_holiday-public_holidays", map[string]any{"year": 2025}, map[string]agent.OracleSource{"countryCode": src(0, "[].countryCode")})}, 1},
		{"another country, from the list of countries", holidays, []agent.OracleStep{
			call("public_holiday-available_countries", nil),
			call("public_holiday-public_holidays", map[string]any{"countryCode": "BR", "year": 2025})}, 0.5},
		{"a country code the user gave", holidaysAU, []agent.OracleStep{
			call("public_holiday-public_holidays", map[string]any{"countryCode": "AU", "year": 2025})}, 1},
		{"the user's country code, the wrong year", holidaysAU, []agent.OracleStep{
			call("public_holiday-public_holidays", map[string]any{"countryCode": "AU", "year": 2024})}, 0},
		{"independent steps in another order", flights, []agent.OracleStep{
			call("skyscanner80-flights_auto_complete", map[string]any{"query": "London"}),
			call("skyscanner80-flights_auto_complete", map[string]any{"query": "New York"}),
			bound("skyscanner80-flights_search_one_way", map[string]any{"departDate": "2025-06-20"}, map[string]agent.OracleSource{"fromId": src(1, "data[].id"), "toId": src(0, "data[].id")}), poll(2)}, 1},
		{"origin and destination swapped", flights, []agent.OracleStep{
			call("skyscanner80-flights_auto_complete", map[string]any{"query": "New York"}),
			call("skyscanner80-flights_auto_complete", map[string]any{"query": "London"}),
			bound("skyscanner80-flights_search_one_way", map[string]any{"departDate": "2025-06-20"}, map[string]agent.OracleSource{"fromId": src(1, "data[].id"), "toId": src(0, "data[].id")}), poll(2)}, 2.0 / 4},
		{"the wrong date", flights, []agent.OracleStep{
			call("skyscanner80-flights_auto_complete", map[string]any{"query": "New York"}),
			call("skyscanner80-flights_auto_complete", map[string]any{"query": "London"}),
			bound("skyscanner80-flights_search_one_way", map[string]any{"departDate": "2025-06-21"}, ids), poll(2)}, 2.0 / 4},
		{"a detour through another API first", flights, []agent.OracleStep{
			call("skyscanner80-flights_auto_complete", map[string]any{"query": "Paris"}),
			call("skyscanner80-flights_auto_complete", map[string]any{"query": "New York"}),
			call("skyscanner80-flights_auto_complete", map[string]any{"query": "London"}),
			bound("skyscanner80-flights_search_one_way", map[string]any{"departDate": "2025-06-20"}, map[string]agent.OracleSource{"fromId": src(1, "data[].id"), "toId": src(2, "data[].id")}), poll(3)}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runChainInstance(t, tt.in, tt.steps...)
			require.InDelta(t, tt.want, res.Score, 1e-9, "calls %+v\nmissed %v", res.Calls, res.Missed)
			require.Equal(t, tt.want == 1, res.Pass)
			if tt.want < 1 {
				require.NotEmpty(t, res.Missed, "a step not done says why")
			}
		})
	}
}

func TestChainBudgetIsTheSolversBudget(t *testing.T) {
	require.Equal(t, solve.DefaultCallBudget, DefaultCallBudget)
	in := embeddedRecord(t, "IV-001-airport_info.nearby_airports")
	var steps []agent.OracleStep
	for range DefaultCallBudget + 3 {
		steps = append(steps, call("geocoding-forward_geocode", map[string]any{"address": "Lisbon"}))
	}
	res := runChainInstance(t, in, steps...)
	executed := 0
	for _, c := range res.Calls {
		if c.ErrorKind != agent.ErrBudget {
			executed++
		}
	}
	require.Equal(t, DefaultCallBudget, executed)
	require.Contains(t, res.Detail, "budget")
	require.Equal(t, OutcomeNoProgress, res.Outcome)
}

func TestChainRefusesToolsNotOffered(t *testing.T) {
	in := embeddedRecord(t, "IV-001-airport_info.nearby_airports")
	res := runChainInstance(t, in, call("currency_exchange-exchange", map[string]any{"from": "USD", "to": "EUR"}))
	require.Len(t, res.Calls, 1)
	require.Equal(t, agent.ErrUnknownFunction, res.Calls[0].ErrorKind)
	require.Zero(t, res.Calls[0].Status)
}

func TestChainModelErrorIsAnAgentError(t *testing.T) {
	in := embeddedRecord(t, "IV-001-airport_info.nearby_airports")
	ev := newEvaluator(testStack(t), 0, nil)
	boom := &agent.CallError{Kind: agent.ErrTransport, Message: "model server down"}
	failing := funcAgent(func(context.Context, []agent.Message, []toolset.OpenAITool) (agent.Reply, error) {
		return agent.Reply{}, boom
	})
	res, err := ev.runInstance(context.Background(), failing, Instance{Task: TaskChain, In: &in})
	require.NoError(t, err)
	require.Equal(t, ErrorAgent, res.ErrorKind)
	require.Equal(t, OutcomeError, res.Outcome)
	require.False(t, res.Pass)
}

func TestChainEndsWithFinish(t *testing.T) {
	in := embeddedRecord(t, "IV-001-airport_info.nearby_airports")
	ev := newEvaluator(testStack(t), 0, nil)
	finishing := funcAgent(func(ctx context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
		r, err := agent.Oracle{}.Respond(ctx, msgs, tools)
		if err != nil || len(r.ToolCalls) > 0 {
			return r, err
		}
		args, _ := json.Marshal(map[string]string{"return_type": solve.ReturnGiveAnswer, "final_answer": "Porto airport (OPO)."})
		return agent.Reply{ToolCalls: []agent.ToolCall{{ID: "f1", Name: agent.FinishName, Arguments: args}}}, nil
	})
	res, err := ev.runInstance(context.Background(), finishing, Instance{Task: TaskChain, In: &in})
	require.NoError(t, err)
	require.Equal(t, OutcomeComplete, res.Outcome, "%v", res.Missed)
	require.Len(t, res.Calls, 2, "Finish is no tool call")
	require.Equal(t, agent.FinishName, res.Reply.ToolCalls[0].Name)
}
