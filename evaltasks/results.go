package evaltasks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"sync"

	"github.com/understudy/understudy/agent"
	"github.com/understudy/understudy/agent/openai"
	"github.com/understudy/understudy/evaltasks/callcheck"
	"github.com/understudy/understudy/evaltasks/chainscore"
	"github.com/understudy/understudy/evaltasks/dataset"
)

// Result is one scored instance: a line of results.jsonl.
type Result struct {
	Key      string `json:"key"` // "T<task>/<instruction id>"
	Task     int    `json:"task"`
	Instance string `json:"instance"`
	// Label is Task 1's class: "positive" (Type II) or "negative" (Type I).
	Label string `json:"label,omitempty"`
	// Called tells whether the (first) reply calls a tool.
	Called  bool    `json:"called"`
	Outcome string  `json:"outcome"`
	Pass    bool    `json:"pass"`
	Score   float64 `json:"score"`
	Detail  string  `json:"detail,omitempty"`
	// Missed lists the missing parameters not asked for (T3), key points
	// (T5), facts (T6), or group APIs and key steps (T8) not found.
	Missed   []string            `json:"missed,omitempty"`
	Mistakes []callcheck.Mistake `json:"mistakes,omitempty"` // T3: calls made anyway
	Check    *callcheck.Result   `json:"check,omitempty"`    // T4
	// Calls are the calls executed in Task 7, Matched the gold steps they matched.
	Calls   []ExecutedCall `json:"calls,omitempty"`
	Matched int            `json:"matched,omitempty"`
	// Breaks are the gold steps of Task 7 not done, with why (Missed
	// says the same in words).
	Breaks      []chainscore.Break `json:"breaks,omitempty"`
	ParseErrors int                `json:"parse_errors,omitempty"`
	Judge       *JudgeRecord       `json:"judge,omitempty"`
	// Tools are the APIs offered, in the order the agent saw them.
	Tools    []string        `json:"tools,omitempty"`
	Messages []agent.Message `json:"messages,omitempty"`
	Reply    *agent.Reply    `json:"reply,omitempty"`
	// Cut says what MaxStoredReply took from the agent's replies before
	// they were scored and kept.
	Cut *ReplyCut `json:"cut,omitempty"`
	// ScoreCut is how many bytes of the reply's text (Task 7: of the
	// final answer) the scorers did not read, past MaxScoredReply.
	ScoreCut int         `json:"score_cut,omitempty"`
	Usage    agent.Usage `json:"usage"`
	// Error is set when the instance ended in an error instead of an
	// answer. It is an outcome like any other: the instance scores as a
	// failure in its task's metric (see Aggregate). ErrorKind says whose
	// fault it was and how it failed: ErrorData for a bad record, else an
	// agent error kind (see AgentErrorKind), retried on resume.
	Error     string `json:"error,omitempty"`
	ErrorKind string `json:"error_kind,omitempty"`
}

// OutcomeNotRun marks a planned instance without a recorded outcome (an
// interrupted run) in a report; it scores as a failure.
const OutcomeNotRun = "not_run"

// Error kinds of a result. An agent error that is none of the specific
// kinds is ErrorAgent; a model server's HTTP error answer (after retries)
// is "http_<status>", e.g. "http_400" for a context too long.
const (
	ErrorData = "data"
	// ErrorAgent is an agent failure of no more specific kind.
	ErrorAgent = "agent"
	// ErrorUnreachable: the model server could not be reached (connection
	// refused, DNS failure, connection dropped before an answer).
	ErrorUnreachable = "unreachable"
	// ErrorTimeout: no complete answer within the timeout.
	ErrorTimeout = "timeout"
	// ErrorBadResponse: an answer the client could not decode.
	ErrorBadResponse = "bad_response"
	// ErrorMalformedReply: an answer whose choice has no message, which
	// must not pass for an empty reply.
	ErrorMalformedReply = "malformed-reply"
)

// AgentErrorKind classifies an agent's error for reports.
func AgentErrorKind(err error) string {
	var (
		ae *openai.APIError
		te *openai.TimeoutError
		ce *openai.ConnectionError
		de *openai.DecodeError
		me *openai.MalformedReplyError
	)
	switch {
	case errors.As(err, &ae):
		return "http_" + strconv.Itoa(ae.Status)
	case errors.As(err, &te):
		return ErrorTimeout
	case errors.As(err, &ce):
		return ErrorUnreachable
	case errors.As(err, &de):
		return ErrorBadResponse
	case errors.As(err, &me):
		return ErrorMalformedReply
	}
	return ErrorAgent
}

// agentError tells whether the instance ended in an agent error (any kind
// but ErrorData).
func (res *Result) agentError() bool { return res.Error != "" && res.ErrorKind != ErrorData }

// unreachedKind tells whether an instance that ended with an error of
// kind never reached the model server at all.
func unreachedKind(kind, errText string) bool {
	return errText != "" && (kind == ErrorUnreachable || kind == ErrorTimeout)
}

func (res *Result) addUsage(u agent.Usage) {
	res.Usage.PromptTokens += u.PromptTokens
	res.Usage.CompletionTokens += u.CompletionTokens
	res.Usage.TotalTokens += u.TotalTokens
}

// resultsFile appends results, one JSON line each, synced to disk as each
// completes so that an interrupted run loses nothing it finished.
type resultsFile struct {
	mu sync.Mutex
	f  *os.File
}

// openResults opens results.jsonl for appending, with the given mode
// (RunFileMode) whether it is new or continued. A last line cut short by
// a crash is removed first.
func openResults(path string, mode fs.FileMode) (*resultsFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, mode)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	if n := len(data); n > 0 && data[n-1] != '\n' {
		keep := bytes.LastIndexByte(data, '\n') + 1
		if err := f.Truncate(int64(keep)); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: cutting a partial last line: %w", path, err)
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, err
	}
	return &resultsFile{f: f}, nil
}

func (w *resultsFile) append(res any) error {
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.f.Write(line); err != nil {
		return err
	}
	return w.f.Sync()
}

func (w *resultsFile) close() error { return w.f.Close() }

// ReadResults reads results.jsonl; a later line for the same key replaces
// an earlier one (a retried instance). A last line cut short by a crash
// (no newline) is ignored; a bad complete line is an error.
func ReadResults(r io.Reader, file string) (map[string]*Result, error) {
	out := map[string]*Result{}
	err := scanResultLines(r, file, func(line []byte) (string, error) {
		var res Result
		if err := json.Unmarshal(line, &res); err != nil {
			return "", err
		}
		out[res.Key] = &res
		return res.Key, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scanResultLines hands each complete, non-blank line of a results file
// to decode, which returns the line's key. A last line without its
// newline was cut short by a crash and is skipped (its item runs again);
// a line decode rejects, or one without a key, is a *dataset.LineError.
func scanResultLines(r io.Reader, file string, decode func(line []byte) (string, error)) error {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		key, err := decode(line)
		if err != nil {
			return &dataset.LineError{File: file, Line: n, Err: err}
		}
		if key == "" {
			return &dataset.LineError{File: file, Line: n, Err: errors.New("a result without a key")}
		}
	}
}
