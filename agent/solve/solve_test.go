package solve_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/agent/solve"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

// sandboxStack builds the whole sandbox once for the package's tests.
var sandboxStack = sync.OnceValues(func() (*assemble.Stack, error) {
	return assemble.Build(assemble.Config{})
})

// toolServer is a real tool server over a fresh engine (fresh sessions).
type toolServer struct {
	URL   string
	Stack *assemble.Stack
}

func newToolServer(t *testing.T) *toolServer {
	t.Helper()
	st, err := assemble.Build(assemble.Config{Catalog: mustStack(t).Catalog})
	require.NoError(t, err)
	h, err := server.New(st.Engine, server.Options{Deps: st.Graph})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &toolServer{URL: srv.URL, Stack: st}
}

func mustStack(t testing.TB) *assemble.Stack {
	t.Helper()
	st, err := sandboxStack()
	require.NoError(t, err)
	return st
}

// sessionTrace reads GET /v1/sessions/{id}.
func (s *toolServer) sessionTrace(t *testing.T, id string) sandbox.SessionTrace {
	t.Helper()
	resp, err := bounded.Client.Get(s.URL + "/v1/sessions/" + id)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var tr sandbox.SessionTrace
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&tr))
	return tr
}

// toolsOf exports the APIs of one tool, in the dotted naming.
func toolsOf(c *toolset.Catalog, tool string) []toolset.OpenAITool {
	var out []toolset.OpenAITool
	for _, t := range toolset.OpenAITools(c, toolset.ExportOptions{}) {
		if strings.HasPrefix(t.Function.Name, tool+"-") {
			out = append(out, t)
		}
	}
	return out
}

const (
	fnAuto       = "skyscanner80-flights_auto_complete"
	fnOneWay     = "skyscanner80-flights_search_one_way"
	fnIncomplete = "skyscanner80-flights_search_incomplete"
)

// observation is a tool result as the solvers show it to the model.
type observation struct {
	Error    string          `json:"error"`
	Response json.RawMessage `json:"response"`
}

// toolResults reads the tool results of a request, oldest first.
func toolResults(req agenttest.ChatRequest) ([]observation, error) {
	var out []observation
	for _, m := range req.Messages {
		if m.Role != agent.RoleTool {
			continue
		}
		var o observation
		if err := json.Unmarshal([]byte(m.Content), &o); err != nil {
			return nil, fmt.Errorf("tool result is not {error, response}: %v: %s", err, m.Content)
		}
		out = append(out, o)
	}
	return out, nil
}

// field reads a dotted path ("data.0.id") from a response.
func field(raw json.RawMessage, path string) (any, error) {
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	for _, k := range strings.Split(path, ".") {
		switch x := doc.(type) {
		case map[string]any:
			doc = x[k]
		case []any:
			var i int
			if _, err := fmt.Sscan(k, &i); err != nil || i >= len(x) {
				return nil, fmt.Errorf("no element %s", k)
			}
			doc = x[i]
		default:
			return nil, fmt.Errorf("no %s in %s", path, raw)
		}
	}
	if doc == nil {
		return nil, fmt.Errorf("no %s in %s", path, raw)
	}
	return doc, nil
}

func args(v map[string]any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// fromResults is a turn computed from the request's tool results.
func fromResults(f func(obs []observation) (agenttest.Turn, error)) agenttest.Turn {
	return agenttest.Turn{Reply: func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		obs, err := toolResults(req)
		if err != nil {
			return agenttest.Turn{}, err
		}
		return f(obs)
	}}
}

func finish(returnType, answer string) agenttest.Turn {
	return agenttest.Tool(agent.FinishName, args(map[string]any{"return_type": returnType, "final_answer": answer}))
}

// flightPolls is how many flights_search_incomplete calls the Lisbon →
// London search of 2025-06-20 needs before it is complete.
const flightPolls = 2

// flightChain scripts a model that books nothing but finds a flight:
// two auto-completes, a one-way search with the ids they returned, polls
// until complete, and an answer.
func flightChain(t *testing.T) []agenttest.Turn {
	turns := []agenttest.Turn{
		{Calls: []agenttest.Call{{Name: fnAuto, Arguments: `{"query":"Lisbon"}`}}, Check: func(req agenttest.ChatRequest) error {
			var names []string
			for _, tl := range req.Tools {
				names = append(names, tl.Function.Name)
			}
			if !contains(names, agent.FinishName) || !contains(names, fnOneWay) {
				return fmt.Errorf("tools %v lack Finish or the search", names)
			}
			if req.Messages[0].Role != agent.RoleSystem || !strings.Contains(req.Messages[0].Content, "give_up_and_restart") {
				return errors.New("no solver system prompt")
			}
			return nil
		}},
		agenttest.Tool(fnAuto, `{"query":"London"}`),
		fromResults(func(obs []observation) (agenttest.Turn, error) {
			from, err := field(obs[0].Response, "data.0.id")
			if err != nil {
				return agenttest.Turn{}, err
			}
			to, err := field(obs[1].Response, "data.0.id")
			if err != nil {
				return agenttest.Turn{}, err
			}
			return agenttest.Tool(fnOneWay, args(map[string]any{"fromId": from, "toId": to, "departDate": "2025-06-20"})), nil
		}),
	}
	for i := 0; i < flightPolls; i++ {
		turns = append(turns, fromResults(func(obs []observation) (agenttest.Turn, error) {
			last := obs[len(obs)-1]
			if st, _ := field(last.Response, "data.context.status"); st != "incomplete" {
				return agenttest.Turn{}, fmt.Errorf("poll %d: status %v, want incomplete", i+1, st)
			}
			sid, err := field(obs[2].Response, "data.context.sessionId")
			if err != nil {
				return agenttest.Turn{}, err
			}
			return agenttest.Tool(fnIncomplete, args(map[string]any{"sessionId": sid})), nil
		}))
	}
	return append(turns, fromResults(func(obs []observation) (agenttest.Turn, error) {
		last := obs[len(obs)-1]
		if st, _ := field(last.Response, "data.context.status"); st != "complete" {
			return agenttest.Turn{}, fmt.Errorf("status %v, want complete", st)
		}
		price, err := field(last.Response, "data.itineraries.0.price.formatted")
		if err != nil {
			return agenttest.Turn{}, err
		}
		return finish(solve.ReturnGiveAnswer, fmt.Sprintf("The best flight from Lisbon to London on 20 June costs %v.", price)), nil
	}))
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestSolversRunTheFlightChain(t *testing.T) {
	for _, solverName := range []string{"react", "dfsdt"} {
		for _, via := range []string{"http", "engine"} {
			t.Run(solverName+"/"+via, func(t *testing.T) {
				ts := newToolServer(t)
				model := agenttest.NewServer(t, flightChain(t)...)
				client, _ := newClient(t, model.URL(), nil)
				var exec agent.Executor = &agent.HTTPExecutor{BaseURL: ts.URL}
				if via == "engine" {
					exec = &agent.EngineExecutor{Engine: ts.Stack.Engine}
				}
				var s solve.Solver = &solve.ReAct{Agent: client, Executor: exec}
				if solverName == "dfsdt" {
					s = &solve.DFSDT{Agent: client, Executor: exec}
				}
				p := solve.Problem{ID: "flight-1", Query: "Find me the cheapest one-way flight from Lisbon to London on 20 June 2025.", Tools: toolsOf(ts.Stack.Catalog, "skyscanner80")}
				tr, err := s.Solve(context.Background(), p)
				require.NoError(t, err)
				require.Equal(t, solve.OutcomeAnswer, tr.Outcome, tr.Error)
				require.Contains(t, tr.Answer, "The best flight from Lisbon to London")
				require.Equal(t, 3+flightPolls, tr.CallsUsed)
				require.Equal(t, solve.DefaultCallBudget, tr.Budget)
				require.Equal(t, 4+flightPolls, tr.ModelTurns)
				require.Equal(t, solverName, tr.Solver)
				require.Len(t, tr.Path, len(tr.Steps), "one branch, every step on it")

				calls := tr.Calls()
				var apis []string
				for _, c := range calls {
					require.True(t, c.OK(), "%s: %s %s", c.Function, c.ErrorKind, c.Error)
					require.True(t, c.Counted)
					apis = append(apis, c.API)
				}
				want := []string{"skyscanner80.flights_auto_complete", "skyscanner80.flights_auto_complete", "skyscanner80.flights_search_one_way"}
				for i := 0; i < flightPolls; i++ {
					want = append(want, "skyscanner80.flights_search_incomplete")
				}
				require.Equal(t, want, apis)

				// The engine saw the chain in the query's session, every value provided.
				sess, ok := ts.Stack.Engine.Session(tr.Session)
				require.True(t, ok)
				require.Len(t, sess.Calls, len(want))
				require.Zero(t, sess.Violations)
				require.Equal(t, map[string]int{"fromId": 1, "toId": 2}, sess.Calls[2].Provided)
				require.Equal(t, map[string]int{"sessionId": 3}, sess.Calls[3].Provided)
			})
		}
	}
}

func TestSolverFabricatedIDIsAToolError(t *testing.T) {
	ts := newToolServer(t)
	const fake = "eyJzIjoiWFhYIiwiZSI6IjEiLCJoIjoiMSJ9"
	model := agenttest.NewServer(t,
		agenttest.Tool(fnAuto, `{"query":"London"}`),
		fromResults(func(obs []observation) (agenttest.Turn, error) {
			to, err := field(obs[0].Response, "data.0.id")
			if err != nil {
				return agenttest.Turn{}, err
			}
			return agenttest.Tool(fnOneWay, args(map[string]any{"fromId": fake, "toId": to, "departDate": "2025-06-20"})), nil
		}),
		fromResults(func(obs []observation) (agenttest.Turn, error) {
			if obs[1].Error == "" || !strings.Contains(string(obs[1].Response), "fromId") {
				return agenttest.Turn{}, fmt.Errorf("the refusal was not fed back: %+v", obs[1])
			}
			return finish(solve.ReturnGiveUp, "the origin id was refused"), nil
		}),
	)
	client, _ := newClient(t, model.URL(), nil)
	s := &solve.ReAct{Agent: client, Executor: &agent.HTTPExecutor{BaseURL: ts.URL}}
	tr, err := s.Solve(context.Background(), solve.Problem{ID: "fab", Query: "Fly me from nowhere to London on 20 June 2025.", Tools: toolsOf(ts.Stack.Catalog, "skyscanner80")})
	require.NoError(t, err)
	require.Equal(t, solve.OutcomeGiveUp, tr.Outcome)
	require.Contains(t, tr.Error, "the origin id was refused")

	calls := tr.Calls()
	require.Len(t, calls, 2)
	bad := calls[1]
	require.Equal(t, agent.ErrAPI, bad.ErrorKind)
	require.Equal(t, http.StatusBadRequest, bad.Status)
	require.True(t, bad.Counted)
	require.Equal(t, 2, tr.CallsUsed)
	require.NotEmpty(t, bad.Violations)
	require.Equal(t, "fromId", bad.Violations[0].Param)
	require.Equal(t, "fabricated", bad.Violations[0].Kind)
	require.Contains(t, bad.Observation, "fromId")
	// The model reads what the real API says, nothing of where the ID
	// should have come from.
	require.NotContains(t, bad.Observation, "flights_auto_complete")
	require.NotContains(t, bad.Observation, "never returned")

	st := ts.sessionTrace(t, tr.Session)
	require.Len(t, st.Calls, 2)
	require.True(t, st.Calls[1].Rejected)
	require.Equal(t, http.StatusBadRequest, st.Calls[1].Status)
	require.GreaterOrEqual(t, st.Violations, 1)
	require.Equal(t, "fabricated", st.Calls[1].Violations[0].Kind)
}

func TestDFSDTRestartsWithTheEarlierAttemptInThePrompt(t *testing.T) {
	ts := newToolServer(t)
	model := agenttest.NewServer(t,
		agenttest.Tool(fnAuto, `{"query":"Lisbn"}`),
		finish(solve.ReturnGiveUp, "the place was not found"),
		agenttest.Turn{Calls: []agenttest.Call{{Name: fnAuto, Arguments: `{"query":"Lisbon"}`}}, Check: func(req agenttest.ChatRequest) error {
			last := req.Messages[len(req.Messages)-1]
			switch {
			case last.Role != agent.RoleUser:
				return fmt.Errorf("last message is %s, want the diversity note", last.Role)
			case !strings.Contains(last.Content, "not the first time"):
				return fmt.Errorf("no restart note: %s", last.Content)
			case !strings.Contains(last.Content, fnAuto) || !strings.Contains(last.Content, "Lisbn"):
				return fmt.Errorf("the earlier attempt is not listed: %s", last.Content)
			}
			for _, m := range req.Messages {
				if m.Role == agent.RoleTool || len(m.ToolCalls) > 0 {
					return errors.New("the abandoned branch's calls are still in the conversation")
				}
			}
			return nil
		}},
		agenttest.Turn{Calls: []agenttest.Call{{Name: agent.FinishName, Arguments: `{"return_type":"give_answer","final_answer":"Lisbon's id found."}`}}, Check: func(req agenttest.ChatRequest) error {
			for _, m := range req.Messages {
				if strings.Contains(m.Content, "not the first time") {
					return errors.New("the diversity note stayed in the branch's history")
				}
			}
			return nil
		}},
	)
	client, _ := newClient(t, model.URL(), nil)
	s := &solve.DFSDT{Agent: client, Executor: &agent.HTTPExecutor{BaseURL: ts.URL}}
	tr, err := s.Solve(context.Background(), solve.Problem{ID: "restart", Query: "Find Lisbon's airport id.", Tools: toolsOf(ts.Stack.Catalog, "skyscanner80")})
	require.NoError(t, err)
	require.Equal(t, solve.OutcomeAnswer, tr.Outcome)
	require.Equal(t, "Lisbon's id found.", tr.Answer)
	require.Equal(t, 1, tr.Restarts)
	require.Equal(t, 2, tr.CallsUsed)
	require.Len(t, tr.Steps, 4)
	require.Equal(t, []int{2, 3}, tr.Path)
	require.Equal(t, -1, tr.Steps[2].Parent)
	require.True(t, tr.Steps[2].Diversified)
	require.Equal(t, solve.ReturnGiveUp, tr.Steps[1].Finish.ReturnType)
	require.Len(t, tr.PathCalls(), 1)
	require.Equal(t, `{"query":"Lisbon"}`, string(tr.PathCalls()[0].Arguments))
	// Both branches ran in the one session of the query.
	require.Len(t, ts.sessionTrace(t, tr.Session).Calls, 2)
}

func TestDFSDTGivesUpWhenEveryBranchIsAbandoned(t *testing.T) {
	ts := newToolServer(t)
	model := agenttest.NewServer(t,
		agenttest.Tool(fnAuto, `{"query":"Atlantis"}`),
		finish(solve.ReturnGiveUp, ""),
		agenttest.Tool(fnAuto, `{"query":"Lemuria"}`),
		finish(solve.ReturnGiveUp, "no such place"),
	)
	client, _ := newClient(t, model.URL(), nil)
	s := &solve.DFSDT{Agent: client, Executor: &agent.EngineExecutor{Engine: ts.Stack.Engine}}
	tr, err := s.Solve(context.Background(), solve.Problem{Query: "Flights to Atlantis?", Tools: toolsOf(ts.Stack.Catalog, "skyscanner80")})
	require.NoError(t, err)
	require.Equal(t, solve.OutcomeGiveUp, tr.Outcome)
	require.Equal(t, 2, tr.Restarts)
	require.Empty(t, tr.Answer)
	require.Contains(t, tr.Error, "no such place")
}

func TestSolverBudget(t *testing.T) {
	ts := newToolServer(t)
	var turns []agenttest.Turn
	for i := 0; i < 4; i++ {
		turns = append(turns, agenttest.Tool(fnAuto, fmt.Sprintf(`{"query":"Lisbon %d"}`, i)))
	}
	for _, s := range []string{"react", "dfsdt"} {
		t.Run(s, func(t *testing.T) {
			model := agenttest.NewServer(t, turns...)
			client, _ := newClient(t, model.URL(), nil)
			exec := &agent.EngineExecutor{Engine: ts.Stack.Engine}
			var sv solve.Solver = &solve.ReAct{Agent: client, Executor: exec, Budget: 3}
			if s == "dfsdt" {
				sv = &solve.DFSDT{Agent: client, Executor: exec, Budget: 3}
			}
			tr, err := sv.Solve(context.Background(), solve.Problem{ID: s, Query: "Look up Lisbon forever.", Tools: toolsOf(ts.Stack.Catalog, "skyscanner80")})
			require.NoError(t, err)
			require.Equal(t, solve.OutcomeBudget, tr.Outcome)
			require.Equal(t, 3, tr.CallsUsed)
			calls := tr.Calls()
			require.Len(t, calls, 4)
			require.False(t, calls[3].Counted)
			require.Equal(t, agent.ErrBudget, calls[3].ErrorKind)
		})
	}
}

// TestSolverFaults runs each fault of the model server and of the model's
// output through both solvers: every one ends in a recorded outcome.
func TestSolverFaults(t *testing.T) {
	ts := newToolServer(t)
	answer := finish(solve.ReturnGiveAnswer, "done")
	tests := []struct {
		name    string
		script  []agenttest.Turn
		mod     func(*openai.Config)
		outcome string
		check   func(t *testing.T, tr *solve.Trace)
	}{
		{
			name:    "timeout",
			script:  []agenttest.Turn{{Hang: true}},
			mod:     func(c *openai.Config) { c.Timeout = 50 * time.Millisecond },
			outcome: solve.OutcomeModelError,
			check: func(t *testing.T, tr *solve.Trace) {
				require.Contains(t, tr.Error, "did not answer within 50ms")
				require.Equal(t, tr.Error, tr.Steps[0].Error)
			},
		},
		{
			name:    "429 with Retry-After, retries spent",
			script:  []agenttest.Turn{{Status: 429, RetryAfter: "7"}, {Status: 429, RetryAfter: "7"}},
			mod:     func(c *openai.Config) { c.MaxRetries = 1 },
			outcome: solve.OutcomeModelError,
			check: func(t *testing.T, tr *solve.Trace) {
				require.Contains(t, tr.Error, "429")
			},
		},
		{
			name:    "429 with Retry-After, then an answer",
			script:  []agenttest.Turn{{Status: 429, RetryAfter: "7"}, answer},
			mod:     func(c *openai.Config) { c.MaxRetries = 1 },
			outcome: solve.OutcomeAnswer,
		},
		{
			name:    "500",
			script:  []agenttest.Turn{agenttest.Fail(500, "model crashed")},
			outcome: solve.OutcomeModelError,
			check: func(t *testing.T, tr *solve.Trace) {
				require.Contains(t, tr.Error, "500")
				require.Contains(t, tr.Error, "model crashed")
			},
		},
		{
			name:    "malformed JSON",
			script:  []agenttest.Turn{agenttest.Raw(200, `{"choices": [`)},
			outcome: solve.OutcomeModelError,
			check: func(t *testing.T, tr *solve.Trace) {
				require.Contains(t, tr.Error, "cannot decode model response")
			},
		},
		{
			name:    "truncated stream",
			script:  []agenttest.Turn{{Content: "a long answer that is cut", Truncate: true}},
			outcome: solve.OutcomeModelError,
			check: func(t *testing.T, tr *solve.Trace) {
				require.Contains(t, tr.Error, "truncated")
			},
		},
		{
			name:    "tool arguments that are not JSON",
			script:  []agenttest.Turn{agenttest.Tool(fnAuto, `{"query": Lisbon`), answer},
			outcome: solve.OutcomeAnswer,
			check: func(t *testing.T, tr *solve.Trace) {
				c := tr.Calls()[0]
				require.Equal(t, agent.ErrInvalidArguments, c.ErrorKind)
				require.True(t, c.Counted)
				require.Equal(t, `{"query": Lisbon`, c.RawArguments)
				require.Contains(t, c.Observation, "not valid JSON")
			},
		},
		{
			name:    "arguments the API rejects",
			script:  []agenttest.Turn{agenttest.Tool(fnAuto, `{"place":"Lisbon"}`), answer},
			outcome: solve.OutcomeAnswer,
			check: func(t *testing.T, tr *solve.Trace) {
				c := tr.Calls()[0]
				require.Equal(t, agent.ErrInvalidArguments, c.ErrorKind)
				require.Contains(t, c.Observation, "query")
			},
		},
		{
			name:    "invented tool name",
			script:  []agenttest.Turn{agenttest.Tool("skyscanner80-book_flight", `{"to":"London"}`), answer},
			outcome: solve.OutcomeAnswer,
			check: func(t *testing.T, tr *solve.Trace) {
				c := tr.Calls()[0]
				require.Equal(t, agent.ErrUnknownFunction, c.ErrorKind)
				require.True(t, c.Counted)
				require.Equal(t, 1, tr.CallsUsed)
				require.Contains(t, c.Observation, "book_flight")
			},
		},
		{
			name:    "a bad Finish, then a good one",
			script:  []agenttest.Turn{finish("maybe", ""), answer},
			outcome: solve.OutcomeAnswer,
			check: func(t *testing.T, tr *solve.Trace) {
				require.Contains(t, tr.Steps[0].Feedback, `return_type "maybe"`)
			},
		},
		{
			name:    "plain text is the answer",
			script:  []agenttest.Turn{agenttest.Text("It is sunny.")},
			outcome: solve.OutcomeAnswer,
			check: func(t *testing.T, tr *solve.Trace) {
				require.Equal(t, "It is sunny.", tr.Answer)
			},
		},
	}
	for _, tc := range tests {
		for _, solver := range []string{"react", "dfsdt"} {
			for _, via := range []string{"http", "engine"} {
				t.Run(tc.name+"/"+solver+"/"+via, func(t *testing.T) {
					model := agenttest.NewServer(t, tc.script...)
					client, _ := newClient(t, model.URL(), tc.mod)
					var exec agent.Executor = &agent.HTTPExecutor{BaseURL: ts.URL}
					if via == "engine" {
						exec = &agent.EngineExecutor{Engine: ts.Stack.Engine}
					}
					var s solve.Solver = &solve.ReAct{Agent: client, Executor: exec}
					if solver == "dfsdt" {
						s = &solve.DFSDT{Agent: client, Executor: exec}
					}
					tr, err := s.Solve(context.Background(), solve.Problem{ID: tc.name, Query: "Flights from Lisbon?", Tools: toolsOf(ts.Stack.Catalog, "skyscanner80")})
					require.NoError(t, err)
					require.Equal(t, tc.outcome, tr.Outcome, tr.Error)
					if tc.check != nil {
						tc.check(t, tr)
					}
					// The trace is a complete JSON record.
					_, err = json.Marshal(tr)
					require.NoError(t, err)
				})
			}
		}
	}
}

func TestSolverCancelled(t *testing.T) {
	ts := newToolServer(t)
	model := agenttest.NewServer(t, agenttest.Turn{Hang: true})
	client, _ := newClient(t, model.URL(), nil)
	// Cancelled once the model has the request, however slow the machine:
	// a deadline could pass before the request was even sent.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for model.Count() == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	s := &solve.ReAct{Agent: client, Executor: &agent.EngineExecutor{Engine: ts.Stack.Engine}}
	tr, err := s.Solve(ctx, solve.Problem{Query: "Anything."})
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, solve.OutcomeCancelled, tr.Outcome)
}

func TestSolverRejectsBadProblems(t *testing.T) {
	for _, p := range []solve.Problem{
		{Query: "  "},
		{Query: "q", Tools: []toolset.OpenAITool{{Type: "function"}}},
		{Query: "q", Tools: []toolset.OpenAITool{solve.FinishTool()}},
	} {
		for _, s := range []solve.Solver{&solve.ReAct{}, &solve.DFSDT{}} {
			tr, err := s.Solve(context.Background(), p)
			var pe *solve.ProblemError
			require.ErrorAs(t, err, &pe)
			require.Equal(t, solve.OutcomeInvalid, tr.Outcome)
		}
	}
}

func TestHTTPExecutorErrors(t *testing.T) {
	ts := newToolServer(t)
	x := &agent.HTTPExecutor{BaseURL: ts.URL}
	ctx := context.Background()
	_, err := x.Execute(ctx, "s", "nosuchtool-nothing", json.RawMessage(`{}`))
	var ce *agent.CallError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, agent.ErrUnknownFunction, ce.Kind)
	require.Equal(t, http.StatusNotFound, ce.Status)

	_, err = x.Execute(ctx, "s", fnAuto, json.RawMessage(`[1]`))
	require.ErrorAs(t, err, &ce)
	require.Equal(t, agent.ErrInvalidArguments, ce.Kind)

	// ToolBench's function names resolve too.
	ex, err := x.Execute(ctx, "s", "flights_auto_complete_for_skyscanner80", json.RawMessage(`{"query":"Porto"}`))
	require.NoError(t, err)
	require.Equal(t, "skyscanner80.flights_auto_complete", ex.API)
	require.Equal(t, http.StatusOK, ex.Status)

	down := &agent.HTTPExecutor{BaseURL: "http://127.0.0.1:1"}
	_, err = down.Execute(ctx, "s", fnAuto, json.RawMessage(`{"query":"Porto"}`))
	require.ErrorAs(t, err, &ce)
	require.Equal(t, agent.ErrTransport, ce.Kind)
}

// newClient is an OpenAI-compatible client of a scripted model server
// that never waits between retries and reads the frozen clock.
func newClient(t *testing.T, baseURL string, mod func(*openai.Config)) (*openai.Client, struct{}) {
	t.Helper()
	cfg := openai.Config{
		BaseURL: baseURL, Model: "test-model", Timeout: 5 * time.Second, JitterSeed: 1, Clock: clock.Frozen(),
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := openai.NewClient(cfg)
	require.NoError(t, err)
	return c, struct{}{}
}
