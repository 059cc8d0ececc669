package deps_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/deps"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
	"github.com/understudy/understudy/toolset/loader"
)

func miniCatalog(t testing.TB) *toolset.Catalog {
	t.Helper()
	c, err := loader.Load([]string{"testdata/tools"}, false)
	require.NoError(t, err)
	return c
}

func TestValues(t *testing.T) {
	var doc any
	require.NoError(t, json.Unmarshal([]byte(`{"data":{"hotels":[{"id":1,"rooms":[{"n":"a"},{"n":"b"}]},{"id":2}],"context":{"sessionId":"s"}},"top":[[1,2],[3]]}`), &doc))
	cases := []struct {
		path string
		want []any
	}{
		{"data.hotels[].id", []any{1.0, 2.0}},
		{"data.hotels[].rooms[].n", []any{"a", "b"}},
		{"data.context.sessionId", []any{"s"}},
		{"data.missing", nil},
		{"top[][]", []any{1.0, 2.0, 3.0}},
		{"", nil},
		{"data..x", nil},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, deps.Values(doc, tc.path), tc.path)
	}
	var arr any
	require.NoError(t, json.Unmarshal([]byte(`[{"countryCode":"PT"},{"countryCode":"GB"}]`), &arr))
	require.Equal(t, []any{"PT", "GB"}, deps.Values(arr, "[].countryCode"))
}

func TestGraphFromAnnotations(t *testing.T) {
	g, err := deps.Build(miniCatalog(t), deps.Options{Annotations: true})
	require.NoError(t, err)
	require.Equal(t, []deps.Pair{
		{From: "mini_flights.flights_auto_complete", To: "mini_flights.flights_search_one_way"},
		{From: "mini_flights.flights_search_one_way", To: "mini_flights.flights_search_incomplete"},
	}, g.Pairs())
	require.Len(t, g.Into("mini_flights.flights_search_one_way"), 2)
	for _, e := range g.Edges() {
		require.True(t, e.Opaque)
		require.Equal(t, "annotation", e.Origin)
	}

	var js, dot bytes.Buffer
	require.NoError(t, g.WriteJSON(&js))
	require.NoError(t, g.WriteDOT(&dot))
	checkGolden(t, "graph.json", js.Bytes())
	checkGolden(t, "graph.dot", dot.Bytes())
}

func TestUnknownAnnotationTarget(t *testing.T) {
	c := miniCatalog(t)
	c.API("mini_flights", "airport_info").Params[0].Depends = []toolset.Dependency{{API: "no_such_api", Path: "x"}}
	_, err := deps.Build(c, deps.Options{Annotations: true})
	require.ErrorContains(t, err, "no_such_api")
}

func TestInferRecoversAppendixA(t *testing.T) {
	c := miniCatalog(t)
	annotated, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	inferred := deps.Infer(c)
	type triple struct{ from, to, param, path string }
	var want, got []triple
	for _, e := range annotated.Edges() {
		want = append(want, triple{e.From, e.To, e.Param, e.Path})
	}
	for _, e := range inferred {
		got = append(got, triple{e.From, e.To, e.Param, e.Path})
		require.NotEmpty(t, e.Evidence)
		require.GreaterOrEqual(t, e.Confidence, 0.9, "%+v", e)
	}
	require.ElementsMatch(t, want, got)
}

func TestInferFromNamesAndPaths(t *testing.T) {
	tool := &toolset.Tool{Name: "homes", Category: "Data", APIs: []*toolset.API{
		{Name: "properties_list", Method: "GET", Path: "/properties/list", ExampleResponse: json.RawMessage(`{"listings":[{"listing_id":"L1","price":3}]}`)},
		{Name: "properties_detail", Method: "GET", Path: "/properties/detail", Params: []*toolset.Param{
			{Name: "listing_id", Kind: toolset.KindString, Required: true, Description: "The value of listing_id field returned in .../properties/list endpoint"},
		}, ExampleResponse: json.RawMessage(`{"listing_id":"L1","rooms":3}`)},
		{Name: "properties_photos", Method: "GET", Path: "/properties/photos", Params: []*toolset.Param{
			{Name: "listing_id", Kind: toolset.KindString, Required: true, Description: "Listing"},
		}},
		{Name: "agents_reviews", Method: "GET", Path: "/agents/reviews", Params: []*toolset.Param{
			{Name: "city", Kind: toolset.KindString, Required: true, Description: "A city name"},
		}},
	}}
	c, err := toolset.NewCatalog([]*toolset.Tool{tool})
	require.NoError(t, err)
	edges := deps.Infer(c)
	require.Len(t, edges, 2, "%+v", edges)
	byTo := map[string]deps.Edge{}
	for _, e := range edges {
		byTo[e.To] = e
	}
	detail := byTo["homes.properties_detail"]
	require.Equal(t, "homes.properties_list", detail.From)
	require.Equal(t, "listings[].listing_id", detail.Path)
	require.GreaterOrEqual(t, detail.Confidence, 0.9)
	photos := byTo["homes.properties_photos"]
	require.Equal(t, "homes.properties_list", photos.From, "the details API echoes listing_id but takes it, so it is not a source")
	require.Less(t, photos.Confidence, 0.9)
}

func TestChainWithPolling(t *testing.T) {
	g, err := deps.Build(miniCatalog(t), deps.Options{Annotations: true})
	require.NoError(t, err)
	ch, err := g.ChainFor("mini_flights.flights_search_incomplete")
	require.NoError(t, err)
	got, err := json.Marshal(ch)
	require.NoError(t, err)
	require.JSONEq(t, `{"target":"mini_flights.flights_search_incomplete","steps":[
		{"api":"mini_flights.flights_auto_complete"},
		{"api":"mini_flights.flights_auto_complete"},
		{"api":"mini_flights.flights_search_one_way","bindings":{"fromId":{"step":0,"path":"data[].id"},"toId":{"step":1,"path":"data[].id"}}},
		{"api":"mini_flights.flights_search_incomplete","bindings":{"sessionId":{"step":2,"path":"data.context.sessionId"}},"repeat":true,"until":"data.context.status == complete"}
	]}`, string(got))

	single, err := g.ChainFor("mini_flights.airport_info")
	require.NoError(t, err)
	require.Len(t, single.Steps, 1)
	_, err = g.ChainFor("mini_flights.nope")
	require.Error(t, err)
}

func TestChainCycle(t *testing.T) {
	c := miniCatalog(t)
	ac := c.API("mini_flights", "flights_auto_complete")
	ac.Params[0].Depends = []toolset.Dependency{{API: "flights_search_incomplete", Path: "data.context.sessionId"}}
	g, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	_, err = g.ChainFor("mini_flights.flights_search_incomplete")
	var ce *deps.CycleError
	require.ErrorAs(t, err, &ce)
	require.Contains(t, err.Error(), "mini_flights.flights_auto_complete")
}

func TestTrackerKinds(t *testing.T) {
	c := miniCatalog(t)
	g, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	oneWay := c.API("mini_flights", "flights_search_one_way")
	auto := c.API("mini_flights", "flights_auto_complete")
	airport := c.API("mini_flights", "airport_info")
	args := map[string]any{"fromId": "A", "toId": "B", "departDate": "2025-06-20"}

	for _, pol := range []deps.Policy{deps.Enforce, deps.Warn} {
		tr := deps.NewTracker(g, deps.TrackerOptions{Policy: func(*toolset.Tool) deps.Policy { return pol }})
		chk := tr.Check("s", oneWay, args)
		require.Len(t, chk.Violations, 2)
		require.Equal(t, "before_dependency", chk.Violations[0].Kind)
		require.Equal(t, pol == deps.Enforce, chk.Reject != nil)

		tr.Observe("s", 1, auto, nil, json.RawMessage(`{"data":[{"id":"A"},{"id":"C"}]}`))
		tr.Observe("s", 2, airport, nil, json.RawMessage(`{"iata":"B"}`))
		chk = tr.Check("s", oneWay, args)
		require.Equal(t, map[string]int{"fromId": 1}, chk.Provided)
		require.Len(t, chk.Violations, 1)
		require.Equal(t, "toId", chk.Violations[0].Param)
		require.Equal(t, "wrong_source", chk.Violations[0].Kind)

		chk = tr.Check("s", oneWay, map[string]any{"fromId": "A", "toId": "Z", "departDate": "2025-06-20"})
		require.Equal(t, "fabricated", chk.Violations[0].Kind)
		if pol == deps.Enforce {
			require.Equal(t, 400, chk.Reject.Status)
			require.Equal(t, "Invalid toId", chk.Reject.Body.(map[string]any)["message"])
		}
		// Sessions are separate.
		require.Equal(t, "before_dependency", tr.Check("other", oneWay, args).Violations[0].Kind)
		tr.Forget("s")
		require.Equal(t, "before_dependency", tr.Check("s", oneWay, args).Violations[0].Kind)
	}
	off := deps.NewTracker(g, deps.TrackerOptions{Policy: func(*toolset.Tool) deps.Policy { return deps.Off }})
	require.Empty(t, off.Check("s", oneWay, args).Violations)
}

// scripted answers calls from canned responses, counting them.
type scripted struct {
	responses map[string][]string
	calls     map[string]int
}

func (s *scripted) Call(_ context.Context, req sandbox.Request) (*sandbox.Result, error) {
	n := s.calls[req.API]
	s.calls[req.API]++
	rs := s.responses[req.API]
	return &sandbox.Result{Status: 200, Response: json.RawMessage(rs[min(n, len(rs)-1)])}, nil
}

func TestRunChainPollsUntilComplete(t *testing.T) {
	g, err := deps.Build(miniCatalog(t), deps.Options{Annotations: true})
	require.NoError(t, err)
	ch, err := g.ChainFor("mini_flights.flights_search_incomplete")
	require.NoError(t, err)
	c := &scripted{calls: map[string]int{}, responses: map[string][]string{
		"flights_auto_complete":     {`{"data":[{"id":"X"}]}`},
		"flights_search_one_way":    {`{"data":{"context":{"status":"incomplete","sessionId":"S9"}}}`},
		"flights_search_incomplete": {`{"data":{"context":{"status":"incomplete"}}}`, `{"data":{"context":{"status":"incomplete"}}}`, `{"data":{"context":{"status":"complete"}}}`},
	}}
	steps, err := g.Run(context.Background(), c, ch, "s", func(_ int, a *toolset.API) map[string]any {
		if a.Name == "flights_auto_complete" {
			return map[string]any{"query": "London"}
		}
		if a.Name == "flights_search_one_way" {
			return map[string]any{"departDate": "2025-06-20"}
		}
		return nil
	})
	require.NoError(t, err)
	require.Len(t, steps, 4)
	require.Equal(t, "X", steps[2].Arguments["fromId"])
	require.Equal(t, "X", steps[2].Arguments["toId"])
	require.Equal(t, "S9", steps[3].Arguments["sessionId"])
	require.Equal(t, 3, steps[3].Calls)

	c = &scripted{calls: map[string]int{}, responses: map[string][]string{"flights_auto_complete": {`{"data":[]}`}}}
	_, err = g.Run(context.Background(), c, ch, "s", nil)
	var ee *deps.ExecError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 2, ee.Step)
	require.Contains(t, err.Error(), "data[].id")
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// TestLargeIntegerIDs: an ID above 2^53 emitted as a JSON number is
// tracked by its digits, so the ID itself is provided (as a string or as
// an exact number) and its float64 neighbour is not; a chain hands the
// exact ID to the next step.
func TestLargeIntegerIDs(t *testing.T) {
	c := miniCatalog(t)
	g, err := deps.Build(c, deps.Options{Annotations: true})
	require.NoError(t, err)
	oneWay := c.API("mini_flights", "flights_search_one_way")
	auto := c.API("mini_flights", "flights_auto_complete")
	tr := deps.NewTracker(g, deps.TrackerOptions{Policy: func(*toolset.Tool) deps.Policy { return deps.Enforce }})
	tr.Observe("s", 1, auto, nil, json.RawMessage(`{"data":[{"id":9007199254740993},{"id":7}]}`))
	for _, tc := range []struct {
		name     string
		id       any
		provided bool
	}{
		{"the ID as a string", "9007199254740993", true},
		{"the ID as an exact number", json.Number("9007199254740993"), true},
		{"a small ID as a number", 7.0, true},
		{"the float64 neighbour", "9007199254740992", false},
		{"the neighbour as a number", 9007199254740992.0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chk := tr.Check("s", oneWay, map[string]any{"fromId": tc.id, "toId": tc.id, "departDate": "2025-06-20"})
			if tc.provided {
				require.Equal(t, map[string]int{"fromId": 1, "toId": 1}, chk.Provided)
				require.Empty(t, chk.Violations)
			} else {
				require.Len(t, chk.Violations, 2)
				require.Equal(t, "fabricated", chk.Violations[0].Kind)
			}
		})
	}

	ch, err := g.ChainFor("mini_flights.flights_search_one_way")
	require.NoError(t, err)
	sc := &scripted{calls: map[string]int{}, responses: map[string][]string{
		"flights_auto_complete":  {`{"data":[{"id":9007199254740993}]}`},
		"flights_search_one_way": {`{"data":{"context":{"status":"complete"}}}`},
	}}
	steps, err := g.Run(context.Background(), sc, ch, "s", func(_ int, a *toolset.API) map[string]any {
		if a.Name == "flights_auto_complete" {
			return map[string]any{"query": "London"}
		}
		return map[string]any{"departDate": "2025-06-20"}
	})
	require.NoError(t, err)
	last := steps[len(steps)-1]
	require.Equal(t, json.Number("9007199254740993"), last.Arguments["fromId"], "the next step gets the ID, not its float64")
}
