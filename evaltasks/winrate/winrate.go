// Package winrate is ToolEval's win rate: a judge model compares two ToolBench runs' solution paths for each query both answered, under ToolEval's criteria, by majority of at least four votes.
package winrate

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks"
	"github.com/understudy/understudy/evaltasks/toolbench"
)

// MinVotes is ToolEval's number of evaluations per pair (≥ 4).
const MinVotes = 4

// Outcomes of a comparison, from the first run's side.
const (
	Win  = "win"
	Tie  = "tie"
	Lose = "lose"
)

// How a comparison was decided.
const (
	ByPassRate = "pass_rate" // one passed and the other did not: no vote
	ByJudge    = "judge"
)

// ErrNoJudge is the refusal of a comparison without a judge.
var ErrNoJudge = errors.New("winrate: the win rate needs a judge (-judge-url): two solution paths are compared by a model, and no rule stands in for it")

// Config is one comparison of two ToolBench runs.
type Config struct {
	// RunA and RunB are run directories of evalrun -suite toolbench; the
	// win rate is A's against B (B is the reference, as ChatGPT-ReAct is
	// ToolEval's).
	RunA, RunB string
	// Judge compares; nil refuses (ErrNoJudge). Its Votes are raised to MinVotes.
	Judge *evaltasks.Judge
}

// Comparison is one query's comparison.
type Comparison struct {
	Key     string   `json:"key"`
	Group   string   `json:"group"`
	PassA   bool     `json:"pass_a"`
	PassB   bool     `json:"pass_b"`
	Outcome string   `json:"outcome,omitempty"`
	By      string   `json:"by,omitempty"`
	Votes   []string `json:"votes,omitempty"` // win, lose, tie, invalid or error, per vote, A's side
	Raw     []string `json:"raw,omitempty"`
	Prompt  string   `json:"prompt,omitempty"`
	// Error is set when the judge's votes gave no majority: no outcome.
	Error string `json:"error,omitempty"`
}

// Row is the win rate over a set of queries.
type Row struct {
	Group  string `json:"group,omitempty"`
	N      int    `json:"n"`
	Win    int    `json:"win"`
	Tie    int    `json:"tie"`
	Lose   int    `json:"lose"`
	Errors int    `json:"errors,omitempty"`
	// ByPassRate counts the comparisons decided without a vote.
	ByPassRate int `json:"by_pass_rate"`
	// WinRate splits ties half and half (ToolEval's Table 4); RawWin and
	// RawTie are the unsplit shares (Table 6). Each with a 95 % Wilson interval.
	WinRate   float64    `json:"win_rate"`
	WinRateCI [2]float64 `json:"win_rate_ci"`
	RawWin    float64    `json:"raw_win"`
	RawWinCI  [2]float64 `json:"raw_win_ci"`
	RawTie    float64    `json:"raw_tie"`
}

// Report is a win-rate comparison.
type Report struct {
	RunA, RunB  string       `json:"-"`
	LabelA      string       `json:"run_a"`
	LabelB      string       `json:"run_b"`
	Judge       string       `json:"judge"`
	Votes       int          `json:"votes"`
	Overall     Row          `json:"overall"`
	Groups      []Row        `json:"groups"`
	OnlyOne     int          `json:"only_one"` // queries one run answered and the other did not
	Comparisons []Comparison `json:"comparisons"`
}

// Run compares the two runs. A judge that never answers stops it with
// *evaltasks.JudgeUnreachableError; a comparison without a majority is
// counted as an error and in no rate.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Judge == nil || cfg.Judge.Model == nil {
		return nil, ErrNoJudge
	}
	a, la, err := readRun(cfg.RunA)
	if err != nil {
		return nil, err
	}
	b, lb, err := readRun(cfg.RunB)
	if err != nil {
		return nil, err
	}
	votes := max(cfg.Judge.Votes, MinVotes)
	rep := &Report{RunA: cfg.RunA, RunB: cfg.RunB, LabelA: la, LabelB: lb, Judge: cfg.Judge.Name, Votes: votes}
	j := &judge{model: cfg.Judge.Model, name: cfg.Judge.Name, votes: votes}
	for _, k := range slices.Sorted(maps.Keys(a)) {
		ra, rb := a[k], b[k]
		if !answered(ra) || !answered(rb) {
			if answered(ra) != answered(rb) {
				rep.OnlyOne++
			}
			continue
		}
		c := Comparison{Key: k, Group: ra.Group, PassA: passed(ra), PassB: passed(rb)}
		switch {
		case c.PassA && !c.PassB:
			c.Outcome, c.By = Win, ByPassRate
		case !c.PassA && c.PassB:
			c.Outcome, c.By = Lose, ByPassRate
		default:
			if err := j.compare(ctx, ra, rb, &c); err != nil {
				return nil, err
			}
		}
		rep.Comparisons = append(rep.Comparisons, c)
	}
	for k := range b {
		if _, ok := a[k]; !ok && answered(b[k]) {
			rep.OnlyOne++
		}
	}
	groups := map[string][]Comparison{}
	for _, c := range rep.Comparisons {
		groups[c.Group] = append(groups[c.Group], c)
	}
	rep.Overall = row("", rep.Comparisons)
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		rep.Groups = append(rep.Groups, row(g, groups[g]))
	}
	return rep, nil
}

func answered(r *toolbench.Result) bool {
	return r != nil && r.Trajectory != nil && r.Error == "" && r.Outcome != toolbench.OutcomeUnresolved
}

func passed(r *toolbench.Result) bool { return r.Verdict != nil && r.Verdict.Pass }

// readRun reads a ToolBench run's results and names it.
func readRun(dir string) (map[string]*toolbench.Result, string, error) {
	var m struct {
		Suite  string `json:"suite"`
		Agent  string `json:"agent"`
		Model  string `json:"model"`
		Solver string `json:"solver"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		return nil, "", fmt.Errorf("winrate: %s is no run directory: %w", dir, err)
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, "", fmt.Errorf("winrate: %s/run.json: %w", dir, err)
	}
	if m.Suite != "toolbench" {
		return nil, "", fmt.Errorf("winrate: %s is a %q run; the win rate compares -suite toolbench runs", dir, m.Suite)
	}
	f, err := os.Open(filepath.Join(dir, evaltasks.ResultsFile))
	if err != nil {
		return nil, "", fmt.Errorf("winrate: %w", err)
	}
	defer f.Close()
	out := map[string]*toolbench.Result{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for line := 1; sc.Scan(); line++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var r toolbench.Result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, "", fmt.Errorf("winrate: %s/%s:%d: %w", dir, evaltasks.ResultsFile, line, err)
		}
		out[r.Key] = &r
	}
	if err := sc.Err(); err != nil {
		return nil, "", fmt.Errorf("winrate: %s: %w", dir, err)
	}
	label := m.Agent
	if m.Model != "" && m.Model != m.Agent {
		label += " (" + m.Model + ")"
	}
	return out, label + ", " + m.Solver + " [" + filepath.Base(dir) + "]", nil
}

func row(group string, cs []Comparison) Row {
	r := Row{Group: group}
	for _, c := range cs {
		switch c.Outcome {
		case Win:
			r.Win++
		case Tie:
			r.Tie++
		case Lose:
			r.Lose++
		default:
			r.Errors++
			continue
		}
		r.N++
		if c.By == ByPassRate {
			r.ByPassRate++
		}
	}
	if r.N > 0 {
		n := float64(r.N)
		r.WinRate = (float64(r.Win) + float64(r.Tie)/2) / n
		r.RawWin = float64(r.Win) / n
		r.RawTie = float64(r.Tie) / n
	}
	r.WinRateCI = wilson(r.WinRate, r.N)
	r.RawWinCI = wilson(r.RawWin, r.N)
	return r
}

// wilson is the 95 % Wilson score interval of a proportion p of n.
func wilson(p float64, n int) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	const z = 1.959963984540054
	nf := float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return [2]float64{max(0, mid-half), min(1, mid+half)}
}

// judge casts the votes of one comparison.
type judge struct {
	model   agent.Agent
	name    string
	votes   int
	reached bool
}

// System is the comparing judge's system message.
const System = "You compare two solution paths of an AI assistant for the same user instruction, as ToolEval does. Read the instruction and both paths, " +
	"weigh them under the criteria, think briefly, then end with a final line that is exactly PREFERENCE: 1, PREFERENCE: 2 or PREFERENCE: TIE."

// Criteria are ToolEval's rules for preferring one path (ToolLLM A.5), in our words.
const Criteria = `Criteria, in order of importance:
1. Information richness: the final answer holds everything the instruction asks for; a clearly richer answer wins, a similar one that suffices ties.
2. Factuality: the answer says accurately what was done and what failed; the more accurate wins.
3. Reasoning: when the instruction is left unresolved, the path that gives the more detailed and accurate reason wins.
4. Milestones: the path that reaches more of the steps the instruction needs wins.
5. Exploration: the path that tried more potentially useful APIs wins.
6. Cost: with as many APIs used, the path with fewer repeated (redundant) calls wins.`

var preferenceRE = regexp.MustCompile(`(?i)preference\s*[:=]?\s*\**\s*(1|2|tie)\b`)

// parsePreference reads the last PREFERENCE line: "1", "2", "tie", or "".
func parsePreference(text string) string {
	m := preferenceRE.FindAllStringSubmatch(text, -1)
	if len(m) == 0 {
		return ""
	}
	return strings.ToLower(m[len(m)-1][1])
}

// Vote labels besides the outcomes.
const (
	VoteInvalid = "invalid"
	VoteError   = "error"
)

// compare votes; odd votes show B first, so that a judge's taste for a
// position does not decide. A majority of the votes cast decides; when
// half or more are no verdict, the comparison is an error.
func (j *judge) compare(ctx context.Context, a, b *toolbench.Result, c *Comparison) error {
	ab, ba := Prompt(a.Query, a, b), Prompt(a.Query, b, a)
	c.Prompt, c.By = ab, ByJudge
	count := map[string]int{}
	for i := range j.votes {
		prompt, swapped := ab, false
		if i%2 == 1 {
			prompt, swapped = ba, true
		}
		reply, err := j.model.Respond(ctx, []agent.Message{{Role: agent.RoleSystem, Content: System}, {Role: agent.RoleUser, Content: prompt}}, nil)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			kind := evaltasks.AgentErrorKind(err)
			if !j.reached && (kind == evaltasks.ErrorUnreachable || kind == evaltasks.ErrorTimeout) {
				return &evaltasks.JudgeUnreachableError{Judge: j.name, Kind: kind, Err: err.Error()}
			}
			j.reached = true
			c.Votes, c.Raw = append(c.Votes, VoteError), append(c.Raw, err.Error())
			continue
		}
		j.reached = true
		v := VoteInvalid
		switch p := parsePreference(reply.Content); {
		case p == "tie":
			v = Tie
		case p == "1" && !swapped, p == "2" && swapped:
			v = Win
		case p == "1" || p == "2":
			v = Lose
		}
		count[v]++
		c.Votes, c.Raw = append(c.Votes, v), append(c.Raw, reply.Content)
	}
	valid := count[Win] + count[Tie] + count[Lose]
	if valid*2 <= j.votes {
		c.Error = fmt.Sprintf("judge %s gave no majority: votes %s", j.name, strings.Join(c.Votes, "/"))
		return nil
	}
	switch {
	case count[Win] > count[Lose] && count[Win] > count[Tie]:
		c.Outcome = Win
	case count[Lose] > count[Win] && count[Lose] > count[Tie]:
		c.Outcome = Lose
	default:
		c.Outcome = Tie
	}
	return nil
}

// maxShown bounds each observation and the answer in a prompt.
const maxShown = 600

// Prompt is the judge's request for one order of the two paths.
func Prompt(query string, first, second *toolbench.Result) string {
	var b strings.Builder
	b.WriteString(Criteria + "\n\nInstruction:\n" + query + "\n")
	for i, r := range []*toolbench.Result{first, second} {
		fmt.Fprintf(&b, "\nSolution path %d:\n", i+1)
		writePath(&b, r)
	}
	b.WriteString("\nWhich path is better under the criteria? End with PREFERENCE: 1, PREFERENCE: 2 or PREFERENCE: TIE.")
	return b.String()
}

func writePath(b *strings.Builder, r *toolbench.Result) {
	tr := r.Trajectory
	calls := tr.PathCalls()
	if len(calls) == 0 {
		b.WriteString("(no API calls)\n")
	}
	for i, c := range calls {
		args := string(c.Arguments)
		if args == "" {
			args = c.RawArguments
		}
		fmt.Fprintf(b, "%d. %s(%s) -> %s\n", i+1, c.Function, clip(args, maxShown), clip(c.Observation, maxShown))
	}
	switch {
	case tr.Outcome == "answer":
		b.WriteString("Final answer: " + clip(tr.Answer, 2*maxShown) + "\n")
	case tr.Error != "":
		b.WriteString("Ended without an answer (" + tr.Outcome + "): " + clip(tr.Error, maxShown) + "\n")
	default:
		b.WriteString("Ended without an answer (" + tr.Outcome + ")\n")
	}
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… [%d bytes cut]", len(s)-cut)
}
