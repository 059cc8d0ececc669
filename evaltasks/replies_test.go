package evaltasks

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/toolset"
)

func TestCapReply(t *testing.T) {
	big := strings.Repeat("é", 40) // 80 bytes of 2-byte characters
	tests := []struct {
		name  string
		reply agent.Reply
		limit int
		check func(t *testing.T, r agent.Reply, cut int)
	}{
		{"small reply untouched", agent.Reply{Content: "Lisbon is 17 °C.", Reasoning: "easy"}, 64, func(t *testing.T, r agent.Reply, cut int) {
			require.Zero(t, cut)
			require.Equal(t, agent.Reply{Content: "Lisbon is 17 °C.", Reasoning: "easy"}, r)
		}},
		{"text cut on a character boundary", agent.Reply{Content: big}, 33, func(t *testing.T, r agent.Reply, cut int) {
			require.Equal(t, strings.Repeat("é", 16), r.Content)
			require.Equal(t, 80-32, cut)
		}},
		{"reasoning gets what the text left", agent.Reply{Content: strings.Repeat("a", 30), Reasoning: strings.Repeat("b", 30)}, 40, func(t *testing.T, r agent.Reply, cut int) {
			require.Len(t, r.Content, 30)
			require.Equal(t, strings.Repeat("b", 10), r.Reasoning)
			require.Equal(t, 20, cut)
		}},
		{"calls that do not fit make a parse error", agent.Reply{ToolCalls: []agent.ToolCall{
			{ID: "1", Name: "f", Arguments: json.RawMessage(`{"a":1}`)},
			{ID: "2", Name: "g", Arguments: json.RawMessage(`{"b":"` + strings.Repeat("x", 100) + `"}`)},
		}}, 40, func(t *testing.T, r agent.Reply, cut int) {
			require.Len(t, r.ToolCalls, 1, "the first call fits")
			require.Equal(t, "f", r.ToolCalls[0].Name)
			require.Contains(t, r.ParseError, "1 tool calls of the reply did not fit")
			_, bad := parseFailure(r)
			require.True(t, bad, "a reply cut in its calls never passes on what is left")
			require.Positive(t, cut)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.reply
			cut := capReply(&r, tt.limit)
			tt.check(t, r, cut)
		})
	}
}

// TestMalformedReplyIsAnError: a model server whose choice carries no
// message gives an error of kind malformed-reply; taken as an empty
// answer it would score every Task-1 negative as correct.
func TestMalformedReplyIsAnError(t *testing.T) {
	srv := agenttest.NewPolicyServer(t, func(agenttest.ChatRequest) (agenttest.Turn, error) {
		return agenttest.Raw(200, `{"choices":[{"index":0,"finish_reason":"stop"}],"usage":{"prompt_tokens":"many"}}`), nil
	})
	client, err := NewAgent("openai", AgentOptions{BaseURL: srv.URL(), Model: "m"})
	require.NoError(t, err)
	rep, err := Run(context.Background(), Config{Agent: client, AgentName: "openai", Instructions: miniData(t), Stack: testStack(t), Tasks: []int{TaskDecide}})
	require.NoError(t, err)
	tr := rep.Tasks[0]
	require.Equal(t, tr.Planned, tr.Errors)
	require.Equal(t, map[string]int{ErrorMalformedReply: tr.Planned}, tr.ErrorKinds)
	require.Zero(t, tr.Extra["accuracy"], "no instance counts as answered")
}

// TestHugeRepliesStayBounded runs 40 instances whose model answers 1 MiB
// each through the OpenAI client: what the run keeps (the report with its
// failures, results.jsonl) grows by the capped size, not by the replies'.
// Memory is measured as the live heap after a collection, with the report
// held.
func TestHugeRepliesStayBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("40 replies of 1 MiB")
	}
	const n, size = 40, 1 << 20
	answer := strings.Repeat("The answer is that it depends on the season. ", size/46)
	srv := agenttest.NewPolicyServer(t, func(agenttest.ChatRequest) (agenttest.Turn, error) {
		return agenttest.Text(answer), nil
	})
	client, err := NewAgent("openai", AgentOptions{BaseURL: srv.URL(), Model: "m"})
	require.NoError(t, err)
	ins := embeddedData(t)
	dir := t.TempDir()
	cfg := Config{Agent: client, AgentName: "openai", Instructions: ins, Stack: testStack(t), Tasks: []int{TaskIntrinsic}, Sample: n, OutDir: dir}

	before := liveHeap()
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	after := liveHeap()
	require.Equal(t, n, rep.Tasks[0].N)
	require.Equal(t, n, srv.Count())

	grown := int64(after) - int64(before)
	t.Logf("live heap grew by %d KiB over %d replies of %d KiB", grown>>10, n, size>>10)
	require.Less(t, grown, int64(n*MaxStoredReply*4), "the run keeps about the capped replies, never the 40 MiB answered")

	st, err := os.Stat(filepath.Join(dir, ResultsFile))
	require.NoError(t, err)
	// Each reply is stored twice: as the reply and as the conversation's last message.
	require.Less(t, st.Size(), int64(n*(2*MaxStoredReply+8<<10)), "results.jsonl holds the capped replies")
	res, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	require.NoError(t, err)
	got, err := ReadResults(strings.NewReader(string(res)), ResultsFile)
	require.NoError(t, err)
	for _, r := range got {
		require.NotNil(t, r.Cut, r.Key)
		require.Equal(t, 1, r.Cut.Replies)
		require.Equal(t, len(answer)-len(r.Reply.Content), r.Cut.Bytes)
		require.LessOrEqual(t, len(r.Reply.Content), MaxStoredReply)
	}
	runtime.KeepAlive(rep)
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestScoringReadsABoundedPrefix feeds a 64 KiB reply to every instance
// of every task: the scorers read its first MaxScoredReply bytes and the
// rest is recorded as not read (Result.ScoreCut), so scoring it costs
// what a reply of that size costs. Cost is measured as bytes allocated
// (not time): a 64 KiB reply allocates at most twice what a 16 KiB one
// does, where reading it all made Task 3 cost 7 times as much.
func TestScoringReadsABoundedPrefix(t *testing.T) {
	ins := miniData(t)
	ev := newEvaluator(testStack(t), 0, nil)
	reply := func(size int) string {
		const line = "Step 1: it is 17 degrees in Lisbon on 2025-06-20 at 14:30, about 3.5 km away; not raining. "
		return strings.Repeat(line, size/len(line)+1)[:size]
	}
	run := func(task int, text string) (allocated uint64, results []*Result) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for _, inst := range Instances(ins, []int{task}) {
			a := funcAgent(func(context.Context, []agent.Message, []toolset.OpenAITool) (agent.Reply, error) {
				return agent.Reply{Content: text}, nil
			})
			res, err := ev.runInstance(context.Background(), a, inst)
			require.NoError(t, err)
			results = append(results, res)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, results
	}
	small, big := reply(MaxScoredReply), reply(MaxStoredReply)
	for _, task := range []int{TaskDecide, TaskSelect, TaskClarify, TaskFill, TaskIntrinsic, TaskToolReturn, TaskChain, TaskPlan} {
		t.Run(fmt.Sprintf("task %d", task), func(t *testing.T) {
			run(task, small) // warms the sandbox's caches
			smallCost, _ := run(task, small)
			bigCost, results := run(task, big)
			t.Logf("allocated %d KiB for 16 KiB replies, %d KiB for 64 KiB", smallCost>>10, bigCost>>10)
			require.NotEmpty(t, results)
			for _, res := range results {
				require.Empty(t, res.Error, res.Key)
				require.Equal(t, MaxStoredReply-MaxScoredReply, res.ScoreCut, "%s: the bytes not read are recorded", res.Key)
				require.Nil(t, res.Cut, "%s: a 64 KiB reply is kept whole", res.Key)
			}
			require.LessOrEqual(t, bigCost, 2*smallCost+MaxStoredReply*uint64(4*len(results)), "scoring a 64 KiB reply costs about what a 16 KiB one does")
		})
	}
}
