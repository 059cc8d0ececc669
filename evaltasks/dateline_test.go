package evaltasks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/internal/clock"
	"github.com/understudy/understudy/toolset"
)

func TestDateLine(t *testing.T) {
	require.Equal(t, "Current date and time: Monday 2 June 2025, 09:00 UTC.", DateLine(clock.Frozen()))
	require.Equal(t, DateLine(nil), DateLine(clock.Frozen()))
	lisbon := time.FixedZone("WEST", 3600)
	require.Equal(t, "Current date and time: Friday 13 June 2025, 18:30 UTC+01:00.", DateLine(clock.Fixed(time.Date(2025, 6, 13, 18, 30, 0, 0, lisbon))))
}

// firstMessages records the messages each instance's first request opens with.
type firstMessages struct {
	mu    sync.Mutex
	first map[int][]agent.Message
}

func (f *firstMessages) agent() agent.Agent {
	return funcAgent(func(ctx context.Context, msgs []agent.Message, tools []toolset.OpenAITool) (agent.Reply, error) {
		task := TaskDecide
		for _, m := range msgs {
			if m.Role == agent.RoleSystem && strings.Contains(m.Content, "Finish") {
				task = TaskChain
			}
			if m.Role == agent.RoleSystem && strings.Contains(m.Content, PlanPrompt) {
				task = TaskPlan
			}
		}
		f.mu.Lock()
		if _, ok := f.first[task]; !ok {
			f.first[task] = msgs
		}
		f.mu.Unlock()
		return agent.Oracle{}.Respond(ctx, msgs, tools)
	})
}

// TestConversationsStartWithTheDate: every conversation opens with the
// sandbox's date and time, the clock the tools answer on; -no-date gives
// the paper's bare prompts. run.json and the report say which.
func TestConversationsStartWithTheDate(t *testing.T) {
	line := DateLine(clock.Frozen())
	for _, noDate := range []bool{false, true} {
		rec := &firstMessages{first: map[int][]agent.Message{}}
		dir := t.TempDir()
		rep := runMini(t, rec.agent(), "oracle", func(c *Config) { c.NoDate, c.OutDir = noDate, dir })
		for task, msgs := range rec.first {
			if noDate {
				for _, m := range msgs {
					require.NotContains(t, m.Content, "Current date and time", "task %d", task)
				}
				continue
			}
			require.Equal(t, agent.RoleSystem, msgs[0].Role, "task %d", task)
			require.True(t, strings.HasPrefix(msgs[0].Content, line), "task %d opens with the date line: %q", task, msgs[0].Content)
		}
		require.Contains(t, rec.first, TaskChain)
		require.Contains(t, rec.first, TaskPlan)
		require.Contains(t, rec.first[TaskPlan][0].Content, PlanPrompt)

		want := line
		if noDate {
			want = ""
		}
		require.Equal(t, want, rep.DateLine)
		var m struct {
			DateLine string `json:"date_line"`
		}
		b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &m))
		require.Equal(t, want, m.DateLine, "run.json")
		b, err = os.ReadFile(filepath.Join(dir, ReportFile))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &m))
		require.Equal(t, want, m.DateLine, "report.json")
		md, err := os.ReadFile(filepath.Join(dir, MarkdownFile))
		require.NoError(t, err)
		if noDate {
			require.Contains(t, string(md), "no date line (`-no-date`")
		} else {
			require.Contains(t, string(md), line)
		}
		for _, tr := range rep.Tasks {
			for name, v := range tr.Metrics {
				require.Equal(t, 1.0, v, "task %d %s: the oracle passes either way", tr.ID, name)
			}
		}
	}

	// A run with the line cannot resume one without it.
	dir := t.TempDir()
	runMini(t, agent.Oracle{}, "oracle", func(c *Config) { c.NoDate, c.OutDir, c.Tasks = true, dir, []int{TaskDecide} })
	_, err := Run(context.Background(), Config{Agent: agent.Oracle{}, AgentName: "oracle", Instructions: miniData(t), Stack: testStack(t), OutDir: dir, Resume: true, Tasks: []int{TaskDecide}})
	var rde *RunDirError
	require.ErrorAs(t, err, &rde)
	require.Contains(t, err.Error(), `date line "", now "Current date and time`)
}
