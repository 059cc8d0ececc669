package calibration

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/understudy/understudy/agent/agenttest"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/dataset"
	"github.com/understudy/understudy/fixtures"
	"github.com/understudy/understudy/internal/assemble"
)

var verbose = flag.Bool("calibration.failures", false, "log every calibration answer that fails, with its verdict")

// Bar is the share of the corpus's answers that must pass, per task and
// per style: below it a scorer rejects answers users would be glad to get.
const Bar = 0.95

func readCorpus(t testing.TB) []Entry {
	t.Helper()
	f, err := os.Open("testdata/natural-answers.jsonl")
	require.NoError(t, err)
	defer f.Close()
	es, err := Read(f)
	require.NoError(t, err)
	require.NotEmpty(t, es)
	return es
}

var (
	stackOnce sync.Once
	stack     *assemble.Stack
	stackErr  error
)

func testStack(t testing.TB) *assemble.Stack {
	stackOnce.Do(func() { stack, stackErr = assemble.Build(assemble.Config{}) })
	require.NoError(t, stackErr)
	return stack
}

// outcome is one answer's verdict.
type outcome struct {
	key, style, outcome, detail string
	pass                        bool
	missed                      []string
}

// scoreStyle runs the evaluator through -agent openai over the corpus's
// instances of one task, with a model server that answers each request
// with the stored answer of one style, and returns every verdict and the
// keys whose request no stored one matches (their text changed since).
func scoreStyle(t *testing.T, task int, es []Entry, style string, ins []dataset.Instruction) ([]outcome, []string) {
	t.Helper()
	byText := map[string]Answer{}
	keep := map[string]bool{}
	for _, e := range es {
		roles, contents := make([]string, len(e.Messages)), make([]string, len(e.Messages))
		for i, m := range e.Messages {
			roles[i], contents[i] = m.Role, m.Content
		}
		byText[UserText(roles, contents)] = e.Answers[style]
		keep[e.ID] = true
	}
	var mu sync.Mutex
	var unmatched []string
	srv := agenttest.NewPolicyServer(t, func(req agenttest.ChatRequest) (agenttest.Turn, error) {
		roles, contents := make([]string, len(req.Messages)), make([]string, len(req.Messages))
		for i, m := range req.Messages {
			roles[i], contents[i] = m.Role, m.Content
		}
		a, ok := byText[UserText(roles, contents)]
		if !ok {
			mu.Lock()
			unmatched = append(unmatched, UserText(roles, contents))
			mu.Unlock()
			return agenttest.Text("(no stored answer)"), nil
		}
		if a.ToolCall != nil {
			return agenttest.Tool(a.ToolCall.Name, string(a.ToolCall.Arguments)), nil
		}
		return agenttest.Text(a.Content), nil
	})
	srv.AllowUnused()
	a, err := evaltasks.NewAgent("openai", evaltasks.AgentOptions{BaseURL: srv.URL(), Model: "calibration-" + style, MaxRetries: 0, Concurrency: 4})
	require.NoError(t, err)
	var sel []dataset.Instruction
	for _, in := range ins {
		if keep[in.ID] {
			sel = append(sel, in)
		}
	}
	rep, err := evaltasks.Run(context.Background(), evaltasks.Config{
		Tasks: []int{task}, Agent: a, AgentName: "calibration", Instructions: sel, Stack: testStack(t), Concurrency: 4,
	})
	require.NoError(t, err)
	failed := map[string]*evaltasks.Failure{}
	for i := range rep.Failures {
		failed[rep.Failures[i].Key] = &rep.Failures[i]
	}
	var out []outcome
	for _, s := range rep.Instances {
		o := outcome{key: s.Key, style: style, outcome: s.Outcome, pass: s.Pass}
		if f := failed[s.Key]; f != nil && f.Result != nil {
			o.detail, o.missed = f.Detail, f.Missed
		}
		out = append(out, o)
	}
	sort.Strings(unmatched)
	return out, unmatched
}

// TestNaturalAnswersPass scores every answer of the corpus against its
// instance's current labels and holds each task and style to Bar.
func TestNaturalAnswersPass(t *testing.T) {
	if testing.Short() {
		t.Skip("scores 160 instances twice through a loopback model server")
	}
	es := readCorpus(t)
	ins, err := dataset.LoadDir(fixtures.FS, "instructions")
	require.NoError(t, err)
	ids := map[string]bool{}
	for _, in := range ins {
		ids[in.ID] = true
	}
	byTask := map[int][]Entry{}
	var gone []string
	for _, e := range es {
		n, err := e.TaskNumber()
		require.NoError(t, err)
		if !ids[e.ID] {
			gone = append(gone, e.Task+"/"+e.ID)
			continue
		}
		byTask[n] = append(byTask[n], e)
	}
	require.Empty(t, gone, "corpus entries whose instance the dataset no longer holds")
	tasks := make([]int, 0, len(byTask))
	for n := range byTask {
		tasks = append(tasks, n)
	}
	sort.Ints(tasks)
	var table strings.Builder
	var below []string
	fmt.Fprintf(&table, "%-5s %-9s %6s %6s\n", "task", "style", "pass", "share")
	for _, task := range tasks {
		for _, style := range Styles {
			got, unmatched := scoreStyle(t, task, byTask[task], style, ins)
			require.Empty(t, unmatched, "T%d %s: requests the corpus holds no answer for (the instance's text changed since it was written)", task, style)
			require.Len(t, got, len(byTask[task]), "T%d %s: every entry scored once", task, style)
			pass := 0
			for _, o := range got {
				if o.pass {
					pass++
				} else if *verbose {
					t.Logf("T%d %s %s: %s %s missed=%q", task, style, o.key, o.outcome, o.detail, o.missed)
				}
			}
			share := float64(pass) / float64(len(got))
			fmt.Fprintf(&table, "T%-4d %-9s %3d/%-3d %5.2f\n", task, style, pass, len(got), share)
			if share+1e-9 < Bar {
				below = append(below, fmt.Sprintf("T%d %s: %d of %d pass, under %.2f", task, style, pass, len(got), Bar))
			}
		}
	}
	t.Logf("natural answers passing, by task and style:\n%s", table.String())
	require.Empty(t, below, "natural answers rejected (run with -calibration.failures to see which)")
}
