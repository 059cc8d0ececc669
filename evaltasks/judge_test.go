package evaltasks

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/toolset"
)

// scriptedJudge answers every judging prompt with the next verdict text, in turn.
type scriptedJudge struct {
	mu      sync.Mutex
	answers []string
	n       int
	prompts []string
}

func (s *scriptedJudge) Respond(_ context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(tools) != 0 || len(msgs) != 2 || msgs[0].Content != JudgeSystem {
		panic("the judge gets a system and a user message and no tools")
	}
	a := s.answers[s.n%len(s.answers)]
	s.n++
	s.prompts = append(s.prompts, msgs[1].Content)
	return agent.Reply{Content: a}, nil
}

func TestJudgeOverridesRulesByMajority(t *testing.T) {
	// Votes cycle fail, pass, fail: every instance fails 2 to 1.
	model := &scriptedJudge{answers: []string{"Wrong.\nVERDICT: FAIL", "VERDICT: PASS", "Hmm, FAIL"}}
	j := &Judge{Model: model, Name: "judge:test", Votes: 2}
	rep := runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.Judge = j })
	for _, tr := range rep.Tasks {
		switch tr.ID {
		case TaskClarify, TaskIntrinsic, TaskToolReturn, TaskPlan:
			require.Equal(t, "judge:test", tr.Scorer)
			for name, v := range tr.Metrics {
				require.Equal(t, 0.0, v, "task %d %s", tr.ID, name)
			}
		default:
			require.Equal(t, "rules", tr.Scorer)
			for _, v := range tr.Metrics {
				require.Equal(t, 1.0, v)
			}
		}
	}
	judged := 2 + 2 + 3 + 1 // T3, T5, T6, T8 instances of the mini dataset
	require.Equal(t, judged*MinJudgeVotes, model.n, "an even vote count is raised to an odd one, at least 3")
	require.Contains(t, model.prompts[0], "Criterion:")
}

func TestParseVote(t *testing.T) {
	for text, want := range map[string]string{
		"VERDICT: PASS":                   "pass",
		"verdict = fail":                  "fail",
		"**Verdict:** PASS":               "pass",
		"VERDICT: FAIL ... VERDICT: PASS": "pass",
		"PASS":                            "pass",
		"It could PASS or FAIL":           "invalid",
		"":                                "invalid",
	} {
		require.Equal(t, want, parseVote(text), text)
	}
}

// TestJudgeCannotPassCopiedData: a judge that passes everything still
// cannot pass a Task-6 reply that pastes the tool's JSON; it is not asked.
func TestJudgeCannotPassCopiedData(t *testing.T) {
	model := &scriptedJudge{answers: []string{"VERDICT: PASS"}}
	j := &Judge{Model: model, Name: "judge:test", Votes: 3}
	paste := funcAgent(func(_ context.Context, msgs []agent.Message, _ []toolset.OpenAITool) (agent.Reply, error) {
		return agent.Reply{Content: msgs[len(msgs)-1].Content}, nil
	})
	rep := runMini(t, paste, "paste", func(c *Config) { c.Judge = j; c.Tasks = []int{TaskToolReturn} })
	require.Len(t, rep.Tasks, 1)
	require.Equal(t, 0.0, rep.Tasks[0].Metrics["passing_rate"])
	require.Equal(t, rep.Tasks[0].Planned, rep.Tasks[0].Outcomes[OutcomeCopied], "every pasted reply is copied data")
	require.Zero(t, model.n, "the judge is not asked about copied data")
}
