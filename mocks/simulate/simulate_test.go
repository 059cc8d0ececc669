package simulate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/cache"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/toolset/loader"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/internal/assemble"
	"github.com/understudy/understudy/internal/server"
	"github.com/understudy/understudy/mocks/simulate"
	"github.com/understudy/understudy/sandbox"
	"github.com/understudy/understudy/toolset"
)

func model(t *testing.T, srv *agenttest.Server) *openai.Client {
	t.Helper()
	c, err := openai.NewClient(openai.Config{BaseURL: srv.URL(), Model: "simulator"})
	require.NoError(t, err)
	return c
}

func build(t *testing.T, dir string, m simulate.Model) *assemble.Stack {
	t.Helper()
	cat, err := loader.Load([]string{filepath.Join("testdata", "toolbench")}, true)
	require.NoError(t, err)
	st, err := assemble.Build(assemble.Config{Catalog: cat, CacheDir: dir, Simulate: m})
	require.NoError(t, err)
	return st
}

type call struct {
	api  string
	args map[string]any
}

var calls = []call{
	{"Search Pets", map[string]any{"species": "cat"}},
	{"Search Pets", map[string]any{"species": "parrot"}},
	{"Pet Details", map[string]any{"pet_id": "c-1"}},
	{"Search Pets", map[string]any{"species": "cat"}}, // asked before: the recording answers
}

func run(t *testing.T, st *assemble.Stack) []string {
	t.Helper()
	var out []string
	for _, c := range calls {
		res, err := st.Engine.Call(context.Background(), sandbox.Request{Tool: "pet_shop", API: c.api, Arguments: c.args, Session: "s"})
		require.NoError(t, err)
		require.Equal(t, 200, res.Status)
		out = append(out, string(res.Response))
	}
	// A built-in tool keeps its hand-written stand-in: the model is not asked.
	res, err := st.Engine.Call(context.Background(), sandbox.Request{Tool: "skyscanner80", API: "flights_auto_complete", Arguments: map[string]any{"query": "Lisbon"}, Session: "s"})
	require.NoError(t, err)
	require.Equal(t, 200, res.Status)
	return out
}

// TestSecondRunAsksNoModel: the first run asks the model once per distinct
// call and records the answers; a second run over the same store answers
// the same bytes without a single model request.
func TestSecondRunAsksNoModel(t *testing.T) {
	dir := t.TempDir()
	srv := agenttest.NewPolicyServer(t, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		user := req.Messages[len(req.Messages)-1].Content
		switch {
		case strings.Contains(user, `"species":"cat"`):
			return agenttest.Text("```json\n{\"error\": \"\", \"response\": {\"data\": [{\"pet_id\": \"c-1\", \"name\": \"Tom\", \"species\": \"cat\"}]}}\n```"), nil
		case strings.Contains(user, `"species":"parrot"`):
			return agenttest.Text(`{"error": "", "response": "{\"data\": [{\"pet_id\": \"b-7\", \"name\": \"Polly\", \"species\": \"parrot\"}]}"}`), nil
		default:
			return agenttest.Text(`{"error": "", "response": {"data": {"pet_id": "c-1", "name": "Someone else", "species": "dog", "vaccinated": true}}}`), nil
		}
	})
	st := build(t, dir, model(t, srv))
	first := run(t, st)
	require.NoError(t, st.Close())
	require.Equal(t, 3, srv.Count(), "one request per distinct call")

	require.JSONEq(t, `{"data":[{"name":"Tom","pet_id":"c-1","species":"cat"}]}`, first[0])
	require.JSONEq(t, `{"data":[{"name":"Polly","pet_id":"b-7","species":"parrot"}]}`, first[1], "a JSON string response is the JSON it holds")
	// The detail agrees with the search of the session (mocks/objects),
	// over the model's answer.
	require.JSONEq(t, `{"data":{"name":"Tom","pet_id":"c-1","species":"cat","vaccinated":true}}`, first[2])
	require.Equal(t, first[0], first[3])

	silent := agenttest.NewServer(t) // any request fails the test
	st2 := build(t, dir, model(t, silent))
	second := run(t, st2)
	require.NoError(t, st2.Close())
	require.Equal(t, first, second, "byte for byte")
	require.Equal(t, 0, silent.Count())

	// The recordings are under the engine's canonical keys: replay mode
	// answers the simulated calls, arguments in any order or spelling.
	st3, err := assemble.Build(assemble.Config{Catalog: st2.Catalog, CacheDir: dir, Mode: sandbox.ModeReplay})
	require.NoError(t, err)
	defer st3.Close()
	res, err := st3.Engine.Call(context.Background(), sandbox.Request{Tool: "pet_shop", API: "search_pets", Arguments: map[string]any{"species": "parrot"}})
	require.NoError(t, err)
	require.Equal(t, sandbox.SourceCache, res.Source)
	require.Equal(t, first[1], string(res.Response))
}

// petShop is a model that answers the calls of run.
func petShop(t *testing.T) *agenttest.Server {
	return agenttest.NewPolicyServer(t, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		user := req.Messages[len(req.Messages)-1].Content
		switch {
		case strings.Contains(user, `"species":"cat"`):
			return agenttest.Text(`{"error": "", "response": {"data": [{"pet_id": "c-1", "name": "Tom", "species": "cat"}]}}`), nil
		case strings.Contains(user, `"species":"parrot"`):
			return agenttest.Text(`{"error": "", "response": {"data": [{"pet_id": "b-7", "name": "Polly", "species": "parrot"}]}}`), nil
		case strings.Contains(user, `"species":"`):
			return agenttest.Text(`{"error": "", "response": {"data": []}}`), nil
		default:
			return agenttest.Text(`{"error": "", "response": {"data": {"pet_id": "c-1", "name": "Tom", "species": "cat", "vaccinated": true}}}`), nil
		}
	})
}

// TestReplicasShareSimulatedAnswers: replicas on one Redis record the
// simulator's answers where the engine records its own, so that a second
// replica answers the same bytes without asking the model, and
// concurrent misses of one call across replicas ask it once.
func TestReplicasShareSimulatedAnswers(t *testing.T) {
	m := miniredis.RunT(t)
	cat, err := loader.Load([]string{filepath.Join("testdata", "toolbench")}, true)
	require.NoError(t, err)
	replica := func(mdl simulate.Model) *assemble.Stack {
		st, err := assemble.Build(assemble.Config{Catalog: cat, Simulate: mdl, Redis: "redis://" + m.Addr() + "/0"})
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, st.Close()) })
		return st
	}
	srv := petShop(t)
	first := run(t, replica(model(t, srv)))
	require.Equal(t, 3, srv.Count(), "one request per distinct call")
	key := cache.KeyOf("pet_shop", "Search Pets", map[string]any{"species": "cat"})
	require.True(t, m.Exists("understudy:rec:"+key.Hash()), "recorded in Redis under the canonical key")

	silent := agenttest.NewServer(t) // any request fails the test
	second := run(t, replica(model(t, silent)))
	require.Equal(t, first, second, "byte for byte")
	require.Equal(t, 0, silent.Count())

	// The recording keeps its source: the answer was simulated.
	other := replica(model(t, silent))
	e, ok, err := other.Shared.Store.GetContext(context.Background(), key)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, simulate.Source, e.Source)

	// Concurrent identical misses, half on each of two replicas.
	srv2 := petShop(t)
	a, b := replica(model(t, srv2)), replica(model(t, srv2))
	const n = 16
	out := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		st := a
		if i%2 == 1 {
			st = b
		}
		wg.Go(func() {
			res, err := st.Engine.Call(context.Background(), sandbox.Request{Tool: "pet_shop", API: "Search Pets", Arguments: map[string]any{"species": "hamster"}, Session: fmt.Sprint(i)})
			if assert.NoError(t, err) {
				out[i] = string(res.Response)
			}
		})
	}
	bounded.Wait(t, &wg, "the replicas' calls")
	require.Equal(t, 1, srv2.Count(), "one model request for all the replicas")
	for _, o := range out {
		require.Equal(t, out[0], o)
	}

	// Redis gone: the call fails as unavailable (503), not answered by
	// the faker with what no other replica would answer.
	m.Close()
	_, err = a.Engine.Call(context.Background(), sandbox.Request{Tool: "pet_shop", API: "Search Pets", Arguments: map[string]any{"species": "dog"}})
	require.Equal(t, sandbox.KindUnavailable, sandbox.KindOf(err), "%v", err)
	require.Equal(t, 1, srv2.Count())
}

// TestReplayAnswersAsFakeModeDid: a session replayed over the recordings
// the simulator made in fake mode gets the same bytes call by call. A
// detail the model answered after the session's search is recorded as
// the session got it (agreeing with the search); a detail recorded before
// any search is what the API answered, and both modes answer it as
// recorded.
func TestReplayAnswersAsFakeModeDid(t *testing.T) {
	dir := t.TempDir()
	srv := agenttest.NewPolicyServer(t, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		user := req.Messages[len(req.Messages)-1].Content
		switch {
		case strings.Contains(user, `"species":"cat"`):
			return agenttest.Text(`{"error": "", "response": {"data": [{"pet_id": "c-1", "name": "Tom", "species": "cat"}]}}`), nil
		case strings.Contains(user, `"species":"dog"`):
			return agenttest.Text(`{"error": "", "response": {"data": [{"pet_id": "d-9", "name": "Rex", "species": "dog"}]}}`), nil
		default: // a detail that contradicts every search
			return agenttest.Text(`{"error": "", "response": {"data": {"pet_id": "?", "name": "Someone else", "species": "fish", "vaccinated": true}}}`), nil
		}
	})
	session := []call{
		{"Pet Details", map[string]any{"pet_id": "d-9"}}, // before its search
		{"Search Pets", map[string]any{"species": "cat"}},
		{"Pet Details", map[string]any{"pet_id": "c-1"}}, // after its search
		{"Search Pets", map[string]any{"species": "dog"}},
		{"Pet Details", map[string]any{"pet_id": "d-9"}},
		{"Pet Details", map[string]any{"pet_id": "c-1"}},
	}
	play := func(st *assemble.Stack, id string) []string {
		var out []string
		for _, c := range session {
			res, err := st.Engine.Call(context.Background(), sandbox.Request{Tool: "pet_shop", API: c.api, Arguments: c.args, Session: id})
			require.NoError(t, err)
			require.Equal(t, 200, res.Status)
			out = append(out, string(res.Response))
		}
		return out
	}
	st := build(t, dir, model(t, srv))
	fake := play(st, "s")
	require.NoError(t, st.Close())
	require.Equal(t, 4, srv.Count())
	require.JSONEq(t, `{"data":{"name":"Tom","pet_id":"c-1","species":"cat","vaccinated":true}}`, fake[2], "the detail agrees with the search")
	require.Equal(t, fake[2], fake[5])
	require.JSONEq(t, `{"data":{"name":"Someone else","pet_id":"?","species":"fish","vaccinated":true}}`, fake[0])
	require.Equal(t, fake[0], fake[4], "a recorded answer is served as recorded")

	for _, mode := range []sandbox.Mode{sandbox.ModeReplay, sandbox.ModeFake} {
		t.Run(string(mode), func(t *testing.T) {
			silent := agenttest.NewServer(t)
			st, err := assemble.Build(assemble.Config{Catalog: st.Catalog, CacheDir: dir, Mode: mode, Simulate: model(t, silent)})
			require.NoError(t, err)
			defer st.Close()
			require.Equal(t, fake, play(st, "again"), "byte for byte")
			require.Equal(t, 0, silent.Count())
		})
	}
}

// TestPromptAndRetries: the request holds the API's documentation,
// example and call; replies that are not JSON are asked again, and a
// model that never answers JSON leaves the call to the faker, unrecorded.
func TestPromptAndRetries(t *testing.T) {
	srv := agenttest.NewServer(t,
		agenttest.Text("Sure! Here is the answer."),
		agenttest.Text(`{"error": "", "response": {"data": []}}`),
		agenttest.Text("no"), agenttest.Text("still no"), agenttest.Text(`{"error": "cannot", "response": ""}`),
		agenttest.Text(`{"data": [{"pet_id": "x"}]}`),
	)
	st := build(t, t.TempDir(), model(t, srv))
	defer st.Close()
	get := func(species string) string {
		res, err := st.Engine.Call(context.Background(), sandbox.Request{Tool: "pet_shop", API: "Search Pets", Arguments: map[string]any{"species": species}})
		require.NoError(t, err)
		return string(res.Response)
	}
	require.JSONEq(t, `{"data":[]}`, get("cat"))
	prompt := srv.Requests()[0].Messages
	require.Equal(t, "system", prompt[0].Role)
	user := prompt[1].Content
	for _, want := range []string{`"tool":"Pet Shop"`, `"api":"Search Pets"`, `"description":"Pets of a species."`, `"name":"species"`, `API example response: {"data": [{"pet_id": "p-101"`, `API input: {"species":"cat"}`} {
		require.Contains(t, user, want)
	}

	faked := get("dog")
	require.Contains(t, faked, `"species":"dog"`, "the faker's answer")
	require.Equal(t, 5, srv.Count())
	// Not recorded: the next identical call asks the model again.
	require.JSONEq(t, `{"data":[{"pet_id":"x"}]}`, get("dog"))
	require.Equal(t, 6, srv.Count())
}

func TestParseAnswer(t *testing.T) {
	cases := []struct {
		reply, want string
		ok          bool
	}{
		{`{"error": "", "response": {"a": 1}}`, `{"a":1}`, true},
		{"```json\n{\"error\":\"\",\"response\":[1,2]}\n```", `[1,2]`, true},
		{`{"error": "", "response": "{\"a\": [1]}"}`, `{"a":[1]}`, true},
		{`{"error": "", "response": "plain text"}`, `"plain text"`, true},
		{`{"temp": 21}`, `{"temp":21}`, true},
		{`{"error": "", "response": {"big": 12345678901234567890}}`, `{"big":12345678901234567890}`, true},
		{`{"error": "failed", "response": ""}`, ``, false},
		{`{"error": 5, "response": ""}`, ``, false},
		{`Here you go: {"a": 1}`, ``, false},
		{`null`, ``, false},
		{``, ``, false},
	}
	for _, tc := range cases {
		got, ok := simulate.ParseAnswer(tc.reply)
		require.Equal(t, tc.ok, ok, tc.reply)
		if ok {
			require.Equal(t, tc.want, string(got), tc.reply)
		}
	}
}

func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{`{"error":"","response":{"a":1}}`, "```json\n[1]\n```", `{"error":"","response":"{\"x\":1}"}`, `nope`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		body, ok := simulate.ParseAnswer(reply)
		if !ok {
			return
		}
		require.True(t, json.Valid(body), "%q", body)
		again, ok := simulate.ParseAnswer(string(body))
		if ok && !strings.HasPrefix(string(body), `{"error"`) {
			require.Equal(t, string(body), string(again), "an answer parses as itself")
		}
	})
}

// TestStoppedModelIsNotSilent: with the model's server stopped, the faker
// answers (unrecorded), and the fallback is logged and counted in
// GET /metrics by tool and API. (It once fell back without a word.)
func TestStoppedModelIsNotSilent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	stopped := "http://" + ln.Addr().String() + "/v1"
	require.NoError(t, ln.Close())
	m, err := openai.NewClient(openai.Config{BaseURL: stopped, Model: "simulator"})
	require.NoError(t, err)

	var logs syncBuffer
	cat, err := loader.Load([]string{filepath.Join("testdata", "toolbench")}, true)
	require.NoError(t, err)
	st, err := assemble.Build(assemble.Config{Catalog: cat, CacheDir: t.TempDir(), Simulate: m, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	defer st.Close()
	for range 2 {
		res, err := st.Engine.Call(bounded.Context(t), sandbox.Request{Tool: "pet_shop", API: "Search Pets", Arguments: map[string]any{"species": "dog"}})
		require.NoError(t, err)
		require.Contains(t, string(res.Response), `"species":"dog"`, "the faker's answer")
	}
	require.Contains(t, logs.String(), "simulate: the model did not answer")
	require.Contains(t, logs.String(), "pet_shop.Search Pets")
	require.EqualValues(t, 2, st.Simulator.FellBack("pet_shop", "Search Pets"))

	var metrics []server.MetricsWriter
	for _, mw := range st.Metrics() {
		metrics = append(metrics, mw)
	}
	h, err := server.New(st.Engine, server.Options{Metrics: metrics})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), `understudy_simulate_fallbacks_total{tool="pet_shop",api="Search Pets"} 2`)
}

// syncBuffer is a log both the test and the stack's goroutines use.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPromptTemplateNoErrorExample: the model is shown the API's
// template_response, and no error reply as its example.
func TestPromptTemplateNoErrorExample(t *testing.T) {
	tool := &toolset.Tool{Name: "Coins", StandardizedName: "coins", Category: "Finance"}
	api := &toolset.API{Name: "Get Coin", Method: "GET", Tool: tool,
		ExampleResponse:  json.RawMessage(`{"message": "You are not subscribed to this API."}`),
		TemplateResponse: json.RawMessage(`{"symbol": "str", "price": "float"}`)}
	tool.APIs = []*toolset.API{api}
	msgs, err := simulate.Prompt(api, map[string]any{"symbol": "BTC"})
	require.NoError(t, err)
	user := msgs[1].Content
	require.Contains(t, user, "API example response: (none documented)")
	require.NotContains(t, user, "subscribed")
	require.Contains(t, user, `API response template (the answer's shape, with each value's type): {"symbol": "str", "price": "float"}`)
	require.Contains(t, user, `API input: {"symbol":"BTC"}`)

	api.ExampleResponse = json.RawMessage(`{"symbol": "ETH", "price": 3120.5}`)
	msgs, err = simulate.Prompt(api, map[string]any{"symbol": "BTC"})
	require.NoError(t, err)
	require.Contains(t, msgs[1].Content, `API example response: {"symbol": "ETH", "price": 3120.5}`)
}
