package evaltasks

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/evaltasks/dataset"
)

// JudgedTasks are the tasks an LLM judge may score instead of the rules.
var JudgedTasks = []int{TaskClarify, TaskIntrinsic, TaskToolReturn, TaskPlan}

// MinJudgeVotes is the least number of votes a judge casts per instance.
const MinJudgeVotes = 3

// Judge scores a reply with a language model: several votes at
// temperature 0, decided by majority. It fails closed: a vote it cannot
// obtain or read is no verdict, an instance without a majority is an
// error (*JudgeError), and a judge never reached stops the run
// (*JudgeUnreachableError).
type Judge struct {
	// Model answers the judging prompts (an openai.Client configured
	// with temperature 0, or any agent in tests).
	Model agent.Agent
	// Name names the judge in reports, e.g. "judge:gpt-4o".
	Name  string
	Votes int // at least MinJudgeVotes; an even number is raised by one
	// StopAfter is how many instances in a row the judge may leave
	// without a verdict before Ask stops the run (*JudgeFailingError):
	// 0 means DefaultJudgeStopAfter, a negative number never stops (the
	// errors score as failures, as -allow-errors asks).
	StopAfter int

	// reached is set once the judge's server has answered anything, even
	// an HTTP error.
	reached atomic.Bool
	// inARow counts the instances without a verdict since the last one
	// with a verdict; lastErr is the judge's last failure, said.
	inARow  atomic.Int32
	lastErr atomic.Value
}

// DefaultJudgeStopAfter is how many instances in a row without a verdict
// stop a run: a judge that fails so often is broken, and a run that goes
// on would score every instance as a judge error.
const DefaultJudgeStopAfter = 5

// MaxJudgeReply bounds a vote's text: a longer reply is no verdict
// (JudgeOversized), whatever it says, and is kept cut to the bound. A
// judge asked to think briefly and end with a verdict line writes a few
// hundred bytes.
const MaxJudgeReply = 32 << 10

// JudgeOversized is the failure kind of a vote whose reply is longer
// than MaxJudgeReply.
const JudgeOversized = "oversized"

// JudgeFailingError stops a run whose judge left more than StopAfter
// instances in a row without a verdict (server errors, replies without a
// verdict, oversized replies); Last is the judge's last failure.
type JudgeFailingError struct {
	Judge  string
	InARow int
	Last   string
}

func (e *JudgeFailingError) Error() string {
	return fmt.Sprintf("the judge %s gave no verdict on %d instances in a row (last: %s); the run stops rather than score them all as judge errors (-allow-errors scores them as failures and goes on)", e.Judge, e.InARow, e.Last)
}

// Votes of a JudgeRecord.
const (
	VotePass = "pass"
	VoteFail = "fail"
	// VoteInvalid is an answer that holds no verdict the parser reads.
	VoteInvalid = "invalid"
	// VoteError is a vote the judge did not give: its server failed.
	VoteError = "error"
)

// JudgeUnparseable is the failure kind of a VoteInvalid vote; a VoteError
// vote's kind is the server's error kind (AgentErrorKind: "http_500",
// "timeout", "unreachable", "bad_response", ...).
const JudgeUnparseable = "unparseable"

// JudgeRecord is the judge's work on one instance, kept in results.
type JudgeRecord struct {
	Prompt string   `json:"prompt"`
	Votes  []string `json:"votes"` // VotePass, VoteFail, VoteInvalid or VoteError, in order
	Raw    []string `json:"raw"`   // each vote's text
	Pass   bool     `json:"pass"`  // a majority of all votes passed
	Rule   bool     `json:"rule"`  // what the rule scorer said
	// Errors are the failed votes' errors; Failed their kinds (a server
	// error kind, or JudgeUnparseable), one per vote that is no verdict.
	Errors []string `json:"errors,omitempty"`
	Failed []string `json:"failed,omitempty"`
	// NoMajority is set when neither pass nor fail won more than half of
	// the votes: the instance has no verdict and is a judge error.
	NoMajority bool `json:"no_majority,omitempty"`
}

// ErrorJudge is the error kind of an instance the judge left without a
// majority (see JudgeError). Like an agent error, it scores as a failure
// and is retried on resume.
const ErrorJudge = "judge"

// JudgeError reports an instance without a verdict: the judge's votes
// that could be obtained and read formed no majority.
type JudgeError struct {
	Judge  string
	Votes  []string // as in JudgeRecord
	Failed []string // the failed votes' kinds
}

func (e *JudgeError) Error() string {
	return fmt.Sprintf("judge %s gave no majority: votes %s; %d of %d failed (%s)", e.Judge, strings.Join(e.Votes, "/"), len(e.Failed), len(e.Votes), strings.Join(e.Failed, ", "))
}

// JudgeUnreachableError reports a judge whose server never answered
// (connection refused, no answer within the timeout): the run stops at
// once rather than record a judge error on every instance. What was
// recorded is saved; resuming retries the instances left.
type JudgeUnreachableError struct {
	Judge string
	// Kind is the error kind (ErrorUnreachable or ErrorTimeout), Err the
	// error.
	Kind, Err string
}

func (e *JudgeUnreachableError) Error() string {
	return fmt.Sprintf("the judge %s was never reached (%s: %s)", e.Judge, e.Kind, e.Err)
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
		return VotePass
	case hasFail && !hasPass:
		return VoteFail
	}
	return VoteInvalid
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

// judge asks the model for its votes on a reply; see Ask.
func (j *Judge) judge(ctx context.Context, task int, in *dataset.Instruction, reply string, rule bool) (*JudgeRecord, error) {
	rec, err := j.Ask(ctx, JudgeSystem, judgePrompt(task, in, reply), ParseVote)
	if rec != nil {
		rec.Rule = rule
	}
	return rec, err
}

// ParseVote reads a PASS/FAIL vote: the last "VERDICT: PASS|FAIL", else a
// bare PASS or FAIL; anything else is VoteInvalid.
func ParseVote(text string) string { return parseVote(text) }

// Ask casts the judge's votes on one prompt under a system message; parse
// reads each answer as VotePass, VoteFail or VoteInvalid. A majority of
// all votes cast decides: more than half pass, or more than half fail. It
// fails closed. A vote the judge's server fails to give (after the
// client's retries) is VoteError, and one parse cannot read VoteInvalid:
// neither is a verdict, each is kept with its kind. When the votes left
// form no majority, Ask returns the record (NoMajority set) with a
// *JudgeError, which the caller records as the instance's error. When the
// server has never answered and a vote cannot reach it (connection
// refused, timeout), Ask returns a *JudgeUnreachableError at once: the
// run must stop. A cancelled context aborts. Suites with their own
// criteria (the ToolBench pass rate) judge through it.
func (j *Judge) Ask(ctx context.Context, system, prompt string, parse func(string) string) (*JudgeRecord, error) {
	rec := &JudgeRecord{Prompt: prompt}
	msgs := []agent.Message{{Role: agent.RoleSystem, Content: system}, {Role: agent.RoleUser, Content: rec.Prompt}}
	pass, fail := 0, 0
	n := j.votes()
	for i := 0; i < n; i++ {
		r, err := j.Model.Respond(ctx, msgs, nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			kind := AgentErrorKind(err)
			if !unreachedKind(kind, err.Error()) {
				j.reached.Store(true)
			} else if !j.reached.Load() {
				return nil, &JudgeUnreachableError{Judge: j.Name, Kind: kind, Err: err.Error()}
			}
			rec.Errors, rec.Failed = append(rec.Errors, err.Error()), append(rec.Failed, kind)
			rec.Votes, rec.Raw = append(rec.Votes, VoteError), append(rec.Raw, "")
			j.lastErr.Store(kind + ": " + err.Error())
			continue
		}
		j.reached.Store(true)
		if len(r.Content) > MaxJudgeReply {
			// Not read at all: a reply this long is no verdict, and
			// parsing it would cost what the judge chose to write.
			rec.Votes, rec.Raw = append(rec.Votes, VoteInvalid), append(rec.Raw, cutReply(r.Content, MaxJudgeReply))
			rec.Failed = append(rec.Failed, JudgeOversized)
			j.lastErr.Store(fmt.Sprintf("%s: a reply of %d bytes, over %d", JudgeOversized, len(r.Content), MaxJudgeReply))
			continue
		}
		v := parse(r.Content)
		rec.Votes, rec.Raw = append(rec.Votes, v), append(rec.Raw, r.Content)
		switch v {
		case VotePass:
			pass++
		case VoteFail:
			fail++
		default:
			rec.Failed = append(rec.Failed, JudgeUnparseable)
			j.lastErr.Store(fmt.Sprintf("%s: %q", JudgeUnparseable, cutReply(r.Content, 200)))
		}
	}
	rec.Pass = pass*2 > n
	if !rec.Pass && fail*2 <= n {
		rec.NoMajority = true
		if err := j.failedInARow(); err != nil {
			return rec, err
		}
		return rec, &JudgeError{Judge: j.Name, Votes: rec.Votes, Failed: rec.Failed}
	}
	j.inARow.Store(0)
	return rec, nil
}

// failedInARow counts an instance without a verdict and returns the
// *JudgeFailingError that stops the run once more than StopAfter came in
// a row.
func (j *Judge) failedInARow() error {
	n := int(j.inARow.Add(1))
	stop := j.StopAfter
	if stop == 0 {
		stop = DefaultJudgeStopAfter
	}
	if stop < 0 || n <= stop {
		return nil
	}
	last, _ := j.lastErr.Load().(string)
	return &JudgeFailingError{Judge: j.Name, InARow: n, Last: last}
}

// cutReply is the first n bytes of s, cut at a rune boundary, marked.
func cutReply(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// JudgeFailures counts what a judge failed to do over a set of instances:
// votes it did not give or that held no verdict, by kind, and instances
// left without a majority (errors).
type JudgeFailures struct {
	Judge string `json:"judge"`
	// Votes counts every vote cast; FailedVotes those that are no
	// verdict, by kind (server error kinds, JudgeUnparseable).
	Votes       int            `json:"votes"`
	FailedVotes map[string]int `json:"failed_votes"`
	NoMajority  int            `json:"no_majority"`
}

// AddJudgeRecord counts a record's votes into f (a new one when f is
// nil) and returns it.
func AddJudgeRecord(f *JudgeFailures, judge string, rec *JudgeRecord) *JudgeFailures {
	if rec == nil {
		return f
	}
	if f == nil {
		f = &JudgeFailures{Judge: judge, FailedVotes: map[string]int{}}
	}
	f.Votes += len(rec.Votes)
	for _, k := range rec.Failed {
		f.FailedVotes[k]++
	}
	if rec.NoMajority {
		f.NoMajority++
	}
	return f
}

// Failed tells whether any vote failed.
func (f *JudgeFailures) Failed() bool { return f != nil && len(f.FailedVotes) > 0 }

// String says how often the judge failed: "judge:x failed 12 of 300
// votes (http_500 10, unparseable 2); 3 instances had no majority".
func (f *JudgeFailures) String() string {
	n := 0
	for _, c := range f.FailedVotes {
		n += c
	}
	s := fmt.Sprintf("the judge %s failed %d of %d votes (%s)", f.Judge, n, f.Votes, kindCounts(f.FailedVotes))
	switch f.NoMajority {
	case 0:
		s += "; every instance still had a majority"
	case 1:
		s += "; 1 instance had no majority and is an error"
	default:
		s += fmt.Sprintf("; %d instances had no majority and are errors", f.NoMajority)
	}
	return s
}
