package selfassist_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/agent/selfassist"
	"github.com/understudy/understudy/internal/golden"
	"github.com/understudy/understudy/toolset/loader"
	"github.com/understudy/understudy/toolset/retrieve"
)

func newSelfAssist(t *testing.T, url string) *selfassist.SelfAssist {
	t.Helper()
	c, err := loader.Load(nil, true)
	require.NoError(t, err)
	cl, err := openai.NewClient(openai.Config{BaseURL: url, Model: "scripted"})
	require.NoError(t, err)
	s := selfassist.New(cl, retrieve.CatalogCorpus(c))
	s.Candidates = 2
	return s
}

// The five stages in order, each request golden: the prompts and what
// each stage reads. The selection's pick comes first in the ranking.
func TestStagesGolden(t *testing.T) {
	srv := agenttest.NewServer(t,
		agenttest.Text("The user wants the current weather of a city."),
		agenttest.Text("An API that returns the current weather (temperature, conditions) for a city or coordinates."),
		agenttest.Text("Returns the realtime weather of a location."),
		agenttest.Text("Returns a forecast."),
		agenttest.Text("I choose [2]."),
	)
	s := newSelfAssist(t, srv.URL())
	tr, err := s.Select(context.Background(), "What is the weather in Paris right now?")
	require.NoError(t, err)
	require.Len(t, tr.Candidates, 2)
	require.Equal(t, []string{tr.Candidates[1]}, tr.Selected)

	var b strings.Builder
	for i, req := range srv.Requests() {
		require.Empty(t, req.Tools, "the stages call no functions")
		b.WriteString("=== request " + string(rune('1'+i)) + "\n")
		for _, m := range req.Messages {
			b.WriteString("--- " + m.Role + "\n" + m.Content + "\n")
		}
	}
	golden.Check(t, "testdata/stages.golden", []byte(b.String()))
	st := s.Stats()
	require.Equal(t, 1, st.Queries)
	require.Equal(t, 5, st.ModelCalls)
}

// A model fault at any stage is an error, never a ranking.
func TestModelFaultFailsClosed(t *testing.T) {
	for _, turn := range []agenttest.Turn{agenttest.Fail(500, "boom"), agenttest.Raw(200, "not json")} {
		srv := agenttest.NewServer(t, agenttest.Text("analysis"), turn)
		s := newSelfAssist(t, srv.URL())
		hs, err := s.RetrieveContext(context.Background(), "weather in Paris", 5)
		require.Error(t, err)
		require.Contains(t, err.Error(), "selfassist: tool description")
		require.Nil(t, hs)
	}
}

// A date line opens every stage's system prompt, as it opens the solvers';
// without one the prompts are the paper's.
func TestDateLineOpensEveryStage(t *testing.T) {
	const line = "Today is Monday 7 December 2026, 09:00 in Lisbon."
	for _, dated := range []bool{false, true} {
		srv := agenttest.NewServer(t,
			agenttest.Text("weather"), agenttest.Text("weather API"),
			agenttest.Text("realtime weather"), agenttest.Text("forecast"), agenttest.Text("I choose [1]."))
		s := newSelfAssist(t, srv.URL())
		if dated {
			s.DateLine = line
		}
		_, err := s.Select(context.Background(), "What is the weather in Paris right now?")
		require.NoError(t, err)
		reqs := srv.Requests()
		require.Len(t, reqs, 5)
		for i, req := range reqs {
			require.Equal(t, "system", req.Messages[0].Role)
			if dated {
				require.True(t, strings.HasPrefix(req.Messages[0].Content, line+"\n\n"), "stage %d", i+1)
				require.Equal(t, 1, strings.Count(req.Messages[0].Content, line), "stage %d", i+1)
			} else {
				require.NotContains(t, req.Messages[0].Content, "Today is", "stage %d", i+1)
			}
		}
	}
}
