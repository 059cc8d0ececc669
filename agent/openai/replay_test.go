package openai_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/internal/bounded"
	"github.com/understudy/understudy/toolset"
)

// conversation drives a two-turn tool-use exchange through a and returns the replies.
func conversation(t *testing.T, a agent.Agent, question string) []agent.Reply {
	t.Helper()
	ctx := context.Background()
	msgs := ask(question)
	r1, err := a.Respond(ctx, msgs, weatherTools())
	require.NoError(t, err)
	require.NotEmpty(t, r1.ToolCalls)
	msgs = append(msgs, agent.Message{Role: agent.RoleAssistant, Content: r1.Content, ToolCalls: r1.ToolCalls})
	for _, tc := range r1.ToolCalls {
		msgs = append(msgs, agent.Message{Role: agent.RoleTool, ToolCallID: tc.ID, Name: tc.Name, Content: `{"sky":"clear <&> \u00e9"}`})
	}
	r2, err := a.Respond(ctx, msgs, weatherTools())
	require.NoError(t, err)
	return []agent.Reply{r1, r2}
}

func TestRecordThenReplayIsByteIdentical(t *testing.T) {
	dir := t.TempDir()
	srv := agenttest.NewServer(t,
		agenttest.Turn{
			Content:   "Checking <both> & more.",
			Reasoning: "two cities",
			Calls: []agenttest.Call{
				{Name: "get_weather", Arguments: `{"city": "Paris", "unit": "<c>"}`},
				{Name: "get_weather", Arguments: `{"city": Oslo}`, NoID: true},
			},
		},
		agenttest.Text("Clear in Paris; Oslo failed."),
	)
	client, _ := newClient(t, srv.URL(), nil)
	tr, err := openai.OpenTranscript(dir)
	require.NoError(t, err)
	recorded := conversation(t, openai.NewRecorder(client, tr), "Weather in Paris and Oslo?")
	require.Len(t, srv.Requests(), 2)

	files, err := filepath.Glob(filepath.Join(dir, "*"))
	require.NoError(t, err)
	require.Len(t, files, 2, "one file per request, no temporary files left")
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NotContains(t, string(data), testKey)
		require.NotContains(t, string(data), "Authorization")
	}

	// A fresh process: new transcript handle, a client that is never called
	// (its URL points nowhere) used only to build request keys.
	tr2, err := openai.OpenTranscript(dir)
	require.NoError(t, err)
	builder, _ := newClient(t, "http://127.0.0.1:9/v1", nil)
	replayed := conversation(t, openai.NewReplayer(tr2, builder), "Weather in Paris and Oslo?")

	require.Equal(t, recorded, replayed)
	a, _ := json.Marshal(recorded)
	b, _ := json.Marshal(replayed)
	require.Equal(t, string(a), string(b))
	require.Equal(t, `{"city":"Paris","unit":"<c>"}`, string(replayed[0].ToolCalls[0].Arguments), "raw bytes survive storage")
	require.Equal(t, `{"city": Oslo}`, replayed[0].ToolCalls[1].RawArguments)
}

func TestReplayMissNamesKeyAndDifference(t *testing.T) {
	srv := agenttest.NewServer(t, agenttest.Text("Paris is sunny."))
	client, _ := newClient(t, srv.URL(), nil)
	tr, err := openai.OpenTranscript(t.TempDir())
	require.NoError(t, err)
	_, err = openai.NewRecorder(client, tr).Respond(context.Background(), ask("Weather in Paris?"), weatherTools())
	require.NoError(t, err)

	rp := openai.NewReplayer(tr, client)
	_, err = rp.Respond(context.Background(), ask("Weather in Lyon?"), weatherTools())
	var miss *openai.MissError
	require.ErrorAs(t, err, &miss)
	require.Regexp(t, `^[0-9a-f]{64}$`, miss.Key)
	keys, _ := tr.Keys()
	require.Equal(t, keys, []string{miss.Nearest})
	require.Equal(t, `messages[1].content: recorded "Weather in Paris?", requested "Weather in Lyon?"`, miss.Difference)
	require.ErrorContains(t, err, "no recorded reply for request "+miss.Key+" in "+tr.Dir())

	// A different model changes the key too, and the difference says so.
	other, _ := newClient(t, srv.URL(), func(c *openai.Config) { c.Model = "other-model" })
	_, err = openai.NewReplayer(tr, other).Respond(context.Background(), ask("Weather in Paris?"), weatherTools())
	require.ErrorAs(t, err, &miss)
	require.Equal(t, `model: recorded "test-model", requested "other-model"`, miss.Difference)

	// Fewer tools.
	_, err = rp.Respond(context.Background(), ask("Weather in Paris?"), weatherTools()[:2])
	require.ErrorAs(t, err, &miss)
	require.Equal(t, "tools: recorded 3 items, requested 2", miss.Difference)

	empty, _ := openai.OpenTranscript("")
	_, err = openai.NewReplayer(empty, nil).Respond(context.Background(), ask("x"), nil)
	require.ErrorAs(t, err, &miss)
	require.ErrorContains(t, err, "the transcript is empty")
}

func TestRecorderServesRepeatsFromTranscript(t *testing.T) {
	srv := agenttest.NewServer(t, agenttest.Text("first"))
	client, _ := newClient(t, srv.URL(), nil)
	tr, _ := openai.OpenTranscript("")
	rec := openai.NewRecorder(client, tr)
	var wg sync.WaitGroup
	replies := make([]agent.Reply, 8)
	errs := make([]error, 8)
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i], errs[i] = rec.Respond(context.Background(), ask("same"), nil)
		}()
	}
	bounded.Wait(t, &wg, "8 identical requests")
	for i := range replies {
		require.NoError(t, errs[i])
		require.Equal(t, "first", replies[i].Content)
	}
	require.Len(t, srv.Requests(), 1, "identical requests reach the model once")
}

func TestRecorderOverwriteAndErrors(t *testing.T) {
	srv := agenttest.NewServer(t, agenttest.Text("one"), agenttest.Fail(400, "nope"), agenttest.Text("two"))
	client, _ := newClient(t, srv.URL(), nil)
	tr, _ := openai.OpenTranscript(t.TempDir())
	rec := &openai.Recorder{Agent: client, Transcript: tr, Overwrite: true}
	r, err := rec.Respond(context.Background(), ask("q"), nil)
	require.NoError(t, err)
	require.Equal(t, "one", r.Content)
	_, err = rec.Respond(context.Background(), ask("q"), nil)
	var ae *openai.APIError
	require.ErrorAs(t, err, &ae, "failures pass through and are not recorded")
	r, err = rec.Respond(context.Background(), ask("q"), nil)
	require.NoError(t, err)
	require.Equal(t, "two", r.Content)
	got, err := openai.NewReplayer(tr, client).Respond(context.Background(), ask("q"), nil)
	require.NoError(t, err)
	require.Equal(t, "two", got.Content)
}

// plainAgent is an Agent that cannot build requests.
type plainAgent struct{ calls int }

func (p *plainAgent) Respond(_ context.Context, msgs []agent.Message, _ []toolset.OpenAITool) (agent.Reply, error) {
	p.calls++
	return agent.Reply{Content: "echo: " + msgs[len(msgs)-1].Content}, nil
}

func TestRecordPlainAgent(t *testing.T) {
	tr, _ := openai.OpenTranscript(t.TempDir())
	p := &plainAgent{}
	r, err := openai.NewRecorder(p, tr).Respond(context.Background(), ask("hello"), weatherTools())
	require.NoError(t, err)
	got, err := openai.NewReplayer(tr, nil).Respond(context.Background(), ask("hello"), weatherTools())
	require.NoError(t, err)
	require.Equal(t, r, got)
	require.Equal(t, 1, p.calls)
}
