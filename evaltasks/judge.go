package evaltasks

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
)

// JudgedTasks are the tasks an LLM judge may score instead of the rules.
var JudgedTasks = []int{TaskClarify, TaskIntrinsic, TaskToolReturn, TaskPlan}

// MinJudgeVotes is the least number of votes a judge casts per instance.
const MinJudgeVotes = 3

// Judge scores a reply with a language model: several votes at
// temperature 0, decided by majority.
type Judge struct {
	// Model answers the judging prompts (an openai.Client configured
	// with temperature 0, or any agent in tests).
	Model agent.Agent
	// Name names the judge in reports, e.g. "judge:gpt-4o".
	Name  string
	Votes int // at least MinJudgeVotes; an even number is raised by one
}

// JudgeRecord is the judge's work on one instance, kept in results.
type JudgeRecord struct {
	Prompt string   `json:"prompt"`
	Votes  []string `json:"votes"` // "pass", "fail" or "invalid", in order
	Raw    []string `json:"raw"`   // each vote's text
	Pass   bool     `json:"pass"`  // majority of all votes
	Rule   bool     `json:"rule"`  // what the rule scorer said
	Errors []string `json:"errors,omitempty"`
}

func (j *Judge) votes() int {
	n := j.Votes
	if n < MinJudgeVotes {
		n = MinJudgeVotes
	}
	if n%2 == 0 {
		n++
	}
	return n
}

// judges tells whether the judge scores a task.
func (j *Judge) judges(task int) bool {
	if j == nil || j.Model == nil {
		return false
	}
	for _, t := range JudgedTasks {
		if t == task {
			return true
		}
	}
	return false
}

// JudgeSystem is the judge's system message.
const JudgeSystem = "You are a strict evaluator of an AI assistant's replies. Read the criterion, the user's message, the reference information and the assistant's reply. Think briefly, then end with a final line that is exactly VERDICT: PASS or VERDICT: FAIL."

var verdictRE = regexp.MustCompile(`(?i)verdict\s*[:=]?\s*\**\s*(pass|fail)`)

// parseVote reads a vote: the last "VERDICT: PASS|FAIL", else a bare PASS or FAIL.
func parseVote(text string) string {
	if m := verdictRE.FindAllStringSubmatch(text, -1); len(m) > 0 {
		return strings.ToLower(m[len(m)-1][1])
	}
	t := strings.ToUpper(strings.TrimSpace(text))
	hasPass, hasFail := strings.Contains(t, "PASS"), strings.Contains(t, "FAIL")
	switch {
	case hasPass && !hasFail:
		return "pass"
	case hasFail && !hasPass:
		return "fail"
	}
	return "invalid"
}

// judgePrompt states the task's criterion and the material to judge.
func judgePrompt(task int, in *dataset.Instruction, reply string) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	switch task {
	case TaskClarify:
		w("Criterion: the user's request cannot be carried out because required information is missing (%s). The reply PASSES if it does not guess the missing information and asks the user for it; it FAILS if it makes up values or does not ask.\n", strings.Join(in.Missing, ", "))
	case TaskIntrinsic:
		w("Criterion: the question needs no tool. The reply PASSES if it answers the question itself, relevantly and correctly, in line with the reference answer and key points; it FAILS if it is off-topic, wrong, or only says it would need a tool.\n")
		w("Reference answer: %s\nKey points:\n", in.ReferenceAnswer)
		for _, k := range in.KeyPoints {
			w("- %s\n", k)
		}
	case TaskToolReturn:
		w("Criterion: the assistant called a tool and now answers from its result. The reply PASSES if it states the expected facts correctly; values such as URLs, coordinates, decimals and identifiers must be copied exactly. It FAILS if a fact is missing, altered or invented.\nExpected facts:\n")
		for _, f := range in.ExpectedFacts {
			w("- %s\n", f)
		}
	case TaskPlan:
		w("Criterion: the reply is a plan for a high-level request. It PASSES if the plan is sound, uses the relevant APIs with a correct understanding of what each does, and covers the key steps; it FAILS otherwise.\nRelevant APIs: %s\nKey steps:\n", strings.Join(in.GroupAPIs, ", "))
		for _, s := range in.KeySteps {
			w("- %s\n", s)
		}
	}
	w("\nUser's message:\n%s\n\nAssistant's reply:\n%s\n", in.Text, reply)
	return b.String()
}

// judge asks the model for its votes on a reply. Errors of single votes
// are kept and count as invalid votes; only a cancelled context aborts.
func (j *Judge) judge(ctx context.Context, task int, in *dataset.Instruction, reply string, rule bool) (*JudgeRecord, error) {
	rec, err := j.Ask(ctx, JudgeSystem, judgePrompt(task, in, reply), ParseVote)
	if err != nil {
		return nil, err
	}
	rec.Rule = rule
	return rec, nil
}

// ParseVote reads a PASS/FAIL vote: the last "VERDICT: PASS|FAIL", else a
// bare PASS or FAIL; anything else is "invalid".
func ParseVote(text string) string { return parseVote(text) }

// Ask casts the judge's votes on one prompt under a system message; parse
// reads each answer as "pass", "fail" or "invalid", and the majority of all
// votes decides. Errors of single votes are kept and count as invalid
// votes; only a cancelled context aborts. Suites with their own criteria
// (the ToolBench pass rate) judge through it.
func (j *Judge) Ask(ctx context.Context, system, prompt string, parse func(string) string) (*JudgeRecord, error) {
	rec := &JudgeRecord{Prompt: prompt}
	msgs := []agent.Message{{Role: agent.RoleSystem, Content: system}, {Role: agent.RoleUser, Content: rec.Prompt}}
	pass := 0
	n := j.votes()
	for i := 0; i < n; i++ {
		r, err := j.Model.Respond(ctx, msgs, nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			rec.Errors = append(rec.Errors, err.Error())
			rec.Votes, rec.Raw = append(rec.Votes, "invalid"), append(rec.Raw, "")
			continue
		}
		v := parse(r.Content)
		rec.Votes, rec.Raw = append(rec.Votes, v), append(rec.Raw, r.Content)
		if v == "pass" {
			pass++
		}
	}
	rec.Pass = pass*2 > n
	return rec, nil
}
